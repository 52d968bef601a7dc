"""The master player ("Maestro"): determinized Monte Carlo search within a time budget.

The master starts from the expert's choice and looks for a better one: the expert's judgement
shortlists four other moves; then, for a fixed number of rounds (so that the same seed gives the
same decisions; fewer with more decks; a time cap, 1.5 s a decision and 1.8 s for all the
decisions of one turn, stops it early on a slow machine; measured on the wall clock for live
play, where the player waits in real time, or on the thread's CPU time for benchmarks, so that
a loaded machine does not measure a weaker master), the master deals the hidden cards at
random in a way consistent with everything its seat has seen, plays the expert's choice and each
shortlisted move in that world, finishes its own turn as the expert would, lets the others play
on with the basic player's policy (the opponents going out whenever they may) until its own next
turn (or the end of the hand), and scores the
outcome with the shared evaluation (in a playout every player tries its moves in that same world
instead of dealing the hidden cards again: the world is already a guess made from the master's
own view).  A move replaces the expert's choice only when its paired advantage over the same
deals is positive by enough standard errors for the number of moves compared (``bar``, a
Bonferroni correction: with four moves compared, each must clear the bar one move alone would
have at a quarter of the risk), and a discard the next opponent may take the pile with must
also beat the expert's discard by what it gives away beyond it (the expert's choice, or where the
expert melds first, the discard it judged best); the biggest such advantage wins.
Where the search cannot tell, the expert's judgement stands.  Random playouts carry almost no
signal in rummy games, so the playouts stop early and the evaluation does the judging.
"""

from __future__ import annotations

import random
import time
from statistics import NormalDist

from canasta.bots.basic import BasicPlayer
from canasta.bots.evaluate import discard_danger, evaluate
from canasta.bots.expert import ExpertPlayer
from canasta.bots.sampling import determinize
from canasta.engine.state import HandState
from canasta.moves import ASK, Move, MoveKind
from canasta.view import PlayerView, view_of

SHORTLIST = 5
MAX_PLAYOUT_MOVES = 40
EXPERT_FOLLOW = 3  # decisions of the rest of its turn the master plays out as the expert (the
#                    melds after a take, the discard), the basic policy after that
ROUNDS = 60  # deals of the hidden cards per decision with two decks (fewer with more decks)
TURN_CAP = 1.8  # seconds: every decision of one turn together (the hard limit is 2 s a turn)
ALPHA = 0.05  # the chance, for the whole shortlist, that noise alone replaces the expert's choice
PRUNE_AFTER = 6  # rounds after which a move whose advantage is below -PRUNE_Z standard errors
PRUNE_Z = 2.0  # ... is dropped
CLOCKS = ("wall", "cpu")  # what the time caps measure: real time, or this thread's CPU time


def rounds_for(decks: int, rounds: int = ROUNDS) -> int:
    """The search effort at a table: ``rounds`` with two decks, fewer with more (a Ponytail
    move costs several times a Classic one), never fewer than 4 unless fewer were asked for
    (a quick master for tests)."""
    return max(min(4, rounds), rounds * 2 // decks)


def _mean_se(d: list[float]) -> tuple[float, float]:
    """The mean of paired differences and its standard error."""
    n = len(d)
    mean = sum(d) / n
    return mean, (sum((x - mean) ** 2 for x in d) / (n - 1) / n) ** 0.5


def bar(candidates: int, alpha: float = ALPHA) -> float:
    """The standard errors by which one of ``candidates`` moves must beat the expert's choice:
    each is tested at ``alpha / candidates`` (Bonferroni), so that with every candidate no
    better than the expert's choice, noise replaces it with chance ``alpha`` at most."""
    return NormalDist().inv_cdf(1 - alpha / max(1, candidates))


def _experts_discard(anchor: Move, scored: list[tuple[float, int, Move]]) -> Move | None:
    """The discard the expert stands by this turn: its choice when that is a discard; when it
    melds first (the turn still ends with a discard), the discard it judged best, as the
    expert's own noise margin reads it (``ExpertPlayer._feeds_more``).  A discard that ends the
    turn at once is measured against it, never against nothing."""
    if anchor.kind is MoveKind.DISCARD:
        return anchor
    discards = [x for x in scored if x[2].kind is MoveKind.DISCARD]
    return max(discards)[2] if discards else None


def _upper(d: list[float]) -> float:
    """How far above the expert's choice a move could still be: mean + PRUNE_Z errors."""
    mean, se = _mean_se(d)
    return mean + PRUNE_Z * se


class MasterPlayer:
    name = "master"

    def __init__(self, seed: int = 0, rounds: int = ROUNDS, cap_ms: float = 1500.0,
                 clock: str = "wall") -> None:
        if clock not in CLOCKS:
            raise ValueError(f"unknown clock '{clock}' (known: {', '.join(CLOCKS)})")
        self.cpu = clock == "cpu"
        self.rng = random.Random(seed)
        self.expert = ExpertPlayer(seed)
        self.rounds = rounds
        self.cap = cap_ms / 1000
        self.policy = BasicPlayer(seed + 1)
        # The opponents in a play-out go out whenever they may: a strong opponent takes the
        # way out when it is open, and a search that let them hold back would not see the
        # hand end.
        self.opponents = BasicPlayer(seed + 2, holds_back=False)
        self._turn_spent = 0.0
        self._turn_seat = -1

    def new_hand(self, seat: int) -> None:
        self.expert.new_hand(seat)

    def observe(self, view: PlayerView) -> None:
        """See the table without choosing (a restored game shows each decision point again)."""
        self.expert.memory.update(view)

    def _now(self) -> float:
        # Looked up at each call, not kept: a benchmark's thread that the machine's load
        # holds back loses wall-clock time but no CPU time.
        return time.thread_time() if self.cpu else time.perf_counter()

    def choose(self, view: PlayerView) -> Move:
        start = self._now()
        if view.phase == "draw" or view.turn != self._turn_seat:
            self._turn_spent = 0.0  # a new turn: its decisions share TURN_CAP
            self._turn_seat = view.turn
        try:
            return self._choose(view, start, min(self.cap, TURN_CAP - self._turn_spent))
        finally:
            self._turn_spent += self._now() - start

    def _choose(self, view: PlayerView, start: float, cap: float) -> Move:
        moves = view.legal_moves
        if not moves:
            raise ValueError("there is no legal move to choose from")
        self.expert.memory.update(view)
        anchor, judged, scored = self.expert.judge(view)
        if len(moves) == 1 or view.asking is not None or anchor == ASK or judged is None:
            return anchor
        state = judged
        # The shortlist: the expert's next best moves, as it judged them in its own world.
        ranked = sorted((x for x in scored if x[2] != anchor), reverse=True)
        shortlist = [anchor] + [m for _s, _i, m in ranked[:SHORTLIST - 1]]
        if len(shortlist) == 1:
            return anchor
        # Every move is played in the same deals, so each deal gives a paired difference with
        # the expert's choice; a move replaces it only when it is better by ``bar`` standard errors.
        diffs: dict[Move, list[float]] = {m: [] for m in shortlist[1:]}
        rounds = rounds_for(view.rules.variant.decks(view.rules.players), self.rounds)
        live = shortlist[1:]
        for r in range(1, rounds + 1):
            world = determinize(view, self.rng, self.expert.memory)
            base = self._playout(world, view.seat, anchor)
            for m in live:
                diffs[m].append(self._playout(world, view.seat, m) - base)
            if r >= PRUNE_AFTER:
                # A move clearly worse than the expert's choice is not played out any more.
                live = [m for m in live if _upper(diffs[m]) >= 0.0]
                if not live:
                    break
            if self._now() - start > cap:
                break
        best, edge = anchor, 0.0
        z = bar(len(shortlist) - 1)
        safer = _experts_discard(anchor, scored)
        for m in live:
            d = diffs[m]
            if len(d) < 3:
                continue
            mean, se = _mean_se(d)
            if mean > z * se + self._feed_margin(state, view, safer, m) and mean > edge:
                best, edge = m, mean
        return self._maybe_ask(state, view, best)

    def _feed_margin(self, state: HandState, view: PlayerView, safer: Move | None,
                     move: Move) -> float:
        """The points by which a discard that the next opponent may take the pile with must
        beat ``safer``, the expert's discard (``_experts_discard``), over and above the noise:
        what it gives away (``discard_danger``) beyond what the expert's discard gives."""
        if safer is None or safer.kind is not MoveKind.DISCARD or move.kind is not MoveKind.DISCARD:
            return 0.0
        if safer.card is None or move.card is None or len(view.hand) <= 1:
            return 0.0
        taker = (view.seat + 1) % view.rules.players
        if view.side_of(taker) == view.side:
            return 0.0
        memory = self.expert.memory
        worse = (discard_danger(state, taker, move.card, view.seat, memory)
                 - discard_danger(state, taker, safer.card, view.seat, memory))
        return max(0.0, worse)

    def _maybe_ask(self, state: HandState, view: PlayerView, best: Move) -> Move:
        if ASK in view.legal_moves and self.expert.goes_out(state, best):
            return ASK
        return best

    def _playout(self, world: HandState, seat: int, move: Move) -> float:
        """Play ``move`` in ``world``, finish the turn as the expert would and let the table
        play on with the basic policy (the opponents' going out whenever they may) until
        ``seat`` is about to begin its next turn (or the hand ends)."""
        state = world.copy()
        state.apply(move)
        away = state.turn != seat
        follow = EXPERT_FOLLOW
        for _ in range(MAX_PLAYOUT_MOVES):
            if state.result is not None or (away and state.turn == seat):
                break
            actor = state.turn
            view = view_of(state, actor)
            if actor == seat and not away and follow:
                # The rest of this turn (the melds after a take, the discard) is the expert's.
                follow -= 1
                state.apply(self.expert.decide(view, state))
            else:
                policy = (self.policy if state.side_of(actor) == state.side_of(seat)
                          else self.opponents)
                state.apply(policy.choose(view, state))
            away = away or state.turn != seat
        return evaluate(state, seat, self.expert.memory)
