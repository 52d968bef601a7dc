"""The engine against stored records of the first-generation engine (tests/crosscheck.py).

``tests/data/crosscheck.json`` holds, for hands on every table (house rules included), one hash
per position of what the engine of commit 7a4c7b0 did there: its legal moves in order, the
position and the turn's facts, two seats' views and observation vectors, the position after
every listed move, and ``check``'s verdict (with its reason) on moves made up from the hand.
A rewrite of the core must keep every one; ``python tests/crosscheck.py --against 7a4c7b0``
compares the two engines in full on many more positions and prints what differs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("numpy")  # the records hash the observation vectors too

from crosscheck import TABLES, walk

DATA = json.loads((Path(__file__).parent / "data" / "crosscheck.json").read_text())


@pytest.mark.parametrize("table", range(len(TABLES)),
                         ids=[f"{v}-{p}" + ("-house" if o else "") for v, p, o in TABLES])
def test_positions_match_the_first_generation_engine(table: int) -> None:
    hands = [h for h in DATA["hands"] if h["table"] == table]
    assert hands
    for hand in hands:
        expected = hand["digests"].split()
        got = [d for _step, d in walk(table, hand["seed"])]
        for step, (mine, ref) in enumerate(zip(got, expected, strict=False)):
            assert mine == ref, (
                f"{TABLES[table][:2]} seed {hand['seed']}: position {step} differs from the "
                f"stored record (python tests/crosscheck.py --detail {table} {hand['seed']} "
                f"{step} prints it; --against 7a4c7b0 shows the difference)")
        assert len(got) == len(expected), "the hand is not as long as it was"
