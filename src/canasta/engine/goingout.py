"""Whether the seat to act can go out this turn, and the moves that go out in one go.

The answer gates "may I go out?" (``check_ask``) and, after a yes, every meld
(``must_stay_able_to_go_out``).

Both work on kind counts: every natural card in hand must go down with its rank, the wild cards
must fit the melds' limits, black threes form one last meld, and at most one card is left to
discard.  A rank's cards join its meld on the table (or start one); where a closed canasta
frees its rank for a new meld (Ponytail), they may also close that meld at canasta size and
start new melds of the rank with the rest, each but the last closed in turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Final

from canasta.cards import BLACK_THREE, DEUCE, JOKER, NATURAL_RANKS, RED_THREE, Card
from canasta.engine.melding import going_out_error
from canasta.engine.melds import Meld
from canasta.engine.plans import Plan
from canasta.engine.play import carry_out, check_meld
from canasta.errors import IllegalMove
from canasta.moves import BLACK_THREES_MELD, WILD_MELD, Move, MoveKind, group_rank
from canasta.mypyc_attrs import mypyc_attr

if TYPE_CHECKING:
    from canasta.engine.state import HandState

WILD_KIND: Final = -1
_MELD: Final = MoveKind.MELD  # (a module constant: an enum member is a slow look-up)

# One meld a move makes or joins: rank, kind, naturals from hand, fewest/most wild cards, and
# the index of the side's meld it joins (-1: a new meld).
_Group = tuple[str, int, int, int, int, int]

MAX_LAYOUTS: Final = 64  # ways to lay out the hand's ranks tried per leftover card (huge hands)


def _rank_melds(state: HandState, side: int, k: int, n: int, wilds: int, joins: int,
                one_move: bool) -> list[list[_Group]]:
    """The ways ``n`` natural cards of kind ``k`` (with at most ``wilds`` wild cards) go down:
    into the meld ``joins`` (or a new one), or -- where closed ranks reopen -- closing that
    meld at canasta size and going on with the rest in new melds.  ``one_move``: the cards go
    down in a single move, where a group of wild cards alone cannot join a natural meld."""
    v = state.rules.variant
    r = NATURAL_RANKS[k]
    old = state.melds[side][joins] if joins >= 0 else None
    out: list[list[_Group]] = []
    rng = v.wild_range(state, side, r, n, old)
    if rng is not None and rng[0] <= wilds:
        out.append([(r, k, n, rng[0], rng[1], joins)])
    if not v.reopens_closed_ranks:
        return out
    size = v.canasta_size
    have, nat, deu, jok = (old.size, old.naturals, old.deuces, old.jokers) if old else (0, 0, 0, 0)
    if n + have + wilds < size + 3:
        return out  # closing the meld leaves no three cards for a new one
    # Each closing group leaves at least the two naturals a new meld needs.
    for a in range(min(n - 2, size - have), 0 if one_move or old is None else -1, -1):
        x = size - have - a
        if x > wilds:
            break
        if v.counts_error(state, side, r, nat + a, deu + x, jok) is not None:
            continue
        for rest in _rank_melds(state, side, k, n - a, wilds - x, -1, one_move):
            out.append([(r, k, a, x, x, joins), *rest])
    return out


class _Memo:
    """What one question about one position has worked out, for the next step of the same
    question: each rank's ways to go down (by kind, cards of it in hand, wild cards in hand)
    and whether counting found a way out for a hand's kind counts (the moves that go out and
    the sieve before the wild additions try the same counts)."""

    __slots__ = ("blocked", "feasible", "ranks")

    def __init__(self) -> None:
        self.ranks: dict[tuple[int, int, int], list[list[_Group]]] = {}
        self.feasible: dict[tuple[int, ...], bool] = {}
        #: by the number of wild cards in hand: a rank and a number of its cards that cannot
        #: go down with them (a hand that holds as many is out of the question, whatever else
        #: it holds: the kinds a leftover card is tried for mostly leave that rank alone)
        self.blocked: dict[int, tuple[int, int]] = {}


def _layouts(state: HandState, side: int, c: list[int], one_move: bool = True,
             memo: _Memo | None = None) -> list[list[_Group]]:
    """The ways to lay out the hand's natural cards by rank (each a list of groups), within
    ``MAX_LAYOUTS``; none when some rank cannot go down.  ``memo`` keeps each rank's ways
    for the next call on the same position (the counts then differ by a card at most)."""
    wilds = c[DEUCE] + c[JOKER]
    options: list[list[list[_Group]]] = []
    single = True  # one way for every rank
    for k in range(len(NATURAL_RANKS)):
        if c[k]:
            key = (k, c[k], wilds)
            opts = memo.ranks.get(key) if memo is not None else None
            if opts is None:
                opts = _rank_melds(state, side, k, c[k], wilds,
                                   state.find_meld(side, NATURAL_RANKS[k]), False)
                if memo is not None:
                    memo.ranks[key] = opts
            if not opts and memo is not None:
                memo.blocked[wilds] = (k, c[k])
            if one_move:
                # Only a first group can hold no natural card (wild cards closing the meld).
                opts = [o for o in opts if o[0][2] or len(o) == 1]
            if not opts:
                return []
            if len(opts) > 1:
                single = False
            options.append(opts)
    if single:  # the common case: one group per rank
        flat: list[_Group] = []
        for o in options:
            flat += o[0]
        return [flat]
    out: list[list[_Group]] = []
    _combine(options, 0, wilds, [], [MAX_LAYOUTS], out)
    return out


def _combine(options: list[list[list[_Group]]], i: int, left: int, chosen: list[_Group],
             budget: list[int], out: list[list[_Group]]) -> None:
    """Add to ``out`` the layouts that take one way of each rank from ``i`` on, with ``left``
    wild cards for their fewest, while ``budget`` lasts."""
    if i == len(options):
        budget[0] -= 1
        out.append(chosen)
        return
    for opt in options[i]:
        if budget[0] <= 0:
            return
        fixed = 0
        for g in opt:
            fixed += g[3]
        if fixed <= left:
            _combine(options, i + 1, left - fixed, chosen + opt, budget, out)


def _black_threes_ok(state: HandState, b: int) -> bool:
    sizes = state.rules.variant.black_three_meld_sizes
    return b == 0 or sizes[0] <= b <= sizes[-1]


def _discard_kinds(state: HandState, seat: int) -> list[int]:
    """The kinds of card ``seat`` may keep to discard as it goes out, in kind order: the order
    the sorted hand first holds them (card ids follow the kinds), which the moves that go out
    follow."""
    v = state.rules.variant
    out = []
    for k, cs in enumerate(state.counts(seat).by_kind):
        if cs and v.discard_error(state, seat, cs[0], going_out=True, hand=cs[:1]) is None:
            out.append(k)
    return out


def _feasible(state: HandState, side: int, c: list[int], memo: _Memo | None = None) -> bool:
    """Whether counting alone finds a way to lay the hand (kind counts ``c``) down, in one
    move or more, that makes the canastas the side needs (for variants with
    ``exact_going_out``, only a first sieve)."""
    if memo is None:
        memo = _Memo()
    key = tuple(c)
    ok = memo.feasible.get(key)
    if ok is None:
        block = memo.blocked.get(c[DEUCE] + c[JOKER])
        if block is not None and c[block[0]] == block[1]:
            return False
        ok = False
        if _black_threes_ok(state, c[BLACK_THREE]):
            # (A loop, not ``any`` of a generator: no frame of its own in pure Python.)
            for groups in _layouts(state, side, c, False, memo):
                if _feasible_layout(state, side, c, groups):
                    ok = True
                    break
        memo.feasible[key] = ok
    return ok


def _feasible_layout(state: HandState, side: int, c: list[int], groups: list[_Group]) -> bool:
    v = state.rules.variant
    size = v.canasta_size
    wilds = c[DEUCE] + c[JOKER]
    lo_sum = hi_sum = 0
    made = 0
    needs: list[int] = []
    in_hand: set[str] = set()  # (filled in the loop: a comprehension is a frame of its own)
    melds = state.melds[side]
    for r, _k, n, lo, hi, j in groups:
        in_hand.add(r)
        before = melds[j].size if j >= 0 else 0
        lo_sum += lo
        hi_sum += hi
        now = before + n + lo
        if now >= size:
            made += before < size
        elif size - now <= hi - lo:
            needs.append(size - now)
    # Existing melds with no card of their rank in hand may still take wild cards.
    for m in melds:
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
    if state.facts.black_threes_down or len(hand) == 1:
        return (len(hand) == 1
                and going_out_error(state, side, state.canastas(side)) is None
                and state.rules.variant.discard_error(state, seat, hand[0], going_out=True) is None)
    c = state.counts(seat).kinds
    # The ranks with a meld their cards may join (where closed ranks reopen, no closed canasta).
    melded = state.meld_index(side).joinable
    # A natural card of any other rank goes down only in a new meld (two natural cards at
    # least, three cards at least): one lone card may be the discard, and each pair needs a
    # wild card.  (The first hand with two such lone cards ends the question: most do.)
    single = -1  # the kind of the lone card, which must be the discard
    pairs = 0
    for k in range(len(NATURAL_RANKS)):
        n = c[k]
        if 0 < n < 3 and NATURAL_RANKS[k] not in melded:
            if n == 1:
                if single >= 0:
                    return False
                single = k
            else:
                pairs += 1
    if pairs > c[DEUCE] + c[JOKER]:
        return False
    c = list(c)  # tried below with one card less
    if not state.opened(side) and state.drew != "stock":
        return False
    if not state.canastas(side) and state.rules.variant.cards_joining(state, seat, side, 0, 1):
        # Going out takes a canasta, and the first one brings cards nobody has seen into the
        # hand (Ponytail: the ponytail): whether they could go too is not known now.
        return False
    if not _canasta_within_reach(state, side, c):
        return False
    if state.rules.variant.going_out_ruled_out(state, side, c):
        return False
    v = state.rules.variant
    memo = _Memo()
    if v.exact_going_out:
        keeps = list(_keeps(state, side, c, memo, v.may_meld_out, True))
        return bool(keeps) and _exactly_out(state, side, c, memo, keeps)
    # Counting is the whole search here, and the first way found ends it: counting each card
    # that may be kept beforehand (``_keeps``) would cost more than it spares.
    if single < 0 and _feasible(state, side, c, memo):
        return True
    # ``_discard_kinds``, with the discard rules asked only of the kinds that may be the
    # card kept: with a lone natural card of an unmelded rank, it is the only card that can
    # go; without one, discarding one of an unmelded pair would leave a lone card.
    by_kind = state.counts(seat).by_kind
    for k in range(len(by_kind)):
        cs = by_kind[k]
        if not cs:
            continue
        if single >= 0:
            if k != single:
                continue
        elif k < len(NATURAL_RANKS) and c[k] == 2 and NATURAL_RANKS[k] not in melded:
            continue
        if v.discard_error(state, seat, cs[0], going_out=True, hand=cs[:1]) is not None:
            continue
        c[k] -= 1
        ok = _feasible(state, side, c, memo)
        c[k] += 1
        if ok:
            return True
    return False


def _fewest_wilds(state: HandState, side: int, k: int, n: int, wilds: int, memo: _Memo) -> int:
    """The fewest wild cards with which ``n`` natural cards of kind ``k`` go down (at most
    ``wilds``, in one move or more: ``_rank_melds``, kept in ``memo`` for the search), or -1
    when they cannot; 0 for no card."""
    if not n:
        return 0
    key = (k, n, wilds)
    opts = memo.ranks.get(key)
    if opts is None:
        opts = _rank_melds(state, side, k, n, wilds, state.find_meld(side, NATURAL_RANKS[k]),
                           False)
        memo.ranks[key] = opts
    best = -1
    for o in opts:
        x = 0
        for g in o:
            x += g[3]
        if best < 0 or x < best:
            best = x
    return best


def _keeps(state: HandState, side: int, c: list[int], memo: _Memo, nothing: bool,
           leave_one: bool) -> Iterator[int | None]:
    """What a way out may keep, in the order the moves that go out try it: nothing (None; only
    with ``nothing``), then, with ``leave_one``, each kind of card the variant lets go as the
    last discard -- those that counting leaves open.  Counting asks what ``_feasible`` asks of
    every layout: the natural cards of each rank left go down with that rank's fewest wild
    cards at least, and the black threes in one meld; so it drops only what ``_feasible`` would
    refuse (and every route of the search passes ``_feasible``), and asks the discard rules of
    the kinds it keeps only, as they come (the first way out found ends the question)."""
    wilds = c[DEUCE] + c[JOKER]
    fewest = [0] * len(NATURAL_RANKS)
    bad = -1  # the one rank whose cards cannot all go down: only its card kept may help
    total = 0  # the fewest wild cards of the other ranks
    for k in range(len(NATURAL_RANKS)):
        if c[k]:
            f = _fewest_wilds(state, side, k, c[k], wilds, memo)
            if f < 0:
                if bad >= 0:
                    return  # one card kept cannot help two ranks
                bad = k
            else:
                total += f
                fewest[k] = f
    b = c[BLACK_THREE]
    threes_ok = _black_threes_ok(state, b)
    # Keeping nothing, a red three or a wild card leaves every rank as many cards (a wild card
    # fewer never lowers what a rank needs: ``_rank_melds`` has fewer ways with fewer).
    whole = bad < 0 and threes_ok and total <= wilds
    if nothing and whole:
        yield None
    if not leave_one:
        return
    v = state.rules.variant
    seat = state.turn
    for k, cs in enumerate(state.counts(seat).by_kind):
        if not cs:
            continue
        if k < len(NATURAL_RANKS):
            if not threes_ok or (bad >= 0 and k != bad):
                continue
            f = _fewest_wilds(state, side, k, c[k] - 1, wilds, memo)
            if f < 0 or total - fewest[k] + f > wilds:
                continue
        elif k == BLACK_THREE:
            if bad >= 0 or total > wilds or not _black_threes_ok(state, b - 1):
                continue
        elif not whole or (k in (DEUCE, JOKER) and total == wilds):
            continue
        if v.discard_error(state, seat, cs[0], going_out=True, hand=cs[:1]) is None:
            yield k


def _canasta_within_reach(state: HandState, side: int, c: list[int]) -> bool:
    """Whether a side lacking one canasta to go out has a meld that could become it: one of its
    melds, or a new one of a rank the hand holds, with every card of that rank in hand and every
    wild card added.  Counting this generously never rules out a way out the search would find
    (each way out completes such a meld); lacking none or several, it rules out nothing."""
    v = state.rules.variant
    size = v.canasta_size
    if state.canastas_needed() - state.canastas(side) != 1:
        return True
    wilds = c[DEUCE] + c[JOKER]
    for k in range(len(NATURAL_RANKS)):
        if c[k] + wilds >= size:
            return True
    for m in state.melds[side]:
        if m.size < size and m.rank != BLACK_THREES_MELD:
            k = NATURAL_RANKS.find(m.rank)  # -1 for a meld of wild cards
            if m.size + (c[k] if k >= 0 else 0) + wilds >= size:
                return True
    return v.has_wild_melds(state.rules) and wilds >= size


def check_ask(state: HandState, move: Move, actor: int) -> Plan:
    if state.partner_of(actor) is None:
        raise IllegalMove("ask.no_partner")
    if state.asked[actor]:
        raise IllegalMove("ask.already_this_hand" if state.rules.variant.ask_once_per_hand
                          else "ask.already_this_turn")
    if state.facts.melded:
        raise IllegalMove("ask.after_melding")
    if len(state.hands[actor]) < 2:
        raise IllegalMove("ask.one_card")
    if not can_go_out(state):
        raise IllegalMove("ask.cannot_go_out")
    return Plan(move)


def must_stay_able_to_go_out(state: HandState, plan: Plan, ways: WaysOut | None = None) -> None:
    """After a yes, refuse a meld after which the player could no longer go out.  A meld that
    leaves one card or none has been checked as a way out (``check_meld``: the canastas, the
    last card's discard), which is all the yes asks of it; one that ``ways`` (the moves that
    go out at once from this position) proves needs no search either; only the others are
    tried on a copy, with the going-out search."""
    if _cards_left(state, plan) <= 1:
        return
    if ways is not None and ways.prove(plan):
        return
    trial = state.copy()
    carry_out(trial, plan)
    if trial.result is None and not can_go_out(trial):
        raise IllegalMove("out.partner_said_yes_stay")


#: One group of a move that goes out at once, as ``WaysOut`` keeps it: its natural cards and
#: wild cards, and whether the move keeps a deuce, or a joker, to discard.
_OutGroup = tuple[int, int, bool, bool]


@mypyc_attr(allow_interpreted_subclasses=True)  # like every compiled class: see HandState
class WaysOut:
    """The moves that go out at once from a position after a yes (``going_out_moves`` fills
    it as it makes them), kept by rank as proof that a meld of one group leaves the player
    able to go out, where counting decides going out (``of``: None elsewhere).

    The proof: a way out ``G`` whose group of the meld's rank holds the meld's cards (as many
    natural cards, as many wild cards at least), where the meld leaves the card ``G`` keeps to
    discard.  ``G`` without the meld's cards is then a way out after the meld, and counting
    (``can_go_out``) finds it: the hand's natural cards go down rank by rank as in ``G`` (the
    meld's rank into the meld just made, with the same cards as ``G`` in the end, so within
    ``wild_range``, which counts the whole meld: its natural cards and its wild cards), so
    no lone card or unmatched pair is left; the wild cards are shared as ``G`` shares them
    (what ``G`` puts on the meld's rank, less the meld's); the canastas are ``G``'s, the meld
    having made one of them where it closes its meld; and the card kept is the same kind, asked
    of alone (``hand=[card]``).  A wild card's kind never matters to counting, so only the
    card kept must still be there: a meld that lays the last deuce (or joker) proves nothing
    from a way out that keeps a deuce (or a joker).  A rank has one meld to join (no closed
    rank reopens), and no meld of wild cards or first canasta that brings cards (which
    ``can_go_out`` does not count) is met here."""

    __slots__ = ("by_rank", "deuces", "jokers")

    by_rank: dict[str, list[_OutGroup]]
    deuces: int  # in hand
    jokers: int

    @staticmethod
    def of(state: HandState) -> WaysOut | None:
        """An empty record for the seat to act, or None where counting does not decide going
        out."""
        rules = state.rules
        t = rules.settings
        seat = state.turn
        side = state.side_of(seat)
        if (t.exact_going_out or t.reopens_closed_ranks or rules.variant.has_wild_melds(rules)
                or (not state.canastas(side)
                    and rules.variant.cards_joining(state, seat, side, 0, 1))):
            return None
        return WaysOut(state)

    def __init__(self, state: HandState) -> None:
        c = state.counts(state.turn).kinds
        self.deuces = c[DEUCE]
        self.jokers = c[JOKER]
        self.by_rank = {}

    def add(self, rank: str, naturals: int, wilds: int, keep: int | None) -> None:
        """A group of a way out: ``naturals`` and ``wilds`` cards onto the meld of ``rank``,
        the move keeping a card of kind ``keep`` (None: no card)."""
        if rank != BLACK_THREES_MELD:
            self.by_rank.setdefault(rank, []).append(
                (naturals, wilds, keep == DEUCE, keep == JOKER))

    def prove(self, plan: Plan) -> bool:
        """Whether a way out holds the cards of ``plan``, a checked meld of one group."""
        if len(plan.groups) != 1:
            return False
        gp = plan.groups[0]
        ways = self.by_rank.get(gp.rank)
        if ways is None:
            return False
        n = d = j = 0
        for card in gp.cards:
            k = card.kind
            if k == DEUCE:
                d += 1
            elif k == JOKER:
                j += 1
            else:
                n += 1
        last_deuce = d > 0 and d == self.deuces  # the meld lays the last of them
        last_joker = j > 0 and j == self.jokers
        for gn, gw, keeps_deuce, keeps_joker in ways:
            if (gn >= n and gw >= d + j and not (last_deuce and keeps_deuce)
                    and not (last_joker and keeps_joker)):
                return True
        return False


def _cards_left(state: HandState, plan: Plan) -> int:
    """The cards the seat to act holds after the checked meld ``plan``, counted as
    ``check_meld`` counts them (with the cards a first canasta brings)."""
    seat = state.turn
    side = state.side_of(seat)
    v = state.rules.variant
    size = v.canasta_size
    melds = state.melds[side]
    before = state.canastas(side)
    after = before
    laid = 0
    for gp in plan.groups:
        laid += len(gp.cards)
        if gp.rank != BLACK_THREES_MELD:
            had = melds[gp.joins].size if gp.joins >= 0 else 0
            if had < size <= had + len(gp.cards):
                after += 1
    return len(state.hands[seat]) - laid + v.cards_joining(state, seat, side, before, after)


MAX_WILD_ADDS = 48  # wild additions tried per question (each a check and a copy)


def _exactly_out(state: HandState, side: int, c: list[int], memo: _Memo,
                 keeps: list[int | None]) -> bool:
    """Whether the seat to act can go out by moves the engine accepts: the whole hand (but a
    card to discard) in one move, possibly after adding wild cards one by one to melds of ranks
    it holds no natural card of, or that the wild cards alone close where closed ranks reopen
    (such additions are moves of their own).

    The additions are searched depth first, the biggest melds first and each set of additions
    once (a wild card's kind never matters to where it may go), within ``MAX_WILD_ADDS`` tries:
    a route found is a real one, so the search can only miss a rare route, never invent one.
    ``memo`` and ``keeps``: what ``can_go_out`` has counted of this position already."""
    if any(_legal(state, m) for m in _going_out(state, True, c, memo=memo, keeps=keeps)):
        return True
    if not (c[DEUCE] or c[JOKER]):
        return False
    # Counting first (``_feasible`` lets melds of ranks not in hand take wild cards): where
    # even the counts find no way out, no order of moves does.
    if not any(_feasible(state, side, _less(c, k), memo) for k in keeps):
        return False
    melds = state.melds[side]
    held = {NATURAL_RANKS[k] for k in range(len(NATURAL_RANKS)) if c[k]}
    order = sorted((i for i, m in enumerate(melds)
                    if m.rank in NATURAL_RANKS and state.find_meld(side, m.rank) == i
                    and (m.rank not in held or _wilds_close_first(state, side, c, i))),
                   key=lambda i: -melds[i].size)
    if not order:
        return False
    if state.answer == "yes":  # the same routes, without checking each step against the yes
        state = state.copy()
        state.answer = None
    return _out_after_adds(state, side, c, order, 0, [MAX_WILD_ADDS])


def _wilds_close_first(state: HandState, side: int, c: list[int], i: int) -> bool:
    """Whether the hand's natural cards of the rank of meld ``i`` can go down only once wild
    cards alone have closed that meld (where closed ranks reopen): no move lays both, so the
    wild cards go on first, one by one."""
    v = state.rules.variant
    m = state.melds[side][i]
    wilds = c[DEUCE] + c[JOKER]
    if not v.reopens_closed_ranks or m.size + wilds < v.canasta_size:
        return False
    k = NATURAL_RANKS.index(m.rank)
    return any(not _rank_melds(state, side, k, n, wilds, i, True)
               and bool(_rank_melds(state, side, k, n, wilds, i, False))
               for n in {c[k], c[k] - 1} if n > 0)


def _less(c: list[int], k: int | None) -> list[int]:
    """Kind counts ``c`` without one card of kind ``k`` (the same counts when ``k`` is None)."""
    if k is None:
        return c
    out = list(c)
    out[k] -= 1
    return out


def _out_after_adds(state: HandState, side: int, c: list[int], order: list[int], start: int,
                    budget: list[int]) -> bool:
    kind = DEUCE if c[DEUCE] else JOKER
    card = state.counts(state.turn).by_kind[kind][0]
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
            plan = check_meld(state, Move.add(m.rank, [card]), state.turn, True)
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
    """Whether a meld that goes out (or leaves the last card to discard) is legal: such a move
    keeps the player able to go out, so a yes asks nothing more of it."""
    try:
        check_meld(state, move, state.turn, True)
    except IllegalMove:
        return False
    return True


def _splits(groups: list[_Group], wilds: int) -> Iterator[list[int]]:
    """Every way to share ``wilds`` wild cards among the groups within their limits, in
    lexicographic order (the first group's fewest first)."""
    n = len(groups)
    if not n:
        if not wilds:
            yield []
        return
    los = [g[3] for g in groups]
    his = [g[4] for g in groups]
    # What the groups after each one can take at least and at most: each group's share then
    # ranges over an interval, and every share in it leaves the rest a way to go on.
    rest_lo, rest_hi = [0] * (n + 1), [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        if los[i] > his[i]:
            return
        rest_lo[i] = rest_lo[i + 1] + los[i]
        rest_hi[i] = rest_hi[i + 1] + his[i]
    if not rest_lo[0] <= wilds <= rest_hi[0]:
        return
    # An odometer (no generator per group, no list per group and way): ``left[i]``, the wild
    # cards for groups ``i`` on; each group from its fewest on, the last one the rest.
    split = [0] * n
    left = [0] * (n + 1)
    left[0] = wilds
    i = 0
    while True:
        while i < n:  # each group from ``i`` on takes its fewest
            w = left[i]
            t = los[i] if los[i] > w - rest_hi[i + 1] else w - rest_hi[i + 1]
            split[i] = t
            left[i + 1] = w - t
            i += 1
        yield list(split)
        # The last group but one that may take one more, the groups after it from their
        # fewest again.
        i = n - 2
        while i >= 0:
            w = left[i]
            if split[i] < his[i] and split[i] < w - rest_lo[i + 1]:
                break
            i -= 1
        if i < 0:
            return
        split[i] += 1
        left[i + 1] -= 1
        i += 1


MAX_SHARES = 300  # ways to share the wild cards tried per leftover card (huge Ponytail hands)
MIN_SHARES = 30  # ... and at least per layout of the ranks


def going_out_moves(state: HandState, leave_one: bool, c: list[int] | None = None,
                    by_kind: list[list[Card]] | None = None,
                    ways: WaysOut | None = None, checked: bool = False) -> list[Move]:
    """Moves that meld the whole hand at once (and, with ``leave_one``, all but one card, to
    discard next): one per distinct score.  Only the cards in hand are shared out: wild cards
    join groups that hold natural cards of the hand (or a wild-card meld).  ``ways`` records
    their groups; ``checked``: ``out_of_reach`` has said no of these counts already."""
    seat = state.turn
    if c is None:
        c = state.counts(seat).kinds
    if not checked and out_of_reach(state, state.side_of(seat), c, leave_one):
        return []  # (most questions: no generator made)
    return list(_going_out(state, leave_one, c, by_kind, checked=True, ways=ways))


def out_of_reach(state: HandState, side: int, c: list[int], leave_one: bool) -> bool:
    """Counts that no move going out at once can lay (kind counts ``c`` of the seat to act):
    a red three in hand, more lone natural cards of ranks with no meld to join than the one
    card to discard, more pairs of such ranks than wild cards (each pair needs one; discarding
    a card of a pair leaves a lone card, a wild card one wild card less), or no meld within
    reach of the one canasta missing (``_canasta_within_reach``)."""
    if c[RED_THREE]:
        return True
    joinable = state.meld_index(side).joinable
    lone = 0
    pairs = 0
    for k in range(len(NATURAL_RANKS)):
        n = c[k]
        if 0 < n < 3 and NATURAL_RANKS[k] not in joinable:
            if n == 1:
                if lone == leave_one:
                    return True  # (most questions end here, at the first lone cards)
                lone += 1
            else:
                pairs += 1
    return pairs > c[DEUCE] + c[JOKER] or not _canasta_within_reach(state, side, c)


def _going_out(state: HandState, leave_one: bool, c: list[int] | None = None,
               by_kind: list[list[Card]] | None = None, memo: _Memo | None = None,
               keeps: list[int | None] | None = None, checked: bool = False,
               ways: WaysOut | None = None) -> Iterator[Move]:
    """The moves of ``going_out_moves``, one by one (``checked``: ``out_of_reach`` has said
    no of these counts already)."""
    seat = state.turn
    side = state.side_of(seat)
    if c is None:
        c = state.counts(seat).kinds
    if not checked and out_of_reach(state, side, c, leave_one):
        return
    if by_kind is None:
        by_kind = state.counts(seat).by_kind
    v = state.rules.variant
    need = state.canastas_needed()
    if memo is None:
        memo = _Memo()
    options: Iterable[int | None]
    if keeps is not None:
        options = keeps
    elif v.exact_going_out:
        options = _keeps(state, side, c, memo, v.may_meld_out, leave_one)
    else:
        options = [None] if v.may_meld_out else []
        if leave_one:
            options += _discard_kinds(state, seat)
    done: dict[tuple[tuple[str, bool], ...], bool] = {}
    for opt in options:
        cc = list(c)
        if opt is not None:
            cc[opt] -= 1
        b = cc[BLACK_THREE]
        if not _feasible(state, side, cc, memo):
            continue
        if not any(cc[k] for k in range(len(NATURAL_RANKS))) and not b and not (
                v.has_wild_melds(state.rules)):
            yield from _wilds_onto_one_meld(state, side, cc, by_kind, need, opt, ways)
            continue
        seen: set[tuple[object, ...]] = set()
        layouts = _layouts(state, side, cc, True, memo)
        # The layouts share the budget (the first, one group per rank where that fits, takes
        # it all when it is the only one).
        each = max(MAX_SHARES // max(len(layouts), 1), MIN_SHARES)
        wilds = cc[DEUCE] + cc[JOKER]
        for natural in layouts:
            tries = each  # the ways to share the wild cards tried for this layout
            for groups in _share_groups(state, side, natural, wilds):
                sharing = _Sharing(state, side, groups, cc, by_kind, opt, ways)
                for split in _splits(groups, wilds):
                    if tries <= 0:
                        break
                    tries -= 1
                    move = sharing.move(split, seen, done)
                    if move is not None:
                        yield move


@mypyc_attr(allow_interpreted_subclasses=True)  # like every compiled class: see HandState
class _Sharing:
    """The groups of one layout of the hand (``groups``: each rank's natural cards, and the
    side's wild meld where the variant has one) with the card kept (``opt``), worked out once
    for every way to share the wild cards among them (``move``): for each group, the meld it
    joins (or None), its size before, its wild cards before and its natural cards."""

    __slots__ = ("base", "black_threes", "deuces", "groups", "need", "opt", "side", "size",
                 "state", "ways", "wild_cards")

    def __init__(self, state: HandState, side: int, groups: list[_Group], c: list[int],
                 by_kind: list[list[Card]], opt: int | None, ways: WaysOut | None) -> None:
        self.state = state
        self.ways = ways  # (records the moves made)
        self.side = side
        self.opt = opt
        self.size = state.rules.variant.canasta_size
        self.base = state.canastas(side)
        self.need = state.canastas_needed()
        self.deuces = c[DEUCE]
        # The lowest cards of each kind go down (the card kept is the highest of its kind).
        self.wild_cards = tuple(by_kind[DEUCE]), tuple(by_kind[JOKER])
        b = c[BLACK_THREE]
        self.black_threes = tuple(by_kind[BLACK_THREE][:b])
        melds = state.melds[side]
        npos: dict[int, int] = {}
        out: list[tuple[str, int, Meld | None, int, int, tuple[Card, ...]]] = []
        for r, k, n, _lo, _hi, mi in groups:
            old = melds[mi] if mi >= 0 else None
            start = npos.get(k, 0)
            npos[k] = start + n
            out.append((r, n, old, old.size if old else 0, old.wilds if old else 0,
                        tuple(by_kind[k][start:start + n]) if n else ()))
        self.groups = out

    def move(self, split: list[int], seen: set[tuple[object, ...]],
             done: dict[tuple[tuple[str, bool], ...], bool]) -> Move | None:
        """The move that lays the groups with ``split`` wild cards each (and the black threes),
        or None when it falls short of the canastas needed (``done``: whether the canastas a
        move completes, by rank and wild cards, are enough) or scores as one already made
        (``seen``)."""
        size = self.size
        made = self.base
        # The hand ends at once, so only what scores tells these moves apart: which melds of
        # which rank become canastas and which of them stay natural.
        signature: list[tuple[object, ...]] = []
        closing: list[tuple[str, bool]] = []  # the canastas it completes: rank, with wild cards
        dleft = self.deuces
        for (r, n, _old, before, w0, _nat), t in zip(self.groups, split, strict=True):
            if n + t == 0:
                continue
            is_canasta = before + n + t >= size
            mixed = t + w0 > 0
            if is_canasta and before < size:
                made += 1
                closing.append((r, mixed))
            if r == WILD_MELD:
                d = t if t < dleft else dleft
                signature.append((r, is_canasta, mixed, (d, t - d)))
            else:
                signature.append((r, is_canasta, mixed, None))
            dleft = dleft - t if t < dleft else 0
        key = (self.opt, *sorted(signature))
        if made < self.need or key in seen:
            return None
        seen.add(key)
        # Enough canastas, but maybe not of the kinds the variant asks for (Ponytail): their
        # rank and whether they hold wild cards tell, so the answer is kept for the same ones.
        kinds = tuple(sorted(closing))
        ok = done.get(kinds)
        if ok is False:
            return None
        deuces, jokers = self.wild_cards
        cards_groups: list[tuple[Card, ...]] = []
        closers: list[Meld] = []
        joins = 0
        jpos, dpos = 0, 0
        dleft = self.deuces
        for (r, n, old, before, _w0, nat), t in zip(self.groups, split, strict=True):
            if n + t == 0:
                continue
            d = t if t < dleft else dleft
            dleft -= d
            g = nat
            if d:
                g += deuces[dpos:dpos + d]
                dpos += d
            if t > d:
                g += jokers[jpos:jpos + t - d]
                jpos += t - d
            cards_groups.append(g)
            if old is not None:
                joins += 1
            if ok is None and before < size <= before + n + t:
                closers.append(old.plus(g) if old else Meld(r, g))
        state = self.state
        if ok is None:
            melds = [m for m in state.melds[self.side] if m.size >= size] + closers
            ok = done[kinds] = not state.rules.variant.canastas_missing(state.rules, melds)
            if not ok:
                return None
        if self.black_threes:
            cards_groups.append(self.black_threes)
        if not cards_groups:
            return None
        ways = self.ways
        if ways is not None:
            for (r, n, _old, _before, _w0, _nat), t in zip(self.groups, split, strict=True):
                if n + t:
                    ways.add(r, n, t, self.opt)
        if len(cards_groups) == 1 and joins == 1:
            return Move.add(group_rank(cards_groups[0]), cards_groups[0])
        # The groups come in rank order (the wild cards' meld, then the black threes, last),
        # each in card order (natural cards, deuces, jokers: card ids follow the kinds): the
        # order ``Move.meld`` would sort them into.
        return Move(_MELD, tuple(cards_groups))


def _share_groups(state: HandState, side: int, natural: list[_Group],
                  wilds: int) -> list[list[_Group]]:
    """The groups that go down, among which the wild cards are shared: the natural cards'
    groups and, where the variant has them, the side's wild meld."""
    v = state.rules.variant
    if v.has_wild_melds(state.rules) and wilds:
        w = state.find_meld(side, WILD_MELD)
        if w >= 0:
            room = v.canasta_size - state.melds[side][w].size
            return [[*natural, (WILD_MELD, WILD_KIND, 0, 0, room, w)]]
        return [natural, [*natural, (WILD_MELD, WILD_KIND, 0, 3, v.canasta_size, -1)]]
    return [natural]


def _wilds_onto_one_meld(state: HandState, side: int, c: list[int],
                         by_kind: list[list[Card]], need: int, opt: int | None,
                         ways: WaysOut | None) -> list[Move]:
    """A hand of wild cards only (``c``: but the card kept, of kind ``opt``), all added to one
    meld that they turn into a canasta (recorded in ``ways``)."""
    wilds = by_kind[DEUCE][:c[DEUCE]] + by_kind[JOKER][:c[JOKER]]
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
            if ways is not None:
                ways.add(m.rank, 0, len(wilds), opt)
    return out
