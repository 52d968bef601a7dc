"""The club yardsticks of bench/yardsticks.py: what counts as a feed, the judge's deals."""

from __future__ import annotations

import random
import sys
from typing import Any

import pytest

from canasta.bots.sampling import Memory, determinize
from canasta.cards import card, sort_cards
from canasta.moves import Move, MoveKind, parse_move
from canasta.strategy import load_cases
from canasta.view import view_of

from conftest import ROOT, position

sys.path.insert(0, str(ROOT / "bench"))  # bench/ is not a package: its modules load by path
import big_piles
import yardsticks


def _table(**changes: Any) -> Any:
    """Seat 0 has drawn; the next side (seat 1's) has kings on the table; the pile is open."""
    fields: dict[str, Any] = {
        "phase": "play",
        "hands": [["KC", "QH", "3S", "2C"], ["4C", "4D"], ["5C", "5D"], ["6C", "6D"]],
        "melds": [[["AH", "AD", "AC"]], [["KH", "KD", "KS"]]],
        "discard": ["9C", "9D", "8H"], "stock": ["7C", "7D", "7H", "7S"]}
    fields.update(changes)
    return position(**fields)


def _discards(state: Any) -> list[Move]:
    return [m for m in state.legal_moves() if m.kind.value == "discard"]


def test_a_rank_on_the_next_sides_meld_feeds_an_open_pile() -> None:
    state = _table()
    memory = Memory()
    assert yardsticks.feeds(state, 0, card("KC"), memory)
    assert not yardsticks.feeds(state, 0, card("QH"), memory)
    assert not yardsticks.feeds(state, 0, card("3S"), memory)
    # The queen and the black three were safe: discarding the king was avoidable.
    assert yardsticks.avoidable_feed(state, 0, parse_move("discard KC"), _discards(state), memory)
    assert not yardsticks.avoidable_feed(state, 0, parse_move("discard QH"), _discards(state),
                                         memory)


def test_no_feed_is_avoidable_when_only_a_wild_card_is_left_to_discard() -> None:
    state = _table(hands=[["KC", "2C"], ["4C", "4D"], ["5C", "5D"], ["6C", "6D"]])
    assert not yardsticks.avoidable_feed(state, 0, parse_move("discard KC"), _discards(state),
                                         Memory())


def test_a_frozen_pile_or_a_pair_rule_is_no_feed() -> None:
    frozen = _table(discard=["9C", "2D", "8H"])
    assert not yardsticks.feeds(frozen, 0, card("KC"), Memory())
    # Modern American: the pile is only taken with a natural pair, melds or not.
    ma = _table(variant="modern-american", discard=["9C", "8H"],
                hands=[["KC", "QH", "QD", "JS"], ["4C", "4D"], ["5C", "5D"], ["6C", "6D"]])
    assert not yardsticks.feeds(ma, 0, card("KC"), Memory())


def test_a_pair_seen_taken_from_the_pile_feeds() -> None:
    state = position(turn=1, hands=[["JC", "TD"], ["5D", "5S", "9C", "4D"], ["6C", "6D"],
                                    ["QC", "QD"]],
                     melds=[[["AH", "AD", "AC"]], [["KH", "KD", "KS"]]],
                     discard=["8H", "8D", "5C"], stock=["7C", "7D", "7H", "7S", "TC", "TH"])
    memory = Memory()
    memory.update(view_of(state, 0))
    for seat, move in [(1, "take 5D 5S"), (1, "discard 9C"), (2, "draw"), (2, "discard 6C"),
                       (3, "draw"), (3, "discard QC"), (0, "draw")]:
        state.apply(move, seat=seat)
    memory.update(view_of(state, 0))
    # Seat 1 took the two eights under the five and has not shown them since.
    assert yardsticks.feeds(state, 0, card("8S"), memory)
    assert not yardsticks.feeds(state, 0, card("8S"), Memory())


def test_the_judge_keeps_the_askers_hand_and_every_card() -> None:
    case = next(c for c in load_cases([ROOT / "tests" / "strategy"])
                if c.name == "classic-4p-answer-yes-holding-one-card")
    state = case.state()
    answerer, asker = state.turn, state.asking
    assert asker is not None
    world = determinize(view_of(state, answerer), random.Random(3))
    before = world.all_cards()
    yardsticks._keep_hand(world, asker, state.hands[asker], answerer)
    assert sort_cards(world.hands[asker]) == sort_cards(state.hands[asker])
    assert world.all_cards() == before
    flip, gain = yardsticks.judge_answer(state, answerer, parse_move("no"), Memory(),
                                         random.Random(3))
    assert isinstance(flip, bool) and isinstance(gain, float)


def test_the_judge_plays_a_declined_big_pile_both_ways() -> None:
    case = next(c for c in load_cases([ROOT / "tests" / "strategy"])
                if c.name == "ma-take-a-fourteen-card-pile-with-the-jacks")
    state = case.state()
    seat = state.turn
    cards, hand, phase = state.all_cards(), list(state.hands[seat]), state.phase
    flip, gain, take = yardsticks.judge_decline(state, seat, Memory(), random.Random(5),
                                                worlds=3)
    assert isinstance(flip, bool) and isinstance(gain, float)
    assert take.kind is MoveKind.TAKE and state.is_legal(take)
    # The position judged is left as it was.
    assert state.all_cards() == cards and len(state.pile) == 14
    assert state.hands[seat] == hand and state.phase == phase and state.turn == seat


def test_the_judge_refuses_a_position_with_no_question() -> None:
    with pytest.raises(ValueError, match="there is no question to answer"):
        yardsticks.judge_answer(_table(), 0, parse_move("yes"), Memory(), random.Random(1))


def test_whole_hands_are_counted() -> None:
    t = yardsticks.play_hands("classic", 4, "basic", 2)
    assert t.hands == 2 and t.decisions > 0
    assert 0 <= t.stripped <= t.early_draws and t.feeds <= t.decisions
    assert yardsticks.row("classic", 4, "basic", t).startswith("| classic 4p | basic | 2 | ")


def test_big_piles_are_summed_up_by_what_the_expert_did() -> None:
    def turn(took: bool, top: str, gain: float, sevens: int = 0) -> dict[str, object]:
        return {"took": took, "top": top, "sevens": sevens, "take_less_draw": gain, "se": 100.0,
                "one_ply": -gain}

    lines = big_piles.summary([turn(True, "K", 2000.0), turn(True, "7", 1000.0),
                               turn(False, "7", -300.0, 3), turn(False, "7", -500.0, 1),
                               turn(False, "Q", -500.0)])
    # The spread of the group's turns gives the standard error: 1000 / sqrt(2) for the takes.
    assert lines[2:] == ["| taken | 2 | +1500 (500) | -1500 |",
                         "| declined, a seven on top | 2 | -400 (100) | +400 |",
                         "| ... three sevens or more under it | 1 | -300 (nan) | +300 |",
                         "| ... two or fewer | 1 | -500 (nan) | +500 |",
                         "| declined, another card on top | 1 | -500 (nan) | +500 |"]


def test_big_pile_turns_are_judged_and_the_game_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(big_piles, "BIG_PILE", 8)  # smaller piles, so that one hand has some
    turns = list(big_piles.judged_turns(7, 7, worlds=2))
    assert turns and all(t["hand"] == 7 and int(str(t["pile"])) >= 8 for t in turns)
    assert all(str(t["take"]).startswith("take ") for t in turns)


def test_a_pile_is_judged_over_two_deals_or_more() -> None:
    case = next(c for c in load_cases([ROOT / "tests" / "strategy"])
                if c.name == "ma-take-a-fourteen-card-pile-with-the-jacks")
    state = case.state()
    with pytest.raises(ValueError, match="two deals"):
        yardsticks.judge_pile(state, state.turn, Memory(), random.Random(1), worlds=1)
    judged = yardsticks.judge_pile(state, state.turn, Memory(), random.Random(1), worlds=2)
    # The expert takes this pile: its own one-ply judgement says so too.
    assert judged.take.kind is MoveKind.TAKE and judged.one_ply > 0
