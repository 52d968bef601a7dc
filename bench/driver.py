"""The match driver's cost in its hot loops, in CPU time, this source beside an earlier commit's.

    python bench/driver.py --against 3810f03

Four loops, each in a child process per source, the sources taking turns, ``--repeats`` times
(the best run counts), each child measuring its own CPU time (``getrusage``) around the loop:

* ``envgame``: classic 4p hands of uniformly random legal actions through ``EnvGame``;
* ``arena``: classic 4p duplicate deals between random players (``arena.play_deal``);
* ``position``: ``EnvGame.from_position`` and its legal actions (the search players' step);
* ``restore``: a browser game restored from its record mid-hand (``GameSession.restore``).

Every loop also reports a count of what it played (steps, or the record's moves), which must be
the same for both sources: the same seeds give the same games.  Pure Python modules run in both
(``CANASTA_PURE_PYTHON=1``), so an earlier commit's source compares with this one's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, random, resource, sys
from canasta.rules import Rules

what, n = sys.argv[1], int(sys.argv[2])
rules = Rules.make("classic", 4)

def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime

if what == "envgame":
    from canasta.envs.core import EnvGame
    rng = random.Random(5)
    start, count = cpu(), 0
    for h in range(n):
        game = EnvGame(rules, seed=h)
        while not game.over:
            game.step(rng.choice(game.legal_actions()))
            count += 1
elif what == "arena":
    from canasta.arena import ArenaConfig, play_deal
    config = ArenaConfig("classic", 4, ("random",), ("random",), n, seed=3)
    start, count = cpu(), 0
    for d in range(n):
        for play in play_deal(config, d):
            count += len(play.times[0]) + len(play.times[1])
elif what == "position":
    from canasta.envs.core import EnvGame
    from canasta.match import Match
    state = Match(rules, 9).state
    start, count = cpu(), n
    for _ in range(n):
        EnvGame.from_position(state).legal_actions()
else:  # restore
    from canasta.web.session import GameConfig, GameSession
    config = GameConfig("classic", 4, 5000, ("basic",) * 3, "Ana", "en", 7)
    game = GameSession("t", config)
    while game.match.hand_number < 2 or len(game.match.moves[-1]) < 60:
        if game.state.result is not None:
            game.next_hand()
        elif game.computer_to_act():
            game.computer_step()
        else:
            game.play(0, str(game.view(0).legal_moves[0]))
    record = game.record()
    start, count = cpu(), sum(len(h["moves"]) for h in record["hands"])
    for _ in range(n):
        again = GameSession.restore("t", config, record)
    assert again.view_json() == game.view_json()
print(json.dumps({"cpu": cpu() - start, "count": count}))
"""

LOOPS = (("envgame", 400, "hands"), ("arena", 60, "deals"), ("position", 60_000, "positions"),
         ("restore", 20, "restores"))


def run(src: Path, what: str, n: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(src), CANASTA_PURE_PYTHON="1")
    out = subprocess.run([sys.executable, "-c", CHILD, what, str(n)], env=env, check=True,
                         capture_output=True, text=True)
    result: dict[str, float] = json.loads(out.stdout)
    return result


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--against", default="3810f03", help="the earlier commit")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--scale", type=float, default=1.0, help="multiply every loop's size")
    args = p.parse_args()
    print(f"| loop | size | CPU s now | CPU s at {args.against} | now / then |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.against, "src"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        sources = {"now": ROOT / "src", "then": Path(tmp) / "src"}
        for what, size, unit in LOOPS:
            n = max(1, round(size * args.scale))
            best: dict[str, dict[str, float]] = {}
            for _ in range(args.repeats):
                for name, src in sources.items():
                    r = run(src, what, n)
                    if name not in best or r["cpu"] < best[name]["cpu"]:
                        best[name] = r
            if best["now"]["count"] != best["then"]["count"]:
                raise SystemExit(f"{what}: the two sources played different games")
            now, then = best["now"]["cpu"], best["then"]["cpu"]
            print(f"| {what} | {n} {unit} | {now:.3f} | {then:.3f} | {now / then:.2f} |",
                  flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
