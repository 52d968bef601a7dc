"""Cards and moves: one canonical text that reads back exactly (FORMAT.md "Cards", "Moves")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from canasta.cards import ALL_CARDS, BLACK_THREE, JOKER, RED_THREE, card, make_deck
from canasta.errors import NotationError
from canasta.moves import Move, MoveKind, parse_move


def test_every_card_reads_back() -> None:
    for c in ALL_CARDS:
        assert card(c.text) is c
        assert card(c.text.lower()) is c


def test_ten_is_accepted_for_t() -> None:
    assert card("10h") is card("TH")
    assert str(parse_move("add 10 10C TD")) == "add T TC TD"


def test_kinds_and_values() -> None:
    assert card("3H").kind == RED_THREE and card("3D").kind == RED_THREE
    assert card("3C").kind == BLACK_THREE and card("3S").kind == BLACK_THREE
    assert card("JK").kind == JOKER
    values = {t: card(t).value for t in ("JK", "2C", "AS", "KD", "8H", "7C", "4S", "3S", "3H")}
    assert values == {"JK": 50, "2C": 20, "AS": 20, "KD": 10, "8H": 10, "7C": 5, "4S": 5,
                      "3S": 5, "3H": 0}


def test_deck_sizes() -> None:
    assert len(make_deck(2)) == 108
    assert len(make_deck(6)) == 324
    assert sum(1 for c in make_deck(2) if c.kind == JOKER) == 4


@pytest.mark.parametrize("text", ["XX", "1H", "KX", "", "J", "3"])
def test_bad_cards(text: str) -> None:
    with pytest.raises(NotationError):
        card(text)


@pytest.mark.parametrize("text", [
    "draw", "pass", "ask", "yes", "no", "discard 4S", "take", "take 7H 7S",
    "take KD KH / 7S 7D 7C", "meld KH KD KC / 9S 9D 2C", "add 7 7C 2D", "add W 2C JK",
])
def test_canonical_moves_read_back(text: str) -> None:
    m = parse_move(text)
    assert parse_move(str(m)) == m


def test_parsing_canonicalises_order() -> None:
    a = parse_move("meld 9s 2c 9d / kc kh kd")
    b = parse_move("MELD KD KH KC / 9D 9S 2C")
    assert a == b
    assert str(a) == "meld KC KD KH / 9D 9S 2C"


@pytest.mark.parametrize("text", ["", "jump", "draw 2", "discard", "discard 4S 5S",
                                  "add", "add 7", "add 3 3C", "meld", "meld KH / / KD",
                                  "take 7H / ", "discard ZZ"])
def test_malformed_moves(text: str) -> None:
    with pytest.raises(NotationError):
        parse_move(text)


cards_st = st.lists(st.sampled_from(ALL_CARDS), min_size=1, max_size=8)


@given(st.lists(cards_st, min_size=1, max_size=4))
def test_any_meld_move_round_trips(groups: list[list[object]]) -> None:
    m = Move.meld(*groups)  # type: ignore[arg-type]
    assert parse_move(str(m)) == m
    assert m.kind is MoveKind.MELD


@given(cards_st, st.lists(cards_st, max_size=3))
def test_any_take_move_round_trips(first: list[object], extra: list[list[object]]) -> None:
    m = Move.take(first, *extra)  # type: ignore[arg-type]
    assert parse_move(str(m)) == m
