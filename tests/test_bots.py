"""Computer players and the arena (issue: computer players worth playing with)."""

from __future__ import annotations

import json
import random

import pytest

from canasta.arena import ArenaConfig, play_deal, run_arena, seatings
from canasta.arena.stats import mean_ci95, percentile
from canasta.bots import LEVELS, make_player
from canasta.bots.sampling import Memory, determinize, unseen_cards
from canasta.cli import main
from canasta.match import Match
from canasta.moves import ASK, YES
from canasta.rules import Rules
from canasta.view import view_of

from conftest import position
from test_view import shuffle_hidden

TABLES = [("classic", 2), ("classic", 3), ("classic", 4), ("modern-american", 4),
          ("ponytail", 4), ("ponytail", 6)]


def play_hand(rules: Rules, seed: int, levels: dict[int, str]) -> Match:
    bots = {s: make_player(lv, seed * 10 + s, rounds=2) for s, lv in levels.items()}
    for s, b in bots.items():
        b.new_hand(s)
    match = Match(rules, seed)
    state = match.state
    while state.result is None:
        seat = state.turn
        move = bots[seat].choose(view_of(state, seat))
        match.apply(move, seat)  # raises if a bot ever picks an illegal move
    return match


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_every_level_plays_whole_hands(variant: str, players: int) -> None:
    rules = Rules.make(variant, players)
    hands = 20 if variant == "classic" else (12 if variant == "modern-american" else 3)
    for seed in range(hands):
        levels = {s: LEVELS[(seed + s) % len(LEVELS)] for s in range(players)}
        assert play_hand(rules, seed, levels).state.result is not None


@pytest.mark.parametrize("level", ["basic", "expert", "master"])
@pytest.mark.parametrize(("variant", "players"), [("classic", 4), ("modern-american", 4),
                                                  ("ponytail", 4)])
def test_decisions_ignore_hidden_cards(level: str, variant: str, players: int) -> None:
    rng = random.Random(3)
    match = Match(Rules.make(variant, players), seed=11)
    state = match.state
    for _ in range(120 if level != "master" else 30):
        if state.result is None and state.turn is not None:
            seat = state.turn
            view = view_of(state, seat)
            other = shuffle_hidden(state, seat, rng)
            assert view_of(other, seat) == view
            a = make_player(level, 5, rounds=2).choose(view)
            b = make_player(level, 5, rounds=2).choose(view_of(other, seat))
            assert a == b
            match.apply(rng.choice(state.legal_moves()))


def test_same_seed_same_decisions() -> None:
    rules = Rules.make("classic", 4)
    levels = {0: "expert", 1: "basic", 2: "master", 3: "basic"}
    a = play_hand(rules, 21, levels)
    b = play_hand(rules, 21, levels)
    assert a.moves == b.moves


def test_determinization_agrees_with_the_view() -> None:
    match = Match(Rules.make("ponytail", 4), seed=4)
    rng = random.Random(1)
    for _ in range(40):
        match.apply(rng.choice(match.state.legal_moves()))
    view = view_of(match.state, match.state.turn)
    memory = Memory()
    memory.update(view)
    sample = determinize(view, random.Random(2), memory)
    assert view_of(sample, view.seat) == view
    assert sample.count_cards() == match.state.count_cards()
    assert len(unseen_cards(view)) == (sum(view.hand_sizes) - len(view.hand) + view.stock_size
                                       + sum(n or 0 for n in view.ponytail_sizes))


def test_partner_answers_and_asks() -> None:
    # Seat 0 can go out (eights + the king canasta); the expert partner at seat 2 answers.
    state = position(hands=[["8C", "8D", "8H", "5C"], ["TC", "TD"], ["QC", "4D"], ["6C", "6D"]],
                     melds=[[["KS", "KH", "KD", "KC", "KS", "KH", "KD"]], [["9S", "9H", "9D"]]],
                     discard=["4C"], stock=["7C", "JD"], phase="play")
    assert ASK in state.legal_moves()
    state.apply("ask")
    answer = make_player("expert", 1).choose(view_of(state, 2))
    assert answer in (YES, state.parse("no"))
    assert answer == YES  # a small hand and a small pile: nothing to play on for
    # The expert asks before going out when its partner is there to ask.
    state = position(hands=[["8C", "8D", "8H", "5C"], ["TC", "TD"], ["QC", "4D"], ["6C", "6D"]],
                     melds=[[["KS", "KH", "KD", "KC", "KS", "KH", "KD"]], [["9S", "9H", "9D"]]],
                     discard=["4C"], stock=["7C", "JD"], phase="play")
    assert make_player("expert", 1).choose(view_of(state, 0)) == ASK


def test_confidence_interval_on_a_known_case() -> None:
    mean, (lo, hi) = mean_ci95([1.0, 2.0, 3.0, 4.0, 5.0])
    assert round(mean - lo, 9) == round(hi - mean, 9)
    assert mean == 3.0
    assert round(hi - mean, 3) == round(2.776 * (2.5 ** 0.5) / (5 ** 0.5), 3)
    assert mean_ci95([7.0] * 50) == (7.0, (7.0, 7.0))
    assert percentile([1, 2, 3, 4, 5], 50) == 3 and percentile([1, 2, 3, 4, 5], 95) == 4.8


def test_seatings_put_each_side_everywhere() -> None:
    rules = Rules.make("classic", 4)
    plays = seatings(rules, ("expert", "basic"), ("random",))
    assert plays == [{0: "expert", 2: "basic", 1: "random", 3: "random"},
                     {1: "expert", 3: "basic", 0: "random", 2: "random"}]
    assert len(seatings(Rules.make("classic", 3), ("expert",), ("basic",))) == 3


@pytest.mark.parametrize(("variant", "players"), [("classic", 4), ("classic", 3),
                                                  ("modern-american", 4)])
def test_duplicate_deals_give_both_sides_the_same_cards(variant: str, players: int) -> None:
    # The same players on both sides: each seating replays the same game, so every deal's
    # difference is exactly zero.
    config = ArenaConfig(variant, players, ("basic",), ("basic",), 6, seed=3)
    for deal in range(config.deals):
        plays = play_deal(config, deal)
        assert sum(p.a - p.b for p in plays) == 0
    report = run_arena(config, executor="serial")
    assert report.mean_diff == 0 and report.ci95 == (0.0, 0.0)


def test_executors_agree() -> None:
    config = ArenaConfig("classic", 4, ("basic", "random"), ("random",), 8, seed=5)
    serial = run_arena(config, "serial").to_json()
    pooled = run_arena(config, "process", workers=2).to_json()
    for key in ("mean_diff", "ci95", "hands_won", "went_out", "canastas"):
        assert serial[key] == pooled[key]


def test_the_ray_executor_agrees() -> None:
    pytest.importorskip("ray")  # the cluster extra (make test installs it)
    config = ArenaConfig("classic", 4, ("basic", "random"), ("random",), 8, seed=5)
    serial = run_arena(config, "serial").to_json()
    on_ray = run_arena(config, "ray", workers=2).to_json()
    for key in ("mean_diff", "ci95", "hands_won", "went_out", "canastas"):
        assert serial[key] == on_ray[key]


def test_arena_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--team", "basic,basic", "--vs", "random,random", "--deals", "4",
                 "--seed", "1", "--json", "--executor", "serial"]) == 0
    report = json.loads(capsys.readouterr().out)
    for key in ("deals", "mean_diff", "ci95", "hands_won", "went_out", "decision_ms"):
        assert key in report
    assert report["deals"] == 4 and len(report["ci95"]) == 2
    assert set(report["decision_ms"][0]) >= {"p50", "p95"}


def test_arena_bad_levels(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--team", "genius", "--deals", "2"]) == 2
    assert "levels are" in capsys.readouterr().err


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_penalties_without_holdings_come_from_moves_only(variant: str, players: int) -> None:
    """Where the variant does not dock what a side holds (``penalizes_holdings``), a side's
    penalties are exactly those its moves incurred: the basic player's shortcut relies on it."""
    rules = Rules.make(variant, players, table_penalties_mode=True) if variant == "classic" \
        else Rules.make(variant, players)
    v = rules.variant
    assert v.penalizes_holdings == (variant == "modern-american")
    rng = random.Random(4)
    for seed in range(2):
        match = Match(rules, seed)
        state = match.state
        while state.result is None:
            for side in range(rules.n_sides):
                got = v.score_side(state, side, False, False)["penalties"]
                assert got == -v.side_penalties(state, side)
                if not v.penalizes_holdings:
                    assert got == -state.penalties[side]
            match.apply(rng.choice(state.legal_moves()), state.turn)


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_basic_plays_in_a_given_world_without_changing_it(variant: str, players: int) -> None:
    """The search hands its playouts' world to the basic player: its choice is legal there
    and the world is left as it was."""
    from canasta.bots.basic import BasicPlayer
    from canasta.position import position_to_json

    rules = Rules.make(variant, players)
    bot = BasicPlayer(5)
    match = Match(rules, seed=8)
    state = match.state
    for _ in range(150):
        if state.result is not None:
            break
        view = view_of(state, state.turn)
        before = position_to_json(state)
        move = bot.choose(view, state)
        assert position_to_json(state) == before
        assert move in view.legal_moves
        match.apply(move, state.turn)


def test_copies_are_complete_and_keep_plans_only_when_asked() -> None:
    from canasta.engine.state import HandState
    from canasta.position import position_to_json

    match = Match(Rules.make("ponytail", 4), seed=2)
    state = match.state
    rng = random.Random(1)
    for _ in range(40):
        match.apply(rng.choice(state.legal_moves()), state.turn)
    moves = state.legal_moves()
    assert state.plans is not None
    plain, kept = state.copy(), state.copy(plans=True)
    # A class compiled by mypyc lists its attributes in __mypyc_attrs__, not __slots__.
    names = getattr(HandState, "__slots__", None) or HandState.__mypyc_attrs__
    assert "plans" in names
    for name in names:
        getattr(plain, name)  # every slot is set
    assert plain.plans is None and kept.plans is state.plans
    assert position_to_json(plain) == position_to_json(state) == position_to_json(kept)
    kept.apply(moves[0])  # playing drops the plans of the copy, not the original's
    assert kept.plans is None and state.plans is not None
    assert position_to_json(state) == position_to_json(plain)


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_moves_the_basic_player_need_not_try_never_end_the_hand(variant: str,
                                                                 players: int) -> None:
    """The basic player skips trying the moves ``_cannot_end_hand`` names: played, none of
    them ever ends the hand (every listed move of random hands, every table)."""
    from canasta.bots.basic import _cannot_end_hand

    rules = Rules.make(variant, players)
    rng = random.Random(6)
    tried = 0
    for seed in range(3):
        match = Match(rules, seed)
        state = match.state
        while state.result is None:
            view = view_of(state, state.turn)
            for m in view.legal_moves:
                if _cannot_end_hand(view, state, m):
                    after = state.copy()
                    after.apply(m)
                    assert after.result is None, m
                    tried += 1
            match.apply(rng.choice(view.legal_moves), state.turn)
    assert tried > 100


def test_a_move_taken_back_for_a_penalty_moves_no_card_in_memory() -> None:
    """Table penalties: a take below the minimum is taken back, so the pile stays where it was
    and nobody's memory (nor the observation's known cards) puts it into the taker's hand."""
    from canasta.envs.observation import known_cards

    state = position(options={"table_penalties_mode": True}, turn=1,
                     hands=[["4C", "5D"], ["9C", "9S", "KD"], ["6C"], ["7C"]],
                     discard=["QH", "5C", "9H"], stock=["8C", "8D", "8H"])
    memory = Memory()
    memory.update(view_of(state, 0))
    state.apply("take 9C 9S")
    assert state.penalties == [0, 100] and len(state.pile) == 3
    view = view_of(state, 0)
    assert view.penalized == {len(view.history) - 1}
    memory.update(view)
    assert memory.known_cards(1) == [] and known_cards(view)[1] == []
    world = determinize(view, random.Random(1), memory)
    assert world.penalized == list(view.penalized) and len(world.hands[1]) == 3
