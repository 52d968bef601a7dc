"""Game records: saved, loaded and replayed exactly; bad records give clear errors."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from canasta.cards import cards_text
from canasta.errors import PositionError
from canasta.match import Match
from canasta.records import load_record, record_of, replay, save_record
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
