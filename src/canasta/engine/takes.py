"""Taking the pile: the check, the forced take at the end of the stock, and the listing.

``take_moves`` lists the ways to take the pile with the fewest cards that make the take legal
(docs/ENGINE.md); each is confirmed by ``plan_take`` (the rules of ``check_take`` beyond the
cards shown, which the listing takes from the hand), whose plan is kept for ``apply``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from canasta.cards import BLACK_THREE, DEUCE, JOKER, NATURAL_RANKS, Card
from canasta.engine.compose import (
    WildRanges,
    combo_groups,
    initial_combos,
    kind_cards,
    new_options,
    planned_groups,
    splashes,
)
from canasta.engine.melding import (
    canastas_after,
    going_out_error,
    group_plan,
    initial_penalty,
    meld_out_error,
    must_hold,
)
from canasta.engine.melds import Meld
from canasta.engine.plans import GroupPlan, Listing, Plan
from canasta.errors import IllegalMove
from canasta.moves import BLACK_THREES_MELD, Group, Move, MoveKind, one_group

if TYPE_CHECKING:
    from canasta.engine.state import HandState


def check_take(state: HandState, move: Move, actor: int) -> Plan:
    top = state.pile_top
    if top is None:
        raise IllegalMove("pile.empty")
    if top.kind == BLACK_THREE:
        raise IllegalMove("pile.black_three_on_top")
    if top.is_wild:
        raise IllegalMove("pile.wild_on_top")
    if not top.is_natural:
        raise IllegalMove("pile.cannot_take")
    if len(state.hands[actor]) == 1 and len(state.pile) == 1:
        raise IllegalMove("pile.one_card")
    must_hold(state, actor, move.cards_from_hand())
    rank = top.rank
    for c in move.groups[0]:
        if not (c.is_wild or c.rank == rank):
            raise IllegalMove("pile.show_rank", rank=rank, top=top, card=c)
    return plan_take(state, move, actor, top)


def plan_take(state: HandState, move: Move, actor: int, top: Card) -> Plan:
    """The rules of a take beyond the cards it shows (``check_take`` has checked that the pile
    may be taken at all, that the cards are in hand and that the first group goes with the
    ``top`` card)."""
    side = actor % state.rules.n_sides  # ``side_of``, inlined
    g0 = move.groups[0]
    naturals = 0
    for c in g0:
        naturals += c.is_natural
    j = state.find_meld(side, top.rank)
    existing = state.melds[side][j] if j >= 0 else None
    err = state.rules.variant.take_error(state, side, top, naturals, len(g0) - naturals,
                                         existing)
    if err:
        raise err.error()
    return _plan_shown(state, move, actor, side, top, j, existing, None)


def _plan_shown(state: HandState, move: Move, actor: int, side: int, top: Card, j: int,
                existing: Meld | None, composed: list[tuple[GroupPlan, Meld]] | None) -> Plan:
    """``plan_take`` once the variant's ``take_error`` has passed the cards shown (``j``: the
    side's meld of the top card's rank, -1 for none, ``existing`` that meld).  ``composed``:
    the other groups resolved already, where ``initial_combos`` composed them (each a new
    meld of a rank of its own, within the variant's ``wild_range``: ``legal._add_planned``)."""
    rules = state.rules
    v = rules.variant
    g0, extras = move.groups[0], move.groups[1:]
    rank = top.rank
    melds = state.melds[side]
    if extras and melds:
        raise IllegalMove("pile.take_then_meld")
    # The first group is the top card with cards of its rank or wild cards (``check_take``):
    # it joins the side's meld of that rank or starts one, within the meld's limits.
    group = (top, *g0)
    meld = existing.plus(group) if existing is not None else Meld(rank, group)
    # The variant's limits as data, where it gives them, answer for ``counts_error`` (the
    # same verdicts: tests/test_listing_hooks.py), which is asked for the reason otherwise.
    limits = v.meld_limits(state, side)
    if limits is None or not limits.allows(top.kind, meld.naturals, meld.deuces + meld.jokers,
                                           existing.deuces + existing.jokers
                                           if existing is not None else 0):
        err = v.counts_error(state, side, rank, meld.naturals, meld.deuces, meld.jokers)
        if err:
            raise err.error()
    made = [(GroupPlan(rank, group, j), meld)]
    if composed is not None:
        made += composed
    elif extras:
        seen = {rank: meld}
        made += [group_plan(state, side, g, None, seen) for g in extras]
        for gp, _ in made[1:]:
            if gp.rank == BLACK_THREES_MELD:
                raise IllegalMove("meld.black_threes_only_out")
    err0 = v.move_error(state, side, made)
    if err0:
        raise err0.error()
    canastas = canastas_after(state, side, made)
    shown = len(g0) + sum(len(g) for g in extras)
    left = len(state.hands[actor]) - shown + v.cards_joining(state, actor, side,
                                                              state.canastas(side), canastas)
    if left <= 1:
        # Only then do the pile's cards matter (the threes among them are laid, not kept).
        laid = v.laid_on_sight
        left += sum(1 for c in state.pile[:-1] if not laid(c))
        meld_out_error(state, left)
        if left <= 1:
            err2 = going_out_error(state, side, canastas, made)
            if err2:
                raise err2.error()
    penalty = 0
    if not melds:
        shown_value = sum(c.value for g in move.groups for c in g)
        penalty = initial_penalty(state, side, made, shown_value, top, False)
    return Plan(move, tuple(gp for gp, _ in made), penalty)


def must_take(state: HandState, actor: int) -> bool:
    """End of the stock (B.9): the pile must be taken when it is not frozen for the side and
    its top card goes onto the side's meld of that rank."""
    side = state.side_of(actor)
    top = state.pile_top
    if (not state.rules.variant.forced_take_after_stock or top is None
            or state.pile_frozen_for(side) or state.find_meld(side, top.rank) < 0):
        return False
    try:
        check_take(state, TAKE_ALONE, actor)
    except IllegalMove:
        return False
    return True


def check_pass(state: HandState, move: Move, actor: int) -> Plan:
    if state.stock:
        raise IllegalMove("pile.pass_with_stock")
    if must_take(state, actor):
        top = state.pile_top
        assert top is not None
        raise IllegalMove("pile.must_take", top=top, rank=top.rank)
    return Plan(move)


TAKE_ALONE: Final = Move.take()  # the pile taken onto the side's meld, no card shown


def take_moves(state: HandState, out: Listing | None = None) -> list[Move]:
    """The ways the seat to act may take the pile now (possibly none), each added to ``out``
    with its plan."""
    pile = state.pile  # (``pile_top``, ``side_of``, ``opened`` and ``pile_frozen_for``, inlined)
    if not pile:
        return []
    top = pile[-1]
    if not top.is_natural:
        return []
    seat = state.turn
    if len(state.hands[seat]) == 1 and len(pile) == 1:
        return []
    side = seat % state.rules.n_sides
    v = state.rules.variant
    counts = state.counts(seat)
    c = counts.kinds
    k = top.kind
    melds = state.melds[side]
    # The variant's ``take_error`` is asked here, from what each candidate shows, before any
    # plan: a refused candidate costs no plan and no exception (``plan_take`` asks the same).
    if melds:
        frozen = state.frozen > 0
        j = state.find_meld(side, top.rank)
        existing = melds[j] if j >= 0 else None
        if not frozen and existing is not None and not v.take_error(state, side, top, 0, 0,
                                                                    existing):
            try:
                plan = _plan_shown(state, TAKE_ALONE, seat, side, top, j, existing, None)
            except IllegalMove:
                pass
            else:  # the top card goes onto the side's meld: no card need be shown
                if out is not None:
                    out.add(TAKE_ALONE, plan)
                return [TAKE_ALONE]
        if c[k] < 2 and (frozen or not c[k] or not (c[DEUCE] or c[JOKER])):
            return []  # the common case: nothing to take the pile with
        naturals = counts.by_kind[k]
        candidates = []
        composed: list[list[tuple[GroupPlan, Meld]] | None] | None = None
        if c[k] >= 2 and not v.take_error(state, side, top, 2, 0, existing):
            candidates.append(_take_two(naturals[0], naturals[1]))
        if (not frozen and c[k] >= 1 and (c[DEUCE] or c[JOKER])
                and not v.take_error(state, side, top, 1, 1, existing)):
            if c[DEUCE]:
                candidates.append(_take_two(naturals[0], counts.by_kind[DEUCE][0]))
            if c[JOKER]:
                candidates.append(_take_two(naturals[0], counts.by_kind[JOKER][0]))
    elif c[k] >= 2:
        j = -1
        existing = None
        candidates, composed = _opening_takes(state, side, top, c, counts.by_kind)
    else:
        return []
    takes = []
    for i, m in enumerate(candidates):
        try:
            plan = _plan_shown(state, m, seat, side, top, j, existing,
                               composed[i] if composed is not None else None)
        except IllegalMove:
            continue
        takes.append(m)
        if out is not None:
            out.add(m, plan)
    return takes


#: The takes of the pile with two cards shown, listed so far, by their card ids (``_take_two``).
_TAKE_TWOS: Final[dict[int, Move]] = {}


def _take_two(a: Card, b: Card) -> Move:
    """``one_group`` of a take showing these two cards (in canonical order), looked up by
    their ids (an int key hashes at once; a key of cards calls each card's ``__hash__``)."""
    key = (a.id << 6) | b.id  # card ids < 64
    m = _TAKE_TWOS.get(key)
    if m is None:
        m = _TAKE_TWOS[key] = one_group(MoveKind.TAKE, "", (a, b))
    return m


def _opening_takes(state: HandState, side: int, top: Card, c: list[int], by_kind: list[list[Card]]
                   ) -> tuple[list[Move], list[list[tuple[GroupPlan, Meld]] | None]]:
    """Takes that make the side's initial meld: the pile's pair and every set of other groups
    that just reaches the minimum (and, where the variant allows, a canasta from hand), each
    with its other groups resolved where ``initial_combos`` composed them (else None)."""
    k = top.kind
    t = state.rules.settings
    v = state.rules.variant
    need = state.minimum(side)
    top_value = top.value if t.top_card_counts_for_minimum else 0
    candidates: list[Move] = []
    composed: list[list[tuple[GroupPlan, Meld]] | None] = []
    ranges = WildRanges(state, side)
    for o in new_options(state, side, k, c[k], c[DEUCE], c[JOKER], plus=1, ranges=ranges):
        n, d, j, value = o
        if v.take_error(state, side, top, n, d + j, None):
            continue  # (every take of this first group: ``take_moves`` lists none of them)
        rest = list(c)
        rest[k] -= n
        rest[DEUCE] -= d
        rest[JOKER] -= j
        fixed = [(k, o, 1, 2)]
        first: Group = tuple(kind_cards(by_kind, k, n, d, j))
        for combo in initial_combos(state, side, rest, need, top_value + value, fixed, k,
                                    ranges):
            # The groups come in rank order, each in card order: the move ``Move.take`` makes.
            others = [tuple(g) for g in combo_groups(by_kind, combo, d, j)]
            candidates.append(Move(MoveKind.TAKE, (first, *others)))
            composed.append(planned_groups(combo, others))
        if t.splash_opens and _may_splash(rest, t.canasta_size):
            # A canasta straight from hand opens below the minimum.
            used = {k: n, DEUCE: d, JOKER: j}
            left = [cs[used.get(kind, 0):] for kind, cs in enumerate(by_kind)]
            for splash in splashes(state, side, rest, left):
                m = Move.take(first, *splash.groups)
                if m not in candidates:  # (a splash may also reach the minimum)
                    candidates.append(m)
                    composed.append(None)
    return candidates, composed


def _may_splash(c: list[int], size: int) -> bool:
    """Whether a hand holding ``c`` (kind counts) holds any canasta ``splashes`` lists: a
    natural rank of ``size`` cards or more, or ``size`` wild cards."""
    return c[DEUCE] + c[JOKER] >= size or max(c[:len(NATURAL_RANKS)]) >= size
