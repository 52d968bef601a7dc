"""A random agent that only plays legal actions (it samples from the action mask).

    .venv/bin/python examples/random_agent.py

1. PettingZoo: the random agent holds every seat of a classic four-player hand.
2. Gymnasium: the random agent holds seat 0 against three expert computer players.
"""

from __future__ import annotations

import gymnasium
import numpy as np

from canasta.envs.gymnasium import ENV_ID  # importing it registers "canasta/Canasta-v0"
from canasta.envs.pettingzoo import env as pettingzoo_env

SEED = 2024
rng = np.random.default_rng(SEED)


def random_legal_action(action_mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(action_mask)))


# --- PettingZoo: every seat is an agent -------------------------------------------------------
env = pettingzoo_env(variant="classic", players=4)
env.reset(seed=SEED)
returns = dict.fromkeys(env.possible_agents, 0.0)
actions = 0
for agent in env.agent_iter():
    observation, reward, terminated, truncated, info = env.last()
    returns[agent] += reward  # 0 until the end of the hand
    if terminated or truncated:
        env.step(None)  # the hand is over: every agent leaves
    else:
        env.step(random_legal_action(observation["action_mask"]))
        actions += 1
print(f"PettingZoo, one hand of classic canasta ({actions} actions):")
for agent, value in returns.items():
    print(f"  {agent}: {value:+.1f}")
env.close()

# --- Gymnasium: one seat against the computer -------------------------------------------------
genv = gymnasium.make(ENV_ID, variant="classic", players=4, seat=0,
                      opponents="expert")
observation, info = genv.reset(seed=SEED)
total, steps, terminated = 0.0, 0, False
while not terminated:
    action = random_legal_action(observation["action_mask"])
    observation, reward, terminated, truncated, info = genv.step(action)
    total += float(reward)
    steps += 1
print(f"Gymnasium, seat 0 against expert players ({steps} actions): return {total:+.1f}")
print(f"  every seat's return: {info['returns']}")
genv.close()
