"""Shared test helpers."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from canasta.engine.state import HandState
from canasta.position import position_from_json

ROOT = Path(__file__).resolve().parents[1]
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
