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

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from canasta.cards import BLACK_THREE, DEUCE, JOKER, N_KINDS, NATURAL_RANKS, Card
from canasta.engine.check import check_move
from canasta.engine.compose import (
    WILD_KIND,
    ByKind,
    Option,
    combo_groups,
    initial_combos,
    kind_cards,
    planned_groups,
    splashes,
)
from canasta.engine.goingout import (
    WaysOut,
    can_go_out,
    going_out_moves,
    must_stay_able_to_go_out,
    out_of_reach,
)
from canasta.engine.melding import going_out_error
from canasta.engine.melds import Meld, MeldIndex
from canasta.engine.plans import PLAIN, Listing, Plan, Spec, spec_plan
from canasta.engine.play import plan_meld
from canasta.engine.takes import must_take, take_moves
from canasta.errors import IllegalMove
from canasta.moves import (
    ADDS,
    ASK,
    DISCARDS,
    DRAW,
    NO,
    PASS,
    WILD_MELD,
    YES,
    Move,
    MoveKind,
    one_group,
)
from canasta.mypyc_attrs import mypyc_attr

if TYPE_CHECKING:
    from canasta.engine.state import HandState
    from canasta.variants.base import MeldLimits


_MELD: Final = MoveKind.MELD  # (a module constant: an enum member is a slow look-up)


def legal_moves(state: HandState) -> list[Move]:
    return list(listing(state, False)[0].moves)


def listing(state: HandState, defer_ask: bool) -> tuple[Listing, bool]:
    """The listing of ``legal_moves`` (kept as ``state.plans``, which callers read and do
    not change), and whether ``ask`` was left out undecided.  ``defer_ask``: where whether
    ``ask`` is legal is the only question left (``ask`` comes last), it is not asked: then
    ``ask`` is legal iff ``can_go_out(state)``, which ``play_out`` asks only when its draw
    falls on that place (most listings never do)."""
    if state.result is not None:
        return Listing(), False
    deferred = False
    if state.asking is not None:
        out = Listing()
        out.add(YES, PLAIN)
        out.add(NO, PLAIN)
    elif state.phase == "draw":
        out = _draw_listing(state)
    else:
        out = Listing()
        deferred = play_moves(state, out, defer_ask)
        if state.answer == "yes":
            out = _bound_to_go_out(state, out)
    # ``apply`` reuses what was worked out here instead of checking these moves again.
    state.plans = out
    return out, deferred


def _draw_listing(state: HandState) -> Listing:
    """The draw phase's listing: ``draw`` while the stock lasts, the ways to take the pile,
    and ``pass`` once the stock is out unless the take is forced."""
    plans: list[Spec] = []
    takes = take_moves(state, plans)
    if state.stock:
        if not takes:
            # Most draw phases take nothing: they share one listing, as a position's listing
            # is read and never changed (``play_out`` adds ``ask`` only to the play phase's).
            return _DRAW_ONLY
        out = Listing()
        out.moves = [DRAW, *takes]
        out.specs = [PLAIN, *plans]
        return out
    out = Listing()
    if takes:
        out.moves = takes  # (lists of this listing's own)
        out.specs = plans
        if not must_take(state, state.turn):
            out.add(PASS, PLAIN)
    return out


#: The listing of a draw phase with a stock and no take of the pile (``_draw_listing``).
_DRAW_ONLY: Final = Listing()
_DRAW_ONLY.add(DRAW, PLAIN)


def _bound_to_go_out(state: HandState, out: Listing) -> Listing:
    """After a yes: the moves that go out at once are always among the choices, and every
    listed move must leave the player able to go out (``check_move`` says which do).

    Where counting alone decides going out (not ``exact_going_out``), the moves that go out at
    once are legal as they are built, and leave one card or none, which is all the yes asks:
    they are listed unchecked, as ``play_moves`` lists them (in a huge hand they are hundreds,
    each a check of every group).  Only the listing's other moves are checked, and there most
    melds of one group need no search: a way out that holds them proves them (``WaysOut``)."""
    t = state.rules.settings
    listed = len(out.moves)
    ways: WaysOut | None = None
    if not state.facts.black_threes_down:  # (after the black threes no meld is legal)
        # Those that keep a card to discard, and those that meld every card where the rules
        # allow it (those of ``going_out_moves(state, False)``, which come first), none twice:
        # each keeps another kind of card, or scores otherwise.  They also prove most melds
        # of the listing: one that a way out holds leaves the player able to go out
        # (``WaysOut``), with no copy and no search.
        ways = WaysOut.of(state)
        outs = going_out_moves(state, True, ways=ways)
        # A move listed already is one of them only if it lays as many cards.
        least = len(state.hands[state.turn]) - 1
        near = [m for m in out.moves if _laid(m) >= least]
        for m in outs:
            if m not in near:
                out.add(m, None)
    counted = not t.exact_going_out
    kept = Listing()
    specs = out.specs
    for i, m in enumerate(out.moves):
        if counted and i >= listed:
            kept.add(m, None)
            continue
        spec = specs[i] if i < listed else None
        if isinstance(spec, Plan):
            # ``check_move`` made it (``_add_checked``), the yes asked already.
            kept.add(m, spec)
        elif spec is not None and spec != PLAIN:
            # One group that the listing found legal as it is: only the yes is left to ask.
            try:
                must_stay_able_to_go_out(state, spec_plan(m, spec), ways)
            except IllegalMove:
                continue
            kept.add(m, spec)
        else:
            plan = _plan(state, m)
            if plan is not None:
                kept.add(m, plan)
    return kept


def _laid(move: Move) -> int:
    """The cards ``move`` lays (none for a move that lays none)."""
    n = 0
    for g in move.groups:
        n += len(g)
    return n


def _plan(state: HandState, move: Move) -> Plan | None:
    """The checked plan of ``move`` (built from the hand's own cards), or None when it is
    illegal."""
    try:
        return check_move(state, move, held=True)
    except IllegalMove:
        return None


def _add_checked(out: Listing, state: HandState, move: Move) -> None:
    """List ``move`` when ``check_move`` accepts it."""
    plan = _plan(state, move)
    if plan is not None:
        out.add(move, plan)


def _add_planned(out: Listing, state: HandState, seat: int, side: int, move: Move,
                 combo: list[tuple[int, Option]]) -> None:
    """List an opening of new melds that ``initial_combos`` composed (``combo``: each group's
    kind and counts, ``move``: its cards) when the rules of the whole move allow it: what
    ``check_meld`` would say, without resolving each group against the table again
    (``planned_groups``)."""
    made = planned_groups(combo, move.groups)
    try:
        plan = plan_meld(state, move, seat, side, move.cards_from_hand(), made)
    except IllegalMove:
        return
    out.add(move, plan)


def _offer(out: Listing, state: HandState, move: Move, fit: int, spec: int) -> None:
    """List ``move`` as it is when its fit needs no check (``spec``: the meld it joins, -1 for a
    new one), otherwise when ``check_move`` accepts it."""
    if fit == _AS_IS:
        out.add(move, spec)
    else:
        _add_checked(out, state, move)


def play_moves(state: HandState, out: Listing, defer_ask: bool = False) -> bool:
    """List the play phase's moves into ``out``; True when ``ask`` was left undecided
    (``defer_ask``: see ``listing``)."""
    seat = state.turn
    rules = state.rules
    side = seat % rules.n_sides  # ``side_of``, inlined (as below ``partner_of``'s test)
    hand = state.hands[seat]
    v = rules.variant
    t = rules.settings
    counts = state.counts(seat)
    c = counts.kinds
    by_kind = counts.by_kind
    able: bool | None = None  # whether the seat can still go out this turn, once asked
    if not state.facts.black_threes_down:
        if state.melds[side]:
            canastas = _opened_melds(state, side, c, by_kind, out)
            b = c[BLACK_THREE]
            if b >= len(hand) - 1:  # (else the range below is empty)
                sizes = t.black_three_meld_sizes
                # The black threes go down last, leaving one card or none: from a hand of
                # black threes only, one of them may be that last discard instead (a
                # different score).
                for s in range(max(sizes[0], len(hand) - 1), min(b, sizes[-1]) + 1):
                    _add_checked(out, state,
                                 Move(_MELD, (tuple(by_kind[BLACK_THREE][:s]),)))
            if (len(hand) <= t.canasta_size + 1 and not canastas
                    and v.cards_joining(state, seat, side, 0, 1)):
                # The first canasta brings cards into the hand (Ponytail: the ponytail):
                # completing it with the last cards of the hand is no going out, and no
                # card-by-card order reaches it.
                for m in _first_canastas(state, side, c, by_kind):
                    if m not in out:
                        _add_checked(out, state, m)
            size = t.canasta_size
            if (t.may_meld_out and state.answer != "no"
                    and len(hand) <= rules.canastas_needed * size  # cheap bound first
                    # Then the counts, which rule out nearly every hand (a lone card of a
                    # rank with no meld, most often), before the missing canastas' kinds.
                    and not out_of_reach(state, side, c, False)
                    and (missing := v.canastas_missing(rules, state.melds[side])) > 0
                    and len(hand) <= missing * size):
                # Going out by melding everything in one move only differs from melding card
                # by card when the missing canastas take the very last cards of the hand.
                more = going_out_moves(state, False, c, by_kind, checked=True)
                if t.exact_going_out:
                    for m in more:
                        if m not in out:
                            _add_checked(out, state, m)
                else:
                    _add_new(out, more)
        else:
            need = state.minimum(side)
            careful = t.check_listed_openings
            bound = state.answer == "yes"  # (then ``check_move`` asks more than ``plan_meld``)
            for combo in initial_combos(state, side, c, need, 0, [], -1):
                groups = combo_groups(by_kind, combo, 0, 0)
                # The groups come in rank order, each in card order: what ``Move.meld`` sorts.
                # (Lists, not generators: no frame of their own in pure Python.)
                m = Move(_MELD, tuple([tuple(g) for g in groups]))
                if not careful and sum([len(g) for g in groups]) < len(hand) - 1:
                    out.add(m, None)  # far from going out: apply checks the minimum
                elif bound:
                    _add_checked(out, state, m)
                else:
                    _add_planned(out, state, seat, side, m, combo)
            for m in splashes(state, side, c, by_kind):
                if m not in out:
                    _add_checked(out, state, m)
            if t.concealed_waives_minimum and state.drew == "stock" and state.answer != "no":
                able = can_go_out(state)
                if able:
                    _add_new(out, going_out_moves(state, True, c, by_kind))
    # Discards: one per kind of card.
    if state.answer != "yes" or len(hand) == 1:
        last = len(hand) == 1
        if not last or going_out_error(state, side, state.canastas(side)) is None:
            moves, specs = out.moves, out.specs
            allowed = v.discard_kinds(state, seat, last)  # once, not a question per kind
            for k in range(N_KINDS):
                cs = by_kind[k]
                if cs and allowed[k]:
                    moves.append(DISCARDS[cs[0].id])
                    specs.append(PLAIN)
    if (rules.players != rules.n_sides and not state.asked[seat] and not state.facts.melded
            and state.answer is None and len(hand) >= 2):
        if able is None:
            if defer_ask:
                return True
            able = can_go_out(state)  # the same question as the concealed going out's above
        if able:
            out.add(ASK, PLAIN)
    return False


def _first_canastas(state: HandState, side: int, c: list[int],
                    by_kind: ByKind) -> list[Move]:
    """Moves that complete a canasta with as many natural cards as the hand allows."""
    t = state.rules.settings
    size = t.canasta_size
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


def _add_new(out: Listing, more: list[Move]) -> None:
    """Moves that go out at once are built to be legal (the self-play tests check every listed
    move against ``check_move``); add those not listed yet (``apply`` checks them)."""
    for m in more:
        if m not in out:
            out.add(m, None)


#: How ``_opened_melds`` lists a candidate (``_fit``): not at all, as it is (``apply`` lays
#: it unchecked), or only once ``check_move`` accepts it.
_NOT: Final = 0
_AS_IS: Final = 1
_CHECKED: Final = 2


def _fit(state: HandState, side: int, left: int, canastas_after: int) -> int:
    """How a meld that leaves ``left`` cards in hand is listed, with the canastas the side
    will have after it."""
    if left >= 2:
        return _AS_IS
    t = state.rules.settings
    if left == 0 and not t.may_meld_out:
        return _NOT
    if t.exact_going_out:
        return _CHECKED  # the going-out requirement depends on the melds made
    return _AS_IS if going_out_error(state, side, canastas_after) is None else _NOT


def _opened_melds(state: HandState, side: int, c: list[int], by_kind: ByKind,
                  out: Listing) -> int:
    """New three-card melds and single-card additions for a side that has opened; the
    side's canastas."""
    v = state.rules.variant
    counts_error = v.counts_error
    # The variant's limits as data (``meld_limits``), read once here instead of a call of
    # ``counts_error`` for every candidate (which ``_AskCountsError`` makes without them),
    # and what they say of the side's melds, worked out once for as long as the melds stay.
    limits = v.meld_limits(state, side)
    index = state.meld_index(side)
    adds = index.listing
    if not isinstance(adds, _Additions) or adds.limits is not limits or limits is None:
        before = index.before
        if isinstance(before, _Additions) and before.limits is limits and limits is not None:
            # One meld changed since (``MeldIndex.after``): only what depends on it is new.
            adds = before.after(index, state.melds[side][index.changed])
        else:
            adds = _Additions(state, side, limits)
        if limits is not None:
            index.listing = adds
            index.before = None
    joins, natural_ok, allows = adds.joins, adds.natural_ok, adds.allows
    new_threes, new_pairs = adds.new_threes, adds.new_pairs
    hand_size = sum(c)
    size = state.rules.settings.canasta_size
    canastas = index.canastas
    where = index.joinable
    melds = state.melds[side]
    deuces, jokers = c[DEUCE], c[JOKER]
    # Nearly every candidate is listed as it is (``_AS_IS``: the hand keeps two cards or
    # more), and those go straight into the listing's lists: this runs at every play-phase
    # listing, where a call per candidate was a good part of its cost.
    moves, specs = out.moves, out.specs
    meld, plain = _MELD, ""
    # A new meld of three cards leaves as many cards whatever its rank.
    new_fit = _AS_IS if hand_size >= 5 else _fit(state, side, hand_size - 3, canastas)

    # Cards come from ``by_kind`` in canonical order, so the moves need no sorting.
    for k in range(len(NATURAL_RANKS)):
        n = c[k]
        if not n:
            continue
        cs = by_kind[k]
        mi = joins[k]
        if mi >= 0:
            ok = natural_ok[k]
            if ok < 0:  # not asked yet of this meld
                m = melds[mi]
                w0 = m.deuces + m.jokers
                ok = natural_ok[k] = int(allows(k, m.naturals + 1, w0, w0))
            if ok:
                move = ADDS[cs[0].id][k]
                if hand_size >= 3:
                    moves.append(move)
                    specs.append(mi)
                else:
                    fit = _fit(state, side, hand_size - 1,
                               canastas + (melds[mi].size + 1 == size))
                    if fit == _AS_IS:
                        moves.append(move)
                        specs.append(mi)
                    elif fit:
                        _add_checked(out, state, move)
            continue
        if n < 2 or not new_fit:
            continue
        # ``_three`` and ``_offer``, inlined for the common case (listed as it is).
        pair = (cs[0].id << 12) | (cs[1].id << 6)
        if n >= 3 and new_threes[k]:
            move = _THREES.get(pair | cs[2].id) or _three(cs[0], cs[1], cs[2])
            if new_fit == _AS_IS:
                moves.append(move)
                specs.append(-1)
            else:
                _add_checked(out, state, move)
        if (deuces or jokers) and new_pairs[k]:
            if deuces:
                move = (_THREES.get(pair | by_kind[DEUCE][0].id)
                        or _three(cs[0], cs[1], by_kind[DEUCE][0]))
                if new_fit == _AS_IS:
                    moves.append(move)
                    specs.append(-1)
                else:
                    _add_checked(out, state, move)
            if jokers:
                move = (_THREES.get(pair | by_kind[JOKER][0].id)
                        or _three(cs[0], cs[1], by_kind[JOKER][0]))
                if new_fit == _AS_IS:
                    moves.append(move)
                    specs.append(-1)
                else:
                    _add_checked(out, state, move)
    wild_adds = adds.wild_adds
    if (deuces or jokers) and wild_adds is None:
        wild_adds = adds.wild_adds = adds.take_wild_cards(melds)
    if (deuces or jokers) and wild_adds:
        check_wilds = v.wild_adds_need_check(state, side)
        deuce_adds = ADDS[by_kind[DEUCE][0].id] if deuces else None
        joker_adds = ADDS[by_kind[JOKER][0].id] if jokers else None
        # The joinable melds in the order of the side's melds that take a wild card (a deuce
        # or a joker: the same); a card of a rank joins that rank's joinable meld, no other.
        for k, mi in wild_adds:
            if hand_size >= 3 and not check_wilds:  # (``_offer``, inlined)
                if deuce_adds is not None:
                    moves.append(deuce_adds[k])
                    specs.append(mi)
                if joker_adds is not None:
                    moves.append(joker_adds[k])
                    specs.append(mi)
                continue
            fit = _AS_IS if hand_size >= 3 else _fit(state, side, hand_size - 1,
                                                     canastas + (melds[mi].size + 1 == size))
            if not fit:
                continue
            if check_wilds:
                fit = _CHECKED
            if deuce_adds is not None:
                _offer(out, state, deuce_adds[k], fit, mi)
            if joker_adds is not None:
                _offer(out, state, joker_adds[k], fit, mi)
    if v.has_wild_melds(state.rules) and deuces + jokers:
        wi = where.get(WILD_MELD, -1)
        if wi >= 0:
            m = melds[wi]
            fit = _AS_IS if hand_size >= 3 else _fit(state, side, hand_size - 1,
                                                     canastas + (m.size + 1 == size))
            for kind, d, j in ((DEUCE, 1, 0), (JOKER, 0, 1)):
                if fit and c[kind] and counts_error(state, side, WILD_MELD, 0, m.deuces + d,
                                                    m.jokers + j) is None:
                    _offer(out, state, ADDS[by_kind[kind][0].id][_WILD_PLACE], fit, wi)
        elif deuces + jokers >= 3 and new_fit:
            # A new wild-card meld also depends on the other melds (E-26): checked in full.
            for d in range(max(0, 3 - jokers), min(3, deuces) + 1):
                if counts_error(state, side, WILD_MELD, 0, d, 3 - d) is None:
                    _add_checked(out, state, one_group(meld, plain, tuple(
                        kind_cards(by_kind, WILD_KIND, 0, d, 3 - d))))
    return canastas


_WILD_PLACE: Final = len(NATURAL_RANKS)  # the meld of wild cards' place in ``ADDS``

#: The new melds of three cards listed so far, by their card ids (``_three``).
_THREES: Final[dict[int, Move]] = {}


def _three(a: Card, b: Card, c: Card) -> Move:
    """``one_group`` of a new meld of these three cards (in canonical order), looked up by
    their ids: an int key hashes at once, where the interned moves' key of cards calls each
    card's ``__hash__`` (three Python calls per candidate in pure Python)."""
    key = (a.id << 12) | (b.id << 6) | c.id  # card ids < 64
    m = _THREES.get(key)
    if m is None:
        m = _THREES[key] = one_group(_MELD, "", (a, b, c))
    return m


@mypyc_attr(allow_interpreted_subclasses=True)  # like every compiled class: see HandState
class _AskCountsError:
    """``MeldLimits.allows`` for a variant that gives no limits as data: its ``counts_error``
    asked for each candidate (only how many wild cards a meld holds matters to whether it may
    stand, never which: docs/ENGINE.md)."""

    __slots__ = ("_side", "_state")

    def __init__(self, state: HandState, side: int) -> None:
        self._state = state
        self._side = side

    def allows(self, k: int, n: int, w: int, w0: int) -> bool:
        state = self._state
        return state.rules.variant.counts_error(state, self._side, NATURAL_RANKS[k], n, w,
                                                0) is None


@mypyc_attr(allow_interpreted_subclasses=True)  # like every compiled class: see HandState
class _Additions:
    """What ``_opened_melds`` reads of one side's melds and the variant's limits (``limits``;
    None: ``counts_error`` asked through ``allows``, for this position only), each worked out
    when first needed: by natural rank index, the meld a card of that rank joins (``joins``,
    -1 for none) and whether a natural card may (``natural_ok``: 1, 0, or -1 not asked yet);
    whether a new meld of three natural cards, or of two and a wild card, may stand
    (``new_threes``, ``new_pairs``); and the melds a wild card may join (rank index, meld
    index), in the order of the side's melds (``wild_adds``, None until asked).  The state
    keeps it with the side's meld index (``MeldIndex.listing``), good for as long as the
    melds and the limits stay the same: the side lists again at every turn of its seats
    until its melds change."""

    __slots__ = ("allows", "joins", "limits", "natural_ok", "new_pairs", "new_threes",
                 "where", "wild_adds")

    allows: Callable[[int, int, int, int], bool]
    joins: list[int]
    limits: MeldLimits | None
    natural_ok: list[int]
    new_threes: tuple[bool, ...]
    new_pairs: tuple[bool, ...]
    where: dict[str, int]
    wild_adds: list[tuple[int, int]] | None

    def __init__(self, state: HandState, side: int, limits: MeldLimits | None) -> None:
        self.limits = limits
        allows = (limits if limits is not None else _AskCountsError(state, side)).allows
        self.allows = allows
        where = self.where = state.meld_index(side).joinable
        joins = [-1] * len(NATURAL_RANKS)
        for r, mi in where.items():
            k = NATURAL_RANKS.find(r)
            if k >= 0:  # (not the wild-card meld or the black threes)
                joins[k] = mi
        self.joins = joins
        self.natural_ok = [-1] * len(NATURAL_RANKS)
        self.wild_adds = None
        if limits is not None:
            self.new_threes = limits.new_threes
            self.new_pairs = limits.new_pairs
        else:
            self.new_threes = tuple([allows(k, 3, 0, 0) for k in range(len(NATURAL_RANKS))])
            self.new_pairs = tuple([allows(k, 2, 1, 0) for k in range(len(NATURAL_RANKS))])

    def after(self, index: MeldIndex, changed: Meld) -> _Additions:
        """These additions for the side's melds ``index``, where one meld changed or was made
        (``changed``) and the limits stayed: what depends on that meld is asked again, the
        rest kept."""
        other = _Additions.__new__(_Additions)
        other.limits = self.limits
        allows = other.allows = self.allows
        other.where = index.joinable
        other.new_threes = self.new_threes
        other.new_pairs = self.new_pairs
        joins = self.joins
        natural_ok = self.natural_ok
        wild_adds = self.wild_adds
        k = NATURAL_RANKS.find(changed.rank)
        if k >= 0:  # (not the wild-card meld or the black threes)
            natural_ok = list(natural_ok)
            natural_ok[k] = -1
            i = index.joinable.get(changed.rank, -1)
            if joins[k] != i:
                # A new meld: the last of the side's melds and of ``where``, the order of
                # ``wild_adds``.
                joins = list(joins)
                joins[k] = i
                if wild_adds is not None and i >= 0:
                    w0 = changed.deuces + changed.jokers
                    if allows(k, changed.naturals, w0 + 1, w0):
                        wild_adds = [*wild_adds, (k, i)]
            elif wild_adds is not None:
                w0 = changed.deuces + changed.jokers
                now = allows(k, changed.naturals, w0 + 1, w0)
                if (k, i) in wild_adds:
                    if not now:
                        wild_adds = [e for e in wild_adds if e[0] != k]
                elif now:
                    wild_adds = None  # (rare) its place among them: worked out again
        other.joins = joins
        other.natural_ok = natural_ok
        other.wild_adds = wild_adds
        return other

    def take_wild_cards(self, melds: list[Meld]) -> list[tuple[int, int]]:
        """``wild_adds``, worked out (``melds``: the side's)."""
        allows = self.allows
        out = []
        for r, mi in self.where.items():
            k = NATURAL_RANKS.find(r)
            if k < 0:
                continue  # the wild-card meld or the black threes
            m = melds[mi]
            w0 = m.deuces + m.jokers
            if allows(k, m.naturals, w0 + 1, w0):  # a deuce or a joker: the same
                out.append((k, mi))
        return out
