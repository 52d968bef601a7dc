"""Game records: the rules, the seed (or the dealt cards) and the moves; replaying a record
gives the same game.

A record is JSON::

    {"format": "canasta-record", "version": 1,
     "rules": {"variant": "classic", "players": 4, "options": {"target": 5000, ...}},
     "seed": 7,                       # or "deals": [["KH", "4C", ...], ...], one deck per hand
     "hands": [{"moves": [[0, "draw"], [0, "discard 4S"], ...],
                "result": {"hand_score": [...], ...}}, ...]}

``result`` (each hand's ``went_out``, ``concealed``, ``hand_score`` and ``breakdown``) and the
match's ``scores``, ``over`` and ``winner`` are optional; replay checks each one a record gives
against the game it replays, and names the first that differs.

``replay_hand`` is the one replay of a hand: the record's checks, the browser's replays and the
computer players watching a restored hand again all play the recorded moves through it, and
what it shows of the hand is only the views of the seats it is asked for.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from canasta.cards import cards_from_json, cards_text
from canasta.errors import CanastaError, PositionError
from canasta.match import Match
from canasta.moves import Move
from canasta.rules import Rules
from canasta.view import PlayerView, view_of

FORMAT = "canasta-record"
VERSION = 1


def record_of(match: Match) -> dict[str, Any]:
    """The record of a match so far (finished hands and the hand in progress)."""
    hands = []
    for i, moves in enumerate(match.moves):
        h: dict[str, Any] = {"moves": [[seat, str(m)] for seat, m in moves]}
        if i < len(match.results):
            h["result"] = match.results[i].to_json()
        hands.append(h)
    rec: dict[str, Any] = {"format": FORMAT, "version": VERSION, "rules": match.rules.to_json()}
    if match.deals is not None:
        rec["deals"] = [cards_text(d).split() for d in match.deals]
    else:
        rec["seed"] = match.seed
    rec["hands"] = hands
    rec["scores"] = list(match.scores)
    rec["over"] = match.over
    rec["winner"] = match.winner
    return rec


def dumps(match: Match) -> str:
    return json.dumps(record_of(match), indent=1)


def save_record(match: Match, path: str | Path) -> None:
    Path(path).write_text(dumps(match) + "\n", encoding="utf-8")


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a record file; raises PositionError with a clear message when it is unreadable."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise PositionError("record.cannot_read", path=str(path),
                            problem=str(e.strerror or e)) from None
    except UnicodeDecodeError:
        raise PositionError("record.not_text", path=str(path)) from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:  # JSONDecodeError is a ValueError
        raise PositionError("record.not_json", path=str(path), problem=str(e)) from None
    if not isinstance(data, Mapping):
        raise PositionError("record.not_object", path=str(path))
    return dict(data)


@dataclass(frozen=True)
class Frame:
    """One step of a replayed hand: the seat that moved and its move (both None for the
    deal), and what each watching seat saw once it was played."""

    seat: int | None
    move: Move | None
    views: Mapping[int, PlayerView]


def replay_hand(match: Match, moves: Iterable[object],
                seats: Iterable[int] = ()) -> Iterator[Frame]:
    """Play recorded ``moves`` (``[seat, text]`` pairs, or ``(seat, Move)``) on in the current
    hand of ``match``, yielding the frame of where it stands first and then one frame per move,
    each with the views of ``seats`` (``view_of``: no card hidden from them).  A move that is
    malformed or not legal raises PositionError naming it ("move 3 (draw): ...") and is not
    played."""
    watching = tuple(seats)

    def frame(seat: int | None, move: Move | None) -> Frame:
        return Frame(seat, move, {s: view_of(match.state, s) for s in watching})

    yield frame(None, None)
    for i, entry in enumerate(moves, 1):
        if (not isinstance(entry, list | tuple) or len(entry) != 2
                or not isinstance(entry[0], int) or isinstance(entry[0], bool)
                or not isinstance(entry[1], str | Move)):
            raise PositionError("record.move_shape", move=i)
        seat, move = entry
        if match.state.result is not None:
            raise PositionError("record.move_over", move=i)
        try:
            played = match.apply(move, seat)
        except CanastaError as e:
            raise PositionError("record.move_refused", move=i, text=str(move), reason=e) from None
        yield frame(seat, played)


def replay(record: Mapping[str, Any], upto: int | None = None) -> Match:
    """Play a record's moves again; raises PositionError when the record is malformed, holds an
    illegal move, or does not reproduce its recorded results.  With ``upto``, the match stops
    once hand ``upto`` is dealt, before its first move."""
    if record.get("format") != FORMAT:
        raise PositionError("record.format", text=FORMAT)
    if record.get("version") != VERSION:
        raise PositionError("record.version", value=repr(record.get("version")))
    rules = Rules.from_json(record.get("rules") or {})
    deals = record.get("deals")
    if deals is not None:
        if not isinstance(deals, list) or not deals:
            raise PositionError("record.deals")
        decks = [cards_from_json(d, PositionError("place.deal", hand=i))
                 for i, d in enumerate(deals, 1)]
        match = Match(rules, deals=decks)
    else:
        seed = record.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise PositionError("record.seed")
        match = Match(rules, seed)
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise PositionError("record.hands")
    for number, hand in enumerate(hands, 1):
        if number > 1:
            if match.state.result is None:
                raise PositionError("record.hand_not_ended", previous=number - 1, hand=number)
            if match.over:
                raise PositionError("record.match_over", hand=number)
            try:
                match.next_hand()
            except IndexError:
                raise PositionError("record.no_deal", hand=number) from None
        if number == upto:
            return match
        moves = hand.get("moves") if isinstance(hand, Mapping) else None
        if not isinstance(moves, list):
            raise PositionError("record.moves", hand=number)
        try:
            for _ in replay_hand(match, moves):
                pass
        except PositionError as e:
            raise PositionError("record.in_hand", hand=number, reason=e) from None
        want = hand.get("result")
        if want is not None and not isinstance(want, Mapping):
            raise PositionError("record.result", hand=number)
        if want is not None and number <= len(match.results):
            _check(number, match.results[number - 1].to_json(), want)
        elif want is not None:  # a result for a hand that has not ended
            _check(number, {"result": None}, {"result": want})
    if upto is not None:
        raise PositionError("record.hands_range", count=len(hands))
    _check(match.hand_number, {"scores": match.scores, "over": match.over,
                               "winner": match.winner}, record)
    return match


@dataclass(frozen=True)
class Rebuilt:
    """A record worked out again from its moves alone (``rebuild``): ``match`` the game its
    moves give and ``record`` its record; ``changes`` what the original stated otherwise, each
    ``(hand, field, stated, replayed)`` (``hand`` None for the match's own fields, the values as
    JSON writes them); ``dropped`` the hands the original went on with after its match had
    ended (they are not in ``record``)."""

    match: Match
    record: dict[str, Any]
    changes: tuple[tuple[int | None, str, str, str], ...]
    dropped: int


def rebuild(record: Mapping[str, Any]) -> Rebuilt:
    """The record as its deals and moves make it: each hand's result and the match's scores,
    end and winner are worked out again, whatever the record stated of them (a server before
    issue 32 could score an ended hand twice when it reloaded a game between two hands).  Raises
    PositionError as ``replay`` does when the moves themselves do not replay."""
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise PositionError("record.hands")
    moves_only = {k: v for k, v in record.items() if k not in ("scores", "over", "winner")}
    moves_only["hands"] = [{"moves": h.get("moves")} if isinstance(h, Mapping) else h
                           for h in hands]
    dropped = 0
    try:
        match = replay(moves_only)
    except PositionError as e:
        if e.code != "record.match_over":
            raise
        keep = int(e.params["hand"]) - 1
        dropped = len(hands) - keep
        moves_only["hands"] = moves_only["hands"][:keep]
        match = replay(moves_only)
    rebuilt = record_of(match)
    changes: list[tuple[int | None, str, str, str]] = []
    for number, (was, now) in enumerate(zip(hands, rebuilt["hands"], strict=False), 1):
        stated = was.get("result") if isinstance(was, Mapping) else None
        found = _difference(now.get("result"), stated, "result")
        if found is not None:
            changes.append((number, found[0], found[2], found[1]))
    for name in ("scores", "over", "winner"):
        if name in record:
            found = _difference(rebuilt[name], record[name], name)
            if found is not None:
                changes.append((None, found[0], found[2], found[1]))
    return Rebuilt(match, rebuilt, tuple(changes), dropped)


def _check(hand: int, got: Mapping[str, Any], record: Mapping[str, Any]) -> None:
    """Raise PositionError at the first field of ``got`` (what the replay gives) that
    ``record`` states otherwise, naming the field and both values; a field the record leaves
    out is not checked."""
    for name, value in got.items():
        if name in record:
            found = _difference(value, record[name], name)
            if found is not None:
                where, replayed, recorded = found
                raise PositionError("record.replays_otherwise", hand=hand,
                                    got=f"'{where}': {replayed}", want=f"'{where}': {recorded}")


def _difference(got: Any, want: Any, where: str) -> tuple[str, str, str] | None:
    """Where the replayed ``got`` and the recorded ``want`` first differ, as JSON tells them
    apart (``1`` is not ``true`` nor ``1.0``): the part of ``where`` (``breakdown[1].melded``)
    and both values there, or None.  Objects with the same keys and lists of objects of the
    same length are compared part by part, anything else whole."""
    if isinstance(got, Mapping) and isinstance(want, Mapping) and set(got) == set(want):
        parts = [(got[key], want[key], f"{where}.{key}") for key in got]
    elif (isinstance(got, list) and isinstance(want, list) and len(got) == len(want)
          and any(isinstance(x, Mapping) for x in got)):
        parts = [(g, w, f"{where}[{i}]") for i, (g, w) in enumerate(zip(got, want, strict=True))]
    elif _json_text(got, sort_keys=True) == _json_text(want, sort_keys=True):
        return None
    else:
        return where, _json_text(got), _json_text(want)
    for part in parts:
        found = _difference(*part)
        if found is not None:
            return found
    return None


def _json_text(value: Any, sort_keys: bool = False) -> str:
    try:
        return json.dumps(value, sort_keys=sort_keys)
    except (TypeError, ValueError, RecursionError):  # not JSON: a record given as objects
        return repr(value)


def hand_moves(record: Mapping[str, Any], hand: int) -> list[Any]:
    """The recorded moves of hand number ``hand`` (from 1) of a record that replays."""
    return list(record["hands"][hand - 1]["moves"])


def format_replay(match: Match) -> str:
    rules = match.rules
    lines = [f"{rules.variant.title}, {rules.players} players, target {rules.target}"]
    totals = [0] * rules.n_sides
    for i, result in enumerate(match.results, 1):
        totals = [a + b for a, b in zip(totals, result.scores, strict=True)]
        how = ("stock exhausted" if result.went_out is None
               else f"seat {result.went_out} went out" + (" concealed" if result.concealed else ""))
        scores = ", ".join(f"{s:+d}" for s in result.scores)
        lines.append(f"hand {i}: {scores}  ({how}); totals {', '.join(map(str, totals))}")
    if match.state.result is None:
        lines.append(f"hand {match.hand_number} in progress "
                     f"({len(match.moves[-1])} moves so far)")
    if match.over:
        lines.append(f"match over: side {match.winner} wins")
    return "\n".join(lines)
