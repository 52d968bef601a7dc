"""Steps per second through each research interface, beside the engine's own figure.

Every interface plays uniformly random legal actions (the action mask) for whole hands of one
table, on one core.  The agent's own pick is kept cheap (``random.Random`` over the mask's
nonzero ids: numpy's ``Generator.choice`` and ``flatnonzero`` cost about 10 us a step, as much
as a step of the environment itself now), so the figures are the interfaces':

* engine: ``HandState.legal_moves()`` and ``apply`` (one step = one move);
* EnvGame: ``legal_actions()`` and ``step`` (one step = one action; a move laying several
  groups is several actions);
* OpenSpiel: ``python_canasta`` through pyspiel (``legal_actions``/``apply_action``; the deal's
  chance nodes are counted apart);
* PettingZoo: the AEC environment (``last()`` with its observation and mask, then ``step``);
* Gymnasium: the single-seat environment whose other seats are our random players (one step =
  one action of the agent; the other seats' moves happen inside it).

    python bench/envs.py --against 02804b9 --hands 40 --repeats 2

measures PettingZoo's and Gymnasium's steps per CPU second side by side with an earlier
engine's (that commit's ``src``, ``git archive``), each run in a child process that times its
own CPU (``getrusage``), the engines taking turns, the best of ``--repeats``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from canasta.match import Match
from canasta.rules import Rules


def _timed(run: Callable[[], tuple[int, int]], seconds: float) -> tuple[float, float, int]:
    """Run hands until ``seconds`` have passed: (steps/s, hands/s, hands)."""
    start = time.perf_counter()
    steps = hands = 0
    while time.perf_counter() - start < seconds or hands == 0:
        s, h = run()
        steps += s
        hands += h
    elapsed = time.perf_counter() - start
    return steps / elapsed, hands / elapsed, hands


def engine(rules: Rules, seed: int) -> Callable[[], tuple[int, int]]:
    rng = random.Random(seed)
    count = [0]

    def hand() -> tuple[int, int]:
        count[0] += 1
        state = Match(rules, seed + count[0]).state
        steps = 0
        while state.result is None:
            state.apply(rng.choice(state.legal_moves()))
            steps += 1
        return steps, 1

    return hand


def envgame(rules: Rules, seed: int) -> Callable[[], tuple[int, int]]:
    from canasta.envs.core import EnvGame

    rng = random.Random(seed)
    count = [0]

    def hand() -> tuple[int, int]:
        count[0] += 1
        game = EnvGame(rules, seed=seed + count[0])
        steps = 0
        while not game.over:
            game.step(rng.choice(game.legal_actions()))
            steps += 1
        return steps, 1

    return hand


def openspiel(rules: Rules, seed: int) -> Callable[[], tuple[int, int]]:
    import pyspiel

    import canasta.envs.openspiel  # noqa: F401  (registers python_canasta)

    game = pyspiel.load_game("python_canasta", {"variant": rules.variant.name,
                                                "players": rules.players})
    rng = random.Random(seed)

    def hand() -> tuple[int, int]:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps, 1

    return hand


def pettingzoo(rules: Rules, seed: int) -> Callable[[], tuple[int, int]]:
    from canasta.envs.pettingzoo import env as make_env

    environment = make_env(variant=rules.variant.name, players=rules.players)
    rng = random.Random(seed)
    count = [0]

    def hand() -> tuple[int, int]:
        count[0] += 1
        environment.reset(seed=seed + count[0])
        steps = 0
        for _agent in environment.agent_iter():
            obs, _reward, terminated, truncated, _info = environment.last()
            if terminated or truncated:
                environment.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            environment.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        return steps, 1

    return hand


def gymnasium(rules: Rules, seed: int) -> Callable[[], tuple[int, int]]:

    from canasta.envs.gymnasium import CanastaEnv

    environment = CanastaEnv(variant=rules.variant.name, players=rules.players,
                             opponents="random")
    rng = random.Random(seed)
    count = [0]

    def hand() -> tuple[int, int]:
        count[0] += 1
        obs, _info = environment.reset(seed=seed + count[0])
        steps = 0
        done = False
        while not done:
            legal = obs["action_mask"].nonzero()[0]
            obs, _r, terminated, truncated, _info = environment.step(
                int(legal[rng.randrange(len(legal))]))
            done = terminated or truncated
            steps += 1
        return steps, 1

    return hand


INTERFACES = (("engine (moves)", engine), ("EnvGame (actions)", envgame),
              ("OpenSpiel", openspiel), ("PettingZoo AEC", pettingzoo),
              ("Gymnasium (1 seat of 4)", gymnasium))
TABLES = (("classic", 4), ("modern-american", 4), ("ponytail", 4))


def measure(seconds: float = 10.0) -> list[str]:
    rows = ["| table | interface | steps per second | hands per second | hands timed |",
            "|---|---|---|---|---|"]
    for variant, players in TABLES:
        rules = Rules.make(variant, players)
        for name, make in INTERFACES:
            label = name.replace("of 4", f"of {players}")
            steps, hands, n = _timed(make(rules, 11), seconds)
            rows.append(f"| {variant} {players}p | {label} | {steps:,.0f} | {hands:.2f} | {n} |")
            print(rows[-1], flush=True)
    return rows


CHILD = """
import json, resource, sys
sys.path.insert(0, sys.argv[1])
import envs
from canasta.rules import Rules
rules = Rules.make(sys.argv[3], 4)
play = getattr(envs, sys.argv[2])(rules, 11)
before = resource.getrusage(resource.RUSAGE_SELF)
steps = sum(play()[0] for _ in range(int(sys.argv[4])))
after = resource.getrusage(resource.RUSAGE_SELF)
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
try:
    from canasta.core import describe
except ImportError:  # an engine from before the compiled core
    describe = lambda: "pure Python core"
print(json.dumps({"cpu": cpu, "steps": steps, "core": describe()}))
"""
ROOT = Path(__file__).resolve().parents[1]
STEPPED = (("PettingZoo AEC", "pettingzoo"), ("Gymnasium (1 seat of 4)", "gymnasium"))


def side_by_side(hands: int, repeats: int, against: str) -> list[str]:
    """PettingZoo's and Gymnasium's steps per CPU second, here and at ``against``."""
    rows = ["| table | interface | hands | steps per CPU second | ... at " + against
            + f" | now / {against} |", "|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", against, "src"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        engines = {"now": ROOT / "src", "then": Path(tmp) / "src"}
        for variant, _players in TABLES:
            n = hands if variant != "ponytail" else max(5, hands // 5)
            for label, name in STEPPED:
                best: dict[str, dict[str, float]] = {}
                for _ in range(repeats):
                    for engine, src in engines.items():
                        out = subprocess.run(
                            [sys.executable, "-c", CHILD, str(Path(__file__).parent), name,
                             variant, str(n)],
                            env=dict(os.environ, PYTHONPATH=str(src)), check=True,
                            capture_output=True, text=True)
                        r = json.loads(out.stdout)
                        if engine not in best or r["cpu"] < best[engine]["cpu"]:
                            best[engine] = r
                # (The engines may play other games where a rule was fixed since: Ponytail's
                # going out; the rates are per step either way.)
                rate = {e: r["steps"] / r["cpu"] for e, r in best.items()}
                rows.append(f"| {variant} 4p | {label} ({best['now']['core']}) | {n} | "
                            f"{rate['now']:,.0f} | "
                            f"{rate['then']:,.0f} | {rate['now'] / rate['then']:.2f} |")
                print(rows[-1], flush=True)
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", help="side by side with this commit's engine (CPU time)")
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    if args.against:
        side_by_side(args.hands, args.repeats, args.against)
    else:
        print("\n".join(measure(5.0)))
