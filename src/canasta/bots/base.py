"""The player interface."""

from __future__ import annotations

from typing import Protocol

from canasta.moves import Move
from canasta.view import PlayerView


class Player(Protocol):
    """Anything that picks one of ``view.legal_moves`` for the seat of ``view``.

    A player that remembers what it saw may also offer ``observe(view)``: see the table without
    choosing.  A restored game (the browser game after a restart) shows each decision point of
    the hand again through it, so the player remembers what it would have seen."""

    name: str

    def choose(self, view: PlayerView) -> Move: ...

    def new_hand(self, seat: int) -> None:
        """Forget what was seen in the previous hand."""
