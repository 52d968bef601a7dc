"""Melds on the table: immutable values, replaced (not changed) when cards are added."""

from __future__ import annotations

from collections.abc import Iterable

from canasta.cards import DEUCE, Card, sort_cards
from canasta.moves import BLACK_THREES_MELD
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
        d = j = value = 0
        for c in cs:  # (one loop, no generator for the value: a frame of its own)
            value += c.value
            if c.is_wild:  # (one test for a natural card)
                if c.kind == DEUCE:
                    d += 1
                else:
                    j += 1
        self.deuces = d
        self.jokers = j
        self.naturals = len(cs) - d - j
        self.size = len(cs)
        self.value = value

    @property
    def wilds(self) -> int:
        return self.deuces + self.jokers

    def plus(self, cards: Iterable[Card]) -> Meld:
        """This meld with ``cards`` added (only the new cards are counted)."""
        added = tuple(cards)
        other = Meld.__new__(Meld)
        other.rank = self.rank
        other.cards = self.cards + added
        d = j = value = 0
        for c in added:
            value += c.value
            if c.is_wild:
                if c.kind == DEUCE:
                    d += 1
                else:
                    j += 1
        other.deuces = self.deuces + d
        other.jokers = self.jokers + j
        other.naturals = self.naturals + len(added) - d - j
        other.size = self.size + len(added)
        other.value = self.value + value
        return other

    def sorted_cards(self) -> list[Card]:
        """Naturals first, then wild cards: the order a player lays them out."""
        return sort_cards(self.cards)

    def __repr__(self) -> str:
        return f"Meld({self.rank}: {' '.join(c.text for c in self.sorted_cards())})"

    def __eq__(self, other: object) -> bool:
        # Same cards in the same order (a meld compared with itself grown or copied) answer
        # without sorting; melds of other sizes differ at once (the state's meld index asks).
        if not isinstance(other, Meld):
            return False
        if self.rank != other.rank or self.size != other.size:
            return False
        return (self.cards == other.cards
                or sorted(c.id for c in self.cards) == sorted(c.id for c in other.cards))

    def __hash__(self) -> int:
        return hash((self.rank, tuple(sorted(c.id for c in self.cards))))


@mypyc_attr(allow_interpreted_subclasses=True)  # copied without __init__ (deepcopy)
class MeldIndex:
    """One side's melds as the rules look them up, built from a copy of the side's list of
    melds (``melds``) and good for as long as that list holds the same melds: the meld of each
    rank that cards may join (``joinable``; where closed ranks reopen, never a finished
    canasta), the number of canastas, and the ranks with a canasta of natural cards only."""

    __slots__ = ("before", "canastas", "changed", "joinable", "listing", "melds",
                 "natural_canastas")

    melds: list[Meld]
    joinable: dict[str, int]
    canastas: int
    natural_canastas: frozenset[str]
    #: what the listing worked out from these melds alone (``legal._Additions``), or None
    listing: object
    #: made by ``after``: what the listing had worked out from the melds before (or None),
    #: and the index of the one meld that changed or was made (-1 when built from scratch),
    #: from which the listing works its own out again for that meld only
    before: object
    changed: int

    def __init__(self, melds: list[Meld], canasta_size: int, reopens: bool) -> None:
        self.melds = list(melds)
        joinable: dict[str, int] = {}
        canastas = 0
        natural: set[str] = set()
        for i, m in enumerate(melds):
            closed = m.size >= canasta_size
            if closed and m.rank != BLACK_THREES_MELD:
                canastas += 1
                if m.deuces + m.jokers == 0:
                    natural.add(m.rank)
            if m.rank not in joinable and not (reopens and closed):
                joinable[m.rank] = i
        self.joinable = joinable
        self.canastas = canastas
        self.natural_canastas = frozenset(natural)
        self.listing = None
        self.before = None
        self.changed = -1

    def after(self, melds: list[Meld], i: int, old: Meld | None, canasta_size: int,
              reopens: bool) -> MeldIndex | None:
        """This index for ``melds``, where cards joined the meld ``old`` (now ``melds[i]``) or
        made a new meld (``old`` None, at the end: ``i`` the last), when this index is that of
        the melds before and the change leaves what it says of them as it was but for the new
        meld; else None (built again when asked).  What the listing kept (``listing``) is
        handed on as ``before``, with the meld that changed: it reads the melds' sizes."""
        m = melds[i]
        closed = m.size >= canasta_size
        if old is None:
            if closed:
                return None
            mine = list(self.melds)
            mine.append(m)
        else:
            was = old.size >= canasta_size
            if closed != was or (closed and (old.deuces + old.jokers == 0)
                                 != (m.deuces + m.jokers == 0)):
                return None  # a canasta made, or a natural one no longer so
            mine = list(self.melds)
            if i >= len(mine) or mine[i] is not old:
                return None
            mine[i] = m
        if mine != melds:  # (melds compared by identity first: at once when they agree)
            return None
        other = MeldIndex.__new__(MeldIndex)
        other.melds = mine
        joinable = self.joinable
        if old is None and m.rank not in joinable:
            joinable = dict(joinable)
            joinable[m.rank] = i
        other.joinable = joinable
        other.canastas = self.canastas
        other.natural_canastas = self.natural_canastas
        other.listing = None
        other.before = self.listing
        other.changed = i
        return other
