"""Checking and carrying out moves: the single source of legality.

``check_move`` raises ``IllegalMove`` with a reason a player understands, or returns a ``Plan``;
``carry_out`` performs a checked plan.  ``legal.py`` lists moves with the same predicates.
"""

from __future__ import annotations

from collections.abc import Sequence

from canasta.cards import BLACK_THREE, RED_THREE, Card, missing_cards
from canasta.engine.melds import Meld
from canasta.engine.state import GroupPlan, HandState, Plan
from canasta.errors import IllegalMove
from canasta.moves import BLACK_THREES_MELD, WILD_MELD, Group, Move, MoveKind, group_rank

_PLURAL = {"A": "aces", "K": "kings", "Q": "queens", "J": "jacks", "T": "tens", "9": "nines",
           "8": "eights", "7": "sevens", "6": "sixes", "5": "fives", "4": "fours",
           "W": "wild cards"}


def rank_name(rank: str) -> str:
    return _PLURAL.get(rank, rank + "s")


# ----------------------------------------------------------------------------------------
# check
def check_move(state: HandState, move: Move, seat: int | None = None) -> Plan:
    if state.result is not None:
        raise IllegalMove("the hand is over")
    actor = state.turn
    if seat is not None and seat != actor:
        raise IllegalMove(f"it is seat {actor}'s turn to act, not seat {seat}'s")
    k = move.kind
    if state.asking is not None:
        if k not in (MoveKind.YES, MoveKind.NO):
            raise IllegalMove("your partner asked \"may I go out?\": answer yes or no")
        return Plan(move)
    if k in (MoveKind.YES, MoveKind.NO):
        raise IllegalMove("nobody has asked you whether they may go out")
    if state.phase == "draw":
        if k is MoveKind.DRAW:
            if not state.stock:
                raise IllegalMove("the stock is exhausted: take the pile or pass")
            return Plan(move)
        if k is MoveKind.TAKE:
            return check_take(state, move, actor)
        if k is MoveKind.PASS:
            return check_pass(state, move, actor)
        raise IllegalMove("begin your turn: draw from the stock or take the pile")
    if k in (MoveKind.DRAW, MoveKind.TAKE, MoveKind.PASS):
        raise IllegalMove("you have already drawn this turn: meld, or discard to end your turn")
    if k is MoveKind.ASK:
        return check_ask(state, move, actor)
    if k is MoveKind.DISCARD:
        return check_discard(state, move, actor)
    return check_meld(state, move, actor)


def _must_hold(state: HandState, actor: int, cs: list[Card]) -> None:
    missing = missing_cards(state.hands[actor], cs)
    if missing:
        raise IllegalMove(f"you do not hold {' '.join(c.text for c in missing)}")


def going_out_error(state: HandState, side: int, canastas_after: int,
                    made: Sequence[tuple[GroupPlan, Meld]] = ()) -> str | None:
    """Why the seat to act may not go out now, with the canastas it will have after the groups
    ``made`` by its move, or None."""
    if state.answer == "no":
        return "your partner said no: you may not go out this turn, so keep two cards"
    return state.rules.variant.going_out_requirement(state, side, canastas_after, made)


def _group_plan(state: HandState, side: int, g: Group, rank: str | None,
                seen: dict[str, Meld]) -> tuple[GroupPlan, Meld]:
    """Resolve one group of cards from hand: its rank, the meld it joins, the meld it makes."""
    laid = state.rules.variant.laid_on_sight
    if any(laid(c) for c in g):
        what = "red threes" if all(c.kind == RED_THREE for c in g if laid(c)) else "threes"
        raise IllegalMove(f"{what} are never melded: they are laid beside your melds")
    r = group_rank(g) if rank is None else rank
    if r == BLACK_THREES_MELD:
        if any(c.kind != BLACK_THREE for c in g):
            raise IllegalMove("black threes are melded only with each other, never with wild cards")
        return GroupPlan(r, g, -1), Meld(r, g)
    if r == WILD_MELD and not state.rules.variant.has_wild_melds(state.rules):
        raise IllegalMove("a meld needs natural cards: wild cards alone are not a meld")
    for c in g:
        if not (c.is_wild or c.rank == r):
            if c.kind == BLACK_THREE:
                raise IllegalMove("black threes are melded only with each other, when going out")
            raise IllegalMove(f"a meld is made of one rank: {c.text} does not go with the "
                              f"{rank_name(r)}")
    v = state.rules.variant
    j = state.find_meld(side, r)
    if r in seen:
        if not (v.reopens_closed_ranks and seen[r].size >= v.canasta_size):
            raise IllegalMove(f"one meld per rank: put all your {rank_name(r)} in one group")
        j = -1  # the group before closed that rank's meld: this one starts a new meld
    meld = state.melds[side][j].plus(g) if j >= 0 else Meld(r, g)
    err = v.meld_error(state, side, meld, j >= 0)
    if err:
        raise IllegalMove(err)
    seen[r] = meld
    return GroupPlan(r, g, j), meld


def _canastas_after(state: HandState, side: int, made: list[tuple[GroupPlan, Meld]]) -> int:
    size = state.rules.variant.canasta_size
    count = state.canastas(side)
    for gp, meld in made:
        if gp.rank == BLACK_THREES_MELD:
            continue
        before = state.melds[side][gp.joins].size >= size if gp.joins >= 0 else False
        if meld.size >= size and not before:
            count += 1
    return count


def _initial(state: HandState, side: int, made: list[tuple[GroupPlan, Meld]], hand_total: int,
             top: Card | None, concealed: bool) -> int:
    """The penalty (table mode) for a side's initial meld; raises when it is refused."""
    if state.opened(side):
        return 0
    err = state.rules.variant.initial_error(state, side, made, hand_total, top, concealed)
    if err is None:
        return 0
    if state.rules.options.get("table_penalties_mode"):
        return 100
    raise IllegalMove(err)


def _meld_out_error(state: HandState, left: int) -> None:
    if left == 0 and not state.rules.variant.may_meld_out:
        raise IllegalMove("you go out by discarding your last card: keep one card to discard")


def check_meld(state: HandState, move: Move, actor: int) -> Plan:
    if state.black_threes_down:
        raise IllegalMove("black threes are your last meld: discard to go out")
    side = state.side_of(actor)
    cs = move.cards_from_hand()
    if not cs:
        raise IllegalMove("meld at least one card")
    _must_hold(state, actor, cs)
    seen: dict[str, Meld] = {}
    if move.kind is MoveKind.ADD:
        if state.find_meld(side, move.rank) < 0:
            raise IllegalMove(f"your side has no meld of {rank_name(move.rank)} to add to")
        made = [_group_plan(state, side, move.groups[0], move.rank, seen)]
    else:
        made = [_group_plan(state, side, g, None, seen) for g in move.groups]
    err0 = state.rules.variant.move_error(state, side, made)
    if err0:
        raise IllegalMove(err0)
    canastas = _canastas_after(state, side, made)
    left = len(state.hands[actor]) - len(cs) + state.rules.variant.cards_joining(
        state, actor, side, state.canastas(side), canastas)
    _meld_out_error(state, left)
    going_out = left <= 1
    for gp, meld in made:
        if gp.rank == BLACK_THREES_MELD:
            sizes = state.rules.variant.black_three_meld_sizes
            if not going_out or meld.size < sizes[0] or meld.size > sizes[-1]:
                most = (f"{sizes[0]} or {sizes[-1]}" if len(sizes) == 2 and sizes[-1] < 10
                        else f"{sizes[0]} or more")
                raise IllegalMove(f"black threes may be melded only as you go out, {most} of them")
    if going_out:
        err = going_out_error(state, side, canastas, made)
        if err:
            raise IllegalMove(err)
        if left == 1:
            last = _remaining(state.hands[actor], cs)[0]
            err = state.rules.variant.discard_error(state, actor, last, going_out=True,
                                                    hand=[last])
            if err:
                raise IllegalMove(f"you could not go out after this meld: {err}")
    size = state.rules.variant.canasta_size
    concealed = (
        going_out
        and state.rules.variant.concealed_waives_minimum
        and state.drew == "stock"
        and not state.turn_start_melded
        and not state.turn_old_touched
        and not any(gp.joins >= 0 for gp, _ in made)
        and any(m.size >= size for gp, m in made if gp.rank != BLACK_THREES_MELD)
    )
    total = sum(c.value for c in cs)
    penalty = _initial(state, side, made, total, None, concealed)
    plan = Plan(move, tuple(gp for gp, _ in made), penalty)
    if state.answer == "yes" and not penalty:
        _must_stay_able_to_go_out(state, plan)
    return plan


def _remaining(hand: list[Card], used: list[Card]) -> list[Card]:
    rest = list(hand)
    for c in used:
        rest.remove(c)
    return rest


def _must_stay_able_to_go_out(state: HandState, plan: Plan) -> None:
    from canasta.engine.goingout import can_go_out

    trial = state.copy()
    carry_out(trial, plan)
    if trial.result is None and not can_go_out(trial):
        raise IllegalMove("your partner said yes, so you must go out this turn; "
                          "after this meld you could not")


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
    _must_hold(state, actor, cs)
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
    made = [_group_plan(state, side, (top, *g0), rank, seen)]
    made += [_group_plan(state, side, g, None, seen) for g in extras]
    for gp, _ in made[1:]:
        if gp.rank == BLACK_THREES_MELD:
            raise IllegalMove("black threes may be melded only as you go out")
    err0 = state.rules.variant.move_error(state, side, made)
    if err0:
        raise IllegalMove(err0)
    laid = state.rules.variant.laid_on_sight
    canastas = _canastas_after(state, side, made)
    left = len(hand) - len(cs) + sum(1 for c in state.pile[:-1] if not laid(c))
    left += state.rules.variant.cards_joining(state, actor, side, state.canastas(side), canastas)
    _meld_out_error(state, left)
    if left <= 1:
        err2 = going_out_error(state, side, canastas, made)
        if err2:
            raise IllegalMove(err2)
    penalty = _initial(state, side, made, sum(c.value for c in cs), top, False)
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


def check_discard(state: HandState, move: Move, actor: int) -> Plan:
    c = move.card
    assert c is not None
    _must_hold(state, actor, [c])
    left = len(state.hands[actor]) - 1
    if state.answer == "yes" and left > 0:
        raise IllegalMove("your partner said yes, so you must go out this turn: meld first")
    if left == 0:
        side = state.side_of(actor)
        err = going_out_error(state, side, state.canastas(side))
        if err:
            raise IllegalMove(err)
    err = state.rules.variant.discard_error(state, actor, c, going_out=left == 0)
    if err:
        raise IllegalMove(err)
    return Plan(move)


def check_ask(state: HandState, move: Move, actor: int) -> Plan:
    from canasta.engine.goingout import can_go_out

    if state.partner_of(actor) is None:
        raise IllegalMove("there is no partner to ask in this game")
    if state.asked[actor]:
        when = "this hand" if state.rules.variant.ask_once_per_hand else "this turn"
        raise IllegalMove(f"you have already asked your partner {when}")
    if state.turn_melded:
        raise IllegalMove("ask your partner right after drawing, before you meld")
    if len(state.hands[actor]) < 2:
        raise IllegalMove("with one card left you can only go out: there is nothing to ask")
    if not can_go_out(state):
        raise IllegalMove("you cannot go out this turn, so there is nothing to ask")
    return Plan(move)


# ----------------------------------------------------------------------------------------
# carry out
def carry_out(state: HandState, plan: Plan) -> None:
    move = plan.move
    actor = state.turn
    state.plans = None
    state.history.append((actor, move))
    k = move.kind
    side = state.side_of(actor)
    if plan.penalty:
        state.penalties[side] += plan.penalty
        state.penalized.append(len(state.history) - 1)  # the move is taken back
        return
    if k is MoveKind.DRAW:
        _draw(state, actor)
    elif k is MoveKind.TAKE:
        _take(state, plan, actor, side)
    elif k in (MoveKind.MELD, MoveKind.ADD):
        state.remove_from_hand(actor, move.cards_from_hand())
        _lay(state, plan, actor, side)
        state.rules.variant.after_meld(state, actor, side)
        if any(gp.rank == BLACK_THREES_MELD for gp in plan.groups):
            state.black_threes_down = True
        if not state.hands[actor]:
            _go_out(state, actor)
    elif k is MoveKind.DISCARD:
        c = move.card
        assert c is not None
        state.hands[actor].remove(c)
        state.pile.append(c)
        if state.rules.variant.freezes_pile(c):
            state.frozen += 1
        if not state.hands[actor]:
            _go_out(state, actor)
        else:
            next_turn(state)
    elif k is MoveKind.ASK:
        state.asked[actor] = True
        state.asking = actor
        partner = state.partner_of(actor)
        assert partner is not None
        state.turn = partner
    elif k in (MoveKind.YES, MoveKind.NO):
        asker = state.asking
        assert asker is not None
        state.answer = k.value
        state.asking = None
        state.turn = asker
    elif k is MoveKind.PASS:
        end_hand(state, None)


def _draw(state: HandState, actor: int) -> None:
    v = state.rules.variant
    count = v.draw_count(state.rules.players)
    state.phase = "play"
    state.drew = "stock"
    if (state.rules.players == 2 and count == 2 and len(state.stock) <= 2
            and state.rules.options.get("two_player_last_card_rule") == "pagat"):
        # E-6 (Pagat): a red three among the last two cards is a one-card draw.
        got = False
        while state.stock:
            c = state.stock.pop()
            if v.laid_on_sight(c):
                state.lay_red_three(actor, c)
            else:
                state.hands[actor].append(c)
                got = True
        if not got:
            end_hand(state, None)
        return
    for _ in range(count):
        if not state.stock:
            break
        if not state.draw_card(actor):
            end_hand(state, None)  # a red three was the last stock card: the hand ends at once
            return


def _take(state: HandState, plan: Plan, actor: int, side: int) -> None:
    move = plan.move
    state.remove_from_hand(actor, move.cards_from_hand())
    state.pile.pop()  # the top card is in the first group's plan
    rest = state.pile
    state.pile = []
    state.frozen = 0
    state.start_frozen = False
    _lay(state, plan, actor, side)
    state.turn_melded = False  # taking the pile is the draw: "may I go out?" may follow it
    state.take_into_hand(actor, rest)
    state.rules.variant.after_meld(state, actor, side)
    state.phase = "play"
    state.drew = "pile"
    if not state.hands[actor]:
        _go_out(state, actor)


def _lay(state: HandState, plan: Plan, actor: int, side: int) -> None:
    melds = state.melds[side]
    for gp in plan.groups:
        if gp.joins >= 0:
            old = melds[gp.joins]
            melds[gp.joins] = old.plus(gp.cards)
            if old.rank not in state.turn_new_ranks:
                state.turn_old_touched = True
        else:
            melds.append(Meld(gp.rank, gp.cards))
            state.turn_new_ranks.add(gp.rank)
    state.melded[actor] = True
    state.turn_melded = True


def _go_out(state: HandState, actor: int) -> None:
    side = state.side_of(actor)
    size = state.rules.variant.canasta_size
    concealed = (
        not state.turn_start_melded
        and not state.turn_old_touched
        and any(m.rank in state.turn_new_ranks and m.size >= size and m.rank != BLACK_THREES_MELD
                for m in state.melds[side])
    )
    end_hand(state, actor, concealed)


def end_hand(state: HandState, went_out: int | None, concealed: bool = False) -> None:
    from canasta.engine.scoring import score_hand

    state.result = score_hand(state, went_out, concealed)


def next_turn(state: HandState) -> None:
    """Pass the turn to the next seat; at the end of the stock, end the hand when that seat
    cannot take the pile."""
    state.turn = (state.turn + 1) % state.rules.players
    state.phase = "draw"
    state.drew = None
    state.answer = None
    state.asking = None
    state.turn_start_melded = state.melded[state.turn]
    state.turn_melded = False
    state.turn_old_touched = False
    state.turn_new_ranks = set()
    state.black_threes_down = False
    if not state.rules.variant.ask_once_per_hand:
        state.asked[state.turn] = False
    if state.rules.variant.lay_threes_at_turn_start:
        state.lay_threes_in_hand(state.turn)
    end_if_stuck(state)


def end_if_stuck(state: HandState) -> None:
    """With the stock exhausted, a player who cannot take the pile ends the hand at once."""
    from canasta.engine.legal import take_moves

    if (state.result is None and state.phase == "draw" and state.asking is None
            and not state.stock
            and (not state.rules.variant.pile_after_stock or not take_moves(state))):
        end_hand(state, None)
