"""End to end: the browser game in a real headless Chromium (Debian's), driven by Playwright.

A player starts a game, plays whole hands to the score sheet with the mouse and with the
keyboard, in English and in Spanish, asks the partner and answers the partner, uses a hint and
an undo, reloads the page and goes on.  Screenshots of the main screens are saved into
``build/screenshots`` (or $CANASTA_SCREENSHOTS), and axe-core checks the main screens for
serious or critical accessibility violations.

The browser tests need /usr/bin/chromium (``make test`` installs it).  Without it they are
skipped on a developer's machine and fail in CI (CI=true), so they never silently vanish there.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_helpers import asks_which_meld, axe_check, chromium, shot
from canasta.bots.basic import BasicPlayer
from canasta.moves import MoveKind
from canasta.position import position_from_json
from canasta.web.session import GameSession

from conftest import LiveServer

CHROMIUM = "/usr/bin/chromium"
TIMEOUT = 20_000  # ms

if not Path(CHROMIUM).exists():
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"{CHROMIUM} is missing: the browser tests must run in CI "
                    "(make test installs Debian's chromium)", pytrace=False)
    pytest.skip(f"{CHROMIUM} is missing (make test installs it)", allow_module_level=True)

from playwright.sync_api import Page, expect  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("web") / "games.sqlite3") as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(CHROMIUM) as b:
        yield b


@pytest.fixture()
def page(browser: Any) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    context.add_init_script("localStorage.setItem('canasta.speed', "
                            "localStorage.getItem('canasta.speed') || 'instant')")
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    # What the server's Content-Security-Policy refuses would otherwise go unnoticed.
    pg.on("console", lambda m: errors.append(m.text)
          if m.type == "error" and "Content Security Policy" in m.text else None)
    yield pg
    context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"



def idle(page: Page) -> None:
    """Wait until the client has shown every queued state and waits for the player."""
    page.wait_for_selector("body[data-busy='false']", state="attached")


# --- starting a game -------------------------------------------------------------------------
def start_game(page: Page, server: LiveServer, lang: str, *, name: str = "Ana",
               levels: str = "basic", navigate: bool = True) -> GameSession:
    if navigate:  # else the start screen is open already, with choices made
        page.goto(server.url)
    page.get_by_test_id("lang-select").select_option(lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.get_by_test_id("name").fill(name)
    page.get_by_test_id("target").select_option("2500")
    for select in page.locator("[data-testid^='level-']").all():
        select.select_option(levels)
    before = set(server.app.state.hub.games)
    page.get_by_test_id("start-game").click()
    page.wait_for_url("**#game=*")  # (a page function would be eval, which the CSP forbids)
    idle(page)
    new = set(server.app.state.hub.games) - before
    assert len(new) == 1
    return server.session(new.pop())


def card_button(page: Page, text: str) -> Any:
    return page.get_by_test_id("hand").locator(f"[data-card='{text}']:not([aria-pressed='true'])")


# --- playing a hand through the page -----------------------------------------------------------
class Driver:
    """Plays seat 0 through the page (mouse or keyboard), choosing like the basic player."""

    def __init__(self, page: Page, session: GameSession, keyboard: bool) -> None:
        self.page = page
        self.session = session
        self.keyboard = keyboard
        self.me = BasicPlayer(3)
        self.melded = self.undone = False

    def press(self, key: str, testid: str) -> None:
        if self.keyboard:
            self.page.keyboard.press(key)
        else:
            self.page.get_by_test_id(testid).click()

    def select(self, texts: list[str]) -> None:
        for text in texts:
            button = card_button(self.page, text).first
            if self.keyboard:
                button.focus()
                self.page.keyboard.press("Space")
            else:
                button.click()

    def turn(self) -> None:
        view = self.session.view(0)
        move = self.me.choose(view)
        cards = [c.text for c in move.cards_from_hand()]
        k = move.kind
        if k is MoveKind.DRAW:
            self.press("d", "draw")
        elif k is MoveKind.PASS:
            self.press("p", "pass")
        elif k is MoveKind.YES:
            self.press("y", "answer-yes")
        elif k is MoveKind.NO:
            self.press("n", "answer-no")
        elif k is MoveKind.DISCARD:
            # The engine lists one card of each kind: another card of that kind, when the hand
            # holds one, is discarded instead (as a player might choose it).
            assert move.card is not None
            other = [c.text for c in view.hand if c.kind == move.card.kind and c != move.card]
            self.select(other[:1] or cards)
            self.press("x", "discard")
        elif k is MoveKind.TAKE:
            groups = [[c.text for c in g] for g in move.groups]
            for g in groups[1:]:
                self.select(g)
                self.press("g", "add-group")
            self.select(groups[0])
            self.press("t", "take")
        elif k is MoveKind.ADD:
            self.select(cards)
            self.press("a", "add-to")
            if asks_which_meld(self.session.state, 0, move):
                self.page.locator(f"[data-testid='add-to-{move.rank}']").click()
        elif k is MoveKind.MELD:
            groups = [[c.text for c in g] for g in move.groups]
            for g in groups[:-1]:
                self.select(g)
                self.press("g", "add-group")
            self.select(groups[-1])
            expect(self.page.get_by_test_id("meld-count")).not_to_be_empty()
            self.press("m", "meld")
            if not self.undone and self.session.state.result is None:
                idle(self.page)
                assert self.session.can_undo()
                steps = len(self.session.table._undo)
                melds = len(self.session.state.melds[0])
                self.press("u", "undo")
                idle(self.page)
                self.undone = True
                assert len(self.session.table._undo) == steps - 1
                assert len(self.session.state.melds[0]) <= melds
                return  # the basic player chooses again
        else:
            raise AssertionError(f"unexpected move {move}")
        idle(self.page)

    def play_hand(self) -> None:
        for _ in range(400):
            state = self.session.state
            if state.result is not None:
                expect(self.page.get_by_test_id("score-sheet")).to_be_visible()
                return
            if state.turn != 0:
                idle(self.page)
                continue
            self.turn()
        raise AssertionError("the hand did not end")


def test_a_hand_with_the_mouse_in_english(page: Page, server: LiveServer) -> None:
    page.goto(server.url)
    shot(page, "start-en")
    axe_check(page, "the start screen")
    session = start_game(page, server, "en")
    expect(page.get_by_test_id("status")).not_to_be_empty()
    shot(page, "game-en")
    axe_check(page, "the game screen")
    page.get_by_test_id("hint").click()
    expect(page.get_by_test_id("hint-text")).not_to_be_empty()
    Driver(page, session, keyboard=False).play_hand()
    sheet = page.get_by_test_id("score-sheet")
    expect(sheet).to_contain_text("Total")
    shot(page, "score-sheet-en")
    axe_check(page, "the score sheet")


def test_a_hand_with_the_keyboard_in_spanish(page: Page, server: LiveServer) -> None:
    session = start_game(page, server, "es", name="Lucas")
    expect(page.get_by_test_id("status")).not_to_be_empty()
    page.keyboard.press("h")
    expect(page.get_by_test_id("hint-text")).not_to_be_empty()
    shot(page, "game-es")
    axe_check(page, "the game screen in Spanish")
    Driver(page, session, keyboard=True).play_hand()
    expect(page.get_by_test_id("score-sheet")).to_be_visible()
    shot(page, "score-sheet-es")
    if session.match.over:  # one hand reached the target: the sheet offers a new game
        expect(page.get_by_test_id("new-game")).to_be_visible()
        return
    page.keyboard.press("o")  # next hand
    idle(page)
    assert session.match.hand_number == 2
    # A quick second hand (a rigged position where every hand is nearly empty): the sheet then
    # also lists the match hand by hand.
    rig(session, {**GOING_OUT, "turn": 0, "hand_number": 2, "scores": list(session.match.scores),
                  "options": {"target": session.match.rules.target}})
    page.reload()
    idle(page)
    Driver(page, session, keyboard=True).play_hand()
    hands = page.get_by_test_id("hands-table")
    expect(hands).to_contain_text("Tanteo mano a mano")
    expect(hands.locator("tbody tr")).to_have_count(3)  # hands 1 and 2, the match score
    second = session.match.results[1].scores
    shown = hands.locator("tr[data-hand='2'] td").first.inner_text()
    assert int("".join(ch for ch in shown if ch.isdigit() or ch in "-−").replace("−", "-")) \
        == second[0]
    shot(page, "score-sheet-hands-es")


def test_the_page_numbers_its_requests_and_takes_each_answer_for_its_own(
        page: Page, server: LiveServer) -> None:
    frames: list[tuple[str, dict[str, Any]]] = []

    def watch(ws: Any) -> None:
        ws.on("framesent", lambda text: frames.append(("sent", json.loads(text))))
        ws.on("framereceived", lambda text: frames.append(("got", json.loads(text))))

    page.on("websocket", watch)
    start_game(page, server, "en")
    page.get_by_test_id("hint").click()
    expect(page.get_by_test_id("hint-text")).not_to_be_empty()
    page.get_by_test_id("draw").click()
    idle(page)
    sent = [m for way, m in frames if way == "sent" and m["type"] not in ("ping", "hello")]
    assert frames[0][0] == "sent" and frames[0][1]["type"] == "hello"  # whose device, first
    assert [m["type"] for m in sent][-2:] == ["hint", "move"]
    ids = [m["id"] for m in sent]
    assert len(set(ids)) == len(ids), ids
    answers = {m["id"]: m for way, m in frames if way == "got" and "id" in m}
    assert answers[ids[-2]]["type"] == "hint"
    assert answers[ids[-1]]["last"] == {"seat": 0, "move": "draw"}
    assert set(answers) <= set(ids)


def test_reloading_the_page_continues_the_game(page: Page, server: LiveServer) -> None:
    session = start_game(page, server, "en")
    driver = Driver(page, session, keyboard=False)
    for _ in range(3):
        while session.state.turn != 0:
            idle(page)
        driver.turn()
    hand = sorted(c.text for c in session.state.hands[0])
    page.reload()
    idle(page)
    shown = sorted(page.get_by_test_id("hand").locator("[data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"))
    assert shown == hand
    driver.play_hand()


def rig(session: GameSession, obj: dict[str, Any]) -> None:
    """Put the game into a chosen position (the test's own shortcut to a rare moment)."""
    session.match.state = position_from_json(obj)
    session.table._undo.clear()


GOING_OUT = {
    "variant": "classic", "players": 4, "scores": [0, 0], "phase": "draw",
    "hands": [["5H", "5D", "5S"], ["4C", "4D", "6S", "6H", "8C"],
              ["KH", "KD", "KS", "7C"], ["6C", "6D", "8D", "8H", "JD"]],
    "melds": [[["QH", "QD", "QS", "QC", "QH", "QD", "2C"], ["JH", "JS", "JC"]],
              [["AH", "AS", "AC"]]],
    "threes": [[], []], "discard": ["TS", "4H"], "stock": ["9D", "TC", "TD", "TH", "7D", "7H"],
}


def test_asking_the_partner(page: Page, server: LiveServer) -> None:
    session = start_game(page, server, "en", levels="expert")
    rig(session, {**GOING_OUT, "turn": 0})
    page.reload()
    idle(page)
    page.get_by_test_id("draw").click()
    idle(page)
    expect(page.get_by_test_id("ask")).to_be_enabled()
    page.get_by_test_id("ask").click()
    idle(page)
    assert session.state.answer == "yes"  # the partner's light hand lets the player go out
    shot(page, "asked-partner")
    page.get_by_test_id("hint").click()  # the answer binds: going out is what remains
    expect(page.get_by_test_id("hint-text")).not_to_be_empty()


def test_answering_the_partner(page: Page, server: LiveServer) -> None:
    session = start_game(page, server, "es", levels="expert")
    rig(session, {**GOING_OUT, "turn": 2,
                  "hands": [["5H", "9C"], ["4C", "4D", "6S", "6H", "8C"],
                            ["KH", "KD", "KS"], ["6C", "6D", "8D", "8H", "JD"]]})
    page.reload()  # connecting lets the computer seats play: the partner draws and asks
    idle(page)
    expect(page.get_by_test_id("answer-yes")).to_be_visible()
    shot(page, "partner-asks-es")
    axe_check(page, "the partner's question")
    page.get_by_test_id("answer-yes").click()
    idle(page)
    result = session.state.result
    assert result is not None and result.went_out == 2
    expect(page.get_by_test_id("score-sheet")).to_be_visible()


def test_past_games_replays_and_rules(page: Page, server: LiveServer) -> None:
    session = start_game(page, server, "en")
    Driver(page, session, keyboard=False).play_hand()
    page.goto(server.url)
    row = page.locator(f"[data-testid='game-row'][data-game-id='{session.id}']")
    expect(row).to_be_visible()
    expect(page.get_by_test_id("stats")).to_be_visible()
    shot(page, "games-and-stats")
    row.get_by_test_id("replay").click()
    position = page.get_by_test_id("replay-pos")
    expect(position).to_be_visible()
    first = position.inner_text()
    page.get_by_test_id("replay-next").click()
    page.get_by_test_id("replay-next").click()
    expect(position).not_to_have_text(first)
    page.get_by_test_id("replay-last").click()
    shot(page, "replay")
    axe_check(page, "the replay")
    page.get_by_test_id("rules").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("canasta")
    shot(page, "rules-en")
    axe_check(page, "the rules")


def test_another_browser_sees_nothing_of_this_ones_games(page: Page, server: LiveServer,
                                                        browser: Any) -> None:
    session = start_game(page, server, "en")
    page.goto(server.url)
    expect(page.locator(f"[data-testid='game-row'][data-game-id='{session.id}']")).to_be_visible()
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    try:  # another browser: another device, with a key of its own
        stranger = context.new_page()
        stranger.set_default_timeout(TIMEOUT)
        stranger.goto(server.url)
        expect(stranger.locator(".games-box")).to_contain_text("No games yet")
        expect(stranger.get_by_test_id("stats")).to_be_visible()
        assert stranger.get_by_test_id("stats").locator("dd").first.inner_text() == "0"
        nothing = re.compile(r"no (such )?game", re.IGNORECASE)
        stranger.goto(f"{server.url}#game={session.id}")
        expect(stranger.locator("#game-screen")).to_contain_text(nothing)
        assert stranger.locator("[data-card]").count() == 0  # not one card of the hand
        stranger.goto(f"{server.url}#replay={session.id}&hand=1")
        expect(stranger.locator("#replay-screen")).to_contain_text(nothing)
        assert device_of(stranger) != device_of(page)
    finally:
        context.close()
    page.goto(f"{server.url}#game={session.id}")  # and the game is still its own device's
    idle(page)
    expect(page.locator("#game-screen")).not_to_contain_text(re.compile("no such game", re.I))


def device_of(page: Page) -> dict[str, str]:
    """The header of the page's own device: the games made with it are the page's."""
    expect(page.locator("#loading")).to_be_hidden()  # (the client has started)
    key = page.evaluate("localStorage.getItem('canasta.device')")
    assert isinstance(key, str), "the page made no device key"
    return {"X-Canasta-Device": key}


def test_older_games_come_page_by_page(page: Page, server: LiveServer) -> None:
    page.goto(server.url)
    mine = device_of(page)
    for _ in range(21):  # more than the 20 the start screen asks for at a time
        r = page.request.post(f"{server.url}api/games", data={"levels": ["basic"] * 3},
                              headers=mine)
        assert r.status == 201
    stored = len(page.request.get(f"{server.url}api/games?limit=200", headers=mine)
                 .json()["games"])
    page.reload()
    rows = page.get_by_test_id("game-row")
    expect(rows).to_have_count(20)
    more = page.get_by_test_id("more-games")
    while more.count():
        shown = rows.count()
        more.click()
        expect(rows).not_to_have_count(shown)
        assert page.evaluate("document.activeElement.closest('[data-testid=game-row]') !== null")
    expect(rows).to_have_count(stored)
    assert len(set(rows.evaluate_all("rs => rs.map(r => r.dataset.gameId)"))) == stored
    axe_check(page, "the whole games list")


def test_a_full_disk_pauses_the_game_and_it_goes_on_by_itself(
        page: Page, server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3

    session = start_game(page, server, "es")
    store = server.app.state.hub.store

    def full(*args: Any) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(store, "save", full)
    page.get_by_test_id("draw").click()
    expect(page.get_by_test_id("status")).to_have_text(
        "En pausa: ahora el servidor no puede guardar la partida. Seguirá sola en cuanto pueda.")
    expect(page.get_by_test_id("error")).to_contain_text(
        "No se ha podido guardar la partida (la base de datos o el disco están llenos)")
    assert server.session(session.id).state.phase == "draw"  # the draw was taken back
    shot(page, "paused-es")
    axe_check(page, "a paused game")
    monkeypatch.undo()  # room again: the server's next try stores the game
    expect(page.get_by_test_id("status")).not_to_contain_text("En pausa")
    expect(page.get_by_test_id("error")).to_be_empty()
    idle(page)
    page.get_by_test_id("draw").click()
    idle(page)
    assert server.session(session.id).state.phase != "draw"


def test_house_rules_from_the_start_screen_to_the_game(page: Page, server: LiveServer) -> None:
    page.goto(server.url)
    page.get_by_test_id("lang-select").select_option("es")
    page.get_by_test_id("variant-classic").check()
    page.get_by_test_id("players").select_option("4")
    expect(page.get_by_test_id("option-wild_ratio")).to_be_attached()
    expect(page.get_by_test_id("option-two_player_last_card_rule")).to_have_count(0)
    page.get_by_test_id("variant-ponytail").check()
    house = page.get_by_test_id("house-rules")
    expect(house).not_to_have_attribute("open", "")  # closed while every rule is the default
    house.locator("summary").click()
    page.get_by_test_id("option-required_canastas").select_option(
        label="Limpia, sucia, de sietes y de comodines (cuatro canastas)")
    shot(page, "house-rules-es")
    axe_check(page, "the start screen with the house rules open")
    page.reload()  # the choice is remembered, and shown open since it differs from the default
    expect(page.get_by_test_id("house-rules")).to_have_attribute("open", "")
    for select in page.locator("[data-testid^='level-']").all():
        select.select_option("basic")
    before = set(server.app.state.hub.games)
    page.get_by_test_id("start-game").click()
    page.wait_for_url("**#game=*")  # (a page function would be eval, which the CSP forbids)
    idle(page)
    (game_id,) = set(server.app.state.hub.games) - before
    rules = server.session(game_id).match.rules
    assert rules.option("required_canastas") == "four-books"
    assert rules.option("minimum_by") == "score"
    expect(page.get_by_test_id("match-target")).to_have_text("a 50.000 o 4 manos")
    page.get_by_test_id("rules").click()
    listed = page.get_by_test_id("game-house-rules")
    expect(listed).to_contain_text("cuatro canastas")
    expect(listed).to_contain_text("Según la puntuación del equipo")
    shot(page, "rules-with-house-rules-es")
    axe_check(page, "the rules of a game with house rules")


def test_the_start_screen_offers_what_the_registries_hold(
        page: Page, server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    import canasta.variants as registry
    from canasta.variants.classic import Classic

    class Trio(Classic):  # registered after the client was written: no words of its own yet
        name = "trio"
        title = "Trio Canasta"
        aliases = ()
        player_counts = (3,)
        default_players = 3

    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    registry.register(Trio())
    page.goto(server.url)
    page.get_by_test_id("variant-trio").check()
    expect(page.locator("label[for='variant-trio']")).to_contain_text("Trio Canasta")
    assert page.get_by_test_id("players").locator("option").evaluate_all(
        "os => os.map(o => o.value)") == ["3"]
    # Three sides of one: two opponents, no partner (the sides come from the registry).
    expect(page.locator("[data-testid^='level-']")).to_have_count(2)
    expect(page.locator(".levels")).not_to_contain_text("Partner")
    # What the form asks for is checked, not played: the game's own screen would need the
    # variant's words and rules, which a test variant does not have.
    asked: list[Any] = []

    def create(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        asked.append(route.request.post_data_json)
        route.fulfill(status=201, json={"id": "not-stored"})

    page.route("**/api/games", create)
    page.get_by_test_id("start-game").click()
    page.wait_for_url("**#game=*")
    (body,) = asked
    # Classic's target at three players: the variant's own default, not the start screen's.
    assert (body["variant"], body["players"], body["target"]) == ("trio", 3, 7500)
    assert body["levels"] == ["expert", "expert"]  # the default level the server reports
    page.goto(server.url)


def test_a_short_initial_meld_costs_100_at_a_table_with_penalties(page: Page,
                                                                  server: LiveServer) -> None:
    page.goto(server.url)
    page.get_by_test_id("lang-select").select_option("en")
    page.get_by_test_id("variant-classic").check()
    page.get_by_test_id("players").select_option("4")
    page.get_by_test_id("house-rules").locator("summary").click()
    page.get_by_test_id("option-table_penalties_mode").select_option(
        label="Allowed, with a 100-point penalty")
    session = start_game(page, server, "en", navigate=False)
    assert session.match.rules.option("table_penalties_mode") is True
    rig(session, {"variant": "classic", "players": 4, "scores": [0, 0], "turn": 0,
                  "phase": "play", "options": {"table_penalties_mode": True},
                  "hands": [["4C", "4D", "4H", "9S", "8S"], ["QC", "QD", "QH"], ["5C"], ["5D"]],
                  "melds": [[], [["KC", "KD", "KH", "KS", "KC", "KD", "KH"]]],
                  "threes": [[], []], "discard": ["TS"], "stock": ["5H", "6H", "7H"]})
    page.reload()
    idle(page)
    for text in ("4C", "4D", "4H"):
        card_button(page, text).first.click()
    page.get_by_test_id("meld").click()
    idle(page)
    assert session.state.penalties == [100, 0] and len(session.state.hands[0]) == 5
    expect(page.get_by_test_id("caption")).to_contain_text("100 penalty points")
    expect(page.locator(".history-list").first).to_contain_text("taken back")


def test_taking_the_pile_with_a_prepared_pair_and_a_caption_in_the_new_language(
        page: Page, server: LiveServer) -> None:
    session = start_game(page, server, "en")
    rig(session, {"variant": "classic", "players": 4, "scores": [0, 0], "turn": 0,
                  "phase": "draw",
                  "hands": [["5H", "5D", "9D", "9S", "JK", "KC", "KD", "KH", "8C"],
                            ["QC", "QD", "QH"], ["6C", "6D"], ["7D", "7S"]],
                  "melds": [[], []], "threes": [[], []],  # the take opens: 15 + 70 >= 50
                  "discard": ["TS", "5C"], "stock": ["4H", "6H", "7H", "8H"]})
    page.reload()
    idle(page)
    for group in (["5H", "5D"], ["9D", "9S", "JK"]):  # both prepared, nothing left selected
        for text in group:
            card_button(page, text).first.click()
        page.get_by_test_id("add-group").click()
    page.get_by_test_id("take").click()
    idle(page)
    assert {m.rank for m in session.state.melds[0]} == {"5", "9"}
    assert session.state.pile == []
    for text in ("KC", "KD", "KH"):
        card_button(page, text).first.click()
    page.get_by_test_id("meld").click()
    idle(page)
    page.get_by_test_id("undo").click()
    idle(page)
    expect(page.get_by_test_id("caption")).to_have_text("Meld taken back")
    page.get_by_test_id("lang-select").select_option("es")
    expect(page.get_by_test_id("caption")).to_have_text("Bajada deshecha")
    page.keyboard.press("?")
    expect(page.locator("#help-dialog")).to_contain_text("Inicio / Fin")
    expect(page.locator("#help-dialog")).not_to_contain_text("Home / End")


ACES = {"variant": "classic", "players": 4, "scores": [0, 0], "turn": 0, "phase": "play",
        "hands": [["AS", "AH", "9D", "KC", "KD"], ["QC", "QD", "QH"], ["6C", "6D"], ["7D", "7S"]],
        "melds": [[], []], "threes": [[], []], "discard": ["TS", "5C"],
        "stock": ["4H", "6H", "7H", "8H"]}


def test_either_card_of_a_rank_is_discarded_with_the_button_and_with_the_key(
        page: Page, server: LiveServer) -> None:
    # The engine lists one discard per kind (here the ace of hearts for the aces): the ace of
    # spades goes too, by the button and by `x`, as itself.
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda text: sent.append(
        json.loads(text).get("move", ""))))
    session = start_game(page, server, "en")
    for how in ("button", "key"):
        rig(session, ACES)
        listed = [str(m) for m in session.state.legal_moves() if m.kind is MoveKind.DISCARD]
        assert "discard AH" in listed and "discard AS" not in listed
        page.reload()
        idle(page)
        card_button(page, "AS").first.click()
        expect(page.get_by_test_id("discard")).to_be_enabled()
        if how == "key":
            page.keyboard.press("x")
        else:
            page.get_by_test_id("discard").click()
        idle(page)
        assert sent[-1] == "discard AS", how
        assert (0, "discard AS") in [(n, str(m)) for n, m in session.state.history], how


def test_the_page_keeps_its_socket_while_the_player_thinks_and_comes_back_when_closed(
        page: Page, server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    import canasta.web.connection as connection

    page.clock.install()  # the page's timers, to let minutes pass in seconds
    monkeypatch.setattr(connection, "IDLE_TIMEOUT", 4.0)
    session = start_game(page, server, "en")
    sockets = server.hub.games[session.id].sockets
    (first,) = sockets
    for _ in range(12):  # twelve minutes of the page's time, six seconds of the server's
        page.clock.run_for(60_000)
        time.sleep(0.5)
    assert sockets == {first} and first.open, "the page let its socket fall silent"
    monkeypatch.undo()
    # The server closes the socket as it closes one that fell behind: the page comes back.
    first._writer.get_loop().call_soon_threadsafe(first.close, connection.CLOSE_LAGGING,
                                                  "too far behind: reconnect")
    deadline = time.monotonic() + TIMEOUT / 1000
    while not sockets or first in sockets:
        assert time.monotonic() < deadline, "the page did not connect again"
        time.sleep(0.05)
    assert first.closing == (connection.CLOSE_LAGGING, "too far behind: reconnect")
    idle(page)
    driver = Driver(page, session, keyboard=False)
    for _ in range(2):  # and the game goes on
        while session.state.turn != 0 and session.state.result is None:
            idle(page)
        if session.state.result is None:
            driver.turn()
    assert len(sockets) == 1
