"""The expert player ("Experto"): looks one move ahead and judges the result like a strong
player would (see ``evaluate``), remembering what the others took from the pile and the ranks
they let go by.

It plans its initial meld against the minimum (the move list offers the melds that reach it),
judges a take with the melds that follow it, controls the pile (a wild card or a black three
blocks a big pile), discards what the next opponent is least likely to take the pile with,
keeps its wild cards and enough of its hand while the end is far, goes out when the score says
so (not with one canasta and a big pile still to play for), plays both answers to "may I go
out?" out before giving one, and feeds its partner's melds.
"""

from __future__ import annotations

import math
import random
import time

from canasta.bots.basic import BasicPlayer, discard_last_card
from canasta.bots.evaluate import discard_danger, evaluate, may_go_out
from canasta.bots.sampling import Memory, determinize
from canasta.cards import NATURAL_RANKS, Card
from canasta.engine.state import HandState
from canasta.moves import ASK, NO, YES, Move, MoveKind, group_rank
from canasta.view import PlayerView, view_of

ANSWER_WORLDS = 6  # deals of the hidden cards in which both answers are played out
ANSWER_MOVES = 48  # moves at most in each play-out after the answer (about three rounds at four
#                    seats): what waiting gains shows by then, the rest is left to the evaluation
ANSWER_CPU = 0.06  # seconds of this thread's CPU for all the play-outs of one answer: past it,
#                    no new deal is played (two at least)
ANSWER_CAP = 0.1  # seconds of CPU: every play-out stops there, judged where the hand stands
ANSWER_Z = 1.5  # standard errors by which waiting must beat ending the hand now
TAKE_MELDS = 6  # melds judged after a take, at most
TAKE_FOLLOWED = 3  # takes judged with the melds that follow them: the best three without them
DRAW_SAMPLES = 3  # orders of the stock a draw is judged in
NOISE = 25.0  # points: a one-ply difference this small does not beat the basic player's choice
MELD_BONUS = 12.0  # points: laying cards down early keeps them from counting against the side


def _wilds_spent(move: Move) -> int:
    """The wild cards ``move`` takes from the hand (onto the table or the pile)."""
    return sum(1 for c in move.cards_from_hand() if c.is_wild)


def _race(state: HandState, view: PlayerView) -> bool:
    """Another side has the canastas it needs to go out."""
    return any(may_go_out(state, s) for s in range(view.rules.n_sides) if s != view.side)


class ExpertPlayer:
    name = "expert"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.memory = Memory()
        self.basic = BasicPlayer(seed + 7919)
        self.eager = BasicPlayer(seed + 7927, holds_back=False)

    def new_hand(self, seat: int) -> None:
        self.memory = Memory()

    def observe(self, view: PlayerView) -> None:
        """See the table without choosing (a restored game shows each decision point again)."""
        self.memory.update(view)

    def choose(self, view: PlayerView) -> Move:
        self.memory.update(view)
        return self.decide(view)

    def decide(self, view: PlayerView, world: HandState | None = None) -> Move:
        """The choice for ``view``, once the memory has seen it.  A search playing on in a
        world of its own (consistent with ``view``) passes it as ``world``: the moves are
        judged there, and a question is answered yes (its play-outs would cost more than the
        search's whole budget)."""
        return self.judge(view, world)[0]

    def judge(self, view: PlayerView, world: HandState | None = None
              ) -> tuple[Move, HandState | None, list[tuple[float, int, Move]]]:
        """``decide``'s choice, the world it judged the moves in and every move's value there
        (empty when there was nothing to judge: one legal move, a question), which a search
        can take its shortlist from."""
        moves = view.legal_moves
        if not moves:
            raise ValueError("there is no legal move to choose from")
        if len(moves) == 1:
            return moves[0], None, []
        state = world if world is not None else determinize(view, self.rng, self.memory)
        if view.asking is not None:
            answer = YES if world is not None or self.answer_yes(state, view) else NO
            return answer, state, []
        samples = DRAW_SAMPLES if world is None else 1
        scored: list[tuple[float, int, Move]] = []
        takes: list[tuple[float, int, Move]] = []
        for i, m in enumerate(moves):
            if m == ASK:
                continue
            if m.kind is MoveKind.TAKE:
                takes.append((self.score(state, view, m, samples, follow=False), i, m))
            else:
                scored.append((self.score(state, view, m, samples), i, m))
        # The melds that follow a take are judged for the most promising takes only: a big
        # pile may be taken in dozens of ways, nearly the same once the melds follow, and each
        # way judged with its melds costs a search of its own.
        takes.sort(reverse=True)
        scored += [(self.score(state, view, m, samples) if k < TAKE_FOLLOWED else v, i, m)
                   for k, (v, i, m) in enumerate(takes)]
        scored.sort(key=lambda x: x[1])
        return self._choice(state, view, scored, world is not None), state, scored

    def _choice(self, state: HandState, view: PlayerView, scored: list[tuple[float, int, Move]],
                in_search: bool) -> Move:
        moves = view.legal_moves
        top, _, best = max(scored)
        if in_search:
            # Inside a search's play-out: the judgement alone, at the least cost (the search
            # compares its moves over many such play-outs).
            return ASK if ASK in moves and self.goes_out(state, best) else best
        simple = self.basic.choose(view, state)
        discards = [(v, i, m) for v, i, m in scored if m.kind is MoveKind.DISCARD]
        safer = max(discards)[2] if discards else best
        if (simple != best and simple != ASK and not self._feeds_more(state, view, simple, safer)
                and _wilds_spent(simple) <= _wilds_spent(best)):
            for value, _, m in scored:
                if m == simple and value >= top - self._noise(view):
                    best = simple
        if ASK in moves and (self.goes_out(state, best)
                             or self._out_now(state, view) >= top - self._noise(view)):
            # Going out this turn is as good as anything: ask first (a no costs nothing, the
            # turn goes on as it would; a yes binds to go out).
            return ASK
        return best

    def _feeds_more(self, state: HandState, view: PlayerView, move: Move, than: Move) -> bool:
        """Whether the discard ``move`` gives the next player, an opponent, more of a chance at
        the pile than the discard ``than`` (the expert's own choice of discard): the noise
        margin never trades a safe discard for one the next side can use."""
        if move.kind is not MoveKind.DISCARD or than.kind is not MoveKind.DISCARD:
            return False
        if move.card is None or than.card is None:
            return False
        taker = (view.seat + 1) % view.rules.players
        if view.side_of(taker) == view.side:
            return False
        return (discard_danger(state, taker, move.card, view.seat, self.memory)
                > discard_danger(state, taker, than.card, view.seat, self.memory))

    def _out_now(self, state: HandState, view: PlayerView) -> float:
        """The best that going out this turn scores: the moves that go out at once, as the
        engine lists them to a player whose partner said yes."""
        bound = state.copy()
        bound.apply(ASK)
        bound.apply(YES)
        best = -math.inf
        for m in bound.legal_moves():
            after = bound.copy()
            after.apply(m)
            discard_last_card(after, view.seat)
            if after.result is not None:
                best = max(best, evaluate(after, view.seat, self.memory)
                           - self._left_on_the_table(state, view))
        return best

    @staticmethod
    def _noise(view: PlayerView) -> float:
        """NOISE on the variant's scale: more decks, bigger hands and scores (Ponytail's six
        decks make scores several times Classic's)."""
        rules = view.rules
        return NOISE * rules.variant.decks(rules.players) / 2

    def score(self, state: HandState, view: PlayerView, move: Move,
              samples: int = DRAW_SAMPLES, follow: bool = True) -> float:
        """What ``move`` is worth in ``state`` (a world dealt from ``view``), in points; a
        draw is judged over ``samples`` orders of the stock, a take with the melds that follow
        it unless ``follow`` is false."""
        if move.kind is MoveKind.DRAW:
            # The cards drawn are unknown: the stock's order is any the view allows, so a few
            # orders of it give what drawing is worth on average (a take is judged with the
            # cards it brings: so must the draw be).
            total = 0.0
            for _ in range(samples):
                after = state.copy()
                self._shuffle_top(after.stock, 2 * view.rules.variant.draw_count(
                    view.rules.players) + 2)
                after.apply(move)
                total += evaluate(after, view.seat, self.memory)
            return total / samples
        if move.kind is MoveKind.PASS:
            after = state.copy()
            after.apply(move)
            return evaluate(after, view.seat, self.memory)
        after = state.copy()
        after.apply(move)
        value = evaluate(after, view.seat, self.memory)
        if move.kind in (MoveKind.MELD, MoveKind.ADD, MoveKind.TAKE):
            value += MELD_BONUS * len(move.cards_from_hand())
        if move.kind is MoveKind.TAKE and follow:
            value += self._melds_after_take(after, view, value, state.pile)
        if after.result is not None and after.result.went_out is not None:
            value -= self._left_on_the_table(state, view)
        return value

    def _shuffle_top(self, stock: list[Card], n: int) -> None:
        """Deal the top ``n`` cards of ``stock`` at random from the whole of it (the first
        steps of a shuffle: the cards below are never looked at)."""
        size = len(stock)
        for j in range(1, min(n, size) + 1):
            i = self.rng.randrange(size - j + 1)
            stock[i], stock[size - j] = stock[size - j], stock[i]

    def _melds_after_take(self, after: HandState, view: PlayerView, value: float,
                          pile: list[Card]) -> float:
        """What the melds that follow a take add to its value: a pile is judged with what it
        lets the side lay down the same turn (three aces taken into hand are a penalty only
        until they are melded), the best meld at each step while one improves the position
        (``TAKE_MELDS`` steps at most; the hand is still to discard).  Only melds that use a
        card of the pile count, and cards added to the melds the take itself started (the
        fourth seven onto the sevens the take laid down): the others a draw allows as well."""
        taken = set(pile)
        side = view.side
        started = {m.rank for m in after.melds[side]} - {m.rank for m in view.melds[side]}
        state = after
        gain = 0.0
        for _ in range(TAKE_MELDS):
            best: tuple[float, HandState] | None = None
            for m in state.legal_moves():
                if m.kind not in (MoveKind.MELD, MoveKind.ADD) or not (
                        any(c in taken for c in m.cards_from_hand())
                        or (m.kind is MoveKind.ADD and m.rank in started)):
                    continue
                nxt = state.copy()
                nxt.apply(m)
                if nxt.result is not None or len(nxt.hands[view.seat]) < 1:
                    continue  # going out is judged as a move of its own, not here
                laid = len(m.cards_from_hand())
                here = evaluate(nxt, view.seat, self.memory) + MELD_BONUS * laid
                if best is None or here > best[0]:
                    best = (here, nxt)
                more = self._rest_of_rank(nxt, view.seat, m)
                if more is not None:
                    here = (evaluate(more[0], view.seat, self.memory)
                            + MELD_BONUS * (laid + more[1]))
                    if here > best[0]:
                        best = (here, more[0])
            if best is None or best[0] <= value + gain:
                break
            gain = best[0] - value
            state = best[1]
        return gain

    @staticmethod
    def _rest_of_rank(state: HandState, seat: int, move: Move) -> tuple[HandState, int] | None:
        """``state`` after the rest of the hand's natural cards of the rank ``move`` melded or
        added to go onto that meld too (a card kept for the last one to discard), and how many
        went: one at a time each of them is worth little, together they may finish a canasta
        or lift a penalty for cards held together (eight sevens taken with a pile: a sevens
        canasta, and no three sevens left in hand)."""
        hand = state.hands[seat]
        for group in move.groups:
            rank = move.rank or group_rank(group)
            if rank not in NATURAL_RANKS:
                continue
            same = [c for c in hand if c.rank == rank and c.is_natural][: len(hand) - 1]
            while same:
                # As many as the meld takes (a Modern American meld stops at seven cards).
                add = Move.add(rank, same)
                if state.is_legal(add):
                    after = state.copy()
                    after.apply(add)
                    return after, len(same)
                same.pop()
        return None

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
        """The partner asks "may I go out?".  Yes ends the hand now, at the score the table
        shows (our cards in hand against us, the opponents' against them); no gives every
        player another turn: the cards this seat can still meld, a canasta it may complete, a
        pile it may take, against the opponents' turns, in which they may go out themselves,
        open, or finish canastas.  Both are played out, in the same deals of the hidden cards
        (the asker dealt a hand it can go out with), with the basic player's policy at every
        seat until the hand ends.  A yes is sure (the asker can go out); a no must show that
        waiting pays, by ``ANSWER_Z`` standard errors of the paired differences.  The effort is
        bounded: ``ANSWER_MOVES`` moves a play-out (the evaluation judges where the hand goes
        on), no new deal once ``ANSWER_CPU`` is spent (two at least), and every play-out stops,
        judged where it stands, once ``ANSWER_CAP`` is; past the cap after one deal, where no
        spread can be judged, the answer is the sure one, yes."""
        start = time.thread_time()
        deadline = start + ANSWER_CAP
        gains: list[float] = []
        for i in range(ANSWER_WORLDS):
            world = state if i == 0 else determinize(view, self.rng, self.memory)
            gains.append(self._play_on(world, view, NO, deadline)
                         - self._play_on(world, view, YES, deadline))
            spent = time.thread_time() - start
            if spent > ANSWER_CAP or (i >= 1 and spent > ANSWER_CPU):
                break  # out of time: the deals played so far decide
        if len(gains) < 2:
            return True
        mean = sum(gains) / len(gains)
        se = (sum((g - mean) ** 2 for g in gains) / (len(gains) - 1) / len(gains)) ** 0.5
        return not (mean > 0.0 and mean > ANSWER_Z * se)

    def _play_on(self, world: HandState, view: PlayerView, answer: Move,
                 deadline: float = math.inf) -> float:
        """The answer ``answer`` in ``world``, then the rest of the hand (``ANSWER_MOVES`` moves
        at most) with the basic player's policy at every seat (the opponents going out whenever
        they may): our side's result, or its evaluation where the hand goes on."""
        state = world.copy()
        state.apply(answer)
        for _ in range(ANSWER_MOVES):
            if time.thread_time() > deadline:
                break  # the answer's time is up: judged where the hand stands
            if state.result is not None:
                break
            actor = state.turn
            seen = view_of(state, actor)
            if not seen.legal_moves:
                break  # a world whose asker could not go out after all: judged as it stands
            policy = self.basic if state.side_of(actor) == view.side else self.eager
            state.apply(policy.choose(seen, state))
        return evaluate(state, view.seat)
