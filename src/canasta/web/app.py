"""The game server: FastAPI (Starlette) with one WebSocket per human seat (docs/PROTOCOL.md).

The server holds the live games, lets the computer seats play (in a worker thread, so the
server stays responsive while a master player thinks), stores every move in SQLite, and sends
each seat only its own view.  Every request that is malformed, illegal or out of turn gets a
clear error and changes nothing.

A move is announced only once it is stored.  When the store cannot write (a full disk), the
game goes back to what the store holds, its sockets get an error and a state marked
``paused``, and the server tries to write again, more and more slowly, until it can: then the
game goes on.  Store reads and writes run in worker threads, never on the event loop.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from canasta.errors import CanastaError
from canasta.i18n import LANGS, LOCALE, params_json, render
from canasta.records import hand_moves, replay, replay_hand
from canasta.view import PlayerView
from canasta.web.connection import CLOSE_FAILED, GONE, Connection, dumps
from canasta.web.guard import Site, protect
from canasta.web.present import view_json
from canasta.web.quick import QUICK_MESSAGES
from canasta.web.session import (
    HUMAN,
    GameConfig,
    GameSession,
    new_game_choices,
    new_seed,
)
from canasta.web.store import (
    PAGE_LIMIT,
    Store,
    StoredGame,
    UnreadableGame,
    WriteRefused,
    default_db_path,
    read_cursor,
    summary_of,
)
from canasta.web.tablegame import TableSession

if TYPE_CHECKING:
    import uvicorn

STATIC = Path(__file__).parent / "static"
MAX_LIVE = 256  # games kept in memory; the rest wait in the store
MAX_MESSAGE = 4096  # characters: every legal message is far shorter
WS_MAX_SIZE = 4 * MAX_MESSAGE  # bytes: MAX_MESSAGE characters of UTF-8 at most
PAGE_SIZE = 50  # games in a page of the list when the request does not say
RETRY_FIRST = 0.5  # seconds before a paused game first tries to write again
RETRY_MAX = 30.0  # ... and at most, the wait doubling after every failed try
FIELDS: dict[str, dict[str, type]] = {  # the client's messages and their fields
    "move": {"move": str},
    "hint": {},
    "undo": {},
    "next_hand": {},
    "lang": {"lang": str},
    "sync": {},
    "ping": {},
    "say": {"say": str},  # a quick message (a table's people only)
}
ID_MAX = 2**31 - 1  # a request id that is a number: 0 to ID_MAX
ID_LENGTH = 32  # a request id that is a string: 1 to ID_LENGTH of ID_CHARS
ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:")
CLOSE_NOT_HUMAN = 4403
CLOSE_NO_GAME = 4404
CLOSE_CORRUPT = 4422
log = logging.getLogger("canasta.web")


RequestId = int | str


class BadMessage(CanastaError):
    """A client message that is not one of the protocol's (a ``protocol.*`` code); ``id``: the
    message's own request id when it gave a valid one (its error echoes it, so the client knows
    what was refused)."""

    def __init__(self, code: str, request: RequestId | None = None, /, **params: Any) -> None:
        super().__init__(code, **params)
        self.id = request


def sendable(text: str) -> str:
    """``text`` as valid UTF-8: a client may send what JSON allows but UTF-8 cannot carry
    (a lone surrogate), and an error message may quote it back."""
    return text.encode("utf-8", "replace").decode("utf-8")


#: pydantic's error types for a value that is no whole number (the parameters that FastAPI
#: checks are the whole numbers 'limit' and 'hand').
NOT_WHOLE: Final = frozenset({"int_parsing", "int_from_float", "int_type"})


def request_problem(errors: Sequence[Any]) -> BadMessage:
    """Why FastAPI refused a request's parameters, by code (pydantic's own words are English
    only): the first problem it found, with the parameter's name and the value given."""
    first = errors[0] if errors else {}
    name = repr(str(first.get("loc", ("", "?"))[-1]))
    kind = first.get("type")
    if kind == "missing":
        return BadMessage("protocol.request_needs", name=name)
    if kind in NOT_WHOLE:
        return BadMessage("protocol.whole_number", name=name, value=repr(first.get("input")))
    return BadMessage("protocol.invalid_field", name=name)


def error_json(error: CanastaError | str, lang: str) -> dict[str, Any]:
    """An error for the client: ``message`` in the player's language, ``english`` as the API
    says it (in the notation), and the refusal's ``code`` and ``params`` (docs/PROTOCOL.md).
    A plain text (a malformed request: the developer's error) has the code ``error.uncoded``."""
    e = error if isinstance(error, CanastaError) else CanastaError(error)
    return {"message": sendable(render(e, lang if lang in LANGS else "en")),
            "english": sendable(str(e)), "code": e.code,
            "params": json_safe(params_json(e.params))}


def json_safe(value: Any) -> Any:
    """``value`` with its texts made valid UTF-8 (``sendable``): a parameter may quote the
    client's text back."""
    if isinstance(value, str):
        return sendable(value)
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_safe(v) for v in value]
    return value


def request_lang(request: Request) -> str:
    """The language a request asks for (its Accept-Language header; English otherwise)."""
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGS:
            return code
    return "en"


class _Repeated(ValueError):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Repeated(key)
        out[key] = value
    return out


def loads(text: str | bytes, what: str) -> Any:
    """JSON ``text`` of a client's ``what`` ("message" or "request"); raises BadMessage when it
    is not JSON or an object in it names a field twice (JSON would keep the last one silently,
    where the client may have meant the first)."""
    try:
        return json.loads(text, object_pairs_hook=_unique_keys)
    except _Repeated as e:
        raise BadMessage("protocol.message_field_twice" if what == "message"
                         else "protocol.request_field_twice", name=repr(sendable(e.name))) from None
    except (ValueError, RecursionError):
        raise BadMessage("protocol.message_not_json" if what == "message"
                         else "protocol.request_not_json") from None


def request_id(data: dict[str, Any]) -> RequestId | None:
    """A message's ``id`` (None when it gives none): what the server echoes in its answer.
    Only small values are taken, so that an echo is never larger or stranger than the
    client's own message; anything else raises BadMessage."""
    if "id" not in data:
        return None
    value = data["id"]
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= ID_MAX:
        return value
    if isinstance(value, str) and 0 < len(value) <= ID_LENGTH and set(value) <= ID_CHARS:
        return value
    raise BadMessage("protocol.bad_id", most=ID_MAX, length=ID_LENGTH)


def parse_message(text: str) -> dict[str, Any]:
    """Check a client message against the protocol; raises BadMessage saying what is wrong
    (carrying the message's id once that is known to be valid)."""
    if len(text) > MAX_MESSAGE:
        raise BadMessage("protocol.message_too_long")
    data = loads(text, "message")
    if not isinstance(data, dict):
        raise BadMessage("protocol.not_object")
    rid = request_id(data)
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise BadMessage("protocol.unknown_type", rid, text=repr(kind), known=", ".join(FIELDS))
    fields = FIELDS[kind]
    unknown = sorted(set(data) - set(fields) - {"type", "id"})
    if unknown:
        raise BadMessage("protocol.unknown_fields", rid, text=repr(kind), names=", ".join(unknown))
    for name, typ in fields.items():
        if name not in data:
            raise BadMessage("protocol.needs_field", rid, text=repr(kind), name=repr(name))
        if not isinstance(data[name], typ):
            raise BadMessage("protocol.field_type", rid, name=repr(name), text=typ.__name__)
    return data


def answering(message: dict[str, Any], rid: RequestId | None) -> dict[str, Any]:
    """``message`` as the answer to the request ``rid`` (unchanged when it had no id)."""
    return message if rid is None else {**message, "id": rid}


@dataclass
class LiveGame:
    session: GameSession
    saved: tuple[dict[str, Any], dict[str, Any]]  # the options and record the store holds
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


Reply = tuple[Connection, RequestId | None]  # a request's connection and its id


class CorruptGame(Exception):
    """A stored game that cannot be played: ``error`` says why, ``lang`` is its language
    (English when not even its options can be read)."""

    def __init__(self, error: CanastaError, lang: str) -> None:
        super().__init__(str(error))
        self.error = error
        self.lang = lang


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
                     make: Callable[[str, GameConfig], GameSession] = GameSession
                     ) -> GameSession:
        """A new game, stored before it is announced (raises what the store raises when it
        cannot write, and then nothing is kept); ``make``: its session from its id and
        options."""
        config = GameConfig.from_json(options, new_seed())
        session = make(secrets.token_urlsafe(9), config)
        saved = (config.to_json(), session.record())
        await asyncio.to_thread(self.store.create, session.id, *saved)
        self.games[session.id] = LiveGame(session, saved)
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
            stored, session = loaded
            live = LiveGame(session, (stored.config, stored.record))
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

    def _load(self, game_id: str) -> tuple[StoredGame, GameSession] | None:
        """A stored game and its session (in a worker thread: it reads and replays); raises
        CorruptGame when it cannot be played."""
        try:
            stored = self.store.load(game_id)
        except UnreadableGame as e:
            raise CorruptGame(e, _lang_of(e.config)) from None
        if stored is None:
            return None
        try:
            return stored, self.restorer(stored)
        except ValueError as e:  # CanastaError, ConfigError: a record that does not replay
            error = e if isinstance(e, CanastaError) else CanastaError(str(e))
            raise CorruptGame(error, _lang_of(stored.config)) from None

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
            message["people"] = s.people_json(x for x in live.seats.values() if x is not None)
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
                    s.config = _with_lang(s.config, msg["lang"])
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
                if live.paused is not None:
                    conn.send(self.pause_error(live))
                live.sockets.add(conn)  # after its first state: broadcasts come in order
                if table:  # who is here: everybody's list of the people
                    self.broadcast_state(live, None)
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
            await conn.finish()

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


def _with_lang(config: GameConfig, lang: str) -> GameConfig:
    return replace(config, lang=lang)


def _lang_of(config: object) -> str:
    """The language stored options ask for (English when they say none)."""
    lang = config.get("lang") if isinstance(config, dict) else None
    return lang if isinstance(lang, str) and lang in LANGS else "en"


def restore(stored: StoredGame) -> GameSession:
    """The session of a stored game (raises ConfigError or a CanastaError when corrupt)."""
    config = GameConfig.stored(stored.config)
    return GameSession.restore(stored.id, config, stored.record)


def replay_frames(stored: StoredGame, hand: int, seat: int = HUMAN,
                  names: list[str] | None = None) -> dict[str, Any]:
    """A hand of a stored game move by move, as ``seat`` saw it (``names``: the seats' names,
    when they are not the game's own: a table's people)."""
    config = GameConfig.stored(stored.config)
    match = replay(stored.record)
    n = len(match.moves)
    if not 1 <= hand <= n:
        raise CanastaError("web.hands_range", count=n)
    names, levels = names or config.seat_names(), config.seat_levels()
    shown = replay(stored.record, upto=hand)

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
              for f in replay_hand(shown, hand_moves(stored.record, hand), (seat,))]
    return {"hands": n, "hand": hand, "frames": frames}


def create_app(db: str | Path | None = None, *, host: str | None = None, port: int = 8000,
               origins: Iterable[str] = (), public_url: str | None = None) -> FastAPI:
    """The server's application, storing games in ``db`` (default: the user's data folder).

    ``host`` and ``port``: where the server listens; only those names are accepted as Host
    (and the loopback ones when it listens on loopback; see ``guard.Site.bound``).  Without
    ``host`` (an app served from elsewhere, as in the tests) any Host is, but a browser page
    must still come from the very origin it sends to.  ``origins``: more origins whose pages
    may use the server (``scheme://host[:port]``, such as a proxy's public address), whose names
    are accepted as Host too; ValueError when one is not an origin.  ``public_url``: the address
    people reach the server at (``serve --public-url``): an origin too, and where the tables'
    links point."""
    from canasta.web.lobby import Lobby, install_tables  # (it builds on this module)

    public = public_origin(public_url) if public_url is not None else None
    origins = [*origins, *([public] if public else [])]
    store = Store(db if db is not None else default_db_path())
    hub = Hub(store)
    lobby = Lobby(store, hub, public)
    filling: list[asyncio.Task[int]] = []  # the summaries of an older database, being built

    async def summaries_ready() -> None:
        """Wait until every stored game has its summary (at once, but for the first requests
        after an older database is opened); a failure was logged and the list goes on."""
        for task in filling:
            with suppress(Exception):
                await asyncio.shield(task)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        filling.append(asyncio.create_task(asyncio.to_thread(store.fill_summaries)))
        filling[0].add_done_callback(_log_failure)
        yield
        await lobby.close()
        await hub.close()
        store.close()
        await summaries_ready()

    app = FastAPI(title="Canasta", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.hub = hub
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def bad(request: Request, message: CanastaError | str, status: int = 400) -> JSONResponse:
        """A refused request: ``error`` in the language the request asks for (its
        Accept-Language header), ``english`` as the server says it, ``code`` and ``params``."""
        e = error_json(message, request_lang(request))
        return JSONResponse({"error": e.pop("message"), **e}, status_code=status)

    protect(app, Site.bound(host, port, origins), bad)
    install_tables(app, lobby)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return bad(request, request_problem(exc.errors()))

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/i18n/{lang}.po", include_in_schema=False, response_model=None)
    async def messages(request: Request, lang: str) -> FileResponse | JSONResponse:
        """The client's words: the catalogue of ``lang`` as it is (js/i18n.js reads it)."""
        if lang not in LANGS:
            return bad(request, BadMessage("protocol.lang", known=", ".join(LANGS)), 404)
        return FileResponse(LOCALE / f"{lang}.po", media_type="text/plain; charset=utf-8",
                            headers={"Cache-Control": "no-cache"})

    @app.get("/api/options")
    async def options() -> dict[str, Any]:
        return new_game_choices()

    async def body(request: Request) -> Any:
        raw = await request.body()
        if len(raw) > MAX_MESSAGE:
            raise BadMessage("protocol.request_too_long")
        return loads(raw or b"{}", "request")

    @app.post("/api/games", status_code=201, response_model=None)
    async def new_game(request: Request) -> dict[str, Any] | JSONResponse:
        try:
            session = await hub.create(await body(request))
        except CanastaError as e:  # (a BadMessage, a ConfigError)
            return bad(request, e)
        except Exception as e:  # the store could not write: nothing was kept
            return bad(request, CanastaError("web.not_created",
                                             reason=write_problem(e, "a new game")), 503)
        return {"id": session.id}

    @app.get("/api/games", response_model=None)
    async def games(request: Request, limit: int = PAGE_SIZE,
                    before: str | None = None) -> dict[str, Any] | JSONResponse:
        if not 1 <= limit <= PAGE_LIMIT:
            return bad(request, BadMessage("protocol.limit", most=PAGE_LIMIT, value=str(limit)))
        try:
            cursor = read_cursor(before) if before is not None else None
        except ValueError:
            return bad(request, BadMessage("protocol.bad_cursor"))
        await summaries_ready()
        page = await asyncio.to_thread(store.page, limit, cursor)
        return {"games": page.games, "next": page.next, "unreadable": page.unreadable}

    async def stored_or_404(request: Request, game_id: str) -> StoredGame | JSONResponse:
        try:
            stored = await asyncio.to_thread(store.load, game_id)
        except UnreadableGame as e:
            return bad(request, CanastaError("web.unreadable", reason=e))
        if stored is None:
            return bad(request, CanastaError("web.no_game", game=repr(game_id)), 404)
        return stored

    @app.get("/api/games/{game_id}", response_model=None)
    async def game(request: Request, game_id: str) -> dict[str, Any] | JSONResponse:
        stored = await stored_or_404(request, game_id)
        if isinstance(stored, JSONResponse):
            return stored
        table = await asyncio.to_thread(store.table_of_game, game_id)
        return {**summary_of(stored), "table": table[0] if table else None}

    @app.get("/api/games/{game_id}/replay", response_model=None)
    async def game_replay(request: Request, game_id: str,
                          hand: int = 1) -> dict[str, Any] | JSONResponse:
        stored = await stored_or_404(request, game_id)
        if isinstance(stored, JSONResponse):
            return stored
        if await asyncio.to_thread(store.table_of_game, game_id) is not None:
            # (each person replays their own seat's view, with their key: /api/tables/...)
            return bad(request, CanastaError("web.table_replay"), 403)
        try:
            return await asyncio.to_thread(replay_frames, stored, hand)
        except CanastaError as e:  # (a ConfigError too)
            return bad(request, e)

    @app.post("/api/games/{game_id}/lang", response_model=None)
    async def game_lang(game_id: str, request: Request) -> dict[str, Any] | JSONResponse:
        try:
            data = await body(request)
        except BadMessage as e:
            return bad(request, e)
        live = await _live_or_none(hub, game_id)
        if live is None:
            return bad(request, CanastaError("web.no_game", game=repr(game_id)), 404)
        if not isinstance(data, dict) or set(data) != {"lang"} or data["lang"] not in LANGS:
            return bad(request, BadMessage("protocol.lang", known=", ".join(LANGS)))
        async with live.lock:
            live.session.config = _with_lang(live.session.config, data["lang"])
            if not await hub.write(live):
                return bad(request, CanastaError("web.lang_not_saved", reason=live.paused),
                           503)
        return {"lang": data["lang"]}

    @app.get("/api/stats")
    async def player_stats() -> dict[str, Any]:
        await summaries_ready()
        return await asyncio.to_thread(store.stats)

    @app.websocket("/ws/games/{game_id}/{seat}")
    async def socket(ws: WebSocket, game_id: str, seat: str) -> None:
        await ws.accept()
        try:
            live = await hub.get(game_id)
        except CorruptGame as e:
            with suppress(*GONE):  # (the client may have left already)
                await ws.send_json({"type": "error",
                                    **error_json(CanastaError("web.unreadable", reason=e.error),
                                                 e.lang)})
                await ws.close(code=CLOSE_CORRUPT, reason="the saved game cannot be read")
            return
        if live is None or seat != str(HUMAN) or isinstance(live.session, TableSession):
            # (a table's match: every seat through the table's socket, with its key)
            with suppress(*GONE):
                if live is None:
                    await ws.close(code=CLOSE_NO_GAME, reason="no such game")
                else:
                    await ws.close(code=CLOSE_NOT_HUMAN, reason="not a human seat")
            return
        await hub.attend(live, ws)

    return app


def _log_failure(task: asyncio.Task[int]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("the games list's summaries could not be built", exc_info=task.exception())


async def _live_or_none(hub: Hub, game_id: str) -> LiveGame | None:
    try:
        return await hub.get(game_id)
    except CorruptGame:
        return None  # a corrupt stored game is reported as missing, and left as it is


def server_config(app: FastAPI, host: str, port: int, **more: Any) -> uvicorn.Config:
    """How ``serve`` runs ``app`` (and the tests their live servers): uvicorn refuses a
    WebSocket message longer than any the protocol takes (its own limit is 16 MiB, read in full
    before the app could refuse it) by closing the socket with 1009."""
    import uvicorn

    return uvicorn.Config(app, host=host, port=port, log_level="warning",
                          ws_max_size=WS_MAX_SIZE, **more)


def public_origin(url: str) -> str:
    """The origin of ``serve --public-url`` (``https://cards.example.org``, a path or a
    trailing slash left out); ValueError for anything but an http(s) address."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or "@" in parts.netloc \
            or parts.query or parts.fragment or parts.path not in ("", "/"):
        raise ValueError(f"the public URL is http(s)://host[:port], not {url!r}")
    return f"{parts.scheme}://{parts.netloc.lower()}"


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None,
          open_browser: bool = True, announce: Callable[[str], None] = print,
          public_url: str | None = None) -> None:
    """Run the server until interrupted (``canasta serve``); once it listens, say where and
    open a browser there (where a desktop exists)."""
    import threading

    import uvicorn

    shown = "localhost" if host in ("0.0.0.0", "::", "") else host
    url = f"http://{f'[{shown}]' if ':' in shown else shown}:{port}/"
    if public_url is not None:
        url = public_origin(public_url) + "/"
    app = create_app(db, host=host, port=port, public_url=public_url)
    server = uvicorn.Server(server_config(app, host, port))

    def when_ready() -> None:
        while not server.started:
            if server.should_exit:
                return
            threading.Event().wait(0.05)
        announce(f"Canasta is ready: open {url} in your browser (Ctrl+C stops the server)")
        if open_browser:
            _open_later(url)

    threading.Thread(target=when_ready, daemon=True).start()
    server.run()
    if not server.started:
        raise SystemExit(f"canasta: could not listen on {host}:{port} (is it in use?)")


def _open_later(url: str) -> None:
    import os
    import threading
    import webbrowser

    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
            or os.name == "nt" or os.uname().sysname == "Darwin"):
        return  # no desktop to open a browser on
    threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
