"""The game server: FastAPI (Starlette) with one WebSocket per human seat (docs/PROTOCOL.md).

``create_app`` puts together the HTTP routes and sockets of the games of one person over the
live games (``canasta.web.hub``) and the tables with friends (``canasta.web.lobby``); ``serve``
runs it.  Every request that is malformed, illegal or out of turn gets a clear error and
changes nothing; a game of one person is its device's, and nothing of it goes to a request or
socket without that device's key (``canasta.web.devices``).
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import socket
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.requests import HTTPConnection

from canasta.errors import CanastaError
from canasta.i18n import LANGS, LOCALE
from canasta.web.connection import GONE
from canasta.web.devices import DEVICE_HEADER, DeviceRefusal, from_the_machine, owner_of, owns
from canasta.web.guard import Site, protect
from canasta.web.hub import CorruptGame, Hub, LiveGame, replay_frames, with_lang, write_problem
from canasta.web.lobby import Lobby, install_tables
from canasta.web.protocol import (
    CLOSE_CORRUPT,
    CLOSE_NO_GAME,
    CLOSE_NO_KEY,
    CLOSE_NOT_HUMAN,
    MAX_MESSAGE,
    WS_MAX_SIZE,
    BadMessage,
    error_json,
    hello_of,
    loads,
    request_lang,
    request_problem,
)
from canasta.web.session import HUMAN, new_game_choices
from canasta.web.store import (
    PAGE_LIMIT,
    Store,
    StoredGame,
    UnreadableGame,
    default_db_path,
    read_cursor,
    summary_of,
)
from canasta.web.tablegame import TableSession

if TYPE_CHECKING:
    import uvicorn

STATIC = Path(__file__).parent / "static"
PAGE_SIZE = 50  # games in a page of the list when the request does not say
HELLO_WAIT = 10.0  # seconds a game's socket has to say whose device it is
log = logging.getLogger("canasta.web")


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

    adopting = asyncio.Lock()
    orphans = [True]  # games nobody owns may be stored (a database from before the devices)

    async def device(conn: HTTPConnection, key: object) -> str:
        """The owner ``key`` stands for (DeviceRefusal without a usable key).  The first key
        after the server starts that comes from the machine itself adopts the games nobody
        owns (canasta.web.devices)."""
        owner = owner_of(key)
        if orphans[0] and from_the_machine(conn):
            async with adopting:
                if orphans[0]:
                    try:
                        n = await asyncio.to_thread(store.adopt, owner)
                    except Exception as e:  # tried again at the next request from here
                        write_problem(e, "the games nobody owns")
                    else:
                        orphans[0] = False
                        hub.adopted(owner)
                        if n:
                            log.warning("%d stored games that belonged to no device were "
                                        "given to the first device that came from this "
                                        "machine", n)
        return owner

    def refused(request: Request, e: DeviceRefusal) -> JSONResponse:
        return bad(request, e, e.status)

    def no_game(request: Request, game_id: str) -> JSONResponse:
        """What every request about a game gets when it is not the device's: the same as
        for a game that does not exist (nothing says whether it does)."""
        return bad(request, CanastaError("web.no_game", game=repr(game_id)), 404)

    @app.post("/api/games", status_code=201, response_model=None)
    async def new_game(request: Request) -> dict[str, Any] | JSONResponse:
        try:
            owner = await device(request, request.headers.get(DEVICE_HEADER))
            session = await hub.create(await body(request), owner=owner)
        except DeviceRefusal as e:
            return refused(request, e)
        except CanastaError as e:  # (a BadMessage, a ConfigError)
            return bad(request, e)
        except Exception as e:  # the store could not write: nothing was kept
            return bad(request, CanastaError("web.not_created",
                                             reason=write_problem(e, "a new game")), 503)
        return {"id": session.id}

    @app.get("/api/games", response_model=None)
    async def games(request: Request, limit: int = PAGE_SIZE,
                    before: str | None = None) -> dict[str, Any] | JSONResponse:
        try:
            owner = await device(request, request.headers.get(DEVICE_HEADER))
        except DeviceRefusal as e:
            return refused(request, e)
        if not 1 <= limit <= PAGE_LIMIT:
            return bad(request, BadMessage("protocol.limit", most=PAGE_LIMIT, value=str(limit)))
        try:
            cursor = read_cursor(before) if before is not None else None
        except ValueError:
            return bad(request, BadMessage("protocol.bad_cursor"))
        await summaries_ready()
        page = await asyncio.to_thread(store.page, limit, cursor, owner=owner)
        return {"games": page.games, "next": page.next, "unreadable": page.unreadable}

    async def stored_or_refused(request: Request, game_id: str) -> StoredGame | JSONResponse:
        """The device's stored game ``game_id``, or the answer refusing it."""
        try:
            owner = await device(request, request.headers.get(DEVICE_HEADER))
            stored = await asyncio.to_thread(store.load, game_id)
        except DeviceRefusal as e:
            return refused(request, e)
        except UnreadableGame as e:
            if not owns(owner, e.owner):  # (a row SQLite cannot read says no owner either)
                return no_game(request, game_id)
            return bad(request, CanastaError("web.unreadable", reason=e))
        if stored is None or not owns(owner, stored.owner):
            return no_game(request, game_id)
        return stored

    @app.get("/api/games/{game_id}", response_model=None)
    async def game(request: Request, game_id: str) -> dict[str, Any] | JSONResponse:
        stored = await stored_or_refused(request, game_id)
        if isinstance(stored, JSONResponse):
            return stored
        table = await asyncio.to_thread(store.table_of_game, game_id)
        return {**summary_of(stored), "table": table[0] if table else None}

    @app.get("/api/games/{game_id}/replay", response_model=None)
    async def game_replay(request: Request, game_id: str,
                          hand: int = 1) -> dict[str, Any] | JSONResponse:
        stored = await stored_or_refused(request, game_id)
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
            owner = await device(request, request.headers.get(DEVICE_HEADER))
            data = await body(request)
        except DeviceRefusal as e:
            return refused(request, e)
        except BadMessage as e:
            return bad(request, e)
        live = await _live_or_none(hub, game_id)
        if live is None or not owns(owner, live.owner):
            return no_game(request, game_id)
        if not isinstance(data, dict) or set(data) != {"lang"} or data["lang"] not in LANGS:
            return bad(request, BadMessage("protocol.lang", known=", ".join(LANGS)))
        async with live.lock:
            live.session.config = with_lang(live.session.config, data["lang"])
            if not await hub.write(live):
                return bad(request, CanastaError("web.lang_not_saved", reason=live.paused),
                           503)
        return {"lang": data["lang"]}

    @app.get("/api/stats", response_model=None)
    async def player_stats(request: Request) -> dict[str, Any] | JSONResponse:
        try:
            owner = await device(request, request.headers.get(DEVICE_HEADER))
        except DeviceRefusal as e:
            return refused(request, e)
        await summaries_ready()
        return await asyncio.to_thread(store.stats, owner)

    async def hello(ws: WebSocket) -> str | None:
        """The owner a game socket's first message names, ``{"type": "hello", "key": KEY}``
        (within HELLO_WAIT seconds), or None once the socket has been refused and closed."""
        try:
            msg = await hello_of(ws, frozenset({"key"}), HELLO_WAIT)
            if msg is None:
                raise DeviceRefusal("device.no_key")
            return await device(ws, msg.get("key"))
        except (DeviceRefusal, BadMessage, TimeoutError) as e:
            refusal = e if isinstance(e, DeviceRefusal) else DeviceRefusal("device.no_key")
            with suppress(*GONE):  # (the client may have left already)
                await ws.send_json({"type": "error", **error_json(refusal, "en")})
                await ws.close(code=CLOSE_NO_KEY, reason=refusal.code)
            return None
        except GONE:
            return None

    @app.websocket("/ws/games/{game_id}/{seat}")
    async def socket(ws: WebSocket, game_id: str, seat: str) -> None:
        await ws.accept()
        owner = await hello(ws)
        if owner is None:
            return
        try:
            live = await hub.get(game_id)
        except CorruptGame as e:
            with suppress(*GONE):
                if not owns(owner, e.owner):
                    await ws.close(code=CLOSE_NO_GAME, reason="no such game")
                    return
                await ws.send_json({"type": "error",
                                    **error_json(CanastaError("web.unreadable", reason=e.error),
                                                 e.lang)})
                await ws.close(code=CLOSE_CORRUPT, reason="the saved game cannot be read")
            return
        if live is None or not owns(owner, live.owner) or seat != str(HUMAN) \
                or isinstance(live.session, TableSession):
            # (a table's match: every seat through the table's socket, with its key)
            with suppress(*GONE):
                if live is None or not owns(owner, live.owner):
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

    check_address(host, port)
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


def check_address(host: str, port: int) -> None:
    """A CanastaError naming ``host:port`` when the server could not listen there (a name that
    does not resolve, an address in use or not this machine's), found by binding each of its
    addresses as asyncio will, before the games database is opened: uvicorn would log the
    error and exit by itself."""
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        found = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as e:
        raise CanastaError(f"--host {host!r} is not a known name or address "
                           f"({getattr(e, 'strerror', None) or e})") from None
    why = {errno.EADDRINUSE: "the address is in use (is another server running there?)",
           errno.EADDRNOTAVAIL: "the address is not one of this machine's",
           errno.EACCES: "not allowed to use this port"}
    for family, kind, proto, _, address in found:
        with socket.socket(family, kind, proto) as s:
            if os.name == "posix":  # as asyncio does: a port in TIME_WAIT is free
                s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6 and hasattr(socket, "IPPROTO_IPV6"):
                s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                s.bind(address)
            except OSError as e:
                reason = why.get(e.errno or 0, e.strerror or str(e))
                raise CanastaError(f"cannot listen on {where}: {reason}") from None


def _open_later(url: str) -> None:
    import threading
    import webbrowser

    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
            or os.name == "nt" or os.uname().sysname == "Darwin"):
        return  # no desktop to open a browser on
    threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()

