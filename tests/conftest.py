"""Shared test helpers."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from canasta.engine.state import HandState
from canasta.position import position_from_json

ROOT = Path(__file__).resolve().parents[1]
SHORT_SHARE = 10  # --short plays one self-play match in this many


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--short", action="store_true",
                     help=f"the shorter pass (make test's pure Python pass): one self-play "
                          f"match in {SHORT_SHARE}")


@pytest.fixture
def matches_to_play(request: pytest.FixtureRequest) -> Callable[[int], int]:
    """``matches`` as the pass asks: all of them, or a share with --short (at least 2)."""
    def count(matches: int) -> int:
        return max(2, matches // SHORT_SHARE) if request.config.getoption("short") else matches
    return count
SHARED = Path(os.environ.get("CANASTA_SHARED", ROOT.parent / "shared"))


def position(**fields: Any) -> HandState:
    """A position with FORMAT.md defaults for whatever is not given."""
    players = fields.get("players", 4)
    sides = 2 if players == 4 else players
    base: dict[str, Any] = {
        "variant": "classic",
        "players": players,
        "scores": [0] * sides,
        "turn": 0,
        "phase": "draw",
        "hands": [[] for _ in range(players)],
        "melds": [[] for _ in range(sides)],
        "threes": [[] for _ in range(sides)],
        "discard": [],
        "stock": [],
    }
    base.update(fields)
    return position_from_json(base)


@pytest.fixture
def make_position() -> Any:
    return position
