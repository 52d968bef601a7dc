"""Where games are kept: SQLite (the standard library's), one row per game.

A row holds the game's options and its record (rules, seed and every move, see
``canasta.records``), so a game survives closing the tab and restarting the server, and every
past game can be replayed move by move.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
"""


def default_db_path() -> Path:
    """The user's data folder: $XDG_DATA_HOME/canasta (or ~/.local/share/canasta)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "canasta" / "games.sqlite3"


@dataclass(frozen=True)
class StoredGame:
    id: str
    created: float
    updated: float
    config: dict[str, Any]
    record: dict[str, Any]
    over: bool
    winner: int | None


class Store:
    """The games database.  Safe to use from the server's threads (one lock, short writes)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False)
        self._db.executescript(SCHEMA)
        self._db.execute("PRAGMA journal_mode=WAL") if self.path != ":memory:" else None
        self._db.commit()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                yield self._db
                self._db.commit()
            except BaseException:
                self._db.rollback()
                raise

    def create(self, game_id: str, config: dict[str, Any], record: dict[str, Any]) -> None:
        now = time.time()
        with self._tx() as db:
            db.execute("INSERT INTO games (id, created, updated, config, record, over, winner) "
                       "VALUES (?, ?, ?, ?, ?, 0, NULL)",
                       (game_id, now, now, json.dumps(config), json.dumps(record)))

    def save(self, game_id: str, config: dict[str, Any], record: dict[str, Any]) -> None:
        with self._tx() as db:
            db.execute("UPDATE games SET updated = ?, config = ?, record = ?, over = ?, "
                       "winner = ? WHERE id = ?",
                       (time.time(), json.dumps(config), json.dumps(record),
                        int(bool(record.get("over"))), record.get("winner"), game_id))

    def load(self, game_id: str) -> StoredGame | None:
        with self._lock:
            row = self._db.execute("SELECT id, created, updated, config, record, over, winner "
                                   "FROM games WHERE id = ?", (game_id,)).fetchone()
        return _row(row) if row is not None else None

    def all(self) -> list[StoredGame]:
        """Every game, the most recently played first (unreadable rows are skipped)."""
        with self._lock:
            rows = self._db.execute("SELECT id, created, updated, config, record, over, winner "
                                    "FROM games ORDER BY updated DESC").fetchall()
        games = []
        for row in rows:
            try:
                games.append(_row(row))
            except ValueError:
                continue
        return games

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _row(row: tuple[Any, ...]) -> StoredGame:
    config = json.loads(row[3])
    record = json.loads(row[4])
    if not isinstance(config, dict) or not isinstance(record, dict):
        raise ValueError(f"game {row[0]} is corrupt")
    return StoredGame(row[0], row[1], row[2], config, record, bool(row[5]), row[6])
