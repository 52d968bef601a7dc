"""Taking the pile: the check, the forced take at the end of the stock, and the listing.

``take_moves`` lists the ways to take the pile with the fewest cards that make the take legal
(docs/ENGINE.md); each is confirmed by ``check_take``, whose plan is kept for ``apply``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from canasta.cards import BLACK_THREE, DEUCE, JOKER
from canasta.engine.compose import (
    cards_by_kind,
    combo_groups,
    initial_combos,
    kind_cards,
    new_options,
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
from canasta.engine.plans import Plan
from canasta.errors import IllegalMove
from canasta.moves import BLACK_THREES_MELD, Move, rank_name

if TYPE_CHECKING:
    from canasta.engine.state import HandState


def check_take(state: HandState, move: Move, actor: int) -> Plan:
    side = state.side_of(actor)
    top = state.pile_top
    if top is None:
        raise IllegalMove("the pile is empty")
    if top.kind == BLACK_THREE:
        raise IllegalMove("a black three on top of the pile blocks it this turn")
    if top.is_wild:
        raise IllegalMove("a wild card on top of the pile blocks it this turn")
    if not top.is_natural:
        raise IllegalMove("the pile cannot be taken")
    hand = state.hands[actor]
    if len(hand) == 1 and len(state.pile) == 1:
        raise IllegalMove("with a single card in hand you may not take a one-card pile")
    g0, extras = move.groups[0], move.groups[1:]
    cs = move.cards_from_hand()
    must_hold(state, actor, cs)
    rank = top.rank
    for c in g0:
        if not (c.is_wild or c.rank == rank):
            raise IllegalMove(f"to take the pile, show {rank_name(rank)} or wild cards to meld "
                              f"with the {top.text} on top; {c.text} does not go with them")
    naturals = sum(1 for c in g0 if c.is_natural)
    wilds = len(g0) - naturals
    j = state.find_meld(side, rank)
    err = state.rules.variant.take_error(state, side, top, naturals, wilds,
                                         state.melds[side][j] if j >= 0 else None)
    if err:
        raise IllegalMove(err)
    if extras and state.opened(side):
        raise IllegalMove("once your side has melded, take the pile first and then meld")
    seen: dict[str, Meld] = {}
    made = [group_plan(state, side, (top, *g0), rank, seen)]
    made += [group_plan(state, side, g, None, seen) for g in extras]
    for gp, _ in made[1:]:
        if gp.rank == BLACK_THREES_MELD:
            raise IllegalMove("black threes may be melded only as you go out")
    err0 = state.rules.variant.move_error(state, side, made)
    if err0:
        raise IllegalMove(err0)
    laid = state.rules.variant.laid_on_sight
    canastas = canastas_after(state, side, made)
    left = len(hand) - len(cs) + sum(1 for c in state.pile[:-1] if not laid(c))
    left += state.rules.variant.cards_joining(state, actor, side, state.canastas(side), canastas)
    meld_out_error(state, left)
    if left <= 1:
        err2 = going_out_error(state, side, canastas, made)
        if err2:
            raise IllegalMove(err2)
    penalty = initial_penalty(state, side, made, sum(c.value for c in cs), top, False)
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
        check_take(state, Move.take(), actor)
    except IllegalMove:
        return False
    return True


def check_pass(state: HandState, move: Move, actor: int) -> Plan:
    if state.stock:
        raise IllegalMove("you may pass only when the stock is exhausted: draw a card")
    if must_take(state, actor):
        top = state.pile_top
        assert top is not None
        raise IllegalMove(f"the stock is exhausted and the {top.text} on top goes onto your "
                          f"{rank_name(top.rank)}: you must take the pile")
    return Plan(move)


def _checked(state: HandState, move: Move, plans: dict[Move, Plan | None]) -> Plan | None:
    """The checked plan of a take, or None when it is illegal (remembered in ``plans``)."""
    try:
        plan = check_take(state, move, state.turn)
    except IllegalMove:
        return None
    plans[move] = plan
    return plan


def take_moves(state: HandState, plans: dict[Move, Plan | None] | None = None) -> list[Move]:
    """The ways the seat to act may take the pile now (possibly none)."""
    top = state.pile_top
    if top is None or not top.is_natural:
        return []
    if plans is None:
        plans = {}
    seat = state.turn
    hand = state.hands[seat]
    if len(hand) == 1 and len(state.pile) == 1:
        return []
    side = state.side_of(seat)
    c = state.kinds(seat)
    k = top.kind
    has_meld = state.find_meld(side, top.rank) >= 0
    frozen = state.pile_frozen_for(side)
    by_kind = cards_by_kind(hand)
    candidates: list[Move] = []
    if state.opened(side):
        if has_meld and not frozen and _checked(state, Move.take(), plans) is not None:
            candidates.append(Move.take())
        else:
            if c[k] >= 2:
                candidates.append(Move.take(by_kind[k][:2]))
            if not frozen and c[k] >= 1:
                if c[DEUCE]:
                    candidates.append(Move.take([by_kind[k][0], by_kind[DEUCE][0]]))
                if c[JOKER]:
                    candidates.append(Move.take([by_kind[k][0], by_kind[JOKER][0]]))
    elif c[k] >= 2:
        v = state.rules.variant
        need = state.minimum(side)
        top_value = top.value if v.top_card_counts_for_minimum else 0
        for o in new_options(state, side, k, c[k], c[DEUCE], c[JOKER], plus=1):
            n, d, j, value = o
            rest = list(c)
            rest[k] -= n
            rest[DEUCE] -= d
            rest[JOKER] -= j
            fixed = [(k, o, 1, 2)]
            first = kind_cards(by_kind, k, n, d, j)
            for combo in initial_combos(state, side, rest, need, top_value + value, fixed, k):
                candidates.append(Move.take(first, *combo_groups(by_kind, combo, d, j)))
            if v.splash_opens:  # a canasta straight from hand opens below the minimum
                left = {kind: cs[{k: n, DEUCE: d, JOKER: j}.get(kind, 0):]
                        for kind, cs in by_kind.items()}
                for splash in splashes(state, side, rest, left):
                    m = Move.take(first, *splash.groups)
                    if m not in candidates:  # (a splash may also reach the minimum)
                        candidates.append(m)
    return [m for m in candidates if _checked(state, m, plans) is not None]
