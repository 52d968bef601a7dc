"""Game records: saved, loaded and replayed exactly; bad records give clear errors."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from canasta.cards import cards_text
from canasta.cli import main
from canasta.errors import PositionError
from canasta.match import Match
from canasta.records import dumps, load_record, record_of, replay, save_record
from canasta.refusals import UNCODED
from canasta.rules import Rules


def random_match(seed: int, hands: int = 2, **options: Any) -> Match:
    rng = random.Random(seed)
    match = Match(Rules.make("classic", 4, **options), seed)
    while True:
        while match.state.result is None:
            match.apply(rng.choice(match.state.legal_moves()))
        if match.over or len(match.results) >= hands:
            return match
        match.next_hand()


def test_record_round_trip(tmp_path: Path) -> None:
    match = random_match(11)
    path = tmp_path / "game.json"
    save_record(match, path)
    again = replay(load_record(path))
    assert again.scores == match.scores
    assert record_of(again) == record_of(match)


def test_record_with_explicit_deals() -> None:
    match = random_match(12, hands=1)
    deck = match.deck_for(1)
    rec = record_of(match)
    del rec["seed"]
    rec["deals"] = [cards_text(deck).split()]
    assert replay(rec).scores == match.scores


def test_record_of_a_hand_in_progress() -> None:
    match = Match(Rules.make("classic", 2), 5)
    match.apply("draw")
    rec = record_of(match)
    again = replay(rec)
    assert again.state.phase == "play" and len(again.state.hands[0]) == 17


def _broken(change: Any) -> dict[str, Any]:
    rec = record_of(random_match(13, hands=1))
    change(rec)
    return rec


@pytest.mark.parametrize(("change", "message"), [
    (lambda r: r.update(format="chess"), "not a game record"),
    (lambda r: r.update(version=99), "unknown record version"),
    (lambda r: r.pop("seed"), "needs a whole-number 'seed'"),
    (lambda r: r["rules"].update(variant="poker"), "unknown variant"),
    (lambda r: r["rules"].update(players=5), "not 5"),
    (lambda r: r["hands"][0]["moves"].insert(0, [0, "discard JK"]), "hand 1, move 1"),
    (lambda r: r["hands"][0]["moves"].insert(0, [1, "draw"]), "seat 0's turn"),
    (lambda r: r["hands"][0]["moves"].insert(0, [0, "fly"]), "unknown move"),
    (lambda r: r["hands"][0]["moves"].insert(0, "draw"), "[seat, text]"),
    (lambda r: r["hands"][0]["result"].update(hand_score=[1, 2]), "does not replay"),
])
def test_corrupt_records_are_refused(change: Any, message: str) -> None:
    with pytest.raises(PositionError, match=message.replace("[", r"\[").replace("]", r"\]")):
        replay(_broken(change))


def played(variant: str, players: int, seed: int, hands: int = 8, moves: int = 0,
           **options: Any) -> Match:
    """Random play, as the games are saved: to the end of the match (or of ``hands`` hands),
    then ``moves`` moves more into the next hand when there is one."""
    rng = random.Random(seed)
    match = Match(Rules.make(variant, players, **options), seed)
    while True:
        while match.state.result is None:
            match.apply(rng.choice(match.state.legal_moves()))
        if match.over or len(match.results) >= hands:
            break
        match.next_hand()
    if moves and not match.over:
        match.next_hand()
        for _ in range(moves):
            match.apply(rng.choice(match.state.legal_moves()))
    return match


@pytest.mark.parametrize("match", [
    pytest.param(lambda: played("classic", 2, 3, target=2500), id="classic-2p-match"),
    pytest.param(lambda: played("classic", 3, 3, target=2500), id="classic-3p-match"),
    pytest.param(lambda: random_match(13, hands=30, target=2500), id="classic-4p-match"),
    pytest.param(lambda: played("modern-american", 4, 3, hands=3), id="modern-american-3-hands"),
    pytest.param(lambda: played("ponytail", 4, 3, target=2500, cut_bonus=0.5),
                 id="ponytail-4p-match"),
    pytest.param(lambda: played("ponytail", 6, 3, target=2500), id="ponytail-6p-match"),
    pytest.param(lambda: played("classic", 4, 13, hands=1), id="a-hand-ended-next-not-dealt"),
    pytest.param(lambda: played("classic", 4, 13, hands=2, moves=9), id="quit-mid-hand-2"),
    pytest.param(lambda: played("classic", 4, 13, hands=1, moves=1), id="quit-after-a-draw"),
    pytest.param(lambda: Match(Rules.make("classic", 4), 7), id="quit-before-a-move"),
])
def test_saved_records_replay_and_check_every_field(match: Any) -> None:
    """Records as the terminal and the browser save them (``record_of``, through JSON) replay
    with every result, the scores, ``over`` and ``winner`` checked, and unchanged."""
    rec = json.loads(dumps(match()))
    assert record_of(replay(rec)) == rec


def _match_record(moves: int = 0) -> dict[str, Any]:
    """The record of a whole Classic match (4 hands, won by side 1), or with ``moves`` a
    match stopped in its second hand."""
    if moves:
        return json.loads(dumps(played("classic", 4, 13, hands=1, moves=moves)))
    return json.loads(dumps(random_match(13, hands=30, target=2500)))


def _says(hand: int, where: str, got: Any, want: Any) -> str:
    return (f"hand {hand} does not replay: it scores '{where}': {json.dumps(got)}, "
            f"the record says '{where}': {json.dumps(want)}")


def _tamper_scores(r: dict[str, Any]) -> str:
    good = list(r["scores"])
    r["scores"][0] += 10
    return _says(len(r["hands"]), "scores", good, r["scores"])


def _tamper_winner(r: dict[str, Any]) -> str:
    r["winner"] = 0
    return _says(4, "winner", 1, 0)


def _tamper_over(r: dict[str, Any]) -> str:
    r["over"] = False
    return _says(4, "over", True, False)


def _tamper_breakdown(r: dict[str, Any]) -> str:
    side = r["hands"][1]["result"]["breakdown"][1]
    side["melded"] += 5
    side["in_hand"] -= 5  # the same total, the same hand score
    return _says(2, "breakdown[1].melded", side["melded"] - 5, side["melded"])


def _tamper_hand_score(r: dict[str, Any]) -> str:
    good = list(r["hands"][2]["result"]["hand_score"])
    r["hands"][2]["result"]["hand_score"] = [good[1], good[0]]
    return _says(3, "hand_score", good, [good[1], good[0]])


def _tamper_went_out(r: dict[str, Any]) -> str:
    number, result = next((i, h["result"]) for i, h in enumerate(r["hands"], 1)
                          if h["result"]["went_out"] is not None)
    good = result["went_out"]
    result["went_out"] = (good + 1) % 4
    return _says(number, "went_out", good, result["went_out"])


def _tamper_concealed(r: dict[str, Any]) -> str:
    r["hands"][0]["result"]["concealed"] = 0  # false, as JSON writes it, is not 0
    return _says(1, "concealed", False, 0)


def _tamper_side_keys(r: dict[str, Any]) -> str:
    side = r["hands"][0]["result"]["breakdown"][0]
    good = dict(side)
    del side["penalties"]
    return _says(1, "breakdown[0]", good, side)


def _result_of_a_hand_in_progress(r: dict[str, Any]) -> str:
    r["hands"][1]["result"] = dict(r["hands"][0]["result"])
    return _says(2, "result", None, r["hands"][1]["result"])


def _first_of_two(r: dict[str, Any]) -> str:
    expected = _tamper_breakdown(r)
    _tamper_winner(r)
    return expected


@pytest.mark.parametrize(("moves", "change"), [
    (0, _tamper_scores), (0, _tamper_winner), (0, _tamper_over), (0, _tamper_breakdown),
    (0, _tamper_hand_score), (0, _tamper_went_out), (0, _tamper_concealed),
    (0, _tamper_side_keys), (0, _first_of_two), (5, _tamper_scores),
    (5, _result_of_a_hand_in_progress),
])
def test_a_record_that_says_otherwise_than_its_replay_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], moves: int, change: Any) -> None:
    """Everything a record states that its replay gives again is checked: each hand's result
    (the breakdown too, with the same total), the scores, ``over`` and ``winner``; the first
    that differs is named with its hand and both values, and the command exits 2."""
    rec = _match_record(moves)
    message = change(rec)
    with pytest.raises(PositionError) as raised:
        replay(rec)
    assert str(raised.value) == message
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec))
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"canasta: {message}\n"


def test_fields_a_record_leaves_out_are_not_checked() -> None:
    rec = _match_record()
    for key in ("scores", "over", "winner"):
        del rec[key]
    del rec["hands"][0]["result"]["breakdown"]
    del rec["hands"][1]["result"]
    rec["hands"][2]["result"]["note"] = "a field no replay gives"
    assert replay(rec).winner == 1


@pytest.mark.parametrize(("rules", "message"), [
    ({"players": "2"}, "'players' must be a whole number, not '2'"),
    ({"players": 2.0}, "'players' must be a whole number, not 2.0"),
    ({"players": True}, "'players' must be a whole number, not True"),
    ({"players": [4]}, "'players' must be a whole number, not [4]"),
    ({"options": {"target": "5000"}}, "target score must be a positive whole number, not '5000'"),
    ({"options": {"target": 5000.0}}, "target score must be a positive whole number, not 5000.0"),
    ({"options": {"target": True}}, "target score must be a positive whole number, not True"),
    ({"options": {"table_penalties_mode": 1}}, "'table_penalties_mode' must be one of False, "
                                               "True, not 1"),
    ({"variant": "ponytail", "options": {"cut_bonus": "0.5"}},
     "'cut_bonus' must be a number from 0 to 1, not '0.5'"),
    ({"variant": "ponytail", "options": {"cut_bonus": True}},
     "'cut_bonus' must be a number from 0 to 1, not True"),
])
def test_rules_numbers_that_are_not_numbers_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], rules: dict[str, Any],
        message: str) -> None:
    """A record's rules are read as a scenario's are: a number given as text, a float or a
    bool is a clear error (exit 2), never a TypeError from the compiled or the pure core."""
    rec = record_of(random_match(13, hands=1))
    rec["rules"] = {"variant": "classic", "players": 4, "options": {}, **rules}
    with pytest.raises(PositionError) as raised:
        replay(rec)
    assert message in str(raised.value)
    assert raised.value.code != UNCODED
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec))
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"canasta: {raised.value}\n" and "Traceback" not in err


def test_rules_players_is_checked_before_the_compiled_rules_see_it() -> None:
    with pytest.raises(PositionError, match="'players' must be a whole number, not '3'"):
        Rules.from_json({"variant": "classic", "players": "3"})
    assert Rules.from_json({"variant": "classic", "players": 3}).players == 3
    assert Rules.from_json({"variant": "classic"}).players == 4  # the variant's default


def test_unreadable_record_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(PositionError, match="not valid JSON"):
        load_record(bad)
    with pytest.raises(PositionError, match="cannot read"):
        load_record(tmp_path / "missing.json")
    bad.write_text(json.dumps([1, 2]))
    with pytest.raises(PositionError, match="not a game record"):
        load_record(bad)
