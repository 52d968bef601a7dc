"""Dealing and random play draw exactly what ``random.Random`` would (engine/chance.py): the same
decks and the same games on the same seeds, on this Python; a Python whose ``random`` draws
otherwise fails here."""

from __future__ import annotations

import random

import pytest

from canasta.cards import ALL_CARDS, make_deck
from canasta.engine.chance import below, choice, play_out, shuffle
from canasta.engine.deal import deal, is_whole_pack, shuffled_deck
from canasta.errors import PositionError
from canasta.match import hand_seed
from canasta.rules import Rules

#: lengths around every power of two up to 2**12, the end of chance's table (1024) among them,
#: and a few far beyond it
LENGTHS = sorted({1, 2, 3, 5, 7, 100, 108, 162, 216, 1000, 2**20 + 1, 2**40, 3 * 2**61}
                 | {2**k + d for k in range(13) for d in (-1, 0, 1) if 2**k + d > 0})


def test_below_draws_what_randbelow_draws() -> None:
    for seed in range(5):
        mine, theirs = random.Random(seed), random.Random(seed)
        for n in LENGTHS:
            for _ in range(40):
                assert below(mine, n) == theirs._randbelow(n), (seed, n)
        assert mine.getstate() == theirs.getstate()


def test_choice_chooses_what_random_choice_chooses() -> None:
    for seed in range(5):
        mine, theirs = random.Random(seed), random.Random(seed)
        for n in [m for m in LENGTHS if m <= 5000]:
            items = list(range(n))
            for _ in range(40):
                assert choice(mine, items) == theirs.choice(items), (seed, n)
        assert mine.getstate() == theirs.getstate()
    with pytest.raises(IndexError):
        choice(random.Random(0), [])


def test_shuffle_orders_as_random_shuffle_does() -> None:
    for seed in range(30):
        mine, theirs = random.Random(seed), random.Random(seed)
        for n in (*range(12), 54, 108, 162, 216, 500, 1023, 1024, 1025, 3000):
            a, b = list(range(n)), list(range(n))
            shuffle(mine, a)
            theirs.shuffle(b)
            assert a == b, (seed, n)
        assert mine.getstate() == theirs.getstate()


def test_a_shuffled_deck_is_the_deck_random_shuffle_gives() -> None:
    for variant, players in (("classic", 4), ("ponytail", 6), ("modern-american", 4),
                             ("classic", 2)):
        rules = Rules.make(variant, players)
        for seed in range(20):
            deck = make_deck(rules.variant.decks(players))
            random.Random(seed).shuffle(deck)
            assert shuffled_deck(rules, seed) == deck


def test_random_play_plays_the_moves_random_choice_picks() -> None:
    for variant, players in (("classic", 4), ("modern-american", 4), ("ponytail", 4)):
        rules = Rules.make(variant, players)
        for hand in range(1, 4):
            seed = hand_seed(5, hand)
            mine, theirs = random.Random(hand), random.Random(hand)
            state = deal(rules, shuffled_deck(rules, seed))
            played = play_out(state, mine)
            twin = deal(rules, shuffled_deck(rules, seed))
            while twin.result is None:
                twin.apply(theirs.choice(twin.legal_moves()))
            assert state.history == twin.history and played == len(twin.history)
            assert state.result == twin.result
            assert mine.getstate() == theirs.getstate()


def test_random_play_asks_about_going_out_only_when_the_draw_needs_it() -> None:
    # play_out leaves ``ask`` undecided until a draw falls on its place: the same moves as
    # rng.choice over the whole listing, asks included, hand after hand.
    rules = Rules.make("classic", 4)
    asked = 0
    for hand in range(1, 25):
        mine, theirs = random.Random(hand), random.Random(hand)
        state = deal(rules, shuffled_deck(rules, hand_seed(9, hand)))
        play_out(state, mine)
        twin = deal(rules, shuffled_deck(rules, hand_seed(9, hand)))
        while twin.result is None:
            twin.apply(theirs.choice(twin.legal_moves()))
        assert state.history == twin.history and state.result == twin.result
        assert mine.getstate() == theirs.getstate()
        asked += sum(1 for _seat, m in twin.history if str(m) == "ask")
    assert asked > 0


def test_a_deal_refuses_any_other_pack_than_the_whole_one() -> None:
    rules = Rules.make("classic", 4)
    deck = shuffled_deck(rules, 3)
    assert is_whole_pack(deck, 2) and not is_whole_pack(deck, 3)
    other = ALL_CARDS[0] if deck[0] is not ALL_CARDS[0] else ALL_CARDS[1]
    for wrong in (deck[1:], [*deck, deck[0]], [other, *deck[1:]], [*deck, *deck], []):
        assert not is_whole_pack(wrong, 2)
        with pytest.raises(PositionError) as refused:
            deal(rules, wrong)
        assert refused.value.code == "position.deal_cards"
        assert refused.value.params == {"count": 108, "decks": 2}
