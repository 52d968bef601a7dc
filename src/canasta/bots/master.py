"""The master player ("Maestro"): determinized Monte Carlo search within a time budget.

The expert's judgement shortlists the moves; then, for a fixed number of rounds (so that the same
seed gives the same decisions; a time cap, 1.5 s a decision and 1.8 s for all the decisions of
one turn, stops it early on a slow machine), the master deals
the hidden cards at random in a way consistent with everything its seat has seen, plays each
shortlisted move in that world, lets every player (itself included) play on with the basic
player's policy until its own next turn (or the end of the hand), and scores the outcome with the
shared evaluation.  The move with the best average wins.  Random playouts carry almost no signal
in rummy games, so the playouts stop early and the evaluation does the judging.
"""

from __future__ import annotations

import random
import time

from canasta.bots.basic import BasicPlayer
from canasta.bots.evaluate import evaluate
from canasta.bots.expert import ExpertPlayer
from canasta.bots.sampling import determinize
from canasta.engine.state import HandState
from canasta.moves import ASK, Move
from canasta.view import PlayerView, view_of

SHORTLIST = 5
MAX_PLAYOUT_MOVES = 40
ROUNDS = 20  # deals of the hidden cards per decision (p50 about 250 ms on this project's machine)
TURN_CAP = 1.8  # seconds: every decision of one turn together (the hard limit is 2 s a turn)


class MasterPlayer:
    name = "master"

    def __init__(self, seed: int = 0, rounds: int = ROUNDS, cap_ms: float = 1500.0) -> None:
        self.rng = random.Random(seed)
        self.expert = ExpertPlayer(seed)
        self.rounds = rounds
        self.cap = cap_ms / 1000
        self.policy = BasicPlayer(seed + 1)
        self._turn_spent = 0.0
        self._turn_seat = -1

    def new_hand(self, seat: int) -> None:
        self.expert.new_hand(seat)

    def observe(self, view: PlayerView) -> None:
        """See the table without choosing (a restored game shows each decision point again)."""
        self.expert.memory.update(view)

    def choose(self, view: PlayerView) -> Move:
        start = time.perf_counter()
        if view.phase == "draw" or view.turn != self._turn_seat:
            self._turn_spent = 0.0  # a new turn: its decisions share TURN_CAP
            self._turn_seat = view.turn
        try:
            return self._choose(view, start, min(self.cap, TURN_CAP - self._turn_spent))
        finally:
            self._turn_spent += time.perf_counter() - start

    def _choose(self, view: PlayerView, start: float, cap: float) -> Move:
        moves = view.legal_moves
        if not moves:
            raise ValueError("there is no legal move to choose from")
        self.expert.memory.update(view)
        if len(moves) == 1 or view.asking is not None:
            return self.expert.decide(view)
        state = determinize(view, self.rng, self.expert.memory)
        ranked = sorted(((self.expert.score(state, view, m), i, m)
                         for i, m in enumerate(moves) if m != ASK), reverse=True)
        shortlist = [m for _s, _i, m in ranked[:SHORTLIST]]
        if len(shortlist) == 1:
            return self._maybe_ask(state, view, shortlist[0])
        totals = dict.fromkeys(shortlist, 0.0)
        for _ in range(self.rounds):
            world = determinize(view, self.rng, self.expert.memory)
            for m in shortlist:
                totals[m] += self._playout(world, view.seat, m)
            if time.perf_counter() - start > cap:
                break
        best = max(shortlist, key=lambda m: (totals[m], -shortlist.index(m)))
        return self._maybe_ask(state, view, best)

    def _maybe_ask(self, state: HandState, view: PlayerView, best: Move) -> Move:
        if ASK in view.legal_moves and self.expert.goes_out(state, best):
            return ASK
        return best

    def _playout(self, world: HandState, seat: int, move: Move) -> float:
        """Play ``move`` in ``world``, finish the turn and let the table play on until ``seat``
        is about to begin its next turn (or the hand ends)."""
        state = world.copy()
        state.apply(move)
        away = state.turn != seat
        for _ in range(MAX_PLAYOUT_MOVES):
            if state.result is not None or (away and state.turn == seat):
                break
            actor = state.turn
            state.apply(self.policy.choose(view_of(state, actor)))
            away = away or state.turn != seat
        return evaluate(state, seat)
