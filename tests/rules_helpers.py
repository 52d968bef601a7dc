"""Helpers shared by the rules tests of every variant."""

from __future__ import annotations

from typing import Any

import pytest

from canasta.engine.state import HandState
from canasta.errors import IllegalMove
from canasta.position import position_to_json


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
