"""Compositions of melds from kind counts, shared by the listing of takes and of melds.

Suits never matter except for threes, so a group is listed by its counts (naturals, deuces,
jokers) and built from the lowest cards of each kind (``kind_cards``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from canasta.cards import DEUCE, JOKER, NATURAL_RANKS, Card, _value
from canasta.engine.melds import Meld
from canasta.engine.plans import GroupPlan
from canasta.moves import WILD_MELD, Move
from canasta.mypyc_attrs import mypyc_attr

if TYPE_CHECKING:
    from canasta.engine.state import HandState

_VALUES: Final = [_value(k) for k in range(len(NATURAL_RANKS))]
Option = tuple[int, int, int, int]  # naturals, deuces, jokers, value
ByKind = list[list[Card]]  # a hand's cards of each kind, lowest first (HandCounts.by_kind)
WILD_KIND: Final = -1  # stands for a meld of wild cards only (Modern American) in the generator


def kind_rank(k: int) -> str:
    return NATURAL_RANKS[k] if k >= 0 else WILD_MELD


def kind_cards(by_kind: ByKind, k: int, n: int, d: int, j: int) -> list[Card]:
    out = by_kind[k][:n] if n else []
    if d:
        out = out + by_kind[DEUCE][:d]
    if j:
        out = out + by_kind[JOKER][:j]
    return out


@mypyc_attr(allow_interpreted_subclasses=True)  # like every compiled class: see HandState
class WildRanges:
    """The variant's ``wild_range`` for new melds of natural ranks on one side's table, asked
    once per rank and number of natural cards while one position is listed.  Only how many
    wild cards a meld holds matters to whether it may stand (the going-out search counts on it
    too), so one range answers for every mix of deuces and jokers."""

    __slots__ = ("_known", "_limits", "_memo", "_side", "_state")

    def __init__(self, state: HandState, side: int) -> None:
        self._state = state
        self._side = side
        self._known: dict[tuple[int, int], tuple[int, int] | None] = {}
        # The variant's limits as data, where it gives them, answer without asking it.
        limits = self._limits = state.rules.variant.meld_limits(state, side)
        # Then, for a side without melds, the ranges of new melds are the limits' alone, and
        # so are the compositions built from them: the limits keep those (``options``), for
        # every listing of an opening on a table with the same limits.
        self._memo = limits.new_melds if limits is not None and not state.melds[side] else None

    def of(self, k: int, naturals: int) -> tuple[int, int] | None:
        """The fewest and most wild cards a new meld of kind ``k`` (a natural rank) with
        ``naturals`` natural cards may hold, or None."""
        key = (k, naturals)
        known = self._known
        if key in known:
            return known[key]
        state = self._state
        limits = self._limits
        if limits is not None:
            # ``wild_range`` of a new meld: as many wild cards may join as the meld of that
            # rank on the table holds (``counts_error`` weighs the wild cards a move adds).
            mi = state.find_meld(self._side, NATURAL_RANKS[k])
            w0 = state.melds[self._side][mi].wilds if mi >= 0 else 0
            rng = limits.wild_range(k, naturals, w0)
        else:
            rng = state.rules.variant.wild_range(state, self._side, NATURAL_RANKS[k],
                                                  naturals, None)
        known[key] = rng
        return rng

    def allows(self, k: int, naturals: int, wilds: int) -> bool:
        """Whether a new meld of kind ``k`` (a natural rank) with ``naturals`` natural and
        ``wilds`` wild cards may stand."""
        rng = self.of(k, naturals)
        return rng is not None and rng[0] <= wilds <= rng[1]

    def options(self, k: int, avail: int, deuces: int, jokers: int, plus: int,
                least: int) -> tuple[list[Option], list[int]]:
        """``new_options`` for a natural rank ``k`` (read them, do not change them), with the
        least value each can lose and still stand (``_drop`` of a group the search may leave
        out, -1 until the search asks): kept where the limits answer for the side."""
        memo = self._memo
        if memo is None:
            opts = _compose(self._state, self, k, avail, deuces, jokers, plus, least)
            return opts, [-1] * len(opts)
        # (The most wild cards of the table's rules too: a variant's limits may be shared.)
        key = (k, avail, deuces, jokers, plus, least, self._state.rules.settings.max_wilds)
        known = memo.get(key)
        if known is None:
            opts = _compose(self._state, self, k, avail, deuces, jokers, plus, least)
            known = memo[key] = (opts, [-1] * len(opts))
        return known


def new_options(state: HandState, side: int, k: int, avail: int, deuces: int, jokers: int,
                plus: int = 0, least: int = 2, ranges: WildRanges | None = None) -> list[Option]:
    """Compositions of a new meld of kind ``k`` from hand (``plus`` natural cards of that rank
    already in it, such as the pile's top card); ``k`` may be WILD_KIND."""
    v = state.rules.variant
    out = []
    if k < 0:
        cap = state.rules.settings.canasta_size
        for d in range(min(deuces, cap) + 1):
            for j in range(min(jokers, cap - d) + 1):
                if v.counts_error(state, side, WILD_MELD, plus, d, j) is None:
                    out.append((0, d, j, 20 * d + 50 * j))
        return out
    if ranges is None:
        ranges = WildRanges(state, side)
    return ranges.options(k, avail, deuces, jokers, plus, least)[0]


def _compose(state: HandState, ranges: WildRanges, k: int, avail: int, deuces: int,
             jokers: int, plus: int, least: int) -> list[Option]:
    """``new_options`` of a natural rank, worked out."""
    out = []
    cap = state.rules.settings.max_wilds
    value = _VALUES[k]
    for n in range(least, avail + 1):
        rng = ranges.of(k, n + plus)
        if rng is None:
            continue
        lo, hi = rng
        for d in range(min(deuces, cap) + 1):
            for j in range(min(jokers, cap - d) + 1):
                if lo <= d + j <= hi:
                    out.append((n, d, j, n * value + 20 * d + 50 * j))
    return out


def _drop(state: HandState, side: int, k: int, opt: Option, plus: int, least: int,
          removable: bool, ranges: WildRanges) -> int:
    """The least value a group can lose and still stand (to find minimal initial melds)."""
    n, d, j, value = opt
    best = value if removable else 10**9
    if k < 0:
        counts_error = state.rules.variant.counts_error
        if d and counts_error(state, side, WILD_MELD, plus, d - 1, j) is None:
            best = min(best, 20)
        if j and counts_error(state, side, WILD_MELD, plus, d, j - 1) is None:
            best = min(best, 50)
        return best
    if n - 1 >= least and ranges.allows(k, n - 1 + plus, d + j):
        best = min(best, _VALUES[k])
    if (d or j) and ranges.allows(k, n + plus, d + j - 1):
        if d:
            best = min(best, 20)
        if j:
            best = min(best, 50)
    return best


def initial_combos(state: HandState, side: int, c: list[int], need: int, base: int,
                   fixed: list[tuple[int, Option, int, int]], skip: int,
                   ranges: WildRanges | None = None) -> list[list[tuple[int, Option]]]:
    """Sets of new melds from hand that, with ``base`` points and the ``fixed`` group, just
    reach ``need`` (no card could be left out)."""
    if ranges is None:
        ranges = WildRanges(state, side)
    if base >= need:
        # The fixed group reaches ``need`` alone (a take's first group, often): any other
        # group could be left out, so the only set is none, where the fixed group just
        # reaches it (the search's first step, without its set-up).
        return [[]] if base - _fixed_drop(state, side, fixed, ranges) < need else []
    joinable = state.meld_index(side).joinable  # (``find_meld`` for every rank at once)
    ranks = [k for k in range(len(NATURAL_RANKS))
             if c[k] >= 2 and k != skip and NATURAL_RANKS[k] not in joinable]
    if (state.rules.variant.has_wild_melds(state.rules) and c[DEUCE] + c[JOKER] >= 3
            and WILD_MELD not in joinable):
        ranks.append(WILD_KIND)
    # The most the ranks from each one on can add (all their natural cards; the wild cards
    # are counted apart): a branch that cannot reach ``need`` even so finds nothing, and
    # without this bound a hand short of the minimum tried every set of its groups.
    most = [0] * (len(ranks) + 1)
    for x in range(len(ranks) - 1, -1, -1):
        k = ranks[x]
        most[x] = most[x + 1] + (c[k] * _VALUES[k] if k >= 0 else 0)
    if base + most[0] + 20 * c[DEUCE] + 50 * c[JOKER] < need:
        return []
    opts: list[list[Option]] = []
    drops: list[list[int]] = []
    for k in ranks:
        if k >= 0:
            ko, kd = ranges.options(k, c[k], c[DEUCE], c[JOKER], 0, 2)
        else:
            ko = new_options(state, side, k, 0, c[DEUCE], c[JOKER], ranges=ranges)
            kd = [-1] * len(ko)
        opts.append(ko)
        drops.append(kd)
    search = _ComboSearch(state, side, need, ranks, opts, drops, most, ranges)
    search.rec(0, base, c[DEUCE], c[JOKER], _fixed_drop(state, side, fixed, ranges))
    return search.found


def _fixed_drop(state: HandState, side: int, fixed: list[tuple[int, Option, int, int]],
                ranges: WildRanges) -> int:
    """The least value the ``fixed`` groups of ``initial_combos`` can lose and still stand."""
    least = _NO_DROP
    for k, o, plus, fewest in fixed:
        least = min(least, _drop(state, side, k, o, plus, fewest, False, ranges))
    return least


@mypyc_attr(allow_interpreted_subclasses=True)  # like every compiled class: see HandState
class _ComboSearch:
    """The depth-first search of ``initial_combos``: an object rather than a nested function
    calling itself, which made a reference cycle (function, closure) that held the position
    until the cyclic garbage collector found it, at every listing of an unopened side.

    The least value each option can lose and still stand (``_drop``) is worked out when the
    search first takes it (``drops``): a set of groups just reaches ``need`` when it falls
    short without the least drop of its groups (and of the fixed group), which the search
    carries down."""

    __slots__ = ("chosen", "drops", "found", "most", "need", "opts", "ranges", "ranks",
                 "side", "state")

    def __init__(self, state: HandState, side: int, need: int, ranks: list[int],
                 opts: list[list[Option]], drops: list[list[int]], most: list[int],
                 ranges: WildRanges) -> None:
        self.state = state
        self.side = side
        self.need = need
        self.ranks = ranks
        self.opts = opts
        self.most = most
        self.ranges = ranges
        self.drops = drops
        self.found: list[list[tuple[int, Option]]] = []
        self.chosen: list[tuple[int, Option]] = []

    def rec(self, i: int, total: int, d: int, j: int, drop: int) -> None:
        need = self.need
        chosen, found, most = self.chosen, self.found, self.most
        if total >= need:
            if total - drop < need:
                found.append(list(chosen))
            return
        if total + most[i] + 20 * d + 50 * j < need:
            return
        state, side, ranges = self.state, self.side, self.ranges
        ranks, opts, drops = self.ranks, self.opts, self.drops
        # The steps below decide inline what the call for a set that reaches ``need`` (a
        # leaf) or cannot reach it (pruned) would: most steps are such, and a call each was
        # most of the search's cost.
        for x in range(i, len(ranks)):
            k = ranks[x]
            known = drops[x]
            rest = most[x + 1]
            for y, o in enumerate(opts[x]):
                od, oj = o[1], o[2]
                if od <= d and oj <= j:
                    lose = known[y]
                    if lose < 0:
                        lose = known[y] = _drop(state, side, k, o, 0, 2, True, ranges)
                    t = total + o[3]
                    least = lose if lose < drop else drop
                    if t >= need:
                        if t - least < need:
                            chosen.append((k, o))
                            found.append(list(chosen))
                            chosen.pop()
                    elif t + rest + 20 * (d - od) + 50 * (j - oj) >= need:
                        chosen.append((k, o))
                        self.rec(x + 1, t, d - od, j - oj, least)
                        chosen.pop()


#: The drop of no group: larger than any value a set of groups reaches.
_NO_DROP: Final = 10**9


def combo_groups(by_kind: ByKind, combo: list[tuple[int, Option]], dpos: int,
                 jpos: int) -> list[list[Card]]:
    """The cards of a combination of groups (wild cards shared out in order)."""
    groups = []
    for kk, (nn, dd, jj, _v) in combo:
        g = (by_kind[kk][:nn] if nn else []) + by_kind[DEUCE][dpos:dpos + dd]
        g += by_kind[JOKER][jpos:jpos + jj]
        dpos += dd
        jpos += jj
        groups.append(g)
    return groups


def planned_groups(combo: list[tuple[int, Option]],
                   groups: Sequence[tuple[Card, ...]]) -> list[tuple[GroupPlan, Meld]]:
    """The groups of a combination that ``initial_combos`` composed (``groups``: their cards,
    in the combination's order) resolved as new melds, as ``group_plan`` would resolve them:
    the composer gave each group a rank of its own, a card of that rank or a wild card for
    every card, and counts within the variant's ``wild_range``, and a side that has not
    opened has no meld for a group to join."""
    made = []
    for (k, _o), g in zip(combo, groups, strict=True):
        r = kind_rank(k)
        made.append((GroupPlan(r, g, -1), Meld(r, g)))
    return made


def splashes(state: HandState, side: int, c: list[int],
             by_kind: ByKind) -> list[Move]:
    """Canastas straight from hand, where the variant lets them open below the minimum."""
    t = state.rules.settings
    if not t.splash_opens:
        return []
    size = t.canasta_size
    out = [Move.meld(by_kind[k][:size]) for k in range(len(NATURAL_RANKS)) if c[k] >= size]
    for d in range(max(0, size - c[JOKER]), min(size, c[DEUCE]) + 1):
        out.append(Move.meld(kind_cards(by_kind, WILD_KIND, 0, d, size - d)))
    return out
