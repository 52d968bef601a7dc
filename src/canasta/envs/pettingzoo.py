"""Canasta for PettingZoo (AEC): every seat is an agent.

>>> from canasta.envs.pettingzoo import env
>>> e = env(variant="classic", players=4)
>>> e.reset(seed=7)
>>> e.agent_selection, e.possible_agents
('player_0', ['player_0', 'player_1', 'player_2', 'player_3'])
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs), reward, terminated
(['action_mask', 'observation'], 0.0, False)

``env(variant, players, target, match, render_mode, max_hands, **options)``: agents
``player_0`` .. ``player_{n-1}`` are the seats.

* Observation of an agent: ``{"observation": float32 vector, "action_mask": int8 vector}``, built
  from that seat's view only (``canasta.envs.observation``), followed by the groups it has staged
  when it is to act; the mask is all 0 unless the agent is to act.  ``infos[agent]["action_mask"]``
  holds the same mask.
* Action: ``Discrete(space.size)``, the action ids of ``canasta.envs.actions``.  After a *staged*
  action (a move that lays several groups) the same agent is selected again.
* ``reset(seed=s)`` deals from ``s`` (as ``EnvGame(rules, seed=s)``); ``reset()`` without a seed
  draws the deal from a generator seeded at the last seeded reset.  ``options`` is unused.
* Rewards are 0 until the end; then every agent gets its return (``EnvGame.returns``: one hand, its
  side's score minus the mean of the other sides'; a match, +1 for the winning side and -1 shared
  by the others) and all agents are terminated together (a match cut at ``max_hands`` too).  No
  agent is ever truncated.
* An illegal action raises ``canasta.envs.actions.IllegalAction`` (with the reason) and changes
  nothing: sample from the mask.  ``env()`` therefore wraps ``raw_env`` in PettingZoo's
  ``OrderEnforcingWrapper`` only (no ``TerminateIllegalWrapper``, no ``AssertOutOfBoundsWrapper``);
  its ``last()`` asks the environment directly (the same answer, without the five attribute
  reads through the wrapper's ``__getattr__`` that made a tenth of a step).
* ``render()`` ("ansi": returns, "human": prints) the selected agent's view as text, never another
  seat's hidden cards.  There is no global ``state()``: it would show every hand.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from canasta.envs.actions import IllegalAction, action_space
from canasta.envs.core import MAX_HANDS, EnvGame
from canasta.envs.gymnasium import (
    Observation,
    _check_render_mode,
    make_observation_space,
    make_rules,
    observation_of,
    show,
)
from canasta.envs.seat import action_masks, render_text

_SEED_LIMIT = 2**63 - 1


def env(variant: str = "classic", players: int = 4, target: int | None = None,
        match: bool = False, render_mode: str | None = None, max_hands: int = MAX_HANDS,
        **options: Any) -> AECEnv:
    """The Canasta AEC environment, wrapped in PettingZoo's ``OrderEnforcingWrapper``."""
    raw = raw_env(variant, players, target=target, match=match, render_mode=render_mode,
                  max_hands=max_hands, **options)
    return _OrderEnforcing(raw)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper`` whose ``last()`` is the wrapped environment's
    own, whose ``step`` calls the environment's directly once the order is right and whose
    ``agent_iter`` reads the agents and the selected agent from the environment itself: the
    inherited ones read the selected agent, its reward, flags and info (and the agents) one by
    one through the wrapper's two levels of ``__getattr__``, at every step of every agent."""

    def agent_iter(self, max_iter: int = 2**63) -> _AgentIterable:
        if not self._has_reset:  # what the inherited agent_iter does (it raises)
            return super().agent_iter(max_iter)  # type: ignore[no-any-return]
        return _AgentIterable(self, max_iter)

    def last(self, observe: bool = True) -> tuple[Observation | None, float, bool, bool,
                                                  dict[str, Any]]:
        if not self._has_reset:  # what reading agent_selection before reset() raises
            raise AttributeError("agent_selection cannot be accessed before reset")
        result: tuple[Observation | None, float, bool, bool, dict[str, Any]] = (
            self.env.last(observe))
        return result

    def step(self, action: int | None) -> None:
        env = self.env
        if self._has_reset and env.agents:  # else the inherited step warns or raises
            self._has_updated = True
            env.step(action)
        else:
            super().step(action)

    def __str__(self) -> str:
        return str(self.env)  # as OrderEnforcingWrapper's own (it names a subclass otherwise)


class _AgentIterable(wrappers.order_enforcing.AECOrderEnforcingIterable):  # type: ignore[misc]
    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(wrappers.order_enforcing.AECOrderEnforcingIterator):  # type: ignore[misc]
    """PettingZoo's order-enforcing agent iterator, reading the wrapped environment's agents
    and selected agent directly (the same answers and the same checks)."""

    def __next__(self) -> str:
        wrapper = self.env
        raw = wrapper.env
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        agent: str = raw.agent_selection
        return agent


class raw_env(AECEnv):  # type: ignore[misc]
    """The Canasta AEC environment without wrappers (see the module's docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"name": "canasta_v0", "render_modes": ["human", "ansi"],
                                "is_parallelizable": False}

    def __init__(self, variant: str = "classic", players: int = 4, target: int | None = None,
                 match: bool = False, render_mode: str | None = None,
                 max_hands: int = MAX_HANDS, **options: Any) -> None:
        super().__init__()
        _check_render_mode(render_mode, self.metadata["render_modes"])
        if max_hands < 1:
            raise ValueError("max_hands must be at least 1")
        self.rules = make_rules(variant, players, target, options)
        self.is_match = match
        self.max_hands = max_hands
        self.render_mode = render_mode
        self.possible_agents: list[str] = [f"player_{s}" for s in range(self.rules.players)]
        self.seats: dict[str, int] = {a: s for s, a in enumerate(self.possible_agents)}
        self.observation_spaces: dict[str, spaces.Dict] = {
            a: make_observation_space(self.rules) for a in self.possible_agents}
        self.action_spaces: dict[str, spaces.Discrete] = {
            a: spaces.Discrete(action_space(self.rules).size) for a in self.possible_agents}
        self._np_random: np.random.Generator | None = None
        self._game: EnvGame | None = None

    @property
    def game(self) -> EnvGame:
        """The game being played (hidden cards included: never hand it to an agent)."""
        if self._game is None:
            raise RuntimeError("call reset() before using the environment")
        return self._game

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    # --- the AEC API ----------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
            deal = int(seed)
        else:
            if self._np_random is None:
                self._np_random, _ = seeding.np_random()
            deal = int(self._np_random.integers(_SEED_LIMIT))
        self._game = EnvGame(self.rules, seed=deal, match=self.is_match,
                             max_hands=self.max_hands)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._skip_agent_selection = None
        seat = self._game.to_act()
        assert seat is not None
        self.agent_selection = self.possible_agents[seat]
        self._update_infos()
        if self.render_mode == "human":
            self.render()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(f"{agent} is to act: None is only the action of a terminated "
                                "agent")
        game = self.game
        game.step(action)  # an illegal action raises IllegalAction and changes nothing
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if game.over:
            returns = game.returns()
            for a in self.agents:
                self.rewards[a] = returns[self.seats[a]]
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            seat = game.to_act()
            assert seat is not None
            self.agent_selection = self.possible_agents[seat]
        self._accumulate_rewards()
        self._update_infos()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> Observation:
        return observation_of(self.game, self.seats[agent])

    def render(self) -> str | None:
        agent = self.agent_selection
        return show(self.render_mode,
                    lambda: f"{agent}:\n" + render_text(self.game, self.seats[agent]), "env")

    def close(self) -> None:
        pass

    def _update_infos(self) -> None:
        agents = self.agents
        masks = action_masks(self.game, [self.seats[a] for a in agents])
        self.infos = {a: {"action_mask": m} for a, m in zip(agents, masks, strict=True)}


__all__ = ["env", "raw_env"]
