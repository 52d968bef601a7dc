"""Listing the legal moves of a position.

Suits never matter except for threes, so moves are listed by composition (rank, naturals,
deuces, jokers), with the lowest cards of each kind standing for their kind.  The list holds one
move for every distinct outcome the seat can reach this turn, and no more (docs/ENGINE.md):

* draw phase: ``draw``, ``pass`` where allowed, and every way to take the pile with the fewest
  cards that make the take legal (an unopened side: every set of groups that just reaches the
  minimum; more cards can be melded right after taking);
* play phase: new melds of three cards, single-card additions, the black threes when they go
  out (all of them, or all but the discard), moves that go out at once, one discard per kind of
  card, and ``ask``.

``check_move`` accepts every legal move, listed or not (``meld 9 9 9 9`` as well as
``meld 9 9 9`` then ``add 9 9``); the self-play tests check that every listed move passes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from canasta.cards import BLACK_THREE, DEUCE, JOKER, NATURAL_RANKS, RED_THREE, Card
from canasta.engine.check import check_move
from canasta.engine.compose import (
    WILD_KIND,
    cards_by_kind,
    combo_groups,
    initial_combos,
    kind_cards,
    splashes,
)
from canasta.engine.goingout import can_go_out, going_out_moves
from canasta.engine.melding import going_out_error
from canasta.engine.plans import GroupPlan, Plan
from canasta.engine.takes import must_take, take_moves
from canasta.errors import IllegalMove
from canasta.moves import ASK, DRAW, NO, PASS, WILD_MELD, YES, Move, MoveKind

if TYPE_CHECKING:
    from canasta.engine.state import HandState


def legal_moves(state: HandState) -> list[Move]:
    if state.result is not None:
        return []
    plans: dict[Move, Plan | None] = {}
    if state.asking is not None:
        moves = [YES, NO]
    elif state.phase == "draw":
        moves = [DRAW] if state.stock else []
        takes = take_moves(state, plans)
        moves += takes
        if not state.stock and takes and not must_take(state, state.turn):
            moves.append(PASS)
    else:
        moves = play_moves(state, plans)
        if state.answer == "yes":
            # Bound to go out: the moves that go out at once are always among the choices.
            _add_new(moves, going_out_moves(state, True))
            if state.rules.variant.may_meld_out:
                _add_new(moves, going_out_moves(state, False))
            moves = [m for m in moves if _plan(state, m, plans) is not None]
            plans = {m: plans[m] for m in moves if m in plans}
    # ``apply`` reuses the plans worked out here instead of checking these moves again.
    state.plans = plans
    return moves


def _plan(state: HandState, move: Move, plans: dict[Move, Plan | None]) -> Plan | None:
    """The checked plan of ``move``, or None when it is illegal (remembered in ``plans``)."""
    try:
        plan = check_move(state, move)
    except IllegalMove:
        return None
    plans[move] = plan
    return plan


def play_moves(state: HandState, plans: dict[Move, Plan | None]) -> list[Move]:
    seat = state.turn
    side = state.side_of(seat)
    hand = state.hands[seat]
    v = state.rules.variant
    c = state.kinds(seat)
    by_kind = cards_by_kind(hand)
    moves: list[Move] = []
    if not state.black_threes_down:
        if state.opened(side):
            _opened_melds(state, side, c, by_kind, moves, plans)
            b = c[BLACK_THREE]
            sizes = v.black_three_meld_sizes
            # The black threes go down last, leaving one card or none: from a hand of black
            # threes only, one of them may be that last discard instead (a different score).
            for s in range(max(sizes[0], len(hand) - 1), min(b, sizes[-1]) + 1):
                m = Move(MoveKind.MELD, (tuple(by_kind[BLACK_THREE][:s]),))
                if _plan(state, m, plans) is not None:
                    moves.append(m)
            if (state.ponytails[state.turn] is not None and not state.canastas(side)
                    and len(hand) <= v.canasta_size + 1):
                # The first canasta brings the ponytail: completing it with the last cards of
                # the hand is no going out, and no card-by-card order reaches it.
                for m in _first_canastas(state, side, c, by_kind):
                    if m not in plans and _plan(state, m, plans) is not None:
                        moves.append(m)
            size = v.canasta_size
            if (v.may_meld_out and state.answer != "no"
                    and len(hand) <= state.canastas_needed() * size  # cheap bound first
                    and (missing := v.canastas_missing(state.rules, state.melds[side])) > 0
                    and len(hand) <= missing * size):
                # Going out by melding everything in one move only differs from melding card
                # by card when the missing canastas take the very last cards of the hand.
                more = going_out_moves(state, False, c, by_kind)
                if v.exact_going_out:
                    more = [m for m in more if m not in plans and _plan(state, m, plans)]
                _add_new(moves, more)
        else:
            need = state.minimum(side)
            careful = v.check_listed_openings
            for combo in initial_combos(state, side, c, need, 0, [], -1):
                groups = combo_groups(by_kind, combo, 0, 0)
                m = Move.meld(*groups)
                if (not careful and sum(len(g) for g in groups) < len(hand) - 1) or _plan(
                        state, m, plans):
                    moves.append(m)
            for m in splashes(state, side, c, by_kind):
                if m not in plans and _plan(state, m, plans):
                    moves.append(m)
            if (v.concealed_waives_minimum and state.drew == "stock" and state.answer != "no"
                    and can_go_out(state)):
                _add_new(moves, going_out_moves(state, True, c, by_kind))
    # Discards: one per kind of card.
    if state.answer != "yes" or len(hand) == 1:
        last = len(hand) == 1
        if not last or going_out_error(state, side, state.canastas(side)) is None:
            for k, cs in by_kind.items():
                if k != RED_THREE and v.discard_error(state, seat, cs[0], going_out=last) is None:
                    moves.append(Move(MoveKind.DISCARD, card=cs[0]))
    if (state.partner_of(seat) is not None and not state.asked[seat] and not state.turn_melded
            and state.answer is None and len(hand) >= 2 and can_go_out(state)):
        moves.append(ASK)
    return moves


def _first_canastas(state: HandState, side: int, c: list[int],
                    by_kind: dict[int, list[Card]]) -> list[Move]:
    """Moves that complete a canasta with as many natural cards as the hand allows."""
    v = state.rules.variant
    size = v.canasta_size
    out = []
    for k in range(len(NATURAL_RANKS)):
        if not c[k]:
            continue
        r = NATURAL_RANKS[k]
        mi = state.find_meld(side, r)
        have = state.melds[side][mi].size if mi >= 0 else 0
        n = min(c[k], size - have)
        w = size - have - n
        d = min(w, c[DEUCE])
        if w - d > c[JOKER]:
            continue
        cards = kind_cards(by_kind, k, n, d, w - d)
        out.append(Move.add(r, cards) if mi >= 0 else Move.meld(cards))
    return out


def _add_new(moves: list[Move], more: list[Move]) -> None:
    """Moves that go out at once are built to be legal (the self-play tests check every listed
    move against ``check_move``); add those not listed yet."""
    if more:
        seen = set(moves)
        for m in more:
            if m not in seen:
                seen.add(m)
                moves.append(m)


def _opened_melds(state: HandState, side: int, c: list[int], by_kind: dict[int, list[Card]],
                  moves: list[Move], plans: dict[Move, Plan | None]) -> None:
    """New three-card melds and single-card additions for a side that has opened."""
    v = state.rules.variant
    hand_size = sum(c)
    size = v.canasta_size
    canastas = state.canastas(side)
    melds = state.melds[side]
    deuces, jokers = c[DEUCE], c[JOKER]
    where = state.joinable_melds(side)

    careful = False  # set by fits() when only a full check can tell

    def fits(left: int, canastas_after: int) -> bool:
        nonlocal careful
        careful = False
        if left >= 2:
            return True
        if left == 0 and not v.may_meld_out:
            return False
        if v.exact_going_out:
            careful = True  # the going-out requirement depends on the melds made
            return True
        return going_out_error(state, side, canastas_after) is None

    def meld(rank: str, cs: list[Card], joins: int) -> None:
        # Cards come from ``by_kind`` in canonical order, so the Move needs no sorting.
        group = tuple(cs)
        if joins >= 0:
            m = Move(MoveKind.ADD, (group,), rank=rank)
        else:
            m = Move(MoveKind.MELD, (group,))
        if careful:
            if _plan(state, m, plans) is not None:
                moves.append(m)
            return
        plans[m] = Plan(m, (GroupPlan(rank, group, joins),))
        moves.append(m)

    for k in range(len(NATURAL_RANKS)):
        n = c[k]
        if not n:
            continue
        r = NATURAL_RANKS[k]
        mi = where.get(r, -1)
        if mi >= 0:
            m = melds[mi]
            grown = canastas + (m.size + 1 == size)
            if fits(hand_size - 1, grown) and v.counts_error(
                    state, side, r, m.naturals + 1, m.deuces, m.jokers) is None:
                meld(r, by_kind[k][:1], mi)
            continue
        if n < 2 or not fits(hand_size - 3, canastas):
            continue
        if n >= 3 and v.counts_error(state, side, r, 3, 0, 0) is None:
            meld(r, by_kind[k][:3], -1)
        if deuces and v.counts_error(state, side, r, 2, 1, 0) is None:
            meld(r, by_kind[k][:2] + by_kind[DEUCE][:1], -1)
        if jokers and v.counts_error(state, side, r, 2, 0, 1) is None:
            meld(r, by_kind[k][:2] + by_kind[JOKER][:1], -1)
    if deuces or jokers:
        check_wilds = v.wild_adds_need_check(state, side)
        for mi, m in enumerate(melds):
            if len(m.rank) != 1 or m.rank not in NATURAL_RANKS:
                continue
            grown = canastas + (m.size + 1 == size)
            if not fits(hand_size - 1, grown):
                continue
            careful = careful or check_wilds
            if deuces and v.counts_error(
                    state, side, m.rank, m.naturals, m.deuces + 1, m.jokers) is None:
                meld(m.rank, by_kind[DEUCE][:1], mi)
            if jokers and v.counts_error(
                    state, side, m.rank, m.naturals, m.deuces, m.jokers + 1) is None:
                meld(m.rank, by_kind[JOKER][:1], mi)
    if v.has_wild_melds(state.rules) and deuces + jokers:
        wi = where.get(WILD_MELD, -1)
        if wi >= 0:
            m = melds[wi]
            if fits(hand_size - 1, canastas + (m.size + 1 == size)):
                if deuces and v.counts_error(state, side, WILD_MELD, 0, m.deuces + 1,
                                             m.jokers) is None:
                    meld(WILD_MELD, by_kind[DEUCE][:1], wi)
                if jokers and v.counts_error(state, side, WILD_MELD, 0, m.deuces,
                                             m.jokers + 1) is None:
                    meld(WILD_MELD, by_kind[JOKER][:1], wi)
        elif deuces + jokers >= 3 and fits(hand_size - 3, canastas):
            careful = True  # a new wild-card meld also depends on the other melds (E-26)
            for d in range(max(0, 3 - jokers), min(3, deuces) + 1):
                if v.counts_error(state, side, WILD_MELD, 0, d, 3 - d) is None:
                    meld(WILD_MELD, kind_cards(by_kind, WILD_KIND, 0, d, 3 - d), -1)
