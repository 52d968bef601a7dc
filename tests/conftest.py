"""Shared test helpers."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from canasta.engine.state import HandState
from canasta.position import position_from_json

ROOT = Path(__file__).resolve().parents[1]
SHORT_SHARE = 10  # --short plays one self-play match in this many


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--short", action="store_true",
                     help=f"the shorter pass (make test's pure Python pass): one self-play "
                          f"match in {SHORT_SHARE}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that drives Chromium (the ``browser`` fixture, directly or through ``page``) is
    ``slow`` and ``browser``: a quick run (``pytest -m "not slow"``) leaves the browser out, and
    ``make test`` runs the browser tests in a process of their own beside the others."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)
            item.add_marker(pytest.mark.browser)


@pytest.fixture
def matches_to_play(request: pytest.FixtureRequest) -> Callable[[int], int]:
    """``matches`` as the pass asks: all of them, or a share with --short (at least 2)."""
    def count(matches: int) -> int:
        return max(2, matches // SHORT_SHARE) if request.config.getoption("short") else matches
    return count
SHARED = Path(os.environ.get("CANASTA_SHARED", ROOT.parent / "shared"))


def position(**fields: Any) -> HandState:
    """A position with FORMAT.md defaults for whatever is not given."""
    players = fields.get("players", 4)
    sides = 2 if players == 4 else players
    base: dict[str, Any] = {
        "variant": "classic",
        "players": players,
        "scores": [0] * sides,
        "turn": 0,
        "phase": "draw",
        "hands": [[] for _ in range(players)],
        "melds": [[] for _ in range(sides)],
        "threes": [[] for _ in range(sides)],
        "discard": [],
        "stock": [],
    }
    base.update(fields)
    return position_from_json(base)


@pytest.fixture
def make_position() -> Any:
    return position


class LiveServer:
    """The game server in a thread of this process, on a free loopback port, configured as
    ``canasta serve`` configures it.  ``send_buffer``: the kernel's send buffer of every
    connection in bytes (small, a client that stops reading is soon behind)."""

    #: The device whose games ``new_game`` makes (a game's socket says it first: ``hello``).
    DEVICE = "live-server-device-key-0123456"
    hello = json.dumps({"type": "hello", "key": DEVICE})

    def __init__(self, db: Path, *, send_buffer: int | None = None) -> None:
        import socket
        import threading

        import uvicorn

        from canasta.web.app import create_app, server_config

        self.listener = socket.socket()
        if send_buffer is not None:  # (accepted connections inherit it)
            self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
        self.listener.bind(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.app = create_app(db, host="127.0.0.1", port=self.port)
        self.server = uvicorn.Server(server_config(self.app, "127.0.0.1", self.port))
        self.thread = threading.Thread(target=self.server.run,
                                       kwargs={"sockets": [self.listener]}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    @property
    def hub(self) -> Any:
        return self.app.state.hub

    def __enter__(self) -> LiveServer:
        import time

        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)
        self.listener.close()

    def new_game(self, **options: Any) -> str:
        import urllib.request

        body = {"levels": ["random"] * 3, "target": 2500, **options}
        request = urllib.request.Request(f"{self.url}api/games", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json",
                                                  "X-Canasta-Device": self.DEVICE})
        with urllib.request.urlopen(request, timeout=10) as r:
            return str(json.load(r)["id"])

    def session(self, game_id: str) -> Any:
        return self.hub.games[game_id].session

    def only_game(self) -> Any:
        games = self.hub.games
        assert len(games) >= 1
        return list(games.values())[-1].session
