"""Steps per second through each research interface, beside the engine's own figure.

Every interface plays uniformly random legal actions (the action mask) for whole hands of one
table, on one core:

* engine: ``HandState.legal_moves()`` and ``apply`` (one step = one move);
* EnvGame: ``legal_actions()`` and ``step`` (one step = one action; a move laying several
  groups is several actions);
* OpenSpiel: ``python_canasta`` through pyspiel (``legal_actions``/``apply_action``; the deal's
  chance nodes are counted apart);
* PettingZoo: the AEC environment (``last()`` with its observation and mask, then ``step``);
* Gymnasium: the single-seat environment whose other seats are our random players (one step =
  one action of the agent; the other seats' moves happen inside it).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

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
    import numpy as np

    from canasta.envs.pettingzoo import env as make_env

    environment = make_env(variant=rules.variant.name, players=rules.players)
    rng = np.random.default_rng(seed)
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
            legal = np.flatnonzero(obs["action_mask"])
            environment.step(int(rng.choice(legal)))
            steps += 1
        return steps, 1

    return hand


def gymnasium(rules: Rules, seed: int) -> Callable[[], tuple[int, int]]:
    import numpy as np

    from canasta.envs.gymnasium import CanastaEnv

    environment = CanastaEnv(variant=rules.variant.name, players=rules.players,
                             opponents="random")
    rng = np.random.default_rng(seed)
    count = [0]

    def hand() -> tuple[int, int]:
        count[0] += 1
        obs, _info = environment.reset(seed=seed + count[0])
        steps = 0
        done = False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            obs, _r, terminated, truncated, _info = environment.step(int(rng.choice(legal)))
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


if __name__ == "__main__":
    print("\n".join(measure(5.0)))
