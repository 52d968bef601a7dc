"""The player interface."""

from __future__ import annotations

from typing import Protocol

from canasta.moves import Move
from canasta.view import PlayerView


class Player(Protocol):
    """Anything that picks one of ``view.legal_moves`` for the seat of ``view``."""

    name: str

    def choose(self, view: PlayerView) -> Move: ...

    def new_hand(self, seat: int) -> None:
        """Forget what was seen in the previous hand."""
