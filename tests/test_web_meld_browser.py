"""Melding, adding and hints through the page, in Debian's Chromium at the laptop size
(1366x768) and on a touch phone (390x844): cards of two ranks pressed *Meld* together go down as
two melds, a wild card either could take is not guessed, *Add to…* adds at once where one meld
takes the cards and offers only the melds that do, and a hint shows every card of the move
(issue 32, item 13).  The servers, Chromium and the positions' helpers are test_web_layout's."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from test_web_layout import (  # the live server, Chromium and their helpers
    CHROMIUM,
    LiveServer,
    browser,  # noqa: F401 (a fixture)
    card_button,
    context_for,  # noqa: F401 (a fixture)
    idle,
    open_game,
    server,  # noqa: F401 (a fixture)
)

assert CHROMIUM  # (imported for its skip: the module is skipped where Chromium is missing)

SIZES = ["laptop", "phone"]  # 1366x768, and 390x844 with touch

BASE = {"variant": "classic", "players": 4, "scores": [0, 0], "turn": 0, "phase": "play",
        "threes": [[], []], "discard": ["5C", "4H"], "stock": ["4D", "6H", "7H"]}
OTHERS = [["QD"], ["6C"], ["7D"]]


def select(page: Page, texts: list[str]) -> None:
    for text in texts:
        card_button(page, text).first.click()


def melds_of(session: Any) -> dict[str, int]:
    return {m.rank: m.size for m in session.match.state.melds[0]}


@pytest.mark.parametrize("size", SIZES)
def test_cards_of_two_ranks_go_down_as_two_melds_or_say_how(context_for: Any,  # noqa: F811
                                                            server: LiveServer,  # noqa: F811
                                                            size: str) -> None:
    page = context_for(size)
    hand = ["7C", "7D", "7H", "9C", "9D", "9S", "2C", "KH", "4S", "5D"]
    session = open_game(page, server, "classic", 4, {
        **BASE, "hands": [hand, *OTHERS], "melds": [[["AH", "AS", "AC"]], []]})
    # The wild card could go with either rank: the page says how to choose, nothing is laid.
    select(page, ["7C", "7D", "7H", "9C", "9D", "9S", "2C"])
    page.get_by_test_id("meld").click()
    expect(page.get_by_test_id("error")).to_have_text(
        "The wild cards (2♣) could go with more than one rank: choose each meld's cards and "
        "press Stage group, then Meld")
    assert melds_of(session) == {"A": 3}
    # Without it, one selection of two ranks is two melds.
    page.get_by_test_id("hand").locator("[data-card='2C'][aria-pressed='true']").click()
    page.get_by_test_id("meld").click()
    idle(page)
    expect(page.get_by_test_id("error")).to_be_empty()
    assert melds_of(session) == {"A": 3, "7": 3, "9": 3}
    expect(page.locator("[data-testid='table-meld'][data-side='0']")).to_have_count(3)


@pytest.mark.parametrize("size", SIZES)
def test_add_to_adds_at_once_or_offers_only_the_melds_that_take_the_cards(
        context_for: Any, server: LiveServer, size: str) -> None:  # noqa: F811
    page = context_for(size)
    # The kings hold three wild cards, as many as a meld may: they take a king, no wild card.
    melds = [["9C", "9D", "9H"], ["AC", "AD", "AH"], ["KC", "KD", "KS", "KC", "2H", "2S", "JK"]]
    session = open_game(page, server, "classic", 4, {
        **BASE, "hands": [["9S", "2C", "KH", "4S", "5D", "8C"], *OTHERS], "melds": [melds, []]})
    dialog = page.locator("#addto-dialog")
    select(page, ["9S"])  # only the nines take it: no question
    page.get_by_test_id("add-to").click()
    idle(page)
    expect(dialog).to_be_hidden()
    assert melds_of(session)["9"] == 4
    select(page, ["2C"])  # the nines and the aces take it, the kings do not
    page.get_by_test_id("add-to").click()
    expect(dialog).to_be_visible()
    offered = dialog.locator("[data-testid^='add-to-']")
    expect(offered).to_have_count(2)
    assert sorted(offered.evaluate_all("els => els.map(e => e.dataset.testid)")) == [
        "add-to-9", "add-to-A"]
    dialog.get_by_test_id("add-to-A").click()
    idle(page)
    assert melds_of(session) == {"9": 4, "A": 4, "K": 7}


@pytest.mark.parametrize("size", SIZES)
def test_a_hint_shows_every_card_the_expert_lays_on_its_rank(context_for: Any,  # noqa: F811
                                                             server: LiveServer,  # noqa: F811
                                                             size: str) -> None:
    page = context_for(size)
    hand = ["9S", "9D", "9H", "KH", "4S", "5D", "8C", "JD", "QS"]
    open_game(page, server, "classic", 4, {
        **BASE, "hands": [hand, *OTHERS],
        "melds": [[["9C", "9C", "2H"]], [["AH", "AS", "AC"]]]})
    # The expert adds its nines one at a time (whatever the game's seed); the hint is all three.
    page.get_by_test_id("hint").click()
    expect(page.get_by_test_id("hint-text")).to_contain_text("9♦ 9♥ 9♠")
    hinted = page.get_by_test_id("hand").locator(".card--hinted")
    expect(hinted).to_have_count(3)
    assert sorted(hinted.evaluate_all("els => els.map(e => e.dataset.card)")) == [
        "9D", "9H", "9S"]
