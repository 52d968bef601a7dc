"""End to end, a table with friends in Debian's Chromium, one browser context per person: the
host opens a table with a friend's seat from the start screen and sees its links; the friend
opens the invite link, sits down, sends a quick message that each reader sees in their own
language; a spectator watches the lobby; the friend leaves ("Luis is away"), the host hands the
seat to a computer player, starts the game, continues and replays it from the games list, and
the friend comes back into it.  A friend picks a free seat from the table's link.  Partners who
are both people and an opponent who is a person play a whole hand, each through their own page
(four contexts with the spectator's)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_helpers import asks_which_meld, axe_check, chromium, shot
from canasta.bots.basic import BasicPlayer
from canasta.moves import MoveKind

from conftest import LiveServer

CHROMIUM = "/usr/bin/chromium"
TIMEOUT = 20_000  # ms

if not Path(CHROMIUM).exists():
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"{CHROMIUM} is missing: the browser tests must run in CI "
                    "(make test installs Debian's chromium)", pytrace=False)
    pytest.skip(f"{CHROMIUM} is missing (make test installs it)", allow_module_level=True)

from playwright.sync_api import Page, expect  # noqa: E402

# expect()'s own wait (5 s by default) is not the page's: a join answered while four pages and
# the server share two loaded cores can take longer.
expect.set_options(timeout=TIMEOUT)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("tables") / "games.sqlite3") as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(CHROMIUM) as b:
        yield b





class People:
    """Browser contexts, one per person (their own storage, language and socket)."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def page(self, locale: str, **options: Any) -> Page:
        """A page of a new person; ``options``: the context's (a viewport, touch...)."""
        context = self.browser.new_context(**{"viewport": {"width": 1200, "height": 900},
                                              "locale": locale, **options})
        context.add_init_script("localStorage.setItem('canasta.speed', 'instant')")
        self.contexts.append(context)
        pg = context.new_page()
        pg.set_default_timeout(TIMEOUT)
        pg.on("pageerror", lambda e: self.errors.append(str(e)))
        pg.on("console", lambda m: self.errors.append(m.text)
              if m.type == "error" and "Content Security Policy" in m.text else None)
        return pg

    def close(self) -> None:
        for c in self.contexts:
            c.close()


@pytest.fixture()
def people(browser: Any) -> Iterator[People]:
    p = People(browser)
    yield p
    p.close()
    assert not p.errors, f"JavaScript errors in the pages: {p.errors}"


def test_a_host_a_friend_and_a_spectator_at_one_table(server: LiveServer,
                                                      people: People) -> None:
    host = people.page("en-US")
    host.goto(server.url)
    host.get_by_test_id("name").fill("Ana")
    host.get_by_test_id("players").select_option("4")
    for select in host.locator("[data-testid^='level-']").all():
        select.select_option("basic")
    host.get_by_test_id("level-2").select_option("friend")
    expect(host.get_by_test_id("start-game")).to_have_text("Open the table")
    host.get_by_test_id("start-game").click()
    host.wait_for_url("**#table=*")
    expect(host.get_by_test_id("seat-2")).to_contain_text("waiting for a friend")
    expect(host.get_by_test_id("seat-2")).to_contain_text("Partner")
    expect(host.get_by_test_id("seat-1")).to_contain_text("Opponent")
    invite = host.get_by_test_id("invite-2").input_value()
    watch = host.get_by_test_id("watch-link").input_value()
    assert "#table=" in invite and "&k=" in invite and invite != watch

    friend = people.page("es-ES")  # the friend reads Spanish
    friend.goto(invite)
    expect(friend.get_by_test_id("join")).to_be_visible()
    axe_check(friend, "the join page")
    shot(friend, "table-join-es")
    friend.get_by_test_id("join-name").fill("Luis")
    friend.get_by_test_id("join").click()
    expect(friend.get_by_test_id("wait-host")).to_be_visible()
    expect(host.get_by_test_id("seat-2")).to_contain_text("Luis")
    expect(host.get_by_test_id("seat-2").get_by_test_id("present")).to_be_visible()

    spectator = people.page("en-US")
    spectator.goto(watch)
    expect(spectator.get_by_test_id("seat-2")).to_contain_text("Luis")
    expect(spectator.get_by_test_id("join")).to_have_count(0)
    expect(spectator.get_by_test_id("links")).to_have_count(0)
    # (the page shows the table from a request first, then hears its socket: a message said
    # before that is not the spectator's to see)
    expect(spectator.get_by_test_id("lobby")).to_have_attribute("data-live", "yes")

    friend.get_by_test_id("quick-good_luck").click()
    expect(host.get_by_test_id("quick-said")).to_contain_text("Luis: Good luck!")
    expect(friend.get_by_test_id("quick-said")).to_contain_text("Luis: ¡Suerte!")
    expect(spectator.get_by_test_id("quick-said")).to_contain_text("Luis: Good luck!")
    axe_check(host, "the host's lobby")
    shot(host, "table-lobby-host")

    friend.close()  # Luis leaves: the others see it
    expect(host.get_by_test_id("seat-2").get_by_test_id("away")).to_have_text("Luis is away")
    host.get_by_test_id("hand-2").click()
    expect(host.get_by_test_id("seat-2")).to_contain_text("played by the computer")
    host.get_by_test_id("start-table").click()
    host.wait_for_url("**play=1")  # the host plays seat 0 of the match
    expect(host.get_by_test_id("hand")).to_be_visible()
    spectator.wait_for_url("**play=1")  # and the spectator watches it
    expect(spectator.get_by_test_id("seat-0")).to_be_visible()
    expect(spectator.get_by_test_id("hand").locator("[data-card]")).to_have_count(0)

    # The host's games list: the table's match goes on, and is replayed as the host's seat saw
    # it, through the host's own link.
    host.get_by_test_id("home").click()
    host.get_by_test_id("game-row").first.get_by_test_id("replay").click()
    host.wait_for_url("**replay=1")
    expect(host.get_by_test_id("replay-pos")).to_be_visible()
    expect(host.get_by_test_id("error")).to_be_empty()
    host.get_by_test_id("home").click()
    host.get_by_test_id("game-row").first.get_by_test_id("continue").click()
    host.wait_for_url("**play=1")
    expect(host.get_by_test_id("hand").locator("[data-card]").first).to_be_visible()

    # Luis comes back through his link: the same seat, his name kept.
    back = people.page("es-ES")
    back.goto(invite)
    expect(back.get_by_test_id("table-started")).to_be_visible()
    expect(back.get_by_test_id("seat-2")).to_contain_text("Luis")
    expect(back.get_by_test_id("join")).to_have_count(0)
    back.get_by_test_id("go-to-game").click()
    back.wait_for_url("**play=1")
    expect(back.get_by_test_id("hand").locator("[data-card]").first).to_be_visible()


def open_table(server: LiveServer, people: People, friends: tuple[int, ...],
               clock: str | None = None) -> Page:
    """Ana, the host, opens a table of Classic for four from the start screen with a friend's
    seat at each of ``friends`` (and a turn clock of ``clock`` seconds): her page, at the
    table's lobby."""
    host = people.page("en-US")
    host.goto(server.url)
    host.get_by_test_id("name").fill("Ana")
    host.get_by_test_id("players").select_option("4")
    for seat in friends:
        host.get_by_test_id(f"level-{seat}").select_option("friend")
    if clock is not None:
        host.get_by_test_id("clock").select_option(clock)
    host.get_by_test_id("start-game").click()
    host.wait_for_url("**#table=*")
    return host


def test_a_friend_picks_a_free_seat_from_the_table_link(server: LiveServer,
                                                        people: People) -> None:
    host = open_table(server, people, friends=(1, 3), clock="60")
    expect(host.get_by_test_id("lobby")).to_contain_text("Turn clock: 60 seconds")
    old_link = host.get_by_test_id("table-link").input_value()
    host.get_by_test_id("new-links").click()  # the first table link stops working
    expect(host.get_by_test_id("table-link")).not_to_have_value(old_link)
    table_link = host.get_by_test_id("table-link").input_value()
    stale = people.page("en-US")
    stale.goto(old_link)
    expect(stale.get_by_test_id("table-error")).to_contain_text("not one of this table's")

    eva = people.page("en-US")
    eva.goto(table_link)
    eva.get_by_test_id("join-seat").select_option("3")
    eva.get_by_test_id("join-name").fill("Eva")
    eva.get_by_test_id("join").click()
    expect(eva.get_by_test_id("wait-host")).to_be_visible()
    assert "k=" in eva.url and eva.url != table_link  # her own seat's link now
    expect(host.get_by_test_id("seat-3")).to_contain_text("Eva")
    # The table link again, on her device: she is back at her seat, not asked to join.
    eva.goto(server.url)
    eva.goto(table_link)
    expect(eva.get_by_test_id("wait-host")).to_be_visible()
    expect(eva.get_by_test_id("seat-3").locator(".tag--won").first).to_have_text("you")
    # Another friend through the same link finds only seat 1 free.
    max_ = people.page("en-US")
    max_.goto(table_link)
    expect(max_.get_by_test_id("join-seat").locator("option")).to_have_count(1)


def test_a_name_being_typed_survives_the_table_changing(server: LiveServer,
                                                        people: People) -> None:
    """The lobby is drawn again whenever the table changes: a friend typing their name while
    another sits down keeps the focus, and what they type next goes on the end of the name."""
    host = open_table(server, people, friends=(1, 2))
    luis = people.page("en-US")
    luis.goto(host.get_by_test_id("invite-2").input_value())
    expect(luis.get_by_test_id("lobby")).to_have_attribute("data-live", "yes")
    name = luis.get_by_test_id("join-name")
    name.click()
    luis.keyboard.type("Lu")
    eva = people.page("en-US")
    eva.goto(host.get_by_test_id("invite-1").input_value())
    eva.get_by_test_id("join-name").fill("Eva")
    eva.get_by_test_id("join").click()
    expect(eva.get_by_test_id("wait-host")).to_be_visible()
    expect(luis.get_by_test_id("seat-1")).to_contain_text("Eva")  # Luis's table drawn again
    luis.keyboard.type("is")
    expect(name).to_be_focused()
    expect(name).to_have_value("Luis")
    luis.keyboard.press("Enter")
    expect(luis.get_by_test_id("wait-host")).to_be_visible()
    expect(host.get_by_test_id("seat-2")).to_contain_text("Luis")


def test_the_match_address_says_play_once(server: LiveServer, people: People) -> None:
    """Issue 32: the game's address ended in "&play=1&play=1".  The page goes to the match when
    the host starts it and again when the table says it started (or on a second press of "Go
    to the game"): each added the parameter before the first change of address was acted on.
    It is set, not added, so it is there once however often that happens, and after a reload."""
    host = open_table(server, people, friends=(2,))
    lobby = host.url
    host.get_by_test_id("fill").click()  # (the friend's seat to a computer player)
    host.get_by_test_id("start-table").click()
    host.wait_for_url("**play=1")
    expect(host.get_by_test_id("hand")).to_be_visible()
    assert host.url.count("play=") == 1, host.url
    host.goto(lobby)  # the lobby again: it offers the way to the started match
    go = host.get_by_test_id("go-to-game")
    expect(go).to_be_visible()
    go.evaluate("(b) => { b.click(); b.click(); }")  # (both before the address changes)
    host.wait_for_url("**play=1")
    expect(host.get_by_test_id("hand")).to_be_visible()
    assert host.url.count("play=") == 1, host.url
    host.reload()
    expect(host.get_by_test_id("hand")).to_be_visible()
    assert host.url.count("play=") == 1, host.url


# --- several people playing one match through their pages ----------------------------------------
def idle(page: Page) -> None:
    page.wait_for_selector("body[data-busy='false']", state="attached")


def card_button(page: Page, text: str) -> Any:
    return page.get_by_test_id("hand").locator(f"[data-card='{text}']:not([aria-pressed='true'])")


class Person:
    """Plays one seat through its own page, choosing like the basic player would."""

    def __init__(self, page: Page, seat: int) -> None:
        self.page = page
        self.seat = seat
        self.me = BasicPlayer(7 + seat)

    def select(self, texts: list[str]) -> None:
        for text in texts:
            card_button(self.page, text).first.click()

    def turn(self, session: Any) -> None:
        move = self.me.choose(session.view(self.seat))
        cards = [c.text for c in move.cards_from_hand()]
        k = move.kind
        click = lambda testid: self.page.get_by_test_id(testid).click()  # noqa: E731
        if k is MoveKind.DRAW:
            click("draw")
        elif k is MoveKind.PASS:
            click("pass")
        elif k is MoveKind.ASK:
            click("ask")
        elif k is MoveKind.YES:
            click("answer-yes")
        elif k is MoveKind.NO:
            click("answer-no")
        elif k is MoveKind.DISCARD:
            self.select(cards)
            click("discard")
        elif k is MoveKind.TAKE:
            groups = [[c.text for c in g] for g in move.groups]
            for g in groups[1:]:
                self.select(g)
                click("add-group")
            self.select(groups[0])
            click("take")
        elif k is MoveKind.ADD:
            self.select(cards)
            click("add-to")
            if asks_which_meld(session.state, self.seat, move):
                self.page.locator(f"[data-testid='add-to-{move.rank}']").click()
        elif k is MoveKind.MELD:
            groups = [[c.text for c in g] for g in move.groups]
            for g in groups[:-1]:
                self.select(g)
                click("add-group")
            self.select(groups[-1])
            expect(self.page.get_by_test_id("meld-count")).not_to_be_empty()
            click("meld")
        else:
            raise AssertionError(f"unexpected move {move}")


def test_partners_and_an_opponent_who_are_people_play_a_whole_hand(server: LiveServer,
                                                                  people: People) -> None:
    """Ana (the host, seat 0), her partner Luis (seat 2) and their opponent Eva (seat 1) play a
    whole hand of Classic Canasta with one computer player, each in their own browser; a
    spectator watches."""
    host = people.page("en-US")
    host.goto(server.url)
    host.get_by_test_id("name").fill("Ana")
    host.get_by_test_id("players").select_option("4")
    host.get_by_test_id("target").select_option("2500")
    for select in host.locator("[data-testid^='level-']").all():
        select.select_option("basic")
    host.get_by_test_id("level-2").select_option("friend")
    host.get_by_test_id("level-1").select_option("friend")
    host.get_by_test_id("start-game").click()
    host.wait_for_url("**#table=*")
    invite = host.get_by_test_id("invite-2").input_value()
    watch = host.get_by_test_id("watch-link").input_value()
    eva = people.page("en-US")
    eva.goto(host.get_by_test_id("invite-1").input_value())
    eva.get_by_test_id("join-name").fill("Eva")
    eva.get_by_test_id("join").click()
    expect(eva.get_by_test_id("wait-host")).to_be_visible()
    luis = people.page("es-ES")
    luis.goto(invite)
    luis.get_by_test_id("join-name").fill("Luis")
    luis.get_by_test_id("join").click()
    expect(luis.get_by_test_id("wait-host")).to_be_visible()
    spectator = people.page("en-US")
    spectator.goto(watch)
    expect(spectator.get_by_test_id("seat-2")).to_contain_text("Luis")
    host.get_by_test_id("start-table").click()
    for page in (host, luis, eva, spectator):
        page.wait_for_url("**play=1")
        idle(page)
    table_id = key_of_table(host.url)
    game = server.app.state.lobby.tables[table_id].table.game
    session = server.app.state.hub.games[game].session
    seats = {0: Person(host, 0), 1: Person(eva, 1), 2: Person(luis, 2)}
    expect(luis.get_by_test_id("seat-0")).to_contain_text("Ana")  # Luis sees Ana by name
    for _ in range(800):
        state = session.state
        if state.result is not None:
            break
        seat = state.to_move()
        if seat not in seats:
            time.sleep(0.02)
            continue
        person = seats[seat]
        idle(person.page)
        before = len(state.history)
        person.turn(session)
        deadline = time.monotonic() + 20
        while len(session.state.history) == before and session.state.result is None:
            assert time.monotonic() < deadline, "the move did not arrive"
            time.sleep(0.02)
    else:
        raise AssertionError("the hand did not end")
    for page in (host, luis, eva, spectator):
        expect(page.get_by_test_id("score-sheet")).to_be_visible()
    expect(luis.get_by_test_id("score-sheet")).to_contain_text("Total")
    expect(spectator.get_by_test_id("hand").locator("[data-card]")).to_have_count(0)
    shot(luis, "table-score-sheet-es")
    if not session.match.over:  # the next hand waits for every person there
        luis.get_by_test_id("next-hand").click()
        expect(luis.get_by_test_id("waiting-next")).to_contain_text("Ana")
        expect(luis.get_by_test_id("next-hand")).to_be_disabled()
        assert session.state.hand_number == 1
        host.get_by_test_id("next-hand").click()
        expect(host.get_by_test_id("waiting-next")).to_contain_text("Eva")
        expect(luis.get_by_test_id("deal-now")).to_have_count(0)  # the host's alone
        host.get_by_test_id("deal-now").click()  # Eva has not asked: the host deals all the same
        for page in (host, luis, eva):
            expect(page.get_by_test_id("score-sheet")).to_be_hidden()
        assert server.app.state.hub.games[game].session.state.hand_number == 2
    # Back home, Ana sees her own record at tables (her device's person key).
    host.goto(server.url)
    expect(host.get_by_test_id("person-stats")).to_be_visible()


def key_of_table(url: str) -> str:
    fragment = url.split("#", 1)[1]
    return dict(p.split("=", 1) for p in fragment.split("&"))["table"]
