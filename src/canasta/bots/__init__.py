"""Computer players.  A player gets its seat's view (never the full state) and returns a move."""

from __future__ import annotations

from collections.abc import Callable

from canasta.bots.base import Player
from canasta.bots.basic import BasicPlayer
from canasta.bots.expert import ExpertPlayer
from canasta.bots.master import CLOCKS, ROUNDS, MasterPlayer
from canasta.bots.random_player import RandomPlayer

LEVELS = ("random", "basic", "expert", "master")


_REGISTERED: dict[str, Callable[[int], Player]] = {}


def register_player(name: str, maker: Callable[[int], Player]) -> None:
    """Make ``maker(seed)`` available as level ``name`` to ``make_player`` and so to the
    arena (a bot of your own, an OpenSpiel bot through ``canasta.envs.openspiel``)."""
    if name in LEVELS:
        raise ValueError(f"'{name}' is one of the built-in levels")
    _REGISTERED[name] = maker


def make_player(level: str, seed: int = 0, rounds: int | None = None,
                clock: str = "wall") -> Player:
    """A computer player of ``level`` whose choices come from ``seed`` (``rounds``: the master's
    search effort, for quick tests; ``clock``: what its time caps measure, ``"wall"`` for live
    play, where the player waits in real time, ``"cpu"``, the thread's CPU time, for benchmarks,
    whose results must not depend on the machine's load)."""
    if level == "master":
        return MasterPlayer(seed, rounds=ROUNDS if rounds is None else rounds, clock=clock)
    if clock not in CLOCKS:
        raise ValueError(f"unknown clock '{clock}' (known: {', '.join(CLOCKS)})")
    makers: dict[str, Callable[[int], Player]] = {
        "random": RandomPlayer, "basic": BasicPlayer, "expert": ExpertPlayer,
        "master": MasterPlayer, **_REGISTERED}
    maker = makers.get(level)
    if maker is None:
        raise ValueError(f"unknown level '{level}' (known: {', '.join(makers)})")
    player: Player = maker(seed)
    return player


__all__ = ["LEVELS", "BasicPlayer", "ExpertPlayer", "MasterPlayer", "Player", "RandomPlayer",
           "make_player", "register_player"]
