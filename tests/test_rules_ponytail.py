"""Ponytail Canasta rules (RULES.md section D, decisions E-33 .. E-49, H) that the shared
scenarios do not reach.

Each test is named after the section it pins.  Positions use the scenario notation of
scenarios/FORMAT.md; deals use explicit decks so that every card is known.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from canasta.cards import Card, cards, make_deck
from canasta.engine.deal import deal, shuffled_deck
from canasta.engine.goingout import _rank_melds, can_go_out
from canasta.engine.melds import Meld
from canasta.engine.scoring import score_hand
from canasta.engine.state import HandState
from canasta.errors import PositionError
from canasta.match import Match, match_outcome
from canasta.position import position_from_json, position_to_json
from canasta.rules import Rules
from canasta.variants.base import Variant
from canasta.variants.ponytail import Ponytail, _fewest_wilds

from rules_helpers import legal, play, refused

KINGS7 = "KC KD KH KS KC KD KH"  # a natural canasta
JACKS7 = "JC JD JH JS JC JD 2C"  # a mixed canasta
BOTH = [KINGS7, JACKS7]  # what a side needs to go out by default (D.12)
TAIL = "AC AD AH AS AC AD 2H 9C 9D 9H 8C 8D 8H"  # a 13-card ponytail, all meldable


# ----------------------------------------------------------------------------------------
# Helpers
def _split(x: Any) -> Any:
    return x.split() if isinstance(x, str) else x


def position(players: int = 4, **fields: Any) -> HandState:
    """A Ponytail position; hands, melds and ponytails may be space-separated strings."""
    sides = players // 2
    obj: dict[str, Any] = {
        "variant": "ponytail", "players": players, "scores": [0] * sides, "turn": 0,
        "phase": "play", "hands": [""] * players, "melds": [[] for _ in range(sides)],
        "threes": [[] for _ in range(sides)], "discard": ["TS"],
        "stock": ["TC", "TD", "TH", "9S", "8S", "6S"], "ponytails": [None] * players,
    }
    obj.update(fields)
    for key in ("hands", "threes", "ponytails"):
        obj[key] = [_split(x) for x in obj[key]]
    obj["melds"] = [[_split(m) for m in ms] for ms in obj["melds"]]
    return position_from_json(obj)














def texts(cs: list[Card] | None) -> list[str]:
    return sorted(c.text for c in cs or [])


def breakdown(state: HandState, side: int) -> dict[str, int]:
    assert state.result is not None, "the hand should be over"
    part = state.result.breakdown[side]
    assert sum(v for k, v in part.items() if k != "total") == part["total"]
    return part


def scored_now(state: HandState, side: int) -> dict[str, int]:
    """The side's score if the hand ended now (stock exhausted, nobody out)."""
    return score_hand(state, None, False).breakdown[side]


def stacked_deck(players: int = 4, hands: dict[int, str] | None = None,
                 tails: dict[int, str] | None = None, then: str = "",
                 first: int = 0) -> list[Card]:
    """A full pack in dealing order (from seat ``first``): the 15-card hands and the 13-card
    ponytails (the given cards, topped up with natural cards other than sevens, in seat order
    from ``first``), then the ``then`` cards (upcard, then the top of the stock), then the rest
    with those naturals first (so no three, wild or seven turns up by accident)."""
    pool = make_deck(Rules.make("ponytail", players).variant.decks(players))
    order = [(first + i) % players for i in range(players)]
    given = [{s: cards(h) for s, h in (d or {}).items()} for d in (hands, tails)]
    after = cards(then)
    for c in [*(c for g in given for cs in g.values() for c in cs), *after]:
        pool.remove(c)
    naturals = [c for c in pool if c.is_natural and c.rank != "7"]
    others = [c for c in pool if not (c.is_natural and c.rank != "7")]
    out: list[Card] = []
    for g, size in zip(given, (15, 13), strict=True):
        full = {}
        for seat in order:
            h = g.get(seat, [])
            full[seat] = h + naturals[:size - len(h)]
            naturals = naturals[size - len(h):]
        out += [full[seat][k] for k in range(size) for seat in order]
    return out + after + naturals + others


RULES4 = Rules.make("ponytail", 4)


# ----------------------------------------------------------------------------------------
# D.2 / D.3 Players, decks, the deal
@pytest.mark.parametrize(("players", "decks", "total", "stock"),
                         [(4, 6, 324, 211), (6, 8, 432, 263)])
def test_D2_D3_deal_fifteen_and_a_ponytail_of_thirteen(players: int, decks: int, total: int,
                                                       stock: int) -> None:
    rules = Rules.make("ponytail", players)
    assert rules.variant.decks(players) == decks
    pack = make_deck(decks)
    assert len(pack) == total and sum(c.rank == "K" for c in pack) == 4 * decks
    assert sum(c.text == "JK" for c in pack) == sum(c.text == "3H" for c in pack) * 2 == 2 * decks
    deck = stacked_deck(players, then="9C")
    state = deal(rules, deck)
    assert [len(h) for h in state.hands] == [15] * players
    assert [len(t or []) for t in state.ponytails] == [13] * players
    assert len(state.stock) == stock and [c.text for c in state.pile] == ["9C"]
    assert state.hands[1][0] == deck[1]  # one card at a time, from the first player on
    assert state.ponytails[0] is not None and state.ponytails[0][0] == deck[15 * players]
    assert state.ponytails[1] is not None and state.ponytails[1][1] == deck[16 * players + 1]
    assert state.count_cards() == total
    assert (state.turn, state.phase) == (0, "draw") and not state.pile_frozen()


@pytest.mark.parametrize(("players", "sides", "partner"), [
    (4, [0, 1, 0, 1], [2, 3, 0, 1]), (6, [0, 1, 2, 0, 1, 2], [3, 4, 5, 0, 1, 2])])
def test_D2_partners_sit_opposite(players: int, sides: list[int], partner: list[int]) -> None:
    state = position(players)
    assert Rules.make("ponytail", players).n_sides == players // 2
    assert [state.side_of(s) for s in range(players)] == sides
    assert [state.partner_of(s) for s in range(players)] == partner
    for other in (2, 3, 5, 8):  # E-33: four or six players only
        with pytest.raises(PositionError):
            Rules.make("ponytail", other)


def test_D3_the_deal_and_the_first_turn_pass_to_the_left_each_hand() -> None:
    deck = stacked_deck(first=1, then="9C")
    state = deal(RULES4, deck, hand_number=2)
    assert state.turn == 1
    assert state.hands[1][0] == deck[0] and state.hands[0][0] == deck[3]
    assert state.ponytails[1] is not None and state.ponytails[1][0] == deck[60]


@pytest.mark.parametrize(("players", "hand", "cutter_side"), [(4, 1, 0), (4, 2, 1), (6, 1, 1)])
def test_D3_E46_cut_bonus_option(players: int, hand: int, cutter_side: int) -> None:
    """The cutter sits at the dealer's right, two seats before the first player."""
    deck = stacked_deck(players, first=hand - 1, then="9C")
    for chance, bonus in ((1.0, 100), (0.0, 0)):
        rules = Rules.make("ponytail", players, cut_bonus=chance)
        state = deal(rules, deck, hand_number=hand)
        for side in range(players // 2):
            part = scored_now(state, side)
            assert part["cut"] == (bonus if side == cutter_side else 0)
            assert sum(v for k, v in part.items() if k != "total") == part["total"]
    assert Rules.make("ponytail", players).option("cut_bonus") == 0.0  # off by default


def test_D3_D5_E46_shuffled_deals_and_a_simulated_cut_that_replays_with_the_deal() -> None:
    rules = Rules.make("ponytail", 4, cut_bonus=0.5)
    got = []
    for seed in range(24):
        deck = shuffled_deck(rules, seed)
        state = deal(rules, deck)
        assert state.count_cards() == 324 and [len(h) for h in state.hands] == [15] * 4
        assert not state.threes[1]  # seats 1 and 3 lay their red threes at their own turn
        bonuses = state.bonuses
        assert deal(rules, deck).bonuses == bonuses
        assert bonuses in ([0, 0], [100, 0])
        got.append(bonuses[0])
    assert 0 in got and 100 in got
    for bad in (1.5, -0.1, "yes"):
        with pytest.raises(PositionError):
            Rules.make("ponytail", 4, cut_bonus=bad)


# ----------------------------------------------------------------------------------------
# D.4 Starting the discard pile
def test_D4_wilds_sevens_and_red_threes_turned_up_are_buried_and_freeze_the_pile() -> None:
    state = deal(RULES4, stacked_deck(then="2C 7H JK 3D 9C"))
    assert [c.text for c in state.pile] == ["2C", "7H", "JK", "3D", "9C"]
    assert len(state.stock) == 211 - 4
    assert state.pile_frozen() and state.start_frozen  # the seven (D.10 kind 1)
    assert position_to_json(state).get("start_frozen") is True
    assert all(not t for t in state.threes)  # a buried red three is not laid down


def test_D4_a_buried_red_three_goes_to_the_takers_threes_without_replacement() -> None:
    state = deal(RULES4, stacked_deck(hands={0: "9D 9H KC KD KH"}, then="3H 9C"))
    assert state.pile_frozen() and not state.start_frozen
    stock = len(state.stock)
    play(state, "take 9D 9H / KC KD KH")
    assert texts(state.threes[0]) == ["3H"]
    assert len(state.stock) == stock
    assert len(state.hands[0]) == 15 - 5 and not state.pile


def test_D4_E37_a_black_three_turned_up_blocks_only_the_first_player() -> None:
    state = deal(RULES4, stacked_deck(hands={0: "9C 9H 9S KC KD KH", 1: "9H 9S KC KD KH"},
                                      then="3S"))
    assert [c.text for c in state.pile] == ["3S"] and len(state.stock) == 211
    assert not state.pile_frozen() and legal(state) == ["draw"]
    refused(state, "take 9H 9S / KC KD KH", "black three")
    play(state, "draw", "discard 9C")
    play(state, "take 9H 9S / KC KD KH")
    assert "3S" in texts(state.hands[1])


def test_D4_D10_a_start_frozen_pile_needs_a_natural_pair_even_after_opening() -> None:
    state = position(phase="draw", start_frozen=True, hands=["9C 9D 2D 5S", "", "", ""],
                     melds=[["9H 9S 9H"], []], discard=["4C", "9C"])
    assert state.pile_frozen()
    refused(state, "take", "frozen")
    refused(state, "take 9C 2D", "frozen")
    play(state, "take 9C 9D")
    assert [m.size for m in state.melds[0]] == [6]
    assert not state.pile_frozen() and "start_frozen" not in position_to_json(state)


# ----------------------------------------------------------------------------------------
# D.5 Turn and red threes
def test_D5_red_threes_dealt_are_laid_at_the_holders_turn_and_replaced() -> None:
    # Seat 0 plays first: its 3H is replaced by 3D (laid in turn), then 5C.  Seats 1 and 3
    # keep theirs until their own turn; seat 1's is then replaced by 4S.
    deck = stacked_deck(hands={0: "3H 6C", 1: "3D", 3: "3H"}, then="9C 3D 5C 6D 8D 4S")
    state = deal(RULES4, deck)
    assert texts(state.threes[0]) == ["3D", "3H"] and not state.threes[1]
    assert [len(h) for h in state.hands] == [15] * 4
    assert "5C" in texts(state.hands[0]) and "3D" in texts(state.hands[1])
    play(state, "draw")
    assert {"6D", "8D"} <= set(texts(state.hands[0])) and len(state.hands[0]) == 17
    play(state, "discard 6C")
    assert state.turn == 1 and texts(state.threes[1]) == ["3D"]
    assert "3D" not in texts(state.hands[1]) and "4S" in texts(state.hands[1])
    assert len(state.hands[1]) == 15 and "3H" in texts(state.hands[3])
    # A position lays the red threes of the seat to draw only.
    state = position(phase="draw", hands=["3H 5C", "3D 6C", "", ""], stock=["8C", "9C", "TC"])
    assert texts(state.threes[0]) == ["3H"] and texts(state.hands[0]) == ["5C", "8C"]
    assert texts(state.hands[1]) == ["3D", "6C"] and not state.threes[1]


# ----------------------------------------------------------------------------------------
# D.6 Melds and canastas
def test_D6_a_meld_stops_at_seven_and_keeps_more_naturals_than_wilds() -> None:
    state = position(hands=["QC QD QH QS 5C 6D", "", "", ""], melds=[["QC QD QH QS"], []])
    refused(state, "add Q QC QD QH QS", "7 cards")
    play(state, "add Q QC QD QH")
    assert state.canastas(0) == 1
    state = position(hands=["QS JK 2H 5C 6D", "", "", ""], melds=[["QC QD QH 2C 2D"], []])
    refused(state, "add Q JK", "more natural")
    play(state, "add Q QS JK")
    assert state.canastas(0) == 1 and state.melds[0][0].wilds == 3


def test_D6_E41_only_one_unfinished_meld_of_a_rank() -> None:
    state = position(hands=["KS KS KH KD KC KC 5C 6D", "", "", ""],
                     melds=[[KINGS7, "KC KD KH"], []])
    assert str(state.parse("meld KS KS KH")) == "add K KH KS KS"
    refused(state, "meld KS KS KH / KD KC KC", "one meld per rank")
    play(state, "meld KS KS KH")
    assert sorted(m.size for m in state.melds[0]) == [6, 7]
    with pytest.raises(PositionError, match="two melds"):
        position(melds=[["KC KD KH", "KS KS KH 2C"], []])


NINES5 = "9C 9D 9H 9S 9C"  # an unfinished meld of five nines


def test_D6_E41_going_out_through_a_second_meld_of_a_rank_may_be_asked() -> None:
    # Two nines close the nines at seven, three more start a new meld, the 4 is discarded: the
    # search must let one rank's cards go both ways (it used to judge 5 + 5 nines impossible).
    def start() -> HandState:
        return position(hands=["9D 9H 9S 9C 9D 4S", "", "", ""], melds=[[*BOTH, NINES5], []])

    state = start()
    refused(state, "meld 9C 9D 9D 9H 9S", "7 cards")
    assert "ask" in legal(state)
    play(state, "ask")
    state.apply("yes", seat=2)
    # The one-move going-out list holds the split, the joining group first.
    assert "meld 9C 9D / 9D 9H 9S" in legal(state)
    after_yes = state.copy()
    play(state, "meld 9C 9D / 9D 9H 9S", "discard 4S")
    part = breakdown(state, 0)
    assert state.result is not None and state.result.went_out == 0
    assert part["canastas"] == 500 + 300 + 500 and part["going_out"] == 200
    # After the yes, a nine added alone still leaves a way out, so it is accepted (the check
    # that a player who got a yes can still go out runs the same search).
    state = after_yes
    play(state, "add 9 9C")
    assert "meld 9D / 9D 9H 9S" in legal(state)
    play(state, "add 9 9D", "meld 9D 9H 9S", "discard 4S")
    assert state.result is not None and state.result.went_out == 0
    assert start().check("meld 9D 9H / 9S 9C 9D").groups[1].joins == -1


def test_D6_E41_after_a_yes_the_second_meld_route_is_listed_and_keeps_a_meld_legal() -> None:
    # Here 'ask' was already allowed before the split routes existed (the nines close at seven
    # in one group, the deuces go onto the fives), so this pins the other two uses of the
    # search on their own: the one-move list after the yes, and the yes-binding check.
    state = position(hands=["9D 9H 9S 2C 2D 2H 4S", "", "", ""],
                     melds=[[*BOTH, "9C 9D 9H 9S", "5C 5D 5H 5S"], []])
    play(state, "ask")
    state.apply("yes", seat=2)
    assert "meld 9D 2C 2D / 9H 9S 2H" in legal(state)
    # A deuce on the nines leaves only the split (9D 2D close them, 9H 9S 2H start anew).
    play(state, "add 9 2C")
    assert legal(state) == ["add 9 9D", "add 9 2D", "meld 9D 2D / 9H 9S 2H"]
    play(state, "meld 9D 2D / 9H 9S 2H", "discard 4S")
    assert state.result is not None and state.result.went_out == 0
    assert breakdown(state, 0)["canastas"] == 500 + 300 + 300


def test_D6_E41_wild_cards_alone_may_close_a_meld_so_that_its_rank_starts_anew() -> None:
    # Six nines and 9H 9S 2C 2D in hand: closing them with a nine leaves 9 2 2 (no meld), with
    # a deuce leaves 9 9 2, a new meld.  The deuce goes on alone (no move lays it beside the
    # new nines), then the rest goes down.
    state = position(hands=["9H 9S 2C 2D 4S", "", "", ""],
                     melds=[[*BOTH, "9C 9D 9H 9S 9C 9D"], []])
    play(state, "ask")
    state.apply("yes", seat=2)
    assert legal(state) == ["add 9 2C"]
    refused(state, "add 9 9H", "must go out")
    play(state, "add 9 2C", "meld 9H 9S 2D", "discard 4S")
    assert state.result is not None and state.result.went_out == 0
    assert breakdown(state, 0)["canastas"] == 500 + 300 + 300


def test_D6_E41_one_move_may_lay_a_canasta_and_a_new_meld_of_the_same_rank() -> None:
    nines = "9C 9C 9D 9D 9H 9H 9S 9S 9C 9D"
    state = position(hands=[f"{nines} 4S", "", "", ""], melds=[BOTH, []])
    refused(state, "meld 9S 9C 9D / 9C 9C 9D 9D 9H 9H 9S", "one meld per rank")
    assert "ask" in legal(state)
    play(state, "ask")
    state.apply("yes", seat=2)
    assert legal(state) == ["meld 9C 9C 9C", "meld 9C 9C 9C 9D 9D 9D 9H / 9H 9S 9S"]
    play(state, "meld 9C 9C 9C 9D 9D 9D 9H / 9H 9S 9S", "discard 4S")
    assert breakdown(state, 0)["canastas"] == 500 + 300 + 500


def test_D6_D11_black_threes_melded_only_going_out_three_or_more() -> None:
    state = position(hands=["3C 3S 3C 3S 3C 9D", "", "", ""], melds=[BOTH, []])
    refused(state, "meld 3C 3S 3C", "black threes")  # not going out: three cards are left
    refused(state, "meld 3C 3S 3C 3S 3C 9D", "black threes")
    play(state, "meld 3C 3S 3C 3S 3C", "discard 9D")
    part = breakdown(state, 0)
    assert part["melded"] == 70 + 80 + 25 and part["in_hand"] == 0
    assert part["total"] == 175 + 800 + 200
    state = position(hands=["3C 3S 9D", "", "", ""], melds=[BOTH, []])
    refused(state, "meld 3C 3S", "black threes")
    # From a hand of black threes only, all go down, or all but one that is the discard (a
    # different score: each black three melded counts 5, one left in hand would cost 100).
    for hand, melds in (("3C 3C 3S 3S", ["meld 3C 3C 3S 3S", "meld 3C 3C 3S"]),
                        ("3C 3C 3S 3S 3S", ["meld 3C 3C 3S 3S 3S", "meld 3C 3C 3S 3S"])):
        state = position(hands=[hand, "", "", ""], melds=[BOTH, []])
        assert sorted(m for m in legal(state) if m.startswith("meld")) == sorted(melds)
        play(state, melds[1], "discard 3S")
        part = breakdown(state, 0)
        assert part["melded"] == 70 + 80 + 5 * (len(hand.split()) - 1)
        assert part["going_out"] == 200 and part["in_hand"] == 0
    state = position(hands=["3C 3S 3C 9D", "", "", ""], melds=[[KINGS7], []])
    refused(state, "meld 3C 3S 3C", "canasta")


# ----------------------------------------------------------------------------------------
# D.7 Initial meld
@pytest.mark.parametrize(("score", "need"), [
    (-5, 15), (0, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120), (49_000, 120)])
def test_D7_E36_minimum_by_score_uses_the_classic_table(score: int, need: int) -> None:
    state = position(scores=[score, 0])
    assert state.minimum(0) == need


@pytest.mark.parametrize(("hand", "need"), [(1, 50), (2, 90), (3, 120), (4, 150), (5, 150)])
def test_D7_E36_minimum_by_hand_number_option(hand: int, need: int) -> None:
    state = position(options={"minimum_by": "hand"}, scores=[-500, 3000], hand_number=hand)
    assert [state.minimum(0), state.minimum(1)] == [need, need]


def test_D7_E36_minimum_by_hand_is_enforced() -> None:
    state = position(options={"minimum_by": "hand"}, scores=[-100, 0], hand_number=4,
                     hands=["AC AD AH KC KD KH JK 2C 5C 6D", "", "", ""])
    refused(state, "meld AC AD AH / KC KD KH JK", "needs 150 points; these cards count 140")
    play(state, "meld AC AD AH JK / KC KD KH 2C")
    assert len(state.melds[0]) == 2


def test_D7_seven_fours_count_35_toward_the_minimum_and_still_score_500() -> None:
    fours = "4C 4C 4D 4D 4H 4H 4S"
    state = position(hands=[f"{fours} KC KD KH 8D", "", "", ""], ponytails=[TAIL, None, TAIL,
                                                                            None])
    refused(state, f"meld {fours}", "needs 50 points; these cards count 35")
    play(state, f"meld {fours} / KC KD KH")
    assert state.canastas(0) == 1 and state.ponytails[0] is None
    part = scored_now(state, 0)
    assert part["melded"] == 35 + 30 and part["canastas"] == 500


def test_D7_D10_pile_frozen_for_an_unopened_side_and_opening_is_per_partnership() -> None:
    state = position(turn=1, phase="draw", hands=["", "KD 2C AS AH AD 5C", "4C 4D 4H 9S", ""],
                     melds=[["QC QD QH"], []], discard=["4C", "KC"])
    assert not state.pile_frozen()
    refused(state, "take KD 2C / AS AH AD", "initial meld")
    play(state, "draw", "discard 5C")
    play(state, "draw", "meld 4C 4D 4H")  # 15 points: the partner has opened already
    assert len(state.melds[0]) == 2


# ----------------------------------------------------------------------------------------
# D.8 Picking up the ponytail
def test_D8_completing_the_first_canasta_with_the_last_cards_is_not_going_out() -> None:
    state = position(hands=["QD QH", "", "", ""], melds=[["QC QD QH QS QC"], []],
                     ponytails=[TAIL, "5C 5D", TAIL, "6C 6D"])
    play(state, "add Q QD QH")  # the side has no mixed canasta, yet this is legal
    assert state.result is None and state.phase == "play"
    assert [len(h) for h in state.hands] == [13, 0, 13, 0]
    assert [t is None for t in state.ponytails] == [True, False, True, False]
    play(state, "meld AC AD AH AS AC AD 2H")  # a second canasta brings nothing more
    assert state.canastas(0) == 2 and len(state.hands[0]) == 6
    play(state, "meld 9C 9D 9H / 8C 8D 8H")  # the whole ponytail melded: out, no discard
    assert state.result is not None and state.result.went_out == 0
    part = breakdown(state, 0)
    assert part["going_out"] == 200 and part["canastas"] == 800
    assert part["in_hand"] == -sum(c.value for c in cards(TAIL))  # the partner's ponytail


@pytest.mark.parametrize(("hand", "meld", "move"), [
    ("QD QH", "QC QD QH QS QC", "add Q QD QH"),
    ("QD QH QS", "QC QD QH QS", "add Q QD QH QS"),
    (KINGS7, "QC QD QH", f"meld {KINGS7}"),
])
def test_D8_completing_the_first_canasta_with_the_last_cards_is_a_listed_move(
        hand: str, meld: str, move: str) -> None:
    state = position(hands=[hand, "", "", ""], melds=[[meld], []],
                     ponytails=[TAIL, None, "5C 5D", None])
    assert state.is_legal(move)
    assert str(state.parse(move)) in legal(state)


def test_D8_E42_red_threes_in_ponytails_the_player_now_the_partner_next_turn() -> None:
    mine, partners = "3H 3D 5C 5D 5H 6C 6D 6H 8C 8D 8H 9C 9D", "3H 4C 4D 4H 6C 6D 6H 8C 8D 8H"
    state = position(hands=["QD QH", "TC", "", ""], melds=[["QC QD QH QS QC"], []],
                     ponytails=[mine, None, partners + " 9C 9D 9H", None],
                     stock=["AC", "AD", "KC", "KD", "AH", "KH"])
    play(state, "add Q QD QH")
    assert texts(state.threes[0]) == ["3D", "3H"]  # laid and replaced at once
    assert len(state.hands[0]) == 13 and {"AC", "AD"} <= set(texts(state.hands[0]))
    assert "3H" in texts(state.hands[2]) and len(state.hands[2]) == 13
    play(state, "discard 5C", "draw", "discard TC")
    assert state.turn == 2 and texts(state.threes[0]) == ["3D", "3H", "3H"]
    assert "3H" not in texts(state.hands[2]) and "AH" in texts(state.hands[2])
    assert len(state.hands[2]) == 13


def test_D8_six_players_only_the_partnership_picks_up() -> None:
    tails = ["4C 4D 4H"] * 6
    state = position(6, turn=1, hands=["", "QD QH 9C", "", "", "", ""],
                     melds=[[], ["QC QD QH QS QC"], []], ponytails=tails)
    play(state, "add Q QD QH")
    assert [t is None for t in state.ponytails] == [False, True, False, False, True, False]
    assert [len(h) for h in state.hands] == [0, 4, 0, 0, 3, 0]


# ----------------------------------------------------------------------------------------
# D.9 Taking the discard pile
def test_D9_unfrozen_pile_with_one_natural_and_one_wild() -> None:
    state = position(phase="draw", hands=["9D 2C 6S 8S", "", "", ""], melds=[["5C 5D 5H"], []],
                     discard=["4C", "9C"])
    play(state, "take 9D 2C")
    assert sorted((m.rank, m.size) for m in state.melds[0]) == [("5", 3), ("9", 3)]
    assert texts(state.hands[0]) == ["4C", "6S", "8S"]


def test_D9_the_top_card_goes_onto_an_unfinished_meld_never_a_finished_canasta() -> None:
    state = position(phase="draw", hands=["KC KD 5C 6D", "", "", ""], melds=[[KINGS7], []],
                     discard=["4C", "KS"])
    refused(state, "take", "no meld|meld of kings")
    play(state, "take KC KD")
    assert sorted(m.size for m in state.melds[0]) == [3, 7]


def test_D8_D9_the_top_card_onto_six_closes_the_first_canasta_and_picks_up() -> None:
    state = position(phase="draw", hands=["5C 6D", "", "", ""],
                     melds=[["QC QD QH QS QC QD"], []], discard=["4C", "QH"],
                     ponytails=[TAIL, None, TAIL, None])
    play(state, "take")
    assert state.canastas(0) == 1 and len(state.hands[0]) == 2 + 1 + 13
    assert state.ponytails == [None] * 4 and len(state.hands[2]) == 13


def test_D9_a_frozen_pile_merges_into_the_unfinished_meld_only_up_to_seven() -> None:
    state = position(phase="draw", hands=["JS JD 5C 6C", "", "", ""],
                     melds=[["JC JD JH JS JC"], []], discard=["2D", "4C", "JH"])
    refused(state, "take JS JD", "7 cards")
    assert legal(state) == ["draw"]


@pytest.mark.parametrize("top", ["2C", "JK", "3S"])
def test_D9_a_wild_or_a_black_three_on_top_blocks_the_pile(top: str) -> None:
    state = position(phase="draw", hands=["9D 9H 9S 5C", "", "", ""],
                     melds=[["9C 9D 9H"], []], discard=["9C", top])
    assert legal(state) == ["draw"]
    refused(state, "take 9D 9H")


@pytest.mark.parametrize(("pile", "ok"), [(["9S"], False), (["4C", "9S"], True)])
def test_D9_one_card_in_hand_may_not_take_a_one_card_pile(pile: list[str], ok: bool) -> None:
    state = position(phase="draw", hands=["5C", "", "", ""], melds=[["9C 9D 9H"], []],
                     discard=pile)
    assert state.is_legal("take") == ok
    if not ok:
        refused(state, "take", "single card")


# ----------------------------------------------------------------------------------------
# D.10 The three ways the pile freezes
def test_D10_a_discarded_wild_freezes_the_pile_a_discarded_seven_does_not() -> None:
    state = position(hands=["7C 5C", "7D 2C 6C", "", ""], melds=[[], ["7H 7S 7H"]])
    play(state, "discard 7C")
    assert not state.pile_frozen() and "take" in legal(state) and state.is_legal("take 7D 2C")
    state = position(hands=["2C 5C", "9S 6C", "9D 9H JK 4S", ""], melds=[["9C 9S 9H"], []])
    play(state, "discard 2C", "draw", "discard 9S")
    assert state.pile_frozen() and state.turn == 2
    refused(state, "take", "frozen")
    refused(state, "take 9D JK", "frozen")
    play(state, "take 9D 9H")
    assert not state.pile_frozen() and state.melds[0][0].size == 6


# ----------------------------------------------------------------------------------------
# D.12 Going out
def test_D12_two_natural_canastas_are_not_enough_to_go_out() -> None:
    state = position(hands=["9C 9D 9H", "", "", ""],
                     melds=[[KINGS7, "QC QD QH QS QC QD QH"], []])
    refused(state, "meld 9C 9D 9H", "mixed")
    assert all(not m.startswith(("meld", "add")) for m in legal(state))


def test_D12_going_out_by_a_final_discard_earns_200() -> None:
    state = position(hands=["9C 9D 9H 5S", "4C", "", "AS"], melds=[BOTH, ["8C 8D 8H"]])
    play(state, "meld 9C 9D 9H", "discard 5S")
    assert state.result is not None and state.result.went_out == 0
    assert breakdown(state, 0) == {"melded": 70 + 80 + 30, "canastas": 800, "threes": 0,
                                   "going_out": 200, "in_hand": 0, "penalties": 0, "cut": 0,
                                   "total": 1180}
    assert breakdown(state, 1)["total"] == 30 - 5 - 20


def test_D12_E40_four_books_option() -> None:
    state = position(hands=["9C 9D 9H", "", "", ""], melds=[["7C 7D 7H 7S 7C 7D 7H", JACKS7], []])
    play(state, "meld 9C 9D 9H")  # by default natural sevens are just a natural canasta
    assert breakdown(state, 0)["canastas"] == 800
    opts = {"required_canastas": "four-books"}
    sevens, wilds = "7C 7D 7H 7S 7C 7D 7H", "JK JK JK 2D 2H 2S 2C"
    state = position(options=opts, hands=["7C 7D 7H 2C JK 2D 9S", "", "", ""], melds=[BOTH, []])
    refused(state, "meld 7C 7D 7H 2C", "sevens")
    refused(state, "meld JK 2D", "3 cards")
    play(state, "meld JK 2C 2D")  # wild cards alone make a meld
    assert [m.rank for m in state.melds[0]][-1] == "W"
    state = position(options=opts, hands=["9C 9D 9H 5S", "", "", ""],
                     melds=[[*BOTH, sevens], []])
    refused(state, "meld 9C 9D 9H", "wild")  # no wild canasta yet
    state = position(options=opts, hands=[f"{wilds} 5S", "", "", ""], melds=[[*BOTH, sevens], []])
    play(state, f"meld {wilds}", "discard 5S")
    part = breakdown(state, 0)
    assert part["canastas"] == 500 + 300 + 1500 + 1000
    assert part["melded"] == 70 + 80 + 35 + 150 + 80 and part["going_out"] == 200



def test_D12_going_out_by_melding_the_missing_mixed_canasta_at_once_is_listed() -> None:
    # Two natural canastas are not enough: the mixed one is missing, and the hand is exactly
    # that canasta.  Melding it all at once goes out; no card-by-card order gets there.
    queens = "QC QD QH QS QC QD QH"
    state = position(hands=["9C 9D 9H 9S 9C 2C 2D", "", "", ""], melds=[[KINGS7, queens], []])
    assert "meld 9C 9C 9D 9H 9S 2C 2D" in legal(state)
    play(state, "meld 9C 9C 9D 9H 9S 2C 2D")
    assert state.result is not None and state.result.went_out == 0


def test_D12_E40_four_books_going_out_with_the_missing_canasta_is_listed() -> None:
    # The sevens canasta is the only one missing and the hand holds exactly its seven cards:
    # melding them all at once goes out (card by card would leave a single card, refused).
    opts = {"required_canastas": "four-books"}
    wilds = "JK JK JK 2D 2H 2S 2C"
    state = position(options=opts, hands=["7C 7D 7H 7S 7C 7D 7H", "", "", ""],
                     melds=[[*BOTH, wilds], []])
    assert state.canastas_needed() == 4
    assert "meld 7C 7C 7D 7D 7H 7H 7S" in legal(state)
    play(state, "meld 7C 7C 7D 7D 7H 7H 7S")
    assert state.result is not None and state.result.went_out == 0

# ----------------------------------------------------------------------------------------
# D.13 End by exhausted stock
def test_D13_E48_the_hand_ends_at_once_when_the_next_player_cannot_take() -> None:
    state = position(hands=["3S 5D", "9S 9D", "", ""], melds=[["QC QD QH"], ["9H 9C 9H"]],
                     discard=["9C"], stock=[])
    refused(state, "draw")
    play(state, "discard 3S")
    assert state.result is not None and state.result.went_out is None
    assert [breakdown(state, s)["going_out"] for s in (0, 1)] == [0, 0]
    assert breakdown(state, 0)["total"] == 30 - 5


def test_D13_E48_after_the_stock_a_taker_plays_on_and_the_next_may_pass() -> None:
    state = position(hands=["KD 5D", "KC KH AS AD AH QS 6S", "5C 6C", "6D"],
                     melds=[["QC QD QH"], []], discard=["8C"], stock=[])
    play(state, "discard KD", "take KC KH / AS AD AH", "discard QS")
    assert state.result is None and state.turn == 2
    assert set(legal(state)) == {"take", "pass"}
    play(state, "pass")
    assert state.result is not None and state.result.went_out is None
    assert breakdown(state, 1) == {"melded": 30 + 60, "canastas": 0, "threes": 0,
                                   "going_out": 0, "in_hand": -(5 + 10 + 5), "penalties": 0,
                                   "cut": 0, "total": 70}


def test_D13_E48_a_red_three_as_the_last_stock_card_does_not_end_the_turn() -> None:
    state = position(phase="draw", hands=["5C 6D 9S", "7C", "", ""], melds=[["QC QD QH"], []],
                     stock=["9C", "3H"])
    play(state, "draw")
    assert texts(state.threes[0]) == ["3H"] and "9C" in texts(state.hands[0])
    assert state.result is None and state.phase == "play"
    play(state, "discard 9C")  # the drawer finishes the turn; seat 1 then cannot take
    assert state.result is not None and state.result.went_out is None


# ----------------------------------------------------------------------------------------
# D.14 Scoring
def test_D14_E43_red_threes_flat_100_each_even_for_an_unopened_side() -> None:
    state = position(hands=["9C 9D 9H", "5C", "", "4D"], melds=[BOTH, []],
                     threes=["3H 3D 3H 3D 3H", "3H 3D 3H 3D"])
    play(state, "meld 9C 9D 9H")
    assert breakdown(state, 0)["threes"] == 500
    assert breakdown(state, 1) == {"melded": 0, "canastas": 0, "threes": 400, "going_out": 0,
                                   "in_hand": -10, "penalties": 0, "cut": 0, "total": 390}


@pytest.mark.parametrize(("count", "in_hand"), [(False, -5), (True, -5 - 20 - 10 - 50 - 5)])
def test_D14_E45_unpicked_ponytails_count_only_with_the_option(count: bool,
                                                                in_hand: int) -> None:
    state = position(options={"count_unpicked_ponytails": count}, hands=["9C 9D 9H", "5C", "", ""],
                     melds=[BOTH, []], ponytails=[None, "AS KS", None, "JK 6H"])
    play(state, "meld 9C 9D 9H")
    assert breakdown(state, 1)["in_hand"] == in_hand
    assert breakdown(state, 0)["in_hand"] == 0


# ----------------------------------------------------------------------------------------
# D.15 End of game
@pytest.mark.parametrize(("players", "totals", "hand", "outcome"), [
    (4, [49_995, 20_000], 1, (False, None)),
    (4, [50_000, 20_000], 1, (True, 0)),
    (4, [50_100, 51_000], 2, (True, 1)),  # both pass: the higher total wins
    (4, [1_000, 2_000], 3, (False, None)),
    (4, [1_000, 2_000], 4, (True, 1)),  # four hands played
    (4, [-500, -300], 4, (True, 1)),
    (4, [3_000, 3_000], 4, (False, None)),  # tie: another hand
    (4, [3_000, 3_005], 5, (True, 1)),
    (4, [60_000, 60_000], 2, (False, None)),
    (6, [900, 1_200, 1_100], 4, (True, 1)),
    (6, [50_000, 1_200, 50_000], 2, (False, None)),
])
def test_D15_E47_fifty_thousand_or_four_hands(players: int, totals: list[int], hand: int,
                                              outcome: tuple[bool, int | None]) -> None:
    rules = Rules.make("ponytail", players)
    assert rules.target == 50_000
    assert match_outcome(rules, totals, hand) == outcome


def test_D15_E47_a_tie_after_four_hands_plays_a_fifth() -> None:
    """The first player of each hand goes out at once; the deals are the same turned one seat
    to the left each time, so after four hands the two sides are level."""
    hand = "KC KD KH KS KC KD KH QC QD QH QS 2C 2D 2H JC"
    moves = ["draw", "meld KC KD KH KS KC KD KH / QC QD QH QS 2C 2D 2H / JC JD JH",
             "meld AC AD AH AS AC AD AH / 9C 9D 9H / 8C 8D 8H"]
    tail = "AC AD AH AS AC AD AH 9C 9D 9H 8C 8D 8H"
    deals = [stacked_deck(hands={f: hand}, tails={f: tail}, then="5C JD JH", first=f)
             for f in (0, 1, 2, 3, 0)]
    match = Match(RULES4, deals=deals)
    for number in range(1, 6):
        assert match.hand_number == number and match.state.turn == (number - 1) % 4
        for m in moves:
            match.apply(m)
        result = match.state.result
        assert result is not None and result.went_out == (number - 1) % 4
        if number == 4:
            assert match.scores[0] == match.scores[1] and match.winner is None
        if number < 5:
            assert not match.over
            match.next_hand()
    assert match.over and match.winner == 0
    assert match.scores[0] > match.scores[1]
    with pytest.raises(ValueError):
        match.next_hand()


# ----------------------------------------------------------------------------------------
# E-49 Asking partner
def test_E49_asking_when_going_out_takes_a_wild_card_onto_a_meld_of_a_rank_not_in_hand() -> None:
    nat, mix = "KC KD KH KS KC KD KH", "QC QD QH QS QC 2C 2D"
    state = position(hands=["9S 2H 5S", "", "", ""],
                     melds=[[nat, mix, "9C 9D 9H 9C 2S 2C", "8C 8D 8H"], []])
    assert "ask" in legal(state)  # add 9 9S, add 8 2H, discard 5S
    state = position(hands=["9S 2H 5S 6S 6D 6H", "", "", ""],
                     melds=[[nat, mix, "9C 9D 9H 9C 2S 2C"], []])
    play(state, "ask")
    state.apply("yes", seat=2)
    play(state, "meld 6S 6D 6H", "add 9 9S", "add 6 2H", "discard 5S")
    assert state.result is not None and state.result.went_out == 0
    # Two wild cards of different kinds onto one meld (a mixed canasta), beside an unused meld.
    for melds in ([nat, "5C 5D 5H 5S 5C"], [nat, "4C 4D 4H 4S", "5C 5D 5H 5S 5C"]):
        state = position(hands=["2H JK 6S 6D 6H AS", "", "", ""], melds=[melds, []])
        assert "ask" in legal(state)
        play(state, "add 5 2H", "add 5 JK", "meld 6S 6D 6H", "discard AS")
        assert state.result is not None and state.result.went_out == 0


def test_E49_a_player_whose_ponytail_waits_cannot_ask() -> None:
    # Both canastas from hand, then the discard: out, unless the first canasta brings the
    # player's ponytail into the hand (13 cards nobody has seen), and then no question.
    melds = [["QC QD QH QS QC", "JC JD JH JS JC"], []]
    state = position(hands=["QD QH JS 2D 5C", "", "", ""], melds=melds)
    assert "ask" in legal(state)
    for tails in ([TAIL, None, None, None], [TAIL, None, "5C 5D", None]):
        state = position(hands=["QD QH JS 2D 5C", "", "", ""], melds=melds, ponytails=tails)
        assert "ask" not in legal(state)
        refused(state, "ask", "go out")
    # The partner's waiting ponytail joins the partner's hand, not the asker's.
    state = position(hands=["QD QH JS 2D 5C", "", "", ""], melds=melds,
                     ponytails=[None, "5C 5D", TAIL, "6C 6D"])
    assert "ask" in legal(state)


def test_E49_looking_for_a_way_out_through_wild_additions_stays_quick() -> None:
    # Eight melds without a natural of theirs in hand and eight wild cards, yet no way out (the
    # natural canasta is missing): the search gives up within its budget.
    melds = ["KC KD KH KS KC 2C 2D"] + [" ".join(f"{r}{s}" for s in "CDHS") for r in "45689TJQ"]
    state = position(hands=["2H 2H 2S 2S JK JK JK JK AS", "", "", ""], melds=[melds, []])
    assert "ask" not in legal(state)


def test_E49_counting_rules_out_a_way_out_only_where_there_is_none() -> None:
    # Counting decides most questions before any layout (``going_out_ruled_out``); at its
    # edges a way out exists and 'ask' stays offered.  The six nines take one more nine: the
    # other is the discard.
    state = position(hands=["9H 9S 4S 4D 4H", "", "", ""],
                     melds=[[*BOTH, "9C 9D 9H 9S 9C 9D"], []])
    assert "ask" in legal(state)
    play(state, "ask")
    state.apply("yes", seat=2)
    play(state, "add 9 9H", "meld 4S 4D 4H", "discard 9S")
    assert state.result is not None and state.result.went_out == 0
    # A lone five beside it: two cards with nowhere to go.
    state = position(hands=["9H 9S 4S 4D 4H 5S", "", "", ""],
                     melds=[[*BOTH, "9C 9D 9H 9S 9C 9D"], []])
    assert "ask" not in legal(state)
    # The mixed canasta lacking: the five queens take a queen and the deuce.
    state = position(hands=["QD 2C 5S", "", "", ""], melds=[[KINGS7, "QC QD QH QS QC"], []])
    assert "ask" in legal(state)
    play(state, "ask")
    state.apply("yes", seat=2)
    play(state, "add Q QD 2C", "discard 5S")
    assert state.result is not None and state.result.went_out == 0
    state = position(hands=["QD 5S 5D 5H", "", "", ""], melds=[[KINGS7, "QC QD QH QS QC"], []])
    assert "ask" not in legal(state)
    refused(state, "ask", "go out")
    # ... or a new meld of four naturals and three wild cards.
    state = position(hands=["5C 5D 5H 5S 2C 2D JK 4S", "", "", ""], melds=[[KINGS7], []])
    assert "ask" in legal(state)
    # Four-books: the wild-card canasta from the five wild cards on the table and two in hand.
    books = [KINGS7, JACKS7, "7C 7D 7H 7S 7C 7D 7H", "2C 2D 2H JK JK"]
    state = position(hands=["2S JK 5S", "", "", ""], melds=[books, []],
                     options={"required_canastas": "four-books"})
    assert "ask" in legal(state)
    state = position(hands=["2S 5S", "", "", ""], melds=[books, []],
                     options={"required_canastas": "four-books"})
    assert "ask" not in legal(state)


@pytest.mark.parametrize("four_books", [False, True])
def test_E41_fewest_wilds_is_what_the_going_out_search_lays(four_books: bool) -> None:
    # Counting asks, for each rank in hand, the fewest wild cards its cards go down with; it
    # must be the least that the search's own ways (one group, or closing the meld at seven and
    # going on in new melds) take, and none where the search has no way.
    options = {"required_canastas": "four-books"} if four_books else {}
    state = HandState(Rules.make("ponytail", 4, **options))
    wild = cards("2C JK")
    for rank in "97":
        k = "AKQJT987654".index(rank)
        natural = cards(f"{rank}C")[0]
        metas = [(0, 0)] + [(a, w) for a in range(2, 7) for w in range(4) if 3 <= a + w <= 6]
        for a0, w0 in metas:
            held = [natural] * a0 + [wild[i % 2] for i in range(w0)]
            state.melds[0] = [Meld(rank, held)] if held else []
            for n in range(1, 17):
                for wilds in range(10):
                    ways = _rank_melds(state, 0, k, n, wilds, 0 if held else -1, False)
                    expected = min((sum(g[3] for g in w) for w in ways), default=-1)
                    assert _fewest_wilds(n, a0 + w0, a0, w0, wilds, four_books and rank == "7",
                                         1) == expected, (rank, a0, w0, n, wilds)


class _SearchOnly(Ponytail):
    """Ponytail with nothing ruled out by counting: the going-out search alone."""

    def going_out_ruled_out(self, state: HandState, side: int, kinds: Any) -> bool:
        return False


@pytest.mark.parametrize("four_books", [False, True])
def test_E49_counting_never_rules_out_a_way_out_the_search_finds(four_books: bool) -> None:
    # Random tables and hands near going out: counting first must give the search's answer.
    options = {"required_canastas": "four-books"} if four_books else {}
    search_only = Rules.make(_SearchOnly(), 4, **options)
    rng = random.Random(49)
    closed = [KINGS7, JACKS7, "7C 7D 7H 7S 7C 7D 7H", "8C 8D 8H 8S 2C 2D 8C"]
    if four_books:
        closed.append("JK JK JK 2D 2H 2S 2C")
    ruled = yes = 0
    for _ in range(300):
        melds = [m for m in closed if rng.random() < 0.7]
        ranks = rng.sample("AQT9654", rng.randint(1, 4))
        spare = iter(["2H", "JK", "2S", "2D", "JK", "2H", "2S", "JK", "2D"] * 2)
        for r in ranks:
            a = rng.randint(2, 6)
            w = rng.randint(0, min(3, a - 1, 6 - a)) if rng.random() < 0.5 else 0
            if a + w >= 3:
                melds.append(" ".join([f"{r}{'CDHS'[i % 4]}" for i in range(a)]
                                      + [next(spare) for _ in range(w)]))
        fresh = rng.choice([r for r in "AQT9654" if r not in ranks])  # no meld of it yet
        pool = [f"{r}{s}" for r in [*ranks, fresh] for s in "CDHS"] * 2 + [
            "2S", "JK", "3C", "3S"] + [f"{r}D" for r in "K7J5Q"]
        hand = rng.sample(pool, rng.randint(2, 11))
        state = position(hands=[" ".join(hand), "", "", ""], melds=[melds, []], options=options)
        twin = state.copy()
        twin.rules = search_only
        answer = can_go_out(state)
        assert answer == can_go_out(twin), (hand, melds)
        ruled += state.rules.variant.going_out_ruled_out(state, 0, state.counts(0).kinds)
        yes += answer
    assert ruled > 100 and yes > 10, (ruled, yes)


def test_E49_asking_partner_once_per_turn_as_in_classic() -> None:
    state = position(hands=["9C 9D 9H 5S", "4C", "4D", "4H"], melds=[BOTH, []],
                     stock=["6C", "6D", "6H", "6S", "8C", "8D", "9S", "5C", "TC", "TD"])
    play(state, "ask")
    assert state.turn == 2 and legal(state) == ["yes", "no"]
    state.apply("no", seat=2)
    assert state.turn == 0
    refused(state, "meld 9C 9D 9H", "said no")
    refused(state, "ask", "already asked")
    play(state, "discard 5S")
    for _ in range(3):
        play(state, "draw", f"discard {state.hands[state.turn][-1].text}")
    play(state, "draw")  # 9S 5C
    assert state.turn == 0 and "ask" in legal(state)  # once per turn, not per hand
    play(state, "ask", "yes")
    refused(state, "discard 5C", "must go out")
    play(state, "meld 9C 9D 9H 9S", "discard 5C")
    assert state.result is not None and state.result.went_out == 0
    state = position(6, hands=["9C 9D 9H 5S", "", "", "", "", ""], melds=[BOTH, [], []])
    play(state, "ask")
    assert state.turn == 3  # six players: the partner sits three seats on


# ----------------------------------------------------------------------------------------
# Illegal moves never change the position
@pytest.mark.parametrize("move", [
    "discard AS", "take 9S 9S", "draw", "pass", "yes", "add Q QD QH QS", "add K KC",
    "meld 3C 3S 3C", "meld JK 2C 2D", "meld 9C 9D 2C 2D", "meld 3H", "discard 3H",
    "meld 9C 9D / 2C 2D JK", "take", "add 9 9C",
])
def test_illegal_moves_leave_the_position_unchanged(move: str) -> None:
    state = position(hands=["QD QH QS 9C 9D 9H 2C 2D JK 3C 3S 3C 5C", "", "", ""],
                     melds=[[KINGS7, "QC QD QH QS QC"], []],
                     ponytails=[TAIL, "5C 5D", "6C 6D", "4C 4D"])
    refused(state, move)


@pytest.mark.parametrize("options", [{}, {"required_canastas": "four-books"}])
def test_D6_wild_range_solves_counts_error_for_every_meld(options: dict[str, Any]) -> None:
    # The going-out search and the listing ask Ponytail for the range of wild cards a meld may
    # take; its closed form must be the range that trying each count with counts_error finds.
    rules = Rules.make("ponytail", 4, **options)
    state = HandState(rules)
    v = rules.variant
    wild = cards("2C JK")
    for rank in "AKQJT987654":
        natural = cards(f"{rank}C")[0]
        for n0 in range(8):
            for w0 in range(4):
                held = [natural] * n0 + [wild[i % 2] for i in range(w0)]
                existing = Meld(rank, held) if held else None
                for naturals in range(9):
                    assert v.wild_range(state, 0, rank, naturals, existing) == \
                        Variant.wild_range(v, state, 0, rank, naturals, existing), (
                            rank, n0, w0, naturals)
