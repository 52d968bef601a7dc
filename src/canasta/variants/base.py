"""The variant interface: data plus a few named hooks.

The base class holds the Classic Canasta behaviour (RULES.md section B); another variant is a
subclass that changes the data and overrides the hooks where its rules differ.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

from canasta.cards import DEUCE, JOKER, N_KINDS, NATURAL_RANKS, ONE_OF_KIND, RED_THREE, Card
from canasta.errors import PositionError, Refusal
from canasta.moves import BLACK_THREES_MELD, WILD_MELD
from canasta.mypyc_attrs import mypyc_attr
from canasta.options import WILD_RATIO, Option

if TYPE_CHECKING:
    from canasta.engine.melds import Meld
    from canasta.engine.plans import GroupPlan
    from canasta.engine.state import HandState
    from canasta.rules import Rules

# The refusals without parameters, built once (``Refusal``: the listing asks for many).
MIN_CARDS: Final = Refusal("meld.min_cards")
MIN_NATURALS: Final = Refusal("meld.min_naturals")
WILDS_NOT_MORE: Final = Refusal("meld.wilds_not_more")
WILDS_FEWER: Final = Refusal("meld.wilds_fewer")
OUT_ONE_CANASTA: Final = Refusal("out.one_canasta")
DISCARD_RED_THREE: Final = Refusal("discard.red_three")


#: More natural cards than one meld holds (``MeldLimits._wilds_by_n``).
_BY_N: Final = 64


@mypyc_attr(allow_interpreted_subclasses=True)  # copy and pickle: see HandState
class MeldLimits:
    """What a meld of a natural rank may hold on one side's table now, as data: the listing
    reads it for every candidate meld and addition instead of asking ``counts_error`` about
    each.  A meld of the natural rank of index ``k`` holding ``n`` natural and ``w`` wild cards,
    ``w0`` of those already on the table, may stand when ``open[k]``, ``3 <= n + w <=
    most_cards``, ``w <= most_wilds[min(n, len(most_wilds) - 1)]``, and ``w <= w0`` or ``n >=
    wilds_from[k]`` (``allows``)."""

    __slots__ = ("_wilds_by_n", "most_cards", "most_wilds", "new_melds", "new_pairs",
                 "new_threes", "open", "wilds_from")

    #: by rank index: whether the rank may be melded or added to at all
    open: tuple[bool, ...]
    most_cards: int
    #: by natural cards (the last entry holds for more): the most wild cards (-1: no meld)
    most_wilds: tuple[int, ...]
    #: by rank index: the fewest natural cards a meld needs for wild cards to join it
    wilds_from: tuple[int, ...]
    #: by rank index, whether a new meld of three natural cards, and of two natural cards
    #: and a wild card, may stand (``allows``, asked once: the listing reads them)
    new_threes: tuple[bool, ...]
    new_pairs: tuple[bool, ...]
    #: the compositions of new melds from hand for a side without melds, which depend on
    #: these limits alone, kept by ``compose.WildRanges.options`` (its key: its answer, and
    #: the least value each composition can lose, -1 until asked)
    new_melds: dict[tuple[int, int, int, int, int, int, int],
                    tuple[list[tuple[int, int, int, int]], list[int]]]

    def __init__(self, open_: tuple[bool, ...], most_cards: int, most_wilds: tuple[int, ...],
                 wilds_from: tuple[int, ...]) -> None:
        self.open = open_
        self.most_cards = most_cards
        self.most_wilds = most_wilds
        self.wilds_from = wilds_from
        # ``most_wilds`` by any number of natural cards below _BY_N (the listing asks
        # ``allows`` for every candidate: an index, not ``min`` and ``len``).
        last = len(most_wilds) - 1
        self._wilds_by_n = tuple([most_wilds[min(n, last)] for n in range(_BY_N)])
        self.new_threes = tuple([self.allows(k, 3, 0, 0) for k in range(len(open_))])
        self.new_pairs = tuple([self.allows(k, 2, 1, 0) for k in range(len(open_))])
        self.new_melds = {}

    def allows(self, k: int, n: int, w: int, w0: int) -> bool:
        return (self.open[k] and 3 <= n + w <= self.most_cards
                and w <= self._wilds_by_n[n if n < _BY_N else _BY_N - 1]
                and (w <= w0 or n >= self.wilds_from[k]))

    def wild_range(self, k: int, n: int, w0: int) -> tuple[int, int] | None:
        """The fewest and most wild cards (``allows``, solved for ``w``) with which a meld of
        the natural rank of index ``k`` and ``n`` natural cards may stand, ``w0`` wild cards
        of them on the table already, or None."""
        if not self.open[k]:
            return None
        most = self.most_wilds
        hi = min(most[min(n, len(most) - 1)], self.most_cards - n)
        if n < self.wilds_from[k] and w0 < hi:
            hi = w0
        lo = max(0, 3 - n)
        return (lo, hi) if lo <= hi else None


_EVERY_RANK: Final = (True,) * len(NATURAL_RANKS)
_NO_RANK_LIMIT: Final = (0,) * len(NATURAL_RANKS)
#: Classic's limits (B.4) by the most wild cards a meld holds and the wild-card ratio, built
#: when first asked: ``meld_limits`` answers at every listing.
_CLASSIC_LIMITS: Final[dict[tuple[int, str], MeldLimits]] = {}


def _classic_limits(max_wilds: int, ratio: str) -> MeldLimits:
    """At most ``max_wilds`` wild cards, fewer than the natural cards (``more-naturals``) or
    no more than them (``not-more-wilds``), and two natural cards at least."""
    key = (max_wilds, ratio)
    limits = _CLASSIC_LIMITS.get(key)
    if limits is None:
        fewer = ratio != "not-more-wilds"
        most = tuple(-1 if n < 2 else min(max_wilds, n - fewer) for n in range(max_wilds + 3))
        limits = _CLASSIC_LIMITS[key] = MeldLimits(_EVERY_RANK, 1 << 30, most, _NO_RANK_LIMIT)
    return limits


#: ``Variant.meld_limits``'s answer for a table, kept in its ``Rules.derived`` (it depends on
#: the rules alone; a variant that overrides ``meld_limits`` does not come here).
_LIMITS_KEY: Final = "base.meld_limits"

#: What ``discard_kinds`` answers where only red threes may not be discarded.
_ALL_BUT_RED_THREES: Final = tuple(k != RED_THREE for k in range(N_KINDS))


def melds_after(state: HandState, side: int,
                made: Sequence[tuple[GroupPlan, Meld]]) -> list[Meld]:
    """The side's melds as a move that makes ``made`` would leave them."""
    melds = list(state.melds[side])
    for gp, meld in made:
        if gp.joins >= 0:
            melds[gp.joins] = meld
        else:
            melds.append(meld)
    return melds


@mypyc_attr(allow_interpreted_subclasses=True)  # copy and pickle: see HandState
class Settings:
    """A variant's settings (the class attributes the engine reads at nearly every move), as
    one table's rules hold them (``Rules.settings``).  Compiled, a native attribute of a
    native class is a C read, where a variant's class attribute is a generic look-up through
    its type (the listing and ``apply`` read several per move); in pure Python both are
    attribute look-ups.  Built from the variant's class attributes alone (and which of its
    hooks it overrides), so it says what they say, and from two hooks that look only at a
    card's kind, asked once for each kind: ``laid_on_sight`` and ``freezes_pile``, read at
    every card drawn and discarded, where a call cost more than the rest."""

    __slots__ = ("ask_once_per_hand", "black_three_meld_sizes", "canasta_size",
                 "check_listed_openings", "concealed_waives_minimum", "exact_going_out",
                 "freezes", "laid", "laid_kinds", "lay_threes_at_turn_start", "max_wilds",
                 "may_meld_out", "pile_after_stock", "plain_takes", "reopens_closed_ranks",
                 "splash_opens", "top_card_counts_for_minimum")

    ask_once_per_hand: bool
    black_three_meld_sizes: tuple[int, ...]
    canasta_size: int
    check_listed_openings: bool
    concealed_waives_minimum: bool
    exact_going_out: bool
    lay_threes_at_turn_start: bool
    max_wilds: int
    may_meld_out: bool
    pile_after_stock: bool
    #: the variant judges takes of the pile as the base class does (B.5, B.6: its
    #: ``take_error``, ``move_error``, ``initial_error`` and ``initial_count`` are the base
    #: class's): the listing then plans a take that leaves two cards in hand from the counts
    #: and the meld limits alone (``takes._PLANS``, ``takes._composed_plan``)
    plain_takes: bool
    reopens_closed_ranks: bool
    splash_opens: bool
    top_card_counts_for_minimum: bool
    #: by kind: whether a card of that kind is laid on sight (``laid_on_sight``)
    laid: tuple[bool, ...]
    #: the kinds laid on sight
    laid_kinds: tuple[int, ...]
    #: by kind: whether a card of that kind in the pile freezes it (``freezes_pile``)
    freezes: tuple[bool, ...]

    def __init__(self, v: Variant) -> None:
        self.ask_once_per_hand = v.ask_once_per_hand
        self.black_three_meld_sizes = v.black_three_meld_sizes
        self.canasta_size = v.canasta_size
        self.check_listed_openings = v.check_listed_openings
        self.concealed_waives_minimum = v.concealed_waives_minimum
        self.exact_going_out = v.exact_going_out
        self.lay_threes_at_turn_start = v.lay_threes_at_turn_start
        self.max_wilds = v.max_wilds
        self.may_meld_out = v.may_meld_out
        self.pile_after_stock = v.pile_after_stock
        cls = type(v)
        self.plain_takes = (cls.take_error is Variant.take_error
                            and cls.move_error is Variant.move_error
                            and cls.initial_error is Variant.initial_error
                            and cls.initial_count is Variant.initial_count)
        self.reopens_closed_ranks = v.reopens_closed_ranks
        self.splash_opens = v.splash_opens
        self.top_card_counts_for_minimum = v.top_card_counts_for_minimum
        self.laid = tuple(v.laid_on_sight(c) for c in ONE_OF_KIND)
        self.laid_kinds = tuple(k for k in range(N_KINDS) if self.laid[k])
        self.freezes = tuple(v.freezes_pile(c) for c in ONE_OF_KIND)


@mypyc_attr(allow_interpreted_subclasses=True)  # a variant registered from outside may extend it
class Variant:
    name: ClassVar[str] = "classic"
    title: ClassVar[str] = "Classic Canasta"
    aliases: ClassVar[tuple[str, ...]] = ()
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4)
    default_players: ClassVar[int] = 4
    #: the house rules this variant offers, each declared once (``canasta.options``)
    declared_options: ClassVar[tuple[Option[Any], ...]] = ()
    #: most wild cards one meld may hold
    max_wilds: ClassVar[int] = 3
    #: cards that make a canasta
    canasta_size: ClassVar[int] = 7
    #: black threes may be melded (only while going out) in groups of these sizes
    black_three_meld_sizes: ClassVar[tuple[int, ...]] = (3, 4)
    going_out_bonus: ClassVar[int] = 100
    concealed_bonus: ClassVar[int] = 200
    #: melds made of wild cards only (Modern American)
    wild_melds: ClassVar[bool] = False
    #: "may I go out?" may be asked once per hand (else once per turn)
    ask_once_per_hand: ClassVar[bool] = False
    #: the pile's top card counts toward the initial-meld minimum when taking it
    top_card_counts_for_minimum: ClassVar[bool] = True
    #: a player may go out by melding every card, with no discard
    may_meld_out: ClassVar[bool] = True
    #: going out concealed after a stock draw waives the initial-meld minimum
    concealed_waives_minimum: ClassVar[bool] = True
    #: once the stock is exhausted, play goes on over the discard pile (B.9)
    pile_after_stock: ClassVar[bool] = True
    #: a three drawn as the last stock card stays in hand (Modern American) instead of being laid
    last_three_stays_in_hand: ClassVar[bool] = False
    #: a red three drawn as the last stock card ends the hand at once (Classic E-5); otherwise
    #: it is laid without a replacement and the turn goes on (Ponytail D.13)
    last_three_ends_hand: ClassVar[bool] = True
    #: "can this player go out?" is answered by finding an actual legal move that does it
    #: (variants whose meld rules depend on the whole move), not by counting alone
    exact_going_out: ClassVar[bool] = False
    #: the hands after which a match ends whatever the scores (Ponytail: 4), or None
    hand_limit: ClassVar[int | None] = None
    #: initial melds found by the move generator are checked in full before being listed
    check_listed_openings: ClassVar[bool] = False
    #: a canasta put down straight from hand opens without the minimum (Modern American)
    splash_opens: ClassVar[bool] = False
    #: a rank whose meld has closed as a canasta may be melded again (Ponytail)
    reopens_closed_ranks: ClassVar[bool] = False
    #: at the end of the stock a player must take a pile that goes onto the side's meld (B.9)
    forced_take_after_stock: ClassVar[bool] = True
    #: red threes in hand are laid (and replaced) at the start of the holder's turn, not at once
    lay_threes_at_turn_start: ClassVar[bool] = False

    def has_wild_melds(self, rules: Rules) -> bool:
        """Whether melds of wild cards only are allowed at this table."""
        return self.wild_melds

    # --- the table ------------------------------------------------------------------------
    def n_sides(self, players: int) -> int:
        """Sides that score: partnerships of two facing partners, else one side per player."""
        return players // 2 if players % 2 == 0 and players >= 4 else players

    def decks(self, players: int) -> int:
        return 2

    def hand_size(self, players: int) -> int:
        raise NotImplementedError

    def draw_count(self, players: int) -> int:
        raise NotImplementedError

    def canastas_to_go_out(self, players: int) -> int:
        raise NotImplementedError

    @property
    def option_defaults(self) -> dict[str, Any]:
        """Each declared option's default, by name."""
        return {o.name: o.default for o in self.declared_options}

    def declared_option(self, name: str) -> Option[Any]:
        """The option declared as ``name``; a PositionError names the known ones otherwise."""
        for o in self.declared_options:
            if o.name == name:
                return o
        known = ", ".join(sorted(o.name for o in self.declared_options)) or "none"
        raise PositionError("rules.unknown_option", name=name, variant=self.name, known=known)

    def offered_options(self, players: int) -> dict[str, tuple[Any, ...]]:
        """The options a table of ``players`` may choose (house rules), with their choices:
        those with more than one choice that matter at that table size."""
        return {o.name: o.choices for o in self.declared_options
                if o.choices is not None and o.offered_at(players)}

    def canastas_required(self, rules: Rules) -> int:
        """The canastas a side needs to go out at this table, its options included (the
        legal-move generator and the table display count on it)."""
        return self.canastas_to_go_out(rules.players)

    def wild_adds_need_check(self, state: HandState, side: int) -> bool:
        """Whether a wild card added to one of the side's melds now must be checked as a whole
        move (``move_error``), its counts alone not telling (Modern American's opening turn)."""
        return False

    def canasta_kind(self, meld: Meld, rules: Rules) -> str:
        """The kind of canasta a meld of canasta size is: ``natural`` (limpia), ``mixed``
        (sucia), ``wild`` (of wild cards only), or one of the variant's own."""
        if meld.rank == WILD_MELD:
            return "wild"
        return "mixed" if meld.wilds else "natural"

    def canastas_missing(self, rules: Rules, melds: Sequence[Meld]) -> int:
        """How many more canastas a side with ``melds`` must complete before it may go out
        (where the variant asks for canastas of given kinds, one for each kind it lacks)."""
        size = self.canasta_size
        have = 0
        for m in melds:  # (a plain loop: the listing asks this near the end of a hand)
            if m.size >= size and m.rank != BLACK_THREES_MELD:
                have += 1
        return max(0, rules.canastas_needed - have)  # (``canastas_required``, kept)

    def default_target(self, players: int) -> int:
        raise NotImplementedError

    # --- melds ----------------------------------------------------------------------------
    def initial_minimum(self, score: int, hand_number: int, rules: Rules) -> int:
        """The count the side's initial meld must reach, by its score before the hand (B.5,
        E-15: below 0, below 1,500, below 3,000, else)."""
        if score < 0:
            return 15
        if score < 1500:
            return 50
        if score < 3000:
            return 90
        return 120

    def meld_shape_error(self, rules: Rules, naturals: int, wilds: int) -> Refusal | None:
        """Why a meld of one natural rank with this many natural and wild cards is not
        allowed, or None when it is."""
        if naturals + wilds < 3:
            return MIN_CARDS
        if naturals < 2:
            return MIN_NATURALS
        if wilds > self.max_wilds:
            return Refusal("meld.max_wilds", most=self.max_wilds)
        if rules.option(WILD_RATIO) == "not-more-wilds":
            if wilds > naturals:
                return WILDS_NOT_MORE
        elif wilds >= naturals:
            return WILDS_FEWER
        return None

    def counts_error(self, state: HandState, side: int, rank: str, naturals: int, deuces: int,
                     jokers: int) -> Refusal | None:
        """Why a meld of ``rank`` with these counts (a new meld, or one of the side's melds with
        cards added) may not stand on the side's table, or None."""
        return self.meld_shape_error(state.rules, naturals, deuces + jokers)

    def meld_limits(self, state: HandState, side: int) -> MeldLimits | None:
        """``counts_error`` for melds of natural ranks on the side's table now, as data (the
        listing asks it once per position), or None where the variant has none (the listing
        then asks ``counts_error``).  The base class gives Classic's limits (B.4), which depend
        on the table's wild-card ratio only, while neither ``counts_error`` nor
        ``meld_shape_error`` is overridden."""
        rules = state.rules
        derived = rules.derived
        if self is rules.variant and _LIMITS_KEY in derived:
            limits: MeldLimits | None = derived[_LIMITS_KEY]
            return limits  # the listing asks at every position
        cls = type(self)
        limits = None
        if (cls.counts_error is Variant.counts_error
                and cls.meld_shape_error is Variant.meld_shape_error):
            limits = _classic_limits(self.max_wilds, rules.option(WILD_RATIO))
        if self is rules.variant:
            derived[_LIMITS_KEY] = limits
        return limits

    def wild_range(self, state: HandState, side: int, rank: str, naturals: int,
                   existing: Meld | None) -> tuple[int, int] | None:
        """The fewest and most wild cards that may join ``naturals`` natural cards of ``rank``
        from hand (melded alone, or added to the ``existing`` meld), or None when no number
        works."""
        n = naturals + (existing.naturals if existing else 0)
        d0 = existing.deuces if existing else 0
        j0 = existing.jokers if existing else 0
        ok = [x for x in range(self.max_wilds + 1)
              if self.counts_error(state, side, rank, n, d0 + x, j0) is None]
        return (ok[0], ok[-1]) if ok else None

    def going_out_requirement(self, state: HandState, side: int, canastas_after: int,
                              made: Sequence[tuple[GroupPlan, Meld]]) -> Refusal | None:
        """Why the side may not go out with the canastas it will have after ``made``, or None."""
        need = self.canastas_to_go_out(state.rules.players)
        if canastas_after >= need:
            return None
        if need == 1:
            return OUT_ONE_CANASTA
        return Refusal("out.canastas", need=need)

    def going_out_ruled_out(self, state: HandState, side: int, kinds: Sequence[int]) -> bool:
        """Whether counting alone shows that the seat to act, holding ``kinds`` (its hand's
        kind counts), cannot go out this turn.  The going-out search asks this before any
        layout: True must mean that no way out exists, False decides nothing.  The base class
        rules nothing out (Classic's counting is the search itself)."""
        return False

    def cards_joining(self, state: HandState, seat: int, side: int, canastas_before: int,
                      canastas_after: int) -> int:
        """Cards that join ``seat``'s hand when a move brings the side to ``canastas_after``
        canastas (Ponytail: the ponytail picked up with the first canasta)."""
        return 0

    def after_meld(self, state: HandState, seat: int, side: int) -> None:
        """What happens once cards have been melded (Ponytail: picking up the ponytails)."""

    def move_error(self, state: HandState, side: int,
                   made: list[tuple[GroupPlan, Meld]]) -> Refusal | None:
        """Why the groups of one move may not be laid together (beyond each group's own
        limits), or None."""
        return None

    def initial_count(self, hand_total: int, top: Card | None) -> int:
        """What an initial meld counts against the minimum (B.5): the cards from hand, whose
        values add up to ``hand_total``, and the pile's ``top`` card when taking it."""
        return hand_total + (top.value if top is not None else 0)

    def initial_error(self, state: HandState, side: int, made: list[tuple[GroupPlan, Meld]],
                      hand_total: int, top: Card | None, concealed: bool) -> Refusal | None:
        """Why these groups may not be the side's initial meld (B.5), or None.  ``hand_total``
        counts the cards from hand; ``top`` is the pile's top card when taking it."""
        if concealed:
            return None  # B.5/E-11: going out concealed after a stock draw waives the minimum
        need = state.minimum(side)
        total = self.initial_count(hand_total, top)
        if total >= need:
            return None
        return Refusal("meld.initial_points", need=need, total=total)

    def canasta_bonus(self, meld: Meld) -> int:
        return 500 if meld.wilds == 0 else 300

    # --- threes, the pile, discards ------------------------------------------------------
    def laid_on_sight(self, c: Card) -> bool:
        """Threes laid face up (and replaced from the stock) as soon as they reach a hand (by
        kind only: ``Settings.laid`` asks once for each kind)."""
        return c.kind == RED_THREE

    def take_error(self, state: HandState, side: int, top: Card, naturals: int, wilds: int,
                   existing: Meld | None) -> Refusal | None:
        """Why the pile may not be taken with ``naturals`` natural and ``wilds`` wild cards from
        hand melded with its ``top`` card (B.6), or None."""
        rank = top.rank
        if state.pile_frozen_for(side):
            if naturals >= 2:
                return None
            if state.pile_frozen():
                return Refusal("pile.frozen", rank=rank)
            return Refusal("pile.frozen_until_initial", rank=rank)
        if existing is not None or naturals >= 2 or (naturals >= 1 and wilds >= 1):
            return None
        return Refusal("pile.need_pair_or_meld", rank=rank)

    def discard_error(self, state: HandState, seat: int, c: Card, going_out: bool,
                      hand: Sequence[Card] | None = None) -> Refusal | None:
        """Why ``seat`` may not discard ``c`` (from ``hand``, by default its hand now)."""
        if c.kind == RED_THREE:
            return DISCARD_RED_THREE
        return None

    def discard_kinds(self, state: HandState, seat: int, going_out: bool) -> Sequence[bool]:
        """By kind, whether ``seat`` may discard a card of that kind now (``going_out``: its
        last card), asked once per listing where ``discard_error`` answers for one card.  The
        base rule refuses red threes only; a variant with a ``discard_error`` of its own and
        not this hook has it asked for the lowest card of each kind in hand (a kind not in
        hand answers False)."""
        if type(self).discard_error is Variant.discard_error:
            return _ALL_BUT_RED_THREES
        by_kind = state.counts(seat).by_kind
        return [k != RED_THREE and bool(cs)
                and self.discard_error(state, seat, cs[0], going_out) is None
                for k, cs in enumerate(by_kind)]

    # --- the start of a hand ----------------------------------------------------------------
    def start_pile(self, state: HandState) -> None:
        """Turn up the first card of the pile; a wild card or a red three is covered by the next
        card and freezes the pile (B.2)."""
        while state.stock:
            c = state.stock.pop()
            state.pile.append(c)
            if self.freezes_pile(c):
                state.frozen += 1
            if not self.upcard_is_buried(c):
                break

    def deal_more(self, state: HandState, stock: list[Card], first: int) -> None:
        """Cards dealt after the hands and before the pile is started (Ponytail: ponytails)."""

    def after_deal(self, state: HandState) -> None:
        """Anything a variant does once the cards are dealt (Classic: nothing more)."""

    def check_position(self, state: HandState, obj: Any) -> None:
        """Variant-specific checks and fields of a position read from JSON."""
        if obj.get("ponytails") is not None:
            raise PositionError("position.no_ponytails", variant=self.name)

    def position_extras(self, state: HandState, out: dict[str, Any]) -> None:
        """Variant-specific fields of a position written as JSON."""

    # --- the pile (start) -------------------------------------------------------------------------
    def upcard_is_buried(self, c: Card) -> bool:
        """A card turned up to start the pile that is covered by another and freezes it."""
        return c.kind in (DEUCE, JOKER, RED_THREE)

    def freezes_pile(self, c: Card) -> bool:
        """A card whose presence in the pile freezes it for everyone (by kind only:
        ``Settings.freezes`` asks once for each kind)."""
        return c.kind in (DEUCE, JOKER, RED_THREE)

    # --- the end of the match ----------------------------------------------------------------
    def match_outcome(self, rules: Rules, totals: Sequence[int],
                      hand_number: int) -> tuple[bool, int | None]:
        """Over once a side reaches the target; the highest total wins; an exact tie for the
        highest total means another hand."""
        best = max(totals)
        if best < rules.target:
            return False, None
        leaders = [i for i, t in enumerate(totals) if t == best]
        if len(leaders) > 1:
            return False, None
        return True, leaders[0]

    # --- scoring --------------------------------------------------------------------------
    def score_side(self, state: HandState, side: int, went_out: bool,
                   concealed: bool) -> dict[str, int]:
        """One side's hand score by the FORMAT.md breakdown keys (``total`` is added): B.10,
        melded cards, canasta bonuses, red threes (negative for a side that has not melded),
        the going-out bonus, less the cards left in the side's hands."""
        size = self.canasta_size
        melds = state.melds[side]
        going_out = 0
        if went_out:
            going_out = self.concealed_bonus if concealed else self.going_out_bonus
        return {
            "melded": sum(m.value for m in melds),
            "canastas": sum(self.canasta_bonus(m) for m in melds
                            if m.size >= size and m.rank != BLACK_THREES_MELD),
            "threes": self.red_threes_score(len(state.threes[side]), bool(melds)),
            "going_out": going_out,
            "in_hand": -sum(c.value for seat in range(state.rules.players)
                            if state.side_of(seat) == side for c in state.hands[seat]),
            "penalties": -self.side_penalties(state, side),
        }

    @property
    def penalizes_holdings(self) -> bool:
        """Whether a side's score is docked for what it has on the table or in hand (Modern
        American), not only for the penalties its moves incurred: ``side_penalties`` is
        overridden."""
        return type(self).side_penalties is not Variant.side_penalties

    def side_penalties(self, state: HandState, side: int) -> int:
        """The points the side's score would lose to penalties if the hand ended now (the
        ``penalties`` of ``score_side``, negated): by default those its moves incurred."""
        return state.penalties[side]

    def red_threes_score(self, count: int, side_has_melded: bool) -> int:
        if count == 0:
            return 0
        points = 800 if count == 4 else 100 * count
        return points if side_has_melded else -points
