"""Cards, kinds, decks and card values.

A card is one of 53 immutable values (52 suited cards and the joker); several decks are shuffled
together, so a hand may hold the same card twice.  Suits never matter in Canasta except for threes,
so the rules work on a card's *kind*: one of the eleven natural ranks, the deuce, the joker, the
red three or the black three.

>>> card("kh"), card("10d"), card("JK")
(KH, TD, JK)
>>> card("2c").is_wild, card("3s").kind == BLACK_THREE
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from canasta.errors import CanastaError, NotationError, PositionError

SUITS: Final = "CDHS"
#: Natural ranks, highest first: the only ranks a meld can be made of.
NATURAL_RANKS: Final = "AKQJT987654"

# Kinds: 0..10 are the natural ranks in NATURAL_RANKS order, then these.
DEUCE: Final = 11
JOKER: Final = 12
RED_THREE: Final = 13
BLACK_THREE: Final = 14
N_KINDS: Final = 15
KIND_NAMES: Final = (*NATURAL_RANKS, "2", "JK", "3R", "3B")


def _value(kind: int) -> int:
    if kind == JOKER:
        return 50
    if kind == DEUCE or kind == 0:  # deuce or ace
        return 20
    if kind == RED_THREE:
        return 0
    if kind == BLACK_THREE:
        return 5
    return 10 if kind <= NATURAL_RANKS.index("8") else 5


class Card:
    """One card.  There is exactly one object per distinct card: compare with ``==`` or ``is``."""

    __slots__ = ("id", "is_natural", "is_wild", "kind", "rank", "suit", "text", "value")

    id: int
    rank: str
    suit: str
    kind: int
    text: str
    value: int
    is_wild: bool
    is_natural: bool

    def __init__(self, cid: int, rank: str, suit: str, kind: int) -> None:
        object.__setattr__(self, "id", cid)
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "text", "JK" if kind == JOKER else rank + suit)
        object.__setattr__(self, "value", _value(kind))
        object.__setattr__(self, "is_wild", kind in (DEUCE, JOKER))
        object.__setattr__(self, "is_natural", kind < DEUCE)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __repr__(self) -> str:
        return self.text

    def __str__(self) -> str:  # not `__str__ = __repr__`: mypyc compiles no method alias
        return self.text

    # No ordering methods: a class that defines one compares through a Python-level slot for
    # every ``==`` too (``list.remove``, ``in``, tuples of cards: ~0.2 us a comparison in pure
    # Python, against a C identity test without), so cards sort by ``id`` (``sort_cards``).

    def __hash__(self) -> int:  # the card's id: sets of cards iterate alike in every process
        return self.id

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (card, (self.text,))


def _build() -> tuple[tuple[Card, ...], dict[str, Card]]:
    cards: list[Card] = []
    # Display order: natural ranks high to low, then deuces, jokers, threes.
    for k, r in enumerate(NATURAL_RANKS):
        for s in SUITS:
            cards.append(Card(len(cards), r, s, k))
    for s in SUITS:
        cards.append(Card(len(cards), "2", s, DEUCE))
    cards.append(Card(len(cards), "JK", "", JOKER))
    for s in "HD":
        cards.append(Card(len(cards), "3", s, RED_THREE))
    for s in "CS":
        cards.append(Card(len(cards), "3", s, BLACK_THREE))
    by_text: dict[str, Card] = {}
    for c in cards:
        by_text[c.text] = c
        if c.rank == "T":
            by_text["10" + c.suit] = c
    return tuple(cards), by_text


ALL_CARDS, _BY_TEXT = _build()
#: One card of each kind, by kind: what a hook that looks only at kinds is asked about.
ONE_OF_KIND: Final = tuple(next(c for c in ALL_CARDS if c.kind == k) for k in range(N_KINDS))
JOKER_CARD: Final = _BY_TEXT["JK"]


def card(text: str) -> Card:
    """Parse one card (``KH``, ``10d``, ``jk``); raises NotationError for anything else."""
    c = _BY_TEXT.get(text.strip().upper())
    if c is None:
        raise NotationError("notation.card", text=text)
    return c


def cards(texts: Iterable[str] | str) -> list[Card]:
    """Parse several cards, from a list or a space-separated string."""
    if isinstance(texts, str):
        texts = texts.split()
    return [card(t) for t in texts]


def cards_from_json(value: Any, where: str | CanastaError) -> list[Card]:
    """Cards from a JSON list of card texts (positions, records); ``where`` names the list in
    the PositionError raised for anything else (a field's name as it is, or a ``place.*``
    refusal that each language words its own way)."""
    if not isinstance(value, list):
        raise PositionError("position.not_cards", where=where)
    out = []
    for t in value:
        if not isinstance(t, str):
            raise PositionError("position.not_a_card", where=where, value=repr(t))
        try:
            out.append(card(t))
        except CanastaError as e:
            raise PositionError("position.bad_card", where=where, reason=e) from None
    return out


def cards_text(cs: Iterable[Card]) -> str:
    return " ".join(c.text for c in cs)


def make_deck(decks: int = 2) -> list[Card]:
    """``decks`` standard packs of 52 cards plus 2 jokers each (2 decks = 108 cards)."""
    one = [c for c in ALL_CARDS if c.kind != JOKER] + [JOKER_CARD, JOKER_CARD]
    return one * decks


def kind_counts(cs: Iterable[Card]) -> list[int]:
    """How many cards of each kind (a list of N_KINDS integers)."""
    counts = [0] * N_KINDS
    for c in cs:
        counts[c.kind] += 1
    return counts


def sort_cards(cs: Iterable[Card]) -> list[Card]:
    """Cards in display order: natural ranks high to low, then wilds, then threes."""
    return sorted(cs, key=lambda c: c.id)


def remove_cards(hand: list[Card], taken: Sequence[Card]) -> None:
    """Remove ``taken`` from ``hand`` in place; the caller has checked that they are there."""
    for c in taken:
        hand.remove(c)


def missing_cards(hand: Sequence[Card], wanted: Sequence[Card]) -> list[Card]:
    """The cards of ``wanted`` (as a multiset) that ``hand`` does not hold."""
    if len(wanted) == 1:
        return [] if wanted[0] in hand else list(wanted)
    pool: dict[Card, int] = {}
    for c in hand:
        pool[c] = pool.get(c, 0) + 1
    missing = []
    for c in wanted:
        n = pool.get(c, 0)
        if n:
            pool[c] = n - 1
        else:
            missing.append(c)
    return missing
