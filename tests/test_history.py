"""The history of a hand (``HandState.history``): recorded at a constant cost per move, shared by
copies until they part, and to every reader an immutable tuple that never changes."""

from __future__ import annotations

import copy
import pickle
import random

from canasta.engine.state import HandState
from canasta.match import Match
from canasta.rules import Rules
from canasta.view import view_of


def played(state: HandState, rng: random.Random, moves: int) -> HandState:
    for _ in range(moves):
        if state.result is not None:
            break
        state.apply(rng.choice(state.legal_moves()))
    return state


def test_copies_share_the_history_until_each_plays_its_own_moves() -> None:
    rng = random.Random(4)
    for variant in ("classic", "ponytail"):
        state = played(Match(Rules.make(variant, 4), 2).state, rng, 30)
        before = state.history
        assert len(before) == 30 and state.history is before  # kept once built
        # A copy that plays on, the state that plays other moves, a copy of the copy that
        # plays yet others: each sees its own moves after the ones they had in common.
        ahead = played(state.copy(), rng, 12)
        view = view_of(ahead, ahead.turn)
        mine = played(state, rng, 5)
        third = played(ahead.copy(), rng, 7)
        ahead_later = played(ahead, rng, 3)
        assert before == state.history[:30] == ahead.history[:30] == third.history[:30]
        assert len(before) == 30 and len(view.history) == 42
        assert len(mine.history) == 35 and len(third.history) == 49
        assert len(ahead_later.history) == 45
        assert ahead.history[:42] == third.history[:42] == view.history
        # Each history is the one its own moves made: replayed from the deal, the same.
        for s in (state, ahead, third):
            again = Match(Rules.make(variant, 4), 2).state
            for seat, move in s.history:
                assert again.turn == seat
                again.apply(move)
            assert again.history == s.history


def test_a_history_set_anew_is_recorded_on_from() -> None:
    rng = random.Random(9)
    state = played(Match(Rules.make("classic", 4), 1).state, rng, 20)
    other = state.copy()
    other.history = list(state.history[:10])
    assert other.history == state.history[:10]
    other.history = state.history
    played(other, rng, 4)
    assert other.history[:20] == state.history and len(other.history) == 24
    assert len(state.history) == 20


def test_a_copied_or_pickled_state_keeps_its_history_and_plays_on_alone() -> None:
    rng = random.Random(2)
    state = played(Match(Rules.make("modern-american", 4), 6).state, rng, 25)
    ahead = played(state.copy(), rng, 6)  # shares the state's list of moves, and more
    for twin in (copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert twin.history == state.history
        played(twin, random.Random(5), 6)
        assert len(twin.history) == 31 and twin.history[:25] == state.history
    assert len(state.history) == 25 and len(ahead.history) == 31
