"""Determinization (``canasta.bots.sampling``): the worlds a seat imagines from its view.

A search bot plays on in these worlds (our master, OpenSpiel's MCTS through
``canasta.envs.openspiel.OpenSpielPlayer``), so each must be a position the rules can continue
from: the seat sees exactly its own view there, and play never stops short of the end.
"""

from __future__ import annotations

import random

from canasta.bots.sampling import determinize
from canasta.view import view_of

from conftest import position


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
