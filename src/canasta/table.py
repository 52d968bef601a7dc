"""A table: a match, the computer players in some seats, and the views handed to each seat.

The terminal game (and the browser game later) drive a ``Table``: they show a seat its view,
pass its moves in, and let the computer seats play.  Nothing outside the engine touches the
state directly, so no hidden card can leak through a client.
"""

from __future__ import annotations

from collections.abc import Mapping

from canasta.bots.base import Player
from canasta.match import Match
from canasta.moves import Move
from canasta.rules import Rules
from canasta.view import PlayerView, view_of


class Table:
    def __init__(self, rules: Rules, seed: int, computers: Mapping[int, Player]) -> None:
        self.match = Match(rules, seed)
        self.computers = dict(computers)
        for seat, player in self.computers.items():
            player.new_hand(seat)

    @property
    def rules(self) -> Rules:
        return self.match.rules

    def view(self, seat: int) -> PlayerView:
        return view_of(self.match.state, seat)

    def to_act(self) -> int | None:
        """The seat to act in the current hand, or None when the hand is over."""
        return self.match.state.to_move()

    def computer_to_act(self) -> bool:
        seat = self.to_act()
        return seat is not None and seat in self.computers

    def play(self, seat: int, move: Move | str) -> Move:
        """Play ``seat``'s move (text or Move); raises a CanastaError and changes nothing when
        it is malformed, illegal or out of turn."""
        if isinstance(move, str):
            move = self.match.state.parse(move)
        return self.match.apply(move, seat)

    def step_computer(self) -> tuple[int, Move]:
        """Let the computer seat to act choose and play its move."""
        seat = self.to_act()
        if seat is None or seat not in self.computers:
            raise ValueError("no computer player is to act")
        move = self.computers[seat].choose(self.view(seat))
        return seat, self.match.apply(move, seat)

    def next_hand(self) -> None:
        self.match.next_hand()
        for seat, player in self.computers.items():
            player.new_hand(seat)
