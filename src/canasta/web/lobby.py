"""The tables with friends over HTTP and WebSocket: opening a table, joining it, the lobby,
who is connected, the host's actions and the quick messages (docs/PROTOCOL.md, "Tables").

What a table is and who may do what is ``canasta.web.tables`` (plain Python); this module keeps
the live tables of the process, stores every change before it is announced, and tells every
connection of a table what changed, each as its own key lets it see.  A key never travels in a
URL the server sees: the links carry it in their fragment (``#table=ID&k=KEY``, which browsers
keep to themselves), the client sends it in the ``X-Canasta-Key`` header of a request and in
the first message of a socket.  Nothing here logs a key.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse

from canasta.errors import CanastaError
from canasta.i18n import LANGS
from canasta.web.connection import GONE, Connection
from canasta.web.devices import DEVICE_HEADER, DeviceRefusal, owner_of
from canasta.web.hub import CorruptGame, Hub, LiveGame, replay_frames, restore, write_problem
from canasta.web.protocol import (
    CLOSE_CORRUPT,
    MAX_MESSAGE,
    BadMessage,
    error_json,
    hello_of,
    loads,
    request_lang,
)
from canasta.web.quick import QUICK_MESSAGES, QuickLimit
from canasta.web.session import ConfigError, GameConfig, GameSession
from canasta.web.store import PAGE_LIMIT, Store, StoredGame, UnreadableGame, read_cursor
from canasta.web.tablegame import TableSession, seat_names
from canasta.web.tables import (
    ROLE_HOST,
    ROLE_SEAT,
    Pass,
    Table,
    TableRefusal,
)

KEY_HEADER = "x-canasta-key"
#: A device's key (docs/PROTOCOL.md, "A person's statistics and games"): sent when
#: opening or joining a table, and to read one's own statistics and games; only its hash is kept.
PERSON_HEADER = DEVICE_HEADER  # a person is their device
PERSON_PAGE = 50  # games in a page of a person's list when the request does not say
HELLO_WAIT = 10.0  # seconds a table socket has to say who it is
MAX_LIVE_TABLES = 256  # tables kept in memory; the rest wait in the store
CLOCK_TICK = 0.5  # how often a table's turn clock looks at its match, in clock seconds
CLOSE_NO_KEY = 4401  # the socket did not send its key first
CLOSE_WRONG_KEY = 4403
CLOSE_NO_TABLE = 4404
CLOSE_NOT_STARTED = 4409  # the match's socket of a table whose host has not started it
log = logging.getLogger("canasta.web")

def refusal_json(e: CanastaError, lang: str) -> dict[str, Any]:
    """A refusal as the client is sent it: ``error`` in ``lang``, ``english``, ``code``,
    ``params`` (as every refusal of the server, ``canasta.web.protocol.error_json``)."""
    out = error_json(e, lang)
    return {"error": out.pop("message"), **out}


def bad_request(reason: CanastaError) -> TableRefusal:
    """A request or message of a table that is not one of the protocol's, ``reason`` why."""
    return TableRefusal("table.bad_request", reason=reason)


@dataclass
class LiveTable:
    table: Table
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # Each socket's key (kept in memory only): what it opens is asked again at every change,
    # since an invite becomes its seat's key as its friend sits down.
    sockets: dict[Connection, str] = field(default_factory=dict)
    langs: dict[Connection, str] = field(default_factory=dict)  # as each socket's hello asked
    # The match's spectators' sockets and the keys they came with (new links close those
    # whose key opens nothing any more).
    watchers: dict[WebSocket, str] = field(default_factory=dict)
    shown: set[int] = field(default_factory=set)  # who is here, as the last lobby said

    def who(self, conn: Connection) -> Pass | None:
        key = self.sockets.get(conn)
        try:
            return self.table.resolve(key) if key is not None else None
        except TableRefusal:
            return None

    def on_table(self) -> set[int]:
        """The seats with a person on the table's page (the host's and the friends'): half of
        who is here (``Lobby.here``)."""
        out = set()
        for conn in self.sockets:
            p = self.who(conn)
            if p is not None and p.role in (ROLE_HOST, ROLE_SEAT) and p.seat is not None:
                out.add(p.seat)
        return out


class Lobby:
    """The tables of one server process (all of them in the store; the used ones in memory)."""

    def __init__(self, store: Store, games: Hub, public_url: str | None = None) -> None:
        self.store = store
        self.games = games
        self.public_url = public_url.rstrip("/") if public_url else None
        self.tables: dict[str, LiveTable] = {}
        self._loading = asyncio.Lock()
        games.restorer = self.restore_game
        self.clocks: dict[str, asyncio.Task[None]] = {}  # the turn clocks, by table
        self.clock_unit = 1.0  # real seconds per second of a turn clock (the tests hurry it)
        self.quick = QuickLimit()  # every table's quick messages, both sockets together
        self._storing: set[asyncio.Task[None]] = set()  # languages being stored with seats

    def restore_game(self, stored: StoredGame) -> GameSession:
        """A stored game's session (in a worker thread): a table's match with its people, or a
        game of one person."""
        found = self.store.table_of_game(stored.id)
        if found is None:
            return restore(stored)
        try:
            seats = Table.from_json(*found)
        except (KeyError, TypeError, ValueError) as e:
            raise ConfigError("config.table_unreadable", problem=str(e)) from None
        return self.hooked(TableSession.resume(stored.id, GameConfig.stored(stored.config),
                                               seats, stored.record))

    def hooked(self, session: TableSession) -> TableSession:
        """``session`` told what only the server knows: who is connected to its match, where
        a person's language is kept, the count of quick messages."""
        game_id, table_id = session.id, session.table_id

        session.present = lambda: self.here(table_id, game_id)
        session.on_presence = lambda: self._announce(table_id)
        session.on_lang = lambda seat, lang: self.keep_lang(table_id, seat, lang)
        session.quick = self.quick
        return session

    def here(self, table_id: str, game_id: str | None = None) -> set[int]:
        """The seats whose person has the table open, on its page or in its match: the one
        presence that the lobby, the match's ``people``, the host's hand-over, the wait for
        the next hand and the turn clock all read (docs/PROTOCOL.md, "Who is here")."""
        live = self.tables.get(table_id)
        out = live.on_table() if live is not None else set()
        game_id = game_id or (live.table.game if live is not None else None)
        match = self.games.games.get(game_id) if game_id is not None else None
        return (out | _people_here(match)) if match is not None else out

    def _announce(self, table_id: str) -> None:
        """The table's sockets told who is here now, if that changed (a socket of its match
        opened or closed)."""
        live = self.tables.get(table_id)
        if live is not None and self.here(table_id) != live.shown:
            self.announce(live)

    async def _tell_match(self, live: LiveTable) -> None:
        """The match's sockets told who is here now (a socket of the table opened or closed);
        the next hand may have waited for a person who has left."""
        match = self.games.games.get(live.table.game) if live.table.game else None
        if match is None:
            return
        async with match.lock:
            self.games.broadcast_state(match, None)
        await self._deal(match)

    def keep_lang(self, table_id: str, seat: int, lang: str) -> None:
        """Store ``lang`` with ``seat``'s person at the table, soon (the match's lock is held
        by whoever changed it, and a table's lock is always taken before its match's)."""
        try:
            task = asyncio.get_running_loop().create_task(self._store_lang(table_id, seat, lang))
        except RuntimeError:  # no loop: a session used outside the server
            return
        self._storing.add(task)
        task.add_done_callback(self._storing.discard)

    async def _store_lang(self, table_id: str, seat: int, lang: str) -> None:
        try:
            live = await self.get(table_id)
            async with live.lock:
                if live.table.seats[seat].lang != lang:
                    await self._set_lang(live, seat, lang)
        except CanastaError as e:  # (the write problem is logged already)
            log.warning("the language of seat %d of table %s is not stored: %s", seat,
                        table_id, e)

    def link(self, base: str, table_id: str, key: str) -> str:
        """A link into a table: the key in the fragment, which the browser does not send."""
        return f"{self.public_url or base.rstrip('/')}/#table={table_id}&k={key}"

    async def get(self, table_id: str) -> LiveTable:
        live = self.tables.get(table_id)
        if live is not None:
            return live
        async with self._loading:
            live = self.tables.get(table_id)
            if live is not None:
                return live
            try:
                data = await asyncio.to_thread(self.store.load_table, table_id)
                table = Table.from_json(table_id, data) if data is not None else None
            except (UnreadableGame, KeyError, TypeError, ValueError) as e:
                log.warning("the stored table %s cannot be read: %s", table_id, e)
                raise TableRefusal("table.unreadable") from None
            if table is None:
                raise TableRefusal("table.no_table", game=repr(table_id))
            live = LiveTable(table)
            self.tables[table_id] = live
            self._forget_idle()
            self.wind(live)
            return live

    async def open(self, body: object, base: str, person: str | None = None) -> dict[str, Any]:
        table_id = secrets.token_urlsafe(9)
        table, keys = Table.open(table_id, body, person)
        try:
            await asyncio.to_thread(self.store.create_table, table_id, table.to_json())
        except Exception as e:
            write_problem(e, "a new table")
            raise TableRefusal("table.cannot_save") from None
        self.tables[table_id] = LiveTable(table)
        self._forget_idle()
        return self.links(base, table_id, keys)

    def links(self, base: str, table_id: str, keys: dict[str, Any]) -> dict[str, Any]:
        return {"id": table_id,
                "host": self.link(base, table_id, keys["host"]),
                "table": self.link(base, table_id, keys["table"]),
                "watch": self.link(base, table_id, keys["watch"]),
                "invites": {str(n): self.link(base, table_id, k)
                            for n, k in keys["invites"].items()}}

    def _forget_idle(self) -> None:
        """Keep at most MAX_LIVE_TABLES tables in memory: the oldest nobody is connected to
        go (they are in the store, and come back at their next request)."""
        for table_id, live in list(self.tables.items()):
            if len(self.tables) <= MAX_LIVE_TABLES:
                return
            if not live.sockets and not live.lock.locked():
                del self.tables[table_id]

    async def change(self, live: LiveTable, table: Table) -> None:
        """Store ``table`` as ``live``'s (held under its lock), then announce it."""
        try:
            await asyncio.to_thread(self.store.save_table, table.id, table.to_json())
        except Exception as e:
            write_problem(e, f"the table {table.id}")
            raise TableRefusal("table.cannot_save") from None
        live.table = table
        self.announce(live)

    def announce(self, live: LiveTable) -> None:
        present = live.shown = self.here(live.table.id)
        for conn in list(live.sockets):
            who = live.who(conn)
            if who is not None:
                conn.send(live.table.lobby(who, present))
            else:  # its key was replaced by the host's new links
                live.sockets.pop(conn, None)
                conn.close(CLOSE_WRONG_KEY, "the link was replaced")

    async def act(self, table_id: str, key: str | None,
                  change: Callable[[LiveTable, Pass], Any]) -> Any:
        """Run ``change`` on the table under its lock for the holder of ``key``."""
        live = await self.get(table_id)
        if key is None:
            raise TableRefusal("table.no_key")
        async with live.lock:
            who = live.table.resolve(key)
            return await change(live, who)

    # --- the turn clock -------------------------------------------------------------------
    def wind(self, live: LiveTable) -> None:
        """Start the table's turn clock, if it has one and its match has started."""
        t = live.table
        running = self.clocks.get(t.id)
        if t.clock is None or t.game is None or (running is not None and not running.done()):
            return
        self.clocks[t.id] = asyncio.create_task(self._clock(t.id, t.game, t.clock))

    async def close(self) -> None:
        for task in self.clocks.values():
            task.cancel()
            with suppress(asyncio.CancelledError, Exception):
                await task
        for storing in list(self._storing):  # (before the store closes)
            with suppress(Exception):
                await storing

    async def _clock(self, table_id: str, game_id: str, seconds: int) -> None:
        """When an absent person has been to act for ``seconds``, a computer player makes
        that turn for them (their seat is theirs again right after); a person who is
        connected is never hurried.  A hand that has ended is followed by the next one
        ``seconds`` after, whoever has not closed the score sheet yet."""
        loop = asyncio.get_running_loop()
        waiting: tuple[int, int, int] | None = None
        since = 0.0
        while True:
            await asyncio.sleep(CLOCK_TICK * self.clock_unit)
            match = self.games.games.get(game_id)
            if match is None:
                continue  # nobody has loaded it: nobody is waiting
            s = match.session
            if not isinstance(s, TableSession) or s.match.over:
                return
            seat = s.table.to_act()
            between = s.state.result is not None  # (-1: the deal is what is waited for)
            if match.paused is not None or (not between and (
                    seat is None or s.table.is_computer(seat) or seat in set(s.present()))):
                waiting = None
                continue
            now = (-1 if between else seat or 0, s.state.hand_number, len(s.state.history))
            if now != waiting:
                waiting, since = now, loop.time()
                continue
            if loop.time() - since < seconds * self.clock_unit:
                continue
            waiting = None
            try:
                if between:
                    await self._deal(match, now)
                else:
                    await self._play_for(match, now[0], now)
            except Exception:  # the clock must not stop the match
                log.exception("the turn clock of table %s failed", table_id)
            self.games.drive(match)

    async def _deal(self, match: LiveGame, when: tuple[int, int, int] | None = None) -> None:
        """Deal the next hand of the match: at once if ``when`` (the clock's, and still the
        same hand's end), else when every person there has asked for it."""
        async with match.lock:
            s = match.session
            if not isinstance(s, TableSession) or match.paused is not None \
                    or s.state.result is None or s.match.over:
                return
            if when is not None:
                if (-1, s.state.hand_number, len(s.state.history)) != when:
                    return
                s.deal()
            elif not s.deal_when_ready():
                return
            if await self.games.write(match):
                self.games.broadcast_state(match, None)
        self.games.drive(match)

    async def _play_for(self, match: LiveGame, seat: int, when: tuple[int, int, int]) -> None:
        """A computer player makes the absent person's turn at ``seat`` (if it is still the
        turn the clock waited on)."""
        async with match.lock:
            s = match.session
            if not isinstance(s, TableSession) or match.paused is not None \
                    or (s.table.to_act(), s.state.hand_number, len(s.state.history)) != when:
                return
            s.hand_over(seat, True)
            try:
                while s.table.to_act() == seat and s.state.result is None:
                    moved, move = await asyncio.to_thread(s.computer_step)
                    if not await self.games.write(match):
                        return  # (the game went back to what is stored, the seat a person's)
                    self.games.broadcast_state(match, (moved, str(move)))
            finally:
                if match.session is s:
                    s.hand_over(seat, False)

    # --- the table's match ----------------------------------------------------------------
    async def match_of(self, live: LiveTable) -> LiveGame | None:
        """The table's live match, once started (loaded from the store if need be)."""
        if live.table.game is None:
            return None
        return await self.games.get(live.table.game)

    async def hand_over(self, match: LiveGame, seat: int, computer: bool) -> None:
        """Give a seat of the running match to its computer player or back to its person; the
        computer players go on if it is theirs to play now."""
        async with match.lock:
            session = match.session
            if isinstance(session, TableSession):
                session.hand_over(seat, computer)
                self.games.broadcast_state(match, None)
        self.games.drive(match)

    async def play(self, ws: WebSocket, table_id: str) -> None:
        """A person's (or a spectator's) socket of the table's match: its first message is
        ``{"type": "hello", "key": KEY}``; then it speaks the game's protocol for the key's
        seat (docs/PROTOCOL.md, "Tables")."""
        try:
            live = await self.get(table_id)
            msg = await hello_of(ws, frozenset({"key", "lang"}), HELLO_WAIT)
            if msg is None:
                raise TableRefusal("table.no_key")
            key = msg.get("key")
            who = live.table.resolve(key)
            match = await self.match_of(live)
            if match is None:
                raise TableRefusal("table.not_started")
        except CorruptGame as e:
            with suppress(*GONE):
                await ws.send_json({"type": "error", **refusal_json(e.error, e.lang)})
                await ws.close(code=CLOSE_CORRUPT, reason="the saved game cannot be read")
            return
        except TableRefusal as e:  # (before CanastaError: it is one)
            code = {404: CLOSE_NO_TABLE, 409: CLOSE_NOT_STARTED}.get(
                e.status, CLOSE_WRONG_KEY if e.code == "table.wrong_key" else CLOSE_NO_KEY)
            with suppress(*GONE):
                await ws.send_json({"type": "error", **refusal_json(e, "en")})
                await ws.close(code=code, reason=e.code)
            return
        except (TimeoutError, BadMessage, CanastaError, *GONE):
            with suppress(*GONE):
                await ws.close(code=CLOSE_NO_KEY, reason="no key")
            return
        # The host and the seated play their seats; every other key of the table watches (the
        # spectators' link, and the table's link or an invite that found no free seat).
        seat = live.table.seat_of(who)
        session = match.session
        if isinstance(session, TableSession) and seat is not None \
                and msg.get("lang") in ("en", "es"):
            session.set_lang(seat, str(msg["lang"]))
        if seat is None:
            live.watchers[ws] = str(key)
        try:
            await self.games.attend(match, ws, seat)
        finally:
            live.watchers.pop(ws, None)
        if seat is not None:  # the next hand may have waited for this person only
            await self._deal(match)

    def close_replaced(self, live: LiveTable, match: LiveGame) -> None:
        """Close the match's spectators whose key opens nothing any more (the host made new
        links): the socket gets 4403, as a reconnection with that key would."""
        for conn in list(match.sockets):
            key = live.watchers.get(conn.ws)
            if key is None:
                continue
            try:
                live.table.resolve(key)
            except TableRefusal:
                conn.close(CLOSE_WRONG_KEY, "the link was replaced")

    # --- a table's socket ---------------------------------------------------------------
    async def attend(self, ws: WebSocket, table_id: str) -> None:
        """A table's socket: its first message is ``{"type": "hello", "key": KEY}``; then it
        gets the lobby at every change, and may send quick messages."""
        try:
            live = await self.get(table_id)
        except TableRefusal as e:
            with suppress(*GONE):
                await ws.send_json({"type": "error", **refusal_json(e, "en")})
                await ws.close(code=CLOSE_NO_TABLE if e.status == 404 else CLOSE_WRONG_KEY)
            return
        conn = Connection(ws)
        try:
            try:
                async with asyncio.timeout(HELLO_WAIT):
                    first = await conn.receive()
            except TimeoutError:
                first = None
            said = self._hello(live, conn, first)
            if isinstance(said[0], int):
                await conn.flush()  # the error first: closing drops what is still queued
                conn.close(*said)
                return
            key, lang = said
            before = self.here(table_id)
            async with live.lock:
                live.sockets[conn] = key
                seat = self._seat_of(live, conn)
                if seat is not None and lang is None:  # the language kept with the seat
                    live.langs[conn] = live.table.seats[seat].lang or live.langs[conn]
                stored = False
                if seat is not None and lang is not None \
                        and live.table.seats[seat].lang != lang:
                    with suppress(TableRefusal):  # (a store that cannot write: not kept)
                        await self._set_lang(live, seat, lang)  # (announces)
                        stored = True
                if not stored:
                    self.announce(live)  # its first lobby, and everybody's new presence
            if self.here(table_id) != before:
                await self._tell_match(live)
            await conn.flush()
            while (text := await conn.receive()) is not None:
                await self._handle(live, conn, text)
                await conn.flush()
        finally:
            live.langs.pop(conn, None)
            before = self.here(table_id)
            try:
                if live.sockets.pop(conn, None) is not None:
                    self.announce(live)
                    if self.here(table_id) != before:
                        await self._tell_match(live)
            finally:
                await conn.finish()

    def _hello(self, live: LiveTable, conn: Connection,
               first: str | bytes | None) -> tuple[str, str | None] | tuple[int, str]:
        """The key of the socket's first message when it opens something and the language it
        asked for (None: it did not say), or (having queued the error) the close the socket
        gets."""
        try:
            msg = loads(first, "message") if isinstance(first, str) \
                and len(first) <= MAX_MESSAGE else None
        except BadMessage:
            msg = None
        if not isinstance(msg, dict) or msg.get("type") != "hello" \
                or set(msg) - {"type", "key", "lang"}:
            conn.send({"type": "error", **refusal_json(TableRefusal("table.no_key"), "en")})
            return CLOSE_NO_KEY, "no key"
        lang = msg.get("lang") if msg.get("lang") in ("en", "es") else "en"
        key = msg.get("key")
        try:
            live.table.resolve(key)
            assert isinstance(key, str)
            live.langs[conn] = str(lang)
            return key, str(lang) if "lang" in msg and msg["lang"] in LANGS else None
        except TableRefusal as e:
            conn.send({"type": "error", **refusal_json(e, str(lang))})
            return CLOSE_WRONG_KEY, "wrong key"

    def _seat_of(self, live: LiveTable, conn: Connection) -> int | None:
        who = live.who(conn)
        return live.table.seat_of(who) if who is not None else None

    async def _set_lang(self, live: LiveTable, seat: int, lang: str) -> None:
        """Keep ``lang`` with ``seat``'s person (under the table's lock): in the store, for
        the seat's table sockets, and for the running match."""
        await self.change(live, live.table.with_lang(seat, lang))
        for conn in live.sockets:
            if self._seat_of(live, conn) == seat:
                live.langs[conn] = lang
        match = self.games.games.get(live.table.game) if live.table.game else None
        if match is not None and isinstance(match.session, TableSession):
            match.session.langs[seat] = lang  # (not set_lang: that would store it again)

    async def _handle(self, live: LiveTable, conn: Connection, text: str | bytes) -> None:
        who = live.who(conn)
        if who is None:
            return
        try:
            if isinstance(text, bytes):
                raise bad_request(BadMessage("protocol.binary"))
            try:
                msg = loads(text, "message") if len(text) <= MAX_MESSAGE else None
            except BadMessage as e:
                raise bad_request(e) from None
            if not isinstance(msg, dict):
                raise bad_request(BadMessage("protocol.not_object"))
            kind = msg.get("type")
            fields = {"ping": set(), "sync": set(), "say": {"say"},
                      "lang": {"lang"}}.get(str(kind))
            if fields is None or set(msg) != {"type", *fields}:
                raise bad_request(BadMessage("protocol.table_messages"))
            if kind == "sync":
                conn.send(live.table.lobby(who, self.here(live.table.id)))
            elif kind == "say":
                seat = live.table.seat_of(who)
                if seat is None:
                    raise TableRefusal("table.not_seated")
                if msg["say"] not in QUICK_MESSAGES:
                    raise TableRefusal("table.bad_quick", known=", ".join(QUICK_MESSAGES))
                self.quick.count(live.table.id, seat)
                said = {"type": "said", "seat": seat, "say": msg["say"]}
                for other in list(live.sockets):
                    other.send(said)
            elif kind == "lang":
                seat = live.table.seat_of(who)
                if seat is None:
                    raise TableRefusal("table.not_seated")
                if msg["lang"] not in LANGS:
                    raise bad_request(BadMessage("protocol.lang", known=", ".join(LANGS)))
                async with live.lock:
                    await self._set_lang(live, seat, msg["lang"])  # (announces: the answer)
        except TableRefusal as e:
            conn.send({"type": "error", **refusal_json(e, live.langs.get(conn, "en"))})


def host_device(request: Request) -> str | None:
    """The owner of a table's match: the device of the host who starts it (its games list and
    statistics have it), or nobody's when the request carries no usable device key."""
    try:
        return owner_of(request.headers.get(DEVICE_HEADER))
    except DeviceRefusal:
        return None


def _people_here(match: LiveGame) -> set[int]:
    """The seats with a person connected to the running match."""
    return {seat for seat in match.seats.values() if seat is not None}


def install_tables(app: FastAPI, lobby: Lobby) -> None:
    """The tables' routes (``create_app`` calls it)."""
    app.state.lobby = lobby

    def refused(request: Request, e: TableRefusal) -> JSONResponse:
        return JSONResponse(refusal_json(e, request_lang(request)), status_code=e.status)

    def refusing(handler: Callable[..., Awaitable[dict[str, Any]]]
                 ) -> Callable[..., Awaitable[dict[str, Any] | JSONResponse]]:
        """``handler``'s answer, or its refusal as the client is sent it (a bad option is a
        ``table.bad_request``).  FastAPI reads the handler's own parameters (``wraps``) and
        passes every one by name, the request too."""
        @functools.wraps(handler)
        async def answer(**params: Any) -> dict[str, Any] | JSONResponse:
            try:
                return await handler(**params)
            except ConfigError as e:
                return refused(params["request"], bad_request(e))
            except TableRefusal as e:
                return refused(params["request"], e)
        return answer

    async def act(request: Request, table_id: str,
                  change: Callable[[LiveTable, Pass], Awaitable[dict[str, Any]]]
                  ) -> dict[str, Any]:
        """``change`` done for the holder of the request's key (``Lobby.act``)."""
        result: dict[str, Any] = await lobby.act(table_id, request.headers.get(KEY_HEADER),
                                                 change)
        return result

    async def body_of(request: Request) -> Any:
        raw = await request.body()
        if len(raw) > MAX_MESSAGE:
            raise bad_request(BadMessage("protocol.request_too_long"))
        try:
            return loads(raw or b"{}", "request")
        except BadMessage as e:
            raise bad_request(e) from None

    async def empty(request: Request) -> bool:
        """Whether the body of a request that takes nothing is ``{}`` (or none)."""
        given: object = await body_of(request)
        return given == {}

    def base_of(request: Request) -> str:
        return str(request.base_url)

    def person_of(request: Request, needed: bool = False) -> str | None:
        """The hash of the request's device key (None when it sent none and none is
        needed); TableRefusal for a malformed one."""
        key = request.headers.get(PERSON_HEADER)
        if key is None and not needed:
            return None
        try:  # (the same owner a device's games of one person have)
            return owner_of(key)
        except DeviceRefusal:
            raise TableRefusal("table.person_key") from None

    @app.post("/api/tables", status_code=201, response_model=None)
    @refusing
    async def open_table(request: Request) -> dict[str, Any]:
        return await lobby.open(await body_of(request), base_of(request), person_of(request))

    @app.get("/api/tables/{table_id}", response_model=None)
    @refusing
    async def table_lobby(request: Request, table_id: str) -> dict[str, Any]:
        async def show(live: LiveTable, who: Pass) -> dict[str, Any]:
            return live.table.lobby(who, lobby.here(table_id))

        return await act(request, table_id, show)

    @app.post("/api/tables/{table_id}/join", response_model=None)
    @refusing
    async def join(request: Request, table_id: str) -> dict[str, Any]:
        data = await body_of(request)
        if not isinstance(data, dict) or "name" not in data or set(data) - {"name", "seat"}:
            raise bad_request(BadMessage("protocol.table_join"))

        person = person_of(request)

        async def sit(live: LiveTable, who: Pass) -> dict[str, Any]:
            table, key = live.table.joined(who, data["name"], data.get("seat"), person)
            await lobby.change(live, table)
            seat = who.seat if who.seat is not None else data["seat"]
            return {"seat": seat,
                    "link": lobby.link(base_of(request), table_id, key) if key else None,
                    "key": key}

        return await act(request, table_id, sit)

    @app.post("/api/tables/{table_id}/fill", response_model=None)
    @refusing
    async def fill(request: Request, table_id: str) -> dict[str, Any]:
        async def fill_seats(live: LiveTable, who: Pass) -> dict[str, Any]:
            await lobby.change(live, live.table.filled(who))
            return live.table.lobby(who, lobby.here(table_id))

        if not await empty(request):
            raise bad_request(BadMessage("protocol.table_fill"))
        return await act(request, table_id, fill_seats)

    @app.post("/api/tables/{table_id}/seats/{seat}", response_model=None)
    @refusing
    async def hand_over(request: Request, table_id: str, seat: int) -> dict[str, Any]:
        data = await body_of(request)
        if not isinstance(data, dict) or set(data) != {"computer"}:
            raise bad_request(BadMessage("protocol.table_hand_over"))

        async def hand(live: LiveTable, who: Pass) -> dict[str, Any]:
            match = await lobby.match_of(live)
            present = lobby.here(table_id)
            await lobby.change(live, live.table.handed(who, seat, data["computer"], present))
            if match is not None:
                await lobby.hand_over(match, seat, data["computer"])
            return live.table.lobby(who, lobby.here(table_id))

        return await act(request, table_id, hand)

    @app.post("/api/tables/{table_id}/links", response_model=None)
    @refusing
    async def new_links(request: Request, table_id: str) -> dict[str, Any]:
        key = request.headers.get(KEY_HEADER)

        async def relink(live: LiveTable, who: Pass) -> dict[str, Any]:
            table, keys = live.table.relinked(who)
            await lobby.change(live, table)  # (closes the table's sockets of the old keys)
            match = await lobby.match_of(live)
            if match is not None:
                lobby.close_replaced(live, match)
            return lobby.links(base_of(request), table_id, {**keys, "host": key})

        if not await empty(request):
            raise bad_request(BadMessage("protocol.table_new_links"))
        return await act(request, table_id, relink)

    @app.post("/api/tables/{table_id}/start", response_model=None)
    @refusing
    async def start(request: Request, table_id: str) -> dict[str, Any]:
        async def start_game(live: LiveTable, who: Pass) -> dict[str, Any]:
            live.table.started_as(who, "")  # refused before a game is made for nothing
            seats = live.table
            try:
                session = await lobby.games.create(
                    seats.game_options(),
                    lambda game_id, config: lobby.hooked(
                        TableSession.start(game_id, config, seats)),
                    host_device(request))
            except TableRefusal:
                raise
            except CanastaError as e:  # (a ConfigError too)
                raise bad_request(e) from None
            except Exception as e:
                write_problem(e, "the game of a table")
                raise TableRefusal("table.cannot_save") from None
            started = live.table.started_as(who, session.id)
            people = {n: p for n in range(len(started.seats))
                      if (p := started.person_of(n)) is not None}
            try:  # (whose statistics and games list the match is in)
                await asyncio.to_thread(lobby.store.seat_people, session.id, people)
            except Exception as e:
                write_problem(e, "the people of a table's game")
                raise TableRefusal("table.cannot_save") from None
            await lobby.change(live, started)
            lobby.wind(live)
            return {"game": session.id}

        if not await empty(request):
            raise bad_request(BadMessage("protocol.table_start"))
        return await act(request, table_id, start_game)

    @app.get("/api/tables/{table_id}/replay", response_model=None)
    @refusing
    async def table_replay(request: Request, table_id: str, hand: int = 1) -> dict[str, Any]:
        async def frames(live: LiveTable, who: Pass) -> dict[str, Any]:
            seat = live.table.seat_of(who)
            if seat is None:
                raise TableRefusal("table.not_seated")
            if live.table.game is None:
                raise TableRefusal("table.not_started")
            game_id = live.table.game
            try:
                stored = await asyncio.to_thread(lobby.store.load, game_id)
                if stored is None:
                    raise TableRefusal("table.game_gone")
                return await asyncio.to_thread(replay_frames, stored, hand, seat,
                                               seat_names(live.table))
            except TableRefusal:
                raise
            except CanastaError as e:  # (an UnreadableGame, a ConfigError too)
                raise bad_request(e) from None

        return await act(request, table_id, frames)

    @app.get("/api/person/stats", response_model=None)
    async def person_stats(request: Request) -> dict[str, Any] | JSONResponse:
        """The statistics of the person whose key the request carries (``/api/stats``'s
        answer, over the games they played, each for their own side)."""
        try:
            person = person_of(request, needed=True)
        except TableRefusal as e:
            return refused(request, e)
        assert person is not None
        result: dict[str, Any] = await asyncio.to_thread(lobby.store.person_stats, person)
        return result

    @app.get("/api/person/games", response_model=None)
    async def person_games(request: Request, limit: int = PERSON_PAGE,
                           before: str | None = None) -> dict[str, Any] | JSONResponse:
        """The games of the person whose key the request carries (``/api/games``'s answer,
        each game with ``seat``: theirs)."""
        try:
            person = person_of(request, needed=True)
            if not 1 <= limit <= PAGE_LIMIT:
                raise bad_request(BadMessage("protocol.limit", most=PAGE_LIMIT,
                                             value=str(limit)))
            try:
                cursor = read_cursor(before) if before is not None else None
            except ValueError:
                raise bad_request(BadMessage("protocol.bad_cursor")) from None
        except TableRefusal as e:
            return refused(request, e)
        assert person is not None
        page = await asyncio.to_thread(lobby.store.person_page, person, limit, cursor)
        return {"games": page.games, "next": page.next, "unreadable": page.unreadable}

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        await lobby.attend(ws, table_id)

    @app.websocket("/ws/tables/{table_id}/play")
    async def play_socket(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        await lobby.play(ws, table_id)


__all__ = ["KEY_HEADER", "PERSON_HEADER", "Lobby", "install_tables", "refusal_json"]
