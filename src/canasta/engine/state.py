"""One hand of Canasta: the position, its queries, and ``apply``.

``HandState`` is mutable in the way python-chess's ``Board`` is: ``apply(move)`` validates the
move with ``check`` (the single source of legality, shared with ``legal_moves``) and only then
changes the position; an illegal move raises ``IllegalMove`` and changes nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from canasta.cards import Card
from canasta.engine.check import check_move
from canasta.engine.counts import HandCounts, add_card
from canasta.engine.legal import legal_moves
from canasta.engine.melds import Meld, MeldIndex
from canasta.engine.plans import GroupPlan, Listing, Plan
from canasta.engine.play import carry_out, carry_out_kept
from canasta.engine.schema import TURN_START, TurnFacts
from canasta.errors import IllegalMove, NotationError
from canasta.moves import Move, MoveKind, group_rank, parse_move
from canasta.mypyc_attrs import mypyc_attr

if TYPE_CHECKING:
    from canasta.engine.scoring import HandResult
    from canasta.rules import Rules

__all__ = ["GroupPlan", "HandState", "History", "Phase", "Plan"]

Phase = Literal["draw", "play"]

History = tuple[tuple[int, Move], ...]  # (seat, move) for every move played, in order


# Compiled, HandState.__new__(HandState) would run __init__ (and fail) but for this attribute;
# with it, __new__, copy and pickle do as in Python. (``serializable`` alone would also skip
# __init__ in HandState(rules) called from interpreted code: mypyc/mypyc#979.)
@mypyc_attr(allow_interpreted_subclasses=True)
class HandState:
    """The position of one hand (FORMAT.md "The position"), for one table of ``rules``."""

    __slots__ = (
        "_counted",
        "_counts",
        "_history",
        "_indexes",
        "_length",
        "_mine",
        "_moves",
        "answer",
        "asked",
        "asking",
        "bonuses",
        "drew",
        "facts",
        "frozen",
        "hand_number",
        "hands",
        "melded",
        "melds",
        "penalized",
        "penalties",
        "phase",
        "pile",
        "plans",
        "ponytails",
        "result",
        "rules",
        "scores",
        "start_frozen",
        "stock",
        "threes",
        "turn",
    )

    rules: Rules
    hands: list[list[Card]]
    melds: list[list[Meld]]
    threes: list[list[Card]]
    pile: list[Card]
    stock: list[Card]  # top card LAST (pop() draws)
    turn: int
    phase: Phase
    scores: tuple[int, ...]
    hand_number: int
    melded: list[bool]
    asked: list[bool]
    asking: int | None
    answer: str | None
    drew: str | None
    frozen: int  # cards in the pile that freeze it for everyone (+1 while start_frozen holds)
    start_frozen: bool
    penalties: list[int]
    penalized: list[int]  # history indices of moves taken back for a penalty (table mode)
    bonuses: list[int]  # per side, scored with the hand (Ponytail: the exact cut)
    ponytails: list[list[Card] | None]  # per seat: a second hand face down, or None
    # The moves played, (seat, move) in order (``history``): the first ``_length`` entries of
    # ``_moves``, a list only ever appended to and shared with copies (a state appends in place
    # while it holds all of it, else to a list of its own first), so that recording a move and
    # copying the state cost the same whatever the history's length; ``_history`` keeps the
    # immutable tuple built for readers (``_moves[:len(_history)]``, the whole history while
    # its length is ``_length``), shared with copies and views.
    _moves: list[tuple[int, Move]]
    _length: int
    _history: History
    facts: TurnFacts  # what the seat to act did so far this turn (immutable: shared)
    result: HandResult | None
    plans: Listing | None  # what ``legal_moves`` worked out for this position
    # Each hand's counts (``counts``), the list they were counted from (a hand assigned anew is
    # counted again), and that list again where this state may change them in place, else None
    # (a copy shares them until one of the two changes that hand): one identity test then says
    # both, at every card that joins or leaves a hand.
    _counts: list[HandCounts | None]
    _counted: list[list[Card] | None]
    _mine: list[list[Card] | None]
    _indexes: list[MeldIndex | None]  # each side's melds looked up (``meld_index``)

    def __init__(self, rules: Rules) -> None:
        n = rules.players
        s = rules.n_sides
        self.rules = rules
        self.hands = [[] for _ in range(n)]
        self.melds = [[] for _ in range(s)]
        self.threes = [[] for _ in range(s)]
        self.pile = []
        self.stock = []
        self.turn = 0
        self.phase = "draw"
        self.scores = (0,) * s
        self.hand_number = 1
        self.melded = [False] * n
        self.asked = [False] * n
        self.asking = None
        self.answer = None
        self.drew = None
        self.frozen = 0
        self.start_frozen = False
        self.penalties = [0] * s
        self.penalized = []
        self.bonuses = [0] * s
        self.ponytails = [None] * n
        self._moves = []
        self._length = 0
        self._history = ()
        self.facts = TURN_START[False]
        self.result = None
        self.plans = None
        self._counts = [None] * n
        self._counted = [None] * n
        self._mine = [None] * n
        self._indexes = [None] * s

    # ------------------------------------------------------------------------------------
    # Copying and comparing
    def copy(self, *, plans: bool = False) -> HandState:
        """An independent copy; ``plans``: keep what ``legal_moves`` checked here, for a copy
        that only ``apply`` will change (trying moves)."""
        other = HandState.__new__(HandState)
        # Every field of schema.FIELDS, by name and as its shape says (shared where immutable,
        # else copied one level down): a loop over the declaration made a copy a quarter slower,
        # so tests/test_schema.py holds this list to it instead.
        other.rules = self.rules
        other.turn = self.turn
        other.phase = self.phase
        other.scores = self.scores
        other.hand_number = self.hand_number
        # ``map(list, ...)`` rather than a comprehension: no frame of its own in pure Python.
        other.melds = list(map(list, self.melds))
        other.threes = list(map(list, self.threes))
        other.pile = list(self.pile)
        other.frozen = self.frozen
        other.start_frozen = self.start_frozen
        other.melded = list(self.melded)
        other.asked = list(self.asked)
        other.asking = self.asking
        other.penalties = list(self.penalties)
        other.penalized = list(self.penalized)
        other.bonuses = list(self.bonuses)
        other._moves = self._moves  # shared: ``record`` copies it when it must
        other._length = self._length
        other._history = self._history
        other.result = self.result
        other.answer = self.answer
        other.drew = self.drew
        other.facts = self.facts
        hands = self.hands
        other.hands = list(map(list, hands))
        tails = self.ponytails
        other.ponytails = (list(tails) if tails.count(None) == len(tails)  # none left: shared
                           else [list(p) if p is not None else None for p in tails])
        other.stock = list(self.stock)
        # The same position has the same plans (immutable; a move played drops them), but a
        # caller that changes the copy by hand must not inherit them.
        other.plans = self.plans if plans else None
        counts = list(self._counts)
        n = len(counts)
        counted: list[list[Card] | None] = [None] * n
        mine = self._counted
        for seat in range(n):
            cc = counts[seat]
            if cc is not None and mine[seat] is hands[seat] and cc.size == len(hands[seat]):
                counted[seat] = other.hands[seat]  # ``_valid``, inlined
        other._counts = counts
        other._counted = counted
        other._mine = [None] * n
        other._indexes = list(self._indexes)
        self._mine = [None] * n
        return other

    # ------------------------------------------------------------------------------------
    # The turn's facts, one by one (``facts`` is the record; setting one makes a new record)
    @property
    def turn_start_melded(self) -> bool:
        return self.facts.start_melded

    @turn_start_melded.setter
    def turn_start_melded(self, value: bool) -> None:
        f = self.facts
        self.facts = TurnFacts(value, f.melded, f.old_touched, f.new_ranks, f.black_threes_down)

    @property
    def turn_melded(self) -> bool:
        return self.facts.melded

    @turn_melded.setter
    def turn_melded(self, value: bool) -> None:
        f = self.facts
        self.facts = TurnFacts(f.start_melded, value, f.old_touched, f.new_ranks,
                               f.black_threes_down)

    @property
    def turn_old_touched(self) -> bool:
        return self.facts.old_touched

    @turn_old_touched.setter
    def turn_old_touched(self, value: bool) -> None:
        f = self.facts
        self.facts = TurnFacts(f.start_melded, f.melded, value, f.new_ranks, f.black_threes_down)

    @property
    def turn_new_ranks(self) -> frozenset[str]:
        return self.facts.new_ranks

    @turn_new_ranks.setter
    def turn_new_ranks(self, value: frozenset[str]) -> None:
        f = self.facts
        self.facts = TurnFacts(f.start_melded, f.melded, f.old_touched, frozenset(value),
                               f.black_threes_down)

    @property
    def black_threes_down(self) -> bool:
        return self.facts.black_threes_down

    @black_threes_down.setter
    def black_threes_down(self, value: bool) -> None:
        f = self.facts
        self.facts = TurnFacts(f.start_melded, f.melded, f.old_touched, f.new_ranks, value)

    # ------------------------------------------------------------------------------------
    # Queries (never change the state)
    @property
    def history(self) -> History:
        """The moves played this hand, (seat, move) in order; never changed in place, so
        anyone may keep it (built when asked for after a move, then kept)."""
        h = self._history
        n = self._length
        if len(h) != n:
            # What was built before, and the moves recorded since. One concatenation: the
            # unpacking ruff prefers builds a list first.
            h = h + tuple(self._moves[len(h):n])
            self._history = h
        return h

    @history.setter
    def history(self, moves: Sequence[tuple[int, Move]]) -> None:
        h = tuple(moves)
        self._moves = list(h)
        self._length = len(h)
        self._history = h

    def record(self, seat: int, move: Move) -> None:
        """``move`` joins the history (views and copies keep theirs)."""
        moves = self._moves
        n = self._length
        if len(moves) != n:  # a copy of this state has recorded moves since: not in its list
            moves = moves[:n]
            self._moves = moves
        moves.append((seat, move))
        self._length = n + 1

    @property
    def over(self) -> bool:
        """Whether the hand has ended."""
        return self.result is not None

    def side_of(self, seat: int) -> int:
        return seat % self.rules.n_sides

    def partner_of(self, seat: int) -> int | None:
        """The seat's partner in a partnership game, else None."""
        n, s = self.rules.players, self.rules.n_sides
        return (seat + s) % n if n != s else None

    def opened(self, side: int) -> bool:
        """Whether the side has made its initial meld this hand."""
        return bool(self.melds[side])

    def minimum(self, side: int) -> int:
        return self.rules.variant.initial_minimum(self.scores[side], self.hand_number, self.rules)

    def meld_index(self, side: int) -> MeldIndex:
        """The side's melds looked up by rank, built again whenever its list of melds holds
        other melds than last time (melds are immutable: a meld that grows is a new one)."""
        melds = self.melds[side]
        index = self._indexes[side]
        if index is None or index.melds != melds:
            v = self.rules.variant
            index = MeldIndex(melds, v.canasta_size, v.reopens_closed_ranks)
            self._indexes[side] = index
        return index

    def melds_changed(self, side: int) -> None:
        """The engine changed the side's melds: its index is built again when next asked
        (without comparing the melds to find out)."""
        self._indexes[side] = None

    def meld_laid(self, side: int, i: int, old: Meld | None) -> None:
        """``melds_changed`` after cards joined the side's meld ``old`` (now its ``i``-th) or,
        ``old`` None, made its last meld: the index is kept up to date where that is cheap
        (``MeldIndex.after``) instead of built again at the next listing."""
        index = self._indexes[side]
        if index is not None:
            t = self.rules.settings
            index = index.after(self.melds[side], i, old, t.canasta_size, t.reopens_closed_ranks)
            self._indexes[side] = index

    def canastas(self, side: int) -> int:
        index = self._indexes[side]  # ``meld_index``, inlined: the listing asks this often
        if index is None or index.melds != self.melds[side]:
            index = self.meld_index(side)
        return index.canastas

    def canastas_needed(self) -> int:
        return self.rules.canastas_needed

    def find_meld(self, side: int, rank: str) -> int:
        """Index of the side's meld of ``rank`` that cards may join, or -1.  Where closed ranks
        reopen (Ponytail), a finished canasta is no longer that meld."""
        index = self._indexes[side]  # ``meld_index``, inlined: the listing asks this often
        if index is None or index.melds != self.melds[side]:
            index = self.meld_index(side)
        return index.joinable.get(rank, -1)

    def joinable_melds(self, side: int) -> dict[str, int]:
        """``find_meld`` for every rank at once: rank -> index of the meld cards may join."""
        return dict(self.meld_index(side).joinable)

    @property
    def pile_top(self) -> Card | None:
        return self.pile[-1] if self.pile else None

    def pile_frozen(self) -> bool:
        """Frozen for everyone: a wild card (or a buried starting card) lies in the pile."""
        return self.frozen > 0

    def pile_frozen_for(self, side: int) -> bool:
        return self.frozen > 0 or not self.melds[side]

    def to_move(self) -> int | None:
        """The seat to act, or None once the hand is over."""
        return None if self.result is not None else self.turn

    def kinds(self, seat: int) -> list[int]:
        """How many cards of each kind ``seat`` holds (a list of its own)."""
        return list(self.counts(seat).kinds)

    def counts(self, seat: int) -> HandCounts:
        """``seat``'s hand by kind, kept as the engine changes the hand (read it, do not change
        it).  A hand given a new list is counted again; a hand changed in place outside the
        engine is too, unless the change keeps its length (then assign a new list)."""
        cc = self._counts[seat]
        hand = self.hands[seat]
        if cc is None or self._counted[seat] is not hand or cc.size != len(hand):  # _valid
            cc = HandCounts(hand)
            self._counts[seat] = cc
            self._counted[seat] = hand
            self._mine[seat] = hand
        return cc

    def _valid(self, seat: int, cc: HandCounts) -> bool:
        hand = self.hands[seat]
        return self._counted[seat] is hand and cc.size == len(hand)

    def _changing(self, seat: int) -> HandCounts | None:
        """The counts of ``seat``'s hand to change with it (before the change), or None when
        there are none to keep."""
        cc = self._counts[seat]
        if cc is None:
            return None
        hand = self.hands[seat]
        if self._counted[seat] is not hand or cc.size != len(hand):  # ``_valid``, inlined
            self._counts[seat] = None
            return None
        if self._mine[seat] is not hand:
            cc = cc.clone()
            self._counts[seat] = cc
            self._mine[seat] = hand
        return cc

    # ------------------------------------------------------------------------------------
    # Moves
    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to act, one per distinct outcome (see docs/ENGINE.md)."""
        return legal_moves(self)

    def parse(self, text: str) -> Move:
        """Parse a move's text and resolve it against this position (a ``meld`` of a rank the
        side already has becomes ``add``); raises NotationError for bad syntax."""
        return self.normalize(parse_move(text))

    def normalize(self, move: Move) -> Move:
        if move.kind is MoveKind.MELD and len(move.groups) == 1 and self.result is None:
            g = move.groups[0]
            r = group_rank(g)
            if self.find_meld(self.side_of(self.turn), r) >= 0:
                return Move.add(r, g)
        return move

    def is_legal(self, move: Move | str) -> bool:
        try:
            self.check(move)
        except (IllegalMove, NotationError):
            return False
        return True

    def check(self, move: Move | str, seat: int | None = None) -> Plan:
        """Raise IllegalMove (with a reason a player understands) unless ``move`` is legal for
        the seat to act (or for ``seat``, when given); return what it will do."""
        if isinstance(move, str):
            move = self.parse(move)
        return check_move(self, move, seat)

    def apply(self, move: Move | str, seat: int | None = None) -> Move:
        """Play ``move`` (validated first; an illegal move changes nothing).  Returns the move
        as played, in canonical form."""
        if isinstance(move, str):
            move = self.parse(move)
        listing = self.plans
        if listing is not None and (seat is None or seat == self.turn):
            i = listing.find(move)
            if i >= 0:
                played = carry_out_kept(self, listing, i)
                if played is not None:
                    return played
        plan = self.check(move, seat)
        carry_out(self, plan)
        return plan.move

    def plan(self, move: Move, seat: int | None = None) -> Plan:
        """``check`` for a parsed move, reusing what ``legal_moves`` worked out."""
        if self.plans is not None and (seat is None or seat == self.turn):
            plan = self.plans.plan(move)
            if plan is not None:
                return plan
        return self.check(move, seat)

    # ------------------------------------------------------------------------------------
    # Small mutators shared by dealing and play
    def lay_red_three(self, seat: int, c: Card) -> None:
        self.threes[self.side_of(seat)].append(c)

    def add_to_hand(self, seat: int, c: Card) -> None:
        hand = self.hands[seat]
        cc = self._counts[seat]
        # Counts of this hand that this state owns are changed at once (the common case, at
        # every draw); ``_changing`` sees to the others.
        if cc is not None and (self._mine[seat] is not hand or cc.size != len(hand)):
            cc = self._changing(seat)
        hand.append(c)
        if cc is not None:
            k = c.kind
            cs = cc.by_kind[k]
            # A kind holds a few cards, and a new one mostly goes last.
            if cs and cs[-1].id > c.id:
                add_card(cs, c)
            else:
                cs.append(c)
            cc.kinds[k] += 1
            cc.size += 1

    def remove_card(self, seat: int, c: Card) -> None:
        """``remove_from_hand`` of one card."""
        hand = self.hands[seat]
        cc = self._counts[seat]
        if cc is not None and (self._mine[seat] is not hand or cc.size != len(hand)):
            cc = self._changing(seat)  # (as in ``add_to_hand``)
        hand.remove(c)
        if cc is not None:
            k = c.kind
            cc.by_kind[k].remove(c)
            cc.kinds[k] -= 1
            cc.size -= 1

    def remove_from_hand(self, seat: int, cs: Sequence[Card]) -> None:
        """Take ``cs`` out of ``seat``'s hand; the caller has checked that they are there."""
        hand = self.hands[seat]
        cc = self._counts[seat]
        if cc is not None and (self._mine[seat] is not hand or cc.size != len(hand)):
            cc = self._changing(seat)  # (as in ``add_to_hand``)
        for c in cs:
            hand.remove(c)
        if cc is not None:
            by_kind, kinds = cc.by_kind, cc.kinds
            for c in cs:
                by_kind[c.kind].remove(c)
                kinds[c.kind] -= 1
            cc.size -= len(cs)

    def draw_card(self, seat: int) -> bool:
        """Draw one card for ``seat``, laying and replacing threes (red threes in Classic).
        Returns False when such a three was the last card (the caller ends the hand)."""
        stock = self.stock
        laid = self.rules.settings.laid
        while stock:
            c = stock.pop()
            if laid[c.kind]:
                v = self.rules.variant
                if not stock and v.last_three_stays_in_hand:
                    self.add_to_hand(seat, c)  # C.4: kept in hand, it counts against the side
                    return False
                self.lay_red_three(seat, c)
                if not stock:
                    return not v.last_three_ends_hand
                continue
            self.add_to_hand(seat, c)
            return True
        return True

    def lay_threes_in_hand(self, seat: int) -> None:
        """Lay the threes in ``seat``'s hand and replace each from the stock (as it can)."""
        t = self.rules.settings
        # Threes are laid by kind: a hand with no card of such a kind (the common case, asked
        # at every turn and meld in Ponytail) is left as it is without looking at each card.
        kinds = self.counts(seat).kinds
        for k in t.laid_kinds:
            if kinds[k]:
                break
        else:
            return
        laid = t.laid
        while True:
            found = [c for c in self.hands[seat] if laid[c.kind]]
            if not found or not self.stock:
                for c in found:
                    self.remove_from_hand(seat, (c,))
                    self.lay_red_three(seat, c)
                return
            for c in found:
                self.remove_from_hand(seat, (c,))
                self.lay_red_three(seat, c)
                if self.stock:
                    self.add_to_hand(seat, self.stock.pop())

    def take_into_hand(self, seat: int, cs: list[Card]) -> None:
        """Cards from the pile join the hand (``add_to_hand`` for each in turn); red threes
        among them are laid, not replaced."""
        laid = self.rules.settings.laid
        hand = self.hands[seat]
        cc = self._changing(seat)
        n = len(hand)
        for c in cs:
            if laid[c.kind]:
                self.lay_red_three(seat, c)
            else:
                hand.append(c)
        if cc is not None:
            by_kind, kinds = cc.by_kind, cc.kinds
            for c in hand[n:]:
                k = c.kind
                same = by_kind[k]
                if same and same[-1].id > c.id:
                    add_card(same, c)
                else:
                    same.append(c)
                kinds[k] += 1
            cc.size += len(hand) - n

    def all_cards(self) -> Counter[Card]:
        """Every card in the position, counted: hands, melds, threes, pile, stock, ponytails."""
        held: Counter[Card] = Counter()
        for h in self.hands:
            held.update(h)
        for ms in self.melds:
            for m in ms:
                held.update(m.cards)
        for t in self.threes:
            held.update(t)
        held.update(self.pile)
        held.update(self.stock)
        for tail in self.ponytails:
            if tail is not None:
                held.update(tail)
        return held

    def count_cards(self) -> int:
        """Every card in the position: hands, melds, threes, pile and stock."""
        return (
            sum(len(h) for h in self.hands)
            + sum(m.size for ms in self.melds for m in ms)
            + sum(len(t) for t in self.threes)
            + len(self.pile)
            + len(self.stock)
            + sum(len(p) for p in self.ponytails if p is not None)
        )

    def __repr__(self) -> str:
        where = "over" if self.result is not None else f"seat {self.turn} in its {self.phase} phase"
        hands = "/".join(str(len(h)) for h in self.hands)
        return (f"HandState({self.rules.variant.name}, {self.rules.players} players, hand "
                f"{self.hand_number}, {where}; hands {hands}, stock {len(self.stock)}, pile "
                f"{len(self.pile)})")
