"""An OpenSpiel MCTS bot against our expert player, through the arena (duplicate deals).

    pip install 'canasta[rl]'
    python examples/mcts_vs_expert.py --deals 4 --simulations 20

The MCTS bot is OpenSpiel's own (``open_spiel.python.algorithms.mcts``, random rollouts).  It
plays our ``python_canasta`` game: at each decision it sees a world dealt at random from what
its seat has seen (``canasta.envs.openspiel.OpenSpielPlayer``), never the real hidden cards.
The arena plays every deal once per seating, so the luck of the deal cancels out.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from canasta.arena import ArenaConfig, format_report, run_arena
from canasta.bots import register_player
from canasta.envs.openspiel import OpenSpielPlayer


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=20, help="MCTS simulations a step")
    parser.add_argument("--uct", type=float, default=300.0,
                        help="UCT exploration constant (returns are in points)")
    parser.add_argument("--vs", default="expert", help="our level on the other side")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    game = pyspiel.load_game("python_canasta",
                             {"variant": args.variant, "players": args.players})

    def make_bot(seat: int, seed: int) -> Any:
        rng = np.random.RandomState(seed % 2**32)
        return mcts.MCTSBot(game, uct_c=args.uct, max_simulations=args.simulations,
                            evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)

    register_player("mcts", lambda seed: OpenSpielPlayer(game, make_bot, seed))
    config = ArenaConfig(variant=args.variant, players=args.players, team=("mcts",),
                         vs=(args.vs,), deals=args.deals, seed=args.seed)
    # Serial: the player registered here lives in this process.
    print(format_report(run_arena(config, executor="serial")))


if __name__ == "__main__":
    main()
