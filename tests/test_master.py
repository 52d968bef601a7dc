"""The master's override (bots/master.py): when its search may replace the expert's choice, and
the margin a discard that feeds the next side must clear (the club yardsticks' feeds, issue 32)."""

from __future__ import annotations

import math
import sys

import pytest

from canasta.bots import master as master_module
from canasta.bots.expert import ExpertPlayer
from canasta.bots.master import MasterPlayer, _experts_discard
from canasta.bots.sampling import Memory
from canasta.engine.state import HandState
from canasta.moves import Move, MoveKind
from canasta.view import view_of

from conftest import ROOT, position

sys.path.insert(0, str(ROOT / "bench"))  # bench/ is not a package: its modules load by path
import yardsticks


def _cards(text: str) -> list[str]:
    return text.split()


def _after_the_draw(turn: int, hands: list[str], melds: list[list[str]], threes: list[str],
                    discard: str, stock: str) -> HandState:
    """A Classic 4p position from the yardstick's hands (seed 1), every side melded, the seat
    to play having drawn from the stock."""
    return position(
        turn=turn, phase="play", drew="stock", melded=[True] * 4,
        hands=[_cards(h) for h in hands], melds=[[_cards(m) for m in ms] for ms in melds],
        threes=[_cards(t) for t in threes], discard=_cards(discard), stock=_cards(stock))


#: Hand 41, seat 0: the expert adds its king; the next side has sevens on the table (the 7S
#: feeds the pile) and seat 0 holds two black threes.
KINGS_OR_SEVEN = _after_the_draw(
    0, ["JS AD 7S AH 3S 3S JC KH", "5S KS", "AS AC", "6S TD 8C 3C"],
    [["6C 6D 6D 6H JK", "4C 4D 4S 4S", "5C 5D 5H 5S", "9C 9C 9H 9H 9S 2C 2D", "KC KD KD",
      "8C 8D 8D 8H 8S 8S 2S", "TC TC TH TS TS", "QC QD QD"],
     ["QC QH QS QS JK", "7C 7C 7D 7H 7S 2C 2H JK", "4C 4D 4H", "AD AH 2D", "JC JD JD"]],
    ["3H 3D", "3D"], "3C",
    "AS 8H TH 3H 2H KS 6S 5C AC QH KC JK 9D JS 7H 7D 9S 5H 9D 5D KH JH 6C TD 2S 4H 6H JH")

#: Hand 47, seat 2 (a turn later): the expert adds its jack to a canasta; the next side has
#: eights on the table, the pile holds five cards and seat 2 two black threes.
JACK_OR_EIGHT = _after_the_draw(
    2, ["AC", "9D 9S", "8S AC 3S 3S JS", "9H 9D"],
    [["9C 9C 9H 9S JK", "QC QC QD QD QH QH QS QS 2C JK", "6C 6D 6H 6S 6S",
      "JC JD JD JH JH JS 2S", "7C 7D 7D 7H 7H 7S 7S 2H", "4C 4D 4D 4H 4H 4S 4S",
      "KC KC KD KD KH KH KS 2D", "5C 5C 5H"],
     ["AD AH AS AS 2D", "8C 8C 8D 8H 8H 8S JK", "TC TD TD TH TS 2C 2S", "5D 5S 5S"]],
    ["3D 3H 3H", ""], "3C TS JC 3C 8D", "4C 3D AH 7C 6C 5H TC 6D 6H 5D KS JK TH AD 2H")

#: Hand 47, seat 2: the pile is a black three; the expert discards a black three of its own,
#: the ten it could discard instead (the next side has tens on the table) gives away a pile of
#: two cards.  Played out to the end of the hand by experts at every seat in 60 deals of the
#: hidden cards, the ten comes out ahead: +139 (se 39) for seat 2's side.
THREE_OR_TEN = _after_the_draw(
    2, ["AC", "9D 9S", "8S AC TS 3S 3S", "9H JC 9D"],
    [["9C 9C 9H 9S JK", "QC QC QD QD QH QH QS QS 2C JK", "6C 6D 6H 6S 6S",
      "JC JD JD JH JH JS 2S", "7C 7D 7D 7H 7H 7S 7S 2H", "4C 4D 4D 4H 4H 4S 4S",
      "KC KC KD KD KH KH KS 2D", "5C 5C 5H"],
     ["AD AH AS AS 2D", "8C 8C 8D 8H 8H 8S", "TC TD TD TH TS 2C 2S", "5D 5S 5S"]],
    ["3D 3H 3H", ""], "3C", "JK 3C 8D JS 4C 3D AH 7C 6C 5H TC 6D 6H 5D KS JK TH AD 2H")


def _searched(state: HandState, seed: int = 1) -> tuple[Move, Move]:
    """The expert's choice and the master's, searching all its rounds (no time cap)."""
    seat = state.turn
    view = view_of(state, seat)
    expert = ExpertPlayer(seed)  # the master's own expert, as seeded
    expert.new_hand(seat)
    master = MasterPlayer(seed, cap_ms=math.inf, clock="cpu")
    master.new_hand(seat)
    return expert.choose(view), master.choose(view)


def _feeds(state: HandState, move: Move) -> bool:
    seat = state.turn
    view = view_of(state, seat)
    memory = Memory()
    memory.update(view)
    return yardsticks.avoidable_feed(state, seat, move, list(view.legal_moves), memory)


@pytest.fixture
def no_turn_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every round played, however slow the machine: the search's rounds, not its time, decide.
    monkeypatch.setattr(master_module, "TURN_CAP", math.inf)


@pytest.mark.usefixtures("no_turn_cap")
@pytest.mark.parametrize("state", [KINGS_OR_SEVEN, JACK_OR_EIGHT], ids=["kings", "jacks"])
def test_the_master_does_not_feed_the_pile_instead_of_the_experts_meld(state: HandState
                                                                        ) -> None:
    """The expert melds first and discards after, so its choice is no discard: the master's
    feeding discard was measured against nothing and replaced the meld on the noise bar alone
    (the 7S, the 8S).  It is measured against the expert's own discard, a black three."""
    anchor, move = _searched(state)
    assert anchor.kind is MoveKind.ADD
    assert not _feeds(state, move), move


def test_a_feed_is_measured_against_the_experts_discard_when_it_melds_first() -> None:
    state = KINGS_OR_SEVEN
    view = view_of(state, 0)
    master = MasterPlayer(1, rounds=4)
    master.new_hand(0)
    master.expert.memory.update(view)
    anchor, world, scored = master.expert.judge(view)
    assert world is not None and anchor.kind is MoveKind.ADD
    safer = _experts_discard(anchor, scored)
    assert safer is not None and safer.card is not None and safer.card.rank == "3"
    three, seven = (next(m for m in view.legal_moves if m.kind is MoveKind.DISCARD
                         and m.card is not None and m.card.rank == r) for r in ("3", "7"))
    assert master._feed_margin(world, view, safer, seven) > 50  # a pile of two, taken for sure
    assert master._feed_margin(world, view, safer, three) == 0.0
    assert _experts_discard(seven, scored) == seven  # the expert's own discard stands for itself


@pytest.mark.usefixtures("no_turn_cap")
def test_the_master_still_replaces_a_safe_discard_where_the_search_clears_the_margin() -> None:
    """The override still fires: the ten beats the black three in the master's deals by more
    than the bar and what the ten gives away (a pile of two), as the whole hand played out
    says too."""
    anchor, move = _searched(THREE_OR_TEN)
    assert anchor.card is not None and anchor.card.rank == "3"
    assert move.kind is MoveKind.DISCARD and move.card is not None and move.card.rank == "T"
