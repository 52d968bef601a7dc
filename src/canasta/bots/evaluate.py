"""Judging a position from one seat's side: the knowledge the computer players share.

Everything here reads only what the seat may know: its own hand, the table, the pile, the sizes
of the other hands.  Values are in points, so that a finished hand (its real score) and an
unfinished one (what the table is worth, what the hand may still bring) compare directly.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from canasta.bots.sampling import Memory
from canasta.cards import (
    ALL_CARDS,
    BLACK_THREE,
    DEUCE,
    JOKER,
    N_KINDS,
    NATURAL_RANKS,
    RED_THREE,
    Card,
)
from canasta.engine.melds import Meld
from canasta.engine.state import HandState
from canasta.moves import BLACK_THREES_MELD, WILD_MELD

AVERAGE_UNSEEN = 12  # points, the mean value of a card nobody has seen
TEMPO = 4.0  # points a card in hand costs when the hand may soon end
SUPPLY = 0.4  # the share of the cards still to come that a side can count on for its melds
ROUNDS = 8.0  # rounds of play a meld can count on at most (fewer once a side may go out)
READY = 0.7  # how much of that a side able to go out takes away
READY_VALUE = 100.0  # points: being free to go out (besides the variant's bonus for it)
STUCK = 0.2  # the least chance that a card which could be melded is caught in hand
WILD_HOLD = 40.0  # points: what a wild card kept in hand is worth beyond its own points early in
#                   the hand (it takes a pile with one natural, completes a canasta later,
#                   freezes a big pile); nothing once the hand is about to end
RESERVE = 4  # cards: a hand smaller than this after the discard, before the side may go out,
#              cannot take the pile with a pair or keep a safe discard
HOLD = 30.0  # points per card short of RESERVE, while the end of the hand is far off
WILD_PRICE = 2 * WILD_HOLD  # points: what a take with one natural card and a wild card costs
#                            the taker (the wild card's worth kept, once more for the rank it
#                            had to meld now); published advice: no wild card for a small pile
PASSED = 0.35  # how much of the chance that a player holds a pair is left once it let that
#                rank go by on the pile
END_HAZARD = 0.03  # the chance a round ends the hand while no side is near going out
END_HAZARD_READY = 0.45  # ... and, at most, once a side may go out
DEUCE_CARD: Card = next(c for c in ALL_CARDS if c.kind == DEUCE)
_NATURAL: dict[str, Card] = {r: next(c for c in ALL_CARDS if c.rank == r) for r in NATURAL_RANKS}


_EMPTY_HANDS: dict[int, list[list[Card]]] = {}


def _table_part(state: HandState, side: int) -> float:
    """What the side's table scores if the hand ended now (its hand cards and the going-out
    bonus left aside), by the variant's own scoring, and what being free to go out is worth."""
    v = state.rules.variant
    # The hands are set aside: what they add or cost (such as Modern American's three aces
    # held) is the hand's to judge (``hand_value``), by the chance the cards are still held
    # when the hand ends, and the other hands are only guessed.
    hands = state.hands
    state.hands = _EMPTY_HANDS.setdefault(len(hands), [[] for _ in hands])
    try:
        part = v.score_side(state, side, went_out=False, concealed=False)
    finally:
        state.hands = hands
    value = float(sum(x for k, x in part.items() if k not in ("in_hand", "going_out", "total")))
    if may_go_out(state, side):
        value += READY_VALUE + v.going_out_bonus
    return value


def unseen_kinds(state: HandState, seat: int) -> list[int]:
    """How many cards of each kind ``seat`` has not seen (the pack less its hand and everything
    face up): the same in every determinization of its view."""
    rules = state.rules
    decks = rules.variant.decks(rules.players)
    counts = [4 * decks] * N_KINDS
    counts[JOKER] = counts[RED_THREE] = counts[BLACK_THREE] = 2 * decks
    for c in state.hands[seat]:
        counts[c.kind] -= 1
    for c in state.pile:
        counts[c.kind] -= 1
    for ms in state.melds:
        for m in ms:
            for c in m.cards:
                counts[c.kind] -= 1
    for t in state.threes:
        for c in t:
            counts[c.kind] -= 1
    return counts


def _at_least(need: float, lam: float) -> float:
    """P(X >= need) for X ~ Poisson(lam), ``need`` interpolated between whole numbers."""
    if need <= 0:
        return 1.0
    lo = int(need)
    frac = need - lo

    def tail(n: int) -> float:
        if n <= 0:
            return 1.0
        term = math.exp(-lam)
        below = 0.0
        for i in range(n):
            below += term
            term *= lam / (i + 1)
        return max(0.0, 1.0 - below)

    a = tail(lo)
    return a if frac == 0 else a + frac * (tail(lo + 1) - a)


def _completed(state: HandState, side: int, m: Meld, naturals_short: float) -> Meld:
    """``m`` as the canasta it may become (wild cards where naturals may fall short)."""
    size = state.rules.variant.canasta_size
    need = size - m.size
    if m.rank == WILD_MELD or m.rank not in NATURAL_RANKS:
        return m.plus([DEUCE_CARD] * need)
    wild = min(need, max(0, round(naturals_short)))
    nat = _NATURAL[m.rank]
    return m.plus([nat] * (need - wild) + [DEUCE_CARD] * wild)


def _wild_room(state: HandState, side: int, m: Meld) -> int:
    """How many more wild cards the canasta ``m`` may become could hold."""
    v = state.rules.variant
    size = v.canasta_size
    room = 0
    for x in range(1, size - m.size + 1):
        if v.counts_error(state, side, m.rank, size - m.wilds - x, m.deuces + x,
                          m.jokers) is not None:
            break
        room = x
    return room


def side_table_value(state: HandState, side: int, seat: int,
                     unseen: list[int] | None = None, horizon: float = 1.0) -> float:
    """What the side's table is likely to score at the end of the hand: the variant's score
    with each unfinished meld finished or not, weighed by how likely it is to become a canasta
    (from the cards of its rank still to come), so that bonuses, penalties for unfinished melds
    and scores that depend on the number of canastas all come from ``score_side``."""
    now = _table_part(state, side)
    v = state.rules.variant
    size = v.canasta_size
    melds = state.melds[side]
    open_ = [i for i, m in enumerate(melds) if m.size < size and m.rank != BLACK_THREES_MELD]
    if not open_:
        return now
    if unseen is None:
        unseen = unseen_kinds(state, seat)
    players = state.rules.players
    mine = state.side_of(seat) == side
    seats = [s for s in range(players) if state.side_of(s) == side]
    hidden = sum(len(state.hands[s]) for s in seats if s != seat)
    hidden += sum(len(t) for s in seats if (t := state.ponytails[s]) is not None)
    own = [0] * N_KINDS
    if mine:
        for c in state.hands[seat]:
            own[c.kind] += 1
    # Everything the prospects depend on (the melds themselves are kept alive with the entry,
    # so that their ids stay theirs).
    # Of the seat's own cards only the wild ones and those of the unfinished melds' ranks count
    # (the discards of other cards, most of the moves judged, share one entry).
    counted = (own[DEUCE], own[JOKER], *(own[NATURAL_RANKS.index(melds[i].rank)] for i in open_
                                         if melds[i].rank in NATURAL_RANKS))
    key = (id(state.rules), side, tuple(map(id, melds)), tuple(c.id for c in state.threes[side]),
           tuple(unseen), counted, hidden, len(state.stock), horizon, state.drew,
           tuple(sorted(state.turn_new_ranks)))
    hit = _PROSPECTS.get(key)
    if hit is not None:
        return now + hit[0]
    gain = _prospects(state, side, open_, unseen, own, hidden, horizon)
    if len(_PROSPECTS) > 512:
        _PROSPECTS.clear()
    _PROSPECTS[key] = (gain, melds, state.rules)
    return now + gain


_PROSPECTS: dict[tuple[object, ...], tuple[float, object, object]] = {}


def _prospects(state: HandState, side: int, open_: list[int], unseen: list[int],
               own: list[int], hidden: int, horizon: float) -> float:
    """What the side's unfinished melds add to its score, in expectation."""
    v = state.rules.variant
    size = v.canasta_size
    melds = state.melds[side]
    total_unseen = max(1, sum(unseen))
    players = state.rules.players
    seats = [s for s in range(players) if state.side_of(s) == side]
    per_round = players * state.rules.variant.draw_count(players)
    draws = min(len(state.stock), ROUNDS * horizon * per_round) * len(seats) / players
    supply = SUPPLY * (draws + hidden) / total_unseen  # share of each unseen card the side may get
    wilds_unseen = unseen[DEUCE] + unseen[JOKER]
    shared = supply * wilds_unseen / len(open_)  # the wild cards still to come, shared
    # The seat's own wild cards go where they are needed most: one by one, to the meld the
    # fewest cards short of a canasta (each wild card to one meld only).
    short_of: dict[int, float] = {}
    room: dict[int, int] = {}
    for i in open_:
        m = melds[i]
        if m.rank != WILD_MELD and m.rank in NATURAL_RANKS:
            k = NATURAL_RANKS.index(m.rank)
            short_of[i] = size - m.size - own[k] - supply * unseen[k]
            if short_of[i] > 0:
                room[i] = _wild_room(state, side, m)
    mine = dict.fromkeys(short_of, 0)
    for _ in range(own[DEUCE] + own[JOKER]):
        places = [i for i in room if short_of[i] - mine[i] > 0 and mine[i] < room[i]]
        if not places:
            break
        mine[min(places, key=lambda i: short_of[i] - mine[i])] += 1
    chances = []
    for i in open_:
        m = melds[i]
        need = size - m.size
        if m.rank == WILD_MELD:
            p = _at_least(need - own[DEUCE] - own[JOKER], supply * wilds_unseen)
            chances.append((p, i, m, 0.0))
            continue
        if i not in short_of:
            continue
        k = NATURAL_RANKS.index(m.rank)
        lam = supply * unseen[k]
        short = short_of[i]
        wild = min(room[i], mine[i] + shared) if short > 0 else 0.0
        p = _at_least(need - own[k] - wild, lam)
        chances.append((p, i, m, max(0.0, short)))
    chances.sort(key=lambda t: -t[0])
    # How many of them get finished (independent chances), scenario k finishing the k likeliest.
    dist = [1.0]
    for p, _i, _m, _s in chances:
        nxt = [0.0] * (len(dist) + 1)
        for j, q in enumerate(dist):
            nxt[j] += q * (1 - p)
            nxt[j + 1] += q * p
        dist = nxt
    # The scenarios differ only in the side's melds: score them with the hands set aside
    # (what the hands add or cost is the same in each), on top of the score as it stands.
    saved, hands = melds, state.hands
    work = list(melds)
    state.hands = [[] for _ in hands]
    try:
        base = _table_part(state, side)
        value = 0.0
        for j, (_p, i, m, short) in enumerate(chances, start=1):
            work[i] = _completed(state, side, m, short)
            left = sum(dist[j:])
            if left < 0.01:
                break
            state.melds[side] = work
            here = _table_part(state, side)
            value += left * (here - base)
            base = here
    finally:
        state.melds[side] = saved
        state.hands = hands
    return value


def may_go_out(state: HandState, side: int) -> bool:
    """Whether the side's canastas meet the variant's requirement for going out."""
    melds = state.melds[side]
    # The requirement reads the side's melds alone, and an evaluation asks it many times.
    key = (id(state.rules), tuple(map(id, melds)))
    hit = _MAY_GO_OUT.get(key)
    if hit is not None:
        return hit[0]
    v = state.rules.variant
    ready = v.going_out_requirement(state, side, state.canastas(side), []) is None
    if len(_MAY_GO_OUT) > 4096:
        _MAY_GO_OUT.clear()
    # (The melds are kept alive with the entry, so that their ids stay theirs.)
    _MAY_GO_OUT[key] = (ready, tuple(melds), state.rules)
    return ready


_MAY_GO_OUT: dict[tuple[object, ...], tuple[bool, object, object]] = {}


def going_out_threat(state: HandState) -> float:
    """How close the nearest side is to going out (0..1; 1: it may go out now)."""
    need = max(1, state.canastas_needed())
    return max(1.0 if may_go_out(state, s) else min(0.9, state.canastas(s) / need)
               for s in range(state.rules.n_sides))


def end_risk(state: HandState, seat: int) -> float:
    """How likely the hand is to end before this seat's cards can be melded (0..1)."""
    me = state.side_of(seat)
    need = max(1, state.canastas_needed())
    opponents = max((min(1.0, state.canastas(s) / need)
                     for s in range(state.rules.n_sides) if s != me), default=0.0)
    deck = len(state.stock) / max(1, len(state.stock) + sum(len(h) for h in state.hands))
    return min(0.9, 0.1 + 0.5 * opponents + 0.3 * (1 - deck))


_HAND_COST: dict[tuple[str, int], int] = {}


def hand_cost(state: HandState, seat: int, c: Card) -> int:
    """What ``c`` costs its side if it is still in ``seat``'s hand when the hand ends (the
    variant's own scoring: a black three costs 100 in Ponytail)."""
    key = (state.rules.variant.name, c.kind)
    cost = _HAND_COST.get(key)
    if cost is None:
        v = state.rules.variant
        side = state.side_of(seat)
        hands = state.hands
        try:
            state.hands = [[] for _ in hands]
            empty = v.score_side(state, side, False, False)["in_hand"]
            state.hands[seat] = [c]
            cost = empty - v.score_side(state, side, False, False)["in_hand"]
        finally:
            state.hands = hands
        _HAND_COST[key] = cost
    return cost


def _worse(state: HandState, seat: int, c: Card, each: float, worst: float | None,
           discard_cost: Callable[[Card], float] | None = None) -> float | None:
    """The lower of ``worst`` and what discarding ``c`` costs (``each``, the value of holding
    it, and ``discard_cost(c)``), if ``c`` may be discarded."""
    if worst is not None and each >= worst:
        return worst
    if state.rules.variant.discard_error(state, seat, c, False) is not None:
        return worst
    if discard_cost is not None:
        each += discard_cost(c)
        if worst is not None and each >= worst:
            return worst
    return each


def end_within(state: HandState, seat: int, turns: int) -> float:
    """How likely the hand ends before ``seat`` has had ``turns`` more turns: surely once the
    stock cannot last that long, else by a chance each round that grows as a side nears
    going out (small while nobody has a canasta)."""
    if turns <= 0:
        return 0.0
    rules = state.rules
    per_round = rules.players * rules.variant.draw_count(rules.players)
    if len(state.stock) < turns * per_round:
        return 1.0
    threat = going_out_threat(state)
    hazard = END_HAZARD + (1 - END_HAZARD) * END_HAZARD_READY * threat * threat
    if may_go_out(state, state.side_of(seat)) and not any(
            may_go_out(state, s) for s in range(rules.n_sides) if s != state.side_of(seat)):
        hazard = END_HAZARD + (1 - END_HAZARD) * END_HAZARD_READY * 0.25  # the partner may
    return 1.0 - (1.0 - hazard) ** turns


def _holding_costs(state: HandState, seat: int, cards: list[Card],
                   held: int) -> tuple[float, dict[int, float]]:
    """What holding penalties (``held`` points for ``cards``) are likely to cost, and what one
    discard of each kind takes off that: each part of the penalty lasts until enough cards of
    its kind are shed, one a turn, so it costs by the chance the hand ends first
    (``end_within``); early in the hand four aces cost little, with the opponents free to go
    out three cost nearly all."""
    kinds: dict[int, list[Card]] = {}
    for c in cards:
        kinds.setdefault(c.kind, []).append(c)
    cost = 0.0
    relief: dict[int, float] = {}
    for k, same in kinds.items():
        rest = [c for c in cards if c.kind != k]
        if _holding_penalty(state, seat, rest) >= held:
            continue  # this kind plays no part in the penalty
        for r in range(1, len(same) + 1):
            part = held - _holding_penalty(state, seat, rest + same[r:])
            if part > 0:
                w = end_within(state, seat, r)
                cost += part * w
                relief[k] = part * (w - end_within(state, seat, r - 1))
                break
    return cost, relief


def _holding_penalty(state: HandState, seat: int, cards: list[Card]) -> int:
    """What the variant's penalties dock the side for ``seat`` holding ``cards`` (its other
    hands set aside)."""
    v = state.rules.variant
    side = state.side_of(seat)
    hands = state.hands
    try:
        state.hands = [[] for _ in hands]
        empty = v.side_penalties(state, side)
        state.hands[seat] = cards
        return v.side_penalties(state, side) - empty
    finally:
        state.hands = hands


def hand_value(state: HandState, seat: int,
               discard_cost: Callable[[Card], float] | None = None) -> float:
    """The seat's own cards: each is worth its value if it gets melded and costs it if it is
    still in hand when the hand ends; cards that build new canastas are worth more.  Cards
    that can go onto the side's unfinished melds already count in the table's prospects
    (``side_table_value``): in hand they only risk being caught.  A hand still to discard this
    turn loses the card whose discard costs least: its worth in hand and ``discard_cost`` (what
    it gives the next player on the pile)."""
    side = state.side_of(seat)
    v = state.rules.variant
    size = v.canasta_size
    counts: dict[int, int] = {}
    first: dict[int, Card] = {}
    for c in state.hands[seat]:
        counts[c.kind] = counts.get(c.kind, 0) + 1
        first.setdefault(c.kind, c)
    risk = end_risk(state, seat)
    stuck = STUCK + 0.5 * risk
    melds = state.melds[side]
    open_melds = any(m.size < size and m.rank != BLACK_THREES_MELD for m in melds)
    total = 0.0
    worst: float | None = None  # the card this turn's discard will most likely shed
    hold: dict[int, float] = {}  # what one card of each kind is worth in hand
    for k, n in counts.items():
        value = hand_cost(state, seat, first[k])
        if k < len(NATURAL_RANKS):
            rank = NATURAL_RANKS[k]
            j = state.find_meld(side, rank)
            if j >= 0 and melds[j].size < size:
                each = -value * stuck
                total += n * each
                worst = _worse(state, seat, first[k], each, worst, discard_cost)
                hold[k] = each
                continue
            if j >= 0:
                m = melds[j]
                if v.counts_error(state, side, rank, m.naturals + 1, m.deuces, m.jokers) is None:
                    p, build = 0.95, 0.0
                else:
                    p, build = 0.1, 0.0
            elif n >= 3:
                p, build = 0.9, 20.0
            elif n == 2:
                p, build = 0.7, 15.0
            else:
                p, build = 0.35, 4.0
        elif k in (DEUCE, JOKER):
            # A wild card is melded in the end (its points count: a joker more than a deuce)
            # and, kept, it is what takes a pile with one natural card, completes a canasta or
            # freezes a big pile: worth keeping while the hand has far to go.
            p, build = 0.95, WILD_HOLD * (1 - risk) / 0.95
            if not open_melds:
                build += 30.0
        elif k == BLACK_THREE and v.discard_error(state, seat, first[k], False) is None:
            # A black three is shed as a safe discard, one a turn: it costs its points only if
            # the hand ends first, likelier for the last of several and late in the hand.
            for j in range(n):
                each = -value * min(1.0, STUCK + risk + 0.1 * j)
                total += each
                worst = _worse(state, seat, first[k], each, worst, discard_cost)
                hold[k] = each
            continue
        elif k in (BLACK_THREE, RED_THREE):
            p, build = 0.0, 0.0
        else:
            continue
        p *= 1 - 0.5 * risk
        each = value * (2 * p - 1) + build * p
        total += n * each
        worst = _worse(state, seat, first[k], each, worst, discard_cost)
        hold[k] = each
    if v.penalizes_holdings:
        # What the cards held cost together (three aces in one hand), by the chance they are
        # still held when the hand ends: melded or discarded before, they cost nothing.
        held = _holding_penalty(state, seat, state.hands[seat])
        if held:
            cost, relief = _holding_costs(state, seat, state.hands[seat], held)
            total -= cost
            for k, off in relief.items():
                c = first[k]
                if off > 0 and v.discard_error(state, seat, c, False) is None:
                    worst = _worse(state, seat, c, hold.get(k, 0.0) - off, worst, discard_cost)
    if worst is not None and state.turn == seat and state.phase == "play":
        total -= worst  # the turn ends with a discard: the card that costs least goes
    # Tempo: a side that may go out wants its cards down; so does one whose opponents may.
    ready = may_go_out(state, side)
    total -= TEMPO * (2 if ready else risk) * len(state.hands[seat])
    if not ready:
        # Before the side may go out, a stripped hand can neither take the pile (no pair left)
        # nor keep a safe discard: the last cards are worth keeping while the end is far.
        left = len(state.hands[seat]) - (state.turn == seat and state.phase == "play")
        total -= HOLD * max(0, RESERVE - left) * (1 - risk)
    return total


def _at_least_binom(k: int, n: int, q: float) -> float:
    """P(X >= k) for X ~ Binomial(n, q)."""
    if k <= 0:
        return 1.0
    if k > n or q <= 0.0:
        return 0.0
    q = min(q, 1.0)
    term = (1 - q) ** n
    below = 0.0
    for i in range(k):
        below += term
        term *= (n - i) / (i + 1) * q / max(1e-12, 1 - q)
    return max(0.0, 1.0 - below)


def take_chance(state: HandState, taker: int, top: Card, seat: int,
                memory: Memory | None = None, unseen: list[int] | None = None) -> float:
    """How likely ``taker`` can take the pile topped by the natural ``top``, as ``seat`` can
    judge it: by the variant's own take rule (``take_error``) with the side's melds on the table,
    the cards ``seat`` saw the taker take from the pile and not show since, and the chance that
    its other cards hold what is missing (less if it let that rank go by on the pile)."""
    natural, wild = take_chances(state, taker, top, seat, memory, unseen)
    return natural + wild


def take_chances(state: HandState, taker: int, top: Card, seat: int,
                 memory: Memory | None = None, unseen: list[int] | None = None
                 ) -> tuple[float, float]:
    """``take_chance`` in two parts: the chance ``taker`` can take the pile with natural cards
    alone (or onto its side's meld), and the chance it can only with one natural card and a
    wild card of its own, which a take then spends."""
    if unseen is None:
        unseen = unseen_kinds(state, seat)
    side = state.side_of(taker)
    # Everything the chance depends on (a decision asks it again for every move it judges).
    # Another side's melds matter only once finished (a closed rank may not be melded).
    size = state.rules.variant.canasta_size
    closed = tuple((m.rank, m.wilds) for i, ms in enumerate(state.melds) if i != side
                   for m in ms if m.size >= size)
    key = (id(state.rules), taker, seat, top.rank, len(state.pile), state.pile_frozen_for(side),
           tuple(map(id, state.melds[side])), closed, tuple(unseen), len(state.hands[taker]),
           id(memory), memory.version if memory is not None else 0)
    hit = _TAKE_CHANCES.get(key)
    if hit is not None:
        return hit[0]
    chance = _take_chances(state, taker, top, seat, memory, unseen)
    if len(_TAKE_CHANCES) > 2048:
        _TAKE_CHANCES.clear()
    # (The melds and the memory are kept alive with the entry, so that their ids stay theirs.)
    _TAKE_CHANCES[key] = (chance, state.melds[side], memory, state.rules)
    return chance


_TAKE_CHANCES: dict[tuple[object, ...], tuple[tuple[float, float], object, object, object]] = {}


def _take_chances(state: HandState, taker: int, top: Card, seat: int, memory: Memory | None,
                  unseen: list[int]) -> tuple[float, float]:
    v = state.rules.variant
    side = state.side_of(taker)
    j = state.find_meld(side, top.rank)
    existing = state.melds[side][j] if j >= 0 else None
    base = (existing.naturals, existing.deuces, existing.jokers) if existing else (0, 0, 0)

    def can(naturals: int, wilds: int) -> bool:
        if v.take_error(state, side, top, naturals, wilds, existing) is not None:
            return False
        # The meld it makes must be allowed (Modern American: no meld of a closed rank).
        return v.counts_error(state, side, top.rank, base[0] + naturals + 1,
                              base[1] + wilds, base[2]) is None

    if can(0, 0):
        return 0.95, 0.0
    known = memory.known_cards(taker) if memory is not None else []
    k_nat = sum(1 for c in known if c.rank == top.rank and c.is_natural)
    k_wild = sum(1 for c in known if c.is_wild)
    if can(k_nat, 0):
        return 1.0, 0.0
    if can(k_nat, k_wild):
        return 0.0, 1.0
    others_known: list[Card] = []
    if memory is not None:
        for s in range(state.rules.players):
            if s != seat:
                others_known += memory.known_cards(s)[: len(state.hands[s])]
    pool = max(1, sum(unseen) - len(others_known))
    kind = NATURAL_RANKS.index(top.rank)
    nat_left = max(0, unseen[kind] - sum(1 for c in others_known if c.kind == kind))
    wild_left = max(0, unseen[DEUCE] + unseen[JOKER]
                    - sum(1 for c in others_known if c.is_wild))
    free = max(0, len(state.hands[taker]) - len(known[: len(state.hands[taker])]))
    q_nat, q_wild = nat_left / pool, wild_left / pool
    chance = wild = 0.0
    for extra in range(1, 3):
        if can(k_nat + extra, k_wild):
            chance = _at_least_binom(extra, free, q_nat)
            break
    if k_wild == 0 and not can(k_nat + 1, 0) and can(k_nat + 1, 1):
        # One natural more and a wild card (the pile not frozen for them).
        with_wild = _at_least_binom(1, free, q_nat) * _at_least_binom(1, free, q_wild)
        wild = (1 - chance) * with_wild
    if memory is not None and memory.passed_on(taker, top.rank):
        chance *= PASSED
        wild *= PASSED
    return chance, wild


def pile_danger(state: HandState, taker: int, seat: int | None = None,
                memory: Memory | None = None, unseen: list[int] | None = None) -> float:
    """What the pile may give ``taker``, the next player to draw (points): its worth times the
    chance that ``taker`` can take it (``take_chance``, as ``seat`` sees it)."""
    if not state.pile:
        return 0.0
    top = state.pile[-1]
    if not top.is_natural or top.rank not in NATURAL_RANKS:
        return 0.0  # a black three or a wild card blocks the next player
    worth = sum(c.value for c in state.pile) + 25 * len(state.pile)
    viewer = seat if seat is not None else (taker + 1) % state.rules.players
    return _given(take_chances(state, taker, top, viewer, memory, unseen), worth)


def _given(chances: tuple[float, float], worth: float) -> float:
    """What a pile worth ``worth`` gives its taker, by the chances it can take it with natural
    cards and only with a wild card: a take that needs a wild card spends it (``WILD_PRICE``),
    so a small pile is worth little taken that way, and a strong player leaves it."""
    natural, wild = chances
    return natural * worth + wild * max(0.0, worth - WILD_PRICE)


def discard_danger(state: HandState, taker: int, c: Card, seat: int,
                   memory: Memory | None = None, unseen: list[int] | None = None) -> float:
    """What discarding ``c`` now would give ``taker``, the next player: ``pile_danger`` with
    ``c`` on top of the pile."""
    if not c.is_natural or c.rank not in NATURAL_RANKS:
        return 0.0
    worth = sum(x.value for x in state.pile) + c.value + 25 * (len(state.pile) + 1)
    return _given(take_chances(state, taker, c, seat, memory, unseen), worth)


def evaluate(state: HandState, seat: int, memory: Memory | None = None) -> float:
    """The seat's side's prospects in points (higher is better for that side); ``memory``:
    what the seat saw the others take and pass on (for the pile it leaves)."""
    me = state.side_of(seat)
    sides = state.rules.n_sides
    if state.result is not None:
        scores = state.result.scores
        others = [s for i, s in enumerate(scores) if i != me]
        return scores[me] - sum(others) / len(others)
    total = 0.0
    unseen = unseen_kinds(state, seat)
    horizon = 1 - READY * going_out_threat(state)
    for side in range(sides):
        value = side_table_value(state, side, seat, unseen, horizon)
        seats = [s for s in range(state.rules.players) if state.side_of(s) == side]
        hidden = sum(len(state.hands[s]) for s in seats if s != seat) * AVERAGE_UNSEEN
        value -= 0.5 * hidden
        total += value if side == me else -value / (sides - 1)
    cost = None
    if state.turn == seat and state.phase == "play" and len(state.hands[seat]) > 1:
        # (The last card's discard goes out: nobody takes that pile.)
        taker = (seat + 1) % state.rules.players
        if state.side_of(taker) != me:
            def cost(c: Card) -> float:
                return discard_danger(state, taker, c, seat, memory, unseen)
    total += hand_value(state, seat, cost)
    if state.turn != seat and state.side_of(state.turn) != me:
        # The pile this seat leaves to an opponent.
        total -= pile_danger(state, state.turn, seat, memory, unseen)
    return total
