"""``apply`` carries a listed move out from what the listing kept (no check, no Plan for a
move that lays no cards or one group): the position it reaches must be the one the checked
move reaches, and the counts the state keeps beside each hand must stay those of the hand."""

from __future__ import annotations

import random

import pytest

from canasta.cards import ALL_CARDS, kind_counts
from canasta.engine.melds import Meld
from canasta.engine.state import HandState
from canasta.match import Match
from canasta.position import position_to_json
from canasta.rules import Rules

TABLES = (("classic", 4), ("classic", 2), ("modern-american", 4), ("ponytail", 4))


def _seen(state: HandState) -> object:
    """Everything a move changes: the position, its turn's facts, history and result."""
    return (position_to_json(state), state.facts, state.history, state.result,
            state.penalties, state.penalized)


def _counts_agree(state: HandState) -> None:
    for seat, hand in enumerate(state.hands):
        cc = state.counts(seat)
        assert cc.kinds == kind_counts(hand)
        assert cc.size == len(hand)
        assert sorted(hand, key=lambda c: c.id) == cc.in_order()


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_a_listed_move_reaches_the_position_the_checked_move_reaches(
        variant: str, players: int) -> None:
    rng = random.Random(3)
    state = Match(Rules.make(variant, players), 11).state
    step = 0
    while state.result is None and step < 400:
        moves = state.legal_moves()
        if step % 5 == 0:
            for m in moves:
                listed = state.copy(plans=True)  # the listing's plans: carried out unchecked
                checked = state.copy()  # no plans: checked first
                assert listed.apply(m) == checked.apply(m)
                assert _seen(listed) == _seen(checked), m
                _counts_agree(listed)
                assert listed.meld_index(0).melds == listed.melds[0]
        state.apply(rng.choice(moves))
        _counts_agree(state)
        step += 1


def test_melds_compare_by_rank_and_cards_in_any_order() -> None:
    k = [c for c in ALL_CARDS if c.rank == "K"]
    meld = Meld("K", k[:3])
    assert meld == Meld("K", reversed(k[:3]))
    assert meld != Meld("K", k[:2])
    assert meld != meld.plus([k[3]])
    assert meld.plus([k[3]]) == Meld("K", k)
    assert hash(meld) == hash(Meld("K", reversed(k[:3])))
