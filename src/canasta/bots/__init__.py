"""Computer players.  A player gets its seat's view (never the full state) and returns a move."""

from __future__ import annotations

from canasta.bots.base import Player
from canasta.bots.random_player import RandomPlayer

LEVELS = ("random",)


def make_player(level: str, seed: int = 0) -> Player:
    """A computer player of ``level`` whose choices come from ``seed``."""
    if level == "random":
        return RandomPlayer(seed)
    raise ValueError(f"unknown level '{level}' (known: {', '.join(LEVELS)})")


__all__ = ["LEVELS", "Player", "RandomPlayer", "make_player"]
