"""Modern American Canasta rules (RULES.md section C, decisions E-18 .. E-32) that the shared
scenarios do not reach.

Each test is named after the section it pins.  Positions use the scenario notation of
scenarios/FORMAT.md; deals use explicit decks so that every card is known.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from canasta.cards import NATURAL_RANKS, Card, cards, make_deck
from canasta.engine.deal import deal, shuffled_deck
from canasta.engine.state import HandState
from canasta.errors import PositionError
from canasta.match import Match, match_outcome
from canasta.rules import Rules

from rules_helpers import legal, play, refused, table_position

KINGS7 = "KC KD KH KS KC KD KH"  # a natural canasta
JACKS7 = "JC JD JH JS JC JD 2C"  # a mixed canasta
TWO_CANASTAS = [KINGS7, JACKS7]


# ----------------------------------------------------------------------------------------
# Helpers
def position(**fields: Any) -> HandState:
    """A Modern American position; hands and melds may be written as space-separated strings."""
    return table_position("modern-american", 4, **fields)














def texts(cs: list[Card]) -> list[str]:
    return sorted(c.text for c in cs)


def breakdown(state: HandState, side: int) -> dict[str, int]:
    assert state.result is not None, "the hand should be over"
    part = state.result.breakdown[side]
    assert sum(v for k, v in part.items() if k != "total") == part["total"]
    return part


def stock_out(**fields: Any) -> HandState:
    """Seat 0 discards its first card with the stock exhausted: the hand ends (C.10)."""
    state = position(stock=[], **fields)
    play(state, f"discard {state.hands[0][0].text}")
    assert state.result is not None and state.result.went_out is None
    return state


def stacked_deck(hands: dict[int, str] | None = None, then: str = "",
                 first: int = 0) -> list[Card]:
    """A full pack in dealing order (from seat ``first``): each seat's hand (the given cards,
    topped up with natural cards), then the ``then`` cards (the top of the stock), then the rest
    with the natural cards first (so no three is drawn by accident)."""
    pool = make_deck(2)
    given = {seat: cards(h) for seat, h in (hands or {}).items()}
    after = cards(then)
    for c in [*(c for cs in given.values() for c in cs), *after]:
        pool.remove(c)
    naturals = [c for c in pool if c.is_natural]
    others = [c for c in pool if not c.is_natural]
    full = {}
    for seat in range(4):
        h = given.get(seat, [])
        need = 13 - len(h)
        full[seat] = h + naturals[:need]
        naturals = naturals[need:]
    order = [full[(first + i) % 4][k] for k in range(13) for i in range(4)]
    return order + after + naturals + others


RULES = Rules.make("modern-american")


# ----------------------------------------------------------------------------------------
# C.2 Players, cards, deal; E-29 dealt threes
def test_C2_a_clean_deal_13_each_empty_pile_stock_56() -> None:
    deck = stacked_deck()
    state = deal(RULES, deck)
    assert [len(h) for h in state.hands] == [13] * 4
    assert len(state.stock) == 56 and state.pile == []
    assert state.hands[1][0] == deck[1]  # one card at a time, from seat 0 on
    assert (state.turn, state.phase) == (0, "draw")
    assert legal(state) == ["draw"]
    assert state.count_cards() == 108


def test_C2_E29_dealt_threes_laid_and_replaced_in_turn_order_three_for_three() -> None:
    # Seat 0 holds 3S: its replacement is 3D (laid in turn), then 5C.  Seat 1 holds 3H and 3C,
    # replaced by 6D and 7H.  Black threes are laid like red ones.
    state = deal(RULES, stacked_deck({0: "3S", 1: "3H 3C"}, then="3D 5C 6D 7H"))
    assert texts(state.threes[0]) == ["3D", "3S"]
    assert texts(state.threes[1]) == ["3C", "3H"]
    assert [len(h) for h in state.hands] == [13] * 4
    assert "5C" in texts(state.hands[0])
    assert {"6D", "7H"} <= set(texts(state.hands[1]))
    assert len(state.stock) == 56 - 4 and state.pile == []
    assert state.count_cards() == 108


def test_C2_E29_in_a_later_hand_threes_are_replaced_from_the_first_players_seat() -> None:
    # Hand 2: seat 1 plays first, so its three is replaced before seat 0's.
    state = deal(RULES, stacked_deck({0: "3H", 1: "3C"}, then="6D 7H", first=1),
                 hand_number=2)
    assert state.turn == 1
    assert "6D" in texts(state.hands[1]) and "7H" in texts(state.hands[0])
    assert len(state.stock) == 54


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_C2_C4_random_deals_hold_no_threes_and_stock_is_56_less_replacements(seed: int) -> None:
    state = deal(RULES, shuffled_deck(RULES, seed))
    laid = sum(len(t) for t in state.threes)
    assert len(state.stock) == 56 - laid
    assert all(c.rank != "3" for h in state.hands for c in h)
    assert [len(h) for h in state.hands] == [13] * 4


def test_C2_exactly_four_players() -> None:
    for players in (2, 3, 6):
        with pytest.raises(PositionError):
            Rules.make("modern-american", players)


# ----------------------------------------------------------------------------------------
# C.4 Threes
def test_C4_a_three_replaced_by_a_three_that_is_the_last_stock_card_stays_in_hand() -> None:
    state = position(phase="draw", hands=["5C 9S", "", "", ""], melds=[["QH QS QD"], []],
                     stock=["3H", "3C"])
    play(state, "draw")
    assert texts(state.threes[0]) == ["3H"]
    assert texts(state.hands[0]) == ["3C", "5C", "9S"]
    assert state.result is not None and state.result.went_out is None
    assert breakdown(state, 0) == {"melded": -30, "canastas": 0, "threes": -100, "going_out": 0,
                                   "in_hand": -(5 + 5 + 10), "penalties": 0, "total": -150}


def test_C4_a_three_replaced_by_the_last_stock_card_does_not_end_the_hand() -> None:
    state = position(phase="draw", hands=["5C 9S", "", "", ""], melds=[["QH QS QD"], []],
                     stock=["3H", "8C"])
    play(state, "draw")
    assert state.result is None and state.phase == "play" and not state.stock
    assert texts(state.hands[0]) == ["5C", "8C", "9S"]
    play(state, "discard 8C")  # the player finishes the turn; then the hand ends (C.10)
    assert state.result is not None and state.result.went_out is None


@pytest.mark.parametrize(("reds", "blacks", "points"), [
    (1, 0, 100), (2, 0, 300), (3, 0, 500), (4, 0, 1000),
    (1, 4, 1100), (2, 3, 800), (4, 4, 2000), (0, 2, 300),
])
@pytest.mark.parametrize(("canastas", "sign"), [(0, -1), (1, 0), (2, 1)])
def test_C4_C11_threes_scored_per_colour_signed_by_canastas(
        reds: int, blacks: int, points: int, canastas: int, sign: int) -> None:
    threes = ["3H", "3D", "3H", "3D"][:reds] + ["3C", "3S", "3C", "3S"][:blacks]
    state = stock_out(hands=["9C 9D", "", "", ""], melds=[[], TWO_CANASTAS[:canastas]],
                      threes=[[], threes])
    assert breakdown(state, 1)["threes"] == sign * points


# ----------------------------------------------------------------------------------------
# C.5 Melds
def test_C5_at_least_two_naturals_and_at_most_two_wilds_even_in_the_opening() -> None:
    state = position(hands=["QC QD QH 2C 2D JK KC KD KH 9C 8C", "", "", ""])
    refused(state, "meld KC KD KH / QC QD QH 2C 2D JK", "at most 2 wild")
    refused(state, "meld KC KD KH / QD 2C JK", "2 natural")
    play(state, "meld KC KD KH / QC QD QH 2C JK")  # 30 + 100: wilds are free in the opening
    assert sorted((m.rank, m.wilds) for m in state.melds[0]) == [("K", 0), ("Q", 2)]


def test_C5_a_meld_stops_at_seven_cards() -> None:
    state = position(hands=["9C 9D 9H 9S 9C 9D 2C 2D 5C", "", "", ""], melds=[[KINGS7], []])
    refused(state, "meld 9C 9D 9H 9S 9C 9D 2C 2D", "7 cards")
    play(state, "meld 9C 9D 9H 9S 9C 9D 2C")
    assert state.canastas(0) == 2
    refused(state, "add 9 2D", "finished canasta")


@pytest.mark.parametrize(("meld", "move", "ok"), [
    ("QH QS QH QS", "add Q QC 2C", True),  # five naturals after the move
    ("QH QS QH QS", "add Q 2C", False),
    ("QH QS QH QS QD", "add Q 2C", True),
    ("QH QS QH QS QD 2D", "add Q 2C", True),  # 5 naturals + 2 wilds: the limit
    ("QH QS QH QS QD 2D JK", "add Q QC", False),  # a canasta is closed
    (None, "meld 9C 9D 9H 9S 9C 2C", True),  # a new meld with five naturals
    (None, "meld 9C 9D 9H 9S 2C", False),
])
def test_C5_rule_of_five_counts_the_naturals_after_the_move(
        meld: str | None, move: str, ok: bool) -> None:
    melds = [KINGS7] + ([meld] if meld else [])
    state = position(hands=["QC QD 9C 9D 9H 9S 9C 2C 5S 6S", "", "", ""], melds=[melds, []])
    if ok:
        play(state, move)
    else:
        refused(state, move)


def test_C5_an_ace_meld_with_wilds_from_the_opening_grows_with_natural_aces_only() -> None:
    state = position(hands=["AC AD AH 2C 5S 6S", "", "", ""],
                     melds=[[KINGS7, "AS AH AS JK"], []])
    refused(state, "add A AC AD 2C", "initial meld")
    play(state, "add A AC AD AH")
    assert state.canastas(0) == 2
    play(state, "discard 5S")
    state = stock_out(hands=["5S 6S", "", "", ""],
                      melds=[["AC AD AS AH AS AH JK", "QC QD QH"], []])
    assert breakdown(state, 0)["canastas"] == 300  # a mixed canasta, not a natural one


def test_C5_E20_a_mixed_canasta_does_not_close_its_rank_to_the_other_side() -> None:
    state = position(hands=["KC KD KH 5S 6S", "", "", ""],
                     melds=[["QC QD QH"], ["KC KD KH KS KS 2C JK"]])
    play(state, "meld KC KD KH")
    assert [m.rank for m in state.melds[0]] == ["Q", "K"]


def test_C5_E26_wild_meld_and_a_mixed_meld_in_one_opening_move_are_refused() -> None:
    state = position(hands=["QC QD QH AC AD 2C JK 2D 2H JK 9C 9D", "", "", ""])
    refused(state, "meld QC QD QH / AC AD 2C JK / 2D 2H JK", "wild-card meld is unfinished")
    # A wild canasta is finished: beside it a mixed meld may be laid in the same opening.
    state = position(hands=["2C 2D 2H 2S 2C 2D JK KC KD JK 9C 8C", "", "", ""])
    play(state, "meld 2C 2D 2H 2S 2C 2D JK / KC KD JK")
    assert state.canastas(0) == 1 and len(state.melds[0]) == 2


def test_C5_E25_E26_an_opening_turn_may_not_add_an_unfinished_wild_meld_to_a_mixed_one() -> None:
    state = position(hands=["QC QD QH AC AD 2C JK 2D 2H JK 9C 9D", "", "", ""])
    play(state, "meld QC QD QH / AC AD 2C JK")  # 30 + 40 + 70 = 140
    refused(state, "meld 2D 2H JK")


def test_C5_E26_one_wild_meld_per_hand() -> None:
    state = position(hands=["JK JK 2H 9C 8C", "", "", ""],
                     melds=[["2C 2D 2H 2S 2C 2D JK", "QC QD QH"], []])
    refused(state, "meld JK JK 2H", "canasta is finished")


def test_C5_one_meld_per_rank_a_sides_mixed_canasta_takes_no_new_meld_of_its_rank() -> None:
    state = position(hands=["KC KD KH 5S 6S", "", "", ""], melds=[["KC KD KH KS KS 2C JK"], []])
    refused(state, "meld KC KD KH", "finished canasta")


def test_C5_nines_beyond_seven_cannot_go_down_so_they_cannot_go_out() -> None:
    # Unlike Ponytail, a rank never gets a second meld: three nines would close the four on the
    # table (a mixed canasta) and the other three could not go down, so there is no way out to
    # ask about.
    state = position(hands=["9H 9S 9C 9D 9H 9S 4S", "", "", ""],
                     melds=[[*TWO_CANASTAS, "9C 9D 2C 2D"], []])
    refused(state, "meld 9C 9D 9H / 9H 9S 9S", "one meld per rank")
    assert "ask" not in legal(state)
    refused(state, "ask", "cannot go out")
    play(state, "add 9 9C 9D 9H")
    refused(state, "meld 9H 9S 9S", "finished canasta")


# ----------------------------------------------------------------------------------------
# C.6 Initial meld; E-19 splash
@pytest.mark.parametrize(("score", "need"), [
    (-2500, 125), (-5, 125), (0, 125), (2995, 125), (3000, 155), (4995, 155), (5000, 180),
    (12000, 180),
])
def test_C6_minimum_by_score_bracket_including_negative_scores(score: int, need: int) -> None:
    assert position(scores=[score, 0]).minimum(0) == need


def test_C6_E19_a_wild_canasta_from_hand_opens_without_the_minimum() -> None:
    state = position(scores=[5000, 0], hands=["2C 2D 2H 2S 2C 2D 2H 9C 8C", "", "", ""])
    play(state, "meld 2C 2D 2H 2S 2C 2D 2H")  # 140 < 180
    assert state.canastas(0) == 1


@pytest.mark.parametrize(("hand", "move"), [
    ("7C 7D 7H 7S 7C 7D 7H 9C 8C", "meld 7C 7D 7H 7S 7C 7D 7H"),  # 35: natural sevens
    ("AC AD AH AS AC AD AH 9C 8C", "meld AC AD AH AS AC AD AH"),  # 140: natural aces
])
def test_C6_E19_a_natural_canasta_of_any_rank_is_a_splash(hand: str, move: str) -> None:
    state = position(scores=[5000, 0], hands=[hand, "", "", ""])
    play(state, move)
    assert state.canastas(0) == 1


def test_C6_E19_a_mixed_canasta_is_no_splash_and_holds_no_clean_meld() -> None:
    state = position(scores=[5000, 0], hands=["AC AD AH AS AC JK JK 9C 8C", "", "", ""])
    refused(state, "meld AC AD AH AS AC JK JK", "without wild cards")  # 200 points, no clean meld
    state = position(scores=[5000, 0], hands=["2C 2D 2H 2S 2C 2D 9C JK", "", "", ""])
    refused(state, "meld 2C 2D 2H 2S 2C 2D", "180")  # six wilds: an unfinished wild meld


def test_C6_E25_the_opening_turn_keeps_its_clean_meld() -> None:
    # After a stock draw the whole turn is the initial meld (E-25): a wild card may not spoil
    # its only clean meld, the same table the opening move itself could not lay.
    hand = "KC KD KH QC QD JK JC JD 2C 2D 5S 6S 8S"
    state = position(hands=[hand, "", "", ""])
    refused(state, "meld KC KD KH 2D / QC QD JK / JC JD 2C", "without wild cards")
    play(state, "meld KC KD KH / QC QD JK / JC JD 2C")
    refused(state, "add K 2D", "without wild cards")
    assert "add K 2D" not in legal(state) and "add Q 2D" in legal(state)
    # With a second clean meld the first may take the wild card.
    state = position(hands=["KC KD KH AC AD AH JC JD 2C 2D 5S 6S 8S", "", "", ""])
    play(state, "meld KC KD KH / AC AD AH / JC JD 2C")  # 30 + 60 + 40
    assert "add K 2D" in legal(state)
    play(state, "add K 2D")
    assert [m.wilds for m in state.melds[0] if m.rank == "K"] == [1]
    # Several groups at once are judged by the table they leave.
    state = position(hands=["KC KD KH AC AD AH QC QD QH 2C KS 2D AS JK 5S", "", "", ""])
    play(state, "meld KC KD KH / AC AD AH / QC QD QH 2C")
    refused(state, "meld KS 2D / AS JK", "without wild cards")  # no clean meld left
    state = position(hands=["KC KD KH QC QD JK JC JD 2C 9C 9D 9H KS 2D 8S 6S", "", "", ""])
    play(state, "meld KC KD KH / QC QD JK / JC JD 2C")
    play(state, "meld 9C 9D 9H / KS 2D")  # the nines are the clean meld now


def test_C6_C7_E19_an_unopened_side_takes_the_pile_with_a_splash_below_the_minimum() -> None:
    state = position(phase="draw", hands=["KC KD 5C 5D 5H 5S 5C 5D 5H 9S 8S", "", "", ""],
                     discard=["4S", "KH"])
    assert "take KC KD / 5C 5C 5D 5D 5H 5H 5S" in legal(state)  # 20 + 35 < 125
    aces = position(phase="draw", scores=[3000, 0], discard=["4S", "KH"],
                    hands=["KC KD AC AC AD AD AH AH AS 9S 8S", "", "", ""])
    takes = [m for m in legal(aces) if m.startswith("take")]
    assert takes == ["take KC KD / AC AC AD AD AH AH AS"]  # a splash that reaches 155: once
    play(state, "take KC KD / 5C 5C 5D 5D 5H 5H 5S")
    assert state.canastas(0) == 1 and state.opened(0)


# ----------------------------------------------------------------------------------------
# C.7 Taking the pile; E-25 what counts as the initial meld
def test_C7_the_pair_joins_a_meld_of_four_cards_making_a_canasta() -> None:
    state = position(phase="draw", hands=["QC QD 9C", "", "", ""],
                     melds=[["QH QS 2C 2D"], []], discard=["4C", "QC"])
    play(state, "take QC QD")
    assert [(m.rank, m.size, m.wilds) for m in state.melds[0]] == [("Q", 7, 2)]
    assert texts(state.hands[0]) == ["4C", "9C"]


@pytest.mark.parametrize("meld", ["QH QS QD QH 2C", "QH QS QD QH 2C 2D", "QH QS QD QH QS 2C 2D"])
def test_C7_a_pair_cannot_join_a_meld_of_five_or_more_cards(meld: str) -> None:
    state = position(phase="draw", hands=["QC QD 9C", "", "", ""], melds=[[meld], []],
                     discard=["4C", "QC"])
    refused(state, "take QC QD")
    refused(state, "take")
    assert legal(state) == ["draw"]


def test_C7_a_wild_on_top_bars_the_pile_even_over_a_natural_pair() -> None:
    state = position(phase="draw", hands=["QC QD 9C", "", "", ""], melds=[["QH QS QD"], []],
                     discard=["4C", "QC", "2C"])
    refused(state, "take QC QD", "wild card on top")
    assert legal(state) == ["draw"]


def test_C7_after_taking_the_pile_it_is_empty_for_the_takers_discard() -> None:
    state = position(phase="draw", hands=["QC QD 9C AS", "", "", ""], melds=[["KC KD KH"], []],
                     discard=["7C", "QC"])
    play(state, "take QC QD")
    assert state.pile == []
    assert sorted(m for m in legal(state) if m.startswith("discard")) == ["discard 9C"]


def test_C7_E25_after_a_pile_opening_later_melds_that_turn_follow_the_rule_of_five() -> None:
    state = position(phase="draw", discard=["5C", "QS"],
                     hands=["QC QD AC AD AH AS JC JD JH JS KC KD 2C 9C 8C", "", "", ""])
    play(state, "take QC QD / AC AD AH AS / JC JD JH JS")  # 20 + 80 + 40 = 140 from hand
    refused(state, "meld KC KD 2C", "five or more naturals")
    refused(state, "add A 2C", "initial meld")
    refused(state, "add J 2C", "five or more naturals")


def test_C7_E25_a_pile_opening_may_hold_mixed_melds_laid_with_the_pickup() -> None:
    state = position(phase="draw", discard=["5C", "QS"],
                     hands=["QC QD AC AD JK KC KD 2C 9C 9D 8C", "", "", ""])
    play(state, "take QC QD / AC AD JK / KC KD 2C")  # 20 + 90 + 40 = 150
    assert sorted((m.rank, m.wilds) for m in state.melds[0]) == [("A", 1), ("K", 1), ("Q", 0)]


def test_E25_opening_turn_after_a_stock_draw_keeps_wilds_free() -> None:
    state = position(hands=["QC QD QH AC AD AH JC JD JH JS 2C 2D KC KD 9C 8C", "", "", ""])
    play(state, "meld QC QD QH / AC AD AH / JC JD JH JS")  # 30 + 60 + 40 = 130
    play(state, "meld KC KD 2C", "add A 2D")  # still the initial meld (E-25)
    assert sorted((m.rank, m.wilds) for m in state.melds[0]) == [
        ("A", 1), ("J", 0), ("K", 1), ("Q", 0)]
    play(state, "discard 9C")
    state = stock_out(hands=["8C 9C", "", "", ""], melds=[["AC AD AH 2D", "QC QD QH"], []])
    assert breakdown(state, 0)["penalties"] == 0  # the aces took a wild in the opening


# ----------------------------------------------------------------------------------------
# C.8 Discards; E-27 the empty-pile order
@pytest.mark.parametrize(("hand", "melds", "allowed"), [
    ("AS 6S 2C", [[], ["6C 6D 6H 6S 6C 6D 6H"]], ["6S"]),  # the worked example of C.8
    ("AS 6S 2C", [["6C 6D 6H 6S 6C 6D 6H"], []], ["6S"]),  # a side's own canasta kills too
    ("AS 7S 2C", [[], ["AC AD AH AS AC AD AH"]], ["7S"]),  # live A/7 before dead A/7
    ("AS 7S 2C", [[], ["AC AD AH AS AC 2D JK"]], ["AS", "7S"]),  # mixed: the aces are live
    ("KS 6S", [[], ["6C 6D 6H 6S 6C 2D 2H"]], ["KS", "6S"]),  # E-20
    ("AS 2C JK", [[], ["AC AD AH AS AC AD AH"]], ["AS"]),
    ("2C JK", [[], []], ["2C", "JK"]),  # an all-wild hand
])
def test_C8_E27_empty_pile_discard_order(hand: str, melds: list[list[str]],
                                         allowed: list[str]) -> None:
    state = position(hands=[hand, "", "", ""], melds=melds, discard=[])
    assert [c for c in hand.split() if state.is_legal(f"discard {c}")] == allowed
    assert sorted(m for m in legal(state) if m.startswith("discard")) == sorted(
        f"discard {c}" for c in allowed)


def test_C8_a_dead_ace_goes_before_a_wild_on_an_empty_pile() -> None:
    state = position(hands=["AS 2C", "", "", ""], melds=[[], ["AC AD AH AS AC AD AH"]],
                     discard=[])
    refused(state, "discard 2C", "wild card")
    play(state, "discard AS")
    assert state.turn == 1


def test_C8_the_empty_pile_rule_does_not_apply_to_a_pile_with_cards() -> None:
    state = position(hands=["AS 7S 9C", "", "", ""], melds=[[], ["9H 9D 9H 9S 9D 9S 9C"]],
                     discard=["4C"])
    assert all(state.is_legal(f"discard {c}") for c in ("AS", "7S", "9C"))


# ----------------------------------------------------------------------------------------
# C.9 Going out and asking partner; E-24, E-28
def test_C9_a_wild_may_be_the_final_discard() -> None:
    state = position(hands=["QC QD QH 2S", "", "", ""], melds=[TWO_CANASTAS, []])
    play(state, "meld QC QD QH", "discard 2S")
    assert state.result is not None and state.result.went_out == 0


def test_C9_completing_the_second_canasta_in_the_going_out_move() -> None:
    state = position(hands=["QC QD QH QS 9S", "", "", ""], melds=[[KINGS7, "QC QD QH"], []])
    play(state, "add Q QC QD QH QS", "discard 9S")
    assert state.result is not None and state.result.went_out == 0


def test_C9_no_concealed_bonus_for_going_out_in_one_turn() -> None:
    fives, fours = "5C 5D 5H 5S 5C 5D 5H", "4C 4D 4H 4S 4C 4D 4H"
    state = position(hands=[f"{fives} {fours} 9C", "", "", ""], melded=[False] * 4)
    play(state, f"meld {fives} / {fours}", "discard 9C")
    assert breakdown(state, 0) == {"melded": 70, "canastas": 1000, "threes": 0,
                                   "going_out": 100, "in_hand": 0, "penalties": 0,
                                   "total": 1170}


def test_C8_C9_going_out_with_an_ace_onto_an_empty_pile() -> None:
    state = position(hands=["QC QD QH AS", "", "", ""], melds=[TWO_CANASTAS, []], discard=[])
    assert state.is_legal("meld QC QD QH")
    assert "ask" in legal(state)
    play(state, "meld QC QD QH", "discard AS")
    assert state.result is not None and state.result.went_out == 0


def test_C9_E28_going_out_with_unfinished_sevens_aces_and_wild_meld_pays_the_penalties() -> None:
    state = position(hands=["7C 7D 7H 9S", "", "", ""],
                     melds=[[*TWO_CANASTAS, "AC AD AH", "2D 2H JK"], []])
    play(state, "meld 7C 7D 7H", "discard 9S")
    assert breakdown(state, 0) == {"melded": 70 + 80 + 60 + 90 + 15, "canastas": 800,
                                   "threes": 0, "going_out": 100, "in_hand": 0,
                                   "penalties": -7000, "total": 315 + 800 + 100 - 7000}


def test_C9_E24_a_yes_binds_the_asker_to_go_out() -> None:
    state = position(hands=["QC QD QH 9S 9D", "", "", ""], melds=[[*TWO_CANASTAS, "9C 9H 9C"], []])
    play(state, "ask")
    assert state.turn == 2 and legal(state) == ["yes", "no"]
    refused(state, "discard 9S", "answer")
    state.apply("yes", seat=2)
    assert (state.turn, state.phase) == (0, "play")
    refused(state, "discard 9S", "must go out")
    play(state, "add 9 9S", "meld QC QD QH", "discard 9D")
    assert state.result is not None and state.result.went_out == 0


def test_C9_asking_when_going_out_takes_a_wild_card_onto_a_meld_of_a_rank_not_in_hand() -> None:
    # Going out here is "add K 2C" (the rule of five: five natural kings) and "discard 9S":
    # the player may ask, and after a yes may choose a route through such an addition.
    canastas = ["QC QD QH QS QC QD QH", "JC JD JH JS JC JD JH"]
    state = position(hands=["2C 9S", "", "", ""], melds=[[*canastas, "KC KD KH KS KC"], []])
    assert "ask" in legal(state)
    state = position(hands=["2C 6S 6D 6H 6C 6S 5S", "", "", ""], melds=[canastas, []])
    play(state, "ask")
    state.apply("yes", seat=2)
    play(state, "meld 6S 6D 6H 6C 6S", "add 6 2C", "discard 5S")
    assert state.result is not None and state.result.went_out == 0


def test_C9_ask_only_right_after_drawing_and_only_once_per_hand() -> None:
    state = position(hands=["QC QD QH 9C 9D 9H 5S", "", "", ""], melds=[TWO_CANASTAS, []])
    play(state, "meld QC QD QH")
    refused(state, "ask", "right after drawing")
    state = position(phase="draw", hands=["QC QD QH 9S", "", "", ""], melds=[TWO_CANASTAS, []])
    refused(state, "ask")
    state = position(hands=["QC QD QH 9S", "", "", ""], melds=[TWO_CANASTAS, []],
                     asked=[True, False, False, False])  # asked on an earlier turn
    refused(state, "ask", "this hand")
    assert "ask" not in legal(state)
    play(state, "meld QC QD QH", "discard 9S")  # going out without asking is still allowed
    assert state.result is not None


def test_C9_a_no_lasts_only_this_turn() -> None:
    state = position(hands=["QC QD QH 9S", "5C", "4C", "6C"], melds=[TWO_CANASTAS, []],
                     stock=["9D", "4D", "5D", "8C", "7D"])
    play(state, "ask", "no")
    refused(state, "meld QC QD QH", "said no")
    play(state, "discard 9S")
    assert state.result is None and state.answer is None
    play(state, "draw", "discard 9D", "draw", "discard 4D", "draw", "discard 5D")
    assert state.turn == 0
    refused(state, "ask")  # still once per hand
    play(state, "draw", "meld QC QD QH", "discard 8C")
    assert state.result is not None and state.result.went_out == 0


# ----------------------------------------------------------------------------------------
# C.10 End of the stock; E-23
def test_C10_E23_stock_exhausted_at_the_draw_ends_the_hand_without_taking_the_pile() -> None:
    state = position(phase="draw", hands=["QC QD 9S", "", "", ""], melds=[["QH QS QD"], []],
                     discard=["QC"], stock=[])
    assert state.result is not None and state.result.went_out is None
    assert legal(state) == []
    assert breakdown(state, 0)["going_out"] == 0


def test_C10_the_player_who_draws_the_last_card_may_still_go_out() -> None:
    state = position(phase="draw", hands=["QC QD 9S", "", "", ""], melds=[TWO_CANASTAS, []],
                     stock=["QH"])
    play(state, "draw", "meld QC QD QH", "discard 9S")
    assert state.result is not None and state.result.went_out == 0
    assert breakdown(state, 0)["going_out"] == 100


# ----------------------------------------------------------------------------------------
# C.11 Scoring; E-22, E-30, E-31
@pytest.mark.parametrize(("meld", "value", "bonus"), [
    ("AC AD AH AS AC AD AH", 140, 2500),
    ("AC AD AH AS AC 2D JK", 170, 300),  # aces that took wilds in the opening
    ("7C 7D 7H 7S 7C 7D 7H", 35, 2500),
    ("KC KD KH KS KC KD KH", 70, 500),
    ("KC KD KH KS KC 2D JK", 120, 300),
    ("2C 2D 2H 2S 2C 2D 2H", 140, 3000),
    ("JK JK JK JK 2C 2D 2H", 260, 2500),
    ("JK JK JK 2S 2C 2D 2H", 230, 2000),
    ("JK 2C 2D 2H 2S 2C 2D", 170, 2000),
])
def test_C11_canasta_bonuses(meld: str, value: int, bonus: int) -> None:
    state = stock_out(hands=["9C 9D", "", "", ""], melds=[[], [meld]])
    part = breakdown(state, 1)
    assert (part["melded"], part["canastas"], part["penalties"]) == (value, bonus, 0)


def test_C11_E31_no_canasta_subtracts_every_melded_card_and_adds_the_special_penalties() -> None:
    state = stock_out(hands=["9C 9D", "", "", ""],
                      melds=[[], ["7C 7D 7H", "AC AD AH", "2C 2D JK", "QC QD 2H"]],
                      threes=[[], ["3H", "3D", "3C"]])
    assert breakdown(state, 1) == {"melded": -(15 + 60 + 90 + 40), "canastas": 0,
                                   "threes": -(300 + 100), "going_out": 0, "in_hand": 0,
                                   "penalties": -(2500 + 2500 + 2000), "total": -7605}


@pytest.mark.parametrize(("wild", "penalty"), [
    ("2C 2D 2H", 2000), ("JK JK JK 2C", 2000), ("JK JK JK JK", 2500), ("JK JK JK JK 2C 2D", 2500),
])
def test_C11_E22_unfinished_wild_meld(wild: str, penalty: int) -> None:
    state = stock_out(hands=["9C 9D", "", "", ""], melds=[[], [KINGS7, wild]])
    assert breakdown(state, 1)["penalties"] == -penalty


def test_C11_E30_three_aces_or_sevens_in_one_hand_per_group_per_player() -> None:
    state = stock_out(hands=["9C 9D", "AC AD AH 7C 7D 7H 5C", "", "AS AS AH 7S 7S"],
                      melds=[[], [KINGS7]])
    part = breakdown(state, 1)
    assert part["in_hand"] == -(60 + 15 + 5 + 60 + 10)
    assert part["penalties"] == -(1500 * 3)  # two groups of seat 1, the aces of seat 3
    state = stock_out(hands=["9C 9D", "AC AD 7C 7D", "AH 7H", ""], melds=[[], [KINGS7]])
    assert breakdown(state, 1)["penalties"] == 0  # the partners' cards are not pooled


# ----------------------------------------------------------------------------------------
# C.12 End of game; E-18, E-32
@pytest.mark.parametrize(("options", "totals", "outcome"), [
    ({}, [8495, 8000], (False, None)),
    ({}, [8500, 3000], (True, 0)),
    ({}, [8600, 8600], (False, None)),  # E-32: a tie plays on
    ({}, [-400, 9000], (True, 1)),
    ({"target": 2500}, [2500, 100], (True, 0)),
    ({"target": 10000}, [9995, 9000], (False, None)),
])
def test_C12_E32_match_end(options: dict[str, int], totals: list[int],
                           outcome: tuple[bool, int | None]) -> None:
    rules = Rules.make("modern-american", **options)
    assert match_outcome(rules, totals, 3) == outcome


def test_C12_default_target_and_the_talon_option() -> None:
    assert RULES.target == 8500
    assert RULES.option("talon_enabled") is False
    with pytest.raises(PositionError, match="talon_enabled"):
        Rules.make("modern-american", talon_enabled=True)
    with pytest.raises(PositionError, match="talon_enabled"):
        position(options={"talon_enabled": True})


def test_C12_C6_match_scores_set_the_next_minimum_and_the_first_player_moves_left() -> None:
    match = Match(RULES, seed=5)
    assert match.state.minimum(0) == 125 and match.state.turn == 0
    state = deal(RULES, shuffled_deck(RULES, 5), scores=[3000, 5000], hand_number=2)
    assert (state.minimum(0), state.minimum(1), state.turn) == (155, 180, 1)


# ----------------------------------------------------------------------------------------
# Illegal moves never change the position
@pytest.mark.parametrize("move", [
    "discard 2C", "meld 7C 7D 7H 2C", "add A 2C", "meld 9C 9D 9H 9S 2C", "take QC QD", "draw",
    "pass", "yes", "meld QC QD QH QS QC QD QH QS", "discard AS", "meld 2C JK",
    "meld QC QD QH / 9C 9D 9H 9S 7C 7D 7H", "add K QC", "discard 5D",
])
def test_illegal_moves_leave_the_position_unchanged(move: str) -> None:
    state = position(hands=["QC QD QH QS QC QD QH QS 2C JK JK 7C 7D 7H 9C 9D 9H 9S AS", "", "",
                            ""], melds=[[KINGS7, "AC AD AH"], []], discard=[])
    refused(state, move)


def test_wild_range_is_counts_error_solved_for_the_wild_cards() -> None:
    # wild_range answers from the meld limits directly; it must give what trying every number
    # of wild cards against counts_error gives, for every rank, meld and number of naturals.
    rules = Rules.make("modern-american", 4)
    v = rules.variant
    state = deal(rules, shuffled_deck(rules, 11))
    rng = random.Random(11)
    compared = 0
    while not state.over:
        for side in range(2):
            for rank in (*NATURAL_RANKS, "3"):
                for existing in (None, *state.melds[side]):
                    for naturals in range(8):
                        n = naturals + (existing.naturals if existing else 0)
                        d0, j0 = (existing.deuces, existing.jokers) if existing else (0, 0)
                        ok = [x for x in range(v.max_wilds + 1) if v.counts_error(
                            state, side, rank, n, d0 + x, j0) is None]
                        assert v.wild_range(state, side, rank, naturals, existing) == (
                            (ok[0], ok[-1]) if ok else None), (rank, naturals, existing)
                        compared += 1
        state.apply(rng.choice(state.legal_moves()))
    assert compared > 10_000
