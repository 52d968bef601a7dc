"""Modern American Canasta: 4 players in partnerships (RULES.md section C, decisions of E).

Not played, as the source says: special hands that go out without canastas, the turn card near
the bottom of the stock, play over the pile once the stock is exhausted, the last discard face
down, keeping a three back for a special hand, and (with the turn card) the talon of bonus cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

from canasta.cards import BLACK_THREE, DEUCE, JOKER, N_KINDS, NATURAL_RANKS, RED_THREE, Card
from canasta.errors import Refusal
from canasta.moves import WILD_MELD
from canasta.mypyc_attrs import mypyc_attr
from canasta.options import Option
from canasta.variants.base import MIN_CARDS, MIN_NATURALS, MeldLimits, Variant, melds_after

if TYPE_CHECKING:
    from canasta.engine.melds import Meld
    from canasta.engine.plans import GroupPlan
    from canasta.engine.state import HandState
    from canasta.rules import Rules

MAX_MELD = 7
THREES_POINTS = (0, 100, 300, 500, 1000)  # by the number of threes of one colour (C.4)

# The refusals without parameters, built once (``Refusal``: the listing asks for many).
DISCARD_THREE: Final = Refusal("discard.three")
DISCARD_WILD: Final = Refusal("discard.wild")
DISCARD_EMPTY_PILE_ACE_SEVEN: Final = Refusal("discard.empty_pile_ace_seven")
DISCARD_EMPTY_PILE_CLOSED: Final = Refusal("discard.empty_pile_closed")
WILD_CANASTA_FINISHED: Final = Refusal("meld.wild_canasta_finished")
MAX_SEVEN: Final = Refusal("meld.max_seven")
WILD_MELD_ONLY_WILDS: Final = Refusal("meld.wild_meld_only_wilds")
SEVENS_NO_WILDS: Final = Refusal("meld.sevens_no_wilds")
ACES_WILDS_INITIAL: Final = Refusal("meld.aces_wilds_initial")
WILDS_FIVE_NATURALS: Final = Refusal("meld.wilds_five_naturals")
WILDS_TO_WILD_MELD: Final = Refusal("meld.wilds_to_wild_meld")
INITIAL_CLEAN: Final = Refusal("meld.initial_clean")
INITIAL_WILD_AND_MIXED: Final = Refusal("meld.initial_wild_and_mixed")

#: E-18: the talon of bonus cards depends on the turn card, which the site does not play (so
#: the talon is off, with no other choice).
TALON_ENABLED: Final[Option[bool]] = Option("talon_enabled", False, (False,))


#: No rank closed (``dead_ranks``).
_NO_RANKS: Final[frozenset[str]] = frozenset()


def dead_ranks(state: HandState) -> frozenset[str]:
    """Ranks closed to everyone: some side has a natural canasta of them (C.5, E-20).  (No
    set is built while none is, the common case: every listing asks, ``meld_limits``.)"""
    out = _NO_RANKS
    for side in range(state.rules.n_sides):
        dead = state.meld_index(side).natural_canastas
        if dead:
            out = out | dead
    return out


def is_dead(state: HandState, rank: str) -> bool:
    # Asked for every candidate meld the listing weighs: a plain loop, no generator.
    for side in range(state.rules.n_sides):
        if rank in state.meld_index(side).natural_canastas:
            return True
    return False


def in_opening(state: HandState, side: int) -> bool:
    """Whether a meld made now is part of the side's initial meld (E-25): the side has not
    opened, or it opened this turn after drawing from the stock."""
    melds = state.melds[side]
    if not melds:
        return True
    if state.drew != "stock":
        return False
    new_ranks = state.facts.new_ranks
    opening = True
    for m in melds:  # (a plain loop, no generator: the listing asks this often)
        if m.rank not in new_ranks:
            opening = False
            break
    return opening


def _rank_class(rank: str, dead: frozenset[str]) -> int:
    """Where a natural card of ``rank`` comes in the order of discards on an empty pile (C.8):
    live ranks other than aces and sevens, then closed ones, then aces and sevens."""
    return 2 * (rank in ("A", "7")) + (rank in dead)


#: ``ModernAmerican.discard_kinds`` on a pile with cards, by whether wild cards may go: any
#: natural card, never a three.
_ANY_NATURAL: Final = tuple(
    tuple(k < len(NATURAL_RANKS) or (wilds and k in (DEUCE, JOKER)) for k in range(N_KINDS))
    for wilds in (False, True))


#: How wild cards may join a meld of a natural rank (E-26, C.6, C.5): never (the side's wild
#: meld is unfinished), as in the opening (any rank but sevens), or later (five natural cards,
#: neither sevens nor aces).
_WILDS_NEVER, _WILDS_OPENING, _WILDS_LATER = 0, 1, 2


def _wilds_from(way: int) -> tuple[int, ...]:
    """``MeldLimits.wilds_from``: by rank, the fewest natural cards a meld needs for wild
    cards to join it."""
    out = []
    for r in NATURAL_RANKS:
        if way == _WILDS_NEVER or r == "7" or (r == "A" and way != _WILDS_OPENING):
            out.append(MAX_MELD + 1)
        else:
            out.append(0 if way == _WILDS_OPENING else 5)
    return tuple(out)


#: ``ModernAmerican.meld_limits`` by the ranks closed to the side and how wild cards may join.
_LIMITS: Final[dict[tuple[frozenset[str], int], MeldLimits]] = {}
_MAX_LIMITS_KEPT = 4096  # (a table has few; a long-lived process meets more)


@mypyc_attr(allow_interpreted_subclasses=True)  # a variant registered from outside may extend it
class ModernAmerican(Variant):
    name: ClassVar[str] = "modern-american"
    title: ClassVar[str] = "Modern American Canasta"
    aliases: ClassVar[tuple[str, ...]] = ("modern", "american", "modern-american-canasta")
    player_counts: ClassVar[tuple[int, ...]] = (4,)
    default_players: ClassVar[int] = 4
    declared_options: ClassVar[tuple[Option[Any], ...]] = (TALON_ENABLED,)
    max_wilds: ClassVar[int] = 2
    canasta_size: ClassVar[int] = MAX_MELD
    black_three_meld_sizes: ClassVar[tuple[int, ...]] = (99, 99)  # threes are never melded
    going_out_bonus: ClassVar[int] = 100
    concealed_bonus: ClassVar[int] = 100  # no extra bonus for going out in one turn (C.9)
    wild_melds: ClassVar[bool] = True
    ask_once_per_hand: ClassVar[bool] = True
    top_card_counts_for_minimum: ClassVar[bool] = False
    may_meld_out: ClassVar[bool] = False
    concealed_waives_minimum: ClassVar[bool] = False
    pile_after_stock: ClassVar[bool] = False
    last_three_stays_in_hand: ClassVar[bool] = True
    exact_going_out: ClassVar[bool] = True
    check_listed_openings: ClassVar[bool] = True
    splash_opens: ClassVar[bool] = True

    def hand_size(self, players: int) -> int:
        return 13

    def draw_count(self, players: int) -> int:
        return 1

    def canastas_to_go_out(self, players: int) -> int:
        return 2

    def default_target(self, players: int) -> int:
        return 8500

    def initial_minimum(self, score: int, hand_number: int, rules: Rules) -> int:
        if score < 3000:
            return 125
        if score < 5000:
            return 155
        return 180

    # --- threes and the pile -------------------------------------------------------------
    def laid_on_sight(self, c: Card) -> bool:
        return c.kind in (RED_THREE, BLACK_THREE)

    def start_pile(self, state: HandState) -> None:
        """No upcard: the pile starts empty (C.2)."""

    def freezes_pile(self, c: Card) -> bool:
        return c.is_wild

    def take_error(self, state: HandState, side: int, top: Card, naturals: int, wilds: int,
                   existing: Meld | None) -> Refusal | None:
        if naturals < 2:
            return Refusal("pile.natural_pair", rank=top.rank)
        if existing is not None and existing.size > 4:
            return Refusal("pile.meld_too_big", rank=top.rank, size=existing.size)
        return None

    def discard_error(self, state: HandState, seat: int, c: Card, going_out: bool,
                      hand: Sequence[Card] | None = None) -> Refusal | None:
        if c.kind in (RED_THREE, BLACK_THREE):
            return DISCARD_THREE
        if hand is None:
            hand = state.hands[seat]
        if c.is_wild:
            if going_out or all(x.is_wild for x in hand):
                return None
            return DISCARD_WILD
        if state.pile:
            return None
        # C.8 on an empty pile: live naturals other than A/7, then dead ones, then A/7.
        dead = dead_ranks(state)
        if hand is state.hands[seat]:
            # The listing asks this for every kind in hand: read the ranks off its counts.
            kinds = state.counts(seat).kinds
            best = min(_rank_class(NATURAL_RANKS[k], dead)
                       for k in range(len(NATURAL_RANKS)) if kinds[k])
        else:
            best = min(_rank_class(x.rank, dead) for x in hand if x.is_natural)
        if _rank_class(c.rank, dead) == best:
            return None
        if c.rank in ("A", "7"):
            return DISCARD_EMPTY_PILE_ACE_SEVEN
        return DISCARD_EMPTY_PILE_CLOSED

    def discard_kinds(self, state: HandState, seat: int, going_out: bool) -> Sequence[bool]:
        # ``discard_error`` for every kind in hand at once: no threes; wild cards only going
        # out or from a hand of wild cards only; on an empty pile, the natural cards of the
        # first class of C.8 the hand holds (the ranks closed to everyone read once).
        kinds = state.counts(seat).kinds
        wilds = going_out or kinds[DEUCE] + kinds[JOKER] == len(state.hands[seat])
        if state.pile:
            return _ANY_NATURAL[wilds]  # (built once: the listing asks at every discard)
        out = [False] * N_KINDS
        out[DEUCE] = out[JOKER] = wilds
        dead = dead_ranks(state)
        classes = [_rank_class(r, dead) for r in NATURAL_RANKS]
        held = [classes[k] for k in range(len(NATURAL_RANKS)) if kinds[k]]
        if held:
            best = min(held)
            for k in range(len(NATURAL_RANKS)):
                out[k] = classes[k] == best
        return out

    # --- melds ---------------------------------------------------------------------------
    def counts_error(self, state: HandState, side: int, rank: str, naturals: int, deuces: int,
                     jokers: int) -> Refusal | None:
        wilds = deuces + jokers
        size = naturals + wilds
        j = state.find_meld(side, rank)
        existing = state.melds[side][j] if j >= 0 else None
        if existing is not None and existing.size >= MAX_MELD:
            if rank == WILD_MELD:
                return WILD_CANASTA_FINISHED
            return Refusal("meld.canasta_finished", rank=rank)
        if size > MAX_MELD:
            return MAX_SEVEN
        if rank == WILD_MELD:
            if naturals:
                return WILD_MELD_ONLY_WILDS
            if size < 3:
                return MIN_CARDS
            return None
        if size < 3:
            return MIN_CARDS
        if naturals < 2:
            return MIN_NATURALS
        if is_dead(state, rank):
            return Refusal("meld.rank_closed", rank=rank)
        added = wilds - (existing.wilds if existing is not None else 0)
        if wilds > self.max_wilds:
            return Refusal("meld.max_wilds", most=self.max_wilds)
        if added <= 0:
            return None
        return self._adding_wilds_error(state, side, rank, naturals)

    def _adding_wilds_error(self, state: HandState, side: int, rank: str,
                            naturals: int) -> Refusal | None:
        """Why wild cards may not be added to a meld of ``rank`` that will hold ``naturals``
        natural cards, or None (C.5, C.6, E-26)."""
        if rank == "7":
            return SEVENS_NO_WILDS
        opening = in_opening(state, side)
        if rank == "A" and not opening:
            return ACES_WILDS_INITIAL
        if not opening and naturals < 5:
            return WILDS_FIVE_NATURALS
        w = state.find_meld(side, WILD_MELD)
        if w >= 0 and state.melds[side][w].size < MAX_MELD:
            return WILDS_TO_WILD_MELD
        return None

    def meld_limits(self, state: HandState, side: int) -> MeldLimits | None:
        # ``counts_error`` for the natural ranks, read off the table once: a rank closed to
        # everyone or whose meld is a finished canasta takes no card (C.5, E-20), seven cards
        # at most, ``max_wilds`` wild cards at most, and wild cards join only where
        # ``_adding_wilds_error`` allows (C.5, C.6, E-26).  Every listing asks, and few tables
        # occur: the limits are built once for each set of closed ranks and each of the three
        # ways wild cards may join (``_wilds_from``).
        closed = dead_ranks(state)
        melds = state.melds[side]
        if melds:
            joinable = state.meld_index(side).joinable
            for r, mi in joinable.items():
                if melds[mi].size >= MAX_MELD:
                    closed = closed | {r}
            w = joinable.get(WILD_MELD, -1)
            if w >= 0 and melds[w].size < MAX_MELD:
                way = _WILDS_NEVER
            else:
                way = _WILDS_OPENING if in_opening(state, side) else _WILDS_LATER
        else:
            way = _WILDS_OPENING  # (``in_opening``: a side without melds is opening)
        key = (closed, way)
        limits = _LIMITS.get(key)
        if limits is None:
            if len(_LIMITS) >= _MAX_LIMITS_KEPT:
                _LIMITS.clear()
            open_ = tuple(r not in closed for r in NATURAL_RANKS)
            limits = _LIMITS[key] = MeldLimits(open_, MAX_MELD, (-1, -1, self.max_wilds),
                                               _wilds_from(way))
        return limits

    def wild_range(self, state: HandState, side: int, rank: str, naturals: int,
                   existing: Meld | None) -> tuple[int, int] | None:
        n = naturals + (existing.naturals if existing else 0)
        d0 = existing.deuces if existing else 0
        j0 = existing.jokers if existing else 0
        if rank == WILD_MELD:
            ok = [x for x in range(MAX_MELD + 1)
                  if self.counts_error(state, side, rank, n, d0 + x, j0) is None]
            return (ok[0], ok[-1]) if ok else None
        # ``counts_error`` solved for the number of wild cards x (the listing and the going-out
        # search ask this often): the limits of size and of wild cards bound x, and adding wild
        # cards beyond those the side's meld holds passes the same tests whatever x is.
        j = state.find_meld(side, rank)
        meld = state.melds[side][j] if j >= 0 else None
        if (meld is not None and meld.size >= MAX_MELD) or n < 2 or is_dead(state, rank):
            return None
        w0 = d0 + j0
        lo = max(0, 3 - n - w0)
        hi = min(MAX_MELD - n - w0, self.max_wilds - w0)
        held = meld.wilds if meld is not None else 0  # x up to held - w0 adds none
        if hi > held - w0 and self._adding_wilds_error(state, side, rank, n) is not None:
            hi = held - w0
        return (lo, hi) if lo <= hi else None

    def wild_adds_need_check(self, state: HandState, side: int) -> bool:
        return bool(state.melds[side]) and in_opening(state, side)

    def move_error(self, state: HandState, side: int,
                   made: list[tuple[GroupPlan, Meld]]) -> Refusal | None:
        # C.6, E-25: after a stock draw the whole opening turn is the initial meld, and it must
        # keep a clean meld of three or more naturals (or a wild-card meld).  (Plain loops:
        # the listing asks this for every opening it composes.)
        melds = state.melds[side]
        opening = in_opening(state, side)
        if melds and opening:
            clean = False
            for m in melds_after(state, side, made):
                if m.rank == WILD_MELD or (m.wilds == 0 and m.naturals >= 3):
                    clean = True
                    break
            if not clean:
                return INITIAL_CLEAN
        # E-26: while the side's wild meld is unfinished (after this move), no wild card may go
        # to another meld -- this also keeps an opening from holding both.
        wild_after = None
        w = state.find_meld(side, WILD_MELD)
        if w >= 0:
            wild_after = melds[w]
        for gp, meld in made:
            if gp.rank == WILD_MELD:
                wild_after = meld
        if wild_after is None or wild_after.size >= MAX_MELD:
            return None
        for gp, meld in made:
            if gp.rank != WILD_MELD and meld.wilds:
                for c in gp.cards:
                    if c.is_wild:
                        return WILDS_TO_WILD_MELD
        if opening:
            # The whole opening turn is one initial meld: no mixed meld beside it either.
            for m in melds:
                if m.rank != WILD_MELD and m.wilds:
                    return INITIAL_WILD_AND_MIXED
            for gp, m in made:
                if gp.rank != WILD_MELD and m.wilds:
                    return INITIAL_WILD_AND_MIXED
        return None

    def initial_count(self, hand_total: int, top: Card | None) -> int:
        return hand_total  # C.6: the opening counts the cards from hand only, never the pile's

    def initial_error(self, state: HandState, side: int, made: list[tuple[GroupPlan, Meld]],
                      hand_total: int, top: Card | None, concealed: bool) -> Refusal | None:
        # C.6: hand cards only; a clean meld of 3+ naturals or a wild meld; a natural or wild
        # canasta straight from hand needs no minimum (E-19).
        first = 0 if top is None else 1  # a take's first group holds the top
        clean = False
        for i, (gp, m) in enumerate(made):
            wild_meld = gp.rank == WILD_MELD
            if i >= first and m.size >= MAX_MELD and (m.wilds == 0 or wild_meld):
                return None
            clean = clean or wild_meld or (m.wilds == 0 and m.naturals >= 3)
        if not clean:
            return INITIAL_CLEAN
        need = state.minimum(side)
        total = self.initial_count(hand_total, top)
        if total >= need:
            return None
        return Refusal("meld.initial_points_hand", need=need, total=total)

    def canasta_bonus(self, meld: Meld) -> int:
        if meld.rank == WILD_MELD:
            if meld.deuces == 7:
                return 3000
            if meld.jokers == 4:
                return 2500
            return 2000
        if meld.wilds:
            return 300
        if meld.rank in ("7", "A"):
            return 2500
        return 500

    # --- scoring -------------------------------------------------------------------------
    def score_side(self, state: HandState, side: int, went_out: bool,
                   concealed: bool) -> dict[str, int]:
        """C.11: the signs of melded cards and threes depend on the side's canastas."""
        melds = state.melds[side]
        canastas = [m for m in melds if m.size >= MAX_MELD]
        count = len(canastas)
        melded = sum(m.value for m in melds)
        reds = sum(1 for c in state.threes[side] if c.kind == RED_THREE)
        blacks = len(state.threes[side]) - reds
        threes = THREES_POINTS[min(reds, 4)] + THREES_POINTS[min(blacks, 4)]
        in_hand = 0
        for seat in range(state.rules.players):
            if state.side_of(seat) == side:
                in_hand += sum(5 if self.laid_on_sight(c) else c.value for c in state.hands[seat])
        return {
            "melded": melded if count else -melded,
            "canastas": sum(self.canasta_bonus(m) for m in canastas),
            "threes": threes if count >= 2 else (0 if count == 1 else -threes),
            "going_out": self.going_out_bonus if went_out else 0,
            "in_hand": -in_hand,
            "penalties": -self.side_penalties(state, side),
        }

    def side_penalties(self, state: HandState, side: int) -> int:
        """C.11: an unfinished meld of sevens, of aces without wild cards or of wild cards;
        three aces or three sevens held in one hand; and what the side's moves incurred."""
        penalties = state.penalties[side]
        for m in state.melds[side]:
            if m.size >= MAX_MELD:
                continue
            if m.rank == "7" or (m.rank == "A" and m.wilds == 0):
                penalties += 2500
            elif m.rank == WILD_MELD:
                penalties += 2500 if m.jokers == 4 else 2000
        for seat in range(state.rules.players):
            if state.side_of(seat) != side:
                continue
            aces = sevens = 0
            for c in state.hands[seat]:
                if c.rank == "A":
                    aces += 1
                elif c.rank == "7":
                    sevens += 1
            penalties += 1500 * ((aces >= 3) + (sevens >= 3))
        return penalties


MODERN_AMERICAN = ModernAmerican()
