"""Dealing a hand: the only chance event of Canasta, explicit and seeded."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from canasta.cards import ALL_CARDS, Card, make_deck
from canasta.engine.chance import shuffle
from canasta.engine.schema import TURN_START
from canasta.engine.state import HandState
from canasta.errors import PositionError

if TYPE_CHECKING:
    from canasta.rules import Rules


def shuffled_deck(rules: Rules, seed: int) -> list[Card]:
    """The whole pack in dealing order (the first card is dealt first), from ``seed``."""
    deck = make_deck(rules.variant.decks(rules.players))
    shuffle(random.Random(seed), deck)  # random.Random(seed).shuffle(deck), compiled
    return deck


#: How many of each card (by id) a pack of so many decks holds.
_PACKS: dict[int, list[int]] = {}


def is_whole_pack(deck: Sequence[Card], decks: int) -> bool:
    """Whether ``deck`` holds exactly the cards of ``make_deck(decks)``, in any order."""
    want = _PACKS.get(decks)
    if want is None:
        want = [0] * len(ALL_CARDS)
        for c in make_deck(decks):
            want[c.id] += 1
        _PACKS[decks] = want
    have = [0] * len(ALL_CARDS)
    for c in deck:
        have[c.id] += 1
    return have == want


def first_player(rules: Rules, hand_number: int) -> int:
    """Seat 0 plays first in hand 1; the deal (and the first turn) then passes to the left."""
    return (hand_number - 1) % rules.players


def deal(rules: Rules, deck: Sequence[Card], *, scores: Sequence[int] | None = None,
         hand_number: int = 1) -> HandState:
    """Deal ``deck`` (in dealing order) for hand ``hand_number``: the hands one card at a time
    from the first player on, the upcard(s), then each player's red threes laid and replaced."""
    v = rules.variant
    decks = v.decks(rules.players)
    if not is_whole_pack(deck, decks):
        raise PositionError("position.deal_cards", count=len(make_deck(decks)), decks=decks)
    state = HandState(rules)
    n = rules.players
    state.scores = tuple(scores) if scores is not None else (0,) * rules.n_sides
    if len(state.scores) != rules.n_sides:
        raise PositionError("position.deal_scores", sides=rules.n_sides)
    state.hand_number = hand_number
    stock = list(reversed(deck))  # pop() takes the next card
    first = first_player(rules, hand_number)
    for _ in range(v.hand_size(n)):
        for i in range(n):
            state.add_to_hand((first + i) % n, stock.pop())
    v.deal_more(state, stock, first)
    state.stock = stock
    v.start_pile(state)
    for i in range(n):
        seat = (first + i) % n
        if v.lay_threes_at_turn_start and seat != first:
            continue  # laid when the holder's turn comes (D.5)
        for c in [c for c in state.hands[seat] if v.laid_on_sight(c)]:
            state.remove_from_hand(seat, (c,))
            state.lay_red_three(seat, c)
            state.draw_card(seat)
    v.after_deal(state)
    state.turn = first
    state.phase = "draw"
    state.facts = TURN_START[False]
    return state
