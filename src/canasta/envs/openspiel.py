"""Canasta for OpenSpiel: ``import canasta.envs.openspiel`` registers ``python_canasta``.

>>> import pyspiel, canasta.envs.openspiel
>>> game = pyspiel.load_game("python_canasta", {"variant": "classic", "players": 4})

Parameters: ``variant`` (classic, modern-american, ponytail), ``players``, ``target`` (0: the
variant's own), ``match`` (false: one hand; true: hands to the target) and ``max_hands`` (a match
still undecided after this many hands ends there).  The deal is explicit chance: before each
hand, one chance node per card picks the next card of the pack (outcome = the card's id, 0 to
52, with the probability of the copies left), so the deal is exactly a uniform shuffle.  Then
the seats act with the action ids of ``canasta.envs.actions``; the observation tensor is
``canasta.envs.observation`` plus the groups the seat to act has staged.  Returns: one hand,
each seat's side score minus the mean of the other sides'; a match, +1 for the winning side
and -1 shared by the others (docs/ENVS.md).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from canasta.bots.sampling import Memory, determinize
from canasta.cards import ALL_CARDS as CARDS
from canasta.cards import Card, make_deck
from canasta.engine.state import HandState
from canasta.envs.actions import ActionSpace, IllegalAction, action_space
from canasta.envs.core import MAX_HANDS, EnvGame
from canasta.envs.observation import observation_fields
from canasta.envs.seat import observation_vector, render_text, vector_size
from canasta.moves import Move
from canasta.position import position_to_json
from canasta.rules import Rules
from canasta.view import PlayerView, view_of

SHORT_NAME = "python_canasta"
DEFAULTS: dict[str, Any] = {"variant": "classic", "players": 4, "target": 0, "match": False,
                            "max_hands": MAX_HANDS}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Canasta (Classic, Modern American, Ponytail)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


def rules_from_params(params: dict[str, Any]) -> Rules:
    p = {**DEFAULTS, **params}
    options = {"target": int(p["target"])} if int(p["target"]) else {}
    return Rules.make(str(p["variant"]), int(p["players"]), **options)


def utility_bound(rules: Rules) -> float:
    """A bound on the score difference of one hand (generous, not tight): every card's value,
    the biggest canasta bonus of the variants for every canasta the pack could make, red
    threes and going out, for the two sides."""
    deck = make_deck(rules.variant.decks(rules.players))
    cards = sum(max(abs(c.value), 100) for c in deck)
    canastas = len(deck) // rules.variant.canasta_size
    return float(2 * (cards + 3000 * canastas + 1000))


class CanastaGame(pyspiel.Game):  # type: ignore[misc]
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        full = {**DEFAULTS, **(params or {})}
        rules = rules_from_params(full)
        is_match = bool(full["match"])
        max_hands = int(full["max_hands"])
        if max_hands < 1:
            raise ValueError("max_hands must be at least 1")
        space = action_space(rules)
        pack = make_deck(rules.variant.decks(rules.players))
        per_hand = 11 * len(pack)  # chance + at most ten actions per card (docs/ENVS.md)
        bound = 1.0 if is_match else utility_bound(rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=space.size,
            max_chance_outcomes=len(CARDS),
            num_players=rules.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=per_hand * (max_hands if is_match else 1))
        super().__init__(GAME_TYPE, info, full)
        # Attributes are set once the C++ object exists (pybind11 would drop earlier ones).
        self.params = full
        self.rules = rules
        self.is_match = is_match
        self.max_hands = max_hands
        self.space = space
        self.pack = pack

    def new_initial_state(self) -> CanastaState:
        return CanastaState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> CanastaObserver | None:
        """The seat's observation (the default), or the public one (``private_info`` NONE:
        the same layout with the seat's own cards left out).  Perfect-recall information
        states and observations of every player's private cards are not offered (None)."""
        public = False
        if iig_obs_type is not None:
            if iig_obs_type.perfect_recall:
                return None
            private = iig_obs_type.private_info
            if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
                return None
            public = private == pyspiel.PrivateInfoType.NONE
        return CanastaObserver(self, params, public=public)


class CanastaState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: CanastaGame) -> None:
        super().__init__(game)
        # No reference to the game object: OpenSpiel copies states by pickling them.
        self.params: dict[str, Any] = dict(game.params)
        self.rules = game.rules
        self.deck: list[Card] = []  # the pack being dealt, card by card (chance)
        self._left = self._full_pack()
        self.env: EnvGame | None = None

    def _full_pack(self) -> Counter[int]:
        return Counter(c.id for c in make_deck(self.rules.variant.decks(self.rules.players)))

    @property
    def space(self) -> ActionSpace:
        return action_space(self.rules)

    # --- chance -----------------------------------------------------------------------------
    def _dealing(self) -> bool:
        return self.env is None or self.env.needs_deal

    def current_player(self) -> int:
        if self._dealing():
            return int(pyspiel.PlayerId.CHANCE)
        assert self.env is not None
        if self.env.over:
            return int(pyspiel.PlayerId.TERMINAL)
        seat = self.env.to_act()
        assert seat is not None
        return seat

    def chance_outcomes(self) -> list[tuple[int, float]]:
        total = sum(self._left.values())
        return [(cid, n / total) for cid, n in sorted(self._left.items()) if n]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.env is not None and player == self.env.to_act()
        return self.env.legal_actions()

    def _apply_action(self, action: int) -> None:
        if self._dealing():
            if self._left[action] <= 0:
                raise IllegalAction(f"chance outcome {action} is not a card left in the pack")
            self._left[action] -= 1
            self.deck.append(CARDS[action])
            if not sum(self._left.values()):
                if self.env is None:
                    self.env = EnvGame(self.rules, deck=self.deck,
                                       match=bool(self.params["match"]),
                                       max_hands=int(self.params["max_hands"]))
                else:
                    self.env.deal(self.deck)
                self.deck = []
                self._left = self._full_pack()
            return
        assert self.env is not None
        self.env.step(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {CARDS[action].text}"
        return self.space.name(action)

    def is_terminal(self) -> bool:
        return self.env is not None and self.env.over

    def returns(self) -> list[float]:
        if self.env is None:
            return [0.0] * self.rules.players
        return self.env.returns()

    def __str__(self) -> str:
        if self.env is None:
            return "dealing: " + " ".join(c.text for c in self.deck)
        env = self.env
        out = {"hand": env.state.hand_number, "match_scores": env.match.scores,
               "position": position_to_json(env.state), "staged": env.prefix,
               "dealing": [c.text for c in self.deck] if env.needs_deal else None}
        return json.dumps(out, separators=(",", ":"))


class CanastaObserver:
    """The observation of one seat (PyObserver protocol): ``canasta.envs.observation`` for
    the table, then the groups staged by the seat to act when that is the observer.  The
    public observation leaves out what only the seat knows: its hand, the counts of the cards
    it cannot place (they depend on its hand) and its staged groups."""

    PRIVATE = ("hand_counts", "unseen_counts", "staged")
    PRIVATE_LINES = ("your hand", "unseen", "staged")

    def __init__(self, game: CanastaGame, params: dict[str, Any] | None,
                 public: bool = False) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.public = public
        self.tensor = np.zeros(vector_size(game.rules), np.float32)
        self.dict: dict[str, Any] = {}
        start = 0
        for f in observation_fields(game.rules):
            self.dict[f.name] = self.tensor[start:start + f.size]
            start += f.size
        self.dict["staged"] = self.tensor[start:]

    def set_from(self, state: CanastaState, player: int) -> None:
        if state.env is None:
            self.tensor.fill(0)  # the first deal: nothing is seen yet
            return
        self.tensor[:] = observation_vector(state.env, player)
        if self.public:
            for name in self.PRIVATE:
                self.dict[name].fill(0)

    def string_from(self, state: CanastaState, player: int) -> str:
        if state.env is None:
            return "the cards are being dealt" if self.public else (
                f"seat {player}: the cards are being dealt")
        text = render_text(state.env, player)
        if self.public:
            text = "\n".join(line for line in text.splitlines()
                             if not line.startswith(self.PRIVATE_LINES))
        return text


def state_from_position(game: CanastaGame, position: HandState) -> CanastaState:
    """An OpenSpiel state of ``game`` (one hand) standing at ``position``, dealt already."""
    if game.is_match:
        raise ValueError("a position stands for one hand: load the game with match=false")
    if position.rules != game.rules:
        raise ValueError("the position is not of this game's variant and players")
    state = game.new_initial_state()
    state.env = EnvGame.from_position(position)
    state.deck = []
    return state  # (its OpenSpiel history is empty: it starts where the position stands)


class OpenSpielPlayer:
    """One of our players (``choose(view) -> Move``) driven by an OpenSpiel bot, so that the
    arena can match it against our levels.  Each decision deals the hidden cards at random
    consistently with the view (``canasta.bots.sampling.determinize``) and lets the bot act in
    that world until it has made a whole move (staged groups included).  A bot that samples
    worlds of its own (OpenSpiel's ``ISMCTSBot``, through ``set_resampler``) gets them dealt
    the same way, one per simulation."""

    name = "openspiel"

    def __init__(self, game: CanastaGame, make_bot: Callable[[int, int], Any],
                 seed: int = 0) -> None:
        self.game = game
        self.make_bot = make_bot  # (seat, seed) -> a pyspiel bot with step(state)
        self.rng = random.Random(seed)
        self.seed = seed
        self.memory = Memory()
        self.bot: Any = None

    def new_hand(self, seat: int) -> None:
        self.memory = Memory()
        self.bot = self.make_bot(seat, self.seed)
        if hasattr(self.bot, "set_resampler"):
            self.bot.set_resampler(self.resample)

    def resample(self, state: CanastaState, player: int) -> CanastaState:
        """Another world ``player`` cannot tell from ``state`` (its view, what it remembers and
        the groups it has staged are the same), the hidden cards dealt again."""
        env = state.env
        if env is None or player != env.to_act():
            raise ValueError("worlds are dealt for the seat to act, once the cards are dealt")
        world = state_from_position(self.game, determinize(view_of(env.state, player),
                                                           self.rng, self.memory))
        assert world.env is not None
        world.env.prefix = list(env.prefix)
        return world

    def choose(self, view: PlayerView) -> Move:
        if not view.legal_moves:
            raise ValueError("there is no legal move to choose from")
        self.memory.update(view)
        if len(view.legal_moves) == 1:
            return view.legal_moves[0]
        state = state_from_position(self.game, determinize(view, self.rng, self.memory))
        env = state.env
        assert env is not None
        while True:
            action = int(self.bot.step(state))
            before = len(env.state.history)
            state.apply_action(action)
            if len(env.state.history) > before:
                move = env.state.history[-1][1]
                return move


pyspiel.register_game(GAME_TYPE, CanastaGame)

__all__ = ["CanastaGame", "CanastaObserver", "CanastaState", "OpenSpielPlayer",
           "rules_from_params", "state_from_position"]
