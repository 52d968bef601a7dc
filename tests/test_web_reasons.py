"""What the browser is told about the actions it cannot offer, and about the points a move lays:
the reasons are the engine's (in the player's language), the counts the engine's own."""

from __future__ import annotations

from typing import Any

from canasta.position import position_from_json
from canasta.web.session import GameConfig, GameSession

FROZEN = {"variant": "classic", "players": 4, "scores": [0, 0], "turn": 0, "phase": "draw",
          "hands": [["5H", "9D", "KC", "KD", "4S", "8C"], ["QC"], ["6C"], ["7D"]],
          "melds": [[], []], "threes": [[], []], "discard": ["2C", "9S"],
          "stock": ["4H", "6H", "7H"]}


def session_at(position: dict[str, Any], lang: str = "en", variant: str = "classic",
               target: int = 5000) -> GameSession:
    session = GameSession("t", GameConfig(variant, 4, target, ("basic",) * 3, "Ana", lang, 1))
    session.match.state = position_from_json(position)
    return session


def test_a_frozen_pile_says_why_it_cannot_be_taken_in_both_languages() -> None:
    view = session_at(FROZEN).view_json()
    assert view["legal"]["take"] is False
    why = view["unavailable"]
    assert why["take"] == "The pile is frozen: you need two natural nines from your hand"
    assert "draw" not in why  # available: no reason
    assert why["discard"] == why["meld"] == "Begin your turn: draw from the stock or take the pile"
    es = session_at(FROZEN, "es").view_json()["unavailable"]
    assert es["take"] == "El pozo está congelado: necesitas dos nueves naturales de tu mano"


def test_after_the_draw_each_refused_action_and_card_has_its_reason() -> None:
    session = session_at({**FROZEN, "phase": "play",
                          "hands": [["5H", "9D", "KC", "KD", "4S", "8C"], ["QC", "QD"], ["6C"],
                                    ["7D"]],
                          "melds": [[], [["AH", "AS", "AC"]]]})
    why = session.view_json()["unavailable"]
    assert why["draw"] == "You have already drawn this turn: meld, or discard to end your turn"
    assert why["meld"] == "None of your cards make an initial meld now (your side needs 50 points)"
    assert why["add"] == "Your side has no melds to add to yet"
    assert "discard" not in why and "discard_cards" not in why  # every card may go


def test_every_card_of_a_kind_that_may_go_is_offered_for_the_discard() -> None:
    # The engine lists one discard per kind (an ace for the aces); the page offers the card the
    # player chose, so it is told every card of the hand that may go, in whatever suit.
    session = session_at({**FROZEN, "phase": "play",
                          "hands": [["AS", "AH", "AS", "3C", "3S", "2D", "2C", "JK", "9D"],
                                    ["QC"], ["6C"], ["7D"]]})
    listed = {m.card.text for m in session.match.state.legal_moves()
              if m.kind.value == "discard" and m.card}
    assert len(listed & {"AS", "AH"}) == 1  # (what the page was told before)
    view = session.view_json()
    assert view["legal"]["discard"] == ["2C", "2D", "3C", "3S", "9D", "AH", "AS", "JK"]
    assert "discard_cards" not in view["unavailable"]  # no card needs a reason
    session.play(0, "discard AS")  # the card not listed goes, as the page sends it
    assert session.match.state.pile[-1].text == "AS"


def test_after_the_partner_said_yes_a_discard_that_does_not_go_out_says_so() -> None:
    session = session_at({**FROZEN, "phase": "play", "asked": [True, False, False, False],
                          "hands": [["5H", "5D", "5S", "4S"], ["QC"], ["6C"], ["7D"]],
                          "melds": [[["QH", "QD", "QS", "QC", "QH", "QD", "2C"]], []]})
    session.match.state.answer = "yes"  # (positions do not carry the answer of this turn)
    view = session.view_json()
    assert view["legal"]["discard"] == []
    cards = view["unavailable"]["discard_cards"]
    assert cards["4S"] == "Your partner said yes, so you must go out this turn: meld first"
    assert set(cards) == {"5H", "5D", "5S", "4S"}


def test_while_another_seat_plays_nothing_is_explained_by_the_server() -> None:
    assert session_at({**FROZEN, "turn": 1}).view_json()["unavailable"] == {}


def test_a_meld_below_the_minimum_offered_at_a_table_with_penalties_needs_no_reason() -> None:
    position = {**FROZEN, "phase": "play", "options": {"table_penalties_mode": True}}
    session = GameSession("t", GameConfig("classic", 4, 5000, ("basic",) * 3, "Ana", "en", 1,
                                          (("table_penalties_mode", True),)))
    session.match.state = position_from_json(position)
    view = session.view_json()
    assert view["legal"]["meld"] is True and "meld" not in view["unavailable"]


def _engine_count(session: GameSession, move: str) -> int:
    """The count the engine gives a refused initial meld ("... these cards count N")."""
    try:
        session.match.state.check(move, 0)
    except ValueError as e:
        return int(str(e).rsplit(" ", 1)[1])
    raise AssertionError(f"{move} was accepted")


def test_the_top_card_counts_as_the_engine_counts_it_when_taking_the_pile() -> None:
    # Classic: the pile's top card counts towards the minimum (5 + 5 + 5 = 15).
    session = session_at({**FROZEN, "hands": [["5H", "5D", "KC", "KD", "4S", "8C"], ["QC"],
                                              ["6C"], ["7D"]],
                          "discard": ["9S", "5C"]})
    view = session.view_json()
    laid = sum(c["value"] for c in view["hand"] if c["text"] in ("5H", "5D"))
    assert view["top_counts"] == 5
    assert laid + view["top_counts"] == _engine_count(session, "take 5H 5D") == 15
    # Modern American: the opening counts the cards from hand only.
    ma = session_at({"variant": "modern-american", "players": 4, "scores": [0, 0], "turn": 0,
                     "phase": "draw",
                     "hands": [["KH", "KD", "KS", "9C", "4S", "8C", "6D"], ["QC"], ["6C"], ["7D"]],
                     "melds": [[], []], "threes": [[], []], "discard": ["9S", "KC"],
                     "stock": ["4H", "6H", "7H"]}, variant="modern-american", target=8500)
    view = ma.view_json()
    assert view["top_counts"] == 0
    assert _engine_count(ma, "take KH KD") == 20
