"""Ponytail Canasta for 4 or 6 players in partnerships (RULES.md section D, E-33..E-49, H).

Six decks for 4 players, eight for 6; a 15-card hand and a 13-card ponytail each, picked up
(both partners') when the side completes its first canasta; two cards drawn per turn; melds of at
most 7 cards, a closed canasta taking nothing more and its rank free to be melded again.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final, Literal

from canasta.cards import BLACK_THREE, DEUCE, JOKER, NATURAL_RANKS, RED_THREE, Card, cards_from_json
from canasta.errors import PositionError, Refusal
from canasta.moves import WILD_MELD
from canasta.mypyc_attrs import mypyc_attr
from canasta.options import WILD_RATIO, Option
from canasta.variants.base import MIN_CARDS, MeldLimits, Variant, melds_after

if TYPE_CHECKING:
    from canasta.engine.melds import Meld
    from canasta.engine.plans import GroupPlan
    from canasta.engine.state import HandState
    from canasta.rules import Rules

CANASTA = 7
PONYTAIL = 13
FOUR_BOOKS: Final = "four-books"

# The refusals without parameters, built once (``Refusal``: the listing asks for many).
CANASTA_FULL: Final = Refusal("meld.canasta_full")
WILDS_ALONE: Final = Refusal("meld.wilds_alone")
FOUR_BOOKS_SEVENS: Final = Refusal("meld.four_books_sevens")

#: E-40: the canastas needed to go out; "four-books" adds sevens and wild canastas.
REQUIRED_CANASTAS: Final[Option[Literal["natural-mixed", "four-books"]]] = Option(
    "required_canastas", "natural-mixed", ("natural-mixed", FOUR_BOOKS))
#: E-36: the initial-meld minimum by the side's score (Classic table) or by hand number.
MINIMUM_BY: Final[Option[Literal["score", "hand"]]] = Option(
    "minimum_by", "score", ("score", "hand"))
#: E-46: chance that the cutter cuts exactly the cards dealt (+100 to the cutter's side).
CUT_BONUS: Final[Option[float]] = Option("cut_bonus", 0.0)
#: E-45: cards of a ponytail never picked up count against the side.
COUNT_UNPICKED_PONYTAILS: Final[Option[bool]] = Option(
    "count_unpicked_ponytails", False, (False, True))


#: Where ``_table`` keeps what it read in the table's ``Rules.derived`` (the listing and the
#: going-out search ask at nearly every step).
_TABLE_KEY: Final = "ponytail.table"


def _table(rules: Rules) -> tuple[bool, bool]:
    """``(four-books, not-more-wilds)``: the house rules of ``rules`` that Ponytail's hooks
    read, read once per table."""
    derived = rules.derived
    table: tuple[bool, bool] | None = derived.get(_TABLE_KEY)
    if table is None:
        table = derived[_TABLE_KEY] = (rules.option(REQUIRED_CANASTAS) == FOUR_BOOKS,
                                       rules.option(WILD_RATIO) == "not-more-wilds")
    return table


def _four_books(rules: Rules) -> bool:
    return _table(rules)[0]


def _kinds(rules: Rules) -> tuple[str, ...]:
    """The canastas a side needs to go out (D.12, E-40)."""
    if _four_books(rules):
        return ("natural", "mixed", "sevens", "wild")
    return ("natural", "mixed")


def canasta_kind(meld: Meld, rules: Rules) -> str:
    if meld.rank == WILD_MELD:
        return "wild"
    if meld.wilds:
        return "mixed"
    if meld.rank == "7" and _four_books(rules):
        return "sevens"
    return "natural"


SEVEN = NATURAL_RANKS.index("7")


def _fewest_wilds(n: int, size: int, naturals: int, held: int, wilds: int, no_wilds: bool,
                  strict: int) -> int:
    """The fewest wild cards with which ``n`` natural cards of a rank go down, with at most
    ``wilds`` of them, onto the side's unfinished meld of that rank (``size`` cards, of which
    ``naturals`` natural and ``held`` wild; 0 for none) or in new melds: all in one group, or
    closing that meld at 7 and going on with the rest in new melds, as the going-out search
    lays them (``goingout._rank_melds``, in its many-moves form); -1 when they cannot.
    ``no_wilds``: sevens in four-books; ``strict``: 1 where a meld holds fewer wild cards than
    natural ones, 0 where as many may do."""
    best = -1
    total = naturals + n
    if total >= 2:
        most = 0 if no_wilds else min(3, total - strict)
        lo = max(0, 3 - total - held)
        if lo <= min(most, CANASTA - total) - held and lo <= wilds:
            best = lo
    if n + size + wilds < CANASTA + 3:
        return best  # closing the meld leaves no three cards for a new one
    # Each closing group leaves at least the two natural cards a new meld needs.
    a = min(n - 2, CANASTA - size)
    while a >= (0 if size else 1):
        x = CANASTA - size - a
        if x > wilds:
            break
        w = held + x
        if naturals + a >= 2 and w <= 3 and w <= naturals + a - strict and not (no_wilds and w):
            rest = _fewest_wilds(n - a, 0, 0, 0, wilds - x, no_wilds, strict)
            if rest >= 0 and (best < 0 or x + rest < best):
                best = x + rest
        a -= 1
    return best


#: ``Ponytail.meld_limits`` by four-books and the wild-card ratio, built when first asked (the
#: listing asks at every play-phase position), and kept in each table's ``Rules.derived``.
_LIMITS: Final[dict[tuple[bool, bool], MeldLimits]] = {}
_LIMITS_KEY: Final = "ponytail.meld_limits"


@mypyc_attr(allow_interpreted_subclasses=True)  # a variant registered from outside may extend it
class Ponytail(Variant):
    name: ClassVar[str] = "ponytail"
    title: ClassVar[str] = "Ponytail Canasta"
    aliases: ClassVar[tuple[str, ...]] = ("ponytail-canasta", "cola-de-caballo")
    player_counts: ClassVar[tuple[int, ...]] = (4, 6)
    default_players: ClassVar[int] = 4
    declared_options: ClassVar[tuple[Option[Any], ...]] = (
        REQUIRED_CANASTAS, MINIMUM_BY, CUT_BONUS, COUNT_UNPICKED_PONYTAILS)
    max_wilds: ClassVar[int] = 3
    canasta_size: ClassVar[int] = CANASTA
    black_three_meld_sizes: ClassVar[tuple[int, ...]] = (3, 99)
    going_out_bonus: ClassVar[int] = 200
    concealed_bonus: ClassVar[int] = 200
    concealed_waives_minimum: ClassVar[bool] = False
    reopens_closed_ranks: ClassVar[bool] = True
    forced_take_after_stock: ClassVar[bool] = False
    lay_threes_at_turn_start: ClassVar[bool] = True
    last_three_ends_hand: ClassVar[bool] = False
    exact_going_out: ClassVar[bool] = True
    hand_limit: ClassVar[int | None] = 4

    def decks(self, players: int) -> int:
        return 6 if players == 4 else 8

    def hand_size(self, players: int) -> int:
        return 15

    def draw_count(self, players: int) -> int:
        return 2

    def canastas_to_go_out(self, players: int) -> int:
        return 2  # at least; going_out_requirement checks the kinds

    def canastas_required(self, rules: Rules) -> int:
        return len(_kinds(rules))  # one canasta of each required kind

    def canasta_kind(self, meld: Meld, rules: Rules) -> str:
        return canasta_kind(meld, rules)

    def canastas_missing(self, rules: Rules, melds: Sequence[Meld]) -> int:
        have = {canasta_kind(m, rules) for m in melds if m.size >= CANASTA and m.rank != "3"}
        return sum(1 for k in _kinds(rules) if k not in have)

    def default_target(self, players: int) -> int:
        return 50000

    def has_wild_melds(self, rules: Rules) -> bool:
        return _four_books(rules)

    def initial_minimum(self, score: int, hand_number: int, rules: Rules) -> int:
        if rules.option(MINIMUM_BY) == "hand":
            return (50, 90, 120, 150)[min(max(hand_number, 1), 4) - 1]
        return super().initial_minimum(score, hand_number, rules)

    # --- the deal ------------------------------------------------------------------------
    def deal_more(self, state: HandState, stock: list[Card], first: int) -> None:
        """D.3: after the 15-card hands, 13 cards each for the ponytails, one at a time."""
        n = state.rules.players
        tails: list[list[Card]] = [[] for _ in range(n)]
        for _ in range(PONYTAIL):
            for i in range(n):
                tails[(first + i) % n].append(stock.pop())
        state.ponytails = list(tails)

    def upcard_is_buried(self, c: Card) -> bool:
        # D.4 and E-37: a wild card, a seven or a red three is covered and freezes the pile.
        return c.is_wild or c.rank == "7" or c.kind == RED_THREE

    def start_pile(self, state: HandState) -> None:
        super().start_pile(state)
        if any(c.rank == "7" for c in state.pile[:-1]):
            state.start_frozen = True
            state.frozen += 1

    def after_deal(self, state: HandState) -> None:
        chance = state.rules.option(CUT_BONUS)
        if chance <= 0:
            return
        # E-46: the simulated cut, decided by the deal itself so that a record replays it.
        deck = bytes(c.id for h in state.hands for c in h) + bytes(c.id for c in state.stock)
        if zlib.crc32(deck) % 1_000_000 < chance * 1_000_000:
            n = state.rules.players
            first = (state.hand_number - 1) % n
            cutter = (first - 2) % n  # the player to the dealer's right
            state.bonuses[state.side_of(cutter)] += 100

    # --- melds ---------------------------------------------------------------------------
    def counts_error(self, state: HandState, side: int, rank: str, naturals: int, deuces: int,
                     jokers: int) -> Refusal | None:
        size = naturals + deuces + jokers
        if size > CANASTA:
            return CANASTA_FULL
        if rank == WILD_MELD:
            if not self.has_wild_melds(state.rules) or naturals:
                return WILDS_ALONE
            return MIN_CARDS if size < 3 else None
        if (rank == "7" and deuces + jokers
                and _four_books(state.rules)):
            return FOUR_BOOKS_SEVENS
        return self.meld_shape_error(state.rules, naturals, deuces + jokers)

    def meld_limits(self, state: HandState, side: int) -> MeldLimits | None:
        # ``counts_error`` for the natural ranks as data: Classic's shape (``meld_shape_error``)
        # within a canasta's seven cards, and no wild card in a meld of sevens in four-books
        # (a meld of sevens there never holds one, so ``allows`` reads ``w <= w0`` as none).
        # A variant extending Ponytail with limits of its own is asked per candidate.
        cls = type(self)
        if (cls.counts_error is not Ponytail.counts_error
                or cls.meld_shape_error is not Variant.meld_shape_error):
            return None
        derived = state.rules.derived
        limits: MeldLimits | None = derived.get(_LIMITS_KEY)
        if limits is not None:
            return limits
        four, not_more = _table(state.rules)
        key = (four, not_more)
        limits = _LIMITS.get(key)
        if limits is None:
            fewer = not not_more
            most = tuple(-1 if n < 2 else min(self.max_wilds, n - fewer)
                         for n in range(self.max_wilds + 3))
            wilds_from = tuple(CANASTA + 1 if four and k == SEVEN else 0
                               for k in range(len(NATURAL_RANKS)))
            limits = _LIMITS[key] = MeldLimits((True,) * len(NATURAL_RANKS), CANASTA, most,
                                               wilds_from)
        derived[_LIMITS_KEY] = limits
        return limits

    def wild_range(self, state: HandState, side: int, rank: str, naturals: int,
                   existing: Meld | None) -> tuple[int, int] | None:
        # ``counts_error`` solved for the number of wild cards (the going-out search asks this
        # for every rank of every hand it weighs): each of its limits bounds it on one side.
        if rank == WILD_MELD:
            return super().wild_range(state, side, rank, naturals, existing)
        n = naturals + (existing.naturals if existing else 0)
        if n < 2:
            return None
        w0 = existing.wilds if existing else 0
        four, not_more = _table(state.rules)
        if rank == "7" and four:
            most = 0
        else:
            most = min(self.max_wilds, n if not_more else n - 1)
        hi = min(most, CANASTA - n) - w0
        lo = max(0, 3 - n - w0)
        return (lo, hi) if lo <= hi else None

    def going_out_ruled_out(self, state: HandState, side: int, kinds: Sequence[int]) -> bool:
        """Counting alone (D.6, D.12, E-41): no way out this turn when the hand's natural cards
        cannot all go down, but for the one card to discard, with the wild cards it holds
        (``_fewest_wilds``: what each rank needs at least), or when a kind of canasta the side
        lacks cannot be completed from its melds and the hand.  Each bound is generous (every
        route the going-out search tries meets them), so it only answers no where the search
        would: most questions end here, before any layout is built."""
        rules = state.rules
        four, not_more = _table(rules)
        strict = 0 if not_more else 1
        wilds = kinds[DEUCE] + kinds[JOKER]
        melds = state.melds[side]
        joinable = state.meld_index(side).joinable
        # Per rank in hand: its unfinished meld's size, natural and wild cards (0 for none)
        # and the fewest wild cards all its natural cards go down with (-1: they cannot).
        sizes = [0] * len(NATURAL_RANKS)
        nats = [0] * len(NATURAL_RANKS)
        helds = [0] * len(NATURAL_RANKS)
        fewest = [0] * len(NATURAL_RANKS)
        bad = -1  # the one rank whose cards cannot all go down
        total = 0  # the fewest wild cards of the other ranks
        # The kinds of canasta the side could complete this turn: a meld of a rank with every
        # card of it in hand and (but for sevens in four-books) the wild cards.
        natural = mixed = False
        sevens = wild = not four
        for k in range(len(NATURAL_RANKS)):
            n = kinds[k]
            mi = joinable.get(NATURAL_RANKS[k], -1)
            if not n and mi < 0:
                continue
            size = naturals = held = 0
            if mi >= 0:
                m = melds[mi]
                size, naturals, held = m.size, m.naturals, m.deuces + m.jokers
            no_wilds = four and k == SEVEN
            done = (held == 0 and size + n >= CANASTA) or n >= CANASTA
            if no_wilds:
                sevens = sevens or done
            else:
                natural = natural or done
                mixed = mixed or (naturals + n >= 4 and held + wilds >= 1
                                  and size + n + wilds >= CANASTA)
            if not n:
                continue
            f = _fewest_wilds(n, size, naturals, held, wilds, no_wilds, strict)
            if f < 0:
                if bad >= 0:
                    return True  # one discard cannot help two ranks
                bad = k
            else:
                total += f
            sizes[k], nats[k], helds[k], fewest[k] = size, naturals, held, f
        if not (natural and mixed and sevens and wild):
            for m in melds:
                if m.size >= CANASTA and m.rank != "3":
                    kind = canasta_kind(m, rules)
                    natural = natural or kind == "natural"
                    mixed = mixed or kind == "mixed"
                    sevens = sevens or kind == "sevens"
                    wild = wild or kind == "wild"
            wi = joinable.get(WILD_MELD, -1)
            wild = wild or (melds[wi].size if wi >= 0 else 0) + wilds >= CANASTA
            if not (natural and mixed and sevens and wild):
                return True
        limits = self.black_three_meld_sizes
        b = kinds[BLACK_THREE]
        threes_ok = b == 0 or limits[0] <= b <= limits[-1]
        if bad >= 0:  # only a card of that rank discarded may let the others go down
            if not threes_ok:
                return True
            f = 0 if kinds[bad] == 1 else _fewest_wilds(
                kinds[bad] - 1, sizes[bad], nats[bad], helds[bad], wilds, four and bad == SEVEN,
                strict)
            return f < 0 or total + f > wilds
        if total <= wilds and (threes_ok or b == 1 or limits[0] <= b - 1 <= limits[-1]):
            return False  # nothing discarded, or a black three
        if not threes_ok:
            return True
        for k in range(len(NATURAL_RANKS)):  # a natural card discarded
            n = kinds[k]
            if n:
                f = 0 if n == 1 else _fewest_wilds(n - 1, sizes[k], nats[k], helds[k], wilds,
                                                   four and k == SEVEN, strict)
                if f >= 0 and total - fewest[k] + f <= wilds:
                    return False
        # (A wild card discarded leaves every rank as many wild cards to need, and one less.)
        return True

    def going_out_requirement(self, state: HandState, side: int, canastas_after: int,
                              made: Sequence[tuple[GroupPlan, Meld]]) -> Refusal | None:
        have = {canasta_kind(m, state.rules) for m in melds_after(state, side, made)
                if m.size >= CANASTA and m.rank != "3"}
        missing = [k for k in _kinds(state.rules) if k not in have]
        if not missing:
            return None
        return Refusal("out.canasta_kinds", kinds=tuple(missing))

    # --- the ponytail --------------------------------------------------------------------
    def cards_joining(self, state: HandState, seat: int, side: int, canastas_before: int,
                      canastas_after: int) -> int:
        tail = state.ponytails[seat]
        if canastas_before == 0 and canastas_after > 0 and tail is not None:
            return len(tail)
        return 0

    def after_meld(self, state: HandState, seat: int, side: int) -> None:
        """D.8: the side's first canasta picks up both partners' ponytails at once; the
        player lays the red threes in it now, the partner on the partner's next turn (E-42)."""
        if not state.canastas(side):
            return
        for s in range(state.rules.players):
            tail = state.ponytails[s]
            if tail is not None and state.side_of(s) == side:  # (most melds: none is left)
                for c in tail:
                    state.add_to_hand(s, c)
                state.ponytails[s] = None
        state.lay_threes_in_hand(seat)

    # --- scoring -------------------------------------------------------------------------
    def score_side(self, state: HandState, side: int, went_out: bool,
                   concealed: bool) -> dict[str, int]:
        """D.14 per partnership: bonuses, melded cards, less the cards left in hand (a black
        three -100); red threes 100 each; ponytails never picked up do not count (E-45)."""
        rules = state.rules
        melds = state.melds[side]
        bonus = {"natural": 500, "mixed": 300, "sevens": 1500, "wild": 1000}
        in_hand = 0
        count_tails = rules.option(COUNT_UNPICKED_PONYTAILS)
        for seat in range(rules.players):
            if state.side_of(seat) != side:
                continue
            cards = list(state.hands[seat])
            tail = state.ponytails[seat]
            if count_tails and tail is not None:
                cards += tail
            in_hand += sum(100 if c.kind == BLACK_THREE else c.value for c in cards)
        return {
            "melded": sum(m.value for m in melds),
            "canastas": sum(bonus[canasta_kind(m, rules)] for m in melds
                            if m.size >= CANASTA and m.rank != "3"),
            "threes": 100 * sum(1 for c in state.threes[side] if c.kind == RED_THREE),
            "going_out": self.going_out_bonus if went_out else 0,
            "in_hand": -in_hand,
            "penalties": -self.side_penalties(state, side),
            "cut": state.bonuses[side],
        }

    def match_outcome(self, rules: Rules, totals: Sequence[int],
                      hand_number: int) -> tuple[bool, int | None]:
        """D.15: over when a side has the target (50,000) or after 4 hands; the highest total
        wins, a tie for it means another hand (E-47)."""
        best = max(totals)
        if best < rules.target and hand_number < (self.hand_limit or 0):
            return False, None
        leaders = [i for i, t in enumerate(totals) if t == best]
        return (True, leaders[0]) if len(leaders) == 1 else (False, None)

    # --- positions -----------------------------------------------------------------------
    def check_position(self, state: HandState, obj: Any) -> None:
        tails = obj.get("ponytails")
        n = state.rules.players
        if not isinstance(tails, list) or len(tails) != n:
            raise PositionError("position.ponytails", seats=n)
        state.ponytails = [None if t is None else cards_from_json(t, f"ponytail of seat {i}")
                           for i, t in enumerate(tails)]

    def position_extras(self, state: HandState, out: dict[str, Any]) -> None:
        out["ponytails"] = [None if t is None else [c.text for c in t] for t in state.ponytails]


PONYTAIL_VARIANT = Ponytail()
