"""Melds, discards and carrying out a checked move.

``check_meld`` and ``check_discard`` raise ``IllegalMove`` with a reason a player understands,
or return a ``Plan``; ``carry_out`` performs a checked plan and passes the turn on.  The
dispatch over every kind of move is ``check.check_move``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from canasta.engine.melding import (
    canastas_after,
    going_out_error,
    group_plan,
    initial_penalty,
    meld_out_error,
    must_hold,
    remaining,
)
from canasta.engine.melds import Meld
from canasta.engine.plans import PLAIN, GroupPlan, Listing, Plan, spec_plan
from canasta.engine.schema import TURN_START, TurnFacts
from canasta.engine.scoring import score_hand
from canasta.engine.takes import take_moves
from canasta.errors import IllegalMove
from canasta.moves import BLACK_THREES_MELD, Move, MoveKind, group_rank, rank_name
from canasta.options import TWO_PLAYER_LAST_CARD_RULE

if TYPE_CHECKING:
    from canasta.cards import Card
    from canasta.engine.state import HandState

__all__ = ["carry_out", "carry_out_kept", "check_discard", "check_meld", "end_hand",
           "end_if_stuck", "next_turn", "plan_meld", "rank_name"]

# The kinds of move, as module constants: ``MoveKind.DISCARD`` is a look-up through the enum's
# metaclass at each use (about 90 ns in pure Python; compiled, a generic attribute look-up),
# a Final a plain global (compiled, a C static); ``_perform`` tests the kind at every move.
_DRAW: Final = MoveKind.DRAW
_TAKE: Final = MoveKind.TAKE
_MELD: Final = MoveKind.MELD
_ADD: Final = MoveKind.ADD
_DISCARD: Final = MoveKind.DISCARD
_PASS: Final = MoveKind.PASS
_ASK: Final = MoveKind.ASK
_YES: Final = MoveKind.YES
_NO: Final = MoveKind.NO


def check_meld(state: HandState, move: Move, actor: int, held: bool = False) -> Plan:
    """A meld or an addition by the seat to act, every rule but one: after a yes, whether the
    player could still go out afterwards is ``check_move``'s question (it needs the going-out
    search, which itself checks melds with this function).  ``held``: the cards are known to
    be in the hand."""
    if state.facts.black_threes_down:
        raise IllegalMove("meld.black_threes_last")
    side = state.side_of(actor)
    cs = move.cards_from_hand()
    if not cs:
        raise IllegalMove("meld.empty")
    if not held:
        must_hold(state, actor, cs)
    seen: dict[str, Meld] = {}
    if move.kind is MoveKind.ADD:
        if state.find_meld(side, move.rank) < 0:
            raise IllegalMove("meld.no_meld_to_add", rank=move.rank)
        made = [group_plan(state, side, move.groups[0], move.rank, seen)]
    else:
        made = [group_plan(state, side, g, None, seen) for g in move.groups]
    return plan_meld(state, move, actor, side, cs, made)


def plan_meld(state: HandState, move: Move, actor: int, side: int, cs: list[Card],
              made: list[tuple[GroupPlan, Meld]]) -> Plan:
    """The rules of a meld beyond each group's own: ``made`` holds its groups resolved
    against the table (``group_plan``, or built so by the listing), ``cs`` every card it
    takes from the hand.  Raises IllegalMove like ``check_meld``."""
    v = state.rules.variant
    err0 = v.move_error(state, side, made)
    if err0:
        raise err0.error()
    canastas = canastas_after(state, side, made)
    hand = state.hands[actor]
    left = len(hand) - len(cs) + v.cards_joining(state, actor, side, state.canastas(side),
                                                 canastas)
    meld_out_error(state, left)
    going_out = left <= 1
    for gp, meld in made:
        if gp.rank == BLACK_THREES_MELD:
            sizes = state.rules.settings.black_three_meld_sizes
            if not going_out or meld.size < sizes[0] or meld.size > sizes[-1]:
                if len(sizes) == 2 and sizes[-1] < 10:
                    raise IllegalMove("meld.black_threes_out_range", low=sizes[0], high=sizes[-1])
                raise IllegalMove("meld.black_threes_out_min", low=sizes[0])
    concealed = False
    if going_out:
        err = going_out_error(state, side, canastas, made)
        if err:
            raise err.error()
        if left == 1:
            last = remaining(hand, cs)[0]
            err = v.discard_error(state, actor, last, going_out=True, hand=[last])
            if err:
                raise IllegalMove("meld.out_then_discard", reason=err.error())
        size = state.rules.settings.canasta_size
        concealed = (
            state.rules.settings.concealed_waives_minimum
            and state.drew == "stock"
            and not state.facts.start_melded
            and not state.facts.old_touched
            and not any(gp.joins >= 0 for gp, _ in made)
            and any(m.size >= size for gp, m in made if gp.rank != BLACK_THREES_MELD)
        )
    penalty = 0
    if not state.melds[side]:  # (``initial_penalty`` asks nothing of a side that has opened)
        total = 0
        for c in cs:
            total += c.value
        penalty = initial_penalty(state, side, made, total, None, concealed)
    return Plan(move, tuple(gp for gp, _ in made), penalty)


def check_discard(state: HandState, move: Move, actor: int) -> Plan:
    c = move.card
    assert c is not None
    must_hold(state, actor, [c])
    left = len(state.hands[actor]) - 1
    if state.answer == "yes" and left > 0:
        raise IllegalMove("out.partner_said_yes_meld")
    if left == 0:
        side = state.side_of(actor)
        err = going_out_error(state, side, state.canastas(side))
        if err:
            raise err.error()
    err = state.rules.variant.discard_error(state, actor, c, going_out=left == 0)
    if err:
        raise err.error()
    return Plan(move)


# ----------------------------------------------------------------------------------------
# carry out
def carry_out(state: HandState, plan: Plan) -> None:
    """Perform a checked plan (and pass the turn on where the move ends it)."""
    if plan.penalty:
        actor = state.turn
        state.plans = None
        state.record(actor, plan.move)
        state.penalties[actor % state.rules.n_sides] += plan.penalty
        state.penalized.append(len(state.history) - 1)  # the move is taken back
        return
    _perform(state, plan.move, plan.groups, PLAIN)


def carry_out_kept(state: HandState, listing: Listing, i: int) -> Move | None:
    """Carry out the ``i``-th move of ``listing`` (``state.plans``) from what the listing kept
    for it, and return it as played; None, changing nothing, when it was listed unchecked
    (the caller checks it)."""
    spec = listing.specs[i]
    if spec == PLAIN:  # (a draw or a discard, most moves played: asked first)
        move = listing.moves[i]
        _perform(state, move, (), PLAIN)
        return move
    if isinstance(spec, Plan):
        carry_out(state, spec)
        return spec.move
    if spec is None:
        return None
    # One group joining the side's meld ``spec`` (-1: a new meld): no Plan built for it.
    move = listing.moves[i]
    if move.kind is _TAKE:
        carry_out(state, spec_plan(move, spec))  # (the listing keeps no take so)
    else:
        _perform(state, move, (), spec)
    return move


def _perform(state: HandState, move: Move, groups: tuple[GroupPlan, ...], joins: int) -> None:
    """Carry out ``move``: a meld or an addition lays ``groups``, or (none given) its one
    group joining the side's meld ``joins`` (-1: a new meld)."""
    actor = state.turn
    state.plans = None
    state.record(actor, move)
    k = move.kind
    if k is _DISCARD:
        # (The most common move, carried out here rather than in a function of its own.)
        c = move.card
        assert c is not None
        state.remove_card(actor, c)
        state.pile.append(c)
        if state.rules.settings.freezes[c.kind]:
            state.frozen += 1
        if state.hands[actor]:
            next_turn(state)
        else:
            _go_out(state, actor)
    elif k is _DRAW:
        _draw(state, actor)
    elif k is _MELD or k is _ADD:
        if groups:
            side = actor % state.rules.n_sides
            state.remove_from_hand(actor, move.cards_from_hand())
            black = False
            for gp in groups:
                if gp.rank == BLACK_THREES_MELD:
                    black = True
            _lay(state, groups, actor, side)
            state.rules.variant.after_meld(state, actor, side)
            if black:
                state.black_threes_down = True
            if not state.hands[actor]:
                _go_out(state, actor)
        else:
            _meld_one(state, move, joins, actor)
    elif k is _TAKE:
        _take(state, move, groups, actor, actor % state.rules.n_sides)
    elif k is _ASK:
        state.asked[actor] = True
        state.asking = actor
        partner = state.partner_of(actor)
        assert partner is not None
        state.turn = partner
    elif k is _YES or k is _NO:
        asker = state.asking
        assert asker is not None
        state.answer = k.value
        state.asking = None
        state.turn = asker
    elif k is _PASS:
        end_hand(state, None)


def _meld_one(state: HandState, move: Move, joins: int, actor: int) -> None:
    """A meld or an addition of one group, joining the side's meld ``joins`` (-1: new): what
    ``_lay`` does with the groups of a move, written out for one group (most melds and
    additions played)."""
    side = actor % state.rules.n_sides
    group = move.groups[0]
    if len(group) == 1:  # (most additions)
        state.remove_card(actor, group[0])
    else:
        state.remove_from_hand(actor, group)
    rank = move.rank if move.kind is _ADD else group_rank(group)
    melds = state.melds[side]
    f = state.facts
    touched = f.old_touched
    new_ranks = f.new_ranks
    if joins >= 0:
        old = melds[joins]
        melds[joins] = old.plus(group)
        if old.rank not in new_ranks:
            touched = True
        state.meld_laid(side, joins, old)
    else:
        melds.append(Meld(rank, group))
        if rank not in new_ranks:
            new_ranks = new_ranks | {rank}
        state.meld_laid(side, len(melds) - 1, None)
    state.melded[actor] = True
    if not f.melded or touched != f.old_touched or new_ranks is not f.new_ranks:
        # (the facts stay as they are at a second addition to the same melds, and the like)
        state.facts = TurnFacts(f.start_melded, True, touched, new_ranks, f.black_threes_down)
    state.rules.variant.after_meld(state, actor, side)
    if rank == BLACK_THREES_MELD:
        state.black_threes_down = True
    if not state.hands[actor]:
        _go_out(state, actor)


def _draw(state: HandState, actor: int) -> None:
    rules = state.rules
    state.phase = "play"
    state.drew = "stock"
    count = rules.draws
    stock = state.stock
    if (count == 2 and rules.players == 2 and len(stock) <= 2
            and rules.option(TWO_PLAYER_LAST_CARD_RULE) == "pagat"):
        # E-6 (Pagat): a red three among the last two cards is a one-card draw.
        got = False
        laid = rules.settings.laid
        while stock:
            c = stock.pop()
            if laid[c.kind]:
                state.lay_red_three(actor, c)
            else:
                state.add_to_hand(actor, c)
                got = True
        if not got:
            end_hand(state, None)
        return
    while count and stock:
        if not state.draw_card(actor):
            end_hand(state, None)  # a red three was the last stock card: the hand ends at once
            return
        count -= 1


def _take(state: HandState, move: Move, groups: tuple[GroupPlan, ...], actor: int,
          side: int) -> None:
    state.remove_from_hand(actor, move.cards_from_hand())
    state.pile.pop()  # the top card is in the first group's plan
    rest = state.pile
    state.pile = []
    state.frozen = 0
    state.start_frozen = False
    _lay(state, groups, actor, side, False)  # taking the pile is the draw: "may I go out?"
    # may follow it
    state.take_into_hand(actor, rest)
    state.rules.variant.after_meld(state, actor, side)
    state.phase = "play"
    state.drew = "pile"
    if not state.hands[actor]:
        _go_out(state, actor)


def _lay(state: HandState, groups: tuple[GroupPlan, ...], actor: int, side: int,
         melded: bool = True) -> None:
    melds = state.melds[side]
    f = state.facts
    touched = f.old_touched
    new: set[str] | None = None
    for gp in groups:
        if gp.joins >= 0:
            old = melds[gp.joins]
            melds[gp.joins] = old.plus(gp.cards)
            if old.rank not in f.new_ranks and (new is None or old.rank not in new):
                touched = True
            state.meld_laid(side, gp.joins, old)  # (one change at a time, as it is made)
        else:
            melds.append(Meld(gp.rank, gp.cards))
            if new is None:
                new = set(f.new_ranks)
            new.add(gp.rank)
            state.meld_laid(side, len(melds) - 1, None)
    state.melded[actor] = True
    state.facts = TurnFacts(f.start_melded, melded, touched,
                            f.new_ranks if new is None else frozenset(new), f.black_threes_down)


def _go_out(state: HandState, actor: int) -> None:
    side = state.side_of(actor)
    size = state.rules.settings.canasta_size
    f = state.facts
    concealed = (
        not f.start_melded
        and not f.old_touched
        and any(m.rank in f.new_ranks and m.size >= size and m.rank != BLACK_THREES_MELD
                for m in state.melds[side])
    )
    end_hand(state, actor, concealed)


def end_hand(state: HandState, went_out: int | None, concealed: bool = False) -> None:
    state.result = score_hand(state, went_out, concealed)


def next_turn(state: HandState) -> None:
    """Pass the turn to the next seat; at the end of the stock, end the hand when that seat
    cannot take the pile."""
    rules = state.rules
    turn = (state.turn + 1) % rules.players
    state.turn = turn
    state.phase = "draw"
    state.drew = None
    state.answer = None
    state.asking = None
    state.facts = TURN_START[state.melded[turn]]
    t = rules.settings
    if not t.ask_once_per_hand:
        state.asked[turn] = False
    if t.lay_threes_at_turn_start:
        state.lay_threes_in_hand(turn)
    if not state.stock:
        end_if_stuck(state)


def end_if_stuck(state: HandState) -> None:
    """With the stock exhausted, a player who cannot take the pile ends the hand at once."""
    if (state.result is None and state.phase == "draw" and state.asking is None
            and not state.stock
            and (not state.rules.settings.pile_after_stock or not take_moves(state))):
        end_hand(state, None)
