"""Strategy cases (FORMAT.md "Strategy cases") and the runner behind ``canasta strategy``.

A strategy case is a position, the moves a strong player would make there (``best``) and those
it would not (``avoid``).  ``load_cases`` reads and checks case files; ``play_case`` asks a
computer player for its move from the seat's view; ``run_levels`` scores every case for each
level.  Moves compare by their text as ``legal_moves()`` lists them: a named move is turned into
the listed move with the same outcome (suits never matter but for threes), so ``take TC TS``
and the listed ``take TC TD`` are the same move.

Besides what FORMAT.md lists, a case may hold ``steps`` (a project addition, not in the shared
format): moves played from the position before the decision, each ``{"seat": S, "do": MOVE}``
as in a rule scenario.  They reach a decision the position format cannot write down: the
answer to "may I go out?", which is the partner's move right after the question (the format's
``asked`` only records that a question was asked; it cannot make the partner the seat to act).
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from canasta.engine.state import HandState
from canasta.errors import CanastaError, IllegalMove, NotationError, PositionError
from canasta.moves import Move
from canasta.position import POSITION_KEYS, position_from_json
from canasta.view import view_of

CASE_KEYS = ("name", "why", "position", "steps", "best", "avoid")
#: a rule scenario's own fields, which FORMAT.md's example position carries beside the position's
SCENARIO_FIELDS = ("name", "steps", "expect")


class CaseError(PositionError):
    """A strategy case that cannot be run: the message names the file and the case."""


def outcome_key(move: Move) -> tuple[Any, ...]:
    """What a move does, whatever the suits of its cards: its kind, its rank and the kinds of
    the cards in each group (red and black threes are different kinds)."""
    groups = [tuple(sorted(c.kind for c in g)) for g in move.groups]
    if len(groups) > 1:  # a take's first group holds the top card; the others come in any order
        groups = [groups[0], *sorted(groups[1:])]
    return (move.kind, move.rank, tuple(groups), None if move.card is None else move.card.kind)


def listed_move(move: Move, listed: Sequence[Move]) -> Move | None:
    """The move of ``listed`` with the same outcome as ``move``, or None."""
    if move in listed:
        return move
    key = outcome_key(move)
    return next((m for m in listed if outcome_key(m) == key), None)


@dataclass(frozen=True)
class Case:
    """One checked case: ``best`` and ``avoid`` hold the listed texts of the named moves that
    are legal (a named move that is not legal can never be played, so it drops out)."""

    file: str
    name: str
    why: str
    position: Mapping[str, Any]
    steps: tuple[tuple[int, str], ...]
    best: tuple[str, ...]
    avoid: tuple[str, ...]

    def state(self) -> HandState:
        """The position of the decision (the steps played)."""
        state = position_from_json({k: v for k, v in self.position.items()
                                    if k in POSITION_KEYS})
        for seat, text in self.steps:
            state.apply(text, seat=seat)
        return state

    def passes(self, played: str) -> bool:
        return played not in self.avoid and (not self.best or played in self.best)


def _texts(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise PositionError(f"'{where}' must be a list of moves, each as text")
    return list(value)


def _steps(value: Any) -> tuple[tuple[int, str], ...]:
    if not isinstance(value, list):
        raise PositionError("'steps' must be a list")
    out = []
    for i, st in enumerate(value, 1):
        if (not isinstance(st, Mapping) or set(st) != {"seat", "do"}
                or not isinstance(st["do"], str) or not isinstance(st["seat"], int)
                or isinstance(st["seat"], bool)):
            raise PositionError(f"step {i} must be {{\"seat\": a seat number, \"do\": a move}}")
        out.append((st["seat"], st["do"]))
    return tuple(out)


def check_case(obj: Any, file: str = "") -> Case:
    """Read one case and check it: the position reads, the steps are legal, a decision is
    left to make, every named move parses, and at least one is legal; a legal named move must
    be one ``legal_moves()`` lists (with the same outcome).  Raises PositionError."""
    if not isinstance(obj, Mapping):
        raise PositionError("a strategy case must be a JSON object")
    unknown = sorted(set(obj) - set(CASE_KEYS))
    if unknown:
        raise PositionError(f"unknown field(s) {', '.join(unknown)}")
    name = obj.get("name")
    if not isinstance(name, str) or not name.strip():
        raise PositionError("the case has no 'name'")
    why = obj.get("why", "")
    if not isinstance(why, str):
        raise PositionError("'why' must be one line of text")
    position = obj.get("position")
    if not isinstance(position, Mapping):
        raise PositionError("the case has no 'position' object")
    bad = sorted(set(position) - {*POSITION_KEYS, *SCENARIO_FIELDS})
    if bad:
        raise PositionError(f"the position has unknown field(s) {', '.join(bad)}")
    if not isinstance(position.get("name", ""), str):
        raise PositionError("the position's 'name' must be text")
    # A position copied from a rule scenario may keep its (empty) steps and expectations; with
    # moves or checks in them it is a scenario, not the position a case is decided at.
    if position.get("steps", []) != []:
        raise PositionError("the position holds a scenario's 'steps': a case is decided at its "
                            "position; moves to play first go in the case's 'steps' (a project "
                            "addition, docs/STRATEGY.md)")
    if position.get("expect", {}) != {}:
        raise PositionError("the position holds a scenario's 'expect': a case names 'best' and "
                            "'avoid' moves instead")
    best = _texts(obj.get("best", []), "best")
    avoid = _texts(obj.get("avoid", []), "avoid")
    if not best and not avoid:
        raise PositionError("name at least one move in 'best' or 'avoid'")
    case = Case(file, name, why, position, _steps(obj.get("steps", [])), (), ())
    try:
        state = case.state()
    except (IllegalMove, NotationError) as e:
        raise PositionError(f"a step is refused: {e}") from None
    if state.result is not None:
        raise PositionError("the hand is over: there is no decision to make")
    listed = state.legal_moves()
    seat = state.turn

    def resolve(texts: list[str]) -> list[str]:
        out = []
        for text in texts:
            try:
                move = state.parse(text)
            except NotationError as e:
                raise PositionError(f"'{text}' is not a move: {e}") from None
            try:
                state.check(move, seat)
            except IllegalMove:
                continue
            same = listed_move(move, listed)
            if same is None:
                raise PositionError(f"'{text}' is legal, but legal_moves() lists no move with "
                                    "its outcome: name the move as it is listed")
            out.append(str(same))
        return out

    best_listed, avoid_listed = resolve(best), resolve(avoid)
    if not best_listed and not avoid_listed:
        raise PositionError("none of the named moves is legal here")
    both = sorted(set(best_listed) & set(avoid_listed))
    if both:
        raise PositionError(f"{', '.join(both)} is both in 'best' and in 'avoid'")
    return Case(file, name, why, position, case.steps, tuple(best_listed), tuple(avoid_listed))


def _files(paths: Iterable[str | Path]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        out.extend(sorted(p.rglob("*.json")) if p.is_dir() else [p])
    return out


def load_cases(paths: Iterable[str | Path]) -> list[Case]:
    """Every case of these files and folders (recursively, ``*.json``), checked; raises
    CaseError naming the file and the case at the first one that cannot be run."""
    cases: list[Case] = []
    names: dict[str, str] = {}
    for path in _files(paths):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as e:
            raise CaseError(f"{path}: cannot read the file: {e.strerror or e}") from None
        except (ValueError, RecursionError) as e:  # JSONDecodeError is a ValueError
            raise CaseError(f"{path}: not valid JSON: {e}") from None
        if not isinstance(data, list) or not data:
            raise CaseError(f"{path}: a strategy file is a non-empty JSON list of cases")
        for i, obj in enumerate(data, 1):
            title = obj.get("name") if isinstance(obj, Mapping) else None
            label = f"{path}: {title if isinstance(title, str) and title else f'case {i}'}"
            try:
                case = check_case(obj, str(path))
            except CanastaError as e:
                raise CaseError(f"{label}: {e}") from None
            if case.name in names:
                raise CaseError(f"{label}: the name is also used in {names[case.name]}")
            names[case.name] = str(path)
            cases.append(case)
    if not cases:
        raise CaseError("no strategy case found")
    return cases


def case_seed(case: Case) -> int:
    """The seed of the computer player for a case: from its name alone, so that a case gets
    the same decision wherever it stands in the suite."""
    return zlib.crc32(case.name.encode("utf-8"))


def play_case(case: Case, level: str, rounds: int | None = None) -> str:
    """The move (its listed text) that a player of ``level`` makes in the case, from the view
    of the seat to act."""
    from canasta.bots import make_player

    state = case.state()
    seat = state.turn
    # CPU time for the master's caps, so that a busy machine does not score a weaker master.
    player = make_player(level, case_seed(case), rounds=rounds, clock="cpu")
    player.new_hand(seat)
    view = view_of(state, seat)
    move = player.choose(view)
    same = listed_move(move, view.legal_moves)
    return str(same if same is not None else move)


@dataclass(frozen=True)
class Verdict:
    case: Case
    level: str
    played: str

    @property
    def passed(self) -> bool:
        return self.case.passes(self.played)

    def line(self) -> str:
        return f"FAIL {self.case.name} ({self.level}): played {self.played}"


def run_levels(cases: Sequence[Case], levels: Sequence[str], rounds: int | None = None,
               report: Callable[[str], None] | None = None) -> dict[str, list[Verdict]]:
    """Play every case for each level; ``report`` gets the output lines as they come: a
    ``FAIL`` line per failed case, then ``level: N of M`` for each level."""
    out: dict[str, list[Verdict]] = {}
    for level in levels:
        verdicts = []
        for case in cases:
            v = Verdict(case, level, play_case(case, level, rounds))
            verdicts.append(v)
            if report is not None and not v.passed:
                report(v.line())
        out[level] = verdicts
        if report is not None:
            report(score_line(level, verdicts))
    return out


def score_line(level: str, verdicts: Sequence[Verdict]) -> str:
    return f"{level}: {sum(v.passed for v in verdicts)} of {len(verdicts)}"


__all__ = ["Case", "CaseError", "Verdict", "check_case", "load_cases", "play_case",
           "run_levels"]
