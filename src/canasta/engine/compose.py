"""Compositions of melds from kind counts, shared by the listing of takes and of melds.

Suits never matter except for threes, so a group is listed by its counts (naturals, deuces,
jokers) and built from the lowest cards of each kind (``kind_cards``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from canasta.cards import DEUCE, JOKER, NATURAL_RANKS, Card, _value
from canasta.moves import WILD_MELD, Move

if TYPE_CHECKING:
    from canasta.engine.state import HandState

_VALUES = [_value(k) for k in range(len(NATURAL_RANKS))]
Option = tuple[int, int, int, int]  # naturals, deuces, jokers, value
ByKind = list[list[Card]]  # a hand's cards of each kind, lowest first (HandCounts.by_kind)
WILD_KIND = -1  # stands for a meld of wild cards only (Modern American) in the generator


def kind_rank(k: int) -> str:
    return NATURAL_RANKS[k] if k >= 0 else WILD_MELD


def kind_cards(by_kind: ByKind, k: int, n: int, d: int, j: int) -> list[Card]:
    out = by_kind[k][:n] if n else []
    if d:
        out = out + by_kind[DEUCE][:d]
    if j:
        out = out + by_kind[JOKER][:j]
    return out


def new_options(state: HandState, side: int, k: int, avail: int, deuces: int, jokers: int,
                plus: int = 0, least: int = 2) -> list[Option]:
    """Compositions of a new meld of kind ``k`` from hand (``plus`` natural cards of that rank
    already in it, such as the pile's top card); ``k`` may be WILD_KIND."""
    v = state.rules.variant
    r = kind_rank(k)
    cap = v.max_wilds if k >= 0 else v.canasta_size
    value = _VALUES[k] if k >= 0 else 0
    if k < 0:
        least = avail = 0
    out = []
    for n in range(least, avail + 1):
        for d in range(min(deuces, cap) + 1):
            for j in range(min(jokers, cap - d) + 1):
                if v.counts_error(state, side, r, n + plus, d, j) is None:
                    out.append((n, d, j, n * value + 20 * d + 50 * j))
    return out


def _drop(state: HandState, side: int, k: int, opt: Option, plus: int, least: int,
          removable: bool) -> int:
    """The least value a group can lose and still stand (to find minimal initial melds)."""
    v = state.rules.variant
    r = kind_rank(k)
    n, d, j, value = opt
    best = value if removable else 10**9
    if k >= 0 and n - 1 >= least and v.counts_error(state, side, r, n - 1 + plus, d, j) is None:
        best = min(best, _VALUES[k])
    if d and v.counts_error(state, side, r, n + plus, d - 1, j) is None:
        best = min(best, 20)
    if j and v.counts_error(state, side, r, n + plus, d, j - 1) is None:
        best = min(best, 50)
    return best


def initial_combos(state: HandState, side: int, c: list[int], need: int, base: int,
                   fixed: list[tuple[int, Option, int, int]], skip: int) -> list[
                   list[tuple[int, Option]]]:
    """Sets of new melds from hand that, with ``base`` points and the ``fixed`` group, just
    reach ``need`` (no card could be left out)."""
    ranks = [k for k in range(len(NATURAL_RANKS))
             if c[k] >= 2 and k != skip and state.find_meld(side, NATURAL_RANKS[k]) < 0]
    if (state.rules.variant.has_wild_melds(state.rules) and c[DEUCE] + c[JOKER] >= 3
            and state.find_meld(side, WILD_MELD) < 0):
        ranks.append(WILD_KIND)
    opts = {k: new_options(state, side, k, c[k] if k >= 0 else 0, c[DEUCE], c[JOKER])
            for k in ranks}
    found: list[list[tuple[int, Option]]] = []
    chosen: list[tuple[int, Option]] = []
    fixed_drop = [_drop(state, side, k, o, plus, least, False) for k, o, plus, least in fixed]

    def rec(i: int, total: int, d: int, j: int) -> None:
        if total >= need:
            drops = fixed_drop + [_drop(state, side, k, o, 0, 2, True) for k, o in chosen]
            if total - min(drops) < need:
                found.append(list(chosen))
            return
        for x in range(i, len(ranks)):
            k = ranks[x]
            for o in opts[k]:
                if o[1] <= d and o[2] <= j:
                    chosen.append((k, o))
                    rec(x + 1, total + o[3], d - o[1], j - o[2])
                    chosen.pop()

    rec(0, base, c[DEUCE], c[JOKER])
    return found


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


def splashes(state: HandState, side: int, c: list[int],
             by_kind: ByKind) -> list[Move]:
    """Canastas straight from hand, where the variant lets them open below the minimum."""
    v = state.rules.variant
    if not v.splash_opens:
        return []
    size = v.canasta_size
    out = [Move.meld(by_kind[k][:size]) for k in range(len(NATURAL_RANKS)) if c[k] >= size]
    for d in range(max(0, size - c[JOKER]), min(size, c[DEUCE]) + 1):
        out.append(Move.meld(kind_cards(by_kind, WILD_KIND, 0, d, size - d)))
    return out
