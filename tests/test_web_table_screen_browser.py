"""A table's match in Debian's Chromium, at a laptop's size (1366x768) and a phone's (390x844,
touch): what the game screen itself offers at a table with friends (issue 32).

* The host hands an absent friend's seat to a computer player, and gives it back, from the seat
  on the game screen (with the keyboard; in English and in Spanish).
* Who is here is one truth: a friend playing is "here" on the table's page a third visitor opens.
* A quick message shows as a bubble at its sender's seat for a few seconds, and in the move log.
* A spectator's screen has no hand of its own, no "your side" and no move buttons; its link says
  that no hidden card is shown; new links close it with a reason that says so, a reload too; the
  table's link of a started table says the table is full and offers to watch.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from browser_helpers import axe_check, shot
from test_web_tables_browser import (  # the live server, Chromium, the people's pages
    CHROMIUM,
    TIMEOUT,
    LiveServer,
    People,
    browser,  # noqa: F401 (a fixture)
    idle,
    open_table,
    server,  # noqa: F401 (a fixture)
)

assert CHROMIUM  # (imported for its skip: the module is skipped where Chromium is missing)

from playwright.sync_api import Page, expect  # noqa: E402

LAPTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
SIZES = {"laptop": LAPTOP, "phone": PHONE}
HOST_DEVICE = "screen-tests-host-device-key-01"


@pytest.fixture()
def people(browser: Any) -> Iterator[People]:  # noqa: F811 (the fixture above)
    p = People(browser)
    yield p
    p.close()
    assert not p.errors, f"JavaScript errors in the pages: {p.errors}"


def api(live: LiveServer, path: str, body: Any = None, key: str | None = None) -> Any:
    """A request to the live server (a program's: no Origin), its JSON answer."""
    headers = {"Content-Type": "application/json", "X-Canasta-Device": HOST_DEVICE}
    if key is not None:
        headers["X-Canasta-Key"] = key
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"{live.url}{path.lstrip('/')}", data=data,
                                     headers=headers)
    with urllib.request.urlopen(request, timeout=10) as r:
        return json.load(r)


def key_in(link: str) -> str:
    return dict(p.split("=", 1) for p in link.split("#", 1)[1].split("&"))["k"]


def table_of_ana(live: LiveServer, lang: str = "en") -> dict[str, Any]:
    """Ana's table of Classic for four: a friend's seat at 1 (her left), computers at 2 and 3."""
    return api(live, "/api/tables", {  # type: ignore[no-any-return]
        "variant": "classic", "players": 4, "target": 2500, "name": "Ana", "lang": lang,
        "seats": [{"friend": True}, {"level": "basic"}, {"level": "basic"}]})


def inside(page: Page, locator: Any, what: str) -> None:
    """``locator`` lies within the window's width, and the page is no wider than the window."""
    box = locator.bounding_box()
    width = page.viewport_size["width"]  # type: ignore[index]
    assert box is not None, what
    assert box["x"] >= -0.5 and box["x"] + box["width"] <= width + 0.5, (what, box, width)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, (what, overflow)


def seated(people: People, live: LiveServer, size: dict[str, Any], lang: str
           ) -> tuple[dict[str, Any], Page, Page]:
    """Ana (the host, in ``lang``) and Luis (seat 1) at the started match, each on the game
    screen at ``size``: the table's links, her page, his."""
    links = table_of_ana(live, lang)
    luis = people.page("en-US", **size)
    luis.goto(links["invites"]["1"])
    luis.get_by_test_id("join-name").fill("Luis")
    luis.get_by_test_id("join").click()
    expect(luis.get_by_test_id("wait-host")).to_be_visible()
    ana = people.page("es-ES" if lang == "es" else "en-US", **size)
    ana.goto(links["host"])
    ana.get_by_test_id("start-table").click()
    for page in (ana, luis):
        page.wait_for_url("**play=1")
        idle(page)
    return links, ana, luis


@pytest.mark.parametrize(("size", "lang"), [("laptop", "en"), ("phone", "es")])
def test_the_host_hands_an_absent_friends_seat_over_from_the_game_screen(
        server: LiveServer, people: People, size: str, lang: str) -> None:  # noqa: F811
    links, ana, luis = seated(people, server, SIZES[size], lang)
    seat = ana.get_by_test_id("seat-1")
    expect(seat).to_contain_text("Luis")
    expect(ana.get_by_test_id("hand-seat-1")).to_have_count(0)  # Luis is here: nothing to do
    expect(luis.get_by_test_id("hand-seat-0")).to_have_count(0)  # and only the host has it
    luis.close()  # Luis leaves
    words = {"en": ("Let a computer play", "Give the seat back", "Let a computer play for Luis",
                    "Give Luis the seat back"),
             "es": ("Que juegue la máquina", "Devolver el asiento",
                    "Que la máquina juegue por Luis", "Devolver el asiento a Luis")}[lang]
    button = ana.get_by_test_id("hand-seat-1")
    expect(button).to_have_text(words[0])
    expect(button).to_have_accessible_name(words[2])
    inside(ana, button, "the hand-over button")
    shot(ana, f"table-hand-over-{size}")
    axe_check(ana, f"the host's game screen with an absent friend ({size})")
    button.focus()  # the keyboard alone
    ana.keyboard.press("Enter")
    expect(ana.get_by_test_id("hand-seat-1")).to_have_text(words[1])
    expect(ana.get_by_test_id("hand-seat-1")).to_have_accessible_name(words[3])
    expect(ana.get_by_test_id("hand-seat-1")).to_be_focused()  # (the felt drawn again)
    session = server.app.state.hub.games[server.app.state.lobby.tables[links["id"]].table.game
                                          ].session
    assert session.table.is_computer(1)
    ana.keyboard.press("Enter")  # and back to Luis
    expect(ana.get_by_test_id("hand-seat-1")).to_have_text(words[0])
    assert not session.table.is_computer(1)
    expect(ana.get_by_test_id("error")).to_be_empty()


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_a_quick_message_shows_at_its_senders_seat_and_in_the_move_log(
        server: LiveServer, people: People, size: str) -> None:  # noqa: F811
    _, ana, luis = seated(people, server, SIZES[size], "en")
    luis.locator(".quick-menu summary").click()
    luis.get_by_test_id("quick-good_luck").click()
    bubble = ana.get_by_test_id("seat-1").get_by_test_id("bubble-1")
    expect(bubble).to_have_text("Good luck!")
    inside(ana, bubble, "the bubble at Luis's seat")
    expect(luis.get_by_test_id("bubble-1")).to_have_text("Good luck!")  # at his own seat too
    inside(luis, luis.get_by_test_id("bubble-1"), "the bubble at the sender's own seat")
    shot(ana, f"table-quick-bubble-{size}")
    ana.get_by_test_id("history").click()
    said = ana.locator("#history-body").get_by_test_id("history-said")
    expect(said).to_have_text("Luis: Good luck!")
    ana.keyboard.press("Escape")
    started = time.monotonic()
    expect(bubble).to_have_count(0, timeout=TIMEOUT)  # a few seconds, then it goes
    assert time.monotonic() - started > 2
    ana.get_by_test_id("history").click()  # the log keeps it
    expect(ana.locator("#history-body").get_by_test_id("history-said")).to_have_count(1)


def test_the_table_page_says_the_people_playing_are_here(
        server: LiveServer, people: People) -> None:  # noqa: F811
    """A third visitor used to see everybody away while they all played."""
    links, _, _ = seated(people, server, LAPTOP, "en")
    visitor = people.page("en-US", **LAPTOP)
    visitor.goto(links["watch"])
    for seat in (0, 1):
        expect(visitor.get_by_test_id(f"seat-{seat}").get_by_test_id("present")).to_be_visible()
        expect(visitor.get_by_test_id(f"seat-{seat}").get_by_test_id("away")).to_have_count(0)


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_a_spectator_sees_no_hand_of_its_own_and_new_links_close_it(
        server: LiveServer, people: People, size: str) -> None:  # noqa: F811
    links = table_of_ana(server)
    host = key_in(links["host"])
    api(server, f"/api/tables/{links['id']}/fill", {}, host)
    api(server, f"/api/tables/{links['id']}/start", {}, host)
    watcher = people.page("en-US", **SIZES[size])
    watcher.goto(links["watch"])
    watcher.get_by_test_id("go-to-game").click()
    watcher.wait_for_url("**play=1")
    idle(watcher)
    expect(watcher.get_by_test_id("seat-2")).to_be_visible()
    expect(watcher.locator("#hand-title")).to_have_text("Watching: no hidden card is shown")
    expect(watcher.get_by_test_id("hand")).to_be_hidden()
    for testid in ("draw", "discard", "meld", "hint", "undo"):
        expect(watcher.get_by_test_id(testid)).to_be_hidden()
    game = watcher.locator("#game-screen")
    expect(game).not_to_contain_text("Your hand")
    expect(game).not_to_contain_text("Your side")
    expect(game).not_to_contain_text(re.compile(r"\bPartner\b"))
    inside(watcher, watcher.locator("#hand-title"), "the spectator's title")
    shot(watcher, f"table-spectator-{size}")
    axe_check(watcher, f"the spectator's screen ({size})")
    watcher.keyboard.press("d")  # a shortcut does nothing, and says nothing
    expect(watcher.get_by_test_id("error")).to_be_empty()
    # The host makes new links: the spectator's screen says why it stopped, reloaded too.
    api(server, f"/api/tables/{links['id']}/links", {}, host)
    replaced = "This link does not open this table (any more)"
    expect(watcher.get_by_test_id("error")).to_contain_text(replaced)
    watcher.reload()
    expect(watcher.get_by_test_id("error")).to_contain_text(replaced)
    expect(watcher.get_by_test_id("error")).not_to_contain_text("not yours")


def test_the_links_say_what_a_spectator_sees_and_a_full_table_offers_to_watch(
        server: LiveServer, people: People) -> None:  # noqa: F811
    host = open_table(server, people, friends=(2,))
    expect(host.get_by_test_id("links")).to_contain_text("Spectators (no hidden card is shown)")
    table_link = host.get_by_test_id("table-link").input_value()
    host.get_by_test_id("fill").click()
    host.get_by_test_id("start-table").click()
    host.wait_for_url("**play=1")
    late = people.page("es-ES", **LAPTOP)
    late.goto(table_link)
    expect(late.get_by_test_id("table-full")).to_contain_text("La mesa está completa")
    expect(late.get_by_test_id("join")).to_have_count(0)
    late.get_by_test_id("go-to-game").click()
    late.wait_for_url("**play=1")
    idle(late)
    expect(late.locator("#hand-title")).to_have_text(
        "Viendo la partida: no se ve ninguna carta oculta")
    expect(late.get_by_test_id("hand")).to_be_hidden()
