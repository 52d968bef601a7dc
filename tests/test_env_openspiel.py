"""``python_canasta`` in OpenSpiel: its own random-simulation test with serialization checks,
for every variant, and our players against OpenSpiel's bots."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import mcts  # noqa: E402

import canasta.envs.openspiel as cos  # noqa: E402
from canasta.bots import make_player  # noqa: E402
from canasta.bots.sampling import determinize  # noqa: E402
from canasta.envs.observation import observation_string, observe  # noqa: E402
from canasta.envs.seat import STAGED_SIZE  # noqa: E402
from canasta.match import Match  # noqa: E402
from canasta.moves import YES  # noqa: E402
from canasta.view import view_of  # noqa: E402

from conftest import ROOT, position  # noqa: E402

TABLES = [("classic", 2), ("classic", 3), ("classic", 4), ("modern-american", 4),
          ("ponytail", 4), ("ponytail", 6)]


def _dealt(game: object, rng: random.Random) -> object:
    """A new state of ``game`` after its chance nodes (the deal), outcomes drawn by ``rng``."""
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, probs)[0])
    return state


@pytest.mark.slow  # whole random games through OpenSpiel
@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_openspiel_random_simulation_with_serialization(variant: str, players: int) -> None:
    game = pyspiel.load_game("python_canasta", {"variant": variant, "players": players})
    assert game.num_players() == players
    assert game.num_distinct_actions() == cos.action_space(game.rules).size
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_openspiel_match_mode() -> None:
    game = pyspiel.load_game("python_canasta", {"variant": "classic", "players": 4,
                                                "match": True, "target": 2500,
                                                "max_hands": 2})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            assert abs(sum(probs) - 1) < 1e-9
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state.env.state.hand_number <= 2
    assert sorted(state.returns()) in ([-1.0, -1.0, 1.0, 1.0], [0.0] * 4)


def test_parameters_and_bad_input() -> None:
    game = pyspiel.load_game("python_canasta(variant=ponytail,players=6)")
    assert game.num_players() == 6
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("python_canasta", {"variant": "modern-american", "players": 3})
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert len(state.chance_outcomes()) == 53  # every card value, jokers included
    ser = pyspiel.serialize_game_and_state(game, state)
    _, again = pyspiel.deserialize_game_and_state(ser)
    assert str(again) == str(state)


def test_observation_is_the_seat_view_plus_its_staged_groups() -> None:
    game = pyspiel.load_game("python_canasta", {"variant": "classic", "players": 4})
    rng = random.Random(1)
    state = _dealt(game, rng)
    for _ in range(200):
        if state.is_terminal():
            break
        for seat in range(4):
            tensor = np.asarray(state.observation_tensor(seat), np.float32)
            view = view_of(state.env.state, seat)
            assert np.array_equal(tensor[:-STAGED_SIZE], observe(view))
            if seat != state.current_player():
                assert not tensor[-STAGED_SIZE:].any()
            # Built from the seat's view only (tests/test_env_observation.py shows that the
            # view-based observation never changes when the hidden cards are dealt again).
            assert state.observation_string(seat).startswith(observation_string(view))
        state.apply_action(rng.choice(state.legal_actions()))


def test_an_openspiel_mcts_bot_plays_through_the_arena_player() -> None:
    game = pyspiel.load_game("python_canasta", {"variant": "classic", "players": 4})

    def make_bot(seat: int, seed: int) -> object:
        rs = np.random.RandomState(seed)
        return mcts.MCTSBot(game, uct_c=300.0, max_simulations=4,
                            evaluator=mcts.RandomRolloutEvaluator(1, rs), random_state=rs)

    player = cos.OpenSpielPlayer(game, make_bot, seed=1)
    match = Match(game.rules, seed=4)
    state = match.state
    bots = {s: make_player("basic", s) for s in range(1, 4)}
    player.new_hand(0)
    for s, b in bots.items():
        b.new_hand(s)
    moves = 0
    while state.result is None and moves < 60:
        seat = state.turn
        view = view_of(state, seat)
        move = player.choose(view) if seat == 0 else bots[seat].choose(view)
        assert move in view.legal_moves
        match.apply(move)
        moves += 1
    assert moves > 10


def test_openspiel_evaluation_tools_play_whole_hands() -> None:
    """OpenSpiel's own evaluation loop, its uniform random bot and its (Python) MCTS bot play a
    whole hand, the deal's chance nodes included.  (OpenSpiel's C++ ``pyspiel.MCTSBot``
    crashes on every Python game, its own ``python_tic_tac_toe`` included: use the Python
    one.)"""
    from open_spiel.python.algorithms import evaluate_bots
    from open_spiel.python.bots import uniform_random

    game = pyspiel.load_game("python_canasta", {"variant": "classic", "players": 2})
    rs = np.random.RandomState(5)
    bots = [mcts.MCTSBot(game, uct_c=300.0, max_simulations=2,
                         evaluator=mcts.RandomRolloutEvaluator(1, rs), random_state=rs),
            uniform_random.UniformRandomBot(1, np.random.RandomState(1))]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(3))
    assert len(returns) == 2 and returns[0] == -returns[1] and returns[0] != 0


def test_the_public_observation_leaves_out_the_seat_cards() -> None:
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("python_canasta", {"variant": "classic", "players": 2})
    public = make_observation(game, pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE))
    assert make_observation(game, pyspiel.IIGObservationType(perfect_recall=True)) is None
    rng = random.Random(2)
    state = _dealt(game, rng)
    for _ in range(5):
        state.apply_action(rng.choice(state.legal_actions()))
    texts, tensors = [], []
    for seat in range(2):
        public.set_from(state, seat)
        tensors.append(public.tensor.copy())
        texts.append(public.string_from(state, seat))
        assert not public.dict["hand_counts"].any()
        assert "your hand" not in texts[-1]
    # Both seats see the same public facts (relative seats aside), no card of either hand.
    for seat in range(2):
        for c in state.env.state.hands[seat]:
            assert f" {c.text}" not in texts[1 - seat].split("pile")[0]


def test_action_ids_of_other_types() -> None:
    from canasta.envs.actions import IllegalAction
    from canasta.envs.core import EnvGame

    game = EnvGame(cos.rules_from_params({}), seed=1)
    draw = game.legal_actions()[0]
    assert game.step(np.array(draw)) is not None  # a 0-d array is an id
    with pytest.raises(IllegalAction, match="not an action id"):
        game.step("draw")  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="not an action id"):
        game.step(np.array([0, 1]))  # type: ignore[arg-type]


def test_openspiel_playthrough_generator_runs() -> None:
    """OpenSpiel's playthrough generator calls every API of a game (observers of each kind,
    chance, legal actions, returns) along one random game."""
    from open_spiel.python.algorithms import generate_playthrough

    text = generate_playthrough.playthrough("python_canasta(players=2)", None, seed=3)
    assert "PublicObservationString()" in text and "your hand" in text
    public = [line for line in text.splitlines() if line.startswith("PublicObservationString")]
    assert not any("your hand" in line for line in public)


def _asked() -> object:
    """Classic, 4 players: seat 0 can go out (three eights, the kings' canasta on the table,
    the five to discard) and has asked its partner, seat 2, "may I go out?"."""
    state = position(hands=[["8C", "8D", "8H", "5C"], ["TC", "TD"], ["QC", "4D"], ["6C", "6D"]],
                     melds=[[["KS", "KH", "KD", "KC", "KS", "KH", "KD"]], [["9S", "9H", "9D"]]],
                     discard=["4C"], stock=["7C", "JD", "JH", "JS"], phase="play")
    state.apply("ask")
    return state


def test_mcts_answers_its_partner_in_worlds_where_the_asker_can_go_out() -> None:
    """The partner's MCTS searches worlds dealt from its view; each must deal the asker a hand
    it can go out with, or the search runs into a state with no legal action after a "yes"
    (OpenSpiel's random rollout then fails: "'a' cannot be empty")."""
    game = pyspiel.load_game("python_canasta", {"variant": "classic", "players": 4})

    def make_bot(seat: int, seed: int) -> object:
        rs = np.random.RandomState(seed)
        return mcts.MCTSBot(game, uct_c=300.0, max_simulations=10,
                            evaluator=mcts.RandomRolloutEvaluator(1, rs), random_state=rs)

    state = _asked()
    view = view_of(state, 2)
    for seed in range(8):
        player = cos.OpenSpielPlayer(game, make_bot, seed)
        player.new_hand(2)
        assert player.choose(view) in view.legal_moves
        world = cos.state_from_position(game, determinize(view, random.Random(seed)))
        world.apply_action(game.space.encode(YES)[0])
        assert world.current_player() == 0 and world.legal_actions()


def test_the_mcts_example_plays_its_duplicate_deals(capsys: pytest.CaptureFixture[str]) -> None:
    """``examples/mcts_vs_expert.py`` on two deals (its second seating of the first deal used
    to crash: an MCTS partner answering "may I go out?" searched worlds where the asker could
    not go out)."""
    import importlib.util

    path = ROOT / "examples" / "mcts_vs_expert.py"
    spec = importlib.util.spec_from_file_location("mcts_vs_expert", path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    example.main(["--deals", "2", "--simulations", "5", "--vs", "basic", "--seed", "20"])
    out = capsys.readouterr().out
    assert "side A mcts against side B basic; 2 duplicate deals (4 hands)" in out
    assert "mean score difference A - B per hand" in out


def test_ismcts_searches_worlds_dealt_from_the_seat_view() -> None:
    """OpenSpiel's ISMCTS samples a world per simulation; the arena player deals them from its
    view (``resample``): the seat to act sees the same observation there, groups staged
    included, and has the same legal actions; the bot then plays legal moves."""
    from open_spiel.python.algorithms import ismcts

    game = pyspiel.load_game("python_canasta", {"variant": "classic", "players": 4})

    def make_bot(seat: int, seed: int) -> object:
        rs = np.random.RandomState(seed)
        return ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 300.0, 4,
                                random_state=rs, use_observation_string=True)

    player = cos.OpenSpielPlayer(game, make_bot, seed=2)
    player.new_hand(0)
    # A staged group: seat 0 lays the nines, the first of the two groups its initial meld
    # needs (30 points each, 50 to reach).
    state = position(hands=[["9C", "9D", "9H", "8C", "8D", "8H", "5C", "6H", "QS"], ["TC", "TD"],
                            ["QC", "4D"], ["6C", "6D"]],
                     discard=["4C"], stock=["7C", "JD", "JH", "JS"], phase="play")
    world = cos.state_from_position(game, state)
    assert world.env is not None
    staged = next(a for a in world.legal_actions() if game.space.staged(a))
    world.apply_action(staged)
    player.memory.update(view_of(state, 0))
    for _ in range(3):
        again = player.resample(world, 0)
        assert again.observation_string(0) == world.observation_string(0)
        assert again.legal_actions() == world.legal_actions()
        assert again.env is not None and again.env.state.hands[1] != state.hands[1]
    with pytest.raises(ValueError, match="seat to act"):
        player.resample(world, 1)

    match = Match(game.rules, seed=4)
    bots = {s: make_player("basic", s) for s in range(1, 4)}
    for s, b in bots.items():
        b.new_hand(s)
    moves = 0
    while match.state.result is None and moves < 40:
        seat = match.state.turn
        view = view_of(match.state, seat)
        move = player.choose(view) if seat == 0 else bots[seat].choose(view)
        assert move in view.legal_moves
        match.apply(move)
        moves += 1
    assert moves == 40 or match.state.result is not None
