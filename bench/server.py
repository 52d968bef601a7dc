"""The game server under load: how fast it answers a move, and how many games it holds.

A real server process (``canasta serve``) is started on the loopback address; simulated players
connect over WebSockets and play (draw, discard, say yes), thinking ``THINK`` seconds between
moves like a person would.  Measured per move:

* ack: from sending the player's move to the server's answer for it;
* turn: from sending the player's discard until every computer player has moved and it is the
  player's turn again (the computer players are experts).

Then the number of concurrent games rises until the p95 ack passes 100 ms.
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


def new_game(port: int, level: str) -> str:
    body = json.dumps({"levels": [level] * 3, "target": 5000}).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/games", data=body,
                                 headers={"Content-Type": "application/json"})
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
                     f"{THINK:.1f} s before every move, the computer players are {level}s."]
            return rows
        finally:
            proc.terminate()
            proc.wait(timeout=10)


if __name__ == "__main__":
    print("\n".join(measure(float(sys.argv[1]) if len(sys.argv) > 1 else 20.0)))
