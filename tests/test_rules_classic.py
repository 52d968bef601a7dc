"""Classic Canasta rules (RULES.md sections B and E) that the shared scenarios do not reach.

Each test is named after the section it pins.  Positions use the scenario notation of
scenarios/FORMAT.md; deals use explicit decks so that every card is known.
"""

from __future__ import annotations

from typing import Any

import pytest

from canasta.cards import N_KINDS, RED_THREE, Card, card, cards, make_deck
from canasta.engine.deal import deal
from canasta.engine.goingout import going_out_moves
from canasta.engine.state import HandState
from canasta.errors import IllegalMove
from canasta.match import Match, match_outcome
from canasta.moves import Move, MoveKind
from canasta.rules import Rules
from canasta.view import view_of

from rules_helpers import legal, play, refused, table_position

KINGS7 = "KC KD KH KS KC KD KH"  # a natural canasta


# ----------------------------------------------------------------------------------------
# Helpers
def position(players: int = 4, **fields: Any) -> HandState:
    """A Classic position; hands and melds may be written as space-separated strings."""
    return table_position("classic", players, **fields)














def texts(cs: list[Card]) -> list[str]:
    return sorted(c.text for c in cs)


def breakdown(state: HandState, side: int) -> dict[str, int]:
    assert state.result is not None, "the hand should be over"
    part = state.result.breakdown[side]
    assert sum(v for k, v in part.items() if k != "total") == part["total"]
    return part


def stacked_deck(players: int, hands: dict[int, str] | None = None,
                 then: str = "") -> list[Card]:
    """A full pack in dealing order: each seat's hand (the given cards, topped up with natural
    cards), then the ``then`` cards (upcards, then the top of the stock), then the rest with
    the natural cards first (so no red three is ever drawn by accident)."""
    size = Rules.make("classic", players).variant.hand_size(players)
    pool = make_deck(2)
    given = {seat: cards(h) for seat, h in (hands or {}).items()}
    after = cards(then)
    for c in [*(c for cs in given.values() for c in cs), *after]:
        pool.remove(c)
    naturals = [c for c in pool if c.is_natural]
    others = [c for c in pool if not c.is_natural]
    full = []
    for seat in range(players):
        h = given.get(seat, [])
        need = size - len(h)
        full.append(h + naturals[:need])
        naturals = naturals[need:]
    order = [full[seat][i] for i in range(size) for seat in range(players)]
    return order + after + naturals + others


def dealt(players: int, hands: dict[int, str] | None = None, then: str = "") -> HandState:
    rules = Rules.make("classic", players)
    return deal(rules, stacked_deck(players, hands, then))


# ----------------------------------------------------------------------------------------
# B.2 Players, seating, deal
@pytest.mark.parametrize(("players", "hand", "stock"), [(4, 11, 63), (2, 15, 77), (3, 13, 68)])
def test_B2_hand_and_stock_sizes_after_a_clean_deal(players: int, hand: int, stock: int) -> None:
    deck = stacked_deck(players)
    state = deal(Rules.make("classic", players), deck)
    assert [len(h) for h in state.hands] == [hand] * players
    assert len(state.stock) == stock
    assert state.pile == [deck[hand * players]]  # the next card is the upcard
    assert state.hands[1][0] == deck[1]  # one card at a time, from the first player on
    assert not state.pile_frozen()
    assert all(not t for t in state.threes)
    assert (state.turn, state.phase) == (0, "draw")
    assert state.count_cards() == 108


def test_B2_first_player_passes_to_the_left_each_hand() -> None:
    deck = stacked_deck(4)
    state = deal(Rules.make("classic", 4), deck, hand_number=2)
    assert state.turn == 1
    assert state.hands[1][0] == deck[0]


def test_B2_wild_and_red_three_upcards_are_buried_and_freeze_the_pile() -> None:
    state = dealt(4, then="2C 3H JK 9C")
    assert texts(state.pile) == texts(cards("2C 3H JK 9C"))
    assert state.pile_top is not None and state.pile_top.text == "9C"
    assert len(state.stock) == 63 - 3
    assert all(not t for t in state.threes)  # a buried red three is not laid down
    assert state.pile_frozen()
    assert view_of(state, 1).pile_frozen


def test_B2_E3_black_three_upcard_blocks_first_player_only_and_does_not_freeze() -> None:
    state = dealt(4, hands={0: "9C", 1: "9H 9S KC KD KH"}, then="3S")
    assert [c.text for c in state.pile] == ["3S"]
    assert len(state.stock) == 63
    assert not state.pile_frozen()
    assert not view_of(state, 0).pile_frozen
    assert legal(state) == ["draw"]
    refused(state, "take 9H 9S", "black three")
    play(state, "draw", "discard 9C")
    # Seat 1 may take the pile: the buried black three simply joins the taker's hand.
    play(state, "take 9H 9S / KC KD KH")
    assert "3S" in [c.text for c in state.hands[1]]
    assert not state.threes[1]


def test_B2_red_threes_dealt_are_laid_and_replaced_in_a_chain() -> None:
    # Upcard 9C; the stock then starts 3H (seat 0's replacement, itself a red three),
    # 5C (its replacement) and 6D (seat 1's replacement).
    state = dealt(4, hands={0: "3H", 1: "3D"}, then="9C 3H 5C 6D")
    assert texts(state.threes[0]) == ["3H", "3H"]
    assert texts(state.threes[1]) == ["3D"]
    assert [len(h) for h in state.hands] == [11, 11, 11, 11]
    assert "5C" in [c.text for c in state.hands[0]]
    assert "6D" in [c.text for c in state.hands[1]]
    assert [c.text for c in state.pile] == ["9C"]
    assert len(state.stock) == 63 - 3
    assert state.count_cards() == 108


# ----------------------------------------------------------------------------------------
# B.3 Turn structure
def test_B3_three_players_draw_two_cards_then_discard_one() -> None:
    state = position(3, phase="draw", hands=["5C 6D", "7H", "8S"], stock=["9C", "8D", "7S"])
    play(state, "draw")
    assert len(state.hands[0]) == 4 and len(state.stock) == 1
    play(state, "discard 9C")
    assert (state.turn, state.phase) == (1, "draw")


def test_B3_red_threes_in_a_two_card_draw_are_replaced_in_a_chain() -> None:
    state = position(2, phase="draw", hands=["5C 6D", "7H"],
                     stock=["3H", "3D", "9C", "8D", "7S"])
    play(state, "draw")
    assert texts(state.threes[0]) == ["3D", "3H"]
    assert texts(state.hands[0]) == ["5C", "6D", "8D", "9C"]
    assert [c.text for c in state.stock] == ["7S"]


def test_B3_B4_no_adding_to_an_opponents_meld_but_both_sides_may_meld_a_rank() -> None:
    state = position(hands=["KC KD KH 5S 6S", "", "", ""],
                     melds=[["QC QD QH"], ["KS KS KC"]])
    refused(state, "add K KC")  # "add" only ever reaches the side's own melds
    play(state, "meld KC KD KH")
    assert [m.rank for m in state.melds[0]] == ["Q", "K"]
    assert state.melds[1][0].size == 3


# ----------------------------------------------------------------------------------------
# B.4 Melds and their limits
def test_B4_two_groups_of_one_rank_in_one_move_are_refused() -> None:
    state = position(hands=["9C 9D 9H 9S 9C 2D 5C 6D", "", "", ""], melds=[["QC QD QH"], []])
    refused(state, "meld 9C 9D 9H / 9S 9C 2D", "one meld per rank")


def test_B4_melding_an_already_melded_rank_joins_that_meld() -> None:
    state = position(hands=["9S 9S 2C KC KD KH 5C 6D", "", "", ""],
                     melds=[["9C 9D 9H"], []])
    assert str(state.parse("meld 9S 2C")) == "add 9 9S 2C"
    play(state, "meld 9S 2C")
    play(state, "meld 9S / KC KD KH")  # a group of a melded rank joins it inside a move too
    assert sorted((m.rank, m.size) for m in state.melds[0]) == [("9", 6), ("K", 3)]


def test_B4_a_pair_taken_with_an_unfrozen_pile_joins_the_existing_meld() -> None:
    state = position(phase="draw", hands=["9S 9S 5C 6D", "", "", ""],
                     melds=[["9C 9D 9H"], []], discard=["4C", "9C"])
    play(state, "take 9S 9S")
    assert [(m.rank, m.size) for m in state.melds[0]] == [("9", 6)]
    assert texts(state.hands[0]) == ["4C", "5C", "6D"]


def test_B4_a_take_that_would_leave_one_card_without_a_canasta_is_refused() -> None:
    state = position(phase="draw", hands=["KC KD", "", "", ""], melds=[["QC QD QH"], []],
                     discard=["5C", "KS"])
    refused(state, "take KC KD", "canasta")
    assert legal(state) == ["draw"]


def test_B4_canasta_of_four_naturals_and_three_wilds_is_the_limit() -> None:
    state = position(hands=["KC KD KH KS 2C 2D JK 5S 6S", "", "", ""],
                     melds=[["QC QD QH"], []])
    refused(state, "meld KC KD KH 2C 2D JK", "more natural")
    play(state, "meld KC KD KH KS 2C 2D JK")
    assert state.canastas(0) == 1


# ----------------------------------------------------------------------------------------
# B.5 Initial meld
def test_B5_only_the_top_card_of_the_pile_counts_toward_the_minimum() -> None:
    state = position(phase="draw", hands=["5D 5H 9C", "", "", ""],
                     discard=["AC", "AD", "AH", "5C"])
    refused(state, "take 5D 5H", "50")


def test_B5_openings_are_listed_that_just_reach_the_minimum_and_none_short_of_it() -> None:
    # The listing stops looking once the cards left cannot reach the minimum: the bound
    # counts every card that could go down, wild cards included, and no more.
    state = position(hands=["KC KD KH 2C 7S 7D 8D 9C 6S", "", "", ""])
    assert "meld KC KD KH 2C" in legal(state)  # 30 and a deuce's 20: just the 50
    state = position(hands=["KC KD KH 7S 7D 8D 9C", "", "", ""])
    assert not [m for m in legal(state) if m.startswith("meld")]
    refused(state, "meld KC KD KH", "50")


def test_B5_canasta_bonus_and_red_threes_do_not_count_toward_the_minimum() -> None:
    state = position(hands=["4C 4C 4D 4D 4H 4H 4S 9C 8D", "", "", ""],
                     threes=[["3H", "3D"], []])
    refused(state, "meld 4C 4C 4D 4D 4H 4H 4S", "needs 50 points; these cards count 35")


def test_B5_once_the_partner_has_opened_both_partners_meld_freely() -> None:
    state = position(scores=[3000, 0], turn=2, hands=["", "", "4C 4D 4H 9S 8S", ""],
                     melds=[["KC KD KH"], []])
    play(state, "meld 4C 4D 4H")
    assert len(state.melds[0]) == 2


def test_B5_three_players_each_minimum_follows_own_score() -> None:
    state = position(3, scores=[-20, 1500, 3000], hands=["5C", "5D", "5H"])
    assert [state.minimum(side) for side in range(3)] == [15, 90, 120]


def test_B5_B11_E14_table_mode_a_short_initial_meld_costs_100_and_is_taken_back() -> None:
    state = position(options={"table_penalties_mode": True},
                     hands=["4C 4D 4H 9S 8S", "QC QD QH", "", ""],
                     melds=[[], [KINGS7]], stock=["5C"])
    refused(state, "meld 4C 4D 4H 9S")  # not a meld at all: still refused
    play(state, "meld 4C 4D 4H")
    assert state.penalties == [100, 0]
    assert len(state.hands[0]) == 5 and not state.melds[0]
    assert (state.turn, state.phase) == (0, "play")
    play(state, "discard 9S", "draw", "meld QC QD QH", "discard 5C")
    side0 = breakdown(state, 0)
    assert side0["penalties"] == -100
    assert side0["total"] == -(5 + 5 + 5 + 10) - 100
    assert breakdown(state, 1)["total"] == 100 + 500 + 100


# ----------------------------------------------------------------------------------------
# B.6 The discard pile
def test_B6_buried_red_three_goes_to_takers_threes_without_replacement_and_thaws() -> None:
    state = dealt(4, hands={0: "9D 9H KC KD KH"}, then="3H 9C")
    assert state.pile_frozen()
    stock = len(state.stock)
    play(state, "take 9D 9H / KC KD KH")
    assert [c.text for c in state.threes[0]] == ["3H"]
    assert len(state.stock) == stock  # not replaced
    assert len(state.hands[0]) == 11 - 5
    assert not state.pile and not state.pile_frozen()


def test_B6_a_buried_wild_freezes_the_pile_for_an_opened_side_until_taken() -> None:
    state = position(phase="draw", hands=["8C 8D 2C 5S", "", "", ""],
                     melds=[["8H 8S 8H"], []], discard=["2D", "4C", "8C"])
    assert state.pile_frozen()
    refused(state, "take", "frozen")
    refused(state, "take 8C 2C", "frozen")
    play(state, "take 8C 8D")
    assert not state.pile_frozen()


def test_B6_every_kind_in_hand_but_a_red_three_is_offered_as_a_discard(monkeypatch: Any) -> None:
    # The listing offers these without asking the base rule card by card; a variant with a
    # discard rule of its own (registered from outside) is asked for each kind.
    from canasta.errors import Refusal
    from canasta.variants import _REGISTRY, register
    from canasta.variants.classic import Classic

    hands = ["KD KC 9S 5H 2C JK 3S", "", "", ""]
    state = position(hands=hands, melds=[["QC QD QH"], []])
    assert state.rules.variant.discard_kinds(state, 0, False) == tuple(
        k != RED_THREE for k in range(N_KINDS))
    assert [m for m in legal(state) if m.startswith("discard")] == [
        "discard KC", "discard 9S", "discard 5H", "discard 2C", "discard JK", "discard 3S"]

    class KeepKings(Classic):
        name = "keep-kings"
        aliases = ()

        def discard_error(self, state: HandState, seat: int, c: Card, going_out: bool,
                          hand: Any = None) -> Refusal | None:
            if c.rank == "K":
                return Refusal("discard.wild")
            return super().discard_error(state, seat, c, going_out, hand)

    monkeypatch.setitem(_REGISTRY, "keep-kings", _REGISTRY["classic"])
    register(KeepKings())
    state = table_position("keep-kings", 4, hands=hands, melds=[["QC QD QH"], []])
    allowed = state.rules.variant.discard_kinds(state, 0, False)
    assert [k for k in range(N_KINDS) if allowed[k]] == [
        card(c).kind for c in ("9S", "5H", "2C", "JK", "3S")]
    assert [m for m in legal(state) if m.startswith("discard")] == [
        "discard 9S", "discard 5H", "discard 2C", "discard JK", "discard 3S"]
    refused(state, "discard KC")


# ----------------------------------------------------------------------------------------
# B.7 Threes
@pytest.mark.parametrize(("count", "side_melds", "points"), [
    (1, [], -100), (2, ["5C 5D 5H"], 200), (3, ["5C 5D 5H"], 300), (4, [], -800),
    (4, ["5C 5D 5H"], 800),
])
def test_B7_E16_red_threes_by_count_and_whether_the_side_melded(
        count: int, side_melds: list[str], points: int) -> None:
    reds = ["3H", "3D", "3H", "3D"][:count]
    state = position(hands=["QC QD QH 7S", "JC", "", "4D"], melds=[[KINGS7], side_melds],
                     threes=[[], reds])
    play(state, "meld QC QD QH", "discard 7S")
    part = breakdown(state, 1)
    assert part["threes"] == points
    assert part["total"] == points + 15 * len(side_melds) - 15


def test_B7_four_black_threes_melded_last_when_going_out() -> None:
    state = position(hands=["3C 3C 3S 3S 2D", "", "", ""], melds=[[KINGS7], []])
    refused(state, "meld 3C 3C 3S 2D", "black threes")
    refused(state, "meld 3C 3S", "black threes")
    play(state, "meld 3C 3C 3S 3S")
    refused(state, "add K 2D", "last meld")
    play(state, "discard 2D")
    part = breakdown(state, 0)
    assert part["melded"] == 70 + 20
    assert part["total"] == 70 + 20 + 500 + 100


def test_B7_B8_from_four_black_threes_three_may_go_down_and_the_fourth_be_discarded() -> None:
    # Two ways out with different scores: all four melded (20), or three (15) and the last
    # one discarded; both are listed.
    state = position(hands=["3C 3C 3S 3S", "", "", ""], melds=[[KINGS7], []])
    moves = legal(state)
    assert "meld 3C 3C 3S 3S" in moves and "meld 3C 3C 3S" in moves
    play(state, "meld 3C 3C 3S 3S")
    assert breakdown(state, 0)["melded"] == 70 + 20
    state = position(hands=["3C 3C 3S 3S", "", "", ""], melds=[[KINGS7], []])
    play(state, "meld 3C 3C 3S")
    assert legal(state) == ["discard 3S"]
    play(state, "discard 3S")
    part = breakdown(state, 0)
    assert part["melded"] == 70 + 15 and part["in_hand"] == 0 and part["going_out"] == 100
    # With a card beside them, the four go down and that card is the discard.
    state = position(hands=["3C 3C 3S 3S 9D", "", "", ""], melds=[[KINGS7], []])
    assert [m for m in legal(state) if m.startswith("meld")] == ["meld 3C 3C 3S 3S"]


def test_B7_B8_two_black_threes_after_drawing_cannot_go_out() -> None:
    state = position(hands=["3C 3S", "", "", ""], melds=[[KINGS7], []])
    assert legal(state) == ["discard 3C"]  # no meld, no ask
    refused(state, "meld 3C 3S")
    refused(state, "ask", "cannot go out")
    play(state, "discard 3S")
    assert state.result is None and state.turn == 1


def test_B7_B8_black_threes_cannot_go_out_without_the_canastas_needed() -> None:
    state = position(hands=["3C 3S 3C 9D", "", "", ""], melds=[["QC QD QH"], []])
    refused(state, "meld 3C 3S 3C", "canasta")
    assert legal(state) == ["discard 9D", "discard 3C"]


# ----------------------------------------------------------------------------------------
# B.8 Going out
def test_B8_going_out_by_melding_every_card_without_a_discard() -> None:
    state = position(hands=["QC QD QH", "", "", ""], melds=[[KINGS7], []])
    assert "meld QC QD QH" in legal(state)
    play(state, "meld QC QD QH")
    assert state.result is not None and state.result.went_out == 0
    assert breakdown(state, 0)["going_out"] == 100


def test_B8_melding_every_card_without_the_canasta_needed_is_refused() -> None:
    state = position(hands=["KC KD KH", "", "", ""], melds=[["QC QD QH"], []])
    refused(state, "meld KC KD KH", "canasta")


@pytest.mark.parametrize(("melded", "moves"), [
    # added to the partner's meld
    ([False, False, True, False], ["meld JC JD JH JS JC JD JH", "add K KS", "discard 9D"]),
    # had melded earlier in the hand
    ([True, False, False, False], ["meld JC JD JH JS JC JD JH / KS", "discard 9D"]),
])
def test_B8_not_concealed_after_adding_to_partner_or_melding_earlier(
        melded: list[bool], moves: list[str]) -> None:
    state = position(hands=["JC JD JH JS JC JD JH KS 9D", "", "", ""],
                     melds=[["KC KD KH"], []], melded=melded)
    play(state, *moves)
    assert state.result is not None and not state.result.concealed
    assert breakdown(state, 0)["going_out"] == 100


def test_B8_not_concealed_without_a_canasta_of_ones_own() -> None:
    state = position(hands=["5C 5D 5H 8C 8D 8H 9S", "", "", ""], melds=[[KINGS7], []],
                     melded=[False, False, True, False])
    play(state, "meld 5C 5D 5H / 8C 8D 8H", "discard 9S")
    assert state.result is not None and not state.result.concealed
    assert breakdown(state, 0)["going_out"] == 100


def test_B8_E11_two_player_concealed_needs_two_canastas_and_waives_the_minimum() -> None:
    fours, fives = "4C 4C 4D 4D 4H 4H 4S", "5C 5C 5D 5D 5H 5H 5S"
    state = position(2, scores=[3000, 0], hands=[f"{fours} {fives} 9D", "KC"],
                     threes=[["3H"], []])
    refused(state, f"meld {fours}", "120")
    play(state, f"meld {fours} / {fives}", "discard 9D")
    assert state.result is not None and state.result.concealed
    assert breakdown(state, 0) == {"melded": 70, "canastas": 1000, "threes": 100,
                                   "going_out": 200, "in_hand": 0, "penalties": 0,
                                   "total": 1370}


@pytest.mark.parametrize(("score", "ok"), [(3000, False), (0, True)])
def test_B8_E11_concealed_after_taking_the_pile_still_needs_the_minimum(
        score: int, ok: bool) -> None:
    state = position(scores=[score, 0], phase="draw",
                     hands=["4S 4S 4H 4H 4D 4D 5C 5D 5H", "", "", ""], discard=["9C", "4C"])
    move = "take 4S 4S 4H 4H 4D 4D / 5C 5D 5H"
    if not ok:
        refused(state, move, "120")
        return
    play(state, move, "discard 9C")
    assert state.result is not None and state.result.concealed
    assert breakdown(state, 0)["total"] == 35 + 15 + 500 + 200


def test_B8_E12_asking_passes_the_turn_to_the_partner_and_back_once_per_turn() -> None:
    state = position(hands=["QC QD QH 5S", "", "", ""], melds=[[KINGS7], []])
    assert "ask" in legal(state)
    play(state, "ask")
    assert state.turn == 2 and legal(state) == ["yes", "no"]
    with pytest.raises(IllegalMove):
        state.apply("discard 5S", seat=0)
    refused(state, "discard 5S")  # the partner must answer first
    state.apply("no", seat=2)
    assert (state.turn, state.phase) == (0, "play")
    refused(state, "ask", "already asked")
    assert "ask" not in legal(state)


def test_B8_E12_ask_only_before_melding() -> None:
    state = position(hands=["QC QD QH 9C 9D 9H 5S", "", "", ""], melds=[[KINGS7], []])
    play(state, "meld QC QD QH")
    refused(state, "ask", "before you meld")


def test_B8_ask_when_every_wild_card_in_hand_just_closes_the_one_canasta() -> None:
    # The question is cut short when no meld can reach seven with all the hand could give it:
    # seven exactly still can.
    state = position(hands=["2C JK 9S", "", "", ""], melds=[["KC KD KH KS KC"], []])
    assert "ask" in legal(state)
    state = position(hands=["2C 8S 9S", "", "", ""], melds=[["KC KD KH KS KC"], []])
    assert "ask" not in legal(state)
    refused(state, "ask", "cannot go out")


def test_B8_ask_only_when_the_asker_could_go_out() -> None:
    state = position(hands=["QC QD 5S 6H", "", "", ""], melds=[[KINGS7], []])
    assert "ask" not in legal(state)
    refused(state, "ask", "cannot go out")


def test_B8_no_partner_to_ask_in_the_two_player_game() -> None:
    state = position(2, hands=["QC QD QH 5S", "8C"], melds=[[KINGS7, "JC JD JH JS JC JD JH"], []])
    refused(state, "ask", "no partner")


def test_B8_E12_after_yes_a_meld_that_stops_you_going_out_is_refused() -> None:
    state = position(hands=["QC QD QH 2C 2D 5S 5D", "", "", ""], melds=[[KINGS7], []])
    play(state, "ask", "yes")
    refused(state, "meld QC QD QH 2C 2D", "must go out")
    refused(state, "discard 5S", "must go out")
    play(state, "meld QC QD QH 2C / 5S 5D 2D")
    assert state.result is not None and state.result.went_out == 0


def test_B8_E12_after_yes_every_way_out_of_a_big_hand_is_listed_and_legal() -> None:
    # After a yes the moves that go out at once (one per score: here which of the groups hold
    # the three wild cards) are listed as they are built, beside the listing's other moves
    # that keep a way out; every one is legal, and goes out or leaves the card to discard.
    hand = "AC AD AH 8C 8D 8H QC QD QH JC JD JH TC TD TH 9C 9D 9H 2C 2D JK 5S"
    state = position(hands=[hand, "", "", ""], melds=[[KINGS7], []])
    play(state, "ask", "yes")
    moves = state.legal_moves()
    ways = going_out_moves(state, True) + going_out_moves(state, False)
    assert len(ways) > 30 and set(ways) <= set(moves)
    assert "meld AC AD AH" in map(str, moves)  # a way out remains after it
    for move in moves:
        assert state.is_legal(move), move
        if move in ways:
            assert move == Move.meld(*move.groups) or move.kind is MoveKind.ADD  # canonical
            after = state.copy()
            after.apply(move)
            assert after.result is not None or len(after.hands[0]) == 1, move


# ----------------------------------------------------------------------------------------
# B.9 End of stock
def test_B9_two_players_with_one_stock_card_left_draw_it() -> None:
    state = position(2, phase="draw", hands=["5C 6D", "7H"], stock=["9C"])
    play(state, "draw")
    assert len(state.hands[0]) == 3 and not state.stock
    assert state.result is None and state.phase == "play"


def test_B9_last_card_drawer_finishes_the_turn_then_the_hand_ends_without_a_move() -> None:
    state = position(phase="draw", hands=["KC KD KH 5S", "7C 8D", "", "4S"],
                     melds=[["QC QD QH"], []], discard=["6C"], stock=["9C"])
    play(state, "draw", "meld KC KD KH")
    assert state.result is None
    play(state, "discard 5S")  # seat 1 cannot take the 5S: the hand ends at once
    assert state.result is not None and state.result.went_out is None
    assert breakdown(state, 0) == {"melded": 60, "canastas": 0, "threes": 0, "going_out": 0,
                                   "in_hand": -10, "penalties": 0, "total": 50}
    assert breakdown(state, 1)["total"] == -(5 + 10 + 5)


@pytest.mark.parametrize(("seat1", "over"), [("9S", True), ("9S 4C", False)])
def test_B9_E17_forced_take_blocked_by_the_one_card_rule_ends_the_hand(
        seat1: str, over: bool) -> None:
    state = position(hands=["9C 5D", seat1, "", ""], melds=[["QC QD QH"], ["9H 9D 9H"]],
                     discard=[], stock=[])
    play(state, "discard 9C")
    assert (state.result is not None) == over
    if not over:
        assert state.turn == 1 and legal(state) == ["take"]
        refused(state, "pass", "must take")
        refused(state, "draw")


def test_B9_a_frozen_pile_matching_a_meld_may_be_taken_or_declined() -> None:
    state = position(turn=1, phase="draw", hands=["", "9S 9D 4C", "", ""],
                     melds=[[], ["9H 9C 9H"]], discard=["2C", "7D", "9C"], stock=[])
    moves = legal(state)
    assert "pass" in moves and "take 9D 9S" in moves
    refused(state, "take", "frozen")
    play(state, "pass")
    assert state.result is not None and state.result.went_out is None


def test_B9_a_black_three_discarded_at_the_end_of_the_stock_ends_the_hand() -> None:
    state = position(hands=["3S 5D", "9S 9D", "", ""], melds=[["QC QD QH"], ["9H 9C 9H"]],
                     discard=["9C"], stock=[])
    play(state, "discard 3S")
    assert state.result is not None and state.result.went_out is None
    assert breakdown(state, 1)["going_out"] == 0


def test_B9_going_out_after_taking_the_pile_at_the_end_of_the_stock_scores_the_bonus() -> None:
    # Seed 000 refuses the bonus to the hand that ends with the stock, where nobody goes out;
    # a player who takes the pile and goes out has gone out (docs/ENGINE.md).
    state = position(phase="draw", hands=["9S 9D 5C 5D", "", "", "4S"],
                     melds=[["KC KD KH KS KC KD KH"], ["QC QD QH"]], discard=["5H", "9C"],
                     stock=[])
    play(state, "take 9S 9D", "meld 5C 5D 5H")
    assert state.result is not None and state.result.went_out == 0
    assert breakdown(state, 0)["going_out"] == 100


@pytest.mark.parametrize(("rule", "stock", "over", "hand"), [
    ("seed", ["9C", "3H"], True, 3),  # the red three was the last card: the hand ends
    ("pagat", ["9C", "3H"], False, 3),  # Pagat: a one-card draw, play goes on
    ("seed", ["3H", "9C"], False, 3),  # the red three is replaced by the last card
    ("pagat", ["3H", "3D"], True, 2),
])
def test_B9_E5_E6_red_three_among_the_last_two_cards_two_players(
        rule: str, stock: list[str], over: bool, hand: int) -> None:
    state = position(2, options={"two_player_last_card_rule": rule}, phase="draw",
                     hands=["5C 6D", "7H"], melds=[["QC QD QH"], []], stock=stock)
    play(state, "draw")
    assert (state.result is not None) == over
    assert len(state.hands[0]) == hand and not state.stock
    assert "3H" in [c.text for c in state.threes[0]]
    if over:
        assert breakdown(state, 0)["going_out"] == 0
    else:
        assert state.phase == "play" and state.turn == 0


def test_B9_E4_stock_empty_and_pile_untakeable_is_never_a_dead_end() -> None:
    state = position(phase="draw", hands=["5C 6D", "", "", ""], melds=[["QC QD QH"], []],
                     discard=["9C", "3S"], stock=[])
    assert state.over or legal(state)


def test_E5_E6_pagat_last_card_option_is_for_the_two_player_game_only() -> None:
    state = position(3, options={"two_player_last_card_rule": "pagat"}, phase="draw",
                     hands=["5C 6D", "7H", "8S"], melds=[["QC QD QH"], [], []],
                     stock=["9C", "3H"])
    play(state, "draw")  # the red three is the last stock card: the hand ends at once (E-5)
    assert state.result is not None and state.result.went_out is None


# ----------------------------------------------------------------------------------------
# B.10 Scoring
def test_B10_a_side_that_melded_may_still_score_negative() -> None:
    state = position(phase="draw", hands=["JK JK 2C AS 5S", "JC", "", "8D"],
                     melds=[["QC QD QH"], [KINGS7]], threes=[[], ["3H"]], stock=["3D"])
    play(state, "draw")  # a red three as the last stock card ends the hand (E-5)
    assert breakdown(state, 0) == {"melded": 30, "canastas": 0, "threes": 100, "going_out": 0,
                                   "in_hand": -145, "penalties": 0, "total": -15}
    assert breakdown(state, 1)["total"] == 70 + 500 + 100 - 20


def test_B10_negative_score_for_an_unopened_side() -> None:
    state = position(hands=["QC QD QH 7S", "JK 2C", "", "AS"], melds=[[KINGS7], []])
    play(state, "meld QC QD QH", "discard 7S")
    assert breakdown(state, 1)["total"] == -(50 + 20 + 20)


# ----------------------------------------------------------------------------------------
# B.12 End of game
@pytest.mark.parametrize(("players", "options", "totals", "outcome"), [
    (4, {}, [4995, 4990], (False, None)),
    (4, {}, [5000, 4000], (True, 0)),  # E-13: reaching the target is enough
    (4, {}, [5100, 5200], (True, 1)),
    (4, {}, [5130, 5130], (False, None)),  # exact tie: another hand
    (4, {}, [-200, 300], (False, None)),
    (4, {"target": 2500}, [2500, -50], (True, 0)),
    (2, {}, [4000, 5005], (True, 1)),
    (3, {}, [7000, 7499, 7495], (False, None)),
    (3, {}, [7500, 7400, 7600], (True, 2)),  # the highest total wins, not the first to reach
    (3, {}, [7600, 7600, 100], (False, None)),
    (3, {}, [8000, 7600, 7600], (True, 0)),
])
def test_B12_E13_match_end(players: int, options: dict[str, int], totals: list[int],
                           outcome: tuple[bool, int | None]) -> None:
    rules = Rules.make("classic", players, **options)
    assert match_outcome(rules, totals, 1) == outcome


def test_B12_default_targets() -> None:
    assert [Rules.make("classic", p).target for p in (2, 3, 4)] == [5000, 7500, 5000]


def test_B12_B5_match_carries_scores_into_the_next_hand() -> None:
    rules = Rules.make("classic", 4)
    first = stacked_deck(4, hands={0: f"{KINGS7} QC QD QH QS"}, then="5C 9C")
    match = Match(rules, deals=[first, stacked_deck(4)])
    for move in ("draw", f"meld {KINGS7} / QC QD QH QS", "discard 9C"):
        match.apply(move)
    result = match.state.result
    assert result is not None and result.concealed
    part = result.breakdown[0]
    assert (part["melded"], part["canastas"], part["going_out"]) == (110, 500, 200)
    assert match.scores == result.scores and not match.over
    state = match.next_hand()
    assert state.scores == tuple(match.scores) and state.turn == 1
    assert state.minimum(0) == 50 and state.minimum(1) == 15


# ----------------------------------------------------------------------------------------
# Illegal moves never change the position
@pytest.mark.parametrize("move", [
    "discard AS", "take 9S 9S", "meld 9C 9D 9H / 9S 9C 2D", "meld QC QD QH 2C 2D 5S 5D",
    "add K QC", "meld 3C 3S 2C", "draw", "pass", "yes", "meld JK 2C 2D",
])
def test_illegal_moves_leave_the_position_unchanged(move: str) -> None:
    state = position(hands=["QC QD QH 2C 2D 5S 5D 3C 3S JK 9C 9D 9H 9S 9C", "", "", ""],
                     melds=[[KINGS7], []])
    refused(state, move)
