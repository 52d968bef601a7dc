"""The random player: a uniform choice among the legal moves (a baseline and a test tool)."""

from __future__ import annotations

import random

from canasta.moves import Move
from canasta.view import PlayerView


class RandomPlayer:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def new_hand(self, seat: int) -> None:
        pass

    def choose(self, view: PlayerView) -> Move:
        if not view.legal_moves:
            raise ValueError("there is no legal move to choose from")
        return self.rng.choice(view.legal_moves)
