"""The observation tensor of the research interfaces: fixed layout, and nothing hidden in it."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from canasta.cards import N_KINDS, Card, kind_counts  # noqa: E402
from canasta.envs import observation  # noqa: E402
from canasta.envs.core import EnvGame  # noqa: E402
from canasta.envs.observation import (  # noqa: E402
    Observer,
    known_cards,
    observation_fields,
    observation_size,
    observation_string,
    observe,
)
from canasta.envs.seat import STAGED_SIZE, observation_vector, staged_features  # noqa: E402
from canasta.match import Match  # noqa: E402
from canasta.moves import MoveKind  # noqa: E402
from canasta.rules import Rules  # noqa: E402
from canasta.view import PlayerView, view_of  # noqa: E402

from conftest import position  # noqa: E402
from test_view import shuffle_hidden  # noqa: E402

TABLES = [("classic", 2), ("classic", 3), ("classic", 4), ("modern-american", 4),
          ("ponytail", 4), ("ponytail", 6)]
SIZES = {("classic", 2): 296, ("classic", 3): 405, ("classic", 4): 340,
         ("modern-american", 4): 340, ("ponytail", 4): 340, ("ponytail", 6): 471}


def field_slice(rules: Rules, name: str) -> slice:
    start = 0
    for f in observation_fields(rules):
        if f.name == name:
            return slice(start, start + f.size)
        start += f.size
    raise KeyError(name)


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_layout_is_fixed_for_a_table(variant: str, players: int) -> None:
    rules = Rules.make(variant, players)
    fields = observation_fields(rules)
    assert sum(f.size for f in fields) == observation_size(rules) == SIZES[variant, players]
    assert len({f.name for f in fields}) == len(fields)
    assert all(f.size > 0 and f.description for f in fields)
    # Options do not change the layout (wild melds have their rank class everywhere).
    if variant == "ponytail":
        other = Rules.make(variant, players, required_canastas="four-books")
        assert observation_fields(other) == fields


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_observations_hold_no_hidden_cards(variant: str, players: int) -> None:
    rules = Rules.make(variant, players)
    size = observation_size(rules)
    hand_counts = field_slice(rules, "hand_counts")
    known_field = field_slice(rules, "known_cards")
    phase, turn, result = (field_slice(rules, name) for name in ("phase", "turn", "result"))
    rng = random.Random(players * 7 + len(variant))
    match = Match(rules, seed=players)
    moves = 0
    known_seen = 0
    phases: set[str] = set()
    limit = 500 if variant == "classic" else 250
    step = 2 if variant == "ponytail" else 1
    while moves < limit:
        state = match.state
        if moves % step == 0 or state.result is not None:
            phases.add("over" if state.result is not None else state.phase)
            for seat in range(players):
                view = view_of(state, seat)
                vec = observe(view)
                assert vec.shape == (size,) and vec.dtype == np.float32
                assert np.isfinite(vec).all()
                assert list(vec[hand_counts]) == kind_counts(state.hands[seat])
                if state.result is not None:
                    assert vec[phase][3] == 1 and not vec[turn].any()
                    mine = state.side_of(seat)
                    scores = [state.result.scores[(mine + r) % rules.n_sides] / 1000
                              for r in range(rules.n_sides)]
                    assert list(vec[result]) == pytest.approx(scores)
                # Cards known to be in a hand are in it.
                known = known_cards(view)
                for other in range(players):
                    assert not Counter(known[other]) - Counter(state.hands[other])
                known_seen += sum(len(k) for k in known)
                assert vec[known_field].sum() == sum(len(k) for k in known)
                # The key property: the same view, whatever the hidden cards, gives the same
                # observation, bit for bit.
                hidden = shuffle_hidden(state, seat, rng)
                other_view = view_of(hidden, seat)
                assert other_view == view
                assert observe(other_view).tobytes() == vec.tobytes()
                assert observation_string(other_view) == observation_string(view)
        if state.result is not None:
            if match.over:
                break
            match.next_hand()
            continue
        match.apply(rng.choice(state.legal_moves()))
        moves += 1
    assert "over" in phases or variant == "ponytail"
    assert known_seen > 0 or variant == "ponytail"


def test_unseen_cards_account_for_every_hidden_card() -> None:
    rules = Rules.make("ponytail", 4)
    match = Match(rules, seed=2)
    rng = random.Random(4)
    unseen = field_slice(rules, "unseen_counts")
    known = field_slice(rules, "known_cards")
    for _ in range(60):
        match.apply(rng.choice(match.state.legal_moves()))
    state = match.state
    for seat in range(4):
        vec = observe(view_of(state, seat))
        hidden = (sum(len(h) for s, h in enumerate(state.hands) if s != seat) + len(state.stock)
                  + sum(len(t) for t in state.ponytails if t is not None))
        assert vec[unseen].min() >= 0
        assert vec[unseen].sum() + vec[known].sum() == hidden
        assert vec[field_slice(rules, "ponytail_sizes")].sum() == sum(
            len(t) for t in state.ponytails if t is not None)


def test_a_pile_take_is_remembered_relative_to_the_observer() -> None:
    # Seat 0 discards 9S on the 4C that started the pile, seat 1 discards KH, seat 2 takes the
    # pile onto its side's kings: it holds the 9S (the 4C was never in the history).
    state = position(hands=[["9S", "5C", "6D"], ["KH", "7C", "7D"], ["QC", "QD", "8H"],
                            ["JC", "JD", "5D"]],
                     melds=[[["KS", "KC", "KD"]], [["TS", "TC", "TD"]]],
                     discard=["4C"], stock=["6H", "6C", "6S"], phase="play")
    state.apply("discard 9S")
    state.apply("draw")
    state.apply("discard KH")
    take = next(m for m in state.legal_moves() if m.kind is MoveKind.TAKE)
    state.apply(take)
    assert sorted(c.text for c in state.hands[2]) == ["4C", "8H", "9S", "QC", "QD"]
    rules = state.rules
    for seat in range(4):
        view = view_of(state, seat)
        assert [c.text for c in known_cards(view)[2]] == ([] if seat == 2 else ["9S"])
        vec = observe(view)
        block = vec[field_slice(rules, "known_cards")].reshape(3, N_KINDS)
        rel = (2 - seat) % 4
        for r in range(1, 4):
            expected = kind_counts(known_cards(view)[2]) if r == rel else [0] * N_KINDS
            assert list(block[r - 1]) == expected
        text = observation_string(view)
        if seat != 2:
            assert f"seat +{rel} (seat 2" in text and "known in hand: 9S" in text
    # Relative sides: seat 1 sees its own (empty-handed) side first.
    vec = observe(view_of(state, 1))
    opened = vec[field_slice(rules, "opened")]
    assert list(opened) == [1.0, 1.0]
    canastas = vec[field_slice(rules, "melds")].reshape(2, 13, 6)
    assert canastas[0, 4, 0] == 3  # side +0 of seat 1: its tens
    assert canastas[1, 1, 0] == 4  # side +1: the kings, with the KH from the pile


def test_the_string_shows_one_item_a_line() -> None:
    match = Match(Rules.make("classic", 4), seed=1)
    text = observation_string(view_of(match.state, 1))
    lines = text.splitlines()
    assert lines[0].startswith("table: Classic Canasta, 4 players; hand 1; you are seat 1")
    assert lines[1].startswith("your hand (11): ")
    assert lines[2].startswith("you (seat 1): 11 cards")
    assert any(line.startswith("seat +1 (seat 2, opponent)") for line in lines)
    assert any(line.startswith("seat +2 (seat 3, partner)") for line in lines)
    assert any(line.startswith("phase: draw; to act: seat +3 (seat 0, opponent)")
               for line in lines)


def test_asking_and_the_answer() -> None:
    # Seat 0 can go out and asks its partner (seat 2), who answers yes.
    state = position(hands=[["8C", "8D", "8H", "5C"], ["TC", "TD"], ["QC", "4D"], ["6C", "6D"]],
                     melds=[[["KS", "KH", "KD", "KC", "KS", "KH", "KD"]], [["9S", "9H", "9D"]]],
                     discard=["4C"], stock=["7C", "JD"], phase="play")
    rules = state.rules
    phase, asker, answer = (field_slice(rules, name) for name in ("phase", "asker", "answer"))
    turn, melds = field_slice(rules, "turn"), field_slice(rules, "melds")
    mine = observe(view_of(state, 0))
    assert list(mine[phase]) == [0, 1, 0, 0] and list(mine[turn]) == [1, 0, 0, 0]
    side = mine[melds].reshape(2, 13, 6)
    assert list(side[0, 1]) == [7, 0, 0, 1, 1, 0]  # a clean canasta of kings
    assert list(side[1, 5]) == [3, 0, 0, 0, 0, 3]  # the opponents' three nines
    state.apply("ask")
    asking, asked = observe(view_of(state, 0)), observe(view_of(state, 2))
    assert list(asking[phase]) == list(asked[phase]) == [0, 0, 1, 0]
    assert list(asking[asker]) == [1, 0, 0, 0] and list(asked[asker]) == [0, 0, 1, 0]
    assert list(asked[turn]) == [1, 0, 0, 0] and list(asking[turn]) == [0, 0, 1, 0]
    assert "asking \"may I go out?\": seat +2 (seat 0, partner)" in observation_string(
        view_of(state, 2))
    state.apply("yes")
    assert list(observe(view_of(state, 0))[answer]) == [1, 0]
    assert list(observe(view_of(state, 2))[answer]) == [0, 0]  # shown to the asker only
    assert "answer received: yes" in observation_string(view_of(state, 0))


def _replayed(view: PlayerView) -> list[list[Card]]:
    """``known_cards`` worked out from the whole history, apart from what was followed."""
    fresh = observation._Followed(view.history, view.rules.players)
    fresh.follow(view)
    known = [list(h) for h in fresh.hands]
    known[view.seat] = []
    return known


def test_known_cards_followed_step_by_step_match_a_replay_of_the_whole_history() -> None:
    # The known cards are followed from one observation to the next; two games observed in
    # turn, and a copy that goes another way from the same history, must not mix what each
    # one showed.
    rules = Rules.make("classic", 4)
    rng = random.Random(3)
    for seed in range(3):
        a, b = Match(rules, seed).state, Match(rules, seed + 10).state
        branch = None
        takes = 0
        while a.result is None or b.result is None:
            for state in (a, b, branch):
                if state is None or state.result is not None:
                    continue
                move = rng.choice(state.legal_moves())
                takes += move.kind is MoveKind.TAKE
                state.apply(move)
                views = [view_of(state, seat) for seat in range(rules.players)]
                followed = [known_cards(view) for view in views]
                assert followed == [_replayed(view) for view in views]
            if branch is None and len(a.history) > 30 and a.result is None:
                branch = a.copy()  # shares a's history so far, then plays its own moves
        assert takes


def test_each_observation_of_a_hand_follows_only_the_moves_since_the_last() -> None:
    # What was followed is found again by the identity of the history's entries; compiled, an
    # entry typed as a tuple is rebuilt where it is read, and every observation silently
    # replayed the whole history again (the same cards, many times the work).
    rules = Rules.make("modern-american", 4)
    rng = random.Random(5)
    state = Match(rules, 2).state
    entry = None
    while state.result is None and len(state.history) < 80:
        state.apply(rng.choice(state.legal_moves()))
        view = view_of(state, len(state.history) % rules.players)
        before = entry.seen if entry is not None else 0
        found = observation._followed(view)
        if entry is not None:
            assert found is entry and before == len(state.history) - 1
        entry = found
        assert entry.seen == len(state.history)


def _observed(game: EnvGame, seat: int) -> Any:
    """``seat``'s observation made afresh: ``observe`` of its view, then its staged groups."""
    staged = (staged_features(game.space, game.prefix) if game.prefix and game.to_act() == seat
              else [0.0] * STAGED_SIZE)
    return np.concatenate([observe(game.view(seat)), np.array(staged, np.float32)])


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_observations_kept_between_steps_equal_fresh_ones_at_every_step(
        variant: str, players: int) -> None:
    # Each seat's Observer works out again only the parts whose fields changed; every seat is
    # observed after every action (staged groups included) through two hands of a match, the
    # second dealt to the same observers.
    rules = Rules.make(variant, players)
    rng = random.Random(players * 11 + len(variant))
    game = EnvGame(rules, seed=players + 3, match=True, max_hands=2)
    steps = staged = 0
    while not game.over:
        for seat in range(players):
            vector = observation_vector(game, seat)
            assert np.array_equal(vector, _observed(game, seat)), (steps, seat)
        staged += bool(game.prefix)
        game.step(rng.choice(game.legal_actions()))
        steps += 1
    for seat in range(players):
        assert np.array_equal(observation_vector(game, seat), _observed(game, seat))
    assert game.state.hand_number == 2 and staged


def test_an_observer_given_views_in_any_order_gives_each_its_own_vector() -> None:
    # Views of other seats, of another hand and of earlier positions, given one after the
    # other to one Observer: each part is keyed by the fields it is made from.
    rules = Rules.make("classic", 4)
    rng = random.Random(8)
    views: list[PlayerView] = []
    for seed in (1, 2):
        state = Match(rules, seed).state
        while state.result is None:
            state.apply(rng.choice(state.legal_moves()))
            if rng.random() < 0.2:
                views.append(view_of(state, rng.randrange(rules.players)))
    rng.shuffle(views)
    observer = Observer(rules, 2)
    for view in views:
        vector = observer.vector(view, (1.0, 0.5))
        assert np.array_equal(vector[:-2], observe(view)) and list(vector[-2:]) == [1.0, 0.5]
        vector[:] = -1  # the caller's own copy: the observer's is untouched
    with pytest.raises(ValueError, match="another table"):
        observer.vector(view_of(Match(Rules.make("classic", 2), 1).state, 0), ())
