"""The one match driver (``table.Table``) and the one replay (``records.replay_hand``): any mix of
people and computer seats, the partner's question, undo, seats handed over, restoring a table,
and what each seat is shown."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from canasta.bots.basic import BasicPlayer
from canasta.errors import IllegalMove, PositionError
from canasta.match import Match
from canasta.moves import Move
from canasta.position import position_from_json
from canasta.records import record_of, replay_hand
from canasta.rules import Rules
from canasta.table import Table
from canasta.view import PlayerView, view_of

# tests/scenarios/classic/going_out.json's "asking partner binds": seat 0 draws 5C and may ask
# whether it may go out (it has a canasta; after the draw it holds 8C 8D 8H 5C).
ASKING = {
    "variant": "classic", "players": 4, "scores": [0, 0], "turn": 0, "phase": "draw",
    "hands": [["8C", "8D", "8H"], ["TC", "TD"], ["QC", "QD", "QH"], ["6C", "6D"]],
    "melds": [[["KS", "KH", "KD", "KC", "KS", "KH", "KD"]], [["9S", "9H", "9D"]]],
    "threes": [[], []], "discard": ["4C"], "stock": ["5C", "JD", "4H", "AS"]}


class Spy:
    """A computer player that plays given moves (or the first legal one), and keeps every view
    it is shown, checking each against the table it sits at: the seat's own view, nothing
    else."""

    name = "spy"

    def __init__(self, moves: Sequence[str] = (), table: list[Table] | None = None) -> None:
        self.moves = list(moves)
        self.table = table
        self.shown: list[PlayerView] = []
        self.observed: list[PlayerView] = []
        self.hands = 0

    def new_hand(self, seat: int) -> None:
        self.seat = seat
        self.hands += 1
        self.observed = []

    def observe(self, view: PlayerView) -> None:
        self.observed.append(view)

    def choose(self, view: PlayerView) -> Move:
        if self.table:
            assert view == view_of(self.table[0].state, self.seat)
        self.shown.append(view)
        return view.legal_moves[0] if not self.moves else view.legal_moves[
            [str(m) for m in view.legal_moves].index(self.moves.pop(0))]


def asking_table(computers: dict[int, Spy], **options: Any) -> Table:
    table = Table.from_position(position_from_json(ASKING), computers, **options)
    for spy in computers.values():
        spy.table = [table]
    return table


def test_a_person_asks_and_the_computer_partners_no_binds() -> None:
    partner = Spy(["no"])
    table = asking_table({1: Spy(), 2: partner, 3: Spy()})
    table.play(0, "draw")
    table.play(0, "ask")
    assert table.to_act() == 2 and table.computer_to_act()
    with pytest.raises(IllegalMove, match="seat 2's turn"):
        table.play(0, "discard 5C")
    assert str(table.step_computer()[1]) == "no"
    assert partner.shown[-1].asking == 0  # the partner was shown the question
    with pytest.raises(IllegalMove):  # after a no, going out this turn is refused
        table.play(0, "meld 8C 8D 8H")
    table.play(0, "discard 5C")
    assert table.to_act() == 1


def test_a_computer_asks_and_the_person_partners_yes_binds() -> None:
    asker = Spy(["draw", "ask"])
    table = asking_table({0: asker, 1: Spy(), 3: Spy()})
    table.play_computers()
    assert table.to_act() == 2 and not table.computer_to_act()
    assert table.view(2).asking == 0
    with pytest.raises(IllegalMove, match="computer player's"):
        table.play(0, "discard 5C")
    table.play(2, "yes")
    table.play_computers()  # after a yes it must go out: every move it is offered leads there
    assert asker.shown[-1].answer == "yes"
    assert table.state.result is not None and table.state.result.went_out == 0


def test_no_computer_step_while_a_person_is_to_act() -> None:
    table = asking_table({1: Spy(), 2: Spy(), 3: Spy()})
    with pytest.raises(IllegalMove, match="no computer player is to act"):
        table.step_computer()
    assert table.play_computers() == []


def test_undo_takes_back_the_turns_melds_and_their_moves() -> None:
    table = asking_table({1: Spy(), 2: Spy(), 3: Spy()}, undo=True)
    table.play(0, "draw")
    assert {s: [c.text for c in cs] for s, cs in table.drew.items()} == {0: ["5C"]}
    before = table.view(0)
    table.play(0, "meld 8C 8D 8H")
    assert table.can_undo(0) and not table.can_undo(2)
    with pytest.raises(IllegalMove, match="nothing to undo"):
        table.undo(2)
    table.undo(0)
    assert table.view(0) == before and len(table.match.moves[-1]) == 1
    assert not table.can_undo(0) and [c.text for c in table.drew[0]] == ["5C"]
    with pytest.raises(IllegalMove, match="nothing to undo"):
        table.undo(0)


def test_without_undo_the_table_keeps_no_undo_steps() -> None:
    table = asking_table({1: Spy(), 2: Spy(), 3: Spy()})
    table.play(0, "draw")
    table.play(0, "meld 8C 8D 8H")
    with pytest.raises(IllegalMove, match="nothing to undo"):
        table.undo(0)


def _play_some(table: Table, moves: int, rng: random.Random) -> dict[int, list[PlayerView]]:
    """Play ``moves`` moves (the people's chosen at random); the views each person had before
    each of their moves."""
    seen: dict[int, list[PlayerView]] = {}
    for _ in range(moves):
        seat = table.to_act()
        assert seat is not None
        if table.is_computer(seat):
            table.step_computer()
        else:
            view = table.view(seat)
            seen.setdefault(seat, []).append(view)
            table.play(seat, rng.choice(view.legal_moves))
    return seen


def test_a_seat_handed_to_a_computer_mid_hand_watches_the_hand_so_far_and_back() -> None:
    rules = Rules.make("classic", 4)
    table = Table(rules, 3, {1: Spy(), 3: Spy()})  # seats 0 and 2 are people
    seen = _play_some(table, 30, random.Random(1))
    newcomer = Spy()
    table.seat_computer(0, newcomer)
    assert newcomer.observed == seen[0]  # exactly what seat 0 was shown, nothing else
    assert table.people() == [2]
    while table.to_act() == 0 or table.computer_to_act():
        table.step_computer()
    assert newcomer.shown and all(v.seat == 0 for v in newcomer.shown)
    table.seat_person(0)
    assert table.people() == [0, 2]
    with pytest.raises(IllegalMove, match="no seat 9"):
        table.seat_person(9)


def test_a_restored_table_is_the_same_table() -> None:
    rules = Rules.make("ponytail", 4)
    original = {s: Spy() for s in (1, 2, 3)}
    table = Table(rules, 8, original, undo=True)
    for spy in original.values():
        spy.table = [table]
    _play_some(table, 60, random.Random(2))
    again = {s: Spy() for s in (1, 2, 3)}
    restored = Table.restore(record_of(table.match), again, undo=True)
    for seat in range(4):
        assert restored.view(seat) == table.view(seat)
    assert restored.drew == table.drew and restored.can_undo(0) == table.can_undo(0)
    for seat, spy in original.items():  # each computer saw its decision points again
        assert again[seat].observed == spy.shown[-len(again[seat].observed):]
        assert len(again[seat].observed) == sum(1 for s, _ in table.match.moves[-1]
                                                if s == seat)


def test_the_same_seed_gives_the_same_game_through_the_table() -> None:
    rules = Rules.make("classic", 4)
    games = []
    for _ in range(2):
        table = Table(rules, 11, {s: Spy() for s in range(4)})
        table.play_computers()
        games.append(record_of(table.match))
    assert games[0] == games[1] and games[0]["hands"][0]["result"]


def test_replay_hand_shows_only_the_seats_asked_for() -> None:
    rules = Rules.make("classic", 4)
    table = Table(rules, 4, {s: Spy() for s in range(4)})
    for _ in range(12):
        table.step_computer()
    moves = list(table.match.moves[-1])
    match = Match(rules, 4)
    frames = list(replay_hand(match, moves, (2,)))
    assert len(frames) == len(moves) + 1 and frames[0].seat is None
    assert all(set(f.views) == {2} for f in frames)
    assert frames[-1].views[2] == table.view(2)
    assert [(f.seat, f.move) for f in frames[1:]] == moves


def test_replay_hand_refuses_a_bad_move_and_keeps_the_moves_before_it() -> None:
    rules = Rules.make("classic", 4)
    match = Match(rules, 4)
    with pytest.raises(PositionError, match=r"move 2 \(draw\)"):
        list(replay_hand(match, [[0, "draw"], [0, "draw"]]))
    assert len(match.moves[-1]) == 1
    with pytest.raises(PositionError, match=r"move 1: write each move as \[seat, text\]"):
        list(replay_hand(match, [[True, "discard 4S"]]))


TABLES = [("classic", 2), ("classic", 3), ("classic", 4), ("modern-american", 4),
          ("ponytail", 4), ("ponytail", 6)]


def _play_hand_out(table: Table, person: BasicPlayer) -> None:
    """Play the hand to its end, the people's moves chosen by ``person``."""
    while table.to_act() is not None:
        seat = table.to_act()
        assert seat is not None
        if table.is_computer(seat):
            table.step_computer()
        else:
            table.play(seat, person.choose(table.view(seat)))


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_a_table_restored_between_two_hands_scores_the_ended_hand_once(
        variant: str, players: int) -> None:
    """Regression (issue 32, item 1): restoring a match whose hand had ended, before the next
    was dealt, watched the ended hand again through the match itself and scored it a second
    time (two results, doubled scores; after the next deal the record no longer replayed)."""
    rules = Rules.make(variant, players)
    computers = {s: BasicPlayer(s) for s in range(1, players)}
    table = Table(rules, 5, computers, undo=True, advisers={0: BasicPlayer(99)})
    person = BasicPlayer(7)
    person.new_hand(0)
    _play_hand_out(table, person)
    record = record_of(table.match)
    assert len(record["hands"]) == 1 and "result" in record["hands"][0]
    restored = Table.restore(record, {s: BasicPlayer(s) for s in range(1, players)},
                             undo=True, advisers={0: BasicPlayer(99)})
    assert len(restored.match.results) == 1
    assert restored.match.scores == table.match.scores
    assert record_of(restored.match) == record
    if restored.match.over:
        return
    restored.next_hand()
    after = record_of(restored.match)
    assert len(after["hands"]) == 2 and "result" not in after["hands"][1]
    again = Table.restore(after, {s: BasicPlayer(s) for s in range(1, players)}, undo=True)
    assert record_of(again.match) == after and len(again.match.results) == 1
