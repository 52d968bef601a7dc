"""Seeing the hidden cards as a seat may: memory of what was shown, and determinization.

A bot never gets the full state.  To look ahead it builds a *determinization*: a full position
that agrees with everything its view shows (and everything it remembers), with the hidden cards
(other hands, ponytails, the stock order) dealt at random from the cards it has not seen.
"""

from __future__ import annotations

import random
from collections import Counter

from canasta.cards import Card, make_deck
from canasta.engine.state import HandState
from canasta.moves import MoveKind
from canasta.view import PlayerView


class Memory:
    """What a seat has seen during a hand: the cards other players took from the pile and have
    not shown since (so they are still in their hands)."""

    def __init__(self) -> None:
        self.known: dict[int, list[Card]] = {}
        self._seen = 0
        self._pile: list[Card] | None = None

    def update(self, view: PlayerView) -> None:
        history = view.history
        if self._pile is None:
            # First look at this hand: earlier moves are not replayed (the pile they started
            # from was not watched); from now on every take is followed.
            self._pile = list(view.pile)
            self._seen = len(history)
            return
        for i, (seat, move) in enumerate(history[self._seen:], self._seen):
            if i in view.penalized:
                continue  # taken back for a penalty: the cards stayed where they were
            hand = self.known.setdefault(seat, [])
            k = move.kind
            if k is MoveKind.DISCARD and move.card is not None:
                _drop(hand, move.card)
                self._pile.append(move.card)
            elif k is MoveKind.TAKE:
                if seat != view.seat:
                    hand.extend(self._pile[:-1])
                for c in move.cards_from_hand():
                    _drop(hand, c)
                self._pile = []
            elif k in (MoveKind.MELD, MoveKind.ADD):
                for c in move.cards_from_hand():
                    _drop(hand, c)
        self._seen = len(history)
        self._pile = list(view.pile)  # resynchronise (buried cards, red threes laid)

    def known_cards(self, seat: int) -> list[Card]:
        return list(self.known.get(seat, []))


def _drop(cards: list[Card], c: Card) -> None:
    if c in cards:
        cards.remove(c)


def unseen_cards(view: PlayerView) -> list[Card]:
    """The cards this seat has not seen: the whole pack less its hand and everything face up."""
    rules = view.rules
    pool = Counter(make_deck(rules.variant.decks(rules.players)))
    pool.subtract(view.hand)
    for ms in view.melds:
        for m in ms:
            pool.subtract(m.cards)
    for t in view.threes:
        pool.subtract(t)
    pool.subtract(view.pile)
    return sorted(pool.elements(), key=lambda c: c.id)


def determinize(view: PlayerView, rng: random.Random,
                memory: Memory | None = None) -> HandState:
    """A full position consistent with ``view``, hidden cards dealt at random by ``rng``."""
    rules = view.rules
    state = HandState(rules)
    state.scores = view.scores
    state.hand_number = view.hand_number
    state.turn = view.turn
    state.phase = "draw" if view.phase == "draw" else "play"
    state.melds = [list(ms) for ms in view.melds]
    state.threes = [list(t) for t in view.threes]
    state.pile = list(view.pile)
    state.start_frozen = view.start_frozen
    v = rules.variant
    state.frozen = sum(1 for c in state.pile if v.freezes_pile(c)) + view.start_frozen
    state.melded = list(view.melded)
    state.asked = list(view.asked)
    state.asking = view.asking
    state.answer = view.answer
    state.drew = view.drew
    state.penalties = list(view.penalties)
    state.bonuses = list(view.bonuses)
    facts = view.turn_facts
    state.turn_start_melded = facts.start_melded
    state.turn_melded = facts.melded
    state.turn_old_touched = facts.old_touched
    state.turn_new_ranks = set(facts.new_ranks)
    state.black_threes_down = facts.black_threes_down
    state.history = list(view.history)
    state.penalized = sorted(view.penalized)

    pool = unseen_cards(view)
    rng.shuffle(pool)
    # Threes that are laid as soon as they reach a hand can only be in the stock or a ponytail.
    held_back: list[Card] = []
    if not v.lay_threes_at_turn_start:
        held_back = [c for c in pool if v.laid_on_sight(c)]
        pool = [c for c in pool if not v.laid_on_sight(c)]
    hands: list[list[Card]] = [[] for _ in range(rules.players)]
    hands[view.seat] = list(view.hand)
    if memory is not None:
        for seat in range(rules.players):
            if seat == view.seat:
                continue
            for c in memory.known_cards(seat)[: view.hand_sizes[seat]]:
                if c in pool:
                    pool.remove(c)
                    hands[seat].append(c)
    for seat in range(rules.players):
        if seat != view.seat:
            need = view.hand_sizes[seat] - len(hands[seat])
            hands[seat].extend(pool[:need])
            del pool[:need]
    state.hands = hands
    if held_back:
        pool += held_back
        rng.shuffle(pool)
    tails: list[list[Card] | None] = []
    for size in view.ponytail_sizes:
        if size is None:
            tails.append(None)
        else:
            tails.append(pool[:size])
            del pool[:size]
    state.ponytails = tails
    # A position may hold less than the whole pack (a scenario): the cards it does not hold
    # are out of play, not in the stock.
    state.stock = pool[:view.stock_size]
    return state
