"""The PettingZoo and Gymnasium interfaces: their own API checkers, returns, illegal actions,
determinism and observations from one seat's view only."""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from canasta.envs.actions import IllegalAction  # noqa: E402
from canasta.envs.gymnasium import ENV_ID, CanastaEnv  # noqa: E402
from canasta.envs.observation import observation_string, observe  # noqa: E402
from canasta.envs.pettingzoo import env as pz_env  # noqa: E402
from canasta.envs.pettingzoo import raw_env  # noqa: E402
from canasta.envs.seat import STAGED_SIZE, staged_features  # noqa: E402
from canasta.view import view_of  # noqa: E402

from test_view import shuffle_hidden  # noqa: E402

TABLES = [("classic", 2), ("classic", 3), ("classic", 4), ("modern-american", 4),
          ("ponytail", 4), ("ponytail", 6)]

# Warnings the checkers give for any environment with dict observations (the standard way to
# carry an action mask): PettingZoo lists its own such environments by name only.
DICT_OBS_WARNINGS = ("Observation is not a NumPy array",
                     "Observation space for each agent probably should be")


@pytest.fixture
def no_unexpected_warnings() -> Iterator[None]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    unexpected = [str(w.message) for w in caught
                  if not str(w.message).startswith(DICT_OBS_WARNINGS)]
    assert not unexpected


def masked_choice(mask: Any, rng: random.Random) -> int:
    return rng.choice([int(a) for a in np.flatnonzero(mask)])


# --- PettingZoo -------------------------------------------------------------------------------
@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_pettingzoo_api_and_seed(variant: str, players: int,
                                 no_unexpected_warnings: None) -> None:
    # num_cycles * players steps is more than a hand of random play takes: both play it whole.
    api_test(pz_env(variant=variant, players=players), num_cycles=1000, verbose_progress=False)
    seed_test(lambda: pz_env(variant=variant, players=players), num_cycles=1000)


def play_pettingzoo(e: Any, rng: random.Random) -> tuple[dict[str, float], int]:
    """A random masked agent in every seat, to the end; the rewards each agent collected."""
    collected = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        collected[agent] += reward
        assert not truncated
        if terminated:
            e.step(None)
            continue
        assert (info["action_mask"] == obs["action_mask"]).all()
        e.step(masked_choice(obs["action_mask"], rng))
        steps += 1
    return collected, steps


@pytest.mark.parametrize(("variant", "players"), [("classic", 4), ("ponytail", 6)])
def test_pettingzoo_random_hand_returns(variant: str, players: int) -> None:
    e = pz_env(variant=variant, players=players)
    e.reset(seed=3)
    game = e.unwrapped.game
    collected, steps = play_pettingzoo(e, random.Random(3))
    assert steps > 0 and game.over and not e.agents
    returns = game.returns()
    assert collected == {f"player_{s}": returns[s] for s in range(players)}
    assert abs(sum(collected.values())) < 1e-9
    assert any(collected.values())  # the hand's scores differ (for this seed)


def test_pettingzoo_match_ends_as_the_returns_say() -> None:
    e = pz_env(variant="classic", players=4, match=True, max_hands=2)
    e.reset(seed=1)
    game = e.unwrapped.game
    collected, _ = play_pettingzoo(e, random.Random(1))
    assert game.over and game.state.hand_number == 2
    assert list(collected.values()) == game.returns()
    assert sorted(collected.values()) in ([-1.0, -1.0, 1.0, 1.0], [0.0] * 4)


def test_pettingzoo_illegal_action_raises_and_changes_nothing() -> None:
    e = pz_env(variant="classic", players=4)
    e.reset(seed=5)
    agent = e.agent_selection
    before = {a: e.observe(a) for a in e.agents}
    mask = before[agent]["action_mask"]
    illegal = [int(np.flatnonzero(mask == 0)[0]), -1, mask.size, 2.5, None, "draw"]
    for action in illegal:
        with pytest.raises(IllegalAction):
            e.step(action)
        assert e.agent_selection == agent
        for a, obs in before.items():
            after = e.observe(a)
            assert (after["observation"] == obs["observation"]).all()
            assert (after["action_mask"] == obs["action_mask"]).all()
        assert not any(e.terminations.values()) and not any(e.rewards.values())
    e.step(np.int64(masked_choice(mask, random.Random(0))))  # numpy integers are fine


def test_pettingzoo_staged_action_keeps_the_same_agent() -> None:
    rng = random.Random(0)
    for seed in range(20):
        e = raw_env(variant="classic", players=4)
        e.reset(seed=seed)
        space = e.game.space
        while e.agents and not e.terminations[e.agent_selection]:
            agent = e.agent_selection
            legal = [int(a) for a in np.flatnonzero(e.observe(agent)["action_mask"])]
            staged = [a for a in legal if space.staged(a)]
            if staged:
                e.step(staged[0])
                assert e.agent_selection == agent and e.game.prefix == [staged[0]]
                tail = e.observe(agent)["observation"][-STAGED_SIZE:]
                assert tail.tolist() == staged_features(space, [staged[0]]) and tail.any()
                other = e.observe(e.possible_agents[(e.seats[agent] + 1) % 4])
                assert not other["observation"][-STAGED_SIZE:].any()
                assert not other["action_mask"].any()
                return
            e.step(rng.choice(legal))
    pytest.fail("no staged action came up in 20 random hands")


@pytest.mark.parametrize(("variant", "players"), [("classic", 3), ("ponytail", 6)])
def test_pettingzoo_observation_is_the_seats_view_only(variant: str, players: int) -> None:
    """An agent's observation is ``observe(view_of(state, seat))`` plus its staged groups, so
    the hiding tested in test_env_observation (test_observations_hold_no_hidden_cards) holds
    here too; and re-dealing the cards the agent cannot see changes nothing it observes."""
    e = raw_env(variant=variant, players=players)
    e.reset(seed=11)
    rng = random.Random(11)
    game = e.game
    for _ in range(60):
        if game.over:
            break
        for agent in e.agents:
            seat = e.seats[agent]
            obs = e.observe(agent)
            staged = (staged_features(game.space, game.prefix) if game.to_act() == seat
                      else [0.0] * STAGED_SIZE)
            expected = np.concatenate([observe(view_of(game.state, seat)),
                                       np.asarray(staged, np.float32)])
            assert obs["observation"].dtype == np.float32
            assert (obs["observation"] == expected).all()
            real = game.match.state
            game.match.state = shuffle_hidden(real, seat, rng)
            try:
                again = e.observe(agent)
            finally:
                game.match.state = real
            assert (again["observation"] == obs["observation"]).all()
            assert (again["action_mask"] == obs["action_mask"]).all()
        e.step(masked_choice(e.observe(e.agent_selection)["action_mask"], rng))


def test_pettingzoo_render_shows_the_selected_seat_only() -> None:
    e = pz_env(variant="classic", players=4, render_mode="ansi")
    e.reset(seed=2)
    seat = e.unwrapped.seats[e.agent_selection]
    text = e.render()
    assert text == f"{e.agent_selection}:\n" + observation_string(e.unwrapped.game.view(seat))
    with pytest.raises(ValueError, match="render_mode"):
        pz_env(render_mode="rgb_array")


def test_pettingzoo_reset_without_seed_follows_the_last_seed() -> None:
    a, b = raw_env(), raw_env()
    a.reset(seed=9)
    b.reset(seed=9)
    a.reset()
    b.reset()
    assert a.game.state.hands == b.game.state.hands
    c = raw_env()
    c.reset(seed=10)
    c.reset()
    assert c.game.state.hands != a.game.state.hands


# --- Gymnasium --------------------------------------------------------------------------------
@pytest.mark.parametrize(("variant", "players"), [("classic", 4), ("ponytail", 6)])
def test_gymnasium_check_env(variant: str, players: int, capsys: Any) -> None:
    e = gymnasium.make(ENV_ID, variant=variant, players=players, opponents="basic")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(e.unwrapped)  # also makes the env in every render mode
    assert not [str(w.message) for w in caught]
    capsys.readouterr()  # the "human" render mode printed the view


def play_gymnasium(e: CanastaEnv, seed: int) -> list[tuple[Any, ...]]:
    """A random masked agent for a whole episode: every (obs, reward, terminated, info)."""
    rng = random.Random(seed)
    obs, info = e.reset(seed=seed)
    trajectory: list[tuple[Any, ...]] = [(obs, 0.0, False, info)]
    terminated = False
    while not terminated:
        assert (info["action_mask"] == obs["action_mask"]).all() and obs["action_mask"].any()
        obs, reward, terminated, truncated, info = e.step(masked_choice(obs["action_mask"], rng))
        assert not truncated and "illegal_action" not in info
        assert reward == 0.0 or terminated
        trajectory.append((obs, reward, terminated, info))
    return trajectory


@pytest.mark.parametrize(("variant", "players", "seat"),
                         [("classic", 4, 1), ("classic", 3, 2), ("ponytail", 6, 4)])
def test_gymnasium_random_episode_returns(variant: str, players: int, seat: int) -> None:
    e = CanastaEnv(variant=variant, players=players, seat=seat, opponents="expert",
                   partner="basic")
    trajectory = play_gymnasium(e, seed=4)
    assert len(trajectory) > 1
    _, reward, terminated, info = trajectory[-1]
    returns = e.game.returns()
    assert terminated and e.game.over
    assert reward == returns[seat] and info["returns"] == returns
    assert abs(sum(returns)) < 1e-9
    assert not trajectory[-1][0]["action_mask"].any()
    with pytest.raises(gymnasium.error.ResetNeeded):
        e.step(0)


def test_gymnasium_match_and_bots_levels() -> None:
    e = CanastaEnv(variant="classic", players=4, seat=0, opponents="random", partner="basic",
                   match=True, max_hands=2)
    assert e.levels == {1: "random", 2: "basic", 3: "random"}
    _, reward, terminated, info = play_gymnasium(e, seed=8)[-1]
    assert terminated and e.game.state.hand_number == 2
    assert reward in (1.0, -1.0, 0.0) and info["returns"] == e.game.returns()


def test_gymnasium_same_seed_same_trajectory() -> None:
    one = play_gymnasium(CanastaEnv(opponents="expert"), seed=21)
    two = play_gymnasium(CanastaEnv(opponents="expert"), seed=21)
    assert len(one) == len(two)
    for (o1, r1, t1, i1), (o2, r2, t2, i2) in zip(one, two, strict=True):
        assert (o1["observation"] == o2["observation"]).all()
        assert (o1["action_mask"] == o2["action_mask"]).all()
        assert (r1, t1, i1.keys()) == (r2, t2, i2.keys())
    other = play_gymnasium(CanastaEnv(opponents="expert"), seed=22)
    assert not (other[0][0]["observation"] == one[0][0]["observation"]).all()


def test_gymnasium_illegal_action_changes_nothing() -> None:
    e = CanastaEnv(variant="modern-american", players=4, seat=2, illegal_reward=-0.5)
    obs, _ = e.reset(seed=6)
    hand = e.game.state.hands[2]
    illegal = [int(np.flatnonzero(obs["action_mask"] == 0)[0]), -3, e.space.size, 1.5]
    for action in illegal:
        after, reward, terminated, truncated, info2 = e.step(action)  # type: ignore[arg-type]
        assert (reward, terminated, truncated) == (-0.5, False, False)
        assert "not" in info2["illegal_action"]
        assert (after["observation"] == obs["observation"]).all()
        assert (after["action_mask"] == obs["action_mask"]).all()
        assert e.game.state.hands[2] == hand and e.game.to_act() == 2


def test_gymnasium_render_and_registration() -> None:
    e = gymnasium.make(ENV_ID, variant="classic", players=2, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    inner = e.unwrapped
    assert isinstance(inner, CanastaEnv)
    assert text == observation_string(inner.game.view(inner.seat))
    import canasta.envs.gymnasium as again  # importing twice registers once

    assert again.ENV_ID in gymnasium.registry
    with pytest.raises(ValueError, match="level"):
        CanastaEnv(opponents="grandmaster")
    with pytest.raises(ValueError, match="seat"):
        CanastaEnv(players=2, seat=2)
