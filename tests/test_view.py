"""A seat sees only what it may see (STYLE.md principle 7)."""

from __future__ import annotations

import random

from canasta.cards import Card, sort_cards
from canasta.engine.deal import deal, shuffled_deck
from canasta.engine.state import HandState
from canasta.match import Match
from canasta.rules import Rules
from canasta.view import view_of


def shuffle_hidden(state: HandState, seat: int, rng: random.Random) -> HandState:
    """The same position for ``seat``: other hands, the ponytails and the stock dealt again
    from the cards ``seat`` cannot see."""
    other = state.copy()
    tails = [t for t in other.ponytails if t is not None]
    hidden = [c for s, h in enumerate(other.hands) if s != seat for c in h] + other.stock + [
        c for t in tails for c in t]
    rng.shuffle(hidden)
    for s, h in enumerate(other.hands):
        if s != seat:
            n = len(h)
            other.hands[s] = hidden[:n]
            hidden = hidden[n:]
    new_tails: list[list[Card] | None] = []
    for t in other.ponytails:
        if t is None:
            new_tails.append(None)
        else:
            new_tails.append(hidden[:len(t)])
            hidden = hidden[len(t):]
    other.ponytails = new_tails
    other.stock = hidden
    return other


def test_view_does_not_depend_on_hidden_cards() -> None:
    rng = random.Random(5)
    for variant, players in (("classic", 2), ("classic", 3), ("classic", 4),
                             ("modern-american", 4), ("ponytail", 4), ("ponytail", 6)):
        match = Match(Rules.make(variant, players), seed=players)
        state = match.state
        for _ in range(150):
            if state.result is not None:
                break
            for seat in range(players):
                mine = view_of(state, seat)
                assert view_of(shuffle_hidden(state, seat, rng), seat) == mine
            match.apply(rng.choice(state.legal_moves()))


def test_view_shows_sizes_not_cards() -> None:
    match = Match(Rules.make("classic", 4), seed=3)
    view = view_of(match.state, 1)
    assert len(view.hand) == len(match.state.hands[1])
    assert view.hand_sizes == tuple(len(h) for h in match.state.hands)
    assert view.stock_size == len(match.state.stock)
    assert not hasattr(view, "stock") and not hasattr(view, "hands")
    assert view.legal_moves == ()  # seat 1 is not to act
    assert view_of(match.state, 0).legal_moves


def test_a_view_keeps_its_history_and_hand_while_the_game_plays_on() -> None:
    # The history is shared with the state, not copied: it must never change under a view.
    rng = random.Random(2)
    rules = Rules.make("classic", 4)
    state = deal(rules, shuffled_deck(rules, 8))
    views = []
    for _ in range(60):
        view = view_of(state, state.turn)
        assert view.hand == tuple(sort_cards(state.hands[state.turn]))
        views.append((view, [(s, str(m)) for s, m in view.history], view.hand))
        trial = state.copy()
        trial.apply(rng.choice(trial.legal_moves()))  # a copy playing on changes no view
        state.apply(rng.choice(state.legal_moves()))
    for view, history, hand in views:
        assert [(s, str(m)) for s, m in view.history] == history and view.hand == hand
    assert len(views[-1][1]) == len(state.history) - 1
