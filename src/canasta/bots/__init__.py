"""Computer players.  A player gets its seat's view (never the full state) and returns a move."""

from __future__ import annotations

from collections.abc import Callable

from canasta.bots.base import Player
from canasta.bots.basic import BasicPlayer
from canasta.bots.expert import ExpertPlayer
from canasta.bots.master import MasterPlayer
from canasta.bots.random_player import RandomPlayer

LEVELS = ("random", "basic", "expert", "master")
LEVEL_NAMES = {"random": "Random", "basic": "Principiante", "expert": "Experto",
               "master": "Maestro"}


def make_player(level: str, seed: int = 0, rounds: int | None = None) -> Player:
    """A computer player of ``level`` whose choices come from ``seed`` (``rounds``: the master's
    search effort, for quick tests)."""
    if level == "master" and rounds is not None:
        return MasterPlayer(seed, rounds=rounds)
    makers: dict[str, Callable[[int], Player]] = {
        "random": RandomPlayer, "basic": BasicPlayer, "expert": ExpertPlayer,
        "master": MasterPlayer}
    maker = makers.get(level)
    if maker is None:
        raise ValueError(f"unknown level '{level}' (known: {', '.join(LEVELS)})")
    player: Player = maker(seed)
    return player


__all__ = ["LEVELS", "BasicPlayer", "ExpertPlayer", "MasterPlayer", "Player", "RandomPlayer",
           "make_player"]
