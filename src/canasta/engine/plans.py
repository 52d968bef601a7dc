"""What a checked move will do: ``check`` works a plan out, ``apply`` carries it out."""

from __future__ import annotations

from typing import NamedTuple

from canasta.cards import Card
from canasta.moves import Move


class GroupPlan(NamedTuple):
    """One group of a meld move, resolved against the table: a new meld or an existing one."""

    rank: str
    cards: tuple[Card, ...]
    joins: int  # index of the side's meld it joins, or -1 for a new meld


class Plan(NamedTuple):
    """What a checked move will do (``check`` computes it, ``apply`` carries it out)."""

    move: Move
    groups: tuple[GroupPlan, ...] = ()
    penalty: int = 0  # table mode: an initial meld below the minimum is taken back for 100
