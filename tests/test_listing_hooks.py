"""The variant hooks the listing asks once per position instead of once per candidate:
``meld_limits`` (``counts_error`` for melds of natural ranks, as data)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from canasta.cards import NATURAL_RANKS
from canasta.engine.compose import WildRanges
from canasta.engine.deal import deal, shuffled_deck
from canasta.rules import Rules


@pytest.mark.parametrize(("variant", "players", "options"), [
    ("classic", 2, {}),
    ("classic", 4, {}),
    ("classic", 3, {"wild_ratio": "not-more-wilds"}),
    ("modern-american", 4, {}),
])
def test_meld_limits_are_counts_error_as_data(variant: str, players: int,
                                              options: dict[str, Any]) -> None:
    # At every position of a random hand, for every side, natural rank and counts (split
    # between deuces and jokers every way), the limits give counts_error's answer.
    rules = Rules.make(variant, players, **options)
    v = rules.variant
    rng = random.Random(3)
    compared = 0
    for seed in (1, 2):
        state = deal(rules, shuffled_deck(rules, seed))
        while not state.over:
            for side in range(rules.n_sides):
                limits = v.meld_limits(state, side)
                assert limits is not None
                for k, rank in enumerate(NATURAL_RANKS):
                    mi = state.find_meld(side, rank)
                    w0 = state.melds[side][mi].wilds if mi >= 0 else 0
                    for n in range(10):
                        for d in range(4):
                            for j in range(3):
                                expected = v.counts_error(state, side, rank, n, d, j) is None
                                assert limits.allows(k, n, d + j, w0) == expected, (
                                    rank, n, d, j, w0, state.melds[side])
                                compared += 1
            state.apply(rng.choice(state.legal_moves()))
    assert compared > 50_000


def test_a_variant_that_overrides_counts_error_gives_no_limits() -> None:
    # Ponytail's counts_error is its own: the listing asks it, as before.
    rules = Rules.make("ponytail", 4)
    state = deal(rules, shuffled_deck(rules, 1))
    assert rules.variant.meld_limits(state, 0) is None


@pytest.mark.parametrize(("variant", "players", "options"), [
    ("classic", 2, {}),
    ("classic", 3, {"wild_ratio": "not-more-wilds"}),
    ("modern-american", 4, {}),
    ("ponytail", 4, {}),
])
def test_the_listing_ranges_of_new_melds_are_the_variant_wild_range(
        variant: str, players: int, options: dict[str, Any]) -> None:
    # compose.WildRanges reads them off meld_limits where the variant gives them.
    rules = Rules.make(variant, players, **options)
    v = rules.variant
    rng = random.Random(7)
    compared = 0
    state = deal(rules, shuffled_deck(rules, 4))
    while not state.over:
        for side in range(rules.n_sides):
            ranges = WildRanges(state, side)
            for k, rank in enumerate(NATURAL_RANKS):
                for n in range(10):
                    assert ranges.of(k, n) == v.wild_range(state, side, rank, n, None), (
                        rank, n, state.melds[side])
                    compared += 1
        state.apply(rng.choice(state.legal_moves()))
    assert compared > 10_000
