"""Determinization (``canasta.bots.sampling``): the worlds a seat imagines from its view.

A search bot plays on in these worlds (our master, OpenSpiel's MCTS through
``canasta.envs.openspiel.OpenSpielPlayer``), so each must be a position the rules can continue
from: the seat sees exactly its own view there, and play never stops short of the end.
"""

from __future__ import annotations

import random

import pytest

from canasta.bots import make_player
from canasta.bots.sampling import Memory, determinize
from canasta.cards import sort_cards
from canasta.engine.goingout import can_go_out
from canasta.engine.state import HandState
from canasta.match import Match
from canasta.moves import ASK, NO, YES, MoveKind
from canasta.rules import Rules
from canasta.view import view_of

from conftest import position


def _asking() -> HandState:
    """Classic, 4 players: seat 0 has drawn and can go out (three eights, discard the five,
    with the kings' canasta on the table) and asks its partner, seat 2."""
    state = position(hands=[["8C", "8D", "8H", "5C"], ["TC", "TD"], ["QC", "4D"], ["6C", "6D"]],
                     melds=[[["KS", "KH", "KD", "KC", "KS", "KH", "KD"]], [["9S", "9H", "9D"]]],
                     discard=["4C"], stock=["7C", "JD", "JH", "JS"], phase="play")
    state.apply("ask")
    return state


def _stuck(world: HandState, rng: random.Random) -> str | None:
    """Plays ``world`` out at random; the moves up to a position with no legal move, if any."""
    path = []
    while world.result is None:
        moves = world.legal_moves()
        if not moves:
            return " ".join(path)
        move = rng.choice(moves)
        path.append(str(move))
        world.apply(move)
    return None


def test_a_position_with_part_of_the_pack_keeps_its_stock() -> None:
    """A scenario holds only the cards it names: the cards it leaves out are out of play, so
    the worlds keep the stock's size (the stock was the whole unseen rest of the pack)."""
    state = position(hands=[["8C", "8D", "5C"], ["TC", "TD"], ["QC", "4D"], ["6C", "6D"]],
                     melds=[[["KS", "KH", "KD"]], [["9S", "9H", "9D"]]],
                     discard=["4C"], stock=["7C", "JD", "JH"])
    view = view_of(state, 0)
    for seed in range(5):
        world = determinize(view, random.Random(seed))
        assert len(world.stock) == 3
        assert view_of(world, 0) == view


def test_the_seat_that_asked_holds_a_hand_that_can_go_out() -> None:
    """The question tells its partner that the asker can go out (it may ask only then), so in
    every world the partner imagines a "yes" leaves the asker a way out, not an empty list of
    moves (the hidden hand was dealt at random: most four-card hands cannot go out)."""
    state = _asking()
    view = view_of(state, 2)
    assert view.asking == 0 and set(view.legal_moves) == {YES, NO}
    for seed in range(30):
        world = determinize(view, random.Random(seed))
        assert view_of(world, 2) == view
        assert len(world.hands[0]) == 4
        after = world.copy()
        after.apply(YES)
        assert after.legal_moves(), f"seed {seed}: {world.hands[0]} cannot go out"
        assert can_go_out(after)
        after = world.copy()
        after.apply(NO)
        assert after.legal_moves() and not can_go_out(after)


def test_cards_the_asker_took_from_the_pile_stay_in_its_hand() -> None:
    """Seat 0 takes the pile (its partner sees the eight, the deuce and the king below the
    queen go into its hand) and asks: the worlds keep those three in its hand (the deuce must
    find a meld too) and still let it go out."""
    state = position(hands=[["8C", "8D", "8H", "5C", "QD", "QS"], ["TC", "TD"], ["QC", "4D"],
                            ["6C", "6D"]],
                     melds=[[["KS", "KH", "KD", "KC", "KS", "KH", "KD"]], [["9S", "9H", "9D"]]],
                     discard=["8S", "2C", "KC", "QH"], stock=["7C", "JH", "JS"])
    memory = Memory()
    memory.update(view_of(state, 2))
    state.apply(state.parse("take QD QS"))
    state.apply(ASK)
    view = view_of(state, 2)
    memory.update(view)
    assert sorted(c.text for c in memory.known_cards(0)) == ["2C", "8S", "KC"]
    for seed in range(20):
        world = determinize(view, random.Random(seed), memory)
        assert {"8S", "2C", "KC"} <= {c.text for c in world.hands[0]}
        world.apply(YES)
        assert can_go_out(world), world.hands[0]


# The match seeds played: from 100, and for Ponytail's one (long) hand the first seed whose
# hand asks "may I go out?" with the experts of 06b47ec (seed 100 and 101 ask nothing).
TABLES = [("classic", 4, 6, 100), ("modern-american", 4, 5, 100), ("ponytail", 4, 1, 102)]


@pytest.mark.parametrize(("variant", "players", "hands", "first"), TABLES)
def test_determinized_worlds_show_the_view_and_play_to_the_end(variant: str, players: int,
                                                               hands: int, first: int) -> None:
    """Expert self-play (the expert asks "may I go out?"): at every decision, the world dealt
    from the acting seat's view shows that seat the very same view (so the same legal moves),
    and random play from it reaches the end of the hand, never a position with no legal move.
    Every decision around a question is played out: the answer (both answers, in several
    worlds), and the asker's turn after it."""
    rules = Rules.make(variant, players)
    rng = random.Random(7)
    questions = answers = 0
    for seed in range(hands):
        match = Match(rules, seed=first + seed)
        state = match.state
        bots = {s: make_player("expert", s) for s in range(players)}
        memories = {s: Memory() for s in range(players)}
        for s, b in bots.items():
            b.new_hand(s)
        decision = 0
        while state.result is None:
            seat = state.turn
            view = view_of(state, seat)
            memories[seat].update(view)
            world = determinize(view, rng, memories[seat])
            assert view_of(world, seat) == view
            assert sort_cards(world.all_cards().elements()) == sort_cards(
                state.all_cards().elements())
            if view.asking is not None:
                questions += 1
                for answer in (YES, YES, YES, YES, NO):  # a yes ends the hand soon
                    after = determinize(view, rng, memories[seat])
                    after.apply(answer)
                    assert _stuck(after, rng) is None, f"after {answer}"
            elif view.answer is not None or decision % 10 == 0:
                answers += view.answer is not None
                assert _stuck(world.copy(), rng) is None
            decision += 1
            move = bots[seat].choose(view)
            match.apply(move, seat)
    assert questions and answers  # the questions this test is about did come up


def test_an_ask_by_the_seat_itself_needs_nothing_hidden() -> None:
    """The asker's own hand is known to it: its worlds (while the partner decides) keep it."""
    state = _asking()
    view = view_of(state, 0)
    world = determinize(view, random.Random(3))
    assert sort_cards(world.hands[0]) == sort_cards(state.hands[0])
    assert world.asking == 0 and world.turn == 2
    assert all(m.kind in (MoveKind.YES, MoveKind.NO) for m in world.legal_moves())
