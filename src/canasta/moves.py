"""Moves: small frozen values with one canonical text form (FORMAT.md, "Moves").

>>> m = parse_move("meld kh kd kc / 9s 9d 2c")
>>> str(m)
'meld KC KD KH / 9D 9S 2C'
>>> parse_move(str(m)) == m
True
>>> str(parse_move("add 10 TC 10H")), str(parse_move("take"))
('add T TC TH', 'take')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from canasta.cards import ALL_CARDS, BLACK_THREE, NATURAL_RANKS, Card, card
from canasta.errors import NotationError
from canasta.refusals import rank_plural

Group = tuple[Card, ...]

#: Whether this module runs compiled (mypyc): see ``Move.__init__``.
_NATIVE: Final = not __file__.endswith(".py")


class MoveKind(StrEnum):
    DRAW = "draw"
    TAKE = "take"
    MELD = "meld"
    ADD = "add"
    DISCARD = "discard"
    PASS = "pass"
    ASK = "ask"
    YES = "yes"
    NO = "no"


WILD_MELD: Final = "W"  # the rank letter of a meld made only of wild cards (Modern American)
BLACK_THREES_MELD: Final = "3"  # black threes melded while going out


def group_rank(group: Group) -> str:
    """The rank a group of cards is melded as: its natural rank, ``3`` for black threes, ``W``
    for wild cards only.  Mixed groups report the first natural card's rank; legality checks the
    rest."""
    for c in group:
        if c.is_natural:
            return c.rank
        if c.kind == BLACK_THREE:
            return BLACK_THREES_MELD
    return WILD_MELD


def rank_name(rank: str) -> str:
    """A meld rank in the plural, as the reasons for refusing a move name it (``kings``)."""
    return rank_plural(rank)


def _rank_order(rank: str) -> int:
    i = NATURAL_RANKS.find(rank)
    return i if i >= 0 else (11 if rank == WILD_MELD else 12)


def _canon_group(cs: Group | list[Card]) -> Group:
    return tuple(sorted(cs, key=lambda c: c.id))


@dataclass(frozen=True, slots=True)
class Move:
    """One move.  Build moves with the helpers below (``Move.meld(...)``) or ``parse_move``;
    the constructor keeps cards in canonical order so that equal moves compare equal."""

    kind: MoveKind
    groups: tuple[Group, ...] = ()
    rank: str = ""
    card: Card | None = None

    def __init__(self, kind: MoveKind, groups: tuple[Group, ...] = (), rank: str = "",
                 card: Card | None = None) -> None:
        # Written out instead of the frozen dataclass's own __init__, as PlayerView's is (see
        # view.py): compiled, a plain assignment is a native store; interpreted, it has to go
        # through object.__setattr__ as the dataclass would.
        if _NATIVE:
            self.kind = kind  # type: ignore[misc]
            self.groups = groups  # type: ignore[misc]
            self.rank = rank  # type: ignore[misc]
            self.card = card  # type: ignore[misc]
        else:
            set_field = object.__setattr__
            set_field(self, "kind", kind)
            set_field(self, "groups", groups)
            set_field(self, "rank", rank)
            set_field(self, "card", card)

    # --- constructors -------------------------------------------------------------------
    @staticmethod
    def meld(*groups: Group | list[Card]) -> Move:
        gs = sorted((_canon_group(g) for g in groups), key=lambda g: _rank_order(group_rank(g)))
        return Move(MoveKind.MELD, tuple(gs))

    @staticmethod
    def take(with_top: Group | list[Card] = (), *extra: Group | list[Card]) -> Move:
        ex = sorted((_canon_group(g) for g in extra), key=lambda g: _rank_order(group_rank(g)))
        return Move(MoveKind.TAKE, (_canon_group(with_top), *ex))

    @staticmethod
    def add(rank: str, cs: Group | list[Card]) -> Move:
        return Move(MoveKind.ADD, (_canon_group(cs),), rank=rank)

    @staticmethod
    def discard(c: Card) -> Move:
        return DISCARDS[c.id]

    # --- queries --------------------------------------------------------------------------
    def cards_from_hand(self) -> list[Card]:
        """Every card this move takes out of the mover's hand."""
        if self.kind is MoveKind.DISCARD and self.card is not None:
            return [self.card]
        return [c for g in self.groups for c in g]

    def __str__(self) -> str:
        k = self.kind
        if k is MoveKind.DISCARD:
            assert self.card is not None
            return f"discard {self.card.text}"
        if k is MoveKind.ADD:
            return f"add {self.rank} " + " ".join(c.text for c in self.groups[0])
        if k is MoveKind.MELD:
            return "meld " + " / ".join(" ".join(c.text for c in g) for g in self.groups)
        if k is MoveKind.TAKE:
            parts = [" ".join(c.text for c in g) for g in self.groups]
            text = "take"
            if parts and parts[0]:
                text += " " + parts[0]
            for p in parts[1:]:
                text += " / " + p
            return text
        return k.value

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"


# Moves the generator lists over and over, built once and shared (moves are immutable).
_INTERNED: Final[dict[tuple[object, ...], Move]] = {}
#: distinct moves kept (a long-running process clears them now and then)
_INTERN_LIMIT: Final = 200_000


def one_group(kind: MoveKind, rank: str, group: Group) -> Move:
    """The ``meld`` (``rank`` empty), ``add`` or ``take`` of one group of cards, given in
    canonical order (by card id), shared with every other listing of the same move."""
    key = (kind, rank, group)
    m = _INTERNED.get(key)
    if m is None:
        if len(_INTERNED) >= _INTERN_LIMIT:
            _INTERNED.clear()
        m = Move(kind, (group,), rank=rank)
        _INTERNED[key] = m
    return m


DRAW: Final = Move(MoveKind.DRAW)
PASS: Final = Move(MoveKind.PASS)
ASK: Final = Move(MoveKind.ASK)
YES: Final = Move(MoveKind.YES)
NO: Final = Move(MoveKind.NO)
_SIMPLE = {m.kind.value: m for m in (DRAW, PASS, ASK, YES, NO)}
#: ``discard`` of each card, by card id
DISCARDS: Final[tuple[Move, ...]] = tuple(Move(MoveKind.DISCARD, card=c) for c in ALL_CARDS)
#: ``add`` of one card to a meld of each rank: ``ADDS[card id][i]``, ``i`` the rank's place in
#: NATURAL_RANKS (the last one: the meld of wild cards).  The listing offers most of its
#: additions card by card; a table look-up costs less than building or interning the move.
ADDS: Final[tuple[tuple[Move, ...], ...]] = tuple(
    tuple(Move(MoveKind.ADD, ((c,),), rank=r) for r in (*NATURAL_RANKS, WILD_MELD))
    for c in ALL_CARDS)


def _parse_groups(text: str) -> list[list[Card]]:
    return [[card(t) for t in part.split()] for part in text.split("/")]


def parse_move(text: str) -> Move:
    """Parse a move's text (syntax only: whether it is legal is the state's question)."""
    if not isinstance(text, str):
        raise NotationError("notation.move_text")
    words = text.strip().split(None, 1)
    if not words:
        raise NotationError("notation.empty")
    verb = words[0].lower()
    rest = words[1].strip() if len(words) > 1 else ""
    if verb in _SIMPLE:
        if rest:
            raise NotationError("notation.nothing_after", verb=verb)
        return _SIMPLE[verb]
    if verb == "discard":
        toks = rest.split()
        if len(toks) != 1:
            raise NotationError("notation.discard_one")
        return Move.discard(card(toks[0]))
    if verb == "add":
        toks = rest.split()
        if len(toks) < 2:
            raise NotationError("notation.add_rank_cards")
        r = toks[0].upper()
        if r == "10":
            r = "T"
        if r not in NATURAL_RANKS and r != WILD_MELD:
            raise NotationError("notation.meld_rank", text=toks[0])
        return Move.add(r, [card(t) for t in toks[1:]])
    if verb == "meld":
        if not rest:
            raise NotationError("notation.meld_cards")
        groups = _parse_groups(rest)
        if any(not g for g in groups):
            raise NotationError("notation.empty_group")
        return Move.meld(*groups)
    if verb == "take":
        if not rest:
            return Move.take()
        groups = _parse_groups(rest)
        if any(not g for g in groups[1:]):
            raise NotationError("notation.empty_group")
        return Move.take(*groups)
    raise NotationError("notation.unknown_move", verb=verb)
