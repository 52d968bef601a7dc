"""What one seat may see: its own hand and everything public, nothing else.

Bots, clients and logs receive a ``PlayerView``, never the ``HandState``: the other hands appear
only as sizes, the stock only as a size, the pile as its top card and size.  The public history
holds the moves as played; a draw shows no card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from canasta.cards import Card
from canasta.engine.melds import Meld
from canasta.engine.scoring import HandResult
from canasta.engine.state import HandState
from canasta.moves import Move
from canasta.rules import Rules


@dataclass(frozen=True)
class TurnFacts:
    """What everyone saw the player to act do so far this turn (the rules depend on it)."""

    start_melded: bool  # the player had melded earlier in the hand
    melded: bool  # has melded this turn
    old_touched: bool  # has added to a meld that was on the table before this turn
    new_ranks: frozenset[str]  # ranks of the melds started this turn
    black_threes_down: bool


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


def view_of(state: HandState, seat: int,
            legal: Sequence[Move] | None = None) -> PlayerView:
    """The view of ``seat``: built by copying only what that seat may see.  ``legal``: the
    legal moves of the position when the caller has just listed them (they are not listed
    again)."""
    acting = state.result is None and state.turn == seat
    return PlayerView(
        seat=seat,
        rules=state.rules,
        hand_number=state.hand_number,
        scores=tuple(state.scores),
        turn=state.turn,
        phase=state.phase,
        hand=tuple(state.counts(seat).in_order()),
        hand_sizes=tuple(len(h) for h in state.hands),
        melds=tuple(tuple(ms) for ms in state.melds),
        threes=tuple(tuple(t) for t in state.threes),
        pile_top=state.pile_top,
        pile_size=len(state.pile),
        pile=tuple(state.pile),
        pile_frozen=state.pile_frozen(),
        start_frozen=state.start_frozen,
        stock_size=len(state.stock),
        ponytail_sizes=tuple(None if p is None else len(p) for p in state.ponytails),
        melded=tuple(state.melded),
        asked=tuple(state.asked),
        penalties=tuple(state.penalties),
        bonuses=tuple(state.bonuses),
        turn_facts=TurnFacts(state.turn_start_melded, state.turn_melded, state.turn_old_touched,
                             frozenset(state.turn_new_ranks), state.black_threes_down),
        asking=state.asking,
        answer=state.answer if state.turn == seat else None,
        drew=state.drew if state.turn == seat else None,
        history=state.history,  # immutable: shared, not copied
        legal_moves=(tuple(state.legal_moves() if legal is None else legal) if acting
                     else ()),
        result=state.result,
        penalized=frozenset(state.penalized),
    )
