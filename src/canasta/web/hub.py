"""The live games of one server process (``Hub``): each game's session, its sockets, its
computer players' task, and its writes to the store (docs/PROTOCOL.md, "The WebSocket").

The hub lets the computer seats play (in a worker thread, so the server stays responsive while
a master player thinks), stores every move in SQLite, and sends each seat only its own view.
A move is announced only once it is stored.  When the store cannot write (a full disk), the
game goes back to what the store holds, its sockets get an error and a state marked
``paused``, and the hub tries to write again, more and more slowly, until it can: then the
game goes on.  Store reads and writes run in worker threads, never on the event loop.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import sqlite3
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field, replace
from typing import Any, Final

from fastapi import WebSocket

from canasta.errors import CanastaError, PositionError
from canasta.i18n import LANGS
from canasta.match import Match
from canasta.records import Rebuilt, hand_moves, rebuild, replay, replay_hand
from canasta.view import PlayerView
from canasta.web.connection import CLOSE_FAILED, Connection, dumps
from canasta.web.present import view_json
from canasta.web.protocol import (
    BadMessage,
    RequestId,
    answering,
    error_json,
    parse_message,
)
from canasta.web.quick import QUICK_MESSAGES
from canasta.web.session import HUMAN, GameConfig, GameSession, new_seed
from canasta.web.store import Store, StoredGame, UnreadableGame, WriteRefused
from canasta.web.tablegame import TableSession

MAX_LIVE = 256  # games kept in memory; the rest wait in the store
RETRY_FIRST = 0.5  # seconds before a paused game first tries to write again
RETRY_MAX = 30.0  # ... and at most, the wait doubling after every failed try
#: Why a stored record that replays its moves may still not replay as a whole: the results,
#: scores, end or winner it states are not what its moves give.  Servers before issue 32's fix
#: stored such records: reloading a game between two hands scored the ended hand a second time
#: (doubled scores, the next hand carrying the last one's result, a match ended too early or
#: going on after its end).  The moves are the game: such a record is worked out again from them.
REPAIRABLE: Final = frozenset({"record.replays_otherwise", "record.match_over"})
log = logging.getLogger("canasta.web")


@dataclass
class LiveGame:
    session: GameSession
    saved: tuple[dict[str, Any], dict[str, Any]]  # the options and record the store holds
    owner: str | None = None  # the hash of its device's key (canasta.web.devices)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    sockets: set[Connection] = field(default_factory=set)
    # Each socket's seat at a table's match (None: a spectator); a socket not in it is seat 0's,
    # the one person of a game of one.
    seats: dict[Connection, int | None] = field(default_factory=dict)
    driver: asyncio.Task[None] | None = None
    paused: CanastaError | None = None  # why the store cannot write the game now
    # seconds before the next try to write a paused game (back to the first wait only once a
    # move is stored: a store that takes small writes but not the next move's is not hammered)
    retry: float = field(default_factory=lambda: RETRY_FIRST)
    # What the players are told as they connect, until the next move is stored: that the
    # game was repaired as it was read (``Hub._load``).
    notice: CanastaError | None = None


Reply = tuple[Connection, RequestId | None]  # a request's connection and its id


class CorruptGame(Exception):
    """A stored game that cannot be played: ``error`` says why, ``lang`` is its language
    (English when not even its options can be read), ``owner`` whose it is (None when its row
    does not say)."""

    def __init__(self, error: CanastaError, lang: str, owner: str | None = None) -> None:
        super().__init__(str(error))
        self.error = error
        self.lang = lang
        self.owner = owner


#: SQLite's own fixed words for why it could not write, by the code players read them by.
SQLITE_PROBLEMS: Final = {
    "database or disk is full": "store.disk_full",
    "disk I/O error": "store.disk_io",
    "database is locked": "store.locked",
    "attempt to write a readonly database": "store.read_only",
    "database disk image is malformed": "store.malformed",
}


def write_problem(e: BaseException, what: str) -> CanastaError:
    """Why a write failed, as the player is told, logged for the server's keeper."""
    if isinstance(e, sqlite3.Error | OSError | WriteRefused):
        log.warning("%s could not be stored: %s", what, e)
    else:  # not a failure of the disk: a fault of the server itself
        log.error("%s could not be stored", what, exc_info=e)
    text = str(e) or type(e).__name__
    return CanastaError(SQLITE_PROBLEMS.get(text, text))


class Hub:
    """The live games of one server process."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.games: dict[str, LiveGame] = {}
        self._loading = asyncio.Lock()
        # How a stored game becomes a session again (the tables' lobby knows its own games).
        self.restorer: Callable[[StoredGame], GameSession] = restore

    async def create(self, options: dict[str, Any],
                     make: Callable[[str, GameConfig], GameSession] = GameSession,
                     owner: str | None = None) -> GameSession:
        """A new game of ``owner`` (the hash of its device's key), stored before it is
        announced (raises what the store raises when it cannot write, and then nothing is
        kept); ``make``: its session from its id and options."""
        config = GameConfig.from_json(options, new_seed())
        session = make(secrets.token_urlsafe(9), config)
        saved = (config.to_json(), session.record())
        await asyncio.to_thread(self.store.create, session.id, *saved, owner)
        self.games[session.id] = LiveGame(session, saved, owner)
        self._forget_idle()
        return session

    async def get(self, game_id: str) -> LiveGame | None:
        live = self.games.pop(game_id, None)
        if live is not None:
            self.games[game_id] = live  # the most recently used last
            return live
        async with self._loading:
            live = self.games.get(game_id)
            if live is not None:
                return live
            loaded = await asyncio.to_thread(self._load, game_id)
            if loaded is None:
                return None
            stored, session, notice = loaded
            live = LiveGame(session, (stored.config, stored.record), stored.owner,
                            notice=notice)
            self.games[game_id] = live
            self._forget_idle()
            return live

    def _forget_idle(self) -> None:
        """Keep at most MAX_LIVE games in memory: the oldest ones nobody is connected to go
        (they are all in the store and come back when someone connects)."""
        if len(self.games) <= MAX_LIVE:
            return
        for game_id, live in list(self.games.items()):
            if len(self.games) <= MAX_LIVE:
                break
            if not live.sockets and (live.driver is None or live.driver.done()):
                del self.games[game_id]

    def _load(self, game_id: str
              ) -> tuple[StoredGame, GameSession, CanastaError | None] | None:
        """A stored game, its session and what its players are to be told of it (in a worker
        thread: it reads and replays); raises CorruptGame when it cannot be played.  A record
        whose moves replay but whose scores do not (``REPAIRABLE``) is worked out again from
        its moves and stored so, the record it had kept beside it (``Store.repair``)."""
        try:
            stored = self.store.load(game_id)
        except UnreadableGame as e:
            raise CorruptGame(e, _lang_of(e.config), e.owner) from None
        if stored is None:
            return None
        try:
            return stored, self.restorer(stored), None
        except ValueError as e:  # CanastaError, ConfigError: a record that does not replay
            error = e if isinstance(e, CanastaError) else CanastaError(str(e))
            if isinstance(e, PositionError) and e.code in REPAIRABLE:
                repaired = self._repair(stored, error)
                if repaired is not None:
                    return repaired
            raise CorruptGame(error, _lang_of(stored.config), stored.owner) from None

    def _repair(self, stored: StoredGame, error: CanastaError
                ) -> tuple[StoredGame, GameSession, CanastaError] | None:
        """``stored`` worked out again from its moves, stored, and its session, with what its
        players are told; None when its moves do not make a game either."""
        try:
            rebuilt = rebuild(stored.record)
            fixed = replace(stored, record=rebuilt.record)
            session = self.restorer(fixed)
        except ValueError:
            return None
        why = repair_text(rebuilt, error)
        try:
            self.store.repair(stored.id, stored.config, rebuilt.record, why)
        except Exception as e:  # the repair is not stored: the game is not opened
            raise CorruptGame(write_problem(e, f"the repair of game {stored.id}"),
                              _lang_of(stored.config), stored.owner) from None
        log.warning("game %s was repaired as it was read: %s", stored.id, why)
        notice = (CanastaError("web.repaired") if not rebuilt.dropped else
                  CanastaError("web.repaired_ended", hand=len(rebuilt.record["hands"])))
        return fixed, session, notice

    def adopted(self, owner: str) -> None:
        """The games of one person in memory that were nobody's are ``owner``'s now (as in
        the store: a table's match stays nobody's)."""
        for live in self.games.values():
            if live.owner is None and not isinstance(live.session, TableSession):
                live.owner = owner

    # --- storing ----------------------------------------------------------------------------
    async def write(self, live: LiveGame, reply: Reply | None = None) -> bool:
        """Store the game as it is now (under its lock).  When the store cannot, the game goes
        back to what the store holds and is paused, its sockets get an error and the state,
        the computer players wait, and writing is tried again later: False.  ``reply``: the
        connection whose request made the change, and its id (its error echoes the id)."""
        s = live.session
        if self.games.get(s.id) is not live:
            self.games[s.id] = live  # it left memory meanwhile: it is the newest again
        config, record = s.config.to_json(), s.record()
        try:
            await asyncio.to_thread(self.store.save, s.id, config, record)
        except Exception as e:
            live.paused = write_problem(e, f"game {s.id}")
            await self._roll_back(live)
            self.broadcast(live, self.pause_error(live), reply)
            self.broadcast_state(live, None)
            self.drive(live)
            return False
        live.saved = (config, record)
        live.paused = None
        live.retry = RETRY_FIRST
        live.notice = None
        return True

    async def _roll_back(self, live: LiveGame) -> None:
        """Make the live game what the store holds (a move that could not be stored, or that
        failed half-way, is taken back; the computer players remember what they saw then)."""
        config, record = live.saved
        game_id = live.session.id
        try:
            live.session = await asyncio.to_thread(
                self.restorer, StoredGame(game_id, 0.0, 0.0, config, record, False, None))
        except Exception:  # the store's own record: only a fault of the server gets here
            log.exception("game %s could not be taken back to what is stored: its sockets "
                          "are closed and it is read from the store again", game_id)
            if self.games.get(game_id) is live:
                del self.games[game_id]
            for conn in list(live.sockets):
                conn.close(CLOSE_FAILED, "server error")
            live.sockets.clear()

    async def _write_again(self, live: LiveGame) -> bool:
        """Try to store a paused game again (what the store holds, rewritten): True once the
        store can write, and the game is no longer paused."""
        config, record = live.saved
        try:
            await asyncio.to_thread(self.store.save, live.session.id, config, record)
        except Exception as e:
            live.paused = write_problem(e, f"game {live.session.id}")
            return False
        live.paused = None
        return True

    def pause_error(self, live: LiveGame) -> dict[str, Any]:
        return self.error(live, CanastaError("web.paused", reason=live.paused))

    # --- messages -------------------------------------------------------------------------
    def state_message(self, live: LiveGame, last: tuple[int, str] | None,
                      seat: int | None = HUMAN) -> dict[str, Any]:
        """The state as ``seat`` sees it (None: a spectator of a table's match)."""
        s = live.session
        if isinstance(s, TableSession):
            view = s.spectator_json() if seat is None else s.view_json(seat)
            can_undo = s.can_undo_for(seat)
        else:
            view, can_undo = s.view_json(HUMAN), s.can_undo()
        message: dict[str, Any] = {
            "type": "state", "view": view,
            "last": {"seat": last[0], "move": last[1]} if last else None,
            "can_undo": can_undo, "waiting": s.computer_to_act(),
            "paused": live.paused is not None}
        if isinstance(s, TableSession):
            message["people"] = s.people_json(s.present())
        return message

    def broadcast_state(self, live: LiveGame, last: tuple[int, str] | None,
                        reply: Reply | None = None) -> None:
        """The state to every socket of the game, each as its seat sees it (``reply`` as for
        ``broadcast``)."""
        asker, rid = reply if reply is not None else (None, None)
        texts: dict[int | None, str] = {}
        messages: dict[int | None, dict[str, Any]] = {}
        for conn in list(live.sockets):
            seat = live.seats.get(conn, HUMAN)
            if seat not in messages:
                messages[seat] = self.state_message(live, last, seat)
                texts[seat] = dumps(messages[seat])
            sent = (conn.send(answering(messages[seat], rid))
                    if conn is asker and rid is not None else conn.send_text(texts[seat]))
            if not sent:
                live.sockets.discard(conn)
                live.seats.pop(conn, None)

    def broadcast(self, live: LiveGame, message: dict[str, Any],
                  reply: Reply | None = None) -> None:
        """Queue ``message`` for every socket of the game (never waiting for one: a socket
        that has fallen too far behind is closed instead, and forgotten).  ``reply``: the
        connection whose request this answers, and the request's id, which only that
        connection's copy carries (the id is that connection's own)."""
        text = dumps(message)
        asker, rid = reply if reply is not None else (None, None)
        for conn in list(live.sockets):
            sent = (conn.send(answering(message, rid)) if conn is asker and rid is not None
                    else conn.send_text(text))
            if not sent:
                live.sockets.discard(conn)

    def error(self, live: LiveGame, error: CanastaError | str, conn: Connection | None = None
              ) -> dict[str, Any]:
        """An error in the game's language (at a table, in that of ``conn``'s person)."""
        s = live.session
        lang = s.lang_of(live.seats.get(conn)) if isinstance(s, TableSession) \
            and conn is not None else s.config.lang
        return {"type": "error", **error_json(error, lang)}

    async def handle(self, live: LiveGame, conn: Connection, text: str) -> None:
        """One message from the human seat's socket."""
        try:
            msg = parse_message(text)
        except BadMessage as e:
            conn.send(answering(self.error(live, e, conn), e.id))
            return
        kind = msg["type"]
        if kind == "ping":  # it only keeps the connection open
            return
        rid: RequestId | None = msg.get("id")
        reply = (conn, rid)
        seat = live.seats.get(conn, HUMAN)
        async with live.lock:
            s = live.session  # (a failed write replaces it: read it under the lock)
            try:
                if kind == "sync":
                    conn.send(answering(self.state_message(live, None, seat), rid))
                    return
                if kind == "say":
                    if not isinstance(s, TableSession) or seat is None:
                        raise BadMessage("protocol.quick_not_table")
                    if msg["say"] not in QUICK_MESSAGES:
                        raise BadMessage("protocol.quick_unknown",
                                         known=", ".join(QUICK_MESSAGES))
                    s.quick_said(seat)
                    self.broadcast(live, {"type": "said", "seat": seat, "say": msg["say"]})
                    return
                if seat is None:
                    raise BadMessage("protocol.spectator")
                if kind == "lang" and isinstance(s, TableSession):  # this person's own
                    if msg["lang"] not in LANGS:
                        raise BadMessage("protocol.lang", known=", ".join(LANGS))
                    s.set_lang(seat, msg["lang"])
                    conn.send(answering(self.state_message(live, None, seat), rid))
                    return
                if kind == "lang":
                    if msg["lang"] not in LANGS:
                        raise BadMessage("protocol.lang", known=", ".join(LANGS))
                    s.config = with_lang(s.config, msg["lang"])
                    if await self.write(live, reply):
                        self.broadcast_state(live, None, reply)
                    return
                if kind == "hint":
                    lang = s.lang_of(seat) if isinstance(s, TableSession) else s.config.lang
                    try:
                        move, reason = await asyncio.to_thread(s.hint, seat, lang)
                    except CanastaError:
                        raise
                    except Exception:  # the adviser failing must not cost the connection
                        log.exception("the hint of game %s failed", s.id)
                        raise BadMessage("protocol.no_hint_now") from None
                    conn.send(answering({"type": "hint", "move": str(move), "reason": reason},
                                        rid))
                    return
                if kind == "move":
                    played = s.play(seat, msg["move"])
                    last: tuple[int, str] | None = (seat, str(played))
                elif kind == "undo":
                    s.undo(seat)
                    last = None
                elif kind == "deal_now":
                    if not isinstance(s, TableSession):
                        raise BadMessage("protocol.deal_not_table")
                    s.deal_now(seat)
                    last = None
                else:  # next_hand
                    s.next_hand(seat)
                    last = None
            except CanastaError as e:  # (a BadMessage too)
                conn.send(answering(self.error(live, e, conn), rid))
                return
            if await self.write(live, reply):
                self.broadcast_state(live, last, reply)
        self.drive(live)

    async def attend(self, live: LiveGame, ws: WebSocket, seat: int | None = HUMAN) -> None:
        """Serve ``seat``'s accepted socket (None: a spectator of a table's match) until its
        connection is over.  Everything it is sent goes through its Connection's queue, in
        order: its first state, the broadcasts, the answers to its own requests."""
        conn = Connection(ws)
        table = isinstance(live.session, TableSession)
        try:
            async with live.lock:
                if table:
                    live.seats[conn] = seat
                conn.send(self.state_message(live, None, seat))
                if live.notice is not None:
                    conn.send({**self.error(live, live.notice, conn), "type": "notice"})
                if live.paused is not None:
                    conn.send(self.pause_error(live))
                live.sockets.add(conn)  # after its first state: broadcasts come in order
                if table:  # who is here: everybody's list of the people
                    self.broadcast_state(live, None)
                    self._presence_changed(live)
            self.drive(live)
            await conn.flush()
            while (text := await conn.receive()) is not None:
                if isinstance(text, bytes):
                    conn.send(self.error(live, BadMessage("protocol.binary")))
                else:
                    await self.handle(live, conn, text)
                await conn.flush()
        finally:
            live.sockets.discard(conn)
            if conn in live.seats:
                del live.seats[conn]
                async with live.lock:
                    self.broadcast_state(live, None)  # "Ana is away"
                    self._presence_changed(live)
            await conn.finish()

    @staticmethod
    def _presence_changed(live: LiveGame) -> None:
        """A socket of a table's match opened or closed: the table's page hears it too."""
        s = live.session
        if isinstance(s, TableSession) and s.on_presence is not None:
            s.on_presence()

    # --- the computer seats ---------------------------------------------------------------
    def drive(self, live: LiveGame) -> None:
        """Let the computer seats play until the human is to act (or the hand ends); for a
        paused game somebody is connected to, try to write it again first."""
        wanted = (live.paused is not None and live.sockets) or live.session.computer_to_act()
        if wanted and (live.driver is None or live.driver.done()):
            live.driver = asyncio.create_task(self._drive(live))

    async def _drive(self, live: LiveGame) -> None:
        """The computer players' task: it never ends silently (whatever goes wrong is logged,
        taken back and told to the game's sockets)."""
        try:
            while True:
                if live.paused is not None:
                    if not live.sockets:
                        return  # nobody waits: the next connection tries again
                    await asyncio.sleep(live.retry)
                    live.retry = min(RETRY_MAX, live.retry * 2)
                    async with live.lock:
                        if live.paused is not None and await self._write_again(live):
                            self.broadcast_state(live, None)
                    continue
                async with live.lock:
                    s = live.session
                    if live.paused is not None:
                        continue
                    if not s.computer_to_act():
                        return
                    seat, move = await asyncio.to_thread(s.computer_step)
                    if await self.write(live):
                        self.broadcast_state(live, (seat, str(move)))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the computer players of game %s stopped", live.session.id)
            async with live.lock:
                await self._roll_back(live)
                self.broadcast(live, self.error(live, CanastaError("web.computers_stopped")))
                self.broadcast_state(live, None)

    async def close(self) -> None:
        for live in self.games.values():
            if live.driver is not None:
                live.driver.cancel()
                with suppress(asyncio.CancelledError, Exception):
                    await live.driver


def with_lang(config: GameConfig, lang: str) -> GameConfig:
    return replace(config, lang=lang)


def _lang_of(config: object) -> str:
    """The language stored options ask for (English when they say none)."""
    lang = config.get("lang") if isinstance(config, dict) else None
    return lang if isinstance(lang, str) and lang in LANGS else "en"


def restore(stored: StoredGame) -> GameSession:
    """The session of a stored game (raises ConfigError or a CanastaError when corrupt)."""
    config = GameConfig.stored(stored.config)
    return GameSession.restore(stored.id, config, stored.record)


def repair_text(rebuilt: Rebuilt, error: CanastaError) -> str:
    """Why and how a record was worked out again from its moves, for the server's log and
    its ``repairs`` table (in the notation, as records are)."""
    changes = "; ".join(
        f"{'the match' if hand is None else f'hand {hand}'} {name}: {stated} -> {replayed}"
        for hand, name, stated, replayed in rebuilt.changes)
    dropped = (f"; the match was over after hand {len(rebuilt.record['hands'])}: the "
               f"{rebuilt.dropped} hand(s) recorded after it are left out"
               if rebuilt.dropped else "")
    return f"{error}; worked out again from its moves: {changes or 'nothing changed'}{dropped}"


def readable(record: dict[str, Any]) -> tuple[dict[str, Any], Match]:
    """``record`` and its match, or the record its moves make and that match when it states
    scores they do not give (``REPAIRABLE``: a game damaged by an older server, shown as its
    moves played it)."""
    try:
        return record, replay(record)
    except PositionError as e:
        if e.code not in REPAIRABLE:
            raise
        rebuilt = rebuild(record)
        return rebuilt.record, rebuilt.match


def replay_frames(stored: StoredGame, hand: int, seat: int = HUMAN,
                  names: list[str] | None = None) -> dict[str, Any]:
    """A hand of a stored game move by move, as ``seat`` saw it (``names``: the seats' names,
    when they are not the game's own: a table's people)."""
    config = GameConfig.stored(stored.config)
    record, match = readable(stored.record)
    n = len(match.moves)
    if not 1 <= hand <= n:
        raise CanastaError("web.hands_range", count=n)
    names, levels = names or config.seat_names(), config.seat_levels()
    shown = replay(record, upto=hand)

    def frame(seat: int | None, move: str | None, view: PlayerView) -> dict[str, Any]:
        ended = view.result is not None
        results = match.results[:hand] if ended else match.results[:hand - 1]
        totals = [0] * match.rules.n_sides
        for r in results:
            totals = [a + b for a, b in zip(totals, r.scores, strict=True)]
        info = {"scores": totals, "over": match.over and hand == n and ended,
                "winner": match.winner if hand == n else None, "hands": len(results),
                "hand_scores": [list(r.scores) for r in results]}
        return {"seat": seat, "move": move,
                "view": view_json(view, names=names, levels=levels, match=info)}

    frames = [frame(f.seat, None if f.move is None else str(f.move), f.views[seat])
              for f in replay_hand(shown, hand_moves(record, hand), (seat,))]
    return {"hands": n, "hand": hand, "frames": frames}

