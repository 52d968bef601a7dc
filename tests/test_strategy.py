"""Strategy cases (FORMAT.md "Strategy cases"): the suite in tests/strategy and the runner."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from canasta.bots import register_player
from canasta.cli import main
from canasta.moves import Move
from canasta.strategy import CaseError, check_case, load_cases, play_case, run_levels
from canasta.view import PlayerView

from conftest import ROOT, SHARED

SUITE = ROOT / "tests" / "strategy"
SUITE_CASES = load_cases([SUITE])
RAW = {c["name"]: c for f in sorted(SUITE.rglob("*.json"))
       for c in json.loads(f.read_text(encoding="utf-8"))}
#: the cases that use the project's 'steps' addition live apart from those in the shared format
WITH_STEPS = SUITE / "with-steps"
FORMAT_FIELDS = {"name", "why", "position", "best", "avoid"}


class FirstMove:
    """A test player: always the first listed move."""

    name = "first-move"

    def new_hand(self, seat: int) -> None:
        pass

    def choose(self, view: PlayerView) -> Move:
        return view.legal_moves[0]


register_player("first-move", lambda seed: FirstMove())


def _case(**changes: Any) -> dict[str, Any]:
    """A small valid case: seat 0 may take a six-card pile with a natural pair or a joker."""
    case: dict[str, Any] = {
        "name": "take-with-the-pair",
        "why": "the joker is kept",
        "position": {
            "variant": "classic", "players": 4, "scores": [0, 0], "turn": 0, "phase": "draw",
            "hands": [["TC", "TH", "TS", "JK", "9D", "8C"], ["4C"], ["5C"], ["6C"]],
            "melds": [[["AH", "AD", "AS"]], []], "threes": [[], []],
            "discard": ["KD", "QH", "TD"], "stock": ["7D", "7H", "7S"]},
        "best": ["take TC TS"], "avoid": ["take TC JK"]}
    case.update(changes)
    return case


def test_the_suite_covers_every_table_with_120_cases() -> None:
    assert len(SUITE_CASES) >= 120
    tables = Counter((c.position["variant"], c.position["players"]) for c in SUITE_CASES)
    assert set(tables) == {("classic", 2), ("classic", 3), ("classic", 4),
                           ("modern-american", 4), ("ponytail", 4), ("ponytail", 6)}
    assert min(tables.values()) >= 10


@pytest.mark.parametrize("case", SUITE_CASES, ids=[c.name for c in SUITE_CASES])
def test_every_suite_case_names_only_listed_moves(case: Any) -> None:
    """Each case says why in one line, and every move it names is legal and listed (the
    runner would silently drop a named move that is not legal)."""
    raw = RAW[case.name]
    assert case.why and "\n" not in case.why
    assert len(case.best) == len(raw.get("best", []))
    assert len(case.avoid) == len(raw.get("avoid", []))
    listed = {str(m) for m in case.state().legal_moves()}
    assert set(case.best) | set(case.avoid) <= listed
    assert not set(listed) <= set(case.avoid), "every listed move is to be avoided"


def _schema() -> dict[str, Any]:
    path = SHARED / "schema" / "scenario.schema.json"
    if not path.exists():
        path = ROOT / "tests" / "data" / "scenario.schema.json"
    schema: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return schema


@pytest.mark.slow  # checks every case of the suite against the shared schema
def test_the_suite_files_outside_with_steps_follow_the_shared_format() -> None:
    """Any runner of FORMAT.md can run tests/strategy/*.json: a case holds only the format's
    fields, its position (with the case's name, as a scenario) is valid against the shared
    schema, and its moves are moves of the schema; only with-steps/ uses the addition."""
    jsonschema = pytest.importorskip("jsonschema")
    schema = _schema()
    scenario = {**schema, "$ref": "#/$defs/scenario"}
    del scenario["oneOf"]
    move = {**schema, "$ref": "#/$defs/move"}
    del move["oneOf"]
    # One validator per schema, its schema checked once: jsonschema.validate checks the schema
    # again at every call, which was most of this test's time.
    validator = jsonschema.validators.validator_for(schema)
    validator.check_schema(scenario)
    validator.check_schema(move)
    scenario_validator, move_validator = validator(scenario), validator(move)
    plain = [c for f in sorted(SUITE.glob("*.json"))
             for c in json.loads(f.read_text(encoding="utf-8"))]
    assert len(plain) >= 100
    for case in plain:
        assert set(case) <= FORMAT_FIELDS, case["name"]
        scenario_validator.validate({"name": case["name"], **case["position"]})
        for text in case.get("best", []) + case.get("avoid", []):
            move_validator.validate(text)
    extended = [c for f in sorted(WITH_STEPS.glob("*.json"))
                for c in json.loads(f.read_text(encoding="utf-8"))]
    assert extended and all(c.get("steps") for c in extended)
    assert len(plain) + len(extended) == len(SUITE_CASES)


def test_the_format_example_case_loads_as_written(tmp_path: Path) -> None:
    """FORMAT.md's strategy case, its position being the format's example position as printed
    there: a scenario's name, empty steps and expectations, null ponytails and melded."""
    example = {
        "name": "frozen pile needs a natural pair", "variant": "classic", "players": 4,
        "options": {"target": 5000}, "scores": [0, 1500], "turn": 0, "phase": "draw",
        "hands": [["7H", "7S", "KD"], ["4C", "4D"], ["9S", "9H", "JK"], ["QC"]],
        "melds": [[["KH", "KC", "KS"]], []], "threes": [["3H"], []],
        "discard": ["5C", "2D", "7D"], "stock": ["8C", "8D", "TC"],
        "ponytails": None, "melded": None, "steps": [], "expect": {}}
    path = tmp_path / "format.json"
    path.write_text(json.dumps([{"name": "classic-take-the-frozen-pile",
                                 "why": "a frozen pile is won with the natural pair",
                                 "position": example, "best": ["take 7H 7S"],
                                 "avoid": ["draw"]}]))
    (case,) = load_cases([path])
    assert case.best == ("take 7H 7S",) and case.avoid == ("draw",)
    assert case.state().turn == 0 and not case.steps


def test_a_named_move_is_compared_as_legal_moves_lists_it() -> None:
    # The generator lists the lowest tens of the hand (TC TH); the case names TC TS.
    case = check_case(_case())
    assert case.best == ("take TC TH",) and case.avoid == ("take TC JK",)
    assert case.passes("take TC TH") and not case.passes("take TC JK")
    assert not case.passes("draw")  # best is given: a move outside it fails
    avoid_only = check_case(_case(best=[]))
    assert avoid_only.passes("draw")


def test_the_runner_prints_failures_and_a_score_per_level() -> None:
    lines: list[str] = []
    cases = [check_case(_case()), check_case(_case(name="draw-is-fine", best=["draw"]))]
    verdicts = run_levels(cases, ["first-move"], report=lines.append)
    # The first listed move is "draw": the first case fails, the second passes.
    assert lines == ["FAIL take-with-the-pair (first-move): played draw", "first-move: 1 of 2"]
    assert [v.passed for v in verdicts["first-move"]] == [False, True]


def test_a_case_is_played_from_the_seat_to_act_after_the_steps() -> None:
    case = next(c for c in SUITE_CASES if c.steps)
    state = case.state()
    assert state.asking is not None and state.turn != state.asking
    assert play_case(case, "expert") in ("yes", "no")


def test_the_same_case_gets_the_same_decision() -> None:
    case = SUITE_CASES[0]
    assert play_case(case, "expert") == play_case(case, "expert")


@pytest.mark.parametrize(("changes", "message"), [
    ({"colour": "red"}, "unknown field(s) colour"),
    ({"position": {**_case()["position"], "colour": "red"}},
     "the position has unknown field(s) colour"),
    ({"position": {**_case()["position"], "steps": [{"seat": 0, "do": "draw"}]}},
     "the position holds a scenario's 'steps'"),
    ({"position": {**_case()["position"], "expect": {"turn": 0}}},
     "the position holds a scenario's 'expect'"),
    ({"name": ""}, "no 'name'"),
    ({"best": [], "avoid": []}, "at least one move"),
    ({"best": ["take TC ZZ"]}, "'take TC ZZ' is not a move"),
    ({"best": ["take TC JK"], "avoid": ["take TS JK"]}, "both in 'best' and in 'avoid'"),
    ({"best": ["meld AH AD AS"], "avoid": ["discard 9D"]}, "none of the named moves is legal"),
    ({"best": ["take TC TH TS"]}, "legal_moves() lists no move with its outcome"),
    ({"steps": [{"seat": 1, "do": "draw"}]}, "a step is refused"),
    ({"steps": [{"seat": 0}]}, "step 1 must be"),
])
def test_a_bad_case_is_a_clear_error(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        check_case(_case(**changes))


def test_a_bad_position_names_the_file_and_the_case(tmp_path: Path) -> None:
    bad = _case()
    bad["position"]["hands"][0].append("ZZ")
    path = tmp_path / "bad.json"
    path.write_text(json.dumps([bad]))
    with pytest.raises(CaseError, match=re.escape("bad.json: take-with-the-pair: hand of seat 0")):
        load_cases([path])


def test_duplicate_names_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "twice.json"
    path.write_text(json.dumps([_case(), _case()]))
    with pytest.raises(CaseError, match="the name is also used"):
        load_cases([path])


def test_canasta_strategy_on_the_suite(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["strategy", str(SUITE), "--level", "basic"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].startswith("basic: ") and out[-1].endswith(f" of {len(SUITE_CASES)}")
    assert all(" (basic): played " in line for line in out[:-1])


def test_canasta_strategy_every_level_on_one_file(capsys: pytest.CaptureFixture[str]) -> None:
    three = SUITE / "classic-3p.json"
    assert main(["strategy", str(three), "--rounds", "4"]) == 0
    scores = [line for line in capsys.readouterr().out.splitlines()
              if not line.startswith("FAIL ")]
    assert [s.split(":")[0] for s in scores] == ["random", "basic", "expert", "master"]
    assert all(s.endswith(" of 10") for s in scores)


def test_canasta_strategy_bad_input_exit_2(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "oops.json"
    path.write_text("{oops")
    assert main(["strategy", str(path)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert main(["strategy", str(SUITE), "--level", "grandmaster"]) == 2
    assert "--level must be one of" in capsys.readouterr().err
