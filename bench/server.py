"""The game server under load: how fast it answers a move, and how many games it holds.

A real server process (``canasta serve``) is started on the loopback address; simulated players
connect over WebSockets and play (draw, discard, say yes), thinking ``THINK`` seconds between
moves like a person would.  Measured per move:

* ack: from sending the player's move to the server's answer for it;
* turn: from sending the player's discard until every computer player has moved and it is the
  player's turn again (the computer players are experts).

Then the number of concurrent games rises until the p95 ack passes 100 ms.

``bench/server.py store`` measures the store instead: a database of 2,000 finished games
(real records, ~60 MB) as a server of before the summaries wrote it; how long the server takes
to start on it, to answer the games list and the statistics, and how late a socket's answer
to ``sync`` comes while they are being answered.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

THINK = 1.0  # seconds a simulated player waits before each move
LIMIT_MS = 100.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(port: int, db: str) -> subprocess.Popen[bytes]:
    exe = Path(sys.executable).with_name("canasta")
    proc = subprocess.Popen([str(exe), "serve", "--port", str(port), "--no-browser", "--db", db],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/options", timeout=1)
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


#: The benchmark's device: a game of one person is its device's (docs/PROTOCOL.md, "Devices").
DEVICE = "the-benchmarks-device-key-0123"
HELLO = json.dumps({"type": "hello", "key": DEVICE})


def asking(url: str) -> urllib.request.Request:
    """A GET of ``url`` from the benchmark's device."""
    return urllib.request.Request(url, headers={"X-Canasta-Device": DEVICE})


def new_game(port: int, level: str) -> str:
    body = json.dumps({"levels": [level] * 3, "target": 5000}).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/games", data=body,
                                 headers={"Content-Type": "application/json",
                                          "X-Canasta-Device": DEVICE})
    with urllib.request.urlopen(req, timeout=10) as r:
        return str(json.load(r)["id"])


@dataclass
class Timings:
    ack: list[float] = field(default_factory=list)
    turn: list[float] = field(default_factory=list)
    errors: int = 0


def choose(view: dict[str, object]) -> dict[str, str]:
    legal = view["legal"]
    assert isinstance(legal, dict)
    if view["result"] is not None:
        return {"type": "next_hand"}
    if legal["yes"]:
        return {"type": "move", "move": "yes"}
    if legal["draw"]:
        return {"type": "move", "move": "draw"}
    if legal["pass"]:
        return {"type": "move", "move": "pass"}
    return {"type": "move", "move": f"discard {legal['discard'][0]}"}


async def player(port: int, level: str, until: float, t: Timings, think: float) -> None:
    from websockets.asyncio.client import connect

    game = await asyncio.to_thread(new_game, port, level)
    async with connect(f"ws://127.0.0.1:{port}/ws/games/{game}/0") as ws:
        await ws.send(HELLO)
        msg = json.loads(await ws.recv())
        while time.monotonic() < until:
            while msg.get("waiting"):
                msg = json.loads(await ws.recv())
            view = msg["view"]
            if view["match"]["over"]:
                return
            await asyncio.sleep(think)
            request = choose(view)
            sent = time.perf_counter()
            await ws.send(json.dumps(request))
            msg = json.loads(await ws.recv())
            t.ack.append(1000 * (time.perf_counter() - sent))
            if msg["type"] == "error":
                t.errors += 1
                msg = {"waiting": False, "view": view}
                continue
            while msg.get("waiting"):
                msg = json.loads(await ws.recv())
            if request.get("move", "").startswith("discard"):
                t.turn.append(1000 * (time.perf_counter() - sent))


async def load(port: int, games: int, seconds: float, level: str, think: float) -> Timings:
    t = Timings()
    until = time.monotonic() + seconds
    await asyncio.gather(*(player(port, level, until, t, think) for _ in range(games)))
    return t


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def measure(seconds: float = 20.0, level: str = "expert",
            steps: tuple[int, ...] = (1, 8, 16, 32, 64, 128)) -> list[str]:
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = start_server(port, os.path.join(tmp, "bench.sqlite3"))
        try:
            rows = ["| games at once | moves | ack p50 / p95 (ms) | computer turns p50 / p95 (ms) "
                    "| errors |", "|---|---|---|---|---|"]
            held = 0
            for games in steps:
                t = asyncio.run(load(port, games, seconds, level, THINK))
                p95 = pct(t.ack, 0.95)
                rows.append(f"| {games} | {len(t.ack)} | {statistics.median(t.ack):.1f} / "
                            f"{p95:.1f} | {pct(t.turn, 0.5):.0f} / {pct(t.turn, 0.95):.0f} "
                            f"| {t.errors} |")
                print(rows[-1], flush=True)
                if p95 > LIMIT_MS:
                    break
                held = games
            rows += ["", f"Games held at ack p95 ≤ {LIMIT_MS:.0f} ms: **{held}** (of the steps "
                     f"tried: {', '.join(map(str, steps))}); each simulated player thinks "
                     f"{THINK:.1f} s before every move, the computer players are {level}s. "
                     f"The machine's load average at the end: {os.getloadavg()[0]:.1f} (on a "
                     "shared machine the other processes' load costs this table the most)."]
            return rows
        finally:
            proc.terminate()
            proc.wait(timeout=10)


# --- tables with friends: several people per match ------------------------------------------------
def post(port: int, path: str, body: object, key: str | None = None) -> dict[str, object]:
    headers = {"Content-Type": "application/json"}
    if key is not None:
        headers["X-Canasta-Key"] = key
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(),
                                 headers=headers)
    with urllib.request.urlopen(req, timeout=10) as r:
        answer: dict[str, object] = json.load(r)
        return answer


def new_table(port: int, level: str) -> tuple[str, list[str]]:
    """A started table of Classic for four: people at seats 0 and 2 (partners), computer
    players at 1 and 3; its id and the two people's keys."""
    def key(link: object) -> str:
        return str(link).split("&k=", 1)[1]

    links = post(port, "/api/tables", {"name": "Ana", "target": 5000, "seats": [
        {"level": level}, {"friend": True}, {"level": level}]})
    table = str(links["id"])
    invites = links["invites"]
    assert isinstance(invites, dict)
    friend = key(invites["2"])
    post(port, f"/api/tables/{table}/join", {"name": "Luis"}, friend)
    post(port, f"/api/tables/{table}/start", {}, key(links["host"]))
    return table, [key(links["host"]), friend]


async def person(port: int, table: str, key: str, until: float, t: Timings,
                 think: float) -> None:
    """One person at a table: thinks ``think`` s, then plays, whenever it is their turn; the
    ack is from sending the move to the answer carrying its id (the other person's moves and
    the computer players' come in between on the same socket)."""
    from websockets.asyncio.client import connect

    async with connect(f"ws://127.0.0.1:{port}/ws/tables/{table}/play") as ws:
        await ws.send(json.dumps({"type": "hello", "key": key}))
        msg = json.loads(await ws.recv())
        n = 0
        while time.monotonic() < until:
            if msg.get("type") != "state" or msg.get("waiting"):
                msg = json.loads(await ws.recv())
                continue
            view = msg["view"]
            if view["match"]["over"]:
                return
            if not view["to_act"] and view["result"] is None:
                msg = json.loads(await ws.recv())
                continue
            await asyncio.sleep(think)
            n += 1
            request = {**choose(view), "id": n}
            sent = time.perf_counter()
            await ws.send(json.dumps(request))
            while True:
                msg = json.loads(await ws.recv())
                if msg.get("id") == n:
                    break
            t.ack.append(1000 * (time.perf_counter() - sent))
            if msg["type"] == "error":  # (the partner dealt the next hand first)
                t.errors += request["type"] != "next_hand"
                await ws.send(json.dumps({"type": "sync", "id": "again"}))
                while msg.get("id") != "again":
                    msg = json.loads(await ws.recv())


async def table_load(port: int, tables: int, seconds: float, level: str,
                     think: float) -> Timings:
    t = Timings()
    made = [await asyncio.to_thread(new_table, port, level) for _ in range(tables)]
    until = time.monotonic() + seconds
    await asyncio.gather(*(person(port, table, key, until, t, think)
                           for table, keys in made for key in keys))
    return t


def measure_tables(seconds: float = 20.0, level: str = "expert",
                   steps: tuple[int, ...] = (1, 4, 8, 16, 24, 32)) -> list[str]:
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = start_server(port, os.path.join(tmp, "bench.sqlite3"))
        try:
            rows = ["| tables at once | people | moves | ack p50 / p95 (ms) | errors |",
                    "|---|---|---|---|---|"]
            held = 0
            for tables in steps:
                t = asyncio.run(table_load(port, tables, seconds, level, THINK))
                p95 = pct(t.ack, 0.95)
                rows.append(f"| {tables} | {2 * tables} | {len(t.ack)} | "
                            f"{statistics.median(t.ack):.1f} / {p95:.1f} | {t.errors} |")
                print(rows[-1], flush=True)
                if p95 > LIMIT_MS:
                    break
                held = tables
            rows += ["", f"Tables held at ack p95 ≤ {LIMIT_MS:.0f} ms: **{held}** ({2 * held} "
                     f"people; of the steps tried: {', '.join(map(str, steps))}); each table "
                     f"is Classic for four, two partners who are people and two {level} "
                     f"computer players; each person thinks {THINK:.1f} s before every move. "
                     f"The machine's load average at the end: {os.getloadavg()[0]:.1f} (it is "
                     "shared)."]
            return rows
        finally:
            proc.terminate()
            proc.wait(timeout=10)


# --- the store: a long list of stored games -----------------------------------------------------
OLD_SCHEMA = """
CREATE TABLE games (id TEXT PRIMARY KEY, created REAL NOT NULL, updated REAL NOT NULL,
                    config TEXT NOT NULL, record TEXT NOT NULL, over INTEGER NOT NULL DEFAULT 0,
                    winner INTEGER);
CREATE INDEX games_updated ON games (updated);
"""


def finished_games(count: int) -> list[tuple[str, str, int | None]]:
    """``count`` whole matches (Classic to 10,000, three basic players: about 27 kB each):
    (config, record, winner) as the server stores them."""
    from canasta.bots.basic import BasicPlayer
    from canasta.web.session import GameConfig, GameSession

    out = []
    for seed in range(count):
        s = GameSession("g", GameConfig("classic", 3, 10000, ("basic",) * 2, "Ana", "en", seed))
        me = BasicPlayer(seed)
        while not s.match.over:
            if s.state.result is not None:
                s.next_hand()
            elif s.computer_to_act():
                s.computer_step()
            else:
                s.play(0, str(me.choose(s.view(0))))
        out.append((json.dumps(s.config.to_json()), json.dumps(s.record()), s.match.winner))
    return out


def older_database(path: str, games: int) -> float:
    """A database of ``games`` finished games as a server of before the summaries wrote it
    (copies of a few real matches under their own ids); its size in MB."""
    import sqlite3

    matches = finished_games(8)
    con = sqlite3.connect(path)
    con.executescript(OLD_SCHEMA)
    for i in range(games):
        config, record, winner = matches[i % len(matches)]
        con.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, 1, ?)",
                    (f"game{i:05d}", 1.7e9 + i, 1.7e9 + i, config, record, winner))
    con.commit()
    con.close()
    return os.path.getsize(path) / 1e6


def get_ms(url: str) -> float:
    sent = time.perf_counter()
    with urllib.request.urlopen(asking(url), timeout=120) as r:
        r.read()
    return 1000 * (time.perf_counter() - sent)


async def pings_meanwhile(port: int, game: str, calls: list[str]) -> tuple[list[float],
                                                                          list[float]]:
    """Answer ``sync`` on a game's socket every 10 ms while ``calls`` are asked one after the
    other: (each call's ms, each sync's ms)."""
    from websockets.asyncio.client import connect

    async with connect(f"ws://127.0.0.1:{port}/ws/games/{game}/0", max_size=None) as ws:
        await ws.send(HELLO)  # (the first one from this machine: the older games are its own)
        await ws.recv()
        pings: list[float] = []
        done = asyncio.Event()

        async def ping() -> None:
            while not done.is_set():
                sent = time.perf_counter()
                await ws.send(json.dumps({"type": "sync"}))
                await ws.recv()
                pings.append(1000 * (time.perf_counter() - sent))
                await asyncio.sleep(0.01)

        pinger = asyncio.create_task(ping())
        await asyncio.sleep(0.2)
        took = [await asyncio.to_thread(get_ms, url) for url in calls]
        done.set()
        await pinger
    return took, pings


def measure_store(games: int = 2000, repeats: int = 5) -> list[str]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    game = "game00000"
    rows = ["| request | answer ms p50 / max | a socket's sync ms p50 / max meanwhile |",
            "|---|---|---|"]

    def row(what: str, took: list[float], pings: list[float]) -> None:
        answer = f"{statistics.median(took):.0f} / {max(took):.0f}" if took else ""
        rows.append(f"| {what} | {answer} | {statistics.median(pings):.1f} / "
                    f"{max(pings):.1f} |")
        print(rows[-1], flush=True)

    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "games.sqlite3")
        size = older_database(db, games)
        started = time.perf_counter()
        proc = start_server(port, db)
        startup = time.perf_counter() - started
        try:
            row("the first `GET /api/games` after starting",
                *asyncio.run(pings_meanwhile(port, game, [f"{base}/api/games"])))
            row("(none: the socket alone)", [], asyncio.run(pings_meanwhile(port, game, []))[1])
            for path in ("/api/games", "/api/stats"):
                row(f"`GET {path}` ×{repeats}",
                    *asyncio.run(pings_meanwhile(port, game, [base + path] * repeats)))
            with urllib.request.urlopen(asking(f"{base}/api/games"), timeout=120) as r:
                first = json.load(r)
            pages, cursor = 1, first.get("next")
            paging = time.perf_counter()
            while cursor:  # the whole list, page by page (where the server pages)
                with urllib.request.urlopen(asking(f"{base}/api/games?before={cursor}"),
                                            timeout=120) as r:
                    cursor = json.load(r).get("next")
                pages += 1
            whole = 1000 * (time.perf_counter() - paging)
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    whole_list = (f"; paging through the whole list ({pages} pages) took {whole:.0f} ms"
                  if pages > 1 else "")
    rows += ["", f"{games} finished games ({size:.0f} MB, written as by a server of before the "
             f"summaries); the server answered {startup:.1f} s after it was started; the first "
             f"page lists {len(first['games'])} games{whole_list}. The machine's load "
             f"average at the end: {os.getloadavg()[0]:.1f} (it is shared)."]
    return rows


if __name__ == "__main__":
    if sys.argv[1:2] == ["store"]:
        print("\n".join(measure_store(int(sys.argv[2]) if len(sys.argv) > 2 else 2000)))
    elif sys.argv[1:2] == ["tables"]:
        print("\n".join(measure_tables(float(sys.argv[2]) if len(sys.argv) > 2 else 20.0)))
    else:
        print("\n".join(measure(float(sys.argv[1]) if len(sys.argv) > 1 else 20.0)))
