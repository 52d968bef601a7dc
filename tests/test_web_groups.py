"""The browser's selections made into the engine's moves, and the hint's whole move: cards of
several ranks pressed *Meld* together go down as one meld per rank (or the player is told how
to lay them), *Add to…* is told which melds take which cards, and a hint names every card the
expert lays this turn on its ranks (issue 32, item 13)."""

from __future__ import annotations

from typing import Any

import pytest

from canasta.bots.expert import ExpertPlayer
from canasta.errors import IllegalMove
from canasta.hints import advise
from canasta.i18n import catalogue, render
from canasta.moves import Move, MoveKind
from canasta.position import position_from_json, position_to_json
from canasta.view import view_of
from canasta.web.groups import add_fits
from test_web_reasons import session_at
from test_web_table_play import Seated, client  # noqa: F401 (a fixture)

OPENED = {"variant": "classic", "players": 4, "scores": [0, 0], "turn": 0, "phase": "play",
          "hands": [["7C", "7D", "7H", "9C", "9D", "9S", "2C", "KH", "4S"], ["QC"], ["6C"],
                    ["7D"]],
          "melds": [[["AH", "AS", "AC"]], []], "threes": [[], []], "discard": ["5C", "9H"],
          "stock": ["4H", "6H", "7H"]}


def ranks_melded(session: Any) -> list[str]:
    return sorted(m.rank for m in session.match.state.melds[0])


def test_cards_of_two_ranks_pressed_meld_together_go_down_as_two_melds() -> None:
    session = session_at(OPENED)
    played = session.play(0, "meld 7C 7D 7H 9C 9D 9S")  # what the page sends for one selection
    assert str(played) == "meld 9C 9D 9S / 7C 7D 7H"  # one move: one undo takes both back
    assert ranks_melded(session) == ["7", "9", "A"]
    session.undo(0)
    assert ranks_melded(session) == ["A"]
    # A staged group stays as it is beside the selection split by rank.
    session = session_at({**OPENED, "hands": [["7C", "7D", "7H", "9C", "9D", "9S", "KH", "KD",
                                               "KS", "4S", "5D"], ["QC"], ["6C"], ["7D"]]})
    played = session.play(0, "meld KH KD KS / 7C 7D 7H 9C 9D 9S")
    assert str(played) == "meld KD KH KS / 9C 9D 9S / 7C 7D 7H"


def test_a_wild_card_goes_with_the_one_rank_that_can_take_it() -> None:
    session = session_at({**OPENED, "hands": [["7C", "7D", "9C", "9D", "9S", "2C", "KH", "4S"],
                                              ["QC"], ["6C"], ["7D"]]})
    played = session.play(0, "meld 7C 7D 9C 9D 9S 2C")
    assert str(played) == "meld 9C 9D 9S / 7C 7D 2C"  # (two sevens need it: the nines do not)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_wild_card_either_rank_could_take_is_not_guessed(lang: str) -> None:
    session = session_at(OPENED, lang)
    before = position_to_json(session.match.state)
    with pytest.raises(IllegalMove) as refused:
        session.play(0, "meld 7C 7D 7H 9C 9D 9S 2C")
    said = render(refused.value, lang)
    words = catalogue(lang)
    # It names the wild card and the way: stage each meld, then meld.
    assert "2♣" in said
    assert words["actions.addGroup"] in said and words["actions.meld"] in said, said
    assert position_to_json(session.match.state) == before


def test_a_split_the_engine_refuses_says_why_in_both_languages() -> None:
    session = session_at({**OPENED, "hands": [["7C", "7D", "9C", "9D", "9S", "KH", "4S"],
                                              ["QC"], ["6C"], ["7D"]]})
    with pytest.raises(IllegalMove) as refused:
        session.play(0, "meld 7C 7D 9C 9D 9S")
    assert render(refused.value, "en") == ("Laid as one meld per rank: a meld needs at least 3 "
                                           "cards")
    assert render(refused.value, "es") == ("Bajando una combinación por valor: una combinación "
                                           "necesita al menos 3 cartas")
    # Anything else is refused as before, in the engine's words.
    with pytest.raises(IllegalMove) as refused:
        session.play(0, "meld 7C 7D")
    assert refused.value.code == "meld.min_cards"


def test_an_initial_meld_of_two_ranks_goes_down_when_it_counts_enough() -> None:
    position = {**OPENED, "melds": [[], []],
                "hands": [["KC", "KD", "KH", "AC", "AD", "AS", "4S", "5D"], ["QC"], ["6C"], ["7D"]]}
    session = session_at(position)
    session.play(0, "meld KC KD KH AC AD AS")
    assert ranks_melded(session) == ["A", "K"]
    session = session_at({**position, "hands": [["KC", "KD", "KH", "7C", "7D", "7S", "4S", "5D"],
                                                ["QC"], ["6C"], ["7D"]]})
    with pytest.raises(IllegalMove) as refused:
        session.play(0, "meld KC KD KH 7C 7D 7S")
    assert refused.value.params["reason"].code == "meld.initial_points"


# --- which melds take which cards ---------------------------------------------------------------
FITS = {"variant": "classic", "players": 4, "scores": [0, 0], "turn": 0, "phase": "play",
        "hands": [["9S", "9D", "2C", "2D", "JK", "KH", "4S", "QC"], ["QD"], ["6C"], ["7D"]],
        "melds": [[["9C", "9C", "9H", "2H"], ["KC", "KD", "KS", "2S", "JK", "JK"]], []],
        "threes": [[], []], "discard": ["5C", "4H"], "stock": ["4D", "6H", "7H"]}


def test_add_to_is_told_which_melds_take_which_cards() -> None:
    session = session_at(FITS)
    view = session.view_json()
    fits = view["add_fits"]
    assert view["legal"]["add"] == ["9", "K"]  # every meld takes a card of some kind
    # The kings hold three wild cards already: they take a king and nothing wild.
    assert fits["K"] == ["K"]
    assert "2" not in fits["K"] and "2 K" not in fits["K"]
    # The nines (three naturals and a wild card) take nines, and wild cards while they stay
    # fewer than the naturals (three at most): one more alone, two with a nine.
    assert {"9", "9 9", "2", "JK", "2 9", "2 2 9", "2 9 JK", "2 2 9 9"} <= set(fits["9"])
    assert not {"2 2", "2 JK", "2 2 9 9 JK"} & set(fits["9"])
    state = session.match.state
    for rank, keys in fits.items():  # each one the engine's own answer
        for key in keys:
            cards = []
            for r in key.split():
                cards.append(next(c for c in state.hands[0] if (c.rank if r != "JK" else "JK")
                                  == r and c not in cards))
            assert state.is_legal(Move.add(rank, cards)), (rank, key)
    # Nothing while another seat is to act, or before the draw.
    assert add_fits(position_from_json({**FITS, "turn": 1}), 0) == {}
    assert add_fits(position_from_json({**FITS, "phase": "draw"}), 0) == {}


# --- the hint: the whole move -------------------------------------------------------------------
NINES = {"variant": "classic", "players": 4, "scores": [0, 0], "turn": 0, "phase": "play",
         "hands": [["9S", "9D", "9H", "6C", "6S", "KH", "4S", "5D", "8C", "JD", "QS"],
                   ["QC", "4C", "5C", "7C", "8D", "TC", "JC"],
                   ["6C", "4D", "5H", "7S", "8S", "TD", "JH"],
                   ["7D", "4H", "5S", "8H", "TH", "JS", "QD"]],
         "melds": [[["9C", "9C", "9H"], ["6H", "6D", "6S"]], [["AH", "AS", "AC"]]],
         "threes": [[], []], "discard": ["5C", "KD"], "stock": ["4H", "3H", "7H", "AD", "AH", "KC"]}


def test_a_hint_names_every_card_the_expert_adds_to_its_rank_this_turn() -> None:
    state = position_from_json(NINES)
    # The expert adds its nines one by one...
    expert = ExpertPlayer(5)
    view = view_of(state, 0)
    expert.memory.update(view)
    assert str(expert.decide(view)) == "add 9 9D"
    # ...and the hint is all of them at once, and says so.
    move, why = advise(state, 0, ExpertPlayer(5), "en")
    assert str(move) == "add 9 9D 9H 9S"
    assert why.startswith("Add 9♦ 9♥ 9♠ to your nines")
    move, why = advise(state, 0, ExpertPlayer(5), "es")
    assert str(move) == "add 9 9D 9H 9S" and "9♦ 9♥ 9♠" in why
    assert position_to_json(state) == position_to_json(position_from_json(NINES))  # (unplayed)


def test_a_hint_to_meld_names_the_cards_the_expert_adds_to_that_meld_next() -> None:
    hand = ["8C", "8D", "8H", "8S", "KH", "4S", "5D", "JD", "QS"]
    state = position_from_json({**NINES, "hands": [hand, *NINES["hands"][1:]],
                                "melds": [[["9C", "9C", "9H"]], [["AH", "AS", "AC"]]]})
    move, _ = advise(state, 0, ExpertPlayer(5), "en")
    assert move.kind is MoveKind.MELD
    assert [c.text for c in move.cards_from_hand()] == ["8C", "8D", "8H", "8S"]
    assert state.is_legal(move)


def test_the_hint_of_the_browser_is_the_whole_move() -> None:
    session = session_at(NINES)
    move, _ = session.hint(0, "en")
    assert str(move) == "add 9 9D 9H 9S"
    session.play(0, str(move))  # the page sends it as it is
    assert session.match.state.melds[0][0].size == 6


def test_a_seat_at_a_table_with_friends_is_told_which_melds_take_which_cards(
        client: Any) -> None:  # noqa: F811
    t = Seated(client, "classic", 4, [0, 2])
    try:
        t.connect(0)
        t.quiet()
        t.session.match.state = position_from_json(FITS)
        assert t.sync(0)["view"]["add_fits"]["K"] == ["K"]
        t.connect(None)  # a spectator: nothing of the hand
        assert t.sync(None)["view"]["add_fits"] == {}
    finally:
        t.close()
