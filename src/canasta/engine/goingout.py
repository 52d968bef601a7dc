"""Whether the seat to act can go out this turn, and the moves that go out in one go.

Both work on kind counts: every natural card in hand must join a meld of its rank (one per rank),
the wild cards must fit the melds' limits, black threes form one last meld, and at most one card
is left to discard.
"""

from __future__ import annotations

from collections.abc import Iterator

from canasta.cards import BLACK_THREE, DEUCE, JOKER, NATURAL_RANKS, RED_THREE, Card, sort_cards
from canasta.engine.state import HandState
from canasta.errors import IllegalMove
from canasta.moves import WILD_MELD, Move, group_rank

WILD_KIND = -1

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
            if v.discard_error(state, seat, card, going_out=True, hand=[card]) is None]


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
    if v.has_wild_melds(state.rules) and wilds:
        # Wild cards may also go to the side's wild meld, or make one (over-counted here: the
        # variants with wild melds confirm with an actual move, see can_go_out).
        w = state.find_meld(side, WILD_MELD)
        room = size - state.melds[side][w].size if w >= 0 else size
        hi_sum += room
        if room:
            needs.append(room)
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
    if state.black_threes_down or len(hand) == 1:
        from canasta.engine.play import going_out_error

        return (len(hand) == 1
                and going_out_error(state, side, state.canastas(side)) is None
                and state.rules.variant.discard_error(state, seat, hand[0], going_out=True) is None)
    c = state.kinds(seat)
    melded = {m.rank for m in state.melds[side]}
    singles = [k for k in range(len(NATURAL_RANKS))
               if c[k] == 1 and NATURAL_RANKS[k] not in melded]
    if len(singles) > 1:
        return False
    if not state.opened(side) and state.drew != "stock":
        return False
    if state.ponytails[seat] is not None and not state.canastas(side):
        return False  # the first canasta would bring the ponytail into the hand (Ponytail)
    if state.rules.variant.exact_going_out:
        return _exactly_out(state, side, c)
    if not singles and _feasible(state, side, c):
        return True
    for k in _discard_options(state, seat, c):
        # With a lone natural card of an unmelded rank, it is the only card that can go;
        # without one, discarding one of an unmelded pair would leave a lone card.
        if singles:
            if k != singles[0]:
                continue
        elif k < len(NATURAL_RANKS) and c[k] == 2 and NATURAL_RANKS[k] not in melded:
            continue
        c[k] -= 1
        ok = _feasible(state, side, c)
        c[k] += 1
        if ok:
            return True
    return False


MAX_WILD_ADDS = 48  # wild additions tried per question (each a check and a copy)


def _exactly_out(state: HandState, side: int, c: list[int]) -> bool:
    """Whether the seat to act can go out by moves the engine accepts: the whole hand (but a
    card to discard) in one move, possibly after adding wild cards one by one to melds of ranks
    it holds no natural card of (such additions are moves of their own).

    The additions are searched depth first, the biggest melds first and each set of additions
    once (a wild card's kind never matters to where it may go), within ``MAX_WILD_ADDS`` tries:
    a route found is a real one, so the search can only miss a rare route, never invent one."""
    if any(_legal(state, m) for m in _going_out(state, True, c)):
        return True
    if not (c[DEUCE] or c[JOKER]):
        return False
    # Counting first (``_feasible`` lets melds of ranks not in hand take wild cards): where
    # even the counts find no way out, no order of moves does.
    v = state.rules.variant
    options: list[int | None] = [None] if v.may_meld_out else []
    if not any(_feasible(state, side, _less(c, k))
               for k in options + _discard_options(state, state.turn, c)):
        return False
    melds = state.melds[side]
    held = {NATURAL_RANKS[k] for k in range(len(NATURAL_RANKS)) if c[k]}
    order = sorted((i for i, m in enumerate(melds)
                    if m.rank in NATURAL_RANKS and m.rank not in held
                    and state.find_meld(side, m.rank) == i),
                   key=lambda i: -melds[i].size)
    if not order:
        return False
    if state.answer == "yes":  # the same routes, without checking each step against the yes
        state = state.copy()
        state.answer = None
    return _out_after_adds(state, side, c, order, 0, [MAX_WILD_ADDS])


def _less(c: list[int], k: int | None) -> list[int]:
    """Kind counts ``c`` without one card of kind ``k`` (the same counts when ``k`` is None)."""
    if k is None:
        return c
    out = list(c)
    out[k] -= 1
    return out


def _out_after_adds(state: HandState, side: int, c: list[int], order: list[int], start: int,
                    budget: list[int]) -> bool:
    from canasta.engine.play import carry_out, check_move

    kind = DEUCE if c[DEUCE] else JOKER
    card = next(x for x in state.hands[state.turn] if x.kind == kind)
    v = state.rules.variant
    for pos in range(start, len(order)):
        m = state.melds[side][order[pos]]
        if v.counts_error(state, side, m.rank, m.naturals, m.deuces + (kind == DEUCE),
                          m.jokers + (kind == JOKER)) is not None:
            continue
        if budget[0] <= 0:
            return False
        budget[0] -= 1
        try:
            plan = check_move(state, Move.add(m.rank, [card]))
        except IllegalMove:
            continue
        trial = state.copy()
        carry_out(trial, plan)
        if trial.result is not None:
            return True
        cc = trial.kinds(trial.turn)
        if len(trial.hands[trial.turn]) == 1:
            if can_go_out(trial):
                return True
            continue
        if any(_legal(trial, mv) for mv in _going_out(trial, True, cc)) or (
                (cc[DEUCE] or cc[JOKER])
                and _out_after_adds(trial, side, cc, order, pos, budget)):
            return True
    return False


def _legal(state: HandState, move: Move) -> bool:
    from canasta.engine.play import check_move

    try:
        check_move(state, move)
    except IllegalMove:
        return False
    return True


def _splits(groups: list[_Group], wilds: int) -> Iterator[list[int]]:
    """Every way to share ``wilds`` wild cards among the groups within their limits."""
    n = len(groups)
    his = [g[4] for g in groups]

    def rec(i: int, w: int) -> Iterator[list[int]]:
        if i == n:
            if w == 0:
                yield []
            return
        rest_hi = sum(his[i + 1:])
        for t in range(groups[i][3], min(his[i], w) + 1):
            if w - t <= rest_hi:
                for tail in rec(i + 1, w - t):
                    yield [t, *tail]

    yield from rec(0, wilds)


MAX_SHARES = 300  # ways to share the wild cards tried per leftover card (huge Ponytail hands)


def going_out_moves(state: HandState, leave_one: bool, c: list[int] | None = None,
                    by_kind: dict[int, list[Card]] | None = None) -> list[Move]:
    """Moves that meld the whole hand at once (and, with ``leave_one``, all but one card, to
    discard next): one per distinct score.  Only the cards in hand are shared out: wild cards
    join groups that hold natural cards of the hand (or a wild-card meld)."""
    return list(_going_out(state, leave_one, c, by_kind))


def _going_out(state: HandState, leave_one: bool, c: list[int] | None = None,
               by_kind: dict[int, list[Card]] | None = None) -> Iterator[Move]:
    seat = state.turn
    side = state.side_of(seat)
    if c is None:
        c = state.kinds(seat)
    if c[RED_THREE]:
        return
    singles = sum(1 for k in range(len(NATURAL_RANKS))
                  if c[k] == 1 and state.find_meld(side, NATURAL_RANKS[k]) < 0)
    if singles > leave_one:
        return
    if by_kind is None:
        by_kind = {}
        for card in sort_cards(state.hands[seat]):
            by_kind.setdefault(card.kind, []).append(card)
    v = state.rules.variant
    size = v.canasta_size
    need = state.canastas_needed()
    options: list[int | None] = [None] if v.may_meld_out else []
    if leave_one:
        options += _discard_options(state, seat, c)
    for opt in options:
        cc = list(c)
        if opt is not None:
            cc[opt] -= 1
        b = cc[BLACK_THREE]
        if not _feasible(state, side, cc):
            continue
        natural = _natural_groups(state, side, cc)
        if natural is None:
            continue
        if not natural and not b and not v.has_wild_melds(state.rules):
            yield from _wilds_onto_one_meld(state, side, cc, by_kind, need)
            continue
        seen: set[tuple[object, ...]] = set()
        shares = _shares(state, side, natural, cc[DEUCE] + cc[JOKER])
        for _, (groups, split) in zip(range(MAX_SHARES), shares, strict=False):
            # The hand ends at once, so only what scores tells these moves apart: which melds
            # become canastas and which of them stay natural.
            made = state.canastas(side)
            cards_groups: list[list[Card]] = []
            signature: list[object] = [opt]
            joins = 0
            dleft, jpos, dpos = cc[DEUCE], 0, 0
            for (r, k, n, _lo, _hi), t in zip(groups, split, strict=True):
                if n + t == 0:
                    continue
                mi = state.find_meld(side, r)
                old = state.melds[side][mi] if mi >= 0 else None
                before = old.size if old else 0
                joins += old is not None
                is_canasta = before + n + t >= size
                made += is_canasta and before < size
                d = min(t, dleft)
                dleft -= d
                signature.append((is_canasta, t + (old.wilds if old else 0) > 0,
                                  (d, t - d) if r == WILD_MELD else None))
                g = by_kind.get(k, [])[:n] + by_kind.get(DEUCE, [])[dpos:dpos + d]
                g += by_kind.get(JOKER, [])[jpos:jpos + t - d]
                dpos += d
                jpos += t - d
                cards_groups.append(g)
            key = tuple(signature)
            if made < need or key in seen:
                continue
            seen.add(key)
            if b:
                cards_groups.append(by_kind[BLACK_THREE][:b])
            if not cards_groups:
                continue
            if len(cards_groups) == 1 and joins == 1:
                yield Move.add(group_rank(tuple(cards_groups[0])), cards_groups[0])
            else:
                yield Move.meld(*cards_groups)


def _shares(state: HandState, side: int, natural: list[_Group],
            wilds: int) -> Iterator[tuple[list[_Group], list[int]]]:
    """The groups that go down and how many wild cards each takes: wild cards join groups with
    natural cards of the hand and, where the variant has them, the side's wild meld."""
    v = state.rules.variant
    options = [natural]
    if v.has_wild_melds(state.rules) and wilds:
        w = state.find_meld(side, WILD_MELD)
        if w >= 0:
            room = v.canasta_size - state.melds[side][w].size
            options = [[*natural, (WILD_MELD, WILD_KIND, 0, 0, room)]]
        else:
            options.append([*natural, (WILD_MELD, WILD_KIND, 0, 3, v.canasta_size)])
    for groups in options:
        for split in _splits(groups, wilds):
            yield groups, split


def _wilds_onto_one_meld(state: HandState, side: int, c: list[int],
                         by_kind: dict[int, list[Card]], need: int) -> list[Move]:
    """A hand of wild cards only, all added to one meld that they turn into a canasta."""
    wilds = by_kind.get(DEUCE, [])[:c[DEUCE]] + by_kind.get(JOKER, [])[:c[JOKER]]
    if not wilds:
        return []
    v = state.rules.variant
    size = v.canasta_size
    out = []
    for m in state.melds[side]:
        if len(m.rank) != 1 or m.rank not in NATURAL_RANKS:
            continue
        grown = m.size + len(wilds)
        made = state.canastas(side) + (grown >= size > m.size)
        if made >= need and v.counts_error(state, side, m.rank, m.naturals,
                                           m.deuces + c[DEUCE], m.jokers + c[JOKER]) is None:
            out.append(Move.add(m.rank, wilds))
    return out
