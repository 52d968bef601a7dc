"""The expert player ("Experto"): looks one move ahead and judges the result like a strong
player would (see ``evaluate``), remembering what the others took from the pile.

It plans its initial meld against the minimum (the move list offers the melds that reach it),
controls the pile (a wild card or a black three blocks a big pile), discards what the next
opponent cannot use, goes out when the score says so (not with one canasta and a big pile still
to play for), answers "may I go out?" from its own hand, and feeds its partner's melds.
"""

from __future__ import annotations

import random

from canasta.bots.basic import BasicPlayer
from canasta.bots.evaluate import evaluate, may_go_out
from canasta.bots.sampling import Memory, determinize
from canasta.engine.state import HandState
from canasta.moves import ASK, NO, YES, Move, MoveKind
from canasta.view import PlayerView

NOISE = 100.0  # points: a one-ply difference this small does not beat the basic player's choice
MELD_BONUS = 12.0  # points: laying cards down early keeps them from counting against the side


def _race(state: HandState, view: PlayerView) -> bool:
    """Another side has the canastas it needs to go out."""
    return any(may_go_out(state, s) for s in range(view.rules.n_sides) if s != view.side)


class ExpertPlayer:
    name = "expert"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.memory = Memory()
        self.basic = BasicPlayer(seed + 7919)

    def new_hand(self, seat: int) -> None:
        self.memory = Memory()

    def observe(self, view: PlayerView) -> None:
        """See the table without choosing (a restored game shows each decision point again)."""
        self.memory.update(view)

    def choose(self, view: PlayerView) -> Move:
        self.memory.update(view)
        return self.decide(view)

    def decide(self, view: PlayerView) -> Move:
        """The choice for ``view``, once the memory has seen it."""
        moves = view.legal_moves
        if not moves:
            raise ValueError("there is no legal move to choose from")
        if len(moves) == 1:
            return moves[0]
        state = determinize(view, self.rng, self.memory)
        if view.asking is not None:
            return YES if self.answer_yes(state, view) else NO
        scored = [(self.score(state, view, m), i, m) for i, m in enumerate(moves) if m != ASK]
        top, _, best = max(scored)
        simple = self.basic.choose(view)
        if simple != best and simple != ASK:
            for value, _, m in scored:
                if m == simple and value >= top - self._noise(view):
                    best = simple
        if ASK in moves and self.goes_out(state, best):
            return ASK  # ask the partner before going out
        return best

    @staticmethod
    def _noise(view: PlayerView) -> float:
        """NOISE on the variant's scale: more decks, bigger hands and scores (Ponytail's six
        decks make scores several times Classic's)."""
        rules = view.rules
        return NOISE * rules.variant.decks(rules.players) / 2

    def score(self, state: HandState, view: PlayerView, move: Move) -> float:
        if move.kind is MoveKind.DRAW:
            return evaluate(state, view.seat) + 5.0
        if move.kind is MoveKind.PASS:
            after = state.copy()
            after.apply(move)
            return evaluate(after, view.seat)
        after = state.copy()
        after.apply(move)
        value = evaluate(after, view.seat)
        if move.kind in (MoveKind.MELD, MoveKind.ADD, MoveKind.TAKE):
            value += MELD_BONUS * len(move.cards_from_hand())
        if after.result is not None and after.result.went_out is not None:
            value -= self._left_on_the_table(state, view)
        return value

    def goes_out(self, state: HandState, move: Move) -> bool:
        after = state.copy()
        after.apply(move)
        return after.result is not None or len(after.hands[state.turn]) <= 1

    def _left_on_the_table(self, state: HandState, view: PlayerView) -> float:
        """What going out now gives up: a big pile our side could still take."""
        if view.pile_size < 8 or _race(state, view):
            return 0.0
        return 8.0 * view.pile_size

    def answer_yes(self, state: HandState, view: PlayerView) -> bool:
        """The partner asks "may I go out?": yes, unless my own hand would cost too much or a
        big pile is still worth playing for."""
        if _race(state, view):
            return True  # the other side may go out any time: end the hand first
        cost = sum(c.value for c in view.hand)
        if cost >= 60 and len(view.hand) >= 3:
            return False
        return view.pile_size < 10
