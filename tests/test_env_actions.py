"""The action encoding (docs/ENVS.md): every legal move has its own action sequence, the
sequence leads back to the move, and the legal actions are exactly the engine's legal moves."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy")

from canasta.envs.actions import ActionSpace, Decision, IllegalAction, action_space
from canasta.envs.core import EnvGame
from canasta.match import Match
from canasta.moves import parse_move
from canasta.rules import Rules

TABLES = [("classic", 2), ("classic", 3), ("classic", 4), ("modern-american", 4),
          ("ponytail", 4), ("ponytail", 6)]


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_every_legal_move_round_trips(variant: str, players: int) -> None:
    rules = Rules.make(variant, players)
    space = action_space(rules)
    rng = random.Random(players * 31 + len(variant))
    positions = moves = 0
    hand = 0
    while positions < 1500:
        hand += 1
        match = Match(rules, seed=hand)
        state = match.state
        while state.result is None and positions < 1500:
            legal = state.legal_moves()
            decision = Decision(space, legal)
            positions += 1
            firsts: set[int] = set()
            for move in legal:
                seq = space.encode(move)
                assert decision.move(seq) == move  # move -> actions -> move is the identity
                assert [space.staged(a) for a in seq] == [True] * (len(seq) - 1) + [False]
                assert parse_move(str(move)) == move
                firsts.add(seq[0])
                moves += 1
            # The mask at the start of a decision is exactly the first actions of the legal
            # moves, and every complete sequence is one legal move (no more, no fewer).
            assert set(decision.legal()) == firsts
            assert len(decision.sequences) == len(legal)
            match.apply(rng.choice(legal))
    assert moves > positions


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_actions_outside_the_mask_are_refused_and_change_nothing(variant: str,
                                                                  players: int) -> None:
    rules = Rules.make(variant, players)
    rng = random.Random(7)
    game = EnvGame(rules, seed=3)
    steps = 0
    while not game.over and steps < 300:
        legal = game.legal_actions()
        before = (str(game.state.history), list(game.prefix), game.to_act())
        for bad in [*rng.sample(range(game.space.size), 20), -1, game.space.size]:
            if bad in legal:
                continue
            with pytest.raises(IllegalAction):
                game.step(bad)
            assert (str(game.state.history), list(game.prefix), game.to_act()) == before
        game.step(rng.choice(legal))
        steps += 1


def test_action_names_are_distinct_and_readable() -> None:
    for variant, players in TABLES:
        space = ActionSpace(Rules.make(variant, players))
        names = [space.name(a) for a in range(space.size)]
        assert len(set(names)) == space.size
    space = action_space(Rules.make("classic", 4))
    seq = space.encode(parse_move("take 9C 9D / KC KD KH"))
    assert [space.name(a) for a in seq] == [
        "take with 2 naturals (more groups to come)", "meld K: 3 naturals"]
    assert space.name(0) == "draw"
    assert space.name(space.encode(parse_move("discard 3C"))[0]) == "discard 3B"
    with pytest.raises(IllegalAction, match="not an action id"):
        space.name(space.size)
    with pytest.raises(IllegalAction, match="whole number"):
        space.name("meld")  # type: ignore[arg-type]


def test_a_staged_move_is_played_only_with_its_last_group() -> None:
    rules = Rules.make("classic", 4)
    game = EnvGame(rules, seed=1)
    rng = random.Random(2)
    seen_staged = False
    for _ in range(3000):
        if game.over:
            game = EnvGame(rules, seed=rng.randrange(10**6))
        decision = game.decision()
        staged = [seq for seq in decision.sequences if len(seq) > 1]
        if staged and not game.prefix:
            seq = rng.choice(staged)
            seat, history = game.to_act(), len(game.state.history)
            for a in seq[:-1]:
                assert game.step(a) is None
                assert game.to_act() == seat and len(game.state.history) == history
            assert game.step(seq[-1]) == decision.sequences[seq]
            seen_staged = True
            continue
        game.step(rng.choice(game.legal_actions()))
    assert seen_staged


def _mask_of(game: EnvGame) -> list[int]:
    """The mask as the legal actions say it, worked out afresh."""
    legal = set(Decision(game.space, game.state.legal_moves()).legal(game.prefix))
    return [int(a in legal) for a in range(game.space.size)]


def test_the_kept_mask_follows_staged_groups_hands_and_deals() -> None:
    """The mask is worked out once per decision point and staged group: it must change with
    each staged group, each move and the next hand of a match, and a caller's copy is its own."""
    from canasta.envs.seat import action_mask

    rules = Rules.make("classic", 4)
    game = EnvGame(rules, seed=5, match=True, max_hands=2)
    rng = random.Random(4)
    hands, staged = set(), 0
    while not game.over:
        seat = game.to_act()
        assert seat is not None
        mask = action_mask(game, seat)
        assert mask.tolist() == _mask_of(game)
        mask[:] = 0  # the caller's copy: the game's own mask is untouched
        assert action_mask(game, seat).tolist() == _mask_of(game)
        assert not action_mask(game, (seat + 1) % 4).any()
        hands.add(game.state.hand_number)
        multi = [s for s in game.decision().sequences if len(s) > 1]
        if multi and not game.prefix:
            for a in rng.choice(multi)[:-1]:
                game.step(a)
                staged += 1
                assert game.mask().tolist() == _mask_of(game)
        game.step(rng.choice(game.legal_actions()))
    assert hands == {1, 2} and staged
    assert not game.mask().any()


def test_a_whole_move_plays_as_its_actions_and_an_unlisted_one_is_refused() -> None:
    """``EnvGame.play`` (the computer players' path) plays the listed move equal to the one
    given, whether or not it is the listed object, and refuses, changing nothing, a move the
    engine does not list."""
    rules = Rules.make("classic", 4)
    game, twin = EnvGame(rules, seed=8), EnvGame(rules, seed=8)
    rng = random.Random(6)
    while not game.over:
        move = rng.choice(game.decision().moves)
        copy = parse_move(str(move))  # equal, another object (multi-group moves) or the same
        assert game.play(copy) is move
        for a in twin.space.encode(move):
            twin.step(a)
        assert str(game.state.history) == str(twin.state.history)
    game = EnvGame(rules, seed=8)
    before = str(game.state.history)
    with pytest.raises(IllegalAction):
        game.play(parse_move("discard 9C"))  # it is the draw: no discard is listed
    assert str(game.state.history) == before and game.prefix == []
