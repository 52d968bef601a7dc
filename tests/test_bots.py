"""Computer players and the arena (issue: computer players worth playing with)."""

from __future__ import annotations

import json
import math
import random
import time
from pathlib import Path
from typing import Any

import pytest

from canasta.arena import MAX_HANDS, ArenaConfig, format_report, play_deal, run_arena, seatings
from canasta.arena.stats import mean_ci95, percentile, sign_test
from canasta.bots import LEVELS, make_player
from canasta.bots.basic import BasicPlayer
from canasta.bots.evaluate import (
    WILD_PRICE,
    discard_danger,
    evaluate,
    take_chance,
    take_chances,
)
from canasta.bots.expert import ExpertPlayer
from canasta.bots.master import EXPERT_FOLLOW, MasterPlayer, bar
from canasta.bots.sampling import Memory, determinize, unseen_cards
from canasta.cli import main
from canasta.engine.state import HandState
from canasta.match import Match
from canasta.moves import ASK, YES, MoveKind
from canasta.rules import Rules
from canasta.strategy import load_cases, play_case
from canasta.view import view_of

from conftest import position
from test_view import shuffle_hidden

ROOT = Path(__file__).resolve().parent.parent
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
    # The levels turn one seat per hand, so eight hands put every level in every seat twice
    # (Ponytail's hands are long: three, every level at the table in each).
    hands = 8 if variant != "ponytail" else 3
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


def test_sign_test_on_known_cases() -> None:
    # Nine wins in ten: 2 * (C(10, 9) + C(10, 10)) / 2**10.
    assert round(sign_test(9, 1), 6) == round(2 * 11 / 1024, 6) == round(sign_test(1, 9), 6)
    assert sign_test(5, 5) == 1.0 and sign_test(0, 0) == 1.0
    # Thousands of trials stay finite: 1,099 against 873 is far beyond chance, 1,000 against
    # 972 is not.
    assert sign_test(1099, 873) < 1e-5 and 0.5 < sign_test(1000, 972) < 0.6


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
    assert report.deals_won == (0, 0) and report.sign_p == 1.0


def test_executors_agree() -> None:
    config = ArenaConfig("classic", 4, ("basic", "random"), ("random",), 8, seed=5)
    serial = run_arena(config, "serial").to_json()
    pooled = run_arena(config, "process", workers=2).to_json()
    for key in ("mean_diff", "ci95", "hands_won", "went_out", "canastas"):
        assert serial[key] == pooled[key]


@pytest.mark.slow  # starts a Ray cluster
def test_the_ray_executor_agrees() -> None:
    pytest.importorskip("ray")  # the cluster extra (make test installs it)
    config = ArenaConfig("classic", 4, ("basic", "random"), ("random",), 8, seed=5)
    serial = run_arena(config, "serial").to_json()
    on_ray = run_arena(config, "ray", workers=2).to_json()
    for key in ("mean_diff", "ci95", "hands_won", "went_out", "canastas"):
        assert serial[key] == on_ray[key]


def test_arena_matches_end_at_the_cap_of_hands() -> None:
    # Random players in Modern American may never reach the target: a match still undecided
    # after max_hands hands ends there, won by the side ahead.
    config = ArenaConfig("modern-american", 4, ("random",), ("random",), 2, seed=2, match=True,
                         max_hands=3)
    plays = play_deal(config, 0)
    assert [(p.hands, p.capped) for p in plays] == [(3, True), (3, True)]
    report = run_arena(config, "serial")
    assert report.capped == report.plays == 4
    assert report.hands_won[0] + report.hands_won[1] <= 4
    assert "(4 undecided after 3 hands: the side ahead wins)" in format_report(report)
    out = report.to_json()
    assert out["max_hands"] == 3 and out["capped"] == 4
    # A match that reaches the target ends there, as before; single hands are never cut.
    config = ArenaConfig("classic", 2, ("basic",), ("random",), 1, seed=2, match=True,
                         target=1500)
    assert not any(p.capped for p in play_deal(config, 0))
    assert config.max_hands == MAX_HANDS == 100
    config = ArenaConfig("classic", 4, ("random",), ("random",), 1, max_hands=0)
    assert [(p.hands, p.capped) for p in play_deal(config, 0)] == [(1, False), (1, False)]


def test_arena_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--team", "basic,basic", "--vs", "random,random", "--deals", "4",
                 "--seed", "1", "--json", "--executor", "serial"]) == 0
    report = json.loads(capsys.readouterr().out)
    for key in ("deals", "mean_diff", "ci95", "hands_won", "deals_won", "sign_p", "went_out",
                "decision_ms"):
        assert key in report
    assert report["deals"] == 4 and len(report["ci95"]) == 2
    assert set(report["decision_ms"][0]) >= {"p50", "p95"}


def test_arena_report_of_one_deal_is_valid_json(capsys: pytest.CaptureFixture[str]) -> None:
    # One deal has no confidence interval (Student's t with no degree of freedom): JSON says
    # null, where Python's json would write -Infinity and Infinity, which JSON does not have.
    args = ["arena", "--team", "random", "--vs", "random", "--deals", "1", "--executor",
            "serial"]
    assert main([*args, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ci95"] == [None, None]
    json.dumps(report, allow_nan=False)
    assert main(args) == 0
    assert "(no 95% CI from a single deal)" in capsys.readouterr().out
    config = ArenaConfig("classic", 4, ("random",), ("random",), 1)
    json.dumps(run_arena(config, "serial").to_json(), allow_nan=False)


def test_arena_bad_levels(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--team", "genius", "--deals", "2"]) == 2
    assert "levels are" in capsys.readouterr().err


def test_arena_refuses_more_levels_than_a_side_has_seats(
        capsys: pytest.CaptureFixture[str]) -> None:
    for args, said in (
            (["--team", "expert,expert,expert"], "--team lists 3 levels, but side A has 2 seats "
                                                 "at a 4-player classic table"),
            (["--players", "2", "--team", "expert,basic"], "--team lists 2 levels, but side A "
                                                           "has 1 seat at a 2-player classic "
                                                           "table"),
            (["--players", "3", "--vs", "basic,basic,random"], "--vs lists 3 levels, but side B "
                                                               "has 2 seats at a 3-player "
                                                               "classic table (every seat but "
                                                               "side A's)")):
        assert main(["arena", "--deals", "1", "--executor", "serial", *args]) == 2
        assert capsys.readouterr().err == f"canasta: {said}\n"
    # The defaults fill every seat of their side; fewer levels than seats are taken in turn.
    assert main(["arena", "--players", "2", "--vs", "random", "--deals", "1", "--executor",
                 "serial", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["team"] == ["expert"] and report["vs"] == ["random"]
    assert main(["arena", "--players", "3", "--team", "random", "--deals", "1", "--executor",
                 "serial", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["vs"] == ["basic", "basic"]
    assert seatings(Rules.make("ponytail", 6), ("basic",), ("random", "expert"))[0] == {
        0: "basic", 3: "basic", 1: "random", 2: "expert", 4: "random", 5: "expert"}


def test_arena_refuses_fewer_than_one_worker(capsys: pytest.CaptureFixture[str]) -> None:
    for executor in ("process", "ray", "serial"):
        for workers in ("0", "-1"):
            assert main(["arena", "--deals", "2", "--executor", executor, "--workers",
                         workers]) == 2
            assert capsys.readouterr().err == "canasta: --workers must be at least 1\n"


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


# --- the judgement pieces (issue: computer players a club player respects) -----------------

def _discard_position() -> HandState:
    """Classic, seat 0 to discard onto a 12-card pile; the next side (seats 1 and 3) has
    nines on the table; every king is in sight (seat 0 holds the eighth); seat 1 holds 11."""
    return position(
        phase="play",
        hands=[["9C", "KD", "6S", "5S", "3S"],
               ["TC", "TD", "TH", "JC", "JD", "JH", "QC", "QD", "QH", "8C", "8D"],
               ["4H"], ["4D"]],
        melds=[[["KH", "KS", "KC", "KH", "KS", "KC", "KD"]], [["9H", "9D", "9S"]]],
        discard=["4S", "7C", "7D", "7H", "7S", "8H", "8S", "AC", "AD", "AH", "AS", "6C"],
        stock=["5C", "5D", "5H", "6D", "6H", "JS", "QS", "TS"])


def test_take_chance_reads_the_table_the_memory_and_the_passes() -> None:
    """The discard-safety model judges what the next player can take the pile with from what
    the seat may see: the next side's melds, the cards it saw that player take, the ranks that
    player let go by, and the cards of the rank nobody has seen."""
    state = _discard_position()
    nine, king, six, five = (next(c for c in state.hands[0] if c.rank == r)
                             for r in ("9", "K", "6", "5"))
    assert take_chance(state, 1, nine, 0) >= 0.9  # their nines on the table, the pile open
    assert take_chance(state, 1, king, 0) == 0.0  # every other king is in sight
    fresh = take_chance(state, 1, six, 0)
    assert 0.0 < fresh < 0.9
    memory = Memory()
    memory.passed[1] = ["6"]
    assert take_chance(state, 1, six, 0, memory) < fresh
    memory.known[1] = [c for c in state.stock if c.rank == "5"][:2]
    assert take_chance(state, 1, five, 0, memory) == 1.0  # a pair it was seen to take


def test_a_pass_is_remembered() -> None:
    """A player who draws from the stock with a natural card on the pile let that rank go."""
    state = position(turn=1, hands=[["4C"], ["9C", "KD"], ["6C"], ["7C"]],
                     discard=["QH", "5C", "6H"], stock=["8C", "8D", "8H"])
    memory = Memory()
    memory.update(view_of(state, 0))
    state.apply("draw")
    memory.update(view_of(state, 0))
    assert memory.passed_on(1, "6") and not memory.passed_on(1, "5")


def test_the_expert_keeps_the_discard_the_next_side_can_use() -> None:
    state = _discard_position()
    expert = make_player("expert", 1)
    expert._noise = lambda view: 10_000.0  # type: ignore[method-assign]
    expert.new_hand(0)
    while state.turn == 0:
        move = expert.choose(view_of(state, 0))
        state.apply(move)
    assert move.kind is MoveKind.DISCARD and move.card is not None and move.card.rank != "9"


def test_a_big_modern_american_pile_is_judged_with_the_melds_that_follow() -> None:
    """The issue's example: a 26-card pile holding seven aces and seven sevens. Taken, the
    three-aces and three-sevens penalties of the cards in hand go as soon as they are melded
    (two 2,500-point canastas): judged one move deep, the take looked like -2,494."""
    def cards(text: str) -> list[str]:
        return text.split()

    pile = cards("AS AH 7S 7H 4C AD 7D 5C AC 7C 9D AS 6H 7S 8C AH TD 7H 9S AD 6C 7D JC TD 5H KD")
    state = position(variant="modern-american", hands=[
        cards("KS KH 4D 5S 6D 8H 9H JD"), cards("4S 5D 6S 8D 9C TC JH QS"),
        cards("4H 5H 6C 8S 9D TS JS QH"), cards("4C 5C 6H 8C 9S TH JC QD")],
        melds=[[["QH", "QD", "QC"]], []], discard=pile,
        stock=cards("3C 3D 2C 2D JK TH TS 8D 8H"))
    assert [sum(c.rank == r for c in state.pile) for r in "A7"] == [7, 7]
    move = make_player("expert", 1).choose(view_of(state, 0))
    assert move.kind is MoveKind.TAKE


@pytest.mark.parametrize("name", [
    "classic-4p-do-not-spend-a-joker-on-a-one-card-pile",  # wild-card economy
    "classic-4p-freeze-with-the-deuce-not-the-joker",  # a joker kept is worth more
    "classic-4p-take-with-the-natural-pair-not-the-joker",  # a natural pair before a wild
    "classic-4p-no-joker-on-a-natural-canasta",  # no wild on a finished canasta
    "ponytail-4p-draw-rather-than-take-five-black-threes",  # the take judged with its cards
    "classic-4p-do-not-strip-the-hand-before-a-canasta",  # tempo
    "ma-the-dead-five-is-the-safe-discard",  # discard safety: a closed rank
    "classic-4p-answer-yes-holding-one-card",  # the answer weighs what waiting can gain
    "ma-answer-yes-while-the-opponents-have-no-canasta",
    "classic-4p-answer-no-to-meld-a-heavy-hand",  # the play-outs keep a natural canasta
])
def test_the_expert_plays_the_issues_cases_as_a_strong_player(name: str) -> None:
    case = next(c for c in load_cases([ROOT / "tests" / "strategy"]) if c.name == name)
    assert case.passes(play_case(case, "expert"))


def test_the_masters_bar_grows_with_the_moves_compared() -> None:
    """Several moves compared with the expert's choice: each must clear a higher bar, so that
    noise alone replaces the expert's choice with the same small chance."""
    assert 1.6 < bar(1) < 1.7 and bar(4) > bar(2) > bar(1)


def test_the_master_needs_a_margin_to_trade_a_safe_discard_for_a_feed() -> None:
    state = _discard_position()
    view = view_of(state, 0)
    master = MasterPlayer(1, rounds=4)
    master.expert.memory.update(view)
    safe, feed = (next(m for m in view.legal_moves if m.kind is MoveKind.DISCARD
                       and m.card is not None and m.card.rank == r) for r in ("3", "9"))
    assert master._feed_margin(state, view, safe, feed) > 100
    assert master._feed_margin(state, view, feed, safe) == 0.0


def test_the_expert_sheds_one_of_three_sevens_when_the_hand_may_end() -> None:
    """Modern American: three sevens held when the hand ends cost 1,500, an unfinished sevens
    meld more; with the opponents free to go out the expert neither melds them nor keeps all
    three: the penalty for cards held together is lifted by discarding one of them."""
    state = position(
        variant="modern-american", phase="play",
        hands=[["7C", "7D", "7H", "8C", "5D", "4H"], ["JK", "JK"],
               ["2H", "2C", "2D", "TC", "4C", "5H", "5S", "8H"], ["8D", "TH", "AD"]],
        melds=[[["KH", "KD", "KS", "KC", "KH", "KD", "KS"], ["6C", "6D", "6H"]],
               [["QH", "QD", "QS", "QC", "QH", "QD", "QS"],
                ["9C", "9D", "9H", "9S", "9C", "9D", "2S"]]],
        threes=[["3H", "3D", "3C"], ["3S", "3H", "3C"]],
        discard=["TD", "5C", "AC", "4S", "QC", "JH"], stock=["4S", "3D", "3S", "4D"])
    expert = make_player("expert", 1)
    expert.new_hand(0)
    played = []
    while state.turn == 0 and state.result is None:
        move = expert.choose(view_of(state, 0))
        played.append(move)
        state.apply(move)
    assert not any(m.kind is MoveKind.MELD and m.rank == "7" for m in played)
    last = played[-1]
    assert last.kind is MoveKind.DISCARD and last.card is not None and last.card.rank == "7"


def test_the_master_finishes_its_own_turn_as_the_expert_in_its_play_outs() -> None:
    """The improved expert plays inside the master's search: after a take, the melds and the
    discard of the master's own turn are the expert's decisions in that same world, and the
    other seats then play the basic policy."""
    state = position(
        hands=[["QC", "QD", "KS", "KD", "5S", "6D", "8H"], ["4C", "9D", "TS", "JC"],
               ["4H", "9H", "TH", "JH"], ["4D", "9S", "TD", "JD"]],
        melds=[[["AH", "AD", "AS"]], []], discard=["7D", "8C", "QS"],
        stock=["5C", "5D", "5H", "6C", "6H", "7C", "7H", "8D", "JS", "KC", "TC", "9C"])
    master = MasterPlayer(1, rounds=4)
    master.new_hand(0)
    asked: list[tuple[int, str]] = []
    decide = master.expert.decide

    def recorded(view: Any, world: HandState | None = None) -> Any:
        asked.append((view.seat, view.phase))
        assert world is not None  # a play-out's decisions are judged in its own world
        return decide(view, world)

    master.expert.decide = recorded  # type: ignore[method-assign]
    take = next(m for m in state.legal_moves() if m.kind is MoveKind.TAKE)
    master._playout(state, 0, take)
    assert asked and all(seat == 0 and phase == "play" for seat, phase in asked)
    assert len(asked) <= EXPERT_FOLLOW
    assert master.opponents.holds_back is False and master.policy.holds_back is True


def test_the_evaluation_reads_no_hidden_card() -> None:
    """The judgement of a position is the seat's own: two deals of the cards it cannot see,
    one giving an opponent three aces (1,500 against them if the hand ended now), judge the
    same, so a determinized world's guesses add no noise to the comparison of moves."""
    def deal(opponent: list[str], stock: list[str]) -> HandState:
        return position(
            variant="modern-american", phase="play",
            hands=[["KS", "KD", "9H", "JC", "5D"], opponent, ["6S", "8S", "9S", "TS"],
                   ["6D", "9C", "TC", "TH"]],
            melds=[[["QH", "QD", "QC"]], [["JH", "JD", "JS"]]], discard=["TD", "4S"],
            stock=stock)

    aces = deal(["AC", "AD", "AH", "4C"], ["4H", "5C", "6C", "8D", "8H"])
    none = deal(["4H", "5C", "6C", "8D"], ["AC", "AD", "AH", "4C", "8H"])
    assert view_of(aces, 0) == view_of(none, 0)
    assert evaluate(aces, 0) == evaluate(none, 0)


def test_the_noise_margin_never_trades_a_safe_discard_for_a_feed() -> None:
    """Within its noise margin the expert plays the basic player's choice, but not a discard
    the next side can take the pile with in place of its own safer one (here the margin is
    made wide enough to cover the feed's cost, as Ponytail's wider margin did for small piles)."""
    state = _discard_position()
    expert = ExpertPlayer(1)
    feed = next(m for m in view_of(state, 0).legal_moves if m.kind is MoveKind.DISCARD
                and m.card is not None and m.card.rank == "9")

    class Feeder:
        # A stand-in, not a patch: the compiled BasicPlayer's methods cannot be reassigned.
        def __init__(self, real: Any) -> None:
            self.real = real

        def choose(self, view: Any, world: Any = None) -> Any:
            return feed if feed in view.legal_moves else view.legal_moves[0]

        def __getattr__(self, name: str) -> Any:
            return getattr(self.real, name)

    expert.basic = Feeder(expert.basic)  # type: ignore[assignment]
    expert._noise = lambda view: 10_000.0  # type: ignore[method-assign]
    expert.new_hand(0)
    while state.turn == 0:
        move = expert.choose(view_of(state, 0))
        state.apply(move)
    assert move.kind is MoveKind.DISCARD and move.card is not None and move.card.rank != "9"


def _question() -> tuple[HandState, ExpertPlayer]:
    """Seat 2 asks "may I go out?" with a long hand still to play for everyone: its partner,
    seat 0, has the question to answer."""
    state = position(
        hands=[["AS", "AH", "JK", "QC", "QH", "8C", "8D", "2D"],
               ["7D", "6S", "8C", "TC", "5C", "TD", "JC", "2H", "JK", "JD", "JH"],
               ["KC", "5D"], ["2S", "JH", "6S", "6D", "TH", "7C", "4D", "JK", "2D", "6H", "9S"]],
        melds=[[["KH", "KD", "KS", "KC", "KH", "KD", "KS"], ["AH", "AD", "AC"],
                ["QH", "QD", "QS"], ["8H", "8D", "8S"]], []],
        discard=["9H", "5C", "5H", "7H", "7S", "7D", "6C", "5H", "7S", "6D", "9C", "6H"],
        stock=["4C", "TS", "5S", "JC", "4C", "4S", "9S", "9D", "8S", "4H", "QC", "JD", "9C",
               "3C", "3S", "TD", "TH", "5D", "5S", "4D", "4H", "6C", "7C", "8H", "9D", "TC"],
        turn=2, phase="play")
    state.apply("ask")
    expert = ExpertPlayer(1)
    expert.new_hand(0)
    expert.memory.update(view_of(state, 0))
    return state, expert


class _Counted:
    """A policy that counts the moves it chooses: an interpreted wrapper, since the compiled
    core's players take no attribute set from outside."""

    def __init__(self, policy: Any, played: list[int]) -> None:
        self.policy, self.played = policy, played

    def choose(self, seen: Any, world: Any = None) -> Any:
        self.played.append(1)
        return self.policy.choose(seen, world)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.policy, name)


def test_the_answers_play_outs_stop_at_their_move_budget(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """Each play-out of an answer plays ANSWER_MOVES moves at most, then the evaluation judges
    the hand where it stands: the answer's cost is bounded whatever the hand still holds."""
    import canasta.bots.expert as expert_module

    state, expert = _question()
    view = view_of(state, 0)
    played: list[int] = []
    monkeypatch.setattr(expert_module, "ANSWER_CAP", math.inf)  # moves, not time, bound it here
    monkeypatch.setattr(expert, "basic", _Counted(expert.basic, played))
    monkeypatch.setattr(expert, "eager", _Counted(expert.eager, played))
    unbounded = expert._play_on(state, view, state.parse("no"))
    assert len(played) > 3 and state.result is None  # the hand goes on well past three moves
    played.clear()
    monkeypatch.setattr(expert_module, "ANSWER_MOVES", 3)
    bounded = expert._play_on(state, view, state.parse("no"))
    assert len(played) == 3
    assert bounded != unbounded  # judged where it stood after three moves


def test_the_answer_stops_dealing_once_its_cpu_time_is_spent(monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    """With its CPU time spent, the answer is given from the deals played so far (two at
    least, so that their spread can be judged), and it is still an answer."""
    import canasta.bots.expert as expert_module

    state, expert = _question()
    view = view_of(state, 0)
    calls: list[str] = []
    play_on = expert._play_on

    def counted(world: HandState, seen: Any, answer: Any, deadline: float) -> float:
        calls.append(str(answer))
        return play_on(world, seen, answer, deadline)

    monkeypatch.setattr(expert, "_play_on", counted)
    monkeypatch.setattr(expert_module, "ANSWER_CPU", math.inf)  # a loaded machine's CPU time
    monkeypatch.setattr(expert_module, "ANSWER_CAP", math.inf)  # must not cut the deals short
    expert.answer_yes(state, view)
    assert len(calls) == 2 * expert_module.ANSWER_WORLDS
    calls.clear()
    monkeypatch.setattr(expert_module, "ANSWER_CPU", 0.0)
    expert.answer_yes(state, view)
    assert calls == ["no", "yes", "no", "yes"]


def test_a_play_out_stops_at_the_answers_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the answer's hard cap a play-out plays no further move: the hand is judged where
    it stands (right after the answer)."""
    state, expert = _question()
    view = view_of(state, 0)
    played: list[int] = []
    monkeypatch.setattr(expert, "basic", _Counted(expert.basic, played))
    monkeypatch.setattr(expert, "eager", _Counted(expert.eager, played))
    after = state.copy()
    after.apply(state.parse("no"))
    assert expert._play_on(state, view, state.parse("no"), deadline=0.0) == evaluate(after, 0)
    assert played == []


def test_a_take_is_judged_with_every_card_of_a_rank_laid_down_together() -> None:
    """Modern American (hand 68 of the yardsticks' seed 1): eight sevens taken with the pile
    are a sevens canasta (2,500) once seven go down, and no three sevens held; laid down one
    at a time each step looked worth little and the judgement stopped short of it, so the
    expert drew instead."""
    def cards(text: str) -> list[str]:
        return text.split()

    pile = cards("QD AS AC JD KC AS 7H 9C KS 7C QC TC JS 7D 7S 9S 7D 9H QH JC KH 7S KH 7C 7H "
                 "9S QC AD")
    state = position(
        variant="modern-american",
        hands=[cards("AC AH"), cards("8C 2H 8D 5C 5D JK 4H 2C 4S 2C"), cards("QS"),
               cards("AH 2S AD")],
        melds=[[cards("4C 4C 4D 4D 4H 4S 2S"), cards("9C 9D 9D 9H 2H"), cards("6D 6D 6S 6S JK"),
                cards("TC TD TD TH TH TS TS"), cards("JC JD JH JH JS 2D JK"),
                cards("5C 5D 5H 5H 5S"), cards("8D 8H 8H 8S 8S")],
               [cards("KC KD KD KS JK"), cards("QD QH QS 2D"), cards("6C 6C 6H 6H")]],
        threes=[cards("3D 3C 3S"), cards("3D 3S 3H 3H 3C")],
        discard=pile, stock=cards("5S 8C"), melded=[True] * 4)
    assert sum(c.rank == "7" for c in state.pile) == 8
    move = make_player("expert", 1).choose(view_of(state, 0))
    assert move.kind is MoveKind.TAKE


def test_the_master_shortlists_from_the_experts_own_judgement() -> None:
    """The master's shortlist is the expert's ranking of the moves in the world the expert
    judged them in: each legal move is judged once, not again in a second world."""
    state = _discard_position()
    view = view_of(state, 0)
    master = MasterPlayer(1, rounds=0)  # no play-out: only the judging before the search
    master.new_hand(0)
    judged: list[str] = []
    score = master.expert.score

    def counted(world: HandState, seen: Any, move: Any, samples: int = 3) -> float:
        judged.append(str(move))
        return score(world, seen, move, samples)

    master.expert.score = counted  # type: ignore[method-assign]
    master.choose(view)
    listed = [str(m) for m in view.legal_moves if m != ASK]
    assert sorted(judged) == sorted(listed)


def test_may_go_out_follows_the_melds_as_they_change() -> None:
    """The answer is remembered for the melds it was asked about, never for a side whose
    melds have changed since."""
    from canasta.bots.evaluate import may_go_out

    state = position(hands=[["KC", "KD", "5C", "6D"], ["TC", "TD"], ["QC", "4D"], ["6C", "6S"]],
                     melds=[[["KS", "KH", "KD", "KC", "KS", "2H"]], []],
                     discard=["4C"], stock=["7C", "JD", "8C"], phase="play")
    assert not may_go_out(state, 0)
    state.apply("add K KC")
    assert may_go_out(state, 0)
    assert not may_go_out(state, 1)


def test_past_the_cap_after_one_deal_the_answer_is_yes(monkeypatch: pytest.MonkeyPatch) -> None:
    """One deal played and the hard cap spent (a listing of the asker's ways out can be slow):
    no spread to judge a no by, so the answer is the sure one."""
    import canasta.bots.expert as expert_module

    state, expert = _question()
    view = view_of(state, 0)
    calls: list[str] = []

    def waiting_pays(world: HandState, seen: Any, answer: Any, deadline: float) -> float:
        calls.append(str(answer))
        return 500.0 if str(answer) == "no" else 0.0

    monkeypatch.setattr(expert, "_play_on", waiting_pays)
    monkeypatch.setattr(expert_module, "ANSWER_CAP", -1.0)
    assert expert.answer_yes(state, view)
    assert calls == ["no", "yes"]


def _master_turns(clock: str, decisions: int) -> tuple[list[str], int]:
    """The first ``decisions`` choices of a master at seat 0 of one fixed Classic deal (the
    others basic), and the play-outs its search ran for them."""
    rules = Rules.make("classic", 4)
    master = MasterPlayer(3, rounds=8, clock=clock)
    others = {s: make_player("basic", s) for s in range(1, 4)}
    counted = [0]
    playout = master._playout

    def count(*args: Any) -> float:
        counted[0] += 1
        return playout(*args)

    master._playout = count  # type: ignore[method-assign]
    master.new_hand(0)
    state = Match(rules, 1).state
    chosen: list[str] = []
    while state.result is None and len(chosen) < decisions:
        seat = state.turn
        view = view_of(state, seat)
        move = (master if seat == 0 else others[seat]).choose(view)
        if seat == 0 and len(view.legal_moves) > 1:
            chosen.append(str(move))
        state.apply(move)
    return chosen, counted[0]


def test_the_masters_cpu_clock_plays_the_same_on_a_loaded_machine(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Benchmarks run the master on the thread's CPU time: a thread held back by the machine's
    load (here a wall clock that jumps 0.5 s at every reading) plays the same moves with the
    same search, while the wall clock's master, as live play wants, cuts its search short."""
    quiet = {clock: _master_turns(clock, 6) for clock in ("cpu", "wall")}
    assert quiet["cpu"] == quiet["wall"]  # an idle machine: neither cap binds
    real = time.perf_counter
    jumps = [0.0]

    def held_back() -> float:
        jumps[0] += 0.5
        return real() + jumps[0]

    monkeypatch.setattr(time, "perf_counter", held_back)
    assert _master_turns("cpu", 6) == quiet["cpu"]
    assert _master_turns("wall", 6)[1] < quiet["wall"][1]


def test_an_unknown_clock_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown clock 'sundial'"):
        make_player("master", 1, clock="sundial")
    with pytest.raises(ValueError, match="unknown clock"):
        make_player("expert", 1, clock="sundial")


def test_the_basic_player_keeps_a_natural_canasta_natural() -> None:
    """A wild card goes onto the queens on their way, not onto the natural kings' canasta,
    which it would turn into a mixed one (500 points become 300)."""
    state = position(
        phase="play",
        hands=[["2D", "5C", "6H"], ["4C", "9D", "TS"], ["4H", "9H", "TH"], ["4D", "9S", "TD"]],
        melds=[[["KH", "KD", "KS", "KC", "KH", "KD", "KS"], ["QH", "QD", "QS", "QC", "QH"]],
               [["AH", "AD", "AS"]]],
        discard=["7D"], stock=["5D", "5H", "6C", "6D"])
    view = view_of(state, 0)
    assert any(m.kind is MoveKind.ADD and m.rank == "K" for m in view.legal_moves)
    move = BasicPlayer(1).choose(view, state)
    assert move.kind is MoveKind.ADD and move.rank == "Q"


def test_a_take_only_a_wild_card_allows_costs_the_taker_that_wild_card() -> None:
    """The discard-safety model: the next opponent, its side open, may take a small pile with
    one natural card and a wild card, but a strong player does not spend a wild card on it;
    what such a pile gives away is only the chance of a natural pair."""
    state = position(
        phase="play",
        hands=[["6S", "9C", "KD", "5S"], ["TC", "TD", "JH", "QC", "QD", "8C", "8D"],
               ["4H"], ["4D"]],
        melds=[[["KH", "KS", "KC"]], [["9H", "9D", "9S"]]],
        discard=["4S"], stock=["5C", "5D", "5H", "6D", "6H", "JS", "QS", "TS"])
    six = next(c for c in state.hands[0] if c.rank == "6")
    natural, wild = take_chances(state, 1, six, 0)
    assert natural > 0.0 and wild > 0.0
    worth = state.pile[0].value + six.value + 2 * 25  # the pile's cards, 25 points a card
    assert worth < WILD_PRICE
    assert discard_danger(state, 1, six, 0) == pytest.approx(natural * worth)
    assert take_chance(state, 1, six, 0) == pytest.approx(natural + wild)
