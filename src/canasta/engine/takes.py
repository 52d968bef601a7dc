"""Taking the pile: the check, the forced take at the end of the stock, and the listing.

``take_moves`` lists the ways to take the pile with the fewest cards that make the take legal
(docs/ENGINE.md); each is confirmed by ``plan_take``'s rules (those of ``check_take`` beyond the
cards shown, which the listing takes from the hand: ``_plan_shown``, or where its answer
follows from the counts, as ``_PLANS`` says), and its plan is kept for ``apply``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from canasta.cards import BLACK_THREE, DEUCE, JOKER, NATURAL_RANKS, Card
from canasta.engine.compose import (
    Option,
    WildRanges,
    combo_groups,
    initial_combos,
    kind_cards,
    kind_rank,
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
from canasta.engine.plans import GroupPlan, Plan, Spec
from canasta.errors import IllegalMove
from canasta.moves import BLACK_THREES_MELD, Group, Move, MoveKind, one_group

if TYPE_CHECKING:
    from canasta.engine.counts import HandCounts
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
_TAKE: Final = MoveKind.TAKE  # (a module constant: an enum member is a slow look-up)


def take_moves(state: HandState, plans: list[Spec] | None = None) -> list[Move]:
    """The ways the seat to act may take the pile now (possibly none), their plans appended
    to ``plans`` in the same order."""
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
    melds = state.melds[side]
    if not melds:
        return _opening_takes(state, seat, side, top, plans)
    # Most listings take nothing: each question below is the cheapest left that may say so.
    if state.frozen:  # a natural pair only (B.6)
        counts = state.counts(seat)
        if counts.kinds[top.kind] < 2:
            return []
        j = state.find_meld(side, top.rank)
        return _shown_takes(state, seat, side, top, melds, j, True, counts, plans)
    j = state.find_meld(side, top.rank)
    if j >= 0:
        rules = state.rules
        plain = rules.settings.plain_takes
        existing = melds[j]
        if plain or not rules.variant.take_error(state, side, top, 0, 0, existing):
            # The top card onto the side's meld, no card shown (planned as ``_PLANS`` says).
            w0 = existing.deuces + existing.jokers
            limits = rules.variant.meld_limits(state, side) if plain else None
            if (limits is not None
                    and (len(state.hands[seat]) >= 2 or _keeps_two(state, seat, 0))
                    and limits.allows(top.kind, existing.naturals + 1, w0, w0)):
                key = (j << 19) | top.id
                plan: Plan | None = _PLANS.get(key)
                if plan is None:
                    plan = _keep_plan(key, TAKE_ALONE, top, (top,), j)
            else:
                plan = _checked_plan(state, seat, side, TAKE_ALONE, top, j, existing)
            if plan is not None:  # no card need be shown
                if plans is not None:
                    plans.append(plan)
                return [TAKE_ALONE]
    counts = state.counts(seat)
    c = counts.kinds
    n = c[top.kind]
    if n < 2 and (not n or not (c[DEUCE] or c[JOKER])):
        return []
    return _shown_takes(state, seat, side, top, melds, j, False, counts, plans)


def _shown_takes(state: HandState, seat: int, side: int, top: Card, melds: list[Meld], j: int,
                 frozen: bool, counts: HandCounts, plans: list[Spec] | None) -> list[Move]:
    """``take_moves`` of a side that has opened (``melds``, ``j``: its meld of the ``top``
    card's rank or -1), showing cards from hand: a natural pair of that rank, or (the pile
    not ``frozen``) one such card and a deuce or a joker."""
    v = state.rules.variant
    plain = state.rules.settings.plain_takes
    existing = melds[j] if j >= 0 else None
    c = counts.kinds
    by_kind = counts.by_kind
    k = top.kind
    # The variant's ``take_error`` is asked here, from what each candidate shows, before any
    # plan: a refused candidate costs no plan and no exception (``plan_take`` asks the same).
    # The base class's passes every candidate listed here (``Settings.plain_takes``).
    shown: list[Card] = []  # each candidate's second card, the first being ``by_kind[k][0]``
    if c[k] >= 2 and (plain or not v.take_error(state, side, top, 2, 0, existing)):
        shown.append(by_kind[k][1])
    if (not frozen and c[k] and (c[DEUCE] or c[JOKER])
            and (plain or not v.take_error(state, side, top, 1, 1, existing))):
        if c[DEUCE]:
            shown.append(by_kind[DEUCE][0])
        if c[JOKER]:
            shown.append(by_kind[JOKER][0])
    a = by_kind[k][0]
    # (Planned as ``_PLANS`` says: the seat shows two cards and keeps two.)
    limits = (v.meld_limits(state, side)
              if plain and (len(state.hands[seat]) >= 4 or _keeps_two(state, seat, 2))
              else None)
    n0 = w0 = 0
    if existing is not None:
        n0 = existing.naturals
        w0 = existing.deuces + existing.jokers
    takes = []
    for b in shown:
        wild = int(b.is_wild)
        if limits is not None and limits.allows(k, n0 + 3 - wild, w0 + wild, w0):
            key = ((j + 1) << 19) | _SHOWN | (top.id << 12) | (a.id << 6) | b.id
            plan: Plan | None = _PLANS.get(key)
            if plan is None:
                plan = _keep_plan(key, _take_two(a, b), top, (top, a, b), j)
            m = plan.move
        else:
            m = _take_two(a, b)
            plan = _checked_plan(state, seat, side, m, top, j, existing)
            if plan is None:
                continue
        takes.append(m)
        if plans is not None:
            plans.append(plan)
    return takes


# How ``take_moves`` plans a take by a side that has opened, where the variant judges takes
# as the base class does (``Settings.plain_takes``) and gives its limits as data: with
# ``_plan_shown``'s answer, from the counts, once the seat keeps two cards or more
# (``_keeps_two``).  The base ``take_error`` passes every candidate listed, the base
# ``move_error`` any groups; going out is not in question (cards that join the hand only add
# to what it keeps), and a side with melds owes no initial meld: only the meld's limits are
# left (where they refuse, ``_checked_plan`` asks ``_plan_shown``, which asks
# ``counts_error``).  The plan is the same value at every such take: built once
# (``_keep_plan``).

#: The plans of takes by a side that has opened, by a key of the meld joined, the top card
#: and the cards shown (``take_moves``, ``_shown_takes``: card ids < 64).
_PLANS: Final[dict[int, Plan]] = {}
_SHOWN: Final = 1 << 18  # (a key's bit for the takes that show cards)


def _keeps_two(state: HandState, seat: int, shown: int) -> bool:
    """Whether the seat keeps two cards or more after a take showing ``shown`` cards from its
    hand: the pile's cards below the top card join it but for those laid on sight (the few
    takes from a hand of three cards or fewer)."""
    left = len(state.hands[seat]) - shown
    laid = state.rules.variant.laid_on_sight
    pile = state.pile
    for i in range(len(pile) - 1):
        if left >= 2:
            break
        if not laid(pile[i]):
            left += 1
    return left >= 2


def _keep_plan(key: int, move: Move, top: Card, group: Group, j: int) -> Plan:
    """The plan of ``move`` laying ``group`` (the ``top`` card first) onto the side's meld
    ``j`` (-1: a new one), kept in ``_PLANS`` under ``key``."""
    plan = _PLANS[key] = Plan(move, (GroupPlan(top.rank, group, j),))
    return plan


def _checked_plan(state: HandState, seat: int, side: int, move: Move, top: Card, j: int,
                  existing: Meld | None) -> Plan | None:
    """``_plan_shown``'s plan of ``move`` (a take of one group by a side that has opened),
    or None when it is illegal."""
    try:
        return _plan_shown(state, move, seat, side, top, j, existing, None)
    except IllegalMove:
        return None


#: The takes of the pile with two cards shown, listed so far, by their card ids (``_take_two``).
_TAKE_TWOS: Final[dict[int, Move]] = {}


def _take_two(a: Card, b: Card) -> Move:
    """``one_group`` of a take showing these two cards (in canonical order), looked up by
    their ids (an int key hashes at once; a key of cards calls each card's ``__hash__``)."""
    key = (a.id << 6) | b.id  # card ids < 64
    m = _TAKE_TWOS.get(key)
    if m is None:
        m = _TAKE_TWOS[key] = one_group(_TAKE, "", (a, b))
    return m


def _opening_takes(state: HandState, seat: int, side: int, top: Card, plans: list[Spec] | None
                   ) -> list[Move]:
    """``take_moves`` of a side that has not opened: takes that make its initial meld, the
    pile's pair and every set of other groups that just reaches the minimum (and, where the
    variant allows, a canasta from hand)."""
    counts = state.counts(seat)
    c = counts.kinds
    k = top.kind
    if c[k] < 2:
        return []
    by_kind = counts.by_kind
    t = state.rules.settings
    v = state.rules.variant
    need = state.minimum(side)
    top_value = top.value if t.top_card_counts_for_minimum else 0
    takes: list[Move] = []
    ranges = WildRanges(state, side)
    # Where the variant judges takes as the base class does and gives its limits as data, a
    # composed take is legal as it is composed unless it nears going out (``_composed_plan``).
    plain = t.plain_takes and v.meld_limits(state, side) is not None
    for o in new_options(state, side, k, c[k], c[DEUCE], c[JOKER], plus=1, ranges=ranges):
        n, d, j, value = o
        # (The base ``take_error`` passes a natural pair, which every option holds.)
        if not plain and v.take_error(state, side, top, n, d + j, None):
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
            # Each is resolved as ``initial_combos`` composed it.
            others = [tuple(g) for g in combo_groups(by_kind, combo, d, j)]
            m = Move(_TAKE, (first, *others))
            plan = _composed_plan(state, seat, m, top, combo) if plain else None
            if plan is not None:
                takes.append(m)
                if plans is not None:
                    plans.append(plan)
            else:
                _list_opening(state, seat, side, top, m, planned_groups(combo, others),
                              takes, plans)
        if t.splash_opens and _may_splash(rest, t.canasta_size):
            # A canasta straight from hand opens below the minimum.
            used = {k: n, DEUCE: d, JOKER: j}
            left = [cs[used.get(kind, 0):] for kind, cs in enumerate(by_kind)]
            for splash in splashes(state, side, rest, left):
                m = Move.take(first, *splash.groups)
                if m not in takes:  # (a splash may also reach the minimum)
                    _list_opening(state, seat, side, top, m, None, takes, plans)
    return takes


def _composed_plan(state: HandState, seat: int, move: Move, top: Card,
                   combo: list[tuple[int, Option]]) -> Plan | None:
    """The plan of an opening take that ``_opening_takes`` composed (``combo``: its other
    groups), for a variant that judges takes as the base class does and gives its limits as
    data (``Settings.plain_takes``); None where the seat would keep fewer than two cards
    (``_plan_shown`` then asks the rules of going out).

    ``_plan_shown``'s answer, known from the composition: each group stands within the
    limits (``new_options``, whose ranges are the limits' own), the base ``move_error``
    passes any groups, and the groups' values, which the base ``initial_error`` counts with
    the top card's, reach the minimum (``initial_combos``)."""
    groups = move.groups
    shown = 0
    for g in groups:
        shown += len(g)
    if len(state.hands[seat]) - shown < 2 and not _keeps_two(state, seat, shown):
        return None
    made = [GroupPlan(top.rank, (top, *groups[0]), -1)]
    for (k, _o), g in zip(combo, groups[1:], strict=True):
        made.append(GroupPlan(kind_rank(k), g, -1))
    return Plan(move, tuple(made))


def _list_opening(state: HandState, seat: int, side: int, top: Card, move: Move,
                  composed: list[tuple[GroupPlan, Meld]] | None, takes: list[Move],
                  plans: list[Spec] | None) -> None:
    """List the take ``move`` that opens (``composed``: see ``_plan_shown``) where it is
    legal."""
    try:
        plan = _plan_shown(state, move, seat, side, top, -1, None, composed)
    except IllegalMove:
        return
    takes.append(move)
    if plans is not None:
        plans.append(plan)


def _may_splash(c: list[int], size: int) -> bool:
    """Whether a hand holding ``c`` (kind counts) holds any canasta ``splashes`` lists: a
    natural rank of ``size`` cards or more, or ``size`` wild cards."""
    return c[DEUCE] + c[JOKER] >= size or max(c[:len(NATURAL_RANKS)]) >= size
