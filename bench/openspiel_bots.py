"""OpenSpiel's own bots against our levels, over duplicate deals: the outside reference.

    python bench/openspiel_bots.py                       # the table of docs/BENCHMARKS.md
    python bench/openspiel_bots.py --team openspiel-mcts --vs expert --deals 4

OpenSpiel's bots play through ``canasta.envs.openspiel.OpenSpielPlayer``: at each decision
the hidden cards are dealt from the seat's view, so no bot sees a card its seat may not.
The levels registered here:

- ``openspiel-random``: ``open_spiel.python.bots.uniform_random`` (a random legal action id:
  a move laying several groups is several random choices);
- ``openspiel-mcts``: ``open_spiel.python.algorithms.mcts.MCTSBot``, random rollouts, in one
  world per decision (the settings of ``examples/mcts_vs_expert.py``);
- ``openspiel-ismcts``: ``open_spiel.python.algorithms.ismcts.ISMCTSBot``, random rollouts,
  a world dealt afresh for every simulation, nodes keyed by the seat's observation.

The deals are the arena's (``canasta.arena.play_deal``, both seatings of each deal), played
in worker processes that register the levels themselves.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from canasta.arena import ArenaConfig, ArenaReport, PlayResult, format_report, play_deal, summarize

SIMULATIONS = 50  # per decision, for both searches (the budget: docs/BENCHMARKS.md)
UCT = 300.0  # exploration constant: the returns are points, hundreds per hand
LEVELS = ("openspiel-random", "openspiel-mcts", "openspiel-ismcts")

ROWS = [  # (side A, side B, duplicate deals): Classic, 4 players, about 67 CPU minutes in all
    ("openspiel-random", "random", 400),
    ("openspiel-random", "basic", 400),
    ("openspiel-mcts", "random", 20),
    ("openspiel-mcts", "basic", 40),
    ("openspiel-mcts", "expert", 40),
    ("openspiel-ismcts", "basic", 40),
    ("openspiel-ismcts", "expert", 40),
]


def register(simulations: int = SIMULATIONS, uct: float = UCT,
             variant: str = "classic", players: int = 4) -> None:
    """Make the OpenSpiel levels known to ``canasta.bots.make_player`` in this process."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
    from open_spiel.python.bots import uniform_random

    from canasta.bots import register_player
    from canasta.envs.openspiel import OpenSpielPlayer

    game = pyspiel.load_game("python_canasta", {"variant": variant, "players": players})

    def random_bot(seat: int, seed: int) -> Any:
        return uniform_random.UniformRandomBot(seat, np.random.RandomState(seed % 2**32))

    def mcts_bot(seat: int, seed: int) -> Any:
        rng = np.random.RandomState(seed % 2**32)
        return mcts.MCTSBot(game, uct_c=uct, max_simulations=simulations,
                            evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)

    def ismcts_bot(seat: int, seed: int) -> Any:
        rng = np.random.RandomState(seed % 2**32)
        return ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct, simulations,
                                random_state=rng, use_observation_string=True)

    for name, make_bot in zip(LEVELS, (random_bot, mcts_bot, ismcts_bot), strict=True):
        register_player(name, lambda seed, make_bot=make_bot: OpenSpielPlayer(
            game, make_bot, seed))


def _deal(config: ArenaConfig, deal: int) -> tuple[list[PlayResult], float]:
    start = time.process_time()
    plays = play_deal(config, deal)
    return plays, time.process_time() - start


def play(config: ArenaConfig, simulations: int = SIMULATIONS, workers: int = 2
         ) -> tuple[ArenaReport, float]:
    """The arena's duplicate deals of ``config``, ``workers`` processes at a time; the report
    and the CPU seconds a deal took on average."""
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers, initializer=register,
                             initargs=(simulations, UCT, config.variant, config.players)) as pool:
        done = list(pool.map(_deal, [config] * config.deals, range(config.deals)))
    report = summarize(config, [plays for plays, _ in done], time.perf_counter() - start)
    return report, sum(cpu for _, cpu in done) / max(1, len(done))


def measure(rows: list[tuple[str, str, int]] = ROWS, simulations: int = SIMULATIONS,
            workers: int = 2) -> list[str]:
    """The table's rows (Markdown), one arena run per row."""
    out = ["| side A (OpenSpiel) | side B (ours) | duplicate deals | mean A - B per hand "
           "(95% CI) | hands won A / B | went out A / B | decision ms A p50 / p95 "
           "| CPU seconds per deal |", "|---|---|---|---|---|---|---|---|"]
    for team, vs, deals in rows:
        config = ArenaConfig("classic", 4, (team,), (vs,), deals, seed=1)
        r, cpu = play(config, simulations, workers)
        name = team if team == "openspiel-random" else f"{team} ({simulations} simulations)"
        out.append(f"| {name} | {vs} | {r.deals} | {r.mean_diff:+.1f} ({r.ci95[0]:+.1f} .. "
                   f"{r.ci95[1]:+.1f}) | {r.hands_won[0]} / {r.hands_won[1]} "
                   f"| {100 * r.went_out[0]:.1f}% / {100 * r.went_out[1]:.1f}% "
                   f"| {r.decision_ms[0]['p50']:.0f} / {r.decision_ms[0]['p95']:.0f} "
                   f"| {cpu:.2f} |")
        print(out[-1], flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--team", choices=LEVELS, help="one row only: side A's level")
    parser.add_argument("--vs", default="expert", help="side B's level (ours)")
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=SIMULATIONS)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    if args.team is None:
        measure(simulations=args.simulations, workers=args.workers)
        return 0
    config = ArenaConfig("classic", 4, (args.team,), (args.vs,), args.deals, seed=1)
    report, cpu = play(config, args.simulations, args.workers)
    print(format_report(report))
    print(f"CPU seconds per duplicate deal: {cpu:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
