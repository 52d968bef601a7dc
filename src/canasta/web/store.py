"""Where games are kept: SQLite (the standard library's), one row per game.

A row of ``games`` holds the game's options and its record (rules, seed and every move, see
``canasta.records``), so a game survives closing the tab and restarting the server, and every
past game can be replayed move by move.  Beside it, a row of ``summaries`` holds what the games
list and the statistics need (variant, names, scores, hands won...), written in the same
transaction as the record: listing 2,000 games then reads a few hundred kilobytes instead of
parsing every record.  A database written before ``summaries`` existed gets them filled from
its records once (``fill_summaries``, which the server runs in a worker thread as it starts).

A stored row is bounded (``MAX_RECORD`` characters, ``MAX_DEPTH`` levels of nesting) when it
is written and when it is read: a row that breaks the bounds, or that SQLite cannot read (a
damaged page), is reported as unreadable and never stops the other games from being listed.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import math
import os
import re
import sqlite3
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from canasta.errors import CanastaError
from canasta.variants import get_variant, variant_names
from canasta.web.names import printable_name

log = logging.getLogger("canasta.web")

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    config TEXT NOT NULL,
    record TEXT NOT NULL,
    over INTEGER NOT NULL DEFAULT 0,
    winner INTEGER
);
CREATE INDEX IF NOT EXISTS games_updated ON games (updated);
CREATE TABLE IF NOT EXISTS summaries (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    problem TEXT,
    variant TEXT,
    players INTEGER,
    target INTEGER,
    name TEXT,
    levels TEXT,
    hands INTEGER NOT NULL DEFAULT 0,
    scores TEXT,
    over INTEGER NOT NULL DEFAULT 0,
    winner INTEGER,
    played INTEGER NOT NULL DEFAULT 0,
    hands_scored INTEGER NOT NULL DEFAULT 0,
    hands_won INTEGER NOT NULL DEFAULT 0,
    hand_points INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS summaries_recent ON summaries (updated DESC, id DESC);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    data TEXT NOT NULL,
    game TEXT
);
CREATE INDEX IF NOT EXISTS tables_game ON tables (game);
CREATE TABLE IF NOT EXISTS seatings (
    game TEXT NOT NULL,
    seat INTEGER NOT NULL,
    person TEXT NOT NULL,
    side INTEGER NOT NULL,
    played INTEGER NOT NULL DEFAULT 0,
    over INTEGER NOT NULL DEFAULT 0,
    won INTEGER NOT NULL DEFAULT 0,
    hands_scored INTEGER NOT NULL DEFAULT 0,
    hands_won INTEGER NOT NULL DEFAULT 0,
    hand_points INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, seat)
);
CREATE INDEX IF NOT EXISTS seatings_person ON seatings (person);
CREATE TABLE IF NOT EXISTS repairs (
    game TEXT NOT NULL,
    repaired REAL NOT NULL,
    record TEXT NOT NULL,
    why TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS repairs_game ON repairs (game);
"""
#: ``tables``: the tables with friends (canasta.web.tables), ``data`` their seats and the hashes
#: of their links' keys (never a key), ``game`` the match once started.  A database of a server
#: from before the tables gets the empty table as it opens; its games are left as they are.
TABLES_COLUMNS = ("id", "created", "updated", "data", "game")
#: ``seatings``: which person played which seat of a game (``person`` an opaque value the server
#: makes, the hash of a device key: never a key), and that seat's side's record in it, kept up
#: to date with every write of the game; the statistics and the games list of one person read
#: them (``person_stats``, ``person_page``).  A table's match has one row per person's seat.
SEATINGS_COLUMNS = ("game", "seat", "person", "side", "played", "over", "won",
                    "hands_scored", "hands_won", "hand_points")
SIDE_COLUMNS = ("played", "over", "won", "hands_scored", "hands_won", "hand_points")
#: ``repairs``: a game's record as it was stored before the server repaired it (``record``, the
#: text it had) and why (``why``), kept when a record whose scores did not match its own moves was
#: worked out again from them (``Store.repair``): nothing a damaged row held is lost.
MAX_TABLE = 16 * 1024  # characters; a table of six takes about 1,500
#: ``problem`` is NULL for a readable game, else why its stored row cannot be read.  ``played``:
#: some move was made; ``hands_scored``, ``hands_won``, ``hand_points``: seat 0's side over the
#: hands with a readable score (the statistics add them up).
SUMMARY_COLUMNS = ("variant", "players", "target", "name", "levels", "hands", "scores", "over",
                   "winner", "played", "hands_scored", "hands_won", "hand_points")
GAMES_COLUMNS = ("id", "created", "updated", "config", "record", "over", "winner")
#: ``owner`` (of ``games`` and of ``summaries``): the SHA-256 of the key of the device whose game
#: it is (canasta.web.devices), NULL for a game of a database from before the devices, until a
#: device adopts it.  Added to an older database as it opens (``_add_owners``).
GAME_ROW = (*GAMES_COLUMNS, "owner")

MAX_RECORD = 2 * 1024 * 1024  # characters; the longest games measured store about 25,000
MAX_CONFIG = 16 * 1024  # characters; a game's options take about 150
MAX_DEPTH = 16  # levels of nesting; a record has 6
PAGE_LIMIT = 200  # games in one page of the list, at most
FILL_BATCH = 100  # summaries filled per transaction when an older database is opened


def default_db_path() -> Path:
    """The user's data folder: $XDG_DATA_HOME/canasta (or ~/.local/share/canasta)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "canasta" / "games.sqlite3"


class StoreOpenError(Exception):
    """The games database cannot be opened or written; the message says which path and why."""


class UnreadableGame(CanastaError):
    """A stored game whose row cannot be read (a ``store.*`` code says why); ``config`` holds
    its options when they at least could be read."""

    def __init__(self, code: str, config: dict[str, Any] | None = None, /,
                 **params: Any) -> None:
        super().__init__(code, **params)
        self.config = config
        self.owner: str | None = None  # whose game it is, when its row says so


class WriteRefused(Exception):
    """A write the store refuses (a record beyond the bounds, a game no longer stored)."""


@dataclass(frozen=True)
class StoredGame:
    id: str
    created: float
    updated: float
    config: dict[str, Any]
    record: dict[str, Any]
    over: bool
    winner: int | None
    owner: str | None = None  # the hash of its device's key (None: nobody's yet)


@dataclass
class Page:
    """One page of the games list: ``games`` (summaries, the most recently played first),
    ``next`` (the cursor of the following page, or None), ``unreadable`` (rows skipped)."""

    games: list[dict[str, Any]] = field(default_factory=list)
    next: str | None = None
    unreadable: int = 0


# --- bounds ------------------------------------------------------------------------------------
_BRACKETS_AND_QUOTES = b'[]{}"'
_ALL_BUT = bytes(b for b in range(256) if b not in _BRACKETS_AND_QUOTES)
_ESCAPE = re.compile(rb"\\.", re.DOTALL)
_INNERMOST = re.compile(rb"\[\]|\{\}")


def nested_deeper_than(text: str, limit: int) -> bool:
    """Whether the JSON ``text`` nests arrays and objects more than ``limit`` deep, judged from
    its brackets alone (those inside strings left out): a few passes over a short skeleton,
    where walking a parsed 30 kB record costs milliseconds, and nothing is parsed at all
    before a text too deep to parse is refused.  Unbalanced brackets are left for the JSON
    parser to refuse.

    >>> nested_deeper_than('{"hands": [{"moves": [[0, "draw"]]}]}', 4)
    True
    >>> nested_deeper_than('{"name": "[[[[[["}', 1)  # brackets in a string do not count
    False
    """
    raw = text.encode("utf-8", "surrogatepass")
    if b"\\" in raw:
        raw = _ESCAPE.sub(b"", raw)  # an escaped quote does not end a string
    skeleton = b"".join(raw.translate(None, _ALL_BUT).split(b'"')[0::2])
    for _ in range(limit):
        if not skeleton:
            return False
        inner = _INNERMOST.sub(b"", skeleton)  # one level: the pairs innermost now
        if inner == skeleton:
            return False
        skeleton = inner
    return bool(skeleton)


def decode(text: object, limit: int) -> dict[str, Any]:
    """A stored JSON object, within the bounds (UnreadableGame says what is wrong)."""
    if not isinstance(text, str):
        raise UnreadableGame("store.not_text")
    if len(text) > limit:
        raise UnreadableGame("store.too_long", most=limit)
    if nested_deeper_than(text, MAX_DEPTH):
        raise UnreadableGame("store.too_deep", most=MAX_DEPTH)
    try:
        value = json.loads(text)
    except RecursionError:  # (unbalanced brackets the skeleton could not measure)
        raise UnreadableGame("store.too_deep", most=MAX_DEPTH) from None
    except ValueError:
        raise UnreadableGame("store.not_json") from None
    if not isinstance(value, dict):
        raise UnreadableGame("store.not_object")
    return value


def encode(value: Mapping[str, Any], limit: int) -> str:
    """``value`` as stored text, refused (WriteRefused) beyond the bounds ``decode`` applies,
    so that the store never keeps what it could not read back."""
    try:
        text = json.dumps(value)
    except RecursionError:
        raise WriteRefused(f"the game is nested more than {MAX_DEPTH} levels deep") from None
    if len(text) > limit:
        raise WriteRefused(f"the game is longer than {limit} characters")
    if nested_deeper_than(text, MAX_DEPTH):
        raise WriteRefused(f"the game is nested more than {MAX_DEPTH} levels deep")
    return text


# --- what the list and the statistics need ------------------------------------------------------
def _int(value: object) -> int | None:
    """A whole number as a game stores one (bounded, so that no sum overflows SQLite's)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**12:
        return value
    return None


def _text(value: object) -> str | None:
    """A stored text UTF-8 can carry (an older row may hold a lone surrogate), or None."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
            return value
        except UnicodeEncodeError:
            return None
    return None


def _ints(value: object) -> list[int] | None:
    if isinstance(value, list) and value and all(_int(x) is not None for x in value):
        return list(value)
    return None


def _hands(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    hands_obj = record.get("hands")
    return [h for h in hands_obj if isinstance(h, dict)] if isinstance(hands_obj, list) else []


def side_record(record: Mapping[str, Any], side: int) -> dict[str, int]:
    """``side``'s record in a game (``SIDE_COLUMNS``): whether a move was made, whether the
    match is over and ``side`` won it, and the hands with a readable score it scored, won
    (more than every other side) and the points it made in them."""
    hands = _hands(record)
    scored = [s for s in (_hand_score(h) for h in hands) if s is not None and side < len(s)]
    over = bool(record.get("over"))
    return {"played": int(any(h.get("moves") for h in hands)), "over": int(over),
            "won": int(over and _int(record.get("winner")) == side),
            "hands_scored": len(scored),
            "hands_won": sum(1 for s in scored
                             if all(s[side] > x for i, x in enumerate(s) if i != side)),
            "hand_points": sum(s[side] for s in scored)}


def side_of(config: Mapping[str, Any], seat: int) -> int:
    """The side of ``seat`` in a game of these options (ValueError when they name no table)."""
    variant, players = config.get("variant"), config.get("players")
    if not isinstance(variant, str) or variant not in variant_names() \
            or not isinstance(players, int) or not 0 <= seat < players:
        raise ValueError(f"no seat {seat} in a game of {variant!r} for {players!r}")
    return seat % get_variant(variant).n_sides(players)


def summarize(config: Mapping[str, Any], record: Mapping[str, Any]) -> dict[str, Any]:
    """The summary columns of a game (values of the wrong type are left out as NULL)."""
    hands = _hands(record)
    side0 = side_record(record, 0)
    name = config.get("name")
    levels = config.get("levels")
    variant = config.get("variant")
    scores = _ints(record.get("scores"))
    over = bool(record.get("over"))
    return {
        "variant": _text(variant),
        "players": _int(config.get("players")),
        "target": _int(config.get("target")),
        "name": printable_name(name) if isinstance(name, str) else None,
        "levels": json.dumps(levels) if isinstance(levels, list)
        and all(_text(x) is not None for x in levels) else None,
        "hands": sum(1 for h in hands if h.get("result")),
        "scores": json.dumps(scores) if scores is not None else None,
        "over": int(over),
        "winner": _int(record.get("winner")),
        "played": side0["played"],
        "hands_scored": side0["hands_scored"],
        "hands_won": side0["hands_won"],
        "hand_points": side0["hand_points"],
    }


def _hand_score(hand: Mapping[str, Any]) -> list[int] | None:
    """A stored hand's score per side, when it has a readable one."""
    result = hand.get("result")
    return _ints(result.get("hand_score")) if isinstance(result, dict) else None


def _listed(row: sqlite3.Row) -> dict[str, Any]:
    """A summaries row as the list shows it (ValueError or TypeError when it is damaged)."""
    levels = json.loads(row["levels"]) if row["levels"] is not None else None
    scores = json.loads(row["scores"]) if row["scores"] is not None else None
    if not (levels is None or isinstance(levels, list)) or \
            not (scores is None or isinstance(scores, list)):
        raise ValueError("a damaged summary")
    return {"id": str(row["id"]), "created": float(row["created"]),
            "updated": float(row["updated"]), "variant": row["variant"],
            "players": row["players"], "target": row["target"], "name": row["name"],
            "levels": levels, "hands": int(row["hands"]), "scores": scores,
            "over": bool(row["over"]), "winner": row["winner"]}


def summary_of(stored: StoredGame) -> dict[str, Any]:
    """The list's summary of one stored game, made from its record."""
    s = summarize(stored.config, stored.record)
    return {"id": stored.id, "created": stored.created, "updated": stored.updated,
            "variant": s["variant"], "players": s["players"], "target": s["target"],
            "name": s["name"], "levels": json.loads(s["levels"]) if s["levels"] else None,
            "hands": s["hands"], "scores": json.loads(s["scores"]) if s["scores"] else None,
            "over": stored.over, "winner": stored.winner}


# --- the list's cursor --------------------------------------------------------------------------
def make_cursor(updated: float, game_id: str) -> str:
    """An opaque cursor: the (updated, id) of the last game of a page, exactly."""
    raw = json.dumps([updated, game_id]).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def read_cursor(text: str) -> tuple[float, str]:
    """The (updated, id) of a cursor ``make_cursor`` made; ValueError for anything else."""
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        value = json.loads(raw) if len(raw) <= 1024 else None
    except (binascii.Error, ValueError):
        value = None
    if (not isinstance(value, list) or len(value) != 2 or not isinstance(value[1], str)
            or not isinstance(value[0], int | float) or isinstance(value[0], bool)
            or not math.isfinite(value[0])):
        raise CanastaError("protocol.bad_cursor")
    return float(value[0]), value[1]


# --- the store ------------------------------------------------------------------------------------
class Store:
    """The games database.  Safe to use from the server's threads (one lock, short writes).

    Writes raise ``sqlite3.Error`` when SQLite cannot write (a full disk: "database or disk
    is full") and ``WriteRefused`` beyond the bounds; a failed write changes nothing.  Opening
    raises ``StoreOpenError`` with one line saying what is wrong with which path."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._reported: set[str] = set()  # the unreadable games already logged
        self._closed = False
        self._db = _open(self.path)

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                yield self._db
                self._db.commit()
            except BaseException:
                self._db.rollback()
                raise

    # --- writing ----------------------------------------------------------------------------
    def create(self, game_id: str, config: dict[str, Any], record: dict[str, Any],
               owner: str | None = None) -> None:
        """A new game, ``owner``'s (the hash of its device's key)."""
        config_text, record_text = encode(config, MAX_CONFIG), encode(record, MAX_RECORD)
        now = time.time()
        with self._tx() as db:
            db.execute("INSERT INTO games (id, created, updated, config, record, over, winner, "
                       "owner) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (game_id, now, now, config_text, record_text,
                        int(bool(record.get("over"))), _int(record.get("winner")), owner))
            _write_summary(db, game_id, now, now, summarize(config, record), owner)
            _write_seatings(db, game_id, record)

    def adopt(self, owner: str) -> int:
        """Give every game of one person that belongs to nobody (those of a database from
        before the devices) to ``owner``; how many games it got.  A table's match that is
        nobody's (its host sent no device key) stays nobody's: it was never this machine's
        player's alone (docs/PROTOCOL.md, "Devices")."""
        alone = "owner IS NULL AND id NOT IN (SELECT game FROM tables WHERE game IS NOT NULL)"
        with self._tx() as db:
            done = db.execute(f"UPDATE games SET owner = ? WHERE {alone}", (owner,))
            db.execute(f"UPDATE summaries SET owner = ? WHERE {alone}", (owner,))
            return int(done.rowcount)

    def save(self, game_id: str, config: dict[str, Any], record: dict[str, Any]) -> None:
        with self._tx() as db:
            _save(db, game_id, config, record)

    def repair(self, game_id: str, config: dict[str, Any], record: dict[str, Any],
               why: str) -> None:
        """Store ``record`` as the game's record in place of the one it has (in one
        transaction, its summary and seatings too), keeping the one it replaces in
        ``repairs`` with ``why``."""
        with self._tx() as db:
            row = db.execute("SELECT record FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise WriteRefused(f"the game {game_id!r} is no longer in the database")
            db.execute("INSERT INTO repairs (game, repaired, record, why) VALUES (?, ?, ?, ?)",
                       (game_id, time.time(), row[0], why))
            _save(db, game_id, config, record)

    def repairs(self, game_id: str) -> list[tuple[str, str]]:
        """The records ``game_id`` had before each repair, oldest first, with why."""
        with self._lock:
            rows = self._db.execute("SELECT record, why FROM repairs WHERE game = ? "
                                    "ORDER BY repaired", (game_id,)).fetchall()
        return [(str(r[0]), str(r[1])) for r in rows]

    def seat_people(self, game_id: str, people: Mapping[int, str]) -> None:
        """Record that the person ``people[seat]`` (an opaque value: the hash of a device key)
        plays ``seat`` of the stored game ``game_id``, so that the game is in that person's
        statistics and games list (WriteRefused when the game is not stored or has no such
        seat)."""
        with self._tx() as db:
            row = db.execute("SELECT config, record FROM games WHERE id = ?",
                             (game_id,)).fetchone()
            if row is None:
                raise WriteRefused(f"the game {game_id!r} is no longer in the database")
            try:
                config, record = decode(row[0], MAX_CONFIG), decode(row[1], MAX_RECORD)
                sides = {seat: side_of(config, seat) for seat in people}
            except (UnreadableGame, ValueError) as e:
                raise WriteRefused(f"the game {game_id!r} has no such seats: {e}") from None
            for seat, person in people.items():
                columns = side_record(record, sides[seat])
                db.execute(f"INSERT OR REPLACE INTO seatings ({', '.join(SEATINGS_COLUMNS)}) "
                           f"VALUES ({', '.join('?' for _ in SEATINGS_COLUMNS)})",
                           (game_id, seat, person, sides[seat],
                            *(columns[c] for c in SIDE_COLUMNS)))

    def create_table(self, table_id: str, data: dict[str, Any]) -> None:
        text = encode(data, MAX_TABLE)
        now = time.time()
        with self._tx() as db:
            db.execute("INSERT INTO tables (id, created, updated, data, game) "
                       "VALUES (?, ?, ?, ?, ?)", (table_id, now, now, text, data.get("game")))

    def save_table(self, table_id: str, data: dict[str, Any]) -> None:
        text = encode(data, MAX_TABLE)
        with self._tx() as db:
            done = db.execute("UPDATE tables SET updated = ?, data = ?, game = ? WHERE id = ?",
                              (time.time(), text, data.get("game"), table_id))
            if done.rowcount != 1:
                raise WriteRefused(f"the table {table_id!r} is no longer in the database")

    def load_table(self, table_id: str) -> dict[str, Any] | None:
        """A stored table's data, or None; raises UnreadableGame when its row cannot be
        read."""
        try:
            with self._lock:
                row = self._db.execute("SELECT data FROM tables WHERE id = ?",
                                       (table_id,)).fetchone()
        except sqlite3.DatabaseError as e:
            raise UnreadableGame("store.db_cannot_read", problem=str(e)) from None
        return decode(row[0], MAX_TABLE) if row is not None else None

    def table_of_game(self, game_id: str) -> tuple[str, dict[str, Any]] | None:
        """The id and data of the table whose match ``game_id`` is (None for a game of one
        person); raises UnreadableGame when its row cannot be read."""
        try:
            with self._lock:
                row = self._db.execute("SELECT id, data FROM tables WHERE game = ?",
                                       (game_id,)).fetchone()
        except sqlite3.DatabaseError as e:
            raise UnreadableGame("store.db_cannot_read_table", problem=str(e)) from None
        return (str(row[0]), decode(row[1], MAX_TABLE)) if row is not None else None

    # --- reading -----------------------------------------------------------------------------
    def load(self, game_id: str) -> StoredGame | None:
        """A stored game, or None; raises UnreadableGame when its row cannot be read."""
        try:
            with self._lock:
                row = self._db.execute(f"SELECT {', '.join(GAME_ROW)} FROM games "
                                       "WHERE id = ?", (game_id,)).fetchone()
        except sqlite3.DatabaseError as e:
            unreadable = UnreadableGame("store.db_cannot_read", problem=str(e))
            unreadable.owner = self._summary_owner(game_id)
            raise unreadable from None
        return _stored(row) if row is not None else None

    def _summary_owner(self, game_id: str) -> str | None:
        """Whose game ``game_id`` is, as its summary says (for a game whose own row the
        database cannot read: the summaries are another table, most often still readable)."""
        try:
            with self._lock:
                row = self._db.execute("SELECT owner FROM summaries WHERE id = ?",
                                       (game_id,)).fetchone()
        except sqlite3.DatabaseError:
            return None
        return row[0] if row is not None and isinstance(row[0], str) else None

    def page(self, limit: int, before: tuple[float, str] | None = None, *,
             owner: str) -> Page:
        """The ``limit`` most recently played games of ``owner`` before the cursor ``before``
        (the (updated, id) of the previous page's last game).  Rows that cannot be read are
        skipped and counted, each one logged once."""
        out = Page()
        cursor = before
        while len(out.games) < limit:
            keys = self._keys(owner, cursor, limit - len(out.games))
            if not keys:
                self._mark_tables(out.games)
                return out
            for rowid, updated, game_id in keys:
                cursor = (updated, game_id)
                listed = self._listed_row(rowid, game_id)
                if listed is None:
                    out.unreadable += 1
                else:
                    out.games.append(listed)
        if cursor is not None and self._keys(owner, cursor, 1):
            out.next = make_cursor(*cursor)
        self._mark_tables(out.games)
        return out

    def _mark_tables(self, games: list[dict[str, Any]]) -> None:
        """Give each listed game that is a table's match its table's id (``table``; None for a
        game of one person): it is played and replayed through the table's links."""
        ids = [g["id"] for g in games]
        found: dict[str, str] = {}
        if ids:
            marks = ", ".join("?" for _ in ids)
            try:
                with self._lock:
                    found = {str(r[0]): str(r[1]) for r in self._db.execute(
                        f"SELECT game, id FROM tables WHERE game IN ({marks})", ids)}
            except sqlite3.DatabaseError as e:
                log.warning("the tables of the games list cannot be read (%s)", e)
        for g in games:
            g["table"] = found.get(g["id"])

    def stats(self, owner: str) -> dict[str, Any]:
        """Seat 0's record over every readable game of one person of ``owner`` in which a move
        was made.  A table's match (one with seatings: its host's device owns it) is left out:
        it counts in each person's ``person_stats``, for their own side, and once."""
        alone = "AND id NOT IN (SELECT game FROM seatings)"
        query = ("SELECT COUNT(*), SUM(over), SUM(over AND winner = 0), SUM(hands_scored), "
                 "SUM(hands_won), SUM(hand_points) FROM summaries "
                 f"WHERE owner = ? AND problem IS NULL AND played {alone}")
        try:
            with self._lock:
                totals = self._db.execute(query, (owner,)).fetchone()
                unreadable = self._db.execute(f"SELECT COUNT(*) FROM summaries WHERE owner = ? "
                                              f"AND problem IS NOT NULL {alone}",
                                              (owner,)).fetchone()[0]
            games, finished, won, hands, hands_won, points = (int(x or 0) for x in totals)
        except sqlite3.DatabaseError as e:  # a damaged page: add up the rows still readable
            log.warning("the statistics skip what the database cannot read (%s)", e)
            games = finished = won = hands = hands_won = points = unreadable = 0
            for rowid, _updated, game_id in self._every_key(owner):
                row = self._row(rowid, "SELECT problem, played, over, winner, hands_scored, "
                                       "hands_won, hand_points FROM summaries WHERE rowid = ?")
                if row is None or row[0] is not None:
                    unreadable += 1
                    self._report(game_id, "its summary cannot be read" if row is None else row[0])
                    continue
                if not row[1]:
                    continue
                games += 1
                finished += bool(row[2])
                won += bool(row[2]) and row[3] == 0
                hands, hands_won, points = hands + row[4], hands_won + row[5], points + row[6]
        return {"games": games, "games_finished": finished, "games_won": won,
                "hands": hands, "hands_won": hands_won,
                "average_hand_score": round(points / hands, 1) if hands else None,
                "unreadable": unreadable}

    def person_stats(self, person: str) -> dict[str, Any]:
        """``stats`` for one person: over the games they played a seat of (the seatings'
        rows), each counted for their seat's side."""
        query = ("SELECT COUNT(*), SUM(p.over), SUM(p.won), SUM(p.hands_scored), "
                 "SUM(p.hands_won), SUM(p.hand_points) FROM seatings p JOIN summaries s "
                 "ON s.id = p.game WHERE p.person = ? AND s.problem IS NULL AND p.played")
        try:
            with self._lock:
                totals = self._db.execute(query, (person,)).fetchone()
                unreadable = self._db.execute(
                    "SELECT COUNT(*) FROM seatings p JOIN summaries s ON s.id = p.game "
                    "WHERE p.person = ? AND s.problem IS NOT NULL", (person,)).fetchone()[0]
            games, finished, won, hands, hands_won, points = (int(x or 0) for x in totals)
        except sqlite3.DatabaseError as e:
            log.warning("a person's statistics cannot be read (%s)", e)
            games = finished = won = hands = hands_won = points = unreadable = 0
        return {"games": games, "games_finished": finished, "games_won": won,
                "hands": hands, "hands_won": hands_won,
                "average_hand_score": round(points / hands, 1) if hands else None,
                "unreadable": int(unreadable)}

    def person_page(self, person: str, limit: int,
                    before: tuple[float, str] | None = None) -> Page:
        """``page`` for one person: the games they played a seat of, each with ``seat``
        (theirs) and ``table``; the ``winner`` and ``scores`` are the game's, by side."""
        out = Page()
        where, args = ("AND (s.updated, s.id) < (?, ?)", before) if before else ("", ())
        query = (f"SELECT s.id, s.created, s.updated, s.problem, p.seat, "
                 f"{', '.join('s.' + c for c in SUMMARY_COLUMNS)} FROM seatings p "
                 f"JOIN summaries s ON s.id = p.game WHERE p.person = ? {where} "
                 "ORDER BY s.updated DESC, s.id DESC LIMIT ?")
        try:
            with self._lock:
                rows = self._db.execute(query, (person, *args, limit + 1)).fetchall()
        except sqlite3.DatabaseError as e:
            log.warning("a person's games cannot be read (%s)", e)
            return out
        for row in rows[:limit]:
            if row["problem"] is not None:
                self._report(str(row["id"]), row["problem"])
                out.unreadable += 1
                continue
            try:
                listed = _listed(row)
            except (ValueError, TypeError, RecursionError):
                self._report(str(row["id"]), "its summary is damaged")
                out.unreadable += 1
                continue
            out.games.append({**listed, "seat": int(row["seat"])})
        if len(rows) > limit:
            last = rows[limit - 1]
            out.next = make_cursor(float(last["updated"]), str(last["id"]))
        self._mark_tables(out.games)
        return out

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._db.close()

    # --- reading, row by row -------------------------------------------------------------------
    def _keys(self, owner: str, before: tuple[float, str] | None,
              n: int) -> list[tuple[int, float, str]]:
        """The next ``n`` (rowid, updated, id) of ``owner``'s list after ``before``, from the
        index alone (or, when the index is damaged, from whatever rows the table still
        gives)."""
        where, args = ("AND (updated, id) < (?, ?)", before) if before else ("", ())
        try:
            with self._lock:
                return [(int(r[0]), float(r[1]), str(r[2])) for r in self._db.execute(
                    f"SELECT rowid, updated, id FROM summaries WHERE owner = ? {where} "
                    "ORDER BY updated DESC, id DESC LIMIT ?", (owner, *args, n))]
        except sqlite3.DatabaseError as e:
            log.warning("the games list's index cannot be read (%s): reading the table", e)
            keys = [k for k in self._all_keys(owner)
                    if before is None or (k[1], k[2]) < before]
            return keys[:n]

    def _every_key(self, owner: str) -> Iterator[tuple[int, float, str]]:
        """Every (rowid, updated, id) of ``owner``'s list, as ``_keys`` gives them, page by
        page."""
        before = None
        while keys := self._keys(owner, before, 500):
            yield from keys
            before = keys[-1][1], keys[-1][2]

    def _all_keys(self, owner: str) -> list[tuple[int, float, str]]:
        """Every (rowid, updated, id) of ``owner`` the summaries table still gives, most
        recent first, read in rowid order past what a damaged page hides as far as SQLite
        allows."""
        keys: list[tuple[int, float, str]] = []
        last = -(2**63)
        with self._lock:
            while True:
                try:
                    rows = self._db.execute(
                        "SELECT rowid, updated, id, owner FROM summaries NOT INDEXED "
                        "WHERE rowid > ? ORDER BY rowid LIMIT 500", (last,)).fetchall()
                except sqlite3.DatabaseError:
                    break
                if not rows:
                    break
                keys.extend((int(r[0]), float(r[1]), str(r[2])) for r in rows
                            if r[3] == owner)
                last = int(rows[-1][0])
        keys.sort(key=lambda k: (k[1], k[2]), reverse=True)
        return keys

    def _row(self, rowid: int, query: str) -> sqlite3.Row | None:
        try:
            with self._lock:
                row: sqlite3.Row | None = self._db.execute(query, (rowid,)).fetchone()
            return row
        except sqlite3.DatabaseError:
            return None

    def _listed_row(self, rowid: int, game_id: str) -> dict[str, Any] | None:
        row = self._row(rowid, f"SELECT id, created, updated, problem, "
                               f"{', '.join(SUMMARY_COLUMNS)} FROM summaries WHERE rowid = ?")
        if row is None:
            self._report(game_id, "the database cannot read its summary")
            return None
        if row["problem"] is not None:
            self._report(game_id, row["problem"])
            return None
        try:
            return _listed(row)
        except (ValueError, TypeError, RecursionError):
            self._report(game_id, "its summary is damaged")
            return None

    def _report(self, game_id: str, problem: str) -> None:
        if game_id not in self._reported:
            self._reported.add(game_id)
            log.warning("the stored game %s is left out of the list: %s", game_id, problem)

    # --- a database written before the summaries --------------------------------------------------
    def fill_summaries(self) -> int:
        """Write the summary of every stored game that has none (a database from before the
        summaries existed) from its record, once; what cannot be read is marked so.  The
        number of games summarized.  Other calls go on meanwhile (the lock is taken one
        batch at a time); closing the store stops it between two batches."""
        try:
            with self._lock:
                missing = [int(r[0]) for r in self._db.execute(
                    "SELECT rowid FROM games g WHERE NOT EXISTS "
                    "(SELECT 1 FROM summaries s WHERE s.id = g.id)")]
        except sqlite3.DatabaseError as e:
            log.warning("%s: the games table is damaged (%s): its games may be missing from "
                        "the list", self.path, e)
            return 0
        started = time.monotonic()
        for i in range(0, len(missing), FILL_BATCH):
            with self._lock:
                if self._closed:
                    return i
                try:
                    for rowid in missing[i:i + FILL_BATCH]:
                        _fill_one(self._db, rowid)
                    self._db.commit()
                except BaseException:
                    self._db.rollback()
                    raise
        if missing:
            log.info("%s: the games list of %d stored games was built in %.1f s", self.path,
                     len(missing), time.monotonic() - started)
        return len(missing)


def _fill_one(db: sqlite3.Connection, rowid: int) -> None:
    try:
        row = db.execute(f"SELECT {', '.join(GAME_ROW)} FROM games WHERE rowid = ?",
                         (rowid,)).fetchone()
    except sqlite3.DatabaseError as e:
        try:  # the record is out of reach, but the row's start may still say which game
            head = db.execute("SELECT id, created, updated, owner FROM games WHERE rowid = ?",
                              (rowid,)).fetchone()
        except sqlite3.DatabaseError:
            log.warning("a stored game cannot be read at all (%s): it is left out", e)
            return
        _write_problem(db, head, f"the database cannot read it ({e})")
        return
    try:
        stored = _stored(row)
    except UnreadableGame as e:
        _write_problem(db, row, str(e))
        return
    try:
        columns = summarize(stored.config, stored.record)
    except Exception:  # one odd row must not stop the server from starting
        log.exception("the stored game %s cannot be summarized", stored.id)
        _write_problem(db, row, "its summary cannot be made")
        return
    _write_summary(db, stored.id, stored.created, stored.updated, columns, stored.owner)


def _save(db: sqlite3.Connection, game_id: str, config: dict[str, Any],
          record: dict[str, Any]) -> None:
    """Write a stored game's options and record (and its summary and seatings)."""
    config_text, record_text = encode(config, MAX_CONFIG), encode(record, MAX_RECORD)
    now = time.time()
    row = db.execute("SELECT created, owner FROM games WHERE id = ?",
                     (game_id,)).fetchone()
    if row is None:
        raise WriteRefused(f"the game {game_id!r} is no longer in the database")
    db.execute("UPDATE games SET updated = ?, config = ?, record = ?, over = ?, "
               "winner = ? WHERE id = ?",
               (now, config_text, record_text, int(bool(record.get("over"))),
                _int(record.get("winner")), game_id))
    _write_summary(db, game_id, row[0], now, summarize(config, record), row[1])
    _write_seatings(db, game_id, record)


def _write_summary(db: sqlite3.Connection, game_id: str, created: float, updated: float,
                   columns: Mapping[str, Any], owner: str | None) -> None:
    names = ", ".join(SUMMARY_COLUMNS)
    marks = ", ".join("?" for _ in SUMMARY_COLUMNS)
    db.execute(f"INSERT OR REPLACE INTO summaries (id, created, updated, problem, owner, "
               f"{names}) VALUES (?, ?, ?, NULL, ?, {marks})",
               (game_id, created, updated, owner, *(columns[c] for c in SUMMARY_COLUMNS)))


def _write_seatings(db: sqlite3.Connection, game_id: str, record: Mapping[str, Any]) -> None:
    """Bring the seatings of a game (when it has any) up to date with its record."""
    for seat, side in db.execute("SELECT seat, side FROM seatings WHERE game = ?",
                                 (game_id,)).fetchall():
        columns = side_record(record, int(side))
        db.execute(f"UPDATE seatings SET {', '.join(c + ' = ?' for c in SIDE_COLUMNS)} "
                   "WHERE game = ? AND seat = ?",
                   (*(columns[c] for c in SIDE_COLUMNS), game_id, seat))


def _write_problem(db: sqlite3.Connection, head: Any, problem: str) -> None:
    """A summary saying why the game ``head`` (its row's id, created, updated... owner last)
    cannot be read."""
    game_id, created, updated, owner = head[0], head[1], head[2], head[-1]
    if not isinstance(game_id, str):
        return
    created = created if isinstance(created, float | int) else 0.0
    updated = updated if isinstance(updated, float | int) else created
    db.execute("INSERT OR REPLACE INTO summaries (id, created, updated, problem, owner) "
               "VALUES (?, ?, ?, ?, ?)", (game_id, created, updated, problem,
                                          owner if isinstance(owner, str) else None))


def _stored(row: tuple[Any, ...]) -> StoredGame:
    """A games row (``GAME_ROW``), read within the bounds (UnreadableGame otherwise, saying
    whose game it is)."""
    owner = row[7] if isinstance(row[7], str) else None
    try:
        config = decode(row[3], MAX_CONFIG)
    except UnreadableGame as e:
        e.owner = owner
        raise
    try:
        record = decode(row[4], MAX_RECORD)
    except UnreadableGame as e:
        unreadable = UnreadableGame(e.code, config, **e.params)
        unreadable.owner = owner
        raise unreadable from None
    created = row[1] if isinstance(row[1], float | int) else 0.0
    updated = row[2] if isinstance(row[2], float | int) else created
    return StoredGame(str(row[0]), float(created), float(updated), config, record,
                      bool(row[5]), _int(row[6]), owner)


# --- opening -------------------------------------------------------------------------------------
def _open(path: str) -> sqlite3.Connection:
    """The database at ``path``, created when missing, checked to be usable: readable, a
    SQLite database with canasta's tables (made if missing), and writable."""
    if path != ":memory:":
        where = Path(path)
        if where.is_dir():
            raise StoreOpenError(f"{path} is a folder, not a database file")
        try:
            where.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StoreOpenError(f"cannot create the folder {where.parent} for the games "
                                 f"database {path}: {e.strerror or e}") from None
    db: sqlite3.Connection | None = None
    try:
        db = sqlite3.connect(path, check_same_thread=False)
        db.row_factory = sqlite3.Row
        _check_tables(db, path)  # before anything is added to another program's tables
        db.executescript(SCHEMA)
        _add_owners(db)
        if path != ":memory:":
            db.execute("PRAGMA journal_mode=WAL")
        db.execute("BEGIN IMMEDIATE")  # a write lock: the store could not save otherwise
        db.commit()
        return db
    except sqlite3.Error as e:
        if db is not None:
            db.close()
        raise StoreOpenError(_open_problem(path, e)) from None


def _check_tables(db: sqlite3.Connection, path: str) -> None:
    """A database whose tables have our names but not our columns is another program's."""
    for table, needed in (("games", GAMES_COLUMNS),
                          ("summaries", ("id", "created", "updated", "problem",
                                         *SUMMARY_COLUMNS)),
                          ("tables", TABLES_COLUMNS), ("seatings", SEATINGS_COLUMNS)):
        have = {r[1] for r in db.execute(f"PRAGMA table_info({table})")}
        if have and (missing := [c for c in needed if c not in have]):
            raise StoreOpenError(f"{path} is not a canasta games database (its table "
                                 f"'{table}' has no column {', '.join(missing)})")


def _add_owners(db: sqlite3.Connection) -> None:
    """The ``owner`` columns (a database of a server from before the devices has none: its
    games are nobody's until a device adopts them) and the index each device's list reads."""
    for table in ("games", "summaries"):
        if "owner" not in {r[1] for r in db.execute(f"PRAGMA table_info({table})")}:
            db.execute(f"ALTER TABLE {table} ADD COLUMN owner TEXT")
    db.execute("CREATE INDEX IF NOT EXISTS summaries_owner "
               "ON summaries (owner, updated DESC, id DESC)")
    db.commit()


def _open_problem(path: str, e: sqlite3.Error) -> str:
    """What is wrong with ``path``, in one line, from what SQLite said."""
    text = str(e)
    if "not a database" in text:
        return (f"{path} is not a SQLite database ({text}): give --db a games database or "
                "the name of a new file")
    folder = Path(path).parent
    if "readonly" in text or "unable to open" in text:
        # SQLite creates the file, and its journal beside it, in the folder
        problem = _cannot_write_in(folder)
        if problem is not None:
            return f"cannot use the games database {path}: the folder {folder} is not " \
                   f"writable ({problem})"
        if "readonly" in text:
            return f"cannot use the games database {path}: the file is read-only"
    return f"cannot use the games database {path}: {text}"


def _cannot_write_in(folder: Path) -> str | None:
    """Why no file can be made in ``folder`` (None when one can)."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            return None
    except OSError as e:
        return e.strerror or str(e)
