"""A match: hands played until a side reaches the target (B.12), from one seed."""

from __future__ import annotations

from collections.abc import Sequence

from canasta.cards import Card
from canasta.engine.deal import deal, shuffled_deck
from canasta.engine.scoring import HandResult
from canasta.engine.state import HandState
from canasta.moves import Move
from canasta.rules import Rules


def hand_seed(seed: int, hand_number: int) -> int:
    """The seed of one hand of a match (stable across machines and Python versions)."""
    return (seed * 1_000_003 + hand_number * 7_919) % (2**63)


def match_outcome(rules: Rules, totals: Sequence[int], hand_number: int) -> tuple[bool, int | None]:
    """Whether the match is over after a hand with these cumulative totals, and the winning
    side: it ends once a side reaches the target; the highest total wins, and an exact tie for
    the highest total means another hand (B.12, E-13)."""
    return rules.variant.match_outcome(rules, totals, hand_number)


class Match:
    """Hands of one table, dealt from ``seed`` (or from explicit ``deals``) in turn."""

    def __init__(self, rules: Rules, seed: int = 0,
                 deals: Sequence[Sequence[Card]] | None = None) -> None:
        self.rules = rules
        self.seed = seed
        self.deals = [list(d) for d in deals] if deals is not None else None
        self.scores: list[int] = [0] * rules.n_sides
        self.results: list[HandResult] = []
        self.moves: list[list[tuple[int, Move]]] = []
        self.over = False
        self.winner: int | None = None
        # The position a match started from when it was not dealt (``from_position``); a dealt
        # hand's start is dealt again from its deck when it is needed (``start``).
        self._position: HandState | None = None
        self.state = self._deal(1)

    @classmethod
    def from_position(cls, state: HandState) -> Match:
        """A one-hand match that starts from ``state`` (a position, or a determinization a
        player built from its view), which it copies and must not be changed afterwards."""
        match = cls.__new__(cls)
        match.rules, match.seed, match.deals = state.rules, 0, None
        match.scores = list(state.scores)
        match.results, match.moves = [], [[]]
        match.over, match.winner = False, None
        # Kept as given, not copied again: the search players build a match from a fresh
        # determinization at every decision, and only ``start`` reads it.
        match._position = state
        match.state = state.copy()
        return match

    @property
    def hand_number(self) -> int:
        return self.state.hand_number

    def deck_for(self, hand_number: int) -> list[Card]:
        if self.deals is not None:
            if hand_number > len(self.deals):
                raise IndexError(f"the record has no deal for hand {hand_number}")
            return self.deals[hand_number - 1]
        return shuffled_deck(self.rules, hand_seed(self.seed, hand_number))

    def start(self) -> HandState:
        """The current hand as it stood before its first move (a new copy)."""
        if self._position is not None:
            return self._position.copy()
        return deal(self.rules, self.deck_for(self.hand_number), scores=self.state.scores,
                    hand_number=self.hand_number)

    def _deal(self, hand_number: int) -> HandState:
        self.moves.append([])
        return deal(self.rules, self.deck_for(hand_number), scores=self.scores,
                    hand_number=hand_number)

    def apply(self, move: Move | str, seat: int | None = None) -> Move:
        """Play a move in the current hand; when the hand ends, score it (and end the match
        or deal the next hand only when ``next_hand`` is called)."""
        played = self.state.apply(move, seat)
        seat_played = self.state.history[-1][0]
        self.moves[-1].append((seat_played, played))
        if self.state.result is not None:
            self._score(self.state.result)
        return played

    def _score(self, result: HandResult) -> None:
        self.results.append(result)
        self.scores = [a + b for a, b in zip(self.scores, result.scores, strict=True)]
        self.over, self.winner = match_outcome(self.rules, self.scores, self.state.hand_number)

    def next_hand(self) -> HandState:
        """Deal the next hand (after a hand has ended and the match goes on)."""
        if self.state.result is None:
            raise ValueError("the current hand is still being played")
        if self.over:
            raise ValueError("the match is over")
        self.state = self._deal(self.state.hand_number + 1)
        return self.state
