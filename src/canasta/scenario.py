"""The scenario runner (FORMAT.md "Steps" and "Expectations").

``run_paths`` runs scenario files or folders and reports one line per scenario; ``run_scenario``
runs one scenario object and returns why it failed, or None.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from canasta.engine.state import HandState
from canasta.errors import CanastaError, IllegalMove, NotationError, PositionError
from canasta.match import match_outcome
from canasta.position import POSITION_KEYS, REQUIRED, position_from_json, position_to_json

CHECK_KEYS = ("turn", "phase", "legal", "illegal", "hand_sizes", "stock_size", "pile_size",
              "canastas", "hand_over", "hand_score", "breakdown", "match_score", "match_over",
              "winner")
SCENARIO_KEYS = ("name", *POSITION_KEYS, "steps", "expect")
STEP_KEYS = ("seat", "do", "expect", "then")


class ScenarioFormatError(PositionError):
    """A scenario file that is not valid JSON or not valid against the format."""


@dataclass(frozen=True)
class Outcome:
    file: str
    name: str
    failure: str | None  # None when it passed
    malformed: bool = False

    def line(self) -> str:
        if self.failure is None:
            return f"PASS {self.file}: {self.name}"
        return f"FAIL {self.file}: {self.name}: {self.failure}"


def _check_shape(sc: Any) -> None:
    if not isinstance(sc, Mapping):
        raise ScenarioFormatError("a scenario must be a JSON object")
    unknown = sorted(set(sc) - set(SCENARIO_KEYS))
    if unknown:
        raise ScenarioFormatError(f"unknown field(s) {', '.join(unknown)}")
    if not isinstance(sc.get("name"), str) or not sc["name"]:
        raise ScenarioFormatError("the scenario has no 'name'")
    missing = [k for k in REQUIRED if k not in sc]
    if missing:
        raise ScenarioFormatError(f"missing field(s) {', '.join(missing)}")
    steps = sc.get("steps", [])
    if not isinstance(steps, list):
        raise ScenarioFormatError("'steps' must be a list")
    for i, st in enumerate(steps, 1):
        if not isinstance(st, Mapping) or "seat" not in st or "do" not in st:
            raise ScenarioFormatError(f"step {i} needs 'seat' and 'do'")
        bad = sorted(set(st) - set(STEP_KEYS))
        if bad:
            raise ScenarioFormatError(f"step {i} has unknown field(s) {', '.join(bad)}")
        if not isinstance(st["do"], str) or not isinstance(st["seat"], int):
            raise ScenarioFormatError(f"step {i}: 'seat' is a number and 'do' a move's text")
        if st.get("expect", "ok") not in ("ok", "illegal"):
            raise ScenarioFormatError(f"step {i}: 'expect' is \"ok\" or \"illegal\"")
        _check_checks(st.get("then", {}), f"step {i} 'then'")
    _check_checks(sc.get("expect", {}), "'expect'")


_INT_KEYS = ("turn", "stock_size", "pile_size")
_INT_LIST_KEYS = ("hand_sizes", "canastas", "hand_score", "match_score")
_BOOL_KEYS = ("hand_over", "match_over")


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _check_checks(checks: Any, where: str) -> None:
    if not isinstance(checks, Mapping):
        raise ScenarioFormatError(f"{where} must be an object")
    bad = sorted(set(checks) - set(CHECK_KEYS))
    if bad:
        raise ScenarioFormatError(f"{where} has unknown key(s) {', '.join(bad)}")
    for key, value in checks.items():
        ok = True
        if key in ("legal", "illegal"):
            ok = isinstance(value, list) and all(isinstance(x, str) for x in value)
        elif key in _INT_KEYS:
            ok = _is_int(value)
        elif key in _INT_LIST_KEYS:
            ok = isinstance(value, list) and all(_is_int(x) for x in value)
        elif key in _BOOL_KEYS:
            ok = isinstance(value, bool)
        elif key == "phase":
            ok = value in ("draw", "play")
        elif key == "winner":
            ok = value is None or _is_int(value)
        elif key == "breakdown":
            ok = isinstance(value, list) and all(
                isinstance(b, Mapping) and all(_is_int(x) for x in b.values()) for b in value)
        if not ok:
            raise ScenarioFormatError(f"{where}: '{key}' has the wrong type")


def _match_facts(state: HandState) -> tuple[list[int], bool, int | None]:
    if state.result is None:
        return list(state.scores), False, None
    totals = [a + b for a, b in zip(state.scores, state.result.scores, strict=True)]
    over, winner = match_outcome(state.rules, totals, state.hand_number)
    return totals, over, winner


def _legal_now(state: HandState, text: str) -> str | None:
    """None when ``text`` is legal now, else why not."""
    try:
        state.check(text)
    except (IllegalMove, NotationError) as e:
        return str(e)
    return None


def check_expectations(state: HandState, checks: Mapping[str, Any]) -> list[str]:
    """What in ``checks`` does not hold in ``state`` (empty when everything holds)."""
    errors: list[str] = []
    over = state.result is not None

    def expect(key: str, actual: Any) -> None:
        if key in checks and checks[key] != actual:
            errors.append(f"{key}: expected {json.dumps(checks[key])}, got {json.dumps(actual)}")

    expect("turn", state.turn)
    expect("phase", state.phase)
    expect("hand_over", over)
    expect("hand_sizes", [len(h) for h in state.hands])
    expect("stock_size", len(state.stock))
    expect("pile_size", len(state.pile))
    expect("canastas", [state.canastas(s) for s in range(state.rules.n_sides)])
    for text in checks.get("legal", []):
        why = _legal_now(state, text)
        if why is not None:
            errors.append(f"'{text}' should be legal but was refused: {why}")
    for text in checks.get("illegal", []):
        if _legal_now(state, text) is None:
            errors.append(f"'{text}' should be illegal but was accepted")
    if any(k in checks for k in ("hand_score", "breakdown")):
        if state.result is None:
            errors.append("the hand is not over, so it has no score yet")
        else:
            expect("hand_score", state.result.scores)
            for side, want in enumerate(checks.get("breakdown", [])):
                if side >= len(state.result.breakdown):
                    errors.append(f"breakdown: there is no side {side}")
                    continue
                got = state.result.breakdown[side]
                for key, value in want.items():
                    if got.get(key) != value:
                        errors.append(f"breakdown of side {side}: {key} expected {value}, "
                                      f"got {got.get(key)}")
    totals, match_over, winner = _match_facts(state)
    expect("match_score", totals)
    expect("match_over", match_over)
    expect("winner", winner)
    return errors


def run_scenario(sc: Mapping[str, Any]) -> str | None:
    """Run one scenario; return None when it passes, else what failed."""
    _check_shape(sc)
    position = {k: v for k, v in sc.items() if k in POSITION_KEYS}
    state = position_from_json(position)
    for i, st in enumerate(sc.get("steps", []), 1):
        label = f"step {i} (seat {st['seat']}: {st['do']})"
        want_illegal = st.get("expect", "ok") == "illegal"
        before = position_to_json(state)
        try:
            state.apply(st["do"], seat=st["seat"])
        except (IllegalMove, NotationError) as e:
            if not want_illegal:
                return f"{label}: refused: {e}"
            if position_to_json(state) != before:
                return f"{label}: the refused move changed the position"
        else:
            if want_illegal:
                return f"{label}: should be illegal but was accepted"
        errors = check_expectations(state, st.get("then", {}))
        if errors:
            return f"{label}: " + "; ".join(errors)
    errors = check_expectations(state, sc.get("expect", {}))
    if errors:
        return "expect: " + "; ".join(errors)
    return None


def _files(paths: Iterable[str | Path]) -> list[Path]:
    """The files to run; a folder without any ``*.json`` is a CanastaError (a mistyped
    folder would otherwise pass with nothing run)."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            found = sorted(p.rglob("*.json"))
            if not found:
                raise CanastaError(f"no scenario found in {p}")
            out.extend(found)
        else:
            out.append(p)
    return out


def run_paths(paths: Iterable[str | Path],
              report: Callable[[Outcome], None] | None = None) -> list[Outcome]:
    """Run every scenario in these files and folders (recursively, ``*.json``); a folder
    without any is a CanastaError, raised before anything runs."""
    outcomes: list[Outcome] = []

    def emit(o: Outcome) -> None:
        outcomes.append(o)
        if report is not None:
            report(o)

    for path in _files(paths):
        name = str(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            emit(Outcome(name, "(file)", "no such file", malformed=True))
            continue
        except (OSError, UnicodeDecodeError) as e:
            emit(Outcome(name, "(file)", f"cannot read the file: {e}", malformed=True))
            continue
        except (ValueError, RecursionError) as e:  # JSONDecodeError is a ValueError
            emit(Outcome(name, "(file)", f"not valid JSON: {e}", malformed=True))
            continue
        items = data if isinstance(data, list) else [data]
        if not items:
            emit(Outcome(name, "(file)", "the file holds no scenario", malformed=True))
        for i, sc in enumerate(items, 1):
            title = sc.get("name") if isinstance(sc, Mapping) else None
            title = title if isinstance(title, str) and title else f"scenario {i}"
            try:
                why = run_scenario(sc)
            except ScenarioFormatError as e:
                emit(Outcome(name, title, f"not a valid scenario: {e}", malformed=True))
            except CanastaError as e:
                emit(Outcome(name, title, f"bad position: {e}", malformed=True))
            except Exception as e:  # an engine fault is reported like any failure, not raised
                emit(Outcome(name, title, f"engine error: {type(e).__name__}: {e}"))
            else:
                emit(Outcome(name, title, why))
    return outcomes
