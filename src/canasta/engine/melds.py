"""Melds on the table: immutable values, replaced (not changed) when cards are added."""

from __future__ import annotations

from collections.abc import Iterable

from canasta.cards import DEUCE, JOKER, Card, sort_cards
from canasta.mypyc_attrs import mypyc_attr


@mypyc_attr(allow_interpreted_subclasses=True)  # Meld.__new__(Meld): see HandState
class Meld:
    """A side's meld: its rank (``A``..``4``, ``W`` for wild cards only, ``3`` for black threes)
    and its cards, with the counts the rules look at."""

    __slots__ = ("cards", "deuces", "jokers", "naturals", "rank", "size", "value")

    rank: str
    cards: tuple[Card, ...]
    naturals: int
    deuces: int
    jokers: int
    size: int  # cards in the meld
    value: int  # the points of its cards

    def __init__(self, rank: str, cards: Iterable[Card]) -> None:
        cs = tuple(cards)
        self.rank = rank
        self.cards = cs
        d = j = 0
        for c in cs:
            if c.kind == DEUCE:
                d += 1
            elif c.kind == JOKER:
                j += 1
        self.deuces = d
        self.jokers = j
        self.naturals = len(cs) - d - j
        self.size = len(cs)
        self.value = sum(c.value for c in cs)

    @property
    def wilds(self) -> int:
        return self.deuces + self.jokers

    def plus(self, cards: Iterable[Card]) -> Meld:
        return Meld(self.rank, (*self.cards, *cards))

    def sorted_cards(self) -> list[Card]:
        """Naturals first, then wild cards: the order a player lays them out."""
        return sort_cards(self.cards)

    def __repr__(self) -> str:
        return f"Meld({self.rank}: {' '.join(c.text for c in self.sorted_cards())})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Meld)
            and self.rank == other.rank
            and sorted(c.id for c in self.cards) == sorted(c.id for c in other.cards)
        )

    def __hash__(self) -> int:
        return hash((self.rank, tuple(sorted(c.id for c in self.cards))))
