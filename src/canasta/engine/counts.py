"""A hand as the rules read it: how many cards of each kind, and its cards by kind.

Suits never matter except for threes, so the move generator and the going-out search work on
kind counts, and build a move from the lowest cards of each kind.  ``HandCounts`` keeps both
beside the hand's list of cards; the state changes it card by card as the engine changes the
hand, instead of counting and sorting the hand at every listing.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import attrgetter
from typing import Final

from canasta.cards import N_KINDS, Card
from canasta.mypyc_attrs import mypyc_attr

_CARD_ID: Final = attrgetter("id")  # (a sort key read in C: no interpreted call per card)


def add_card(cs: list[Card], c: Card) -> None:
    """Put ``c`` into ``cs`` (cards of one kind, lowest id first) in its place."""
    # A kind holds a few cards and a new one mostly goes last: a scan from the end is cheaper
    # than ``insort`` with a key.
    i = len(cs)
    cid = c.id
    while i and cs[i - 1].id > cid:
        i -= 1
    cs.insert(i, c)


@mypyc_attr(allow_interpreted_subclasses=True)  # HandCounts.__new__(HandCounts): see HandState
class HandCounts:
    """The kind counts of one hand (``kinds``, N_KINDS numbers) and its cards of each kind,
    lowest id first (``by_kind``); ``size`` is the number of cards."""

    __slots__ = ("by_kind", "kinds", "size")

    by_kind: list[list[Card]]
    kinds: list[int]
    size: int

    def __init__(self, cards: Iterable[Card] = ()) -> None:
        by_kind: list[list[Card]] = [[] for _ in range(N_KINDS)]
        # The cards taken lowest id first fill each kind in order: one sort, by a key read in C.
        for c in sorted(cards, key=_CARD_ID):
            by_kind[c.kind].append(c)
        self.by_kind = by_kind
        self.kinds = [len(cs) for cs in by_kind]
        self.size = sum(self.kinds)

    def clone(self) -> HandCounts:
        other = HandCounts.__new__(HandCounts)
        other.by_kind = [list(cs) for cs in self.by_kind]
        other.kinds = list(self.kinds)
        other.size = self.size
        return other

    def add(self, c: Card) -> None:
        add_card(self.by_kind[c.kind], c)
        self.kinds[c.kind] += 1
        self.size += 1

    def remove(self, c: Card) -> None:
        self.by_kind[c.kind].remove(c)
        self.kinds[c.kind] -= 1
        self.size -= 1

    def in_order(self) -> list[Card]:
        """The hand in display order (``sort_cards``: card ids follow the kinds)."""
        return [c for cs in self.by_kind for c in cs]

    def first(self, kind: int) -> Card | None:
        """The lowest card of ``kind`` in the hand, or None."""
        cs = self.by_kind[kind]
        return cs[0] if cs else None
