"""Judging a position from one seat's side: the knowledge the computer players share.

Everything here reads only what the seat may know: its own hand, the table, the pile, the sizes
of the other hands.  Values are in points, so that a finished hand (its real score) and an
unfinished one (what the table is worth, what the hand may still bring) compare directly.
"""

from __future__ import annotations

from canasta.cards import BLACK_THREE, DEUCE, JOKER, NATURAL_RANKS
from canasta.engine.state import HandState
from canasta.moves import BLACK_THREES_MELD, WILD_MELD

AVERAGE_UNSEEN = 12  # points, the mean value of a card nobody has seen
TEMPO = 4.0  # points a card in hand costs when the hand may soon end


def side_table_value(state: HandState, side: int, hope: float = 1.0) -> float:
    """What the side's melds would score now, plus the promise of its unfinished melds
    (weighed by ``hope``, the chance that the hand lasts long enough)."""
    v = state.rules.variant
    size = v.canasta_size
    part = v.score_side(state, side, went_out=False, concealed=False)
    value = float(part["melded"] + part["canastas"] + part["threes"] + part.get("penalties", 0)
                  + part.get("cut", 0))
    for m in state.melds[side]:
        if m.size >= size or m.rank == BLACK_THREES_MELD:
            continue
        # An unfinished meld is worth part of the canasta it may become; naturals keep the
        # hope of a natural canasta alive.
        share = (m.size / size) ** 3
        value += hope * share * (500 if m.wilds == 0 and m.rank != WILD_MELD else 300)
    return value


def end_risk(state: HandState, seat: int) -> float:
    """How likely the hand is to end before this seat's cards can be melded (0..1)."""
    me = state.side_of(seat)
    need = max(1, state.canastas_needed())
    opponents = max((min(1.0, state.canastas(s) / need)
                     for s in range(state.rules.n_sides) if s != me), default=0.0)
    deck = len(state.stock) / max(1, len(state.stock) + sum(len(h) for h in state.hands))
    return min(0.9, 0.1 + 0.5 * opponents + 0.3 * (1 - deck))


def hand_value(state: HandState, seat: int) -> float:
    """The seat's own cards: each is worth its value if it gets melded and costs it if it is
    still in hand when the hand ends; cards that build canastas are worth more."""
    side = state.side_of(seat)
    v = state.rules.variant
    counts: dict[int, int] = {}
    for c in state.hands[seat]:
        counts[c.kind] = counts.get(c.kind, 0) + 1
    risk = end_risk(state, seat)
    total = 0.0
    for k, n in counts.items():
        if k < len(NATURAL_RANKS):
            value = 10 if k <= NATURAL_RANKS.index("8") else 5
            value = 20 if k == 0 else value
            if state.find_meld(side, NATURAL_RANKS[k]) >= 0:
                p, build = 0.95, 25.0
            elif n >= 3:
                p, build = 0.9, 20.0
            elif n == 2:
                p, build = 0.7, 15.0
            else:
                p, build = 0.35, 4.0
        elif k in (DEUCE, JOKER):
            value, p, build = (20 if k == DEUCE else 50), 0.95, 30.0
        elif k == BLACK_THREE:
            value = 100 if v.name == "ponytail" else 5
            p, build = 0.0, 0.0
        else:
            continue
        p *= 1 - 0.5 * risk
        total += n * (value * (2 * p - 1) + build * p)
    # Tempo: a side that may go out wants its cards down; so does one whose opponents may.
    ready = state.canastas(side) >= state.canastas_needed()
    total -= TEMPO * (2 if ready else risk) * len(state.hands[seat])
    return total


def pile_danger(state: HandState, taker: int) -> float:
    """What the pile may give ``taker``, the next player to draw (points)."""
    if not state.pile:
        return 0.0
    top = state.pile[-1]
    if not top.is_natural:
        return 0.0  # a black three or a wild card blocks the next player
    side = state.side_of(taker)
    worth = sum(c.value for c in state.pile) + 25 * len(state.pile)
    if state.pile_frozen_for(side):
        chance = 0.15
    elif state.find_meld(side, top.rank) >= 0:
        chance = 0.9
    else:
        chance = 0.45
    return chance * worth


def evaluate(state: HandState, seat: int) -> float:
    """The seat's side's prospects in points (higher is better for that side)."""
    me = state.side_of(seat)
    sides = state.rules.n_sides
    if state.result is not None:
        scores = state.result.scores
        others = [s for i, s in enumerate(scores) if i != me]
        return scores[me] - sum(others) / len(others)
    total = 0.0
    hope = 1 - end_risk(state, seat)
    for side in range(sides):
        value = side_table_value(state, side, hope)
        seats = [s for s in range(state.rules.players) if state.side_of(s) == side]
        unseen = sum(len(state.hands[s]) for s in seats if s != seat) * AVERAGE_UNSEEN
        value -= 0.5 * unseen
        total += value if side == me else -value / (sides - 1)
    total += hand_value(state, seat)
    if state.turn != seat and state.side_of(state.turn) != me:
        total -= pile_danger(state, state.turn)  # the pile this seat leaves to an opponent
    return total
