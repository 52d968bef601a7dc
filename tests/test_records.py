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
from canasta.records import load_record, record_of, replay, save_record
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
