"""``check_move``: the single source of legality, every kind of move in every phase.

Each kind of move has its own check (``takes``, ``play``, ``goingout``); this is where the turn
and the phase decide which applies.  ``legal_moves`` lists moves with the same checks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from canasta.engine.goingout import check_ask, must_stay_able_to_go_out
from canasta.engine.plans import Plan
from canasta.engine.play import check_discard, check_meld
from canasta.engine.takes import check_pass, check_take
from canasta.errors import IllegalMove
from canasta.moves import Move, MoveKind

if TYPE_CHECKING:
    from canasta.engine.state import HandState


def check_move(state: HandState, move: Move, seat: int | None = None,
               held: bool = False) -> Plan:
    """Raise IllegalMove (with a reason a player understands) unless ``move`` is legal for the
    seat to act (or for ``seat``, when given); return what it will do.  ``held``: the move was
    built from the cards in the hand (by the listing), so they need no looking for."""
    if state.result is not None:
        raise IllegalMove("turn.hand_over")
    actor = state.turn
    if seat is not None and seat != actor:
        raise IllegalMove("turn.not_yours", actor=actor, seat=seat)
    k = move.kind
    if state.asking is not None:
        if k not in (MoveKind.YES, MoveKind.NO):
            raise IllegalMove("turn.answer_first")
        return Plan(move)
    if k in (MoveKind.YES, MoveKind.NO):
        raise IllegalMove("turn.nobody_asked")
    if state.phase == "draw":
        if k is MoveKind.DRAW:
            if not state.stock:
                raise IllegalMove("turn.stock_exhausted")
            return Plan(move)
        if k is MoveKind.TAKE:
            return check_take(state, move, actor)
        if k is MoveKind.PASS:
            return check_pass(state, move, actor)
        raise IllegalMove("turn.draw_first")
    if k in (MoveKind.DRAW, MoveKind.TAKE, MoveKind.PASS):
        raise IllegalMove("turn.already_drawn")
    if k is MoveKind.ASK:
        return check_ask(state, move, actor)
    if k is MoveKind.DISCARD:
        return check_discard(state, move, actor)
    plan = check_meld(state, move, actor, held)
    if state.answer == "yes" and not plan.penalty:
        must_stay_able_to_go_out(state, plan)
    return plan
