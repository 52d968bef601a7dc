"""Perft-like counts: legal moves from fixed positions, kept as data (tests/data/perft_*.json).

Most entries record what the engine listed when they were written (a change of the move list
shows up here). A few small ones, which carry a ``verified_by_hand`` note, were counted by hand
from the rules instead, the note giving the reasoning: those counts do not come from the engine,
and the regeneration below keeps them as they are.

Regenerate after a deliberate change of the move list with:
    .venv/bin/python tests/test_perft.py --write
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from canasta.engine.state import HandState
from canasta.match import Match
from canasta.position import position_from_json, position_to_json
from canasta.rules import Rules

HERE = Path(__file__).resolve().parent
TABLES = {"classic": (2, 3, 4), "modern-american": (4,), "ponytail": (4, 6)}


def data_file(variant: str) -> Path:
    return HERE / "data" / f"perft_{variant}.json"


def perft(state: HandState, depth: int) -> int:
    """Leaf count of the move tree to ``depth`` (a finished hand is a leaf)."""
    if depth == 0 or state.result is not None:
        return 1
    total = 0
    for move in state.legal_moves():
        child = state.copy()
        child.apply(move)
        total += perft(child, depth - 1)
    return total


def _positions(variant: str) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in sorted((HERE / "scenarios" / variant).glob("*.json")):
        for i, sc in enumerate(json.loads(path.read_text())):
            pos = {k: v for k, v in sc.items() if k not in ("name", "steps", "expect")}
            out.append((f"{path.stem}#{i}", pos))
    rng = random.Random(2024)
    for players in TABLES[variant]:
        for seed in range(4 if len(TABLES[variant]) > 1 else 10):
            match = Match(Rules.make(variant, players), seed)
            for _ in range(rng.randrange(5, 60)):
                if match.state.result is not None:
                    break
                match.apply(rng.choice(match.state.legal_moves()))
            if match.state.result is None and match.state.asking is None and \
                    match.state.answer is None and not match.state.turn_melded:
                out.append((f"dealt-{players}p-{seed}", position_to_json(match.state)))
    return out


def _entry(name: str, pos: dict[str, Any]) -> dict[str, Any]:
    state = position_from_json(pos)
    return {"name": name, "position": pos,
            "moves": [str(m) for m in state.legal_moves()],
            "perft2": perft(state, 2)}


@pytest.mark.parametrize("variant", sorted(TABLES))
def test_perft_counts(variant: str) -> None:
    data = data_file(variant)
    if not data.exists():
        pytest.fail(f"{data} is missing: run python tests/test_perft.py --write")
    for want in json.loads(data.read_text()):
        state = position_from_json(want["position"])
        got = [str(m) for m in state.legal_moves()]
        assert got == want["moves"], want["name"]
        assert perft(state, 2) == want["perft2"], want["name"]


def test_some_counts_of_every_variant_were_verified_by_hand() -> None:
    for variant in sorted(TABLES):
        checked = [e for e in json.loads(data_file(variant).read_text())
                   if e.get("verified_by_hand", "").startswith("verified by hand: ")]
        assert checked, variant
        for e in checked:  # the note ends with the count it proves
            assert e["verified_by_hand"].endswith(f" = {e['perft2']}."), e["name"]
            assert f"{len(e['moves'])} move" in e["verified_by_hand"], e["name"]


if __name__ == "__main__":
    if "--write" in sys.argv:
        for name in sorted(TABLES):
            old = json.loads(data_file(name).read_text()) if data_file(name).exists() else []
            by_hand = {e["name"]: e for e in old if "verified_by_hand" in e}
            entries = [by_hand.get(n) or _entry(n, p) for n, p in _positions(name)]
            data_file(name).write_text(json.dumps(entries, indent=1) + "\n")
            print(f"wrote {len(entries)} positions to {data_file(name)}")
