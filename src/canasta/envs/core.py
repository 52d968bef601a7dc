"""One game as the research interfaces step through it: action ids in, engine moves out.

``EnvGame`` holds a hand (or a match) of the engine, the seat to act and the groups that seat has
staged so far (docs/ENVS.md, "Actions").  The match is driven by a ``table.Table`` whose seats
are all people's (the agents' moves come from outside).  Everything is checked by the engine: the
legal actions are the engine's legal moves encoded, and an action that is not legal raises
``IllegalAction`` with the reason and changes nothing.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, Final, SupportsIndex

import numpy as np
import numpy.typing as npt

from canasta.cards import Card
from canasta.engine.state import HandState
from canasta.envs.actions import Decision, IllegalAction, action_space
from canasta.envs.observation import Observer
from canasta.match import Match
from canasta.moves import Move
from canasta.mypyc_attrs import mypyc_attr
from canasta.rules import Rules
from canasta.table import Table
from canasta.view import PlayerView, view_of

MAX_HANDS = 100  # a match still undecided after this many hands ends there (docs/ENVS.md)
#: The masks' dtype, as a dtype: ``np.zeros(n, np.int8)`` converts the type at every call, which
#: cost more than making the array.
INT8: Final = np.dtype(np.int8)


def hand_returns(rules: Rules, side_scores: Sequence[int]) -> list[float]:
    """Each seat's return for one hand: its side's score minus the mean of the other sides'."""
    s = rules.n_sides
    total = sum(side_scores)
    per_side = [x - (total - x) / (s - 1) for x in side_scores]
    return [float(per_side[seat % s]) for seat in range(rules.players)]


def match_returns(rules: Rules, winner: int | None) -> list[float]:
    """Each seat's return for a match: +1 for the winning side, the others share -1."""
    s = rules.n_sides
    if winner is None:
        return [0.0] * rules.players
    return [1.0 if seat % s == winner else -1.0 / (s - 1) for seat in range(rules.players)]


# Compiled (core.COMPILED) as a plain Python class: its methods run compiled, its instances keep
# their __dict__ (pickled and deep-copied as before: OpenSpiel clones states so).
@mypyc_attr(native_class=False)
class EnvGame:
    """A hand, or a match of hands, played by action ids.

    With ``deals=None`` every hand is dealt from ``seed``; otherwise the decks are given, and
    in a match ``needs_deal`` says when the next hand's deck must be supplied (``deal``).
    """

    def __init__(self, rules: Rules, *, seed: int = 0, match: bool = False,
                 deck: Sequence[Card] | None = None, max_hands: int = MAX_HANDS) -> None:
        self.rules = rules
        self.space = action_space(rules)
        self.is_match = match
        self.max_hands = max_hands
        self._explicit = deck is not None
        self.table = Table(rules, match=Match(rules, seed) if deck is None
                           else Match(rules, deals=[list(deck)]))
        self.prefix: list[int] = []
        self._decision: Decision | None = None
        self._mask: npt.NDArray[np.int8] | None = None
        self._mask_at: tuple[Decision | None, int] = (None, 0)
        self.moves_played = 0
        #: Each seat's observation kept between steps (``seat.observation_vector``).
        self.observers: dict[int, Observer] = {}

    @classmethod
    def from_position(cls, state: HandState) -> EnvGame:
        """A one-hand game that starts from ``state`` (a position, or a determinization a
        player built from its view), which it copies."""
        game = cls.__new__(cls)
        game.rules = state.rules
        game.space = action_space(state.rules)
        game.is_match = False
        game.max_hands = 1
        game._explicit = True
        game.table = Table(state.rules, match=Match.from_position(state))
        game.prefix = []
        game._decision = None
        game._mask = None
        game._mask_at = (None, 0)
        game.moves_played = 0
        game.observers = {}
        return game

    def __getstate__(self) -> dict[str, Any]:
        # The action table is shared; the legal moves and the observations are worked out
        # again when needed.
        return {k: v for k, v in self.__dict__.items()
                if k not in ("space", "_decision", "_mask", "_mask_at", "observers")}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__dict__.update(data)
        self.space = action_space(self.rules)
        self._decision = None
        self._mask = None
        self._mask_at = (None, 0)
        self.observers = {}

    # --- where the game stands ------------------------------------------------------------
    @property
    def match(self) -> Match:
        return self.table.match

    @property
    def state(self) -> HandState:
        return self.table.match.state

    @property
    def hand_over(self) -> bool:
        return self.table.match.state.result is not None

    @property
    def needs_deal(self) -> bool:
        """A match whose next hand waits for its deck (explicit decks only)."""
        return self.hand_over and not self.over and self._explicit

    @property
    def over(self) -> bool:
        if not self.hand_over:
            return False
        if not self.is_match:
            return True
        return self.match.over or self.state.hand_number >= self.max_hands

    def to_act(self) -> int | None:
        """The seat to act, or None when the game is over or waits for a deal."""
        state = self.table.match.state
        return None if state.result is not None else state.turn

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see (the legal moves, for the seat to act, listed once)."""
        state = self.table.match.state
        if state.result is None and seat == state.turn:
            return view_of(state, seat, self.decision().moves)
        return view_of(state, seat)

    def returns(self) -> list[float]:
        """Each seat's return: 0 until the end; then the hand's score difference (a single
        hand) or +1 / -1 shared (a match; a match cut at ``max_hands`` goes to the side
        ahead, and an exact tie there returns 0)."""
        if not self.over:
            return [0.0] * self.rules.players
        if not self.is_match:
            result = self.state.result
            assert result is not None
            return hand_returns(self.rules, result.scores)
        winner = self.match.winner
        if not self.match.over:
            totals = self.match.scores
            best = max(totals)
            winner = totals.index(best) if totals.count(best) == 1 else None
        return match_returns(self.rules, winner)

    # --- actions --------------------------------------------------------------------------
    def decision(self) -> Decision:
        decision = self._decision
        if decision is None:
            state = self.table.match.state
            if state.result is not None:
                raise IllegalAction("the hand is over: no seat is to act")
            decision = self._decision = Decision(self.space, state.legal_moves())
        return decision

    def legal_actions(self) -> list[int]:
        if self.hand_over:
            return []
        return self.decision().legal(self.prefix)

    def mask(self) -> npt.NDArray[np.int8]:
        """1 for each legal action id of the seat to act (all 0 once the hand is over), worked
        out once per decision point and staged group: copy it before changing it."""
        if self.table.match.state.result is not None:
            return np.zeros(self.space.size, INT8)
        decision, staged = self.decision(), len(self.prefix)
        mask = self._mask
        if mask is None or self._mask_at[0] is not decision or self._mask_at[1] != staged:
            # set in a bytearray, the array made on its buffer: numpy's fancy indexing by a
            # list of ids costs several times more
            flags = bytearray(self.space.size)
            for i in decision.legal(self.prefix):
                flags[i] = 1
            mask = np.frombuffer(flags, INT8)
            self._mask = mask
            self._mask_at = (decision, staged)
        return mask

    def play(self, move: Move) -> Move:
        """Play a whole move for the seat to act, with nothing staged (a computer player's):
        the listed move that equals it, as its action ids would play it; a move that is not
        listed goes through its action ids, so it is refused as they are."""
        listed = self.decision().find(move) if not self.prefix else None
        if listed is None:
            played: Move | None = None
            for action in self.space.encode(move):
                played = self.step(action)
            assert played is not None
            return played
        return self._play(listed)

    def step(self, action: SupportsIndex) -> Move | None:
        """Take one action of the seat to act: stage a group (returns None) or play a move
        (returns it).  An action that is not legal raises IllegalAction; nothing changes."""
        if self.table.match.state.result is not None:
            raise IllegalAction("the hand is over: no seat is to act")
        try:
            action = operator.index(action)  # numpy integers, 0-d tensors...
        except TypeError:
            raise IllegalAction(f"{action!r} is not an action id (a whole number)") from None
        decision = self.decision()
        decision.check(self.prefix, action)
        seq = (*self.prefix, action)
        move = decision.move(seq)
        if move is None or self.space.staged(action):
            self.prefix.append(action)
            return None
        return self._play(move)

    def _play(self, move: Move) -> Move:
        self.prefix = []
        self._decision = None
        self.moves_played += 1
        table = self.table
        played = table.play(table.match.state.turn, move)
        if table.match.state.result is not None and not self._explicit and not self.over:
            table.next_hand()
        return played

    def deal(self, deck: Sequence[Card]) -> None:
        """Deal the next hand of a match from ``deck`` (explicit decks only)."""
        if not self.needs_deal:
            raise IllegalAction("no hand is waiting to be dealt")
        assert self.match.deals is not None
        self.match.deals.append(list(deck))
        self.table.next_hand()
        self._decision = None
