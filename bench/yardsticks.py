"""Club yardsticks: habits a strong club player watches for, counted over whole hands.

Every seat of a table plays at the same level; each hand is a fresh seeded deal (the first hand
of a match). Each yardstick is counted at the decisions of the seats, from what the seat itself
could see (its view and what it saw others take from the pile):

* **avoidable feeds**, per 100 decisions (a decision: a move chosen among two or more legal
  ones): a discard of a natural card that the next player's side, an opponent, could take the
  pile with by the variant's take rule (``Variant.take_error``) using its melds on the table
  (Classic and Ponytail: an unfinished meld of that rank, the pile not frozen for it) or the
  cards the discarder saw it take from the pile and not show since (two naturals of that rank;
  one and a wild card where the pile is not frozen for it), while the discards listed for the
  seat held a card that is neither such a feed nor a wild card (a black three, a rank the next
  side cannot take with); a discard that goes out is not counted;
* **stripped hands**: the share of draw turns (the start of a turn) with 40 cards or more in the
  stock, before the seat's side has a canasta, at which the seat holds 2 cards or fewer;
* **wild cards for small piles**: wild cards from hand in takes of a pile of 3 cards or fewer
  (top card included), per hand;
* **big piles declined** (Modern American): draw turns with a pile of 12 cards or more and a
  legal take at which the seat drew instead, per hand, and how many of those judged a strong
  player would have taken (see ``judge_decline``);
* **black threes taken** (Ponytail): black threes in the piles the seats took, per hand;
* **"may I go out?" answers reversed**: answers judged by the engine's own search; see
  ``judge_answer``.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass, field

from canasta.bots import make_player
from canasta.bots.expert import ExpertPlayer
from canasta.bots.sampling import Memory, determinize
from canasta.cards import BLACK_THREE, Card
from canasta.engine.deal import deal, shuffled_deck
from canasta.engine.state import HandState
from canasta.match import hand_seed
from canasta.moves import DRAW, NO, YES, Move, MoveKind
from canasta.rules import Rules
from canasta.view import view_of

STOCK_EARLY = 40  # cards in the stock: "early in the hand" for the stripped-hand yardstick
STRIPPED = 2  # cards in hand or fewer: a stripped hand
SMALL_PILE = 3  # cards in the pile or fewer: a small pile
BIG_PILE = 12  # cards in the pile or more: a big pile (Modern American)
WORLDS = 12  # deals of the hidden cards per judged answer
Z = 2.0  # standard errors by which the other answer must do better to count as a reversal

#: (variant, players, level, hands): 46 minutes of one core in all on 2026-12-01 (a machine
#: shared with other work), most of it the master's searches and the judge's rollouts
PLAN = (
    ("classic", 4, "basic", 1000), ("classic", 4, "expert", 1000), ("classic", 4, "master", 150),
    ("modern-american", 4, "basic", 500), ("modern-american", 4, "expert", 500),
    ("modern-american", 4, "master", 80),
    ("ponytail", 4, "basic", 300), ("ponytail", 4, "expert", 300), ("ponytail", 4, "master", 40),
)


@dataclass
class Tally:
    hands: int = 0
    decisions: int = 0
    feeds: int = 0
    early_draws: int = 0
    stripped: int = 0
    small_pile_wilds: int = 0
    big_declined: int = 0
    declines_judged: int = 0
    declines_reversed: int = 0
    decline_gains: list[float] = field(default_factory=list)  # take less draw, each judged
    black_threes: int = 0
    answers: int = 0
    judged: int = 0
    reversed: int = 0
    reversals: list[str] = field(default_factory=list)  # what each reversal was, for reading
    seconds: float = 0.0
    cpu: list[float] = field(default_factory=list)  # CPU seconds of each decision (two moves+)
    answer_cpu: list[float] = field(default_factory=list)  # ... of each answer to "may I go out?"


def feeds(state: HandState, seat: int, c: Card, memory: Memory) -> bool:
    """Whether discarding ``c`` lets the next player, an opponent, take the pile with it, as
    far as ``seat`` can see (the table, and the cards it saw that player take)."""
    nxt = (seat + 1) % state.rules.players
    side = state.side_of(nxt)
    if side == state.side_of(seat) or not c.is_natural:
        return False
    held = memory.known_cards(nxt)
    naturals = sum(1 for x in held if x.rank == c.rank)
    wilds = sum(1 for x in held if x.is_wild)
    j = state.find_meld(side, c.rank)
    existing = state.melds[side][j] if j >= 0 else None
    return state.rules.variant.take_error(state, side, c, naturals, wilds, existing) is None


def avoidable_feed(state: HandState, seat: int, move: Move, legal: list[Move],
                   memory: Memory) -> bool:
    """A discard that feeds the next player while a listed discard would not have (and would
    not have been a wild card)."""
    c = move.card
    if move.kind is not MoveKind.DISCARD or c is None or len(state.hands[seat]) == 1:
        return False
    if not feeds(state, seat, c, memory):
        return False
    return any(m.kind is MoveKind.DISCARD and m.card is not None and not m.card.is_wild
               and not feeds(state, seat, m.card, memory) for m in legal)


def _keep_hand(world: HandState, seat: int, cards: list[Card], answerer: int) -> None:
    """Give ``seat`` exactly ``cards`` in ``world``, swapping cards with the other hidden
    places (other hands but the answerer's, ponytails, the stock)."""
    hand = world.hands[seat]
    want = list(cards)
    spare = []
    for c in hand:
        if c in want:
            want.remove(c)
        else:
            spare.append(c)
    places = [world.hands[s] for s in range(world.rules.players) if s not in (seat, answerer)]
    places += [t for t in world.ponytails if t is not None] + [world.stock]
    for c in want:
        place = next((p for p in places if c in p), None)
        if place is None:
            raise RuntimeError(f"{c.text} is nowhere the answerer cannot see")
        place[place.index(c)] = spare.pop()
    world.hands[seat] = list(cards)


def _rollout(world: HandState, answer: Move, side: int, seed: int) -> float:
    """Play ``answer`` in ``world`` and the rest of the hand with the expert at every seat:
    the answerer's side's hand score less the mean of the other sides'."""
    state = world.copy()
    state.apply(answer)
    players = {s: ExpertPlayer(hand_seed(seed, s + 1)) for s in range(state.rules.players)}
    for s, p in players.items():
        p.new_hand(s)
    while state.result is None:
        actor = state.turn
        state.apply(players[actor].choose(view_of(state, actor)))
    scores = state.result.scores
    others = [x for i, x in enumerate(scores) if i != side]
    return scores[side] - sum(others) / len(others)


def judge_answer(state: HandState, answerer: int, chosen: Move, memory: Memory,
                 rng: random.Random) -> tuple[bool, float]:
    """Whether a strong player would reverse the answer: in ``WORLDS`` deals of the cards the
    answerer cannot see (the asker's hand is kept as it is: the question says it can go out),
    both answers are played and the rest of the hand is played out by the expert at every seat,
    the same players in the same deal for both; the answer is reversed when the other one
    scores better for the answerer's side by ``Z`` standard errors of the paired differences.
    Returns the verdict and the mean difference (other answer less the chosen one)."""
    other = NO if chosen == YES else YES
    asker = state.asking
    if asker is None:
        raise ValueError("there is no question to answer")
    view = view_of(state, answerer)
    side = state.side_of(answerer)
    diffs = []
    for _ in range(WORLDS):
        world = determinize(view, rng, memory)
        _keep_hand(world, asker, state.hands[asker], answerer)
        seed = rng.randrange(2**31)
        diffs.append(_rollout(world, other, side, seed) - _rollout(world, chosen, side, seed))
    mean = statistics.fmean(diffs)
    se = statistics.stdev(diffs) / len(diffs) ** 0.5
    return mean > Z * se, mean


def judge_decline(state: HandState, seat: int, memory: Memory, rng: random.Random,
                  worlds: int = WORLDS) -> tuple[bool, float, Move]:
    """Whether a strong player would have taken the big pile that ``seat`` declined (drew
    instead): the take the expert judges best from the seat's view and the draw are played
    in ``worlds`` deals of the cards the seat cannot see (``judge_pile``); the decline is
    reversed when the take scores better for the seat's side by ``Z`` standard errors of the
    paired differences.  Returns the verdict, the mean difference (take less draw) and the
    take."""
    judged = judge_pile(state, seat, memory, rng, worlds)
    return judged.mean > Z * judged.se, judged.mean, judged.take


@dataclass
class PileJudgement:
    take: Move  # the take played out against the draw
    mean: float  # take less draw for the seat's side, mean over the deals
    se: float  # its standard error (the deals' paired differences)
    one_ply: float  # the expert's own judgement at the table: the best take less the draw


def judge_pile(state: HandState, seat: int, memory: Memory, rng: random.Random,
               worlds: int, take: Move | None = None) -> PileJudgement:
    """A draw turn with a take of the pile legal, judged by play-outs: ``take`` (by default
    the take the expert judges best from the seat's view, as at the table: its own deal of
    the hidden cards, the draw over a few orders of the stock, the best takes with the melds
    that follow them) and the draw are played in ``worlds`` deals of the cards the seat cannot
    see, the rest of the hand by the expert at every seat, the same players in the same deal
    for both."""
    if worlds < 2:
        raise ValueError("a pile is judged over two deals of the hidden cards or more")
    view = view_of(state, seat)
    judge = ExpertPlayer(rng.randrange(2**31))
    judge.memory = memory  # read only: the expert's judgement never changes its memory
    _move, _world, scored = judge.judge(view)
    value = {m: v for v, _i, m in scored}
    best = max((v, i, m) for v, i, m in scored if m.kind is MoveKind.TAKE)[2]
    if take is None:
        take = best
    side = state.side_of(seat)
    diffs = []
    for _ in range(worlds):
        world = determinize(view, rng, memory)
        seed = rng.randrange(2**31)
        diffs.append(_rollout(world, take, side, seed) - _rollout(world, DRAW, side, seed))
    return PileJudgement(take, statistics.fmean(diffs),
                         statistics.stdev(diffs) / len(diffs) ** 0.5,
                         value.get(take, value[best]) - value[DRAW])


def play_hands(variant: str, players: int, level: str, hands: int, judge: int | None = None,
               seed: int = 1) -> Tally:
    """Play ``hands`` hands with every seat at ``level``, counting the yardsticks; every
    answer to "may I go out?" is judged, or the first ``judge`` ones."""
    rules = Rules.make(variant, players)
    tally = Tally()
    rng = random.Random(seed)
    # The big piles' judge draws from its own generator: the answers' judge sees the same
    # numbers whether the piles are judged or not.
    pile_rng = random.Random(f"piles-{seed}")
    start = time.perf_counter()
    for h in range(hands):
        state = deal(rules, shuffled_deck(rules, hand_seed(seed, h + 1)))
        # CPU time for the master's caps: the figures must not depend on the machine's load.
        bots = {s: make_player(level, hand_seed(hand_seed(seed, h + 1), s + 1), clock="cpu")
                for s in range(players)}
        memories = {s: Memory() for s in range(players)}
        for s in range(players):
            bots[s].new_hand(s)
            memories[s].update(view_of(state, s))
        while state.result is None:
            seat = state.turn
            view = view_of(state, seat)
            memories[seat].update(view)
            legal = list(view.legal_moves)
            side = state.side_of(seat)
            if (view.phase == "draw" and view.asking is None
                    and view.stock_size >= STOCK_EARLY and state.canastas(side) == 0):
                tally.early_draws += 1
                tally.stripped += len(view.hand) <= STRIPPED
            began = time.thread_time()
            move = bots[seat].choose(view)
            spent = time.thread_time() - began
            if len(legal) > 1:
                tally.decisions += 1
                tally.cpu.append(spent)
                if view.asking is not None:
                    tally.answer_cpu.append(spent)
            if move.kind is MoveKind.TAKE:
                if len(state.pile) <= SMALL_PILE:
                    tally.small_pile_wilds += sum(1 for c in move.cards_from_hand() if c.is_wild)
                if variant == "ponytail":
                    tally.black_threes += sum(1 for c in state.pile if c.kind == BLACK_THREE)
            elif (move == DRAW and variant == "modern-american" and len(state.pile) >= BIG_PILE
                  and any(m.kind is MoveKind.TAKE for m in legal)):
                tally.big_declined += 1
                if judge is None or tally.declines_judged < judge:
                    tally.declines_judged += 1
                    flip, gain, take = judge_decline(state, seat, memories[seat], pile_rng)
                    tally.decline_gains.append(gain)
                    if flip:
                        tally.declines_reversed += 1
                        tally.reversals.append(
                            f"hand {h + 1}: seat {seat} drew instead of taking the pile of "
                            f"{len(state.pile)} ({take}); the take +{gain:.0f}")
            elif avoidable_feed(state, seat, move, legal, memories[seat]):
                tally.feeds += 1
            if view.asking is not None:
                tally.answers += 1
                if judge is None or tally.judged < judge:
                    tally.judged += 1
                    flip, gain = judge_answer(state, seat, move, memories[seat], rng)
                    if flip:
                        tally.reversed += 1
                        tally.reversals.append(
                            f"hand {h + 1}: seat {seat} answered {move} to seat "
                            f"{view.asking} holding {len(view.hand)} cards, pile "
                            f"{view.pile_size}; the other answer +{gain:.0f}")
            state.apply(move, seat)
        tally.hands += 1
    tally.seconds = time.perf_counter() - start
    return tally


def _ms(times: list[float], q: float) -> float:
    ordered = sorted(times)
    return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def times_row(variant: str, players: int, level: str, t: Tally) -> str:
    """The decisions' CPU time (this thread's, so other processes' load counts little)."""
    return (f"| {variant} {players}p | {level} | {len(t.cpu)} | {_ms(t.cpu, 0.5):.1f} "
            f"| {_ms(t.cpu, 0.95):.1f} | {_ms(t.cpu, 1.0):.0f} | {len(t.answer_cpu)} "
            f"| {_ms(t.answer_cpu, 0.5):.1f} | {_ms(t.answer_cpu, 0.95):.1f} "
            f"| {_ms(t.answer_cpu, 1.0):.0f} |")


TIMES_HEADER = ["| table | level | decisions | CPU ms p50 | p95 | max | answers "
                "| answer CPU ms p50 | p95 | max |",
                "|---|---|---|---|---|---|---|---|---|---|"]


def _per_hand(n: int, t: Tally) -> str:
    return f"{n / t.hands:.2f}"


def row(variant: str, players: int, level: str, t: Tally) -> str:
    feeds_rate = 100 * t.feeds / max(1, t.decisions)
    stripped = 100 * t.stripped / max(1, t.early_draws)
    declined = "—"
    if variant == "modern-american":
        gains = t.decline_gains
        mean = f", take {statistics.fmean(gains):+.0f} a pile" if gains else ""
        declined = (f"{_per_hand(t.big_declined, t)} ({t.declines_reversed} of "
                    f"{t.declines_judged} judged wrong{mean})")
    threes = _per_hand(t.black_threes, t) if variant == "ponytail" else "—"
    return (f"| {variant} {players}p | {level} | {t.hands} | {t.decisions} | {feeds_rate:.2f} "
            f"| {stripped:.1f}% of {t.early_draws} | {_per_hand(t.small_pile_wilds, t)} "
            f"| {declined} | {threes} | {t.reversed} of {t.judged} ({t.answers} asked) "
            f"| {t.seconds:.0f} |")


HEADER = ["| table | level | hands | decisions | avoidable feeds per 100 decisions "
          "| draw turns with ≤2 cards (stock 40+, no canasta) | wild cards to take piles of "
          "≤3, per hand | piles of 12+ declined, per hand (judged wrong of judged) "
          "| black threes taken, per hand "
          "| answers reversed of judged | seconds |",
          "|---|---|---|---|---|---|---|---|---|---|---|"]


def measure(plan: tuple[tuple[str, int, str, int], ...] = PLAN, judge: int | None = None,
            seed: int = 1, times: list[str] | None = None) -> list[str]:
    """The yardsticks' table; ``times``: filled with the decision times' table."""
    rows = list(HEADER)
    if times is not None:
        times.extend(TIMES_HEADER)
    for variant, players, level, hands in plan:
        t = play_hands(variant, players, level, hands, judge, seed)
        rows.append(row(variant, players, level, t))
        print(rows[-1], flush=True)
        for r in t.reversals:
            print(f"    reversed: {r}", flush=True)
        print(f"    times: {times_row(variant, players, level, t)}", flush=True)
        if times is not None:
            times.append(times_row(variant, players, level, t))
    return rows


def main() -> int:
    import argparse

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", default=None, help="only this variant")
    p.add_argument("--level", default=None, help="only this level")
    p.add_argument("--hands", type=int, default=None, help="hands per row (default: the plan's)")
    p.add_argument("--judge", type=int, default=None,
                   help="answers, and big piles declined, judged per row at most "
                        "(default: all)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    plan = tuple((v, n, lv, args.hands or h) for v, n, lv, h in PLAN
                 if args.variant in (None, v) and args.level in (None, lv))
    measure(plan, args.judge, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
