"""The position's fields are declared once (engine/schema.py) and every module follows that
declaration: a field added there and not in ``copy``, ``view_of``, ``determinize`` or the
position JSON fails here, and so does a field that is not declared at all."""

from __future__ import annotations

import ast
import dataclasses
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from canasta.bots.sampling import determinize
from canasta.cards import Card, sort_cards
from canasta.engine.schema import (
    ACTOR,
    FIELDS,
    HIDDEN,
    INDICES,
    LIST,
    LISTS,
    SEAT,
    TABLE,
    TAILS,
    TURN,
    VALUE,
)
from canasta.engine.state import HandState
from canasta.match import Match
from canasta.position import position_from_json, position_to_json
from canasta.rules import Rules
from canasta.view import PlayerView, view_of

#: HandState's slots that are not the position: the table it is played on and what it keeps
#: to answer faster (caches rebuilt from the fields).
NOT_POSITION = {"rules", "plans", "_counts", "_counted", "_mine", "_indexes"}
#: Fields that are properties of HandState, and the slots they are held in.
HELD_IN = {"history": {"_moves", "_length", "_history"}}
#: The view's fields that are not a declared field but follow from them (or from the caller).
VIEW_DERIVED = {"seat", "rules", "pile_top", "pile_size", "pile_frozen", "legal_moves"}


def positions() -> Iterator[HandState]:
    """Positions of random play in every variant (every third one, each hand to its end)."""
    rng = random.Random(18)
    for variant, players in (("classic", 4), ("modern-american", 4), ("ponytail", 4)):
        state = Match(Rules.make(variant, players), 3).state
        step = 0
        while True:
            if step % 3 == 0 or state.result is not None:
                yield state.copy()
            if state.result is not None:
                break
            state.apply(rng.choice(state.legal_moves()))
            step += 1


POSITIONS = list(positions())


def state_slots() -> set[str]:
    """HandState's ``__slots__`` as its source declares them (a compiled class keeps none)."""
    source = Path(__file__).resolve().parents[1] / "src" / "canasta" / "engine" / "state.py"
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef) and node.name == "HandState":
            for item in node.body:
                if (isinstance(item, ast.Assign)
                        and getattr(item.targets[0], "id", "") == "__slots__"):
                    return set(ast.literal_eval(item.value))
    raise AssertionError("HandState declares no __slots__")


def test_every_field_of_the_state_is_declared_and_only_once() -> None:
    names = [f.name for f in FIELDS]
    assert len(names) == len(set(names))
    held = {slot for slots in HELD_IN.values() for slot in slots}
    assert set(names) == state_slots() - NOT_POSITION - held | set(HELD_IN)
    assert {f.part for f in FIELDS} <= {TABLE, ACTOR, TURN, SEAT, HIDDEN}
    assert {f.shape for f in FIELDS} <= {VALUE, LIST, LISTS, TAILS, INDICES}


def _frozen(x: Any) -> Any:
    if isinstance(x, list | tuple):
        return tuple(_frozen(y) for y in x)
    if isinstance(x, set | frozenset):
        return frozenset(x)
    return x


def test_copy_holds_every_declared_field_as_its_shape_says() -> None:
    for state in POSITIONS:
        other = state.copy()  # a field copy() left out is unset there: reading it raises
        for f in FIELDS:
            mine, theirs = getattr(state, f.name), getattr(other, f.name)
            assert theirs == mine, f
            if f.name in HELD_IN:
                # built when first read, then kept, and shared with a copy made after that
                assert getattr(other, f.name) is theirs, f
                assert getattr(state.copy(), f.name) is mine, f"{f} is immutable: shared"
            elif f.shape == VALUE:
                assert theirs is mine, f"{f} is immutable: shared"
            else:
                assert theirs is not mine, f"{f} must be copied"
                if f.shape in (LISTS, TAILS):
                    assert all(a is not b for a, b in zip(theirs, mine, strict=True)
                               if a is not None), f


def test_view_shows_the_public_fields_and_only_sizes_of_the_hidden_ones() -> None:
    declared = {f.view for f in FIELDS if f.view} | {f.sizes for f in FIELDS if f.sizes}
    assert declared | VIEW_DERIVED == {f.name for f in dataclasses.fields(PlayerView)}
    assert not declared & VIEW_DERIVED
    for state in POSITIONS:
        n = state.rules.players
        for seat in (state.turn, (state.turn + 1) % n):
            view = view_of(state, seat)
            for f in FIELDS:
                value = getattr(state, f.name)
                if f.part in (TABLE, TURN):
                    if f.view:  # else shown only as what follows from it (pile_frozen)
                        shown = getattr(view, f.view)
                        if f.shape == INDICES:
                            assert shown == frozenset(value), f
                        else:
                            assert _frozen(shown) == _frozen(value), f
                elif f.part == ACTOR:
                    assert getattr(view, f.view) == (value if seat == state.turn else None), f
                elif f.part == SEAT:
                    if f.view:
                        assert sort_cards(getattr(view, f.view)) == sort_cards(value[seat]), f
                    assert getattr(view, f.sizes) == tuple(
                        None if x is None else len(x) for x in value), f
                else:
                    assert getattr(view, f.sizes) == len(value), f


def _deal_hidden_again(state: HandState, seat: int, rng: random.Random) -> HandState:
    """The same position with every card ``seat`` may not see (the other seats' entries of
    the per-seat fields, the hidden fields) dealt again among those places."""
    other = state.copy()
    places: list[list[Card]] = []
    for f in FIELDS:
        value = getattr(other, f.name)
        if f.part == SEAT:
            places += [x for s, x in enumerate(value) if s != seat and x is not None]
        elif f.part == HIDDEN:
            places.append(value)
    pool = [c for p in places for c in p]
    rng.shuffle(pool)
    for p in places:
        k = len(p)
        p[:] = pool[:k]
        del pool[:k]
    other.hands = [list(h) for h in other.hands]  # counted again
    return other


def test_a_hidden_field_never_reaches_another_seats_view() -> None:
    rng = random.Random(5)
    for state in POSITIONS[::4]:
        for seat in range(state.rules.players):
            again = _deal_hidden_again(state, seat, rng)
            mine, theirs = view_of(state, seat), view_of(again, seat)
            assert mine == theirs


def test_determinize_gives_back_the_view_it_was_built_from() -> None:
    rng = random.Random(7)
    for state in POSITIONS[::2]:
        for seat in {state.turn, (state.turn + 1) % state.rules.players}:
            view = view_of(state, seat)
            world = determinize(view, rng)
            assert view_of(world, seat) == view
            assert world.frozen == state.frozen


@pytest.mark.parametrize("variant", ["classic", "modern-american", "ponytail"])
def test_the_json_writes_every_declared_key_and_reads_it_back(variant: str) -> None:
    states = [s for s in POSITIONS if s.rules.variant.name == variant and s.result is None]
    written: set[str] = set()
    for state in states:
        out = position_to_json(state)
        written |= set(out)
        assert position_to_json(position_from_json(out)) == out
    keys = {f.json for f in FIELDS if f.json}
    # Where a variant has no ponytails (or no position started frozen), the key is left out.
    optional = {"ponytails", "start_frozen"}
    assert keys - optional <= written <= keys | {"variant", "players", "options"}
    if variant == "ponytail":
        assert "ponytails" in written
