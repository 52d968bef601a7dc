"""Helpers shared by the rules tests of every variant."""

from __future__ import annotations

from typing import Any

import pytest

from canasta.engine.state import HandState
from canasta.errors import IllegalMove
from canasta.position import position_from_json, position_to_json


def table_position(variant: str, players: int, **fields: Any) -> HandState:
    """A position with small defaults; hands and melds may be space-separated strings."""
    sides = players // 2 if players >= 4 else players
    obj: dict[str, Any] = {
        "variant": variant, "players": players, "scores": [0] * sides, "turn": 0,
        "phase": "play", "hands": [""] * players, "melds": [[] for _ in range(sides)],
        "threes": [[] for _ in range(sides)], "discard": ["TS"], "stock": ["TC", "TD", "TH"],
    }
    obj.update(fields)
    obj["hands"] = [h.split() if isinstance(h, str) else h for h in obj["hands"]]
    obj["melds"] = [[m.split() if isinstance(m, str) else m for m in ms] for ms in obj["melds"]]
    return position_from_json(obj)


def play(state: HandState, *moves: str) -> HandState:
    for m in moves:
        state.apply(m)
    return state


def legal(state: HandState) -> list[str]:
    return [str(m) for m in state.legal_moves()]


def snapshot(state: HandState) -> tuple[Any, ...]:
    return (position_to_json(state), list(state.penalties), len(state.history), state.result,
            state.asking, state.answer)


def refused(state: HandState, move: str, reason: str | None = None) -> None:
    """``move`` is illegal (with ``reason`` in the message) and changes nothing."""
    before = snapshot(state)
    assert not state.is_legal(move)
    with pytest.raises(IllegalMove, match=reason):
        state.apply(move)
    assert snapshot(state) == before
