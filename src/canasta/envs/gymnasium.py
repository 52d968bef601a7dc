"""Canasta for Gymnasium: one seat learns, our computer players hold the other seats.

>>> import gymnasium, canasta.envs.gymnasium
>>> env = gymnasium.make("canasta/Canasta-v0", variant="classic", players=4, opponents="expert")
>>> obs, info = env.reset(seed=7)
>>> sorted(obs), obs["observation"].dtype.name, obs["action_mask"].dtype.name
(['action_mask', 'observation'], 'float32', 'int8')

``CanastaEnv(variant, players, seat, opponents, partner, target, match, ...)``: the agent plays
``seat``; every other seat is ``make_player(level, seed)`` (``partner`` for the agent's partners,
default the ``opponents`` level).  The computer players see only their own seat's view, and
their moves are checked against the same legal moves as the agent's actions.

* Observation: ``{"observation": float32 vector, "action_mask": int8 vector}``, exactly as in
  PettingZoo (``canasta.envs.observation`` followed by the groups the agent has staged, and 1 for
  every legal action id).  ``info["action_mask"]`` holds the mask too.
* Action: ``Discrete(space.size)``, the action ids of ``canasta.envs.actions``.  A move that lays
  several groups is a few actions: after a *staged* action the agent acts again.
* ``reset(seed=s)`` deals from ``s`` (the same deal as ``EnvGame(rules, seed=s)`` and as PettingZoo
  with that seed), and the computer players' seeds come from ``s`` too; ``reset()`` without a seed
  draws the next deal from the generator seeded at the last seeded reset.  The other seats play
  until the agent is to act.  (In the rare deal where the hand would end before the agent's
  first turn, the next deal of the generator is played instead.)  The same seed and actions give
  the same episode ("master" players: unless their time cap cuts a search short).
* Reward: 0 until the end, then the agent's return (``EnvGame.returns``: one hand, its side's score
  minus the mean of the other sides'; a match, +1 for winning and -1 shared by the losing sides).
  ``terminated`` at the end (a match cut at ``max_hands`` too); never ``truncated``.
  ``info["returns"]`` then holds every seat's return.
* An illegal action (not in the mask, not an action id at all, or anything ``check_env`` samples at
  random) changes nothing: the observation is the same, ``reward`` is ``illegal_reward``,
  ``terminated`` is False and ``info["illegal_action"]`` says why.  Sample from the mask to avoid
  it.  Stepping after the end raises ``gymnasium.error.ResetNeeded``.
* ``render()`` ("ansi": returns, "human": prints) the agent's view as text, never a hidden card.

``make_rules``, ``make_observation_space`` and ``observation_of`` are shared with
``canasta.envs.pettingzoo``; the vector, the mask and the text come from ``canasta.envs.seat``,
as in OpenSpiel.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from canasta.bots import LEVELS, make_player
from canasta.bots.base import Player
from canasta.envs.actions import IllegalAction, action_space
from canasta.envs.core import MAX_HANDS, EnvGame
from canasta.envs.seat import action_mask, observation_vector, render_text, vector_size
from canasta.rules import Rules

ENV_ID = "canasta/Canasta-v0"
#: The observation Box's bounds.  Every entry is a count of cards, a 0/1 flag, a hand number or
#: points / 1000, all far inside this.
OBS_BOUND = 1e6
_SEED_LIMIT = 2**63 - 1

Observation = dict[str, npt.NDArray[Any]]


def make_rules(variant: str, players: int, target: int | None,
               options: dict[str, Any]) -> Rules:
    """The table's rules (the variant's defaults for every option not given)."""
    return Rules.make(variant, players, target=target, **options)


def make_observation_space(rules: Rules) -> spaces.Dict:
    """``Dict(observation=Box(float32), action_mask=Box(0, 1, int8))`` for a table."""
    size = vector_size(rules)
    return spaces.Dict({
        "observation": spaces.Box(-OBS_BOUND, OBS_BOUND, (size,), np.float32),
        "action_mask": spaces.Box(0, 1, (action_space(rules).size,), np.int8),
    })


def observation_of(game: EnvGame, seat: int) -> Observation:
    """``seat``'s observation dict: its vector (built from its view only, plus its own staged
    groups) and its action mask."""
    return {"observation": observation_vector(game, seat), "action_mask": action_mask(game, seat)}


def show(render_mode: str | None, text: Callable[[], str], maker: str) -> str | None:
    """``render()`` of both environments: return the text ("ansi") or print it ("human")."""
    if render_mode is None:
        gymnasium.logger.warn(f"render() was called without a render_mode "
                              f"({maker}(render_mode='ansi' or 'human'))")
        return None
    if render_mode == "ansi":
        return text()
    print(text() + "\n")
    return None


def _check_render_mode(render_mode: str | None, modes: list[str]) -> None:
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"render_mode must be one of {', '.join(modes)} or None, "
                         f"not {render_mode!r}")


class CanastaEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat of a Canasta table against computer players (see the module's docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(self, variant: str = "classic", players: int = 4, seat: int = 0,
                 opponents: str = "expert", partner: str | None = None,
                 target: int | None = None, match: bool = False,
                 render_mode: str | None = None, illegal_reward: float = 0.0,
                 max_hands: int = MAX_HANDS, **options: Any) -> None:
        _check_render_mode(render_mode, self.metadata["render_modes"])
        self.rules = make_rules(variant, players, target, options)
        if not 0 <= seat < self.rules.players:
            raise ValueError(f"seat must be 0 to {self.rules.players - 1}, not {seat}")
        partner = opponents if partner is None else partner
        for level in (opponents, partner):
            if level not in LEVELS:
                raise ValueError(f"unknown level '{level}' (known: {', '.join(LEVELS)})")
        if max_hands < 1:
            raise ValueError("max_hands must be at least 1")
        self.seat = seat
        side = self.rules.side_of(seat)
        #: The computer player's level at each other seat.
        self.levels = {s: partner if self.rules.side_of(s) == side else opponents
                       for s in range(self.rules.players) if s != seat}
        self.is_match = match
        self.max_hands = max_hands
        self.render_mode = render_mode
        self.illegal_reward = float(illegal_reward)
        self.space = action_space(self.rules)
        self.observation_space = make_observation_space(self.rules)
        self.action_space = spaces.Discrete(self.space.size)
        self._game: EnvGame | None = None
        self.bots: dict[int, Player] = {}
        self._hand = 0

    @property
    def game(self) -> EnvGame:
        """The game being played (hidden cards included: never hand it to an agent)."""
        if self._game is None:
            raise gymnasium.error.ResetNeeded("call reset() before using the environment")
        return self._game

    # --- the Gymnasium API ----------------------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        """Deal (from ``seed``, else the next deal of the generator); ``options`` is unused."""
        super().reset(seed=seed)
        deal = seed
        while True:
            if deal is None:
                deal = int(self.np_random.integers(_SEED_LIMIT))
            bot_seeds = self.np_random.integers(2**31, size=self.rules.players)
            self._game = EnvGame(self.rules, seed=deal, match=self.is_match,
                                 max_hands=self.max_hands)
            self.bots = {s: make_player(level, int(bot_seeds[s]))
                         for s, level in self.levels.items()}
            self._hand = 0
            self._new_hand()
            self._play_others()
            if not self._game.over:
                break
            deal = None  # the hand ended before the agent could act: deal again
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action: int | np.integer[Any]
             ) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play one action of the agent, then the other seats until it acts again or the game
        ends.  An illegal action changes nothing (``info["illegal_action"]``)."""
        game = self.game
        if game.over:
            raise gymnasium.error.ResetNeeded("the episode is over: call reset()")
        try:
            game.step(cast(int, action))  # EnvGame checks any id (numpy integers too)
        except IllegalAction as e:
            info = self._info()
            info["illegal_action"] = str(e)
            return self._observation(), self.illegal_reward, False, False, info
        self._new_hand()
        self._play_others()
        info = self._info()
        reward = 0.0
        if game.over:
            returns = game.returns()
            reward = returns[self.seat]
            info["returns"] = returns
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, game.over, False, info

    def render(self) -> str | None:
        return show(self.render_mode, lambda: render_text(self.game, self.seat), "CanastaEnv")

    def close(self) -> None:
        pass

    # --- the other seats ------------------------------------------------------------------
    def _new_hand(self) -> None:
        """Tell the computer players when a hand starts (a match deals the next by itself)."""
        number = self.game.state.hand_number
        if number != self._hand:
            self._hand = number
            for s, bot in self.bots.items():
                bot.new_hand(s)

    def _play_others(self) -> None:
        game, bots, agent = self.game, self.bots, self.seat
        while True:
            # None once the game is over: a match deals its next hand as the last one ends
            seat = game.to_act()
            if seat is None or seat == agent:
                return
            game.play(bots[seat].choose(game.view(seat)))
            self._new_hand()

    def _observation(self) -> Observation:
        return observation_of(self.game, self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": action_mask(self.game, self.seat)}


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="canasta.envs.gymnasium:CanastaEnv")

__all__ = ["ENV_ID", "OBS_BOUND", "CanastaEnv", "make_observation_space", "make_rules",
           "observation_of"]
