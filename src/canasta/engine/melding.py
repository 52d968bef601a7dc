"""Groups of cards resolved against the table: the checks a take and a meld share.

A group becomes a ``GroupPlan`` (its rank and the meld it joins or starts) only when the rules
allow it; the initial-meld minimum, the canastas a move completes and the going-out requirement
are worked out here for both kinds of move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from canasta.cards import BLACK_THREE, RED_THREE, Card, missing_cards
from canasta.engine.melds import Meld
from canasta.engine.plans import GroupPlan
from canasta.errors import IllegalMove, Refusal
from canasta.moves import BLACK_THREES_MELD, WILD_MELD, Group, group_rank
from canasta.options import TABLE_PENALTIES_MODE

if TYPE_CHECKING:
    from canasta.engine.state import HandState

PARTNER_SAID_NO: Final = Refusal("out.partner_said_no")


def must_hold(state: HandState, actor: int, cs: list[Card]) -> None:
    """Refuse unless the actor holds every card of ``cs`` (as many copies as it names): the
    cards held not at all, else a card held fewer times than the move uses it ("the move uses
    3 of 9C and you hold only 2", where "you do not hold 9C" read as holding none)."""
    hand = state.hands[actor]
    missing = missing_cards(hand, cs)
    if missing:
        absent = tuple(c for c in missing if c not in hand)
        if absent:
            raise IllegalMove("hand.not_held", cards=absent)
        c = missing[0]
        raise IllegalMove("hand.not_enough", card=c, uses=cs.count(c), held=hand.count(c))


def going_out_error(state: HandState, side: int, canastas_after: int,
                    made: Sequence[tuple[GroupPlan, Meld]] = ()) -> Refusal | None:
    """Why the seat to act may not go out now, with the canastas it will have after the groups
    ``made`` by its move, or None."""
    if state.answer == "no":
        return PARTNER_SAID_NO
    return state.rules.variant.going_out_requirement(state, side, canastas_after, made)


def group_plan(state: HandState, side: int, g: Group, rank: str | None,
               seen: dict[str, Meld]) -> tuple[GroupPlan, Meld]:
    """Resolve one group of cards from hand: its rank, the meld it joins, the meld it makes."""
    laid = state.rules.variant.laid_on_sight
    if any(laid(c) for c in g):
        raise IllegalMove("meld.red_threes" if all(c.kind == RED_THREE for c in g if laid(c))
                          else "meld.threes")
    r = group_rank(g) if rank is None else rank
    if r == BLACK_THREES_MELD:
        if any(c.kind != BLACK_THREE for c in g):
            raise IllegalMove("meld.black_threes_no_wilds")
        return GroupPlan(r, g, -1), Meld(r, g)
    if r == WILD_MELD and not state.rules.variant.has_wild_melds(state.rules):
        raise IllegalMove("meld.wilds_alone")
    for c in g:
        if not (c.is_wild or c.rank == r):
            if c.kind == BLACK_THREE:
                raise IllegalMove("meld.black_threes_alone")
            raise IllegalMove("meld.one_rank", card=c, rank=r)
    v = state.rules.variant
    j = state.find_meld(side, r)
    if r in seen:
        t = state.rules.settings
        if not (t.reopens_closed_ranks and seen[r].size >= t.canasta_size):
            raise IllegalMove("meld.one_per_rank", rank=r)
        j = -1  # the group before closed that rank's meld: this one starts a new meld
    meld = state.melds[side][j].plus(g) if j >= 0 else Meld(r, g)
    err = v.counts_error(state, side, r, meld.naturals, meld.deuces, meld.jokers)
    if err:
        raise err.error()
    seen[r] = meld
    return GroupPlan(r, g, j), meld


def canastas_after(state: HandState, side: int, made: list[tuple[GroupPlan, Meld]]) -> int:
    size = state.rules.settings.canasta_size
    count = state.canastas(side)
    for gp, meld in made:
        if gp.rank == BLACK_THREES_MELD:
            continue
        before = state.melds[side][gp.joins].size >= size if gp.joins >= 0 else False
        if meld.size >= size and not before:
            count += 1
    return count


def initial_penalty(state: HandState, side: int, made: list[tuple[GroupPlan, Meld]],
                    hand_total: int, top: Card | None, concealed: bool) -> int:
    """The penalty (table mode) for a side's initial meld; raises when it is refused."""
    if state.opened(side):
        return 0
    err = state.rules.variant.initial_error(state, side, made, hand_total, top, concealed)
    if err is None:
        return 0
    if state.rules.option(TABLE_PENALTIES_MODE):
        return 100
    raise err.error()


def meld_out_error(state: HandState, left: int) -> None:
    if left == 0 and not state.rules.settings.may_meld_out:
        raise IllegalMove("meld.keep_one")


def remaining(hand: list[Card], used: list[Card]) -> list[Card]:
    rest = list(hand)
    for c in used:
        rest.remove(c)
    return rest
