"""Defects found in review, pinned so they stay fixed (each names the rule it concerns)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from canasta.cli import main
from canasta.errors import IllegalMove, PositionError
from canasta.position import position_from_json
from canasta.records import replay


def pos(**fields: Any) -> Any:
    base: dict[str, Any] = {"variant": "classic", "players": 4, "scores": [0, 0], "turn": 0,
                            "phase": "play", "drew": "stock", "threes": [[], []]}
    base.update(fields)
    return position_from_json(base)


def test_B8_after_yes_a_cached_plan_never_bypasses_the_check() -> None:
    s = pos(hands=[["5H", "5D", "2C", "4S"], ["4C", "4D", "6H"], ["9S", "9H", "TC"],
                   ["QC", "QD", "JH"]],
            melds=[[["8S", "8H", "8C", "8D", "8S", "8H", "8C"]], []],
            discard=["6C", "KC"], stock=["7C", "7D", "7H"])
    s.apply("ask")
    s.apply("yes", seat=2)
    assert "add 8 2C" not in [str(m) for m in s.legal_moves()]
    with pytest.raises(IllegalMove):
        s.apply("add 8 2C")
    assert s.legal_moves()


def test_D6_E41_a_closed_rank_may_be_melded_again_and_is_listed() -> None:
    s = pos(variant="ponytail", hands=[["KS", "KH", "KD", "9C", "4S"], ["QC"], ["QD"], ["QH"]],
            melds=[[["KC", "KC", "KD", "KD", "KH", "KH", "KS"], ["9D", "9D", "9H", "2C"]], []],
            discard=["6H"], stock=["TS", "TH"], ponytails=[None] * 4)
    assert "meld KD KH KS" in [str(m) for m in s.legal_moves()]


def test_D6_E41_an_opening_may_close_a_rank_and_start_it_again() -> None:
    s = pos(variant="ponytail", scores=[3000, 0],
            hands=[["KS", "KS", "KH", "KH", "KD", "KD", "KC", "KC", "KS", "KH", "JK", "5D", "9C"],
                   ["QC"], ["QD"], ["QH"]],
            melds=[[], []], discard=["6H"], stock=["TS", "TH"], ponytails=[None] * 4)
    s.apply("meld KS KS KH KH KD KD KC / KC KS KH JK")
    assert [m.size for m in s.melds[0]] == [7, 4]


def test_C7_the_pair_may_join_the_sides_three_card_meld_and_is_listed() -> None:
    s = pos(variant="modern-american", phase="draw", drew=None,
            hands=[["KH", "KD", "TD", "TH", "5S"], ["4C"], ["8S"], ["QC"]],
            melds=[[["KS", "KC", "KH"]], []], discard=["6C", "KC"], stock=["5C", "5D"])
    assert "take KD KH" in [str(m) for m in s.legal_moves()]


def test_C9_may_ask_right_after_taking_the_pile() -> None:
    s = pos(variant="modern-american", phase="draw", drew=None,
            hands=[["JH", "JD", "9C", "9D", "9H"], ["4C"], ["8S"], ["QC"]],
            melds=[[["KS", "KS", "KH", "KH", "KD", "KD", "KC"],
                    ["QS", "QS", "QH", "QD", "QC", "2D", "JK"]], []],
            discard=["4S", "JC"], stock=["5C", "5D"])
    s.apply("take JH JD")
    assert s.is_legal("ask")


def test_position_hand_number_counts_from_one() -> None:
    with pytest.raises(PositionError, match="from 1"):
        pos(hands=[["5H"], [], [], []], melds=[[], []], discard=[], stock=[], hand_number=0)


def test_position_melds_have_three_cards() -> None:
    with pytest.raises(PositionError, match="fewer than 3"):
        pos(hands=[["5H"], [], [], []], melds=[[["KH", "KD"]], []], discard=[], stock=[])


def test_record_result_must_be_an_object() -> None:
    from canasta.records import record_of

    from test_records import random_match

    rec = record_of(random_match(3, hands=1))
    rec["hands"][0]["result"] = "x"
    with pytest.raises(PositionError, match="'result' must be an object"):
        replay(rec)


@pytest.mark.parametrize("content", ["[" * 100000 + "]" * 100000, "1" * 5000])
def test_odd_json_is_a_clear_failure(tmp_path: Path, content: str,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "odd.json"
    path.write_text(content)
    assert main(["scenario", str(path)]) == 2
    assert "not valid JSON" in capsys.readouterr().out
    assert main(["replay", str(path)]) == 2


def test_expectations_of_the_wrong_type_are_malformed(tmp_path: Path) -> None:
    sc = json.loads((Path(__file__).parent / "scenarios" / "classic" / "threes.json")
                    .read_text())[0]
    sc["expect"]["illegal"] = 5
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(sc))
    assert main(["scenario", str(path)]) == 2


@pytest.mark.parametrize("hand", [["9H", "9S", "KC"], ["KC", "9H", "9S"], ["9S", "KC", "9H"]])
def test_going_out_moves_are_listed_in_no_hand_order(hand: list[str]) -> None:
    """C.9 going out after a yes: the moves listed do not depend on the order of the cards in
    hand (a world a bot deals from its seat's view, whose hand is sorted, lists the seat the very
    moves the real position does)."""
    melds = [[["6H", "6D", "6S", "6D", "6C", "2D", "2C"],
              ["TD", "TS", "2C", "TC", "TH", "TH", "JK"], ["KD", "KH", "KS"], ["9D", "9H", "9C"]],
             []]
    listed = []
    for cards in (hand, sorted(hand)):
        s = pos(variant="modern-american", hands=[cards, ["4C", "4D"], ["5C", "5D"], ["8C", "8D"]],
                melds=melds, threes=[["3H"], []], discard=["7C", "QH"], stock=["JC", "JD", "JH"])
        s.apply("ask")
        s.apply("yes", seat=2)
        listed.append([str(m) for m in s.legal_moves()])
    assert listed[0] == listed[1]
