"""What one seat may see: its own hand and everything public, nothing else.

Bots, clients and logs receive a ``PlayerView``, never the ``HandState``: the other hands appear
only as sizes, the stock only as a size, the pile as its top card and size.  The public history
holds the moves as played; a draw shows no card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

from canasta.cards import Card
from canasta.engine.melds import Meld
from canasta.engine.schema import TurnFacts
from canasta.engine.scoring import HandResult
from canasta.engine.state import HandState
from canasta.moves import Move
from canasta.rules import Rules

#: Whether this module runs compiled (mypyc): see ``PlayerView.__init__``.
_NATIVE = not __file__.endswith(".py")


@dataclass(frozen=True)
class PlayerView:
    seat: int
    rules: Rules
    hand_number: int
    scores: tuple[int, ...]  # each side's score before this hand
    turn: int
    phase: str
    hand: tuple[Card, ...]  # this seat's cards, in display order
    hand_sizes: tuple[int, ...]
    melds: tuple[tuple[Meld, ...], ...]  # per side
    threes: tuple[tuple[Card, ...], ...]  # per side
    pile_top: Card | None
    pile_size: int
    pile: tuple[Card, ...]  # bottom first: every card in it was seen face up by everyone
    pile_frozen: bool  # frozen for everyone
    start_frozen: bool  # frozen by the card that started it (Ponytail: a seven)
    stock_size: int
    ponytail_sizes: tuple[int | None, ...]  # per seat; None once picked up (or no ponytails)
    melded: tuple[bool, ...]
    asked: tuple[bool, ...]
    penalties: tuple[int, ...]  # per side (table mode)
    bonuses: tuple[int, ...]  # per side (Ponytail's exact cut)
    turn_facts: TurnFacts
    asking: int | None  # the seat waiting for an answer to "may I go out?"
    answer: str | None  # the answer this turn's player received
    drew: str | None
    history: tuple[tuple[int, Move], ...]
    legal_moves: tuple[Move, ...]  # empty unless this seat is to act
    result: HandResult | None
    #: indices in ``history`` of moves taken back for a penalty (table mode): they changed
    #: nothing on the table
    penalized: frozenset[int] = frozenset()

    def __init__(
            self,
            seat: int,
            rules: Rules,
            hand_number: int,
            scores: tuple[int, ...],
            turn: int,
            phase: str,
            hand: tuple[Card, ...],
            hand_sizes: tuple[int, ...],
            melds: tuple[tuple[Meld, ...], ...],
            threes: tuple[tuple[Card, ...], ...],
            pile_top: Card | None,
            pile_size: int,
            pile: tuple[Card, ...],
            pile_frozen: bool,
            start_frozen: bool,
            stock_size: int,
            ponytail_sizes: tuple[int | None, ...],
            melded: tuple[bool, ...],
            asked: tuple[bool, ...],
            penalties: tuple[int, ...],
            bonuses: tuple[int, ...],
            turn_facts: TurnFacts,
            asking: int | None,
            answer: str | None,
            drew: str | None,
            history: tuple[tuple[int, Move], ...],
            legal_moves: tuple[Move, ...],
            result: HandResult | None,
            penalized: frozenset[int] = frozenset()) -> None:
        # Written out instead of the dataclass's own __init__, which sets every field through
        # object.__setattr__ (a frozen dataclass refuses plain assignment): compiled, a plain
        # assignment here is a native store that never meets the frozen __setattr__, and it
        # made a view several times cheaper to build.  The interpreted module has to go
        # through object.__setattr__ as the dataclass would.
        if _NATIVE:
            self.seat = seat  # type: ignore[misc]
            self.rules = rules  # type: ignore[misc]
            self.hand_number = hand_number  # type: ignore[misc]
            self.scores = scores  # type: ignore[misc]
            self.turn = turn  # type: ignore[misc]
            self.phase = phase  # type: ignore[misc]
            self.hand = hand  # type: ignore[misc]
            self.hand_sizes = hand_sizes  # type: ignore[misc]
            self.melds = melds  # type: ignore[misc]
            self.threes = threes  # type: ignore[misc]
            self.pile_top = pile_top  # type: ignore[misc]
            self.pile_size = pile_size  # type: ignore[misc]
            self.pile = pile  # type: ignore[misc]
            self.pile_frozen = pile_frozen  # type: ignore[misc]
            self.start_frozen = start_frozen  # type: ignore[misc]
            self.stock_size = stock_size  # type: ignore[misc]
            self.ponytail_sizes = ponytail_sizes  # type: ignore[misc]
            self.melded = melded  # type: ignore[misc]
            self.asked = asked  # type: ignore[misc]
            self.penalties = penalties  # type: ignore[misc]
            self.bonuses = bonuses  # type: ignore[misc]
            self.turn_facts = turn_facts  # type: ignore[misc]
            self.asking = asking  # type: ignore[misc]
            self.answer = answer  # type: ignore[misc]
            self.drew = drew  # type: ignore[misc]
            self.history = history  # type: ignore[misc]
            self.legal_moves = legal_moves  # type: ignore[misc]
            self.result = result  # type: ignore[misc]
            self.penalized = penalized  # type: ignore[misc]
        else:
            set_field = object.__setattr__
            for name, value in zip(_FIELD_NAMES, (
                    seat, rules, hand_number, scores, turn, phase, hand, hand_sizes, melds, threes,
                    pile_top, pile_size, pile, pile_frozen, start_frozen, stock_size,
                    ponytail_sizes, melded, asked, penalties, bonuses, turn_facts, asking, answer,
                    drew, history, legal_moves, result, penalized), strict=True):
                set_field(self, name, value)

    @property
    def side(self) -> int:
        return self.seat % self.rules.n_sides

    @property
    def partner(self) -> int | None:
        n, s = self.rules.players, self.rules.n_sides
        return (self.seat + s) % n if n != s else None

    @property
    def to_act(self) -> bool:
        return self.result is None and self.turn == self.seat

    def side_of(self, seat: int) -> int:
        return seat % self.rules.n_sides

    def opened(self, side: int) -> bool:
        return bool(self.melds[side])

    def minimum(self) -> int:
        """The count this seat's side needs for its initial meld this hand."""
        return self.rules.variant.initial_minimum(self.scores[self.side], self.hand_number,
                                                  self.rules)

    def canastas(self, side: int) -> int:
        size = self.rules.variant.canasta_size
        return sum(1 for m in self.melds[side] if m.size >= size and m.rank != "3")

    def pile_frozen_for_me(self) -> bool:
        return self.pile_frozen or not self.melds[self.side]


#: The view's fields in the order of its __init__ (the interpreted one sets them by name).
_FIELD_NAMES = tuple(f.name for f in fields(PlayerView))


def view_of(state: HandState, seat: int,
            legal: Sequence[Move] | None = None) -> PlayerView:
    """The view of ``seat``: what ``schema.FIELDS`` lets that seat see, frozen (the public
    table and the turn's facts, what only the seat to act sees when it is that seat, its own
    entry of the per-seat fields and the sizes of the others), and what follows from it.
    ``legal``: the legal moves of the position when the caller has just listed them (they are
    not listed again)."""
    # Field by field, grouped by the parts of schema.FIELDS (a loop over the declaration made
    # a view a third slower); tests/test_schema.py holds this to the declaration.
    actor = state.turn == seat
    pile = state.pile
    return PlayerView(
        seat=seat,
        rules=state.rules,
        # the public table
        turn=state.turn,
        phase=state.phase,
        scores=state.scores,
        hand_number=state.hand_number,
        melds=tuple(tuple(ms) for ms in state.melds),
        threes=tuple(tuple(t) for t in state.threes),
        pile=tuple(pile),
        pile_top=pile[-1] if pile else None,
        pile_size=len(pile),
        pile_frozen=state.frozen > 0,
        start_frozen=state.start_frozen,
        melded=tuple(state.melded),
        asked=tuple(state.asked),
        asking=state.asking,
        penalties=tuple(state.penalties),
        penalized=frozenset(state.penalized),
        bonuses=tuple(state.bonuses),
        history=state.history,  # immutable: shared, not copied
        result=state.result,
        # the seat to act's own
        answer=state.answer if actor else None,
        drew=state.drew if actor else None,
        turn_facts=state.facts,  # immutable: shared
        # per seat: its own, and the others' sizes
        hand=tuple(state.counts(seat).in_order()),
        hand_sizes=tuple(len(h) for h in state.hands),
        ponytail_sizes=tuple(None if p is None else len(p) for p in state.ponytails),
        # hidden
        stock_size=len(state.stock),
        legal_moves=(tuple(state.legal_moves() if legal is None else legal)
                     if actor and state.result is None else ()),
    )
