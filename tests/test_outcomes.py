"""Property: the legal-move list misses no outcome (docs/ENGINE.md, "Legal moves: one per
distinct outcome").

In seeded random self-play, moves that are *not* necessarily listed are made up at sampled
positions (other suits, groups split or merged, subsets of the hand, the whole hand but one
card, wild cards alone onto a meld, takes with more cards); every one that ``check`` accepts is
played on a copy, and its outcome must also be reached by listed moves of the same seat in the
same turn.

What an outcome is:

* a move that ends the hand: the hand's result -- who went out, whether concealed, and every
  side's score breakdown (nothing else of a finished hand matters to anyone);
* any other move: the position it leaves, suit-blind -- every card read as its kind (suits
  never matter except for threes, whose colours are kinds of their own), melds as their rank and
  counts (naturals, deuces, jokers) in no particular order, the pile and the stock in order,
  the ponytails, and every fact of the turn that decides what may follow (who acts and in which
  phase, how the turn began, the question and its answer, what was melded this turn, whether
  the black threes are down, the penalties and bonuses).

The list reaches an outcome when a sequence of listed moves of the seat that made the move,
within its turn, leaves the same outcome: larger melds are listed card by card (a meld of
three, then single additions), so one candidate move may take several listed ones.

One fact is left out for takes: a take that shows more cards than the listed takes need leaves
the player free to ask "may I go out?" (the take is the draw), where the listed take followed
by the same cards melded does not.  The list keeps to the fewest cards that make a take legal
(docs/ENGINE.md), so for a take the outcome does not hold whether melding has begun this turn.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest

from canasta.cards import BLACK_THREE, DEUCE, JOKER, NATURAL_RANKS, Card
from canasta.engine.state import HandState
from canasta.errors import IllegalMove
from canasta.match import Match
from canasta.moves import ASK, DRAW, PASS, WILD_MELD, Move, MoveKind
from canasta.rules import Rules

CANDIDATES = 24  # made-up moves checked per sampled position
MAX_NODES = 4000  # positions the search for a listed route may visit per outcome


def outcome(state: HandState, after_take: bool = False) -> tuple[Any, ...]:
    """The suit-blind outcome of a position (see the module docstring); ``after_take``: leave
    out whether melding has begun this turn."""
    r = state.result
    if r is not None:
        return ("over", r.went_out, r.concealed,
                tuple(tuple(sorted(b.items())) for b in r.breakdown))

    def kinds(cs: list[Card] | None) -> tuple[int, ...] | None:
        return None if cs is None else tuple(sorted(c.kind for c in cs))

    return (
        state.turn, state.phase, state.drew, state.asking, state.answer, state.frozen,
        state.start_frozen, tuple(kinds(h) for h in state.hands),
        tuple(kinds(p) for p in state.ponytails),
        tuple(tuple(sorted((m.rank, m.naturals, m.deuces, m.jokers) for m in ms))
              for ms in state.melds),
        tuple(kinds(t) for t in state.threes), tuple(c.kind for c in state.pile),
        tuple(c.kind for c in state.stock), tuple(state.melded), tuple(state.asked),
        tuple(state.penalties), tuple(state.bonuses), state.turn_start_melded,
        None if after_take else state.turn_melded, state.turn_old_touched,
        tuple(sorted(state.turn_new_ranks)), state.black_threes_down,
    )


def table(state: HandState) -> Counter[tuple[int, str, int]]:
    """Cards on the table by side, meld rank and kind: within a turn they only ever grow."""
    out: Counter[tuple[int, str, int]] = Counter()
    for side, ms in enumerate(state.melds):
        for m in ms:
            for c in m.cards:
                out[side, m.rank, c.kind] += 1
    return out


def reached(start: HandState, target: HandState, after_take: bool) -> bool:
    """Whether listed moves of the seat to act, within its turn, lead from ``start`` to the
    outcome of ``target`` (depth first; positions seen once; a route may only lay cards that
    the target has on the table)."""
    want = outcome(target, after_take)
    want_table = table(target)
    seat = start.turn
    seen = {outcome(start, after_take)}
    nodes = [0]

    def within(s: HandState) -> bool:
        return not (table(s) - want_table) and (s.drew is None or s.drew == target.drew)

    def search(s: HandState) -> bool:
        for m in s.legal_moves():
            nodes[0] += 1
            assert nodes[0] <= MAX_NODES, "the search for a listed route ran too long"
            t = s.copy()
            t.apply(m)
            key = outcome(t, after_take)
            if key == want:
                return True
            if key in seen or t.result is not None or not within(t):
                continue
            seen.add(key)
            same_turn = t.turn == seat and t.asking is None and m.kind is not MoveKind.DISCARD
            if same_turn and search(t):
                return True
        return False

    return search(start)


# ----------------------------------------------------------------------------------------
# Made-up moves
def _pick(rng: random.Random, by_kind: dict[int, list[Card]], k: int, n: int) -> list[Card]:
    """``n`` cards of kind ``k``, of random suits."""
    return rng.sample(by_kind.get(k, []), n) if n else []


def _groups_of(rng: random.Random, by_kind: dict[int, list[Card]], k: int, n: int, d: int,
               j: int) -> list[Card]:
    return (_pick(rng, by_kind, k, n) + _pick(rng, by_kind, DEUCE, d)
            + _pick(rng, by_kind, JOKER, j))


def _whole_hand(rng: random.Random, state: HandState, hand: list[Card],
                keep: Card | None) -> list[Move]:
    """The hand (but ``keep``) melded in one move: a group per rank with the wild cards shared
    out at random, and, where a rank overflows its unfinished meld, a first group that closes it
    and the rest as new melds."""
    side = state.side_of(state.turn)
    cards = list(hand)
    if keep is not None:
        cards.remove(keep)
    if not cards:
        return []
    rng.shuffle(cards)
    naturals: dict[str, list[Card]] = {}
    wilds: list[Card] = []
    threes: list[Card] = []
    for c in cards:
        if c.is_natural:
            naturals.setdefault(c.rank, []).append(c)
        elif c.is_wild:
            wilds.append(c)
        elif c.kind == BLACK_THREE:
            threes.append(c)
        else:
            return []
    size = state.rules.variant.canasta_size
    out = []
    for _ in range(3):
        groups: list[list[Card]] = []
        for r, cs in naturals.items():
            j = state.find_meld(side, r)
            room = size - state.melds[side][j].size if j >= 0 else size
            if len(cs) > room and state.rules.variant.reopens_closed_ranks:
                cut = rng.randint(1, room)
                groups += [cs[:cut], cs[cut:]]
            else:
                groups.append(list(cs))
        spare: list[Card] = []
        for w in wilds:
            if groups and rng.random() < 0.8:
                rng.choice(groups).append(w)
            else:
                spare.append(w)
        if spare:
            groups.append(spare)
        if threes:
            groups.append(list(threes))
        out.append(Move.meld(*groups))
    return out


def candidates(state: HandState, rng: random.Random) -> tuple[list[Move], list[Move]]:
    """Moves made up for the seat to act, legal or not, listed or not: those that meld the
    whole hand (but a card) in one move, all to be tried, and the others, to sample from."""
    seat = state.turn
    side = state.side_of(seat)
    hand = state.hands[seat]
    by_kind: dict[int, list[Card]] = {}
    for c in hand:
        by_kind.setdefault(c.kind, []).append(c)
    nd, nj = len(by_kind.get(DEUCE, [])), len(by_kind.get(JOKER, []))
    ranks = [k for k in range(len(NATURAL_RANKS)) if k in by_kind]
    out: list[Move] = []
    if state.phase == "draw":
        out += [DRAW, PASS]
        top = state.pile_top
        if top is not None and top.is_natural:
            k = top.kind
            for n, d, j in itertools.product(range(len(by_kind.get(k, [])) + 1), range(3),
                                             range(3)):
                if d <= nd and j <= nj:
                    first = _groups_of(rng, by_kind, k, n, d, j)
                    out.append(Move.take(first))
                    others = [x for x in ranks if x != k and len(by_kind[x]) >= 2]
                    if others:
                        x = rng.choice(others)
                        extra = _pick(rng, by_kind, x, rng.randint(2, len(by_kind[x])))
                        out.append(Move.take(first, extra))
        return [], out
    out.append(ASK)
    out += [Move.discard(c) for c in hand]
    singles: list[list[Card]] = []
    for k in ranks:
        for n, d, j in itertools.product(range(1, len(by_kind[k]) + 1), range(4), range(4)):
            if d <= nd and j <= nj and d + j <= 3:
                singles.append(_groups_of(rng, by_kind, k, n, d, j))
    for d, j in itertools.product(range(min(nd, 7) + 1), range(min(nj, 7) + 1)):
        if 0 < d + j <= 7:
            wild = _groups_of(rng, by_kind, -1, 0, d, j)
            singles.append(wild)
            for m in state.melds[side]:
                if m.rank in NATURAL_RANKS or m.rank == WILD_MELD:
                    out.append(Move.add(m.rank, wild))
    b = len(by_kind.get(BLACK_THREE, []))
    threes = [_pick(rng, by_kind, BLACK_THREE, n) for n in range(1, b + 1)]
    singles += threes
    out += [Move.meld(g) for g in singles]
    if len(singles) >= 2:
        for _ in range(8):
            g1, g2 = rng.sample(singles, 2)
            if not set(g1) & set(g2):
                out.append(Move.meld(g1, g2))
    for g in threes:
        for _ in range(2):
            other = rng.choice(singles)
            if not set(other) & set(g):
                out.append(Move.meld(other, g))
    for k in ranks:
        cs = by_kind[k]
        if len(cs) >= 3 and state.rules.variant.reopens_closed_ranks:
            cut = rng.randint(1, len(cs) - 1)
            out.append(Move.meld(cs[:cut], cs[cut:]))
    whole = []
    for keep in [None, *{c.kind: c for c in hand}.values()]:
        whole += _whole_hand(rng, state, hand, keep)
    return whole, out


def missed_outcomes(state: HandState, rng: random.Random) -> list[str]:
    """The made-up moves ``check`` accepts whose outcome no listed route reaches."""
    whole, made = candidates(state, rng)
    listed = set(state.legal_moves())
    out = []
    for m in whole + rng.sample(made, min(CANDIDATES, len(made))):
        if m in listed:
            continue
        try:
            plan = state.check(m)
        except IllegalMove:
            continue
        if plan.penalty:
            continue  # a mistake accepted in table mode, never listed (docs/ENGINE.md)
        after = state.copy()
        after.apply(m)
        if not reached(state, after, m.kind is MoveKind.TAKE):
            out.append(str(m))
    return out


def play_and_probe(rules: Rules, seed: int) -> list[str]:
    """One seeded hand of random play that favours melding (nine moves in ten are melds,
    additions or takes when there are some, so that hands get as far as going out), probing
    every position where the seat to act holds 8 cards or fewer and one in twenty others."""
    game, probe = random.Random(seed), random.Random(seed + 1)
    state = Match(rules, seed).state
    misses = []
    while state.result is None:
        if state.asking is None and (len(state.hands[state.turn]) <= 8 or probe.random() < 0.05):
            misses += [f"{m} at move {len(state.history)} of seed {seed}"
                       for m in missed_outcomes(state, probe)]
        legal = state.legal_moves()
        melds = [m for m in legal if m.kind in (MoveKind.MELD, MoveKind.ADD, MoveKind.TAKE)]
        state.apply(game.choice(melds if melds and game.random() < 0.9 else legal))
    return misses


@pytest.mark.slow  # probes every move of whole hands
@pytest.mark.parametrize(("variant", "players", "options", "hands"), [
    ("classic", 4, {}, 30), ("classic", 3, {}, 20), ("classic", 2, {}, 30),
    ("modern-american", 4, {}, 20),
    ("ponytail", 4, {}, 10), ("ponytail", 6, {}, 20),
    ("ponytail", 4, {"required_canastas": "four-books"}, 4),
])
def test_every_accepted_move_has_an_outcome_the_list_reaches(
        variant: str, players: int, options: dict[str, object], hands: int) -> None:
    rules = Rules.make(variant, players, **options)
    misses = [m for seed in range(500, 500 + hands) for m in play_and_probe(rules, seed)]
    assert not misses, "\n".join(dict.fromkeys(misses))
