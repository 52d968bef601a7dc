"""A table: the one driver of a match, for any mix of people and computer players.

Every interface plays through a ``Table``: the browser game (``web.session``), the terminal game
(``textplay``), the research environments (``envs.core``) and the arena (``arena.deals``).  A seat
is a person's (its moves come from outside, ``play``) or a computer player's (``step_computer``
asks it, showing it that seat's view and nothing else).  The question to the partner is a move
like any other: the partner answers as a person or as a computer player, and the answer binds.
A seat can change hands at any point (``seat_computer``, ``seat_person``); a computer player
sitting down mid-hand first watches the hand so far from its seat, as after a restart.

With ``undo`` the table also keeps what the browser game offers its people: each person's
cards received since their last discard (``drew``) and the melds of the turn in progress, which
``undo`` takes back.  The research environments and the arena leave it off: their loops stay
as cheap as the engine.

Nothing outside the engine changes the state: the match (``match``) holds the hands, the scores
and the record of every move.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from canasta.bots.base import Player
from canasta.cards import Card
from canasta.engine.state import HandState
from canasta.errors import IllegalMove
from canasta.match import Match
from canasta.moves import Move, MoveKind
from canasta.records import Frame, replay, replay_hand
from canasta.rules import Rules
from canasta.view import PlayerView, view_of

#: What a table does when a computer player fails (raises, or chooses an illegal move): given
#: the seat, its view and the error, it returns the move to play instead.  Without one the
#: error goes to the caller and nothing is played.
Fallback = Callable[[int, PlayerView, Exception], Move]


def _observe(player: Player, view: PlayerView) -> None:
    """Let a player see the table without choosing (to rebuild its memory)."""
    observe = getattr(player, "observe", None)
    if callable(observe):
        observe(view)


def _gained(before: Sequence[Card], after: Sequence[Card]) -> list[Card]:
    gained = Counter(after)
    gained.subtract(before)
    return sorted(gained.elements(), key=lambda c: c.id)


class Table:
    """A match, its seats, and what each seat is shown.

    ``computers``: the computer players by seat; every other seat is a person's.  ``advisers``:
    players that watch a person's seat (they see its view before each of its moves) without
    playing, such as the browser's hint giver.  ``match``: a match to go on with instead of a
    new one dealt from ``seed``.
    """

    def __init__(self, rules: Rules, seed: int = 0,
                 computers: Mapping[int, Player] | None = None, *,
                 match: Match | None = None, advisers: Mapping[int, Player] | None = None,
                 undo: bool = False, fallback: Fallback | None = None) -> None:
        if match is None:
            match = Match(rules, seed)
        elif match.rules is not rules and match.rules != rules:
            raise ValueError("the match is not played with these rules")
        self.match = match
        self.computers: dict[int, Player] = dict(computers) if computers else {}
        self.advisers: dict[int, Player] = dict(advisers) if advisers else {}
        for seat in (*self.computers, *self.advisers):
            if not 0 <= seat < rules.players:
                raise ValueError(f"there is no seat {seat} at a table of {rules.players}")
        self.tracking = undo
        self.fallback = fallback
        self.drew: dict[int, list[Card]] = {}
        # The people's undo steps of the turn in progress: the state before each meld or
        # addition (a copy: a position set from outside has no deal to replay from), the
        # hand's move count then, and the new cards then.
        self._undo: list[tuple[HandState, int, dict[int, list[Card]]]] = []
        self.thought = 0.0  # seconds the last computer player took to choose
        if self.computers or self.advisers:  # (a research environment's table has neither)
            self._new_hand_players()

    @classmethod
    def restore(cls, record: Mapping[str, Any], computers: Mapping[int, Player] | None = None,
                **options: Any) -> Table:
        """The table of a recorded match: the record is replayed (PositionError when it is
        corrupt) and the hand in progress watched again from its deal, so every computer player
        and adviser remembers what it saw, and the people's undo and new cards are what they
        were.  ``options`` as for a new table."""
        match = replay(record)
        table = cls(match.rules, computers=computers, match=match, **options)
        table._rewatch()
        return table

    @classmethod
    def from_position(cls, state: HandState, computers: Mapping[int, Player] | None = None,
                      **options: Any) -> Table:
        """A one-hand table that starts from ``state`` (which it copies)."""
        return cls(state.rules, computers=computers, match=Match.from_position(state),
                   **options)

    # --- where the match stands -----------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return self.match.rules

    @property
    def state(self) -> HandState:
        return self.match.state

    def view(self, seat: int) -> PlayerView:
        return view_of(self.match.state, seat)

    def to_act(self) -> int | None:
        """The seat to act in the current hand (the partner while a question waits for its
        answer), or None when the hand is over."""
        return self.match.state.to_move()

    def is_computer(self, seat: int) -> bool:
        return seat in self.computers

    def people(self) -> list[int]:
        return [s for s in range(self.rules.players) if s not in self.computers]

    def computer_to_act(self) -> bool:
        seat = self.to_act()
        return seat is not None and seat in self.computers

    def can_undo(self, seat: int) -> bool:
        state = self.match.state
        return (bool(self._undo) and state.result is None and state.turn == seat
                and seat not in self.computers)

    # --- who sits where -------------------------------------------------------------------
    def seat_computer(self, seat: int, player: Player) -> None:
        """Give ``seat`` to a computer player; it watches the hand so far from that seat
        first, so it knows what the seat has seen."""
        self._seat_check(seat)
        self.computers[seat] = player
        player.new_hand(seat)
        self._watch(seat, player)

    def seat_person(self, seat: int) -> None:
        """Give ``seat`` back to a person: its moves come from ``play`` again."""
        self._seat_check(seat)
        self.computers.pop(seat, None)

    def _seat_check(self, seat: int) -> None:
        if not isinstance(seat, int) or not 0 <= seat < self.rules.players:
            raise IllegalMove("table.no_seat", seat=seat, players=self.rules.players)

    # --- playing --------------------------------------------------------------------------
    def play(self, seat: int, move: Move | str) -> Move:
        """Play a person's move (text or Move); raises a CanastaError and changes nothing when
        it is malformed, illegal, out of turn or for a computer player's seat."""
        if seat in self.computers:
            raise IllegalMove("web.computer_seat", seat=seat)
        state = self.match.state
        if isinstance(move, str):
            move = state.parse(move)
        adviser = self.advisers.get(seat)
        if adviser is not None and state.result is None and state.to_move() == seat:
            _observe(adviser, view_of(state, seat))
        return self._apply(seat, move)

    def step_computer(self) -> tuple[int, Move]:
        """Let the computer seat to act choose (from its view only) and play its move."""
        seat = self.to_act()
        if seat is None or seat not in self.computers:
            raise IllegalMove("web.no_computer_to_act")
        view = view_of(self.match.state, seat)
        start = time.perf_counter()
        if self.fallback is None:
            move = self.computers[seat].choose(view)
        else:
            try:
                move = self.computers[seat].choose(view)
                self.match.state.check(move, seat)
            except Exception as e:  # a computer player's failure must not stop the game
                move = self.fallback(seat, view, e)
        self.thought = time.perf_counter() - start
        return seat, self._apply(seat, move)

    def play_computers(self) -> list[tuple[int, Move]]:
        """Let the computer seats play until a person is to act or the hand is over."""
        played = []
        while self.computer_to_act():
            played.append(self.step_computer())
        return played

    def undo(self, seat: int) -> None:
        """Take back the last meld or addition of ``seat``'s turn (never a draw, a take, a
        penalty or anything after the discard); raises IllegalMove when there is none."""
        if not self.tracking or not self.can_undo(seat):
            raise IllegalMove("web.nothing_to_undo")
        state, n, drew = self._undo.pop()
        self.match.state = state
        del self.match.moves[-1][n:]
        self.drew = drew

    def next_hand(self) -> None:
        """Deal the next hand (after a hand has ended and the match goes on)."""
        if self.match.state.result is None:
            raise IllegalMove("web.hand_not_over")
        if self.match.over:
            raise IllegalMove("web.match_over")
        self.match.next_hand()
        self._new_hand_players()

    # --- inside ---------------------------------------------------------------------------
    def _new_hand_players(self) -> None:
        for seat, player in self.computers.items():
            player.new_hand(seat)
        for seat, adviser in self.advisers.items():
            adviser.new_hand(seat)
        self._undo.clear()
        self.drew = {}

    def _apply(self, seat: int, move: Move) -> Move:
        if not self.tracking:
            return self.match.apply(move, seat)
        state = self.match.state
        people = self.people()
        hands = {p: list(state.hands[p]) for p in people}
        penalties = list(state.penalties)
        n = len(self.match.moves[-1])
        snapshot = state.copy() if seat in people else None
        played = self.match.apply(move, seat)
        gained = {p: _gained(hands[p], state.hands[p]) for p in people}
        self._track(seat, played, snapshot, n, gained, penalties != list(state.penalties),
                    ended=state.result is not None)
        return played

    def _track(self, seat: int, played: Move, before_state: HandState | None, n: int,
               gained: Mapping[int, list[Card]], penalized: bool, ended: bool) -> None:
        """Keep the people's undo steps and new cards after ``seat`` played ``played`` as move
        ``n`` of the hand from ``before_state`` (a person's move); ``gained``: the cards each
        person received by it; ``ended``: whether it ended the hand."""
        before = {p: list(c) for p, c in self.drew.items()}
        for person, cards in gained.items():
            if person == seat:
                continue
            if cards:  # a partner's first canasta brought this person's ponytail
                self.drew[person] = cards
        if seat in self.computers or seat not in gained:
            if played.kind is MoveKind.DISCARD:
                self._undo.clear()
            return
        new_cards = gained[seat]
        revealed = bool(new_cards)  # a draw, a take, a ponytail picked up: seen, so final
        if played.kind in (MoveKind.MELD, MoveKind.ADD) and not ended \
                and not revealed and not penalized and before_state is not None:
            self._undo.append((before_state, n, before))
        else:
            self._undo.clear()
        if played.kind is MoveKind.DISCARD:
            self.drew[seat] = []
        elif new_cards:  # (what came since the person's last discard: a ponytail, a draw)
            self.drew[seat] = self.drew.get(seat, []) + new_cards

    def _rewatch(self) -> None:
        """Play the hand in progress again from its deal, on a match of its own: each computer
        player and adviser sees its seat's view before each of its moves, and the people's undo
        steps and new cards are rebuilt from their own views.  The table's match is left as the
        replay of the record made it: watching a hand again never plays it again (an ended
        hand would be scored twice)."""
        m = self.match
        moves = list(m.moves[-1])
        self._new_hand_players()
        watching = sorted({*self.computers, *self.advisers,
                           *(self.people() if self.tracking else ())})
        people = set(self.people()) if self.tracking else set()
        watched = Match.from_position(m.start())
        before: Frame | None = None
        snapshot: HandState | None = None
        for i, frame in enumerate(replay_hand(watched, moves, watching)):
            if before is not None and frame.seat is not None and frame.move is not None:
                seat = frame.seat
                for players in (self.computers, self.advisers):
                    if seat in players:
                        _observe(players[seat], before.views[seat])
                if self.tracking:
                    gained = {p: _gained(before.views[p].hand, frame.views[p].hand)
                              for p in self.people()}
                    penalized = before.views[seat].penalties != frame.views[seat].penalties
                    self._track(seat, frame.move, snapshot, i - 1, gained, penalized,
                                ended=watched.state.result is not None)
            before = frame
            # The state before a person's move, which an undo step goes back to.
            snapshot = (watched.state.copy() if i < len(moves) and moves[i][0] in people
                        else None)

    def _watch(self, seat: int, player: Player) -> None:
        """Show ``player`` the hand so far from ``seat``, before each of that seat's moves."""
        m = self.match
        moves = list(m.moves[-1])
        if not moves:
            return
        watched = Match.from_position(m.start())
        before: Frame | None = None
        for frame in replay_hand(watched, moves, (seat,)):
            if before is not None and frame.seat == seat:
                _observe(player, before.views[seat])
            before = frame
