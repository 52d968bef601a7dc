"""The variant hooks the listing asks once per position instead of once per candidate:
``meld_limits`` (``counts_error`` for melds of natural ranks, as data) and ``discard_kinds``
(``discard_error`` for every kind in hand)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from canasta.cards import N_KINDS, NATURAL_RANKS
from canasta.engine.compose import WildRanges
from canasta.engine.deal import deal, shuffled_deck
from canasta.engine.legal import _Additions
from canasta.engine.state import HandState
from canasta.errors import Refusal
from canasta.rules import Rules
from canasta.variants.base import Variant


@pytest.mark.parametrize(("variant", "players", "options"), [
    ("classic", 2, {}),
    ("classic", 4, {}),
    ("classic", 3, {"wild_ratio": "not-more-wilds"}),
    ("modern-american", 4, {}),
    ("ponytail", 4, {}),
    ("ponytail", 6, {"required_canastas": "four-books"}),
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


@pytest.mark.parametrize(("variant", "players"), [
    ("classic", 2), ("classic", 4), ("modern-american", 4), ("ponytail", 4), ("ponytail", 6)])
def test_what_the_listing_keeps_of_the_melds_is_what_it_works_out_afresh(variant: str,
                                                                         players: int) -> None:
    # What the play phase's listing works out from a side's melds (``legal._Additions``) is
    # handed from one meld index to the next when one meld changes (``MeldIndex.after``),
    # asked again for that meld's rank only: after every move of random hands it says what
    # one worked out from the melds alone says.
    rules = Rules.make(variant, players)
    rng = random.Random(5)
    compared = 0
    for seed in (1, 2, 3):
        state = deal(rules, shuffled_deck(rules, seed))
        while not state.over:
            moves = state.legal_moves()
            for side in range(rules.n_sides):
                kept = state.meld_index(side).listing
                if not isinstance(kept, _Additions):
                    continue
                melds = state.melds[side]
                fresh = _Additions(state, side, kept.limits)
                assert kept.joins == fresh.joins
                assert kept.where == fresh.where
                for k, mi in enumerate(fresh.joins):
                    if kept.natural_ok[k] >= 0:
                        w0 = melds[mi].wilds
                        assert kept.natural_ok[k] == int(
                            fresh.allows(k, melds[mi].naturals + 1, w0, w0))
                assert kept.take_wild_cards(melds) == fresh.take_wild_cards(melds)
                if kept.wild_adds is not None:
                    assert kept.wild_adds == fresh.take_wild_cards(melds)
                compared += 1
            state.apply(rng.choice(moves))
    assert compared > 300


class _OwnCountsError(Variant):
    """Classic with a counts_error of its own and no meld_limits to match it."""

    name = "own-counts-error"

    def counts_error(self, state: HandState, side: int, rank: str, naturals: int, deuces: int,
                     jokers: int) -> Refusal | None:
        return None if naturals >= 3 else Refusal("meld.min_naturals")


def test_a_variant_that_overrides_counts_error_gives_no_limits() -> None:
    # Classic's limits would not be its counts_error: the listing asks counts_error, as it
    # does for any variant that gives no limits of its own.
    rules = Rules.make("classic", 4)
    state = deal(rules, shuffled_deck(rules, 1))
    assert _OwnCountsError().meld_limits(state, 0) is None
    assert rules.variant.meld_limits(state, 0) is not None


@pytest.mark.parametrize(("variant", "players"), [
    ("classic", 4), ("modern-american", 4), ("ponytail", 4)])
def test_discard_kinds_is_discard_error_for_every_kind_in_hand(variant: str,
                                                               players: int) -> None:
    # Every seat's hand at every position of random hands, going out or not, the pile empty
    # or not (Modern American's pile starts empty: C.8 orders the discards then).
    rules = Rules.make(variant, players)
    v = rules.variant
    rng = random.Random(5)
    compared = empty = 0
    for seed in (1, 2, 3):
        state = deal(rules, shuffled_deck(rules, seed))
        while not state.over:
            empty += not state.pile
            for seat in range(players):
                by_kind = state.counts(seat).by_kind
                for going_out in (False, True):
                    allowed = v.discard_kinds(state, seat, going_out)
                    for k in range(N_KINDS):
                        if by_kind[k]:
                            expected = v.discard_error(state, seat, by_kind[k][0],
                                                       going_out) is None
                            assert allowed[k] == expected, (seat, k, going_out)
                            compared += 1
            state.apply(rng.choice(state.legal_moves()))
    assert compared > 5_000 and empty > 0


@pytest.mark.parametrize(("hand", "pile", "discards"), [
    # C.7: wild cards only going out or from a hand of wild cards only.
    ("2C JK 2D", ["TS"], ["2C", "JK"]),
    ("2C JK 9S", ["TS"], ["9S"]),
    # C.8 on an empty pile: live ranks but aces and sevens first, then closed ranks, then
    # aces and sevens (kings are closed: a natural canasta of them).
    ("AS 7D KS 9H", [], ["9H"]),
    ("AS 7D KS", [], ["KS"]),
    ("AS 7D 2C", [], ["AS", "7D"]),
])
def test_modern_american_discards_are_listed_from_one_question(hand: str, pile: list[str],
                                                               discards: list[str]) -> None:
    from rules_helpers import table_position

    state = table_position("modern-american", 4, hands=[hand, "", "", ""], discard=pile,
                           melds=[["KC KD KH KS KC KD KH", "QC QD QH"], []])
    assert [str(m) for m in state.legal_moves()
            if str(m).startswith("discard")] == [f"discard {c}" for c in discards]


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
