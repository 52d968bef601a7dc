"""Whether the seat to act can go out this turn, and the moves that go out in one go.

Both work on kind counts: every natural card in hand must join a meld of its rank (one per rank),
the wild cards must fit the melds' limits, black threes form one last meld, and at most one card
is left to discard.
"""

from __future__ import annotations

from collections.abc import Iterator

from canasta.cards import BLACK_THREE, DEUCE, JOKER, NATURAL_RANKS, RED_THREE, Card, sort_cards
from canasta.engine.state import HandState
from canasta.moves import Move

_Group = tuple[str, int, int, int, int]  # rank, kind, naturals from hand, fewest/most wilds


def _natural_groups(state: HandState, side: int, c: list[int]) -> list[_Group] | None:
    v = state.rules.variant
    groups: list[_Group] = []
    for k in range(len(NATURAL_RANKS)):
        n = c[k]
        if n == 0:
            continue
        r = NATURAL_RANKS[k]
        j = state.find_meld(side, r)
        rng = v.wild_range(state, side, r, n, state.melds[side][j] if j >= 0 else None)
        if rng is None:
            return None
        groups.append((r, k, n, rng[0], rng[1]))
    return groups


def _black_threes_ok(state: HandState, b: int) -> bool:
    sizes = state.rules.variant.black_three_meld_sizes
    return b == 0 or sizes[0] <= b <= sizes[-1]


def _discard_options(state: HandState, seat: int, c: list[int]) -> list[int]:
    v = state.rules.variant
    by_kind: dict[int, Card] = {}
    for card in state.hands[seat]:
        by_kind.setdefault(card.kind, card)
    return [k for k, card in by_kind.items()
            if v.discard_error(state, seat, card, going_out=True) is None]


def _feasible(state: HandState, side: int, c: list[int]) -> bool:
    if not _black_threes_ok(state, c[BLACK_THREE]):
        return False
    groups = _natural_groups(state, side, c)
    if groups is None:
        return False
    v = state.rules.variant
    size = v.canasta_size
    wilds = c[DEUCE] + c[JOKER]
    lo_sum = hi_sum = 0
    made = 0
    needs: list[int] = []
    in_hand = {g[0] for g in groups}
    for r, _k, n, lo, hi in groups:
        j = state.find_meld(side, r)
        before = state.melds[side][j].size if j >= 0 else 0
        lo_sum += lo
        hi_sum += hi
        now = before + n + lo
        if now >= size:
            made += before < size
        elif size - now <= hi - lo:
            needs.append(size - now)
    # Existing melds with no card of their rank in hand may still take wild cards.
    for m in state.melds[side]:
        if m.rank in in_hand or len(m.rank) != 1 or m.rank not in NATURAL_RANKS:
            continue
        rng = v.wild_range(state, side, m.rank, 0, m)
        if rng is None:
            continue
        hi_sum += rng[1]
        if m.size < size and size - m.size <= rng[1]:
            needs.append(size - m.size)
    if not lo_sum <= wilds <= hi_sum:
        return False
    spare = wilds - lo_sum
    for need in sorted(needs):
        if need <= spare:
            spare -= need
            made += 1
    return state.canastas(side) + made >= state.canastas_needed()


def can_go_out(state: HandState) -> bool:
    """Whether the seat to act (in its play phase) can still empty its hand this turn."""
    if state.result is not None or state.phase != "play" or state.asking is not None:
        return False
    if state.answer == "no":
        return False
    seat = state.turn
    side = state.side_of(seat)
    hand = state.hands[seat]
    if state.black_threes_down:
        return len(hand) == 1 and state.rules.variant.discard_error(
            state, seat, hand[0], going_out=True) is None
    c = state.kinds(seat)
    singles = sum(1 for k in range(len(NATURAL_RANKS))
                  if c[k] == 1 and state.find_meld(side, NATURAL_RANKS[k]) < 0)
    if singles > 1:
        return False
    if not state.opened(side) and state.drew != "stock":
        return False
    if singles == 0 and _feasible(state, side, c):
        return True
    for k in _discard_options(state, seat, c):
        c[k] -= 1
        ok = _feasible(state, side, c)
        c[k] += 1
        if ok:
            return True
    return False


def _splits(groups: list[_Group], deuces: int, jokers: int) -> Iterator[list[tuple[int, int]]]:
    """Every way to share the wild cards among the groups within their limits."""
    n = len(groups)

    def rec(i: int, d: int, j: int) -> Iterator[list[tuple[int, int]]]:
        if i == n:
            if d == 0 and j == 0:
                yield []
            return
        lo, hi = groups[i][3], groups[i][4]
        rest_hi = sum(g[4] for g in groups[i + 1:])
        for t in range(lo, min(hi, d + j) + 1):
            if d + j - t > rest_hi:
                continue
            for dd in range(max(0, t - j), min(t, d) + 1):
                for tail in rec(i + 1, d - dd, j - (t - dd)):
                    yield [(dd, t - dd), *tail]

    yield from rec(0, deuces, jokers)


def going_out_moves(state: HandState, leave_one: bool) -> list[Move]:
    """Moves that meld the whole hand at once (and, with ``leave_one``, all but one card, to
    discard next).  Only the cards in hand are shared out: wild cards join groups that hold
    natural cards of the hand."""
    seat = state.turn
    side = state.side_of(seat)
    hand = state.hands[seat]
    c = state.kinds(seat)
    if c[RED_THREE]:
        return []
    by_kind: dict[int, list[Card]] = {}
    for card in sort_cards(hand):
        by_kind.setdefault(card.kind, []).append(card)
    size = state.rules.variant.canasta_size
    need = state.canastas_needed()
    moves: list[Move] = []
    options: list[int | None] = [None]
    if leave_one:
        options += _discard_options(state, seat, c)
    for opt in options:
        cc = list(c)
        if opt is not None:
            cc[opt] -= 1
        b = cc[BLACK_THREE]
        if not _black_threes_ok(state, b):
            continue
        groups = _natural_groups(state, side, cc)
        if groups is None or not (groups or b):
            continue
        for split in _splits(groups, cc[DEUCE], cc[JOKER]):
            made = state.canastas(side)
            cards_groups: list[list[Card]] = []
            joins = 0
            for (r, k, n, _lo, _hi), (d, j) in zip(groups, split, strict=True):
                mi = state.find_meld(side, r)
                before = state.melds[side][mi].size if mi >= 0 else 0
                joins += mi >= 0
                if before + n + d + j >= size > before:
                    made += 1
                cards_groups.append(list(by_kind[k][:n]))
            if made < need:
                continue
            dpos = jpos = 0
            for g, (d, j) in zip(cards_groups, split, strict=True):
                g += by_kind.get(DEUCE, [])[dpos:dpos + d] + by_kind.get(JOKER, [])[jpos:jpos + j]
                dpos += d
                jpos += j
            if b:
                cards_groups.append(by_kind[BLACK_THREE][:b])
            if len(cards_groups) == 1 and joins == 1:
                moves.append(Move.add(groups[0][0], cards_groups[0]))
            else:
                moves.append(Move.meld(*cards_groups))
    return moves
