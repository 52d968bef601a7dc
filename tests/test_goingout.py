"""The going-out question's counting against the search it spares (engine/goingout.py).

Where the search confirms its ways out with ``check`` (Modern American, Ponytail), counting
first (``_keeps``: each rank's fewest wild cards, the black threes, the card kept) may only
drop what the search would refuse: the answers of ``can_go_out`` and the moves that go out at
once, in their order, must be those of the search with nothing dropped by counting.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import canasta.engine.goingout as goingout
import canasta.engine.legal as legal
from canasta.engine.deal import deal, shuffled_deck
from canasta.engine.goingout import can_go_out, going_out_moves
from canasta.engine.state import HandState
from canasta.match import hand_seed
from canasta.moves import ASK, YES, MoveKind
from canasta.rules import Rules

from rules_helpers import table_position


def _answers(state: HandState) -> tuple[bool, list[str], list[str]]:
    if state.phase != "play" or state.asking is not None or state.facts.black_threes_down:
        return can_go_out(state), [], []
    return (can_go_out(state), [str(m) for m in going_out_moves(state, True)],
            [str(m) for m in going_out_moves(state, False)])


def _uncounted(state: HandState, monkeypatch: pytest.MonkeyPatch) -> tuple[bool, list[str],
                                                                           list[str]]:
    """The answers with counting asking nothing: every rank needs no wild card, so only the
    search (``_feasible`` and the moves' checks) decides."""
    with monkeypatch.context() as m:
        m.setattr(goingout, "_fewest_wilds", lambda *args: 0)
        return _answers(state)


class _NoWaysOut:
    """``WaysOut`` that proves nothing: the listing asks the search of every meld (pure
    Python: the compiled listing keeps its own)."""

    @staticmethod
    def of(state: HandState) -> None:
        return None


def _random_play(rules: Rules, hands: int, seed: int) -> Iterator[HandState]:
    """Each position of ``hands`` hands of random play (``seed``), before its move."""
    rng = random.Random(seed)
    for i in range(hands):
        state = deal(rules, shuffled_deck(rules, hand_seed(seed, i + 1)))
        while state.result is None:
            yield state
            state.apply(rng.choice(state.legal_moves()))


@pytest.mark.parametrize(("variant", "players", "hands"), [
    ("modern-american", 4, 12), ("ponytail", 4, 2), ("ponytail", 6, 1)])
def test_counting_drops_only_what_the_search_refuses(variant: str, players: int, hands: int,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # Random play, the question asked at every play-phase position (after a yes as well).
    asked = yes = 0
    for state in _random_play(Rules.make(variant, players), hands, 18):
        if state.phase == "play" and state.asking is None:
            got = _answers(state)
            assert got == _uncounted(state, monkeypatch), state.hands[state.turn]
            asked += 1
            yes += got[0]
    assert asked > 100 and yes > 5, (asked, yes)


CANASTAS = ["KC KD KH KS KC KD KH", "QC QD QH QS QC QD QH", "9C 9D 9H"]
PONYTAIL_CANASTAS = ["KC KD KH KS KC KD KH", "JC JD JH JS JC 2C 2D", "QC QD QH"]


@pytest.mark.parametrize(("hand", "out"), [
    ("QS QD 5S", True),  # a lone five of a rank not melded: the only card that may go
    ("QS 5S 6S", False),  # two lone cards: no card kept helps both
    ("5S 5H 2C", True),  # the pair of fives takes the wild card: nothing is kept
    ("5S 5H 2C 2D 6S", True),  # ... with a wild card to spare, and the six kept
    ("QS 2C 2D JK", True),  # the queens take two wild cards or three: one may be kept
    ("3C QS", True),  # one black three: it is the discard
    ("3C 3S 3C QS", True),  # three go down last, with the queen before them
    ("3C 3S QS", False),  # two make no meld, and only one may be the discard
    ("KS 5S", False),  # the closed kings take no king: two lone cards
    ("KS KH 2C 5S", True),  # ... but two kings and a wild card start a new meld (E-41)
])
def test_counting_at_its_edges_gives_the_search_answer(
        hand: str, out: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    # Ponytail, both kinds of canasta down.
    state = table_position("ponytail", 4, hands=[hand, "", "", ""],
                           melds=[PONYTAIL_CANASTAS, []], ponytails=[None] * 4)
    assert _answers(state) == _uncounted(state, monkeypatch)
    assert can_go_out(state) is out


@pytest.mark.parametrize(("hand", "out"), [
    ("9S 2C", True),  # the deuce may join no meld (C.5: four nines): it is the discard
    ("9S 8S 2C", False),  # ... and the lone eight has nowhere to go
    ("9S 9C 9S 2C 4S", True),  # six nines take the deuce; the four is the discard
])
def test_counting_keeps_a_wild_card_where_modern_american_wants_it(
        hand: str, out: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    # Modern American: the two canastas closed, no melding out, wild cards only on a meld of
    # five naturals or more once the side has opened.
    state = table_position("modern-american", 4, hands=[hand, "", "", ""],
                           melds=[CANASTAS, []])
    assert _answers(state) == _uncounted(state, monkeypatch)
    assert can_go_out(state) is out


@pytest.mark.parametrize(("variant", "players", "hands"), [
    ("classic", 4, 40), ("modern-american", 4, 30), ("ponytail", 4, 6)])
def test_ways_out_prove_only_melds_the_search_keeps(variant: str, players: int, hands: int,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # After a yes, the listing keeps the melds that a move going out at once holds without a
    # search (``WaysOut``): the same listing as with the search asked of every meld.  Random
    # play; wherever the seat may ask, a copy asks, hears a yes and plays its turn out at
    # random, the listing compared at each step.
    rng = random.Random(23)
    bound = melds = 0
    for state in _random_play(Rules.make(variant, players), hands, 23):
        if ASK not in state.legal_moves():
            continue
        trial = state.copy()
        trial.apply(ASK)
        trial.apply(YES)
        while trial.result is None and trial.answer == "yes":
            listed = trial.legal_moves()
            with monkeypatch.context() as m:
                m.setattr(legal, "WaysOut", _NoWaysOut)
                assert listed == trial.copy().legal_moves(), trial.hands[trial.turn]
            bound += 1
            melds += sum(mv.kind in (MoveKind.MELD, MoveKind.ADD) for mv in listed)
            trial.apply(rng.choice(listed))
    assert bound > 100 and melds > 2 * bound, (bound, melds)
