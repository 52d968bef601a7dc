"""The game server over HTTP and WebSockets (the ASGI test client): whole games, bad messages,
reconnecting and restarting, undo, hints, replays, statistics, and what a seat may see."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import sqlite3
import unicodedata
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from canasta.bots import make_player
from canasta.bots.basic import BasicPlayer
from canasta.cards import Card, cards
from canasta.engine.deal import deal
from canasta.i18n import render
from canasta.match import Match
from canasta.moves import Move, MoveKind, parse_move
from canasta.view import PlayerView
from canasta.web.app import create_app
from canasta.web.protocol import parse_message, request_problem
from canasta.web.session import GameConfig, GameSession

from conftest import LiveServer
from test_rules_classic import stacked_deck as classic_deck
from test_rules_ponytail import stacked_deck as ponytail_deck

#: The key of the tests' device (the browser makes 30 URL-safe characters: 176 random bits), and
#: another device's.
DEVICE = "tests-device-key-0123456789_abc"
OTHER = "another-device-key-9876543210-x"
MINE = {"X-Canasta-Device": DEVICE}
#: A client on the machine the server runs on (which adopts the games of an older database).
FROM_HERE: dict[str, Any] = {"client": ("127.0.0.1", 50000), "base_url": "http://127.0.0.1:8000"}


@contextmanager
def game_socket(client: TestClient, path: str, key: str | None = DEVICE,
                **kwargs: Any) -> Iterator[Any]:
    """A game's socket that says first whose device it is (``key``: None says nothing)."""
    with client.websocket_connect(path, **kwargs) as ws:
        if key is not None:
            ws.send_json({"type": "hello", "key": key})
        yield ws


def new_game(client: TestClient, **options: Any) -> str:
    body = {"variant": "classic", "players": 4, "target": 2500,
            "levels": ["basic", "basic", "basic"], "name": "Ana", "lang": "en", **options}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def change_row(db: Path, game_id: str, column: str, change: Any) -> Any:
    """Rewrite a stored game's ``config`` or ``record`` (JSON) through ``change`` (which edits
    it in place, or returns the text to store); returns what was stored."""
    con = sqlite3.connect(db)
    value = json.loads(con.execute(f"SELECT {column} FROM games WHERE id = ?",
                                   (game_id,)).fetchone()[0])
    text = change(value)
    stored = text if isinstance(text, str) else json.dumps(value)
    con.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (stored, game_id))
    con.commit()
    con.close()
    return value if text is None else text


def as_older_store(db: Path) -> None:
    """Leave ``db`` as a server of before the summaries did (only the games table): opening
    it builds the list's summaries from the records."""
    con = sqlite3.connect(db)
    con.execute("DROP TABLE summaries")
    con.commit()
    con.close()


def stored_record(db: Path, game_id: str) -> Any:
    con = sqlite3.connect(db)
    text = con.execute("SELECT record FROM games WHERE id = ?", (game_id,)).fetchone()[0]
    con.close()
    return json.loads(text)


def session_of(client: TestClient, game_id: str) -> GameSession:
    return client.app.state.hub.games[game_id].session  # type: ignore[attr-defined,no-any-return]


def settle(ws: Any, sink: list[str] | None = None) -> dict[str, Any]:
    """Read state messages until the computer players have nothing left to do."""
    while True:
        text = ws.receive_text()
        if sink is not None:
            sink.append(text)
        msg = json.loads(text)
        assert msg["type"] == "state", msg
        if not msg["waiting"]:
            return msg  # type: ignore[no-any-return]


def human_move(session: GameSession, player: BasicPlayer) -> str:
    return str(player.choose(session.view(0)))


@pytest.fixture()
def client(tmp_path: Path) -> Any:
    with TestClient(create_app(tmp_path / "games.sqlite3"), headers=MINE) as c:
        yield c


def play_hand(client: TestClient, ws: Any, game_id: str, sink: list[str] | None = None,
              check: Any = None) -> dict[str, Any]:
    session = session_of(client, game_id)
    me = BasicPlayer(5)
    msg = settle(ws, sink)
    for _ in range(2000):
        if check is not None:
            check(session, sink)
        view = msg["view"]
        if view["result"] is not None:
            return msg
        assert view["to_act"], view
        ws.send_text(json.dumps({"type": "move", "move": human_move(session, me)}))
        msg = settle(ws, sink)
    raise AssertionError("the hand did not end")


# --- whole games ------------------------------------------------------------------------------
@pytest.mark.parametrize(("variant", "players"), [("classic", 4), ("classic", 2),
                                                   ("modern-american", 4)])
def test_a_whole_game_over_the_websocket(client: TestClient, variant: str, players: int) -> None:
    game_id = new_game(client, variant=variant, players=players,
                       levels=["basic"] * (players - 1))
    with game_socket(client, f"/ws/games/{game_id}/0") as ws:
        for _hand in range(12):
            msg = play_hand(client, ws, game_id)
            view = msg["view"]
            assert set(view["result"]["breakdown"][0]) >= {"melded", "canastas", "threes",
                                                           "going_out", "in_hand", "total"}
            if view["match"]["over"]:
                break
            ws.send_text(json.dumps({"type": "next_hand"}))
        assert view["match"]["over"], "the match reached no end in 12 hands"
        assert view["match"]["winner"] in range(view["sides"])
        ws.send_text(json.dumps({"type": "next_hand"}))
        err = ws.receive_json()
        assert err["type"] == "error" and "match is over" in err["message"]
    games = client.get("/api/games").json()["games"]
    assert games[0]["id"] == game_id and games[0]["over"]
    stats = client.get("/api/stats").json()
    assert stats["games"] == 1 and stats["games_finished"] == 1
    assert stats["hands"] == games[0]["hands"] >= 1
    assert stats["games_won"] == int(games[0]["winner"] == 0)


# --- a seat sees only its own cards -----------------------------------------------------------
def hidden_only(session: GameSession) -> set[str]:
    """Card texts that exist only where seat 0 cannot see them (other hands, the stock, the
    ponytails), and nowhere seat 0 has ever seen one."""
    state = session.state
    hidden: Counter[str] = Counter()
    for seat, hand in enumerate(state.hands):
        if seat != 0:
            hidden.update(c.text for c in hand)
    hidden.update(c.text for c in state.stock)
    for p in state.ponytails:
        if p is not None:
            hidden.update(c.text for c in p)
    seen = {c.text for c in state.hands[0]} | {c.text for c in state.pile}
    for ms in state.melds:
        for m in ms:
            seen.update(c.text for c in m.cards)
    for t in state.threes:
        seen.update(c.text for c in t)
    for hand_moves in session.match.moves:
        for _seat, move in hand_moves:
            seen.update(c.text for c in move.cards_from_hand())
    m = session.match
    for number in range(1, m.hand_number + 1):  # each deal's upcard(s), face up for everyone
        seen.update(c.text for c in deal(m.rules, m.deck_for(number), hand_number=number).pile)
    return {t for t in hidden if t not in seen}


@pytest.mark.parametrize(("variant", "players"), [("classic", 4), ("classic", 3),
                                                   ("modern-american", 4), ("ponytail", 4)])
def test_no_message_shows_a_hidden_card(client: TestClient, variant: str, players: int) -> None:
    game_id = new_game(client, variant=variant, players=players,
                       levels=["basic"] * (players - 1),
                       target=5000 if variant == "ponytail" else 2500)
    sink: list[str] = []
    checked = 0

    def check(session: GameSession, messages: list[str] | None) -> None:
        nonlocal checked
        assert messages is not None
        secret = hidden_only(session)
        for text in messages:
            for t in secret:
                assert not re.search(rf"\b{re.escape(t)}\b", text), \
                    f"{t} is hidden from seat 0 but was sent to it"
            checked += 1
        messages.clear()

    with game_socket(client, f"/ws/games/{game_id}/0") as ws:
        for _hand in range(3 if (variant, players) == ("classic", 4) else 1):
            view = play_hand(client, ws, game_id, sink, check)["view"]
            if view["match"]["over"]:
                break
            ws.send_text(json.dumps({"type": "next_hand"}))
    assert checked > 20


# --- bad messages change nothing -------------------------------------------------------------
BAD = [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "JSON object"),
    (json.dumps({"type": "fly"}), "unknown message type"),
    (json.dumps({"move": "draw"}), "unknown message type"),
    (json.dumps({"type": "move"}), "needs the field 'move'"),
    (json.dumps({"type": "move", "move": 7}), "must be a str"),
    (json.dumps({"type": "move", "move": "draw", "seat": 1}), "unknown field"),
    (json.dumps({"type": "move", "move": "fly away"}), "unknown move"),
    (json.dumps({"type": "move", "move": "discard ZZ"}), ""),
    (json.dumps({"type": "move", "move": "meld 7H 7D 7S"}), ""),
    (json.dumps({"type": "move", "move": "yes"}), ""),
    (json.dumps({"type": "undo"}), "nothing to undo"),
    (json.dumps({"type": "next_hand"}), "still being played"),
    (json.dumps({"type": "lang", "lang": "fr"}), "language"),
    ("x" * 10000, "too long"),
    ('{"type": "sync", "type": "undo"}', "gives the field 'type' twice"),
    ('{"type": "move", "move": "draw", "move": "pass"}', "gives the field 'move' twice"),
]


def test_bad_messages_get_an_error_and_change_nothing(client: TestClient) -> None:
    game_id = new_game(client)
    with game_socket(client, f"/ws/games/{game_id}/0") as ws:
        first = settle(ws)
        assert first["view"]["to_act"] and first["view"]["phase"] == "draw"
        for text, words in BAD:
            ws.send_text(text)
            msg = ws.receive_json()
            assert msg["type"] == "error", (text, msg)
            assert words in msg["english"], (text, msg)
            assert msg["message"]
            ws.send_text(json.dumps({"type": "sync"}))
            assert ws.receive_json() == first, text
        ws.send_bytes(b"\x00\x01")
        assert ws.receive_json()["type"] == "error"


def test_a_request_id_comes_back_in_the_answer_and_only_to_the_asker(
        client: TestClient) -> None:
    game_id = new_game(client)
    with game_socket(client, f"/ws/games/{game_id}/0") as ws, \
            game_socket(client, f"/ws/games/{game_id}/0") as other:
        first = settle(ws)
        settle(other)
        ws.send_text(json.dumps({"type": "sync", "id": 1}))
        assert ws.receive_json() == {**first, "id": 1}
        ws.send_text(json.dumps({"type": "move", "move": "discard 4S", "id": "m-2"}))
        refused = ws.receive_json()
        assert refused["type"] == "error" and refused["id"] == "m-2"
        ws.send_text(json.dumps({"type": "undo", "id": "u:3", "seat": 1}))  # bad, id valid
        refused = ws.receive_json()
        assert "unknown field" in refused["english"] and refused["id"] == "u:3"
        ws.send_text(json.dumps({"type": "hint", "id": 4}))
        hint = ws.receive_json()
        assert hint["type"] == "hint" and hint["id"] == 4
        ws.send_text(json.dumps({"type": "move", "move": "draw", "id": 5}))
        drawn = ws.receive_json()
        assert drawn["id"] == 5 and drawn["last"] == {"seat": 0, "move": "draw"}
        assert other.receive_json() == {k: v for k, v in drawn.items() if k != "id"}
        session = session_of(client, game_id)
        discard = next(m for m in session.view(0).legal_moves if m.kind is MoveKind.DISCARD)
        ws.send_text(json.dumps({"type": "move", "move": str(discard), "id": 2**31 - 1}))
        answer = ws.receive_json()  # the discard's state answers; the computers' are news
        assert answer["id"] == 2**31 - 1 and answer["last"]["seat"] == 0
        rest = [] if not answer["waiting"] else [settle(ws)]
        seen = [other.receive_json()]
        if answer["waiting"]:
            seen.append(settle(other))
        assert all("id" not in m for m in rest + seen)
        ws.send_text(json.dumps({"type": "lang", "lang": "es", "id": 6}))
        assert ws.receive_json()["id"] == 6
        assert "id" not in other.receive_json()
        ws.send_text(json.dumps({"type": "ping", "id": 7}))  # still not answered
        ws.send_text(json.dumps({"type": "sync", "id": 8}))
        assert ws.receive_json()["id"] == 8


HOSTILE_IDS = [-1, 2**31, True, 1.5, None, "", "x" * 33, "a b", "<b>", "é", "1\n", [1],
               {"n": 1}]


def test_a_request_id_the_protocol_does_not_take_is_refused_and_changes_nothing(
        client: TestClient) -> None:
    game_id = new_game(client)
    with game_socket(client, f"/ws/games/{game_id}/0") as ws:
        first = settle(ws)
        for rid in HOSTILE_IDS:
            ws.send_text(json.dumps({"type": "move", "move": "draw", "id": rid}))
            msg = ws.receive_json()
            assert msg["type"] == "error" and "id" not in msg, (rid, msg)
            assert msg["english"].startswith("'id' must be a whole number from 0 to "), rid
            ws.send_text(json.dumps({"type": "sync"}))
            assert ws.receive_json() == first, rid
    assert parse_message('{"type": "ping", "id": "a-1"}') == {"type": "ping", "id": "a-1"}


def test_illegal_moves_are_explained_in_the_players_language(client: TestClient) -> None:
    game_id = new_game(client, lang="es")
    with game_socket(client, f"/ws/games/{game_id}/0") as ws:
        settle(ws)
        ws.send_text(json.dumps({"type": "move", "move": "discard 4S"}))
        msg = ws.receive_json()
        assert msg["type"] == "error"
        assert msg["english"].startswith("begin your turn")
        assert msg["message"] == "Empieza tu turno: roba del mazo o toma el pozo"
        assert msg["code"] == "turn.draw_first" and msg["params"] == {}
        ws.send_text(json.dumps({"type": "lang", "lang": "en"}))
        assert ws.receive_json()["type"] == "state"
        ws.send_text(json.dumps({"type": "move", "move": "discard 4S"}))
        msg = ws.receive_json()
        assert msg["message"] == "Begin your turn: draw from the stock or take the pile"
        assert msg["english"] == "begin your turn: draw from the stock or take the pile"


def test_moves_out_of_turn_and_for_other_seats_are_refused(client: TestClient) -> None:
    game_id = new_game(client)
    with pytest.raises(WebSocketDisconnect) as e, \
            game_socket(client, f"/ws/games/{game_id}/1") as ws:
        ws.receive_json()
    assert e.value.code == 4403
    with pytest.raises(WebSocketDisconnect) as e, \
            game_socket(client, "/ws/games/nosuchgame/0") as ws:
        ws.receive_json()
    assert e.value.code == 4404
    with game_socket(client, f"/ws/games/{game_id}/0") as ws:
        settle(ws)
    session = session_of(client, game_id)
    session.play(0, "draw")
    session.play(0, f"discard {session.state.hands[0][0].text}")
    before = session.record()
    from canasta.errors import IllegalMove

    with pytest.raises(IllegalMove, match="turn"):
        session.play(0, "draw")
    with pytest.raises(IllegalMove, match="computer"):
        session.play(1, "draw")
    assert session.record() == before


# --- leaving and coming back -----------------------------------------------------------------
def test_reconnecting_resumes(client: TestClient) -> None:
    game_id = new_game(client)
    with game_socket(client, f"/ws/games/{game_id}/0") as ws:
        settle(ws)
        ws.send_text(json.dumps({"type": "move", "move": "draw"}))
        after = settle(ws)
    with game_socket(client, f"/ws/games/{game_id}/0") as ws:
        again = settle(ws)
    assert again["view"] == after["view"]


def test_a_restarted_server_resumes_from_sqlite(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db), headers=MINE) as c:
        game_id = new_game(c, levels=["expert", "basic", "expert"])
        with game_socket(c, f"/ws/games/{game_id}/0") as ws:
            msg = settle(ws)
            session = session_of(c, game_id)
            me = BasicPlayer(1)
            for _ in range(12):  # a few turns
                if msg["view"]["result"] is not None:
                    break
                ws.send_text(json.dumps({"type": "move", "move": human_move(session, me)}))
                msg = settle(ws)
            before = msg["view"]
    with TestClient(create_app(db), headers=MINE) as c:  # a new server process, same database
        with game_socket(c, f"/ws/games/{game_id}/0") as ws:
            now = settle(ws)["view"]
        assert now["hand"] == before["hand"] and now["melds"] == before["melds"]
        assert now["history"] == before["history"] and now["turn"] == before["turn"]
        summary = c.get(f"/api/games/{game_id}").json()
        assert summary["name"] == "Ana" and summary["levels"] == ["expert", "basic", "expert"]


def test_a_corrupt_saved_game_is_reported_and_left_alone(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db), headers=MINE) as c:
        good = new_game(c)
        bad = new_game(c)
    record = change_row(db, bad, "record",
                        lambda r: r["hands"][0].update(moves=[[0, "discard JK"]]))
    with TestClient(create_app(db), headers=MINE) as c:
        with pytest.raises(WebSocketDisconnect) as e, \
                game_socket(c, f"/ws/games/{bad}/0") as ws:
            msg = ws.receive_json()
            assert msg["type"] == "error" and "cannot be read" in msg["message"]
            ws.receive_json()
        assert e.value.code == 4422
        assert c.get(f"/api/games/{bad}/replay").status_code == 400
        assert {g["id"] for g in c.get("/api/games").json()["games"]} == {good, bad}
        with game_socket(c, f"/ws/games/{good}/0") as ws:
            assert settle(ws)["view"]["hand_number"] == 1
    con = sqlite3.connect(db)
    kept = json.loads(con.execute("SELECT record FROM games WHERE id = ?", (bad,)).fetchone()[0])
    assert kept == record  # nothing lost, nothing overwritten


# --- undo and hints ---------------------------------------------------------------------------
def stacked_game(client: TestClient, deck: list[Card]) -> str:
    """A new game (a default one: Classic, 4 players) whose first hand is dealt from ``deck``."""
    game_id = new_game(client)
    live = client.app.state.hub.games[game_id]  # type: ignore[attr-defined]
    config = live.session.config
    live.session = GameSession.playing(game_id, config, Match(config.rules(), deals=[deck]))
    return game_id


def test_undo_takes_back_the_players_melds_of_this_turn(client: TestClient) -> None:
    # Seat 0 plays first and holds three aces (60: enough to open).
    game_id = stacked_game(client, classic_deck(4, hands={0: "AC AD AH"}, then="9C 8D"))
    session = session_of(client, game_id)
    with game_socket(client, f"/ws/games/{game_id}/0") as ws:
        msg = settle(ws)
        ws.send_text(json.dumps({"type": "move", "move": "draw"}))
        msg = settle(ws)
        melds = [m for m in session.view(0).legal_moves if m.kind is MoveKind.MELD]
        assert melds
        before = msg
        ws.send_text(json.dumps({"type": "move", "move": str(melds[0])}))
        laid = settle(ws)
        assert laid["can_undo"] and laid["view"]["melds"][0]
        ws.send_text(json.dumps({"type": "undo"}))
        back = settle(ws)
        assert back["view"] == before["view"] and not back["can_undo"]
        discard = session.view(0).legal_moves[-1]
        assert discard.kind is MoveKind.DISCARD
        ws.send_text(json.dumps({"type": "move", "move": str(discard)}))
        settle(ws)
        ws.send_text(json.dumps({"type": "undo"}))
        assert ws.receive_json()["type"] == "error"


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_hint_is_a_legal_move_with_a_reason(client: TestClient, lang: str) -> None:
    game_id = new_game(client, lang=lang)
    session = session_of(client, game_id)
    with game_socket(client, f"/ws/games/{game_id}/0") as ws:
        settle(ws)
        for _ in range(3):
            ws.send_text(json.dumps({"type": "hint"}))
            hint = ws.receive_json()
            assert hint["type"] == "hint" and hint["reason"]
            assert session.state.is_legal(hint["move"])
            ws.send_text(json.dumps({"type": "move", "move": hint["move"]}))
            if settle(ws)["view"]["result"] is not None:
                break


# --- HTTP ------------------------------------------------------------------------------------
@pytest.mark.parametrize("options", [
    {"variant": "bridge"}, {"players": 5}, {"variant": "modern-american", "players": 2},
    {"target": 1234}, {"levels": ["expert"]}, {"levels": ["genius", "basic", "basic"]},
    {"name": ""}, {"lang": "fr"}, {"colour": "red"},
    {"options": "four-books"}, {"options": {"wild_ratio": "loose"}},
    {"options": {"required_canastas": "four-books"}},  # a Ponytail house rule, not Classic's
    {"options": {"two_player_last_card_rule": "pagat"}},  # only with 2 players
    {"variant": "ponytail", "options": {"count_unpicked_ponytails": 1}},
    {"variant": "ponytail", "options": {"cut_bonus": 0.5}},  # no cut is played on screen
    {"variant": "modern-american", "options": {"talon_enabled": False}},
])
def test_bad_game_options_are_refused(client: TestClient, options: dict[str, Any]) -> None:
    r = client.post("/api/games", json=options)
    assert r.status_code == 400 and r.json()["error"]
    assert client.get("/api/games").json()["games"] == []


def test_options_replay_and_static_files(client: TestClient) -> None:
    options = client.get("/api/options").json()
    assert [v["name"] for v in options["variants"]] == ["classic", "modern-american",
                                                        "ponytail"]
    assert options["targets"] == [2500, 5000, 7500, 10000]
    game_id = new_game(client)
    with game_socket(client, f"/ws/games/{game_id}/0") as ws:
        play_hand(client, ws, game_id)
    replay = client.get(f"/api/games/{game_id}/replay?hand=1").json()
    moves = session_of(client, game_id).match.moves[0]
    assert len(replay["frames"]) == len(moves) + 1
    assert replay["frames"][-1]["view"]["result"] is not None
    scores = [list(r.scores) for r in session_of(client, game_id).match.results]
    assert replay["frames"][-1]["view"]["match"]["hand_scores"] == scores
    assert replay["frames"][0]["view"]["match"]["hand_scores"] == []
    assert session_of(client, game_id).view_json()["match"]["hand_scores"] == scores
    assert client.get(f"/api/games/{game_id}/replay?hand=9").status_code == 400
    assert client.get("/api/games/nope/replay").status_code == 404
    assert client.get("/").status_code == 200


def test_the_new_game_choices_come_from_the_registries(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import canasta.variants as registry
    from canasta.bots import LEVELS
    from canasta.variants.classic import Classic

    class Duel(Classic):  # a variant registered by someone else: offered like the others
        name = "duel"
        title = "Duel Canasta"
        aliases = ()
        player_counts = (2,)
        default_players = 2

    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    registry.register(Duel())
    with TestClient(create_app(tmp_path / "games.sqlite3"), headers=MINE) as c:
        options = c.get("/api/options").json()
        offered = {v["name"]: v for v in options["variants"]}
        assert list(offered) == registry.variant_names()
        assert offered["duel"] == {**offered["duel"], "title": "Duel Canasta", "players": [2],
                                   "default_players": 2, "sides": {"2": 2},
                                   "default_targets": {"2": Duel().default_target(2)}}
        for name, v in offered.items():
            variant = registry.get_variant(name)
            assert v["sides"] == {str(p): variant.n_sides(p) for p in variant.player_counts}
        assert offered["ponytail"]["sides"] == {"4": 2, "6": 3}
        assert options["levels"] == list(LEVELS)
        duel = new_game(c, variant="duel", players=2, levels=["basic"])
        assert session_of(c, duel).match.rules.variant.name == "duel"
        r = c.post("/api/games", json={})  # what the options call the defaults is what it gets
        config = session_of(c, r.json()["id"]).config
        d = options["defaults"]
        assert (config.variant, config.players, config.target) == (d["variant"], d["players"],
                                                                   d["target"])
        assert config.levels == (d["level"],) * (d["players"] - 1)


def test_house_rules_are_offered_chosen_shown_and_kept(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db), headers=MINE) as c:
        variants = {v["name"]: v for v in c.get("/api/options").json()["variants"]}
        names = {name: {p: [o["name"] for o in opts] for p, opts in v["options"].items()}
                 for name, v in variants.items()}
        assert names["classic"] == {"2": ["wild_ratio", "two_player_last_card_rule",
                                          "table_penalties_mode"],
                                    "3": ["wild_ratio", "table_penalties_mode"],
                                    "4": ["wild_ratio", "table_penalties_mode"]}
        assert names["modern-american"] == {"4": []}
        assert names["ponytail"]["6"] == ["required_canastas", "minimum_by",
                                          "count_unpicked_ponytails"]
        assert variants["ponytail"]["options"]["4"][0] == {
            "name": "required_canastas", "choices": ["natural-mixed", "four-books"],
            "default": "natural-mixed"}
        house = {"required_canastas": "four-books", "count_unpicked_ponytails": True}
        game_id = new_game(c, variant="ponytail", target=50000, options=house)
        assert session_of(c, game_id).match.rules.options["required_canastas"] == "four-books"
        with game_socket(c, f"/ws/games/{game_id}/0") as ws:
            view = settle(ws)["view"]
        assert view["house_rules"] == {**house, "minimum_by": "score"}
        assert view["canastas_needed"] == 4  # natural, mixed, sevens and wild cards
        assert view["hand_limit"] == 4  # Ponytail's match ends after four hands anyway
        plain = new_game(c)
        with game_socket(c, f"/ws/games/{plain}/0") as ws:
            view = settle(ws)["view"]
        assert view["house_rules"] == {"wild_ratio": "more-naturals",
                                       "table_penalties_mode": False}
        assert view["hand_limit"] is None
    with TestClient(create_app(db), headers=MINE) as c:  # a restarted server: the same rules
        with game_socket(c, f"/ws/games/{game_id}/0") as ws:
            assert settle(ws)["view"]["house_rules"]["required_canastas"] == "four-books"
        assert session_of(c, game_id).match.rules.options["count_unpicked_ponytails"] is True


def test_a_short_initial_meld_at_a_table_with_penalties_cannot_be_undone(
        client: TestClient) -> None:
    from canasta.position import position_from_json

    game_id = new_game(client, options={"table_penalties_mode": True})
    session = session_of(client, game_id)
    session.match.state = position_from_json({
        "variant": "classic", "players": 4, "scores": [0, 0], "turn": 0, "phase": "play",
        "options": {"table_penalties_mode": True},
        "hands": [["4C", "4D", "4H", "9S", "8S"], ["QC"], ["5C"], ["5D"]],
        "melds": [[], []], "threes": [[], []], "discard": ["TS"], "stock": ["5H", "6H"]})
    with game_socket(client, f"/ws/games/{game_id}/0") as ws:
        view = settle(ws)["view"]
        assert view["legal"]["meld"] and view["penalties"] == [0, 0]
        ws.send_text(json.dumps({"type": "move", "move": "meld 4C 4D 4H"}))
        msg = settle(ws)
        assert msg["view"]["penalties"] == [100, 0] and len(msg["view"]["hand"]) == 5
        assert msg["view"]["penalized"] == [len(msg["view"]["history"]) - 1]
        assert not msg["can_undo"]
        ws.send_text(json.dumps({"type": "undo"}))
        assert json.loads(ws.receive_text())["type"] == "error"
    assert session.state.penalties == [100, 0]


def test_every_house_rule_has_its_words_in_both_languages() -> None:
    from canasta.i18n import catalogue
    from canasta.variants import get_variant, variant_names

    for lang in ("en", "es"):
        words = catalogue(lang)
        for name in variant_names():
            v = get_variant(name)
            for players in v.player_counts:
                for option, choices in v.offered_options(players).items():
                    assert f"option.{option}" in words, (lang, option)
                    for c in choices:  # the client writes a choice as JavaScript's String(c)
                        text = str(c).lower() if isinstance(c, bool) else str(c)
                        assert f"option.{option}.{text}" in words, (lang, option, text)


def test_a_game_stored_before_house_rules_is_read_with_the_defaults() -> None:
    from canasta.web.session import GameConfig

    old = {"variant": "classic", "players": 4, "target": 5000, "levels": ["basic"] * 3,
           "name": "Ana", "lang": "es", "seed": 7}
    config = GameConfig.stored(old)
    assert config.options == () and config.rules().option("wild_ratio") == "more-naturals"
    assert GameConfig.stored(config.to_json()) == config


def test_the_protocol_parser() -> None:
    assert parse_message('{"type": "move", "move": "draw"}') == {"type": "move", "move": "draw"}
    with pytest.raises(ValueError, match="unknown field"):
        parse_message('{"type": "hint", "x": 1}')


def test_idle_games_leave_memory_and_come_back(client: TestClient,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    import canasta.web.hub as hub_module

    monkeypatch.setattr(hub_module, "MAX_LIVE", 2)
    ids = [new_game(client) for _ in range(4)]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert list(hub.games) == ids[2:]
    with game_socket(client, f"/ws/games/{ids[0]}/0") as ws:
        assert settle(ws)["view"]["hand_number"] == 1
    assert ids[0] in hub.games and len(hub.games) == 2


# --- undo: never after cards were revealed; the same after a restart ---------------------------
def human_turns(session: GameSession, player: Any, limit: int = 3000) -> Any:
    """Play the session (computer seats and seat 0 by ``player``), yielding after each of
    seat 0's moves with (move, hand size before, hand size after)."""
    for _ in range(limit):
        if session.state.result is not None:
            return
        if session.computer_to_act():
            session.computer_step()
            continue
        before = len(session.state.hands[0])
        move = player.choose(session.view(0))
        session.play(0, str(move))
        yield move, before, len(session.state.hands[0])


def stacked_session(config: GameConfig, deck: list[Card]) -> GameSession:
    """A session whose first hand is dealt from ``deck`` (its record holds the deal, so a
    restored session replays the same hand)."""
    return GameSession.playing("t", config, Match(config.rules(), deals=[deck]))


SEVEN_KINGS = "meld KC KD KH KS KC KD KH"  # legal, if not listed (a meld of five, then an add)


class KingsMelder:
    """A computer seat that draws, melds seven kings as soon as it may, and otherwise discards."""

    name = "kings"

    def new_hand(self, seat: int) -> None:
        del seat

    def choose(self, view: PlayerView) -> Move:
        kinds = {m.kind for m in view.legal_moves}
        if MoveKind.DRAW in kinds:
            return next(m for m in view.legal_moves if m.kind is MoveKind.DRAW)
        if sum(c.rank == "K" for c in view.hand) >= 7:
            return parse_move(SEVEN_KINGS)
        return next(m for m in view.legal_moves if m.kind is MoveKind.DISCARD)


def test_undo_never_takes_back_a_picked_up_ponytail() -> None:
    # Seat 0 plays first and holds seven kings: melding them (70, enough to open) makes its
    # side's first canasta, which brings its ponytail into its hand.
    config = GameConfig("ponytail", 4, 50000, ("basic",) * 3, "Ana", "en", 0)
    session = stacked_session(config, ponytail_deck(hands={0: "KC KD KH KS KC KD KH"},
                                                    then="9C 8D 8H"))
    session.play(0, "draw")
    tail = session.state.ponytails[0]
    assert tail is not None
    before = len(session.state.hands[0])
    session.play(0, SEVEN_KINGS)
    assert len(session.state.hands[0]) == before - 7 + len(tail)  # the ponytail came
    assert not session.can_undo()  # the ponytail was seen: the meld stands
    drew = session.view_json()["drew"]
    assert Counter(drew) == Counter(c.text for c in [*tail, *cards("8D 8H")])  # marked new


def test_a_ponytail_the_partner_brings_is_marked_new_until_the_players_discard() -> None:
    # Seat 2, the partner, melds seven kings on its first turn: its side's first canasta
    # brings both partners' ponytails, seat 0's into seat 0's hand.
    config = GameConfig("ponytail", 4, 50000, ("basic",) * 3, "Ana", "en", 0)
    session = stacked_session(config, ponytail_deck(hands={2: "KC KD KH KS KC KD KH"},
                                                    then="9C 8D 8H 8C 8S 9D 9H"))
    session.computers[2] = KingsMelder()
    session.play(0, "draw")
    session.play(0, str(next(m for m in session.view(0).legal_moves
                             if m.kind is MoveKind.DISCARD)))
    assert not session.view_json()["drew"]
    tail = session.state.ponytails[0]
    assert tail is not None
    tail_texts = sorted(c.text for c in tail)
    while session.state.ponytails[0] is not None:
        seat, move = session.computer_step()
    assert seat == 2 and move.kind is MoveKind.MELD
    assert sorted(session.view_json()["drew"]) == tail_texts  # 13 new cards, marked
    while session.computer_to_act():
        session.computer_step()
    assert session.state.result is None and session.state.turn == 0
    session.play(0, "draw")  # the player's draw keeps them marked
    assert set(tail_texts) <= set(session.view_json()["drew"])


def test_undo_and_new_cards_survive_a_restart() -> None:
    # Seat 0 plays first, draws the 8D (a new card) and opens with three aces (60).
    config = GameConfig("classic", 4, 5000, ("basic",) * 3, "Ana", "en", 0)
    session = stacked_session(config, classic_deck(4, hands={0: "AC AD AH"}, then="9C 8D"))
    session.play(0, "draw")
    session.play(0, "meld AC AD AH")
    assert session.can_undo() and session.view_json()["drew"] == ["8D"]
    again = GameSession.restore("t", config, session.record())
    assert again.can_undo() and again.view_json() == session.view_json()
    again.undo(0)
    session.undo(0)
    assert again.view_json() == session.view_json()


def test_computer_players_remember_the_hand_after_a_restart() -> None:
    def memory(s: GameSession, seat: int) -> Any:
        player: Any = s.computers[seat]
        mem = player.memory if hasattr(player, "memory") else player.expert.memory
        return {k: sorted(c.text for c in v) for k, v in mem.known.items() if v}

    # Every seat holds ranks no other seat holds (seat 0 aside: it has pairs of seat 3's only
    # ranks), so nobody takes the pile on the first round, whatever the computers choose, and
    # seat 0 takes it on its second turn with the pair of what seat 3 discarded. Seats 1 and 3
    # have looked at the table by then, so they remember the cards it took into its hand.
    deck = classic_deck(4, hands={0: "5C 5D 6C 6D AC AD AH KC KD 4C 4D",
                                  1: "7C 7D 7H 8C 8D 8H 9C 9D 9H TC TD",
                                  2: "JC JD JH QC QD QH KH KS 4H 4S AS",
                                  3: "5C 5D 5H 5S 5H 5S 6C 6D 6H 6S 6H"},
                        then="TH QS 9S JS 6S")
    config = GameConfig("classic", 4, 5000, ("expert", "basic", "master"), "Ana", "en", 0)
    session = stacked_session(config, deck)
    session.computers[3] = make_player("master", 0, rounds=1)  # quick, same memory
    for move in ("draw", "meld AC AD AH", "discard KC"):
        session.play(0, move)
    while session.computer_to_act():
        session.computer_step()
    assert session.state.pile[-1].rank in ("5", "6")
    taken = sorted(c.text for c in session.state.pile[:-1])
    take = next(m for m in session.view(0).legal_moves if m.kind is MoveKind.TAKE)
    session.play(0, str(take))
    session.play(0, "discard 4C")
    while session.computer_to_act():
        session.computer_step()
    assert session.state.result is None
    remembered = [memory(session, seat) for seat in (1, 3)]
    assert all(m.get(0) == taken for m in remembered), (taken, remembered)
    again = GameSession.restore("t", config, session.record())
    assert [memory(again, seat) for seat in (1, 3)] == remembered


def test_a_hint_to_take_a_one_card_pile_says_so_in_both_languages() -> None:
    from canasta.hints import explain
    from canasta.moves import parse_move
    from canasta.position import position_from_json
    from canasta.view import view_of

    state = position_from_json({
        "variant": "classic", "players": 4, "scores": [0, 0], "turn": 0, "phase": "draw",
        "hands": [["8C", "8S", "2C", "5D"], ["QC"], ["5C"], ["5D"]], "melds": [[], []],
        "threes": [[], []], "discard": ["8H"], "stock": ["5H", "6H"]})
    view = view_of(state, 0)
    move = parse_move("take 8C 8S 2C")
    assert explain(view, move, "es") == ("Toma el pozo: puedes bajar su única carta, el 8♥, "
                                         "con cartas de tu mano.")
    assert "only card, the 8♥" in explain(view, move, "en")
    state.pile.insert(0, state.hands[1].pop())  # a second card under the top one
    assert "sus 2 cartas" in explain(view_of(state, 0), move, "es")


# --- hostile and corrupt input ------------------------------------------------------------------
def test_text_that_utf8_cannot_carry_is_refused_and_breaks_nothing(client: TestClient) -> None:
    # (JSON allows a lone surrogate, UTF-8 not; then the format and bidi-control characters,
    # which would turn or hide other people's text on every screen: a right-to-left override,
    # the isolates, a zero-width space, a soft hyphen, a byte order mark, a stray joiner)
    for name in ("\ud800", "Ana\nBeto", "\x00", "\u202e", "Ana\u202eanA", "\u2066Ana\u2069",
                 "\u200b", "José\u00ad", "\ufeffAna", "\u200d", "Eva\u200d", "\u200cEva"):
        r = client.post("/api/games", content=json.dumps({"name": name}),
                        headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and "printable" in r.json()["english"], name
    assert client.get("/api/games").status_code == 200
    persian = "\u0645\u06cc\u200c\u0631\u0648\u062f"  # (a non-joiner inside a word)
    for name in ("Ana\u00a0María", "\U0001f469\u200d\U0001f4bb Eva", persian, "李娜"):
        assert new_game(client, name=name)  # every script, emoji and joiner is welcome
    game_id = new_game(client)
    with game_socket(client, f"/ws/games/{game_id}/0") as ws:
        first = settle(ws)
        ws.send_text('{"type": "move", "move": "meld \\ud800"}')  # JSON allows it, UTF-8 not
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["english"]
        ws.send_text(json.dumps({"type": "sync"}))
        assert ws.receive_json() == first
    assert client.get("/api/games").status_code == 200


def test_the_computer_players_never_take_the_players_name(client: TestClient) -> None:
    """A player called Lucía used to play against a computer player called Lucía ("La partida
    es para Lucía y Elena"): no two seats share a name, case and accents as a reader sees
    them."""
    for name in ("Lucía", "lucía", "MATEO", "Luci\u0301a"):
        game_id = new_game(client, name=name)
        with game_socket(client, f"/ws/games/{game_id}/0") as ws:
            names = settle(ws)["view"]["names"]
        assert names[0] == name and len(names) == 4
        assert len({unicodedata.normalize("NFKC", n).casefold() for n in names}) == 4, names
        replayed = client.get(f"/api/games/{game_id}/replay?hand=1").json()
        assert replayed["frames"][0]["view"]["names"] == names
    for name in ("Lucía", "Pablo", "Ana"):  # six seats: five computer players
        config = GameConfig.from_json({"variant": "ponytail", "players": 6, "name": name}, 1)
        names = config.seat_names()
        assert names[0] == name and len({n.casefold() for n in names}) == 6, names


def test_unreadable_rows_do_not_hide_the_other_games(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db), headers=MINE) as c:
        ids = [new_game(c) for _ in range(5)]
        with game_socket(c, f"/ws/games/{ids[2]}/0") as ws:
            play_hand(c, ws, ids[2])
    # saved before such names were refused
    change_row(db, ids[3], "config", lambda c: c.update(name="Ana\ud800"))
    change_row(db, ids[4], "record", lambda r: "[1, 2]")
    change_row(db, ids[0], "record", lambda r: r.update(hands=5))
    change_row(db, ids[1], "record", lambda r: r.update(
        hands=[{"result": {"hand_score": ["x", None]}, "moves": [[0, "draw"]]}]))
    as_older_store(db)  # the summaries are made from these records when the server starts
    with TestClient(create_app(db), headers=MINE) as c:
        games = c.get("/api/games")
        assert games.status_code == 200
        assert {g["id"] for g in games.json()["games"]} == set(ids[:4])  # the last unreadable
        assert games.json()["unreadable"] == 1
        assert all(c.get(f"/api/games/{i}").status_code == 200 for i in ids[:4])
        assert c.get(f"/api/games/{ids[3]}").json()["name"] == "Ana"
        stats = c.get("/api/stats")
        assert stats.status_code == 200 and stats.json()["hands"] == 1  # the good game's hand
        with game_socket(c, f"/ws/games/{ids[3]}/0") as ws:
            assert settle(ws)["view"]["names"][0] == "Ana"
        with pytest.raises(WebSocketDisconnect) as e, \
                game_socket(c, f"/ws/games/{ids[4]}/0") as ws:
            assert "cannot be read" in ws.receive_json()["english"]
            ws.receive_json()
        assert e.value.code == 4422
        assert c.get(f"/api/games/{ids[4]}").status_code == 400
        assert c.get(f"/api/games/{ids[4]}/replay").status_code == 400


def test_a_save_whose_options_disagree_with_its_record_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db), headers=MINE) as c:
        game_id = new_game(c, lang="es")
    # the record is of a game of four
    change_row(db, game_id, "config", lambda c: c.update(players=2, levels=["basic"]))
    with TestClient(create_app(db), headers=MINE) as c:
        with pytest.raises(WebSocketDisconnect) as e, \
                game_socket(c, f"/ws/games/{game_id}/0") as ws:
            msg = ws.receive_json()
            assert msg["english"] == ("this saved game cannot be read: the saved game's "
                                      "options do not match its record")
            assert msg["message"].startswith("Esta partida guardada no se puede leer")
            ws.receive_json()
        assert e.value.code == 4422


# --- the store: a full disk, a long list, rows it cannot read, older databases ------------------
class FullDisk:
    """The store's saves fail as SQLite's do on a full disk while ``full`` is set (after
    ``after`` more saves have gone through)."""

    def __init__(self, store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        self.full = False
        self.after = 0
        real = store.save

        def save(*args: Any) -> None:
            if self.full:
                if self.after <= 0:
                    raise sqlite3.OperationalError("database or disk is full")
                self.after -= 1
            real(*args)

        monkeypatch.setattr(store, "save", save)


@pytest.fixture()
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    import canasta.web.hub as hub_module

    monkeypatch.setattr(hub_module, "RETRY_FIRST", 0.01, raising=False)
    monkeypatch.setattr(hub_module, "RETRY_MAX", 0.05, raising=False)


def test_a_new_game_on_a_full_disk_is_refused_in_the_players_language(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]

    def full(*args: Any) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(hub.store, "create", full)
    r = client.post("/api/games", json={"name": "Ana"}, headers={"Accept-Language": "es"})
    assert r.status_code == 503
    assert r.json() == {
        "error": "No se ha podido crear la partida: ahora el servidor no puede guardar partidas "
                 "(la base de datos o el disco están llenos)",
        "english": "the game could not be created: the server cannot save games now "
                   "(database or disk is full)",
        "code": "web.not_created",
        "params": {"reason": {"code": "store.disk_full", "params": {}}}}
    assert hub.games == {}  # nothing is kept of a game the store does not hold
    monkeypatch.undo()
    assert client.get("/api/games").json()["games"] == []
    assert new_game(client)


@pytest.mark.usefixtures("quick_retries")
def test_a_move_that_cannot_be_stored_is_taken_back_and_the_game_waits_for_the_disk(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db), headers=MINE) as c:
        game_id = new_game(c, lang="es")
        disk = FullDisk(c.app.state.hub.store, monkeypatch)  # type: ignore[attr-defined]
        with game_socket(c, f"/ws/games/{game_id}/0") as ws:
            before = settle(ws)
            assert not before["paused"]
            disk.full = True
            ws.send_text(json.dumps({"type": "move", "move": "draw", "id": 9}))
            error = ws.receive_json()
            assert error["id"] == 9  # the answer to the draw: it could not be stored
            assert error["english"] == ("the game could not be saved (database or disk is "
                                        "full): it is paused, and goes on by itself once the "
                                        "server can save again")
            assert error["message"].startswith("No se ha podido guardar la partida (la base "
                                               "de datos o el disco están llenos)")
            paused = ws.receive_json()
            assert paused["type"] == "state" and paused["paused"] and paused["last"] is None
            assert "id" not in paused  # news for every connection
            assert paused["view"] == before["view"]  # the draw is taken back
            assert stored_record(db, game_id) == session_of(c, game_id).record()
            ws.send_text(json.dumps({"type": "sync"}))
            assert ws.receive_json()["paused"]
            disk.full = False  # room again: the server's next try stores the game
            resumed = ws.receive_json()
            assert resumed["type"] == "state" and not resumed["paused"]
            assert resumed["view"] == before["view"]
            ws.send_text(json.dumps({"type": "move", "move": "draw"}))
            settle(ws)
            session = session_of(c, game_id)
            discard = str(next(m for m in session.view(0).legal_moves
                                if m.kind is MoveKind.DISCARD))
            disk.full, disk.after = True, 1  # the discard is stored, the computer's move not
            ws.send_text(json.dumps({"type": "move", "move": discard}))
            played = ws.receive_json()
            assert played["last"] == {"seat": 0, "move": discard} and played["waiting"]
            assert ws.receive_json()["type"] == "error"
            paused = ws.receive_json()
            assert paused["paused"] and paused["waiting"] and paused["view"] == played["view"]
            assert stored_record(db, game_id) == session_of(c, game_id).record()
            assert stored_record(db, game_id)["hands"][0]["moves"][-1] == [0, discard]
            disk.full = False
            resumed = ws.receive_json()
            assert not resumed["paused"] and resumed["last"] is None
            after = settle(ws)  # the computer players go on to the player's turn
            assert after["view"]["turn"] == 0 and not after["paused"]
        assert stored_record(db, game_id) == session_of(c, game_id).record()


def moves_until_an_error(ws: Any, session_at: Any, limit: int = 400) -> tuple[Any, Any]:
    """Play seat 0 (the basic player) until the server answers an error: (error, the state
    after it)."""
    me = BasicPlayer(4)
    msg = settle(ws)
    for _ in range(limit):
        view = msg["view"]
        if view["result"] is not None:
            ws.send_text(json.dumps({"type": "next_hand"}))
        else:
            ws.send_text(json.dumps({"type": "move",
                                     "move": human_move(session_at(), me)}))
        while True:
            msg = ws.receive_json()
            if msg["type"] == "error":
                return msg, ws.receive_json()
            if not msg["waiting"]:
                break
    raise AssertionError("the store never filled up")


@pytest.mark.usefixtures("quick_retries")
def test_a_really_full_database_pauses_the_game_until_there_is_room(tmp_path: Path) -> None:
    from canasta.web.store import SCHEMA

    db = tmp_path / "games.sqlite3"
    con = sqlite3.connect(db)
    con.execute("PRAGMA page_size = 512")  # small pages: the store fills up in a few moves
    con.executescript(SCHEMA)
    con.close()
    with TestClient(create_app(db), headers=MINE) as c:
        game_id = new_game(c)
        store = c.app.state.hub.store  # type: ignore[attr-defined]

        def limit(pages: int | None) -> None:
            with store._lock:  # SQLite's own limit on the file: a real "disk is full"
                size = store._db.execute("PRAGMA page_count").fetchone()[0]
                store._db.execute(f"PRAGMA max_page_count = {pages or size}")

        limit(None)
        with game_socket(c, f"/ws/games/{game_id}/0") as ws:
            error, paused = moves_until_an_error(ws, lambda: session_of(c, game_id))
            assert "(database or disk is full)" in error["english"]
            assert paused["paused"]
            assert stored_record(db, game_id) == session_of(c, game_id).record()
            limit(1_000_000)
            resumed = ws.receive_json()
            assert resumed["type"] == "state" and not resumed["paused"]
            settle(ws) if resumed["waiting"] else None
            ws.send_text(json.dumps({"type": "sync"}))
            assert not ws.receive_json()["paused"]
        assert stored_record(db, game_id) == session_of(c, game_id).record()


def test_the_computer_players_task_never_dies_silently(
        client: TestClient, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    game_id = new_game(client)
    with game_socket(client, f"/ws/games/{game_id}/0") as ws:
        settle(ws)
        session = session_of(client, game_id)

        def broken() -> Any:
            raise RuntimeError("a computer player broke")

        monkeypatch.setattr(session, "computer_step", broken)
        ws.send_text(json.dumps({"type": "move", "move": "draw"}))
        settle(ws)
        discard = next(m for m in session.view(0).legal_moves if m.kind is MoveKind.DISCARD)
        ws.send_text(json.dumps({"type": "move", "move": str(discard)}))
        played = ws.receive_json()
        assert played["waiting"]
        error = ws.receive_json()
        assert error["english"] == ("the computer players stopped because of an error on the "
                                    "server: reload the page to go on")
        after = ws.receive_json()
        assert after["type"] == "state" and after["view"] == played["view"]
    assert any(r.exc_info and "a computer player broke" in str(r.exc_info[1])
               for r in caplog.records if "stopped" in r.getMessage())
    with game_socket(client, f"/ws/games/{game_id}/0") as ws:  # reloading goes on
        assert settle(ws)["view"]["turn"] == 0


def test_the_games_list_comes_in_pages_most_recently_played_first(client: TestClient) -> None:
    ids = [new_game(client) for _ in range(5)]
    with game_socket(client, f"/ws/games/{ids[1]}/0") as ws:
        settle(ws)
        ws.send_text(json.dumps({"type": "move", "move": "draw"}))
        settle(ws)
    seen: list[str] = []
    before = None
    pages = 0
    while True:
        r = client.get("/api/games", params={"limit": 2, **({"before": before} if before
                                                             else {})})
        assert r.status_code == 200 and r.json()["unreadable"] == 0
        assert len(r.json()["games"]) <= 2
        seen += [g["id"] for g in r.json()["games"]]
        pages += 1
        before = r.json()["next"]
        if before is None:
            break
    assert seen == [ids[1], ids[4], ids[3], ids[2], ids[0]] and pages == 3
    assert [g["id"] for g in client.get("/api/games").json()["games"]] == seen
    es = {"Accept-Language": "es"}
    refused: list[tuple[dict[str, Any], str, str]] = [
            ({"limit": 0}, "the list's 'limit' is 1 to 200, not 0",
             "El 'limit' de la lista va de 1 a 200, no 0"),
            ({"limit": 500}, "the list's 'limit' is 1 to 200, not 500",
             "El 'limit' de la lista va de 1 a 200, no 500"),
            ({"before": "not-a-cursor"}, "the 'before' cursor is not one the games list gave",
             "El cursor 'before' no es uno de los que da la lista de partidas"),
            ({"limit": "ten"}, "the request's 'limit' must be a whole number, not 'ten'",
             "El campo 'limit' de la petición debe ser un número entero, no 'ten'"),
            ({"limit": "2.5"}, "the request's 'limit' must be a whole number, not '2.5'",
             "El campo 'limit' de la petición debe ser un número entero, no '2.5'")]
    for params, english, spanish in refused:
        r = client.get("/api/games", params=params, headers=es)
        assert r.status_code == 400, params
        assert r.json()["english"].startswith(english) and r.json()["error"] == spanish


def answers_while_held(client: TestClient, game_id: str, name: str, path: str,
                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Ask ``path`` while the store's ``name`` is held in its worker: a socket of the game
    is answered meanwhile (a store call on the event loop would have blocked it)."""
    import threading

    store = client.app.state.hub.store  # type: ignore[attr-defined]
    entered, release, finished = threading.Event(), threading.Event(), threading.Event()
    real = getattr(store, name)

    def held(*args: Any, **kwargs: Any) -> Any:
        entered.set()
        release.wait(10)
        finished.set()
        return real(*args, **kwargs)

    monkeypatch.setattr(store, name, held)
    answers: list[int] = []
    asking = threading.Thread(target=lambda: answers.append(client.get(path).status_code))
    with game_socket(client, f"/ws/games/{game_id}/0") as ws:
        first = settle(ws)
        asking.start()
        assert entered.wait(10)
        ws.send_text(json.dumps({"type": "sync"}))
        assert ws.receive_json() == first
        assert not finished.is_set(), f"{path} held up the socket"
        release.set()
        asking.join(10)
    assert answers == [200]


def test_the_list_and_the_statistics_never_hold_up_the_sockets(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id = new_game(client)
    answers_while_held(client, game_id, "page", "/api/games", monkeypatch)
    answers_while_held(client, game_id, "stats", "/api/stats", monkeypatch)
    answers_while_held(client, game_id, "load", f"/api/games/{game_id}", monkeypatch)


def older_store(db: Path, sessions: list[GameSession]) -> None:
    """A database as the server wrote it before the summaries: only the games table."""
    con = sqlite3.connect(db)
    con.executescript("""
        CREATE TABLE games (id TEXT PRIMARY KEY, created REAL NOT NULL, updated REAL NOT NULL,
                            config TEXT NOT NULL, record TEXT NOT NULL,
                            over INTEGER NOT NULL DEFAULT 0, winner INTEGER);
        CREATE INDEX games_updated ON games (updated);""")
    for i, s in enumerate(sessions):
        con.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (s.id, 100.0 + i, 100.0 + i, json.dumps(s.config.to_json()),
                     json.dumps(s.record()), int(s.match.over), s.match.winner))
    con.commit()
    con.close()


def test_a_database_from_before_the_summaries_keeps_its_list_and_statistics(
        tmp_path: Path) -> None:
    from canasta.web.session import GameConfig

    sessions = []
    for seed, moves in ((1, 10_000), (2, 6), (3, 0)):  # a hand played out, one begun, one not
        s = GameSession(f"g{seed}", GameConfig("classic", 4, 5000, ("basic",) * 3, "Ana",
                                               "es", seed))
        for _ in human_turns(s, BasicPlayer(seed), limit=moves):
            pass
        sessions.append(s)
    assert sessions[0].state.result is not None and sessions[1].match.moves[0]
    db = tmp_path / "games.sqlite3"
    older_store(db, sessions)
    with TestClient(create_app(db), headers=MINE, **FROM_HERE) as c:  # (it adopts them)
        listed = c.get("/api/games").json()
        assert [g["id"] for g in listed["games"]] == ["g3", "g2", "g1"]
        first = listed["games"][2]
        assert first == {"id": "g1", "created": 100.0, "updated": 100.0, "variant": "classic",
                         "players": 4, "target": 5000, "name": "Ana",
                         "levels": ["basic"] * 3, "hands": 1,
                         "scores": list(sessions[0].match.scores), "over": False,
                         "winner": None, "table": None}
        assert c.get("/api/games/g1").json() == first
        hand = sessions[0].match.results[0].scores
        assert c.get("/api/stats").json() == {
            "games": 2, "games_finished": 0, "games_won": 0, "hands": 1,
            "hands_won": int(hand[0] > hand[1]), "average_hand_score": float(hand[0]),
            "unreadable": 0}
        with game_socket(c, "/ws/games/g2/0") as ws:
            assert settle(ws)["view"]["history"]  # and the games play on
    con = sqlite3.connect(db)
    assert con.execute("SELECT COUNT(*) FROM summaries").fetchone()[0] == 3  # written once
    con.close()


def test_an_older_databases_summaries_are_built_while_the_sockets_are_answered(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db), headers=MINE) as c:
        game_id = new_game(c)
    as_older_store(db)
    app = create_app(db)
    store = app.state.hub.store
    entered, release = threading.Event(), threading.Event()
    real = store.fill_summaries

    def held() -> int:
        entered.set()
        release.wait(10)
        return real()  # type: ignore[no-any-return]

    monkeypatch.setattr(store, "fill_summaries", held)
    with TestClient(app, headers=MINE) as c:
        assert entered.wait(10)
        with game_socket(c, f"/ws/games/{game_id}/0") as ws:
            assert settle(ws)["view"]["hand_number"] == 1  # while the summaries are built
        listed: list[Any] = []
        asking = threading.Thread(target=lambda: listed.append(c.get("/api/games").json()))
        asking.start()
        asking.join(0.3)
        assert asking.is_alive()  # the list waits for the summaries...
        release.set()
        asking.join(10)
        assert [g["id"] for g in listed[0]["games"]] == [game_id]  # ... and then has them


def test_a_record_nested_3000_deep_is_one_unreadable_game_not_a_broken_list(
        tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db), headers=MINE) as c:
        ids = [new_game(c, lang="es") for _ in range(4)]
        with game_socket(c, f"/ws/games/{ids[0]}/0") as ws:
            play_hand(c, ws, ids[0])
    deep = '{"hands": ' + "[" * 3000 + "]" * 3000 + "}"
    change_row(db, ids[1], "record", lambda r: deep)
    change_row(db, ids[2], "record", lambda r: json.dumps({"x": "y" * 3_000_000}))
    change_row(db, ids[3], "record", lambda r: '{"hands": ' + "[" * 17 + "]" * 17 + "}")
    for older in (False, True):  # summaries written before the damage, or made from it
        if older:
            as_older_store(db)
        with TestClient(create_app(db), headers=MINE) as c:
            listed = c.get("/api/games")
            assert listed.status_code == 200
            assert ({g["id"] for g in listed.json()["games"]}
                    == ({ids[0]} if older else set(ids)))
            assert listed.json()["unreadable"] == (3 if older else 0)
            stats = c.get("/api/stats")
            assert stats.status_code == 200 and stats.json()["hands"] == 1
            assert stats.json()["unreadable"] == (3 if older else 0)
            for game_id, why in ((ids[1], "is nested more than 16 levels deep"),
                                 (ids[2], "is longer than 2097152 characters"),
                                 (ids[3], "is nested more than 16 levels deep")):
                r = c.get(f"/api/games/{game_id}", headers={"Accept-Language": "es"})
                assert r.status_code == 400
                assert r.json()["english"] == f"this saved game cannot be read: the stored " \
                                              f"game {why}"
                assert r.json()["error"].startswith("Esta partida guardada no se puede leer")
                assert c.get(f"/api/games/{game_id}/replay").status_code == 400
                with pytest.raises(WebSocketDisconnect) as e, \
                        game_socket(c, f"/ws/games/{game_id}/0") as ws:
                    msg = ws.receive_json()
                    assert msg["message"].startswith("Esta partida guardada no se puede leer")
                    ws.receive_json()
                assert e.value.code == 4422
            with game_socket(c, f"/ws/games/{ids[0]}/0") as ws:
                assert settle(ws)["view"]["result"] is not None


def damage_pages(db: Path, table: str, count: int) -> None:
    """Overwrite the header of ``count`` leaf pages of ``table`` (never its first one) with
    bytes no page has: SQLite then reads them as "database disk image is malformed"."""
    con = sqlite3.connect(db)
    try:
        leaves = [p for (p,) in con.execute("SELECT pageno FROM dbstat WHERE name = ? AND "
                                            "pagetype = 'leaf' ORDER BY pageno", (table,))]
    except sqlite3.OperationalError:
        pytest.skip("this SQLite has no dbstat table to find a table's pages")
    size = con.execute("PRAGMA page_size").fetchone()[0]
    con.close()
    assert len(leaves) > count, leaves
    with db.open("r+b") as f:
        for page in leaves[1:1 + count]:
            f.seek((page - 1) * size)
            f.write(b"\xff" * 12)


def whole_list(client: TestClient, limit: int) -> tuple[list[str], int]:
    """Every page of the games list: the ids listed, and how many were unreadable."""
    listed: list[str] = []
    unreadable = 0
    before = None
    while True:
        r = client.get("/api/games", params={"limit": limit, **({"before": before} if before
                                                                 else {})})
        assert r.status_code == 200
        listed += [g["id"] for g in r.json()["games"]]
        unreadable += r.json()["unreadable"]
        before = r.json()["next"]
        if before is None:
            return listed, unreadable


def test_a_damaged_page_leaves_the_rest_of_the_list_working(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db), headers=MINE) as c:
        ids = [new_game(c, name=f"Ana {i} " + "x" * 30) for i in range(60)]
    damage_pages(db, "summaries", 1)
    damage_pages(db, "games", 1)
    with TestClient(create_app(db), headers=MINE) as c:
        listed, unreadable = whole_list(c, 7)
        assert listed and unreadable and len(listed) + unreadable == len(ids)
        assert set(listed) < set(ids) and len(set(listed)) == len(listed)
        stats = c.get("/api/stats")
        assert stats.status_code == 200 and stats.json()["unreadable"] == unreadable
        answers = {i: c.get(f"/api/games/{i}") for i in ids}
        broken = [i for i, r in answers.items() if r.status_code != 200]
        assert 0 < len(broken) < len(ids)
        assert all(answers[i].status_code == 400 and answers[i].json()["english"] ==
                   "this saved game cannot be read: the database cannot read it (database "
                   "disk image is malformed)" for i in broken)
        good = next(i for i in listed if i not in broken)
        with game_socket(c, f"/ws/games/{good}/0") as ws:
            assert settle(ws)["view"]["hand_number"] == 1
        with pytest.raises(WebSocketDisconnect) as e, \
                game_socket(c, f"/ws/games/{broken[0]}/0") as ws:
            ws.receive_json()
            ws.receive_json()
        assert e.value.code == 4422


def test_a_damaged_index_of_the_list_still_lists_every_game(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db), headers=MINE) as c:
        ids = [new_game(c) for _ in range(200)]  # the index takes more than one page
    damage_pages(db, "summaries_owner", 1)
    with TestClient(create_app(db), headers=MINE) as c:
        listed, unreadable = whole_list(c, 50)
        assert listed == ids[::-1] and unreadable == 0  # the most recent first, as ever
        assert c.get("/api/stats").status_code == 200


def test_http_errors_speak_the_language_the_request_asks_for(client: TestClient) -> None:
    es = {"Accept-Language": "es-ES,es;q=0.9,en;q=0.8"}
    r = client.post("/api/games", json={"target": 1234}, headers=es)
    assert r.status_code == 400
    assert r.json()["error"].startswith("La puntuación objetivo es una de estas")
    assert r.json()["english"].startswith("the target score is one of")
    r = client.post("/api/games", json={"target": 1234})
    assert r.json()["english"] == "the target score is one of 2500, 5000, 7500, 10000, not 1234"
    assert r.json()["error"] == ("The target score is one of 2,500, 5,000, 7,500 or 10,000, "
                                 "not 1234")
    assert r.json()["code"] == "config.target"
    assert r.json()["params"] == {"counts": [2500, 5000, 7500, 10000], "value": "1234"}
    r = client.get("/api/games/nope/replay", headers=es)
    assert r.status_code == 404 and r.json()["error"] == "No existe la partida 'nope'"
    game_id = new_game(client)
    r = client.get(f"/api/games/{game_id}/replay?hand=1.5", headers=es)
    assert r.status_code == 400 and r.json()["english"].startswith("the request's 'hand'")
    assert r.json()["error"] == ("El campo 'hand' de la petición debe ser un número entero, "
                                 "no '1.5'")
    r = client.get(f"/api/games/{game_id}/replay?hand=4", headers=es)
    assert r.json()["error"] == "La partida tiene las manos 1 a 1"


def test_a_request_problem_is_told_by_code_without_pydantics_words() -> None:
    missing = request_problem([{"type": "missing", "loc": ("query", "hand"), "msg": "Field "
                                "required", "input": None}])
    assert (missing.code, str(missing)) == ("protocol.request_needs", "the request needs 'hand'")
    assert render(missing, "es") == "A la petición le falta 'hand'"
    other = request_problem([{"type": "string_too_long", "loc": ("query", "before"),
                              "msg": "String should have at most 9 characters"}])
    assert other.code == "protocol.invalid_field" and "String" not in render(other, "en")
    assert render(other, "es") == "El campo 'before' de la petición no es válido"


def test_a_failing_hint_is_an_error_not_a_lost_connection(client: TestClient,
                                                          monkeypatch: Any) -> None:
    game_id = new_game(client)
    session = session_of(client, game_id)

    def broken(seat: int, lang: str) -> Any:
        raise RuntimeError("the adviser broke")

    with game_socket(client, f"/ws/games/{game_id}/0") as ws:
        first = settle(ws)
        monkeypatch.setattr(session, "hint", broken)
        ws.send_text(json.dumps({"type": "hint"}))
        assert ws.receive_json()["english"] == "no hint can be given now"
        ws.send_text(json.dumps({"type": "sync"}))
        assert ws.receive_json() == first


def test_ponytail_tables_show_the_canasta_kinds_still_missing() -> None:
    from canasta.position import position_from_json
    from canasta.view import view_of
    from canasta.web.present import view_json

    def melds_view(options: dict[str, Any], melds: list[list[str]]) -> dict[str, Any]:
        state = position_from_json({
            "variant": "ponytail", "players": 4, "scores": [0, 0], "turn": 0, "phase": "play",
            "options": options, "hands": [["4C", "5D"], ["6C"], ["6D"], ["6H"]],
            "melds": [melds, []], "threes": [[], []], "discard": ["TS"],
            "stock": ["5H", "6S"], "ponytails": [None, None, None, None]})
        return view_json(view_of(state, 0), names=["a", "b", "c", "d"],
                         levels=[None, "basic", "basic", "basic"], match={})

    two_clean = [["KC", "KD", "KH", "KS", "KC", "KD", "KH"],
                 ["QC", "QD", "QH", "QS", "QC", "QD", "QH"]]
    view = melds_view({}, two_clean)
    assert [m["canasta"] for m in view["melds"][0]] == ["clean", "clean"]
    assert view["canastas_needed"] == 2 and view["canastas_missing"] == [1, 2]
    sevens = [["7C", "7D", "7H", "7S", "7C", "7D", "7H"]]
    view = melds_view({"required_canastas": "four-books"}, sevens)
    assert view["melds"][0][0]["canasta"] == "sevens"
    assert view["canastas_missing"] == [3, 4]
    assert melds_view({}, sevens)["melds"][0][0]["canasta"] == "clean"


def test_a_hint_to_meld_the_last_cards_with_a_ponytail_waiting_does_not_promise_going_out(
        ) -> None:
    from canasta.hints import explain
    from canasta.moves import parse_move
    from canasta.position import position_from_json
    from canasta.view import view_of

    kings = ["KC", "KD", "KH", "KS", "KC", "KD", "KH"]
    tail = ["4C", "4D", "4H", "5C", "5D", "5H", "6C", "6D", "6H", "8C", "8D", "8H", "9C"]
    obj = {"variant": "ponytail", "players": 4, "scores": [0, 0], "turn": 0, "phase": "play",
           "hands": [kings, ["QC"], ["5S"], ["6S"]], "melds": [[["QD", "QH", "QS"]], []],
           "threes": [[], []], "discard": ["TS"], "stock": ["7C", "7D"],
           "ponytails": [tail, None, tail, None]}
    move = parse_move("meld " + " ".join(kings))
    state = position_from_json(obj)
    assert state.is_legal(move)
    assert explain(view_of(state, 0), move, "en") == (
        "Meld K♣ K♣ K♦ K♦ K♥ K♥ K♠: your side's first canasta brings your ponytail into "
        "your hand.")
    assert "cola de caballo" in explain(view_of(state, 0), move, "es")


# --- connections: a client that stops reading, a silent one, the server's own limits -------------
def _deadline(seconds: float = 20.0) -> float:
    import time

    return time.monotonic() + seconds


class RawSocket:
    """A WebSocket client that reads only when told to (websockets' sans-I/O protocol over a
    plain socket), so that it can stop reading, or send several frames in one write."""

    def __init__(self, port: int, path: str, receive_buffer: int | None = None) -> None:
        import socket

        from websockets.client import ClientProtocol
        from websockets.protocol import State
        from websockets.uri import parse_uri

        self.sock = socket.socket()
        if receive_buffer is not None:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(20)
        self.sock.connect(("127.0.0.1", port))
        self.proto = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}{path}"))
        self.proto.send_request(self.proto.connect())
        self.sock.sendall(b"".join(self.proto.data_to_send()))
        self.texts: list[str] = []
        deadline = _deadline()
        while self.proto.state is State.CONNECTING:
            self._read(deadline)
        self.send(LiveServer.hello)  # whose device it is, first

    def _read(self, deadline: float) -> None:
        """Read what the server has sent; fails past ``deadline`` (time.monotonic()), even
        while the server sends its pings."""
        import time

        from websockets.frames import Frame, Opcode

        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the server did not send what the test waits for")
        self.sock.settimeout(left)
        data = self.sock.recv(1 << 16)
        if data:
            self.proto.receive_data(data)
        else:
            self.proto.receive_eof()
        answers = self.proto.data_to_send()  # the pongs to the server's pings
        if answers and data:
            self.sock.sendall(b"".join(answers))
        for event in self.proto.events_received():
            if isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                self.texts.append(event.data.decode())
        if not data and self.proto.close_rcvd is None:
            raise ConnectionError("the server dropped the connection without closing it")

    def send(self, *texts: str, close: bool = False) -> None:
        """Send ``texts`` (and a close) in one write."""
        for text in texts:
            self.proto.send_text(text.encode())
        if close:
            self.proto.send_close(1000)
        self.sock.sendall(b"".join(self.proto.data_to_send()))

    def close_code(self) -> int | None:
        """Read everything up to the server's close, and say its code."""
        deadline = _deadline()
        while self.proto.close_rcvd is None:
            self._read(deadline)
        return self.proto.close_rcvd.code

    def next(self) -> dict[str, Any]:
        deadline = _deadline()
        while not self.texts:
            self._read(deadline)
        return json.loads(self.texts.pop(0))  # type: ignore[no-any-return]

    def settle(self) -> dict[str, Any]:
        while (msg := self.next())["waiting"]:
            pass
        return msg


def test_a_socket_that_stops_reading_is_closed_and_never_stops_the_game(
        tmp_path: Path) -> None:
    from websockets.sync.client import connect


    with LiveServer(tmp_path / "games.sqlite3", send_buffer=4096) as server:
        game_id = server.new_game()
        path = f"/ws/games/{game_id}/0"
        stuck = RawSocket(server.port, path, receive_buffer=4096)  # and never reads,
        stuck.send(*[json.dumps({"type": "sync"})] * 100)  # though it asks for a lot
        sockets = server.hub.games[game_id].sockets
        with connect(f"ws://127.0.0.1:{server.port}{path}") as tab:
            tab.send(server.hello)
            while (msg := json.loads(tab.recv(timeout=20)))["waiting"]:
                pass  # the computer players to act before the player have played
            for _ in range(1000):  # every broadcast goes to both tabs
                if len(sockets) == 1:
                    break
                tab.send(json.dumps({"type": "lang", "lang": "en"}))
                assert json.loads(tab.recv(timeout=20))["type"] == "state"  # never stuck
            assert len(sockets) == 1, "the socket that does not read was never let go"
            with connect(f"ws://127.0.0.1:{server.port}{path}") as new_tab:
                new_tab.send(server.hello)
                assert json.loads(new_tab.recv(timeout=20))["type"] == "state"
            # the computer players go on playing, and the tab sees each of their moves
            seats = set()
            for _ in range(3):
                while msg["waiting"]:
                    msg = json.loads(tab.recv(timeout=20))
                    seats.add(msg["last"]["seat"] if msg["last"] else None)
                legal = msg["view"]["legal"]
                move = "draw" if legal["draw"] else f"discard {legal['discard'][0]}"
                tab.send(json.dumps({"type": "move", "move": move}))
                msg = json.loads(tab.recv(timeout=20))
                assert msg["type"] == "state", msg
            assert seats & {1, 2, 3}
        assert stuck.close_code() == 1013  # once it reads again: what it had, then the close
        stuck.sock.close()


def test_a_close_right_after_a_request_logs_no_error(tmp_path: Path,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    import logging


    live = LiveServer(tmp_path / "games.sqlite3")
    uvicorn_log = logging.getLogger("uvicorn.error")  # (configured by then: not before)
    uvicorn_log.addHandler(caplog.handler)
    try:
        with live as server:
            game_id = server.new_game()
            client = RawSocket(server.port, f"/ws/games/{game_id}/0")
            assert client.settle()["view"]["to_act"]
            # a move, which answers every socket of the game, a request answered to this
            # socket only, and the close, all read by the server at once
            client.send(json.dumps({"type": "move", "move": "draw"}),
                        json.dumps({"type": "sync"}), close=True)
            with contextlib.suppress(OSError):
                client.close_code()
            client.sock.close()
            again = RawSocket(server.port, f"/ws/games/{game_id}/0")
            assert again.settle()["view"]["phase"] == "play"  # the draw was played
            again.sock.close()
    finally:
        uvicorn_log.removeHandler(caplog.handler)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


def test_a_message_longer_than_the_protocol_allows_is_refused_before_it_is_read(
        tmp_path: Path) -> None:
    from canasta.web.app import WS_MAX_SIZE


    with LiveServer(tmp_path / "games.sqlite3") as server:
        game_id = server.new_game()
        client = RawSocket(server.port, f"/ws/games/{game_id}/0")
        client.settle()
        client.send("x" * (WS_MAX_SIZE + 1))
        assert client.close_code() == 1009  # "message too big", without reading it all
        client.sock.close()
        client = RawSocket(server.port, f"/ws/games/{game_id}/0")
        client.settle()
        client.send("é" * 4096)  # as long as the protocol reads (in bytes: twice as long)
        assert client.next()["english"] == "the message is not valid JSON"
        client.send(json.dumps({"type": "sync"}))
        assert client.next()["type"] == "state"
        client.sock.close()


def test_a_silent_socket_is_closed_and_a_ping_keeps_it_open(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    import canasta.web.connection as connection

    monkeypatch.setattr(connection, "IDLE_TIMEOUT", 1.0)
    game_id = new_game(client)
    with game_socket(client, f"/ws/games/{game_id}/0") as ws:
        first = settle(ws)
        for _ in range(6):  # 1.5 s of pings, none of them answered
            ws.send_text(json.dumps({"type": "ping"}))
            time.sleep(0.25)
        ws.send_text(json.dumps({"type": "sync"}))
        assert ws.receive_json() == first
        sockets = client.app.state.hub.games[game_id].sockets  # type: ignore[attr-defined]
        deadline = time.monotonic() + 20
        while sockets:  # nothing sent for a second: the server lets the socket go
            assert time.monotonic() < deadline, "the silent socket was never closed"
            time.sleep(0.05)
        ws.send_text(json.dumps({"type": "sync"}))  # too late: no answer, only the close
        with pytest.raises(WebSocketDisconnect) as e:
            ws.receive_json()
        assert e.value.code == 4408
    with game_socket(client, f"/ws/games/{game_id}/0") as ws:
        assert settle(ws)["view"] == first["view"]  # and connecting again goes on


def test_a_request_that_names_a_field_twice_is_refused(client: TestClient) -> None:
    es = {"Content-Type": "application/json", "Accept-Language": "es"}
    for body, name in (('{"target": 2500, "target": 5000}', "target"),
                       ('{"options": {"wild_ratio": "more-naturals", "wild_ratio": "any"}}',
                        "wild_ratio")):
        r = client.post("/api/games", content=body, headers=es)
        assert r.status_code == 400
        assert r.json()["english"] == f"the request gives the field '{name}' twice"
        assert r.json()["error"] == f"La petición da dos veces el campo '{name}'"
    assert client.get("/api/games").json()["games"] == []
    game_id = new_game(client)
    r = client.post(f"/api/games/{game_id}/lang", content='{"lang": "es", "lang": "en"}',
                    headers=es)
    assert r.status_code == 400 and "twice" in r.json()["english"]
    assert session_of(client, game_id).config.lang == "en"


# --- whose games are whose: the device's key --------------------------------------------------
THEIRS = {"X-Canasta-Device": OTHER}


def refused_as(r: Any, status: int, code: str) -> dict[str, Any]:
    assert (r.status_code, r.json()["code"]) == (status, code), r.text
    return r.json()  # type: ignore[no-any-return]


def test_a_request_without_the_devices_key_gets_nothing(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "games.sqlite3")) as c:  # no key at all
        game_id = new_game(TestClient(c.app, headers=MINE))
        es = {"Accept-Language": "es"}
        for bad, code in (({}, "device.no_key"), ({"X-Canasta-Device": ""}, "device.no_key"),
                          ({"X-Canasta-Device": "short-0123"}, "device.bad_key"),
                          ({"X-Canasta-Device": "x" * 29}, "device.bad_key"),
                          ({"X-Canasta-Device": "x" * 65}, "device.bad_key"),
                          ({"X-Canasta-Device": "x" * 29 + "."}, "device.bad_key"),
                          ({"X-Canasta-Device": "a b" * 10}, "device.bad_key")):
            for method, path in (("post", "/api/games"), ("get", "/api/games"),
                                 ("get", f"/api/games/{game_id}"),
                                 ("get", f"/api/games/{game_id}/replay"),
                                 ("post", f"/api/games/{game_id}/lang"), ("get", "/api/stats")):
                body = {"lang": "es"} if path.endswith("lang") else {}
                r = (c.post(path, json=body, headers={**bad, **es}) if method == "post"
                     else c.get(path, headers={**bad, **es}))
                answer = refused_as(r, 403, code)
                assert game_id not in r.text and "Ana" not in r.text, (path, r.text)
                assert answer["error"] != answer["english"]  # in the request's language
    with TestClient(create_app(tmp_path / "games.sqlite3"), headers=MINE) as c:
        assert [g["id"] for g in c.get("/api/games").json()["games"]] == [game_id]
        with game_socket(c, f"/ws/games/{game_id}/0") as ws:
            assert settle(ws)["view"]["names"][0] == "Ana"  # nothing was made, nothing changed


def test_another_devices_game_is_as_if_it_did_not_exist(client: TestClient) -> None:
    mine = new_game(client)
    theirs = new_game(TestClient(client.app, headers=THEIRS), name="Eva")
    for game_id in (theirs, "nosuchgame"):
        for path in (f"/api/games/{game_id}", f"/api/games/{game_id}/replay"):
            body = refused_as(client.get(path), 404, "web.no_game")
            assert body["params"] == {"game": repr(game_id)} and "Eva" not in str(body)
        refused_as(client.post(f"/api/games/{game_id}/lang", json={"lang": "es"}), 404,
                   "web.no_game")
        with pytest.raises(WebSocketDisconnect) as e, \
                game_socket(client, f"/ws/games/{game_id}/0") as ws:
            ws.receive_json()
        assert e.value.code == 4404  # no state, no hand: only the close
        with pytest.raises(WebSocketDisconnect) as e, \
                game_socket(client, f"/ws/games/{game_id}/1") as ws:  # nor its other seats
            ws.receive_json()
        assert e.value.code == 4404
    other = TestClient(client.app, headers=THEIRS)
    assert other.get(f"/api/games/{theirs}").json()["name"] == "Eva"  # (its own device's)
    assert session_of(client, theirs).config.lang == "en"  # the refused lang changed nothing
    assert [g["id"] for g in client.get("/api/games").json()["games"]] == [mine]
    assert [g["id"] for g in other.get("/api/games").json()["games"]] == [theirs]


def test_the_list_and_the_statistics_are_each_devices_own(client: TestClient) -> None:
    other = TestClient(client.app, headers=THEIRS)
    theirs = [new_game(other) for _ in range(3)]
    mine = [new_game(client) for _ in range(2)]
    with game_socket(client, f"/ws/games/{mine[0]}/0") as ws:
        play_hand(client, ws, mine[0])
    seen, before = [], None
    while True:  # page by page: the other device's games are in no page
        page = client.get("/api/games", params={"limit": 1, **({"before": before}
                                                               if before else {})}).json()
        seen += [g["id"] for g in page["games"]]
        if not (before := page["next"]):
            break
    assert seen == [mine[0], mine[1]]  # (the one played last first)
    assert [g["id"] for g in other.get("/api/games").json()["games"]] == theirs[::-1]
    assert client.get("/api/stats").json()["hands"] == 1
    assert other.get("/api/stats").json() == {
        "games": 0, "games_finished": 0, "games_won": 0, "hands": 0, "hands_won": 0,
        "average_hand_score": None, "unreadable": 0}


def test_a_game_socket_says_first_whose_device_it_is(client: TestClient,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import canasta.web.app as app_module

    game_id = new_game(client)
    path = f"/ws/games/{game_id}/0"
    for first, code in ((json.dumps({"type": "sync"}), "device.no_key"),
                        (json.dumps({"type": "hello"}), "device.no_key"),
                        (json.dumps({"type": "hello", "key": DEVICE, "x": 1}), "device.no_key"),
                        ("not json", "device.no_key"),
                        (json.dumps({"type": "hello", "key": 12}), "device.bad_key"),
                        (json.dumps({"type": "hello", "key": "short"}), "device.bad_key")):
        with pytest.raises(WebSocketDisconnect) as e, \
                game_socket(client, path, key=None) as ws:
            ws.send_text(first)
            msg = ws.receive_json()
            assert (msg["type"], msg["code"]) == ("error", code) and "view" not in msg
            ws.receive_json()
        assert e.value.code == 4401, first
    with pytest.raises(WebSocketDisconnect) as e, game_socket(client, path, key=None) as ws:
        ws.send_bytes(b"{}")
        ws.receive_json()
        ws.receive_json()
    assert e.value.code == 4401
    monkeypatch.setattr(app_module, "HELLO_WAIT", 0.2)
    with pytest.raises(WebSocketDisconnect) as e, game_socket(client, path, key=None) as ws:
        assert ws.receive_json()["code"] == "device.no_key"  # it said nothing in time
        ws.receive_json()
    assert e.value.code == 4401
    assert not client.app.state.hub.games[game_id].sockets  # type: ignore[attr-defined]
    with game_socket(client, path) as ws:  # and the right key plays
        assert settle(ws)["view"]["to_act"]


def test_another_devices_unreadable_game_says_nothing_either(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db), headers=MINE) as c:
        bad = new_game(c)
    change_row(db, bad, "record", lambda r: r["hands"][0].update(moves=[[0, "discard JK"]]))
    with TestClient(create_app(db), headers=THEIRS) as c:
        refused_as(c.get(f"/api/games/{bad}"), 404, "web.no_game")
        with pytest.raises(WebSocketDisconnect) as e, \
                game_socket(c, f"/ws/games/{bad}/0", key=OTHER) as ws:
            ws.receive_json()
        assert e.value.code == 4404  # not 4422: nothing says there is such a game


def as_before_the_devices(db: Path) -> None:
    """Leave ``db`` as a server of before the devices did: no owner anywhere."""
    con = sqlite3.connect(db)
    for table in ("games", "summaries"):
        con.execute("DROP INDEX IF EXISTS summaries_owner")
        con.execute(f"ALTER TABLE {table} DROP COLUMN owner")
    con.commit()
    con.close()


def test_the_games_of_an_older_database_go_to_the_first_device_on_this_machine(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db), headers=MINE) as c:
        ids = [new_game(c) for _ in range(3)]
        with game_socket(c, f"/ws/games/{ids[0]}/0") as ws:
            play_hand(c, ws, ids[0])
    as_before_the_devices(db)
    far = {"client": ("192.168.1.30", 50000), "base_url": "http://192.168.1.20:8000"}
    proxied = {**FROM_HERE, "headers": {**MINE, "X-Forwarded-For": "203.0.113.9"}}
    named = {"client": ("127.0.0.1", 50000), "base_url": "https://cards.example.org"}
    with TestClient(create_app(db), headers=THEIRS, **FROM_HERE) as here:
        for kwargs in (far, proxied, named):  # another machine, or through a proxy: nothing
            c = TestClient(here.app, **{"headers": MINE, **kwargs})
            assert c.get("/api/games").json()["games"] == []
            refused_as(c.get(f"/api/games/{ids[1]}"), 404, "web.no_game")
            assert c.get("/api/stats").json()["games"] == 0
        with pytest.raises(WebSocketDisconnect) as e, \
                game_socket(TestClient(here.app, **far), f"/ws/games/{ids[1]}/0") as ws:
            ws.receive_json()
        assert e.value.code == 4404
        with caplog.at_level("WARNING", logger="canasta.web"):
            listed = here.get("/api/games").json()["games"]  # the machine itself: adopted
        assert {g["id"] for g in listed} == set(ids)
        assert "3 stored games" in caplog.text and OTHER not in caplog.text
        assert here.get("/api/stats").json()["hands"] == 1
        with game_socket(here, f"/ws/games/{ids[1]}/0", key=OTHER) as ws:
            assert settle(ws)["view"]["hand_number"] == 1
        mine_here = TestClient(here.app, headers=MINE, **FROM_HERE)  # once: they are taken
        assert mine_here.get("/api/games").json()["games"] == []
    with TestClient(create_app(db), headers=MINE, **FROM_HERE) as c:  # and after a restart
        assert c.get("/api/games").json()["games"] == []
        refused_as(c.get(f"/api/games/{ids[2]}"), 404, "web.no_game")


def test_only_the_machine_itself_counts_as_here() -> None:
    from starlette.requests import Request

    from canasta.web.devices import from_the_machine

    def asking(client: str, host: str, **more: str) -> bool:
        headers = [(b"host", host.encode())] + [(k.replace("_", "-").encode(), v.encode())
                                               for k, v in more.items()]
        return from_the_machine(Request({"type": "http", "client": (client, 1),
                                         "headers": headers}))

    assert asking("127.0.0.1", "127.0.0.1:8000") and asking("::1", "[::1]:8000")
    assert asking("127.0.0.1", "localhost:8000") and asking("127.0.0.5", "localhost")
    assert not asking("192.168.1.30", "127.0.0.1:8000")  # another machine
    assert not asking("127.0.0.1", "cards.example.org")  # a proxy passing the public name on
    assert not asking("127.0.0.1", "192.168.1.20:8000")
    assert not asking("127.0.0.1", "")
    for header in ("x_forwarded_for", "forwarded", "x_real_ip", "x_forwarded_host"):
        assert not asking("127.0.0.1", "localhost:8000", **{header: "203.0.113.9"})


# --- who may connect: the Host, the page's Origin, the security headers -----------------------
EVIL = "http://evil.example"


def bound_client(tmp_path: Path, host: str = "127.0.0.1") -> TestClient:
    """A client of a server bound to ``host``:8000, sending ``Host: 127.0.0.1:8000``."""
    return TestClient(create_app(tmp_path / "games.sqlite3", host=host, port=8000),
                      headers=MINE, base_url="http://127.0.0.1:8000")


def test_only_the_names_the_server_is_bound_to_are_answered(tmp_path: Path) -> None:
    with bound_client(tmp_path) as c:
        for host in ("127.0.0.1:8000", "localhost:8000", "[::1]:8000", "LOCALHOST"):
            assert c.get("/api/games", headers={"Host": host}).status_code == 200, host
        for host in ("evil.example", "evil.example:8000", "localhost.evil.example",
                     "192.168.1.20:8000"):
            r = c.get("/api/games", headers={"Host": host})
            assert r.status_code == 400, host  # a foreign name made to point here (rebinding)
            assert r.headers["x-content-type-options"] == "nosniff"
        url = f"ws://127.0.0.1:8000/ws/games/{new_game(c)}/0"
        with game_socket(c, url) as ws:
            assert ws.receive_json()["type"] == "state"
        with pytest.raises(WebSocketDenialResponse), \
                c.websocket_connect(url, headers={"Host": "evil.example:8000"}):
            pass
    with bound_client(tmp_path, host="0.0.0.0") as c:  # every interface: any address, no name
        import socket

        for host in ("192.168.1.20:8000", "[fe80::1]:8000", "localhost:8000",
                     f"{socket.gethostname()}:8000"):
            assert c.get("/api/games", headers={"Host": host}).status_code == 200, host
        assert c.get("/api/games", headers={"Host": "evil.example"}).status_code == 400


def test_pages_of_other_sites_may_not_connect_or_change_anything(tmp_path: Path) -> None:
    with bound_client(tmp_path) as c:
        game_id = new_game(c)  # (no Origin: a program, not a page)
        path = f"ws://127.0.0.1:8000/ws/games/{game_id}/0"
        for origin in (EVIL, "http://127.0.0.1:8001", "null", "https://127.0.0.1:8000"):
            with pytest.raises(WebSocketDisconnect) as e, \
                    c.websocket_connect(path, headers={"Origin": origin}):
                pass  # refused before it is accepted: no hand is ever sent
            assert e.value.code == 1008
        for origin in ("http://127.0.0.1:8000", "http://localhost:8000", "http://[::1]:8000"):
            with game_socket(c, path, headers={"Origin": origin}) as ws:
                assert settle(ws)["view"]["hand"]
        es = {"Accept-Language": "es"}
        r = c.post("/api/games", content="{}", headers={"Origin": EVIL, "Content-Type":
                                                      "text/plain", **es})
        assert r.status_code == 403
        assert r.json()["english"] == ("requests from other sites are refused (this one comes "
                                       f"from '{EVIL}')")
        assert r.json()["error"].startswith("Se rechazan las peticiones de otros sitios")
        assert c.post("/api/games", json={}, headers={"Origin": EVIL}).status_code == 403
        r = c.post("/api/games", content="{}", headers={"Content-Type": "text/plain", **es})
        assert r.status_code == 415  # what a foreign page could send without asking
        assert r.json()["error"] == ("Envía la petición como JSON (Content-Type: "
                                     "application/json)")
        assert c.post("/api/games", content="{}").status_code == 415
        r = c.post(f"/api/games/{game_id}/lang", json={"lang": "es"}, headers={"Origin": EVIL})
        assert r.status_code == 403
        assert [g["id"] for g in c.get("/api/games").json()["games"]] == [game_id]
        assert session_of(c, game_id).config.lang == "en"  # nothing changed
        r = c.post("/api/games", json={}, headers={"Origin": "http://localhost:8000"})
        assert r.status_code == 201
        assert c.get("/api/games", headers={"Origin": EVIL}).status_code == 200  # unreadable


def test_an_origin_in_front_of_the_server_is_answered_and_may_use_it(tmp_path: Path) -> None:
    public = "https://canasta.example.org"
    app = create_app(tmp_path / "games.sqlite3", host="127.0.0.1", port=8000, origins=[public])
    with TestClient(app, headers=MINE, base_url=public) as c:  # a proxy passes its name on
        assert c.get("/api/options").status_code == 200
        assert c.post("/api/games", json={}, headers={"Origin": public}).status_code == 201
        for origin in (EVIL, "http://canasta.example.org", "https://canasta.example.org:8443"):
            assert c.post("/api/games", json={}, headers={"Origin": origin}).status_code == 403
        assert c.get("/api/options", headers={"Host": "evil.example"}).status_code == 400
        local = {"Origin": public, "Host": "127.0.0.1:8000"}  # a proxy that names this server
        game_id = c.post("/api/games", json={}, headers=local).json()["id"]
        with game_socket(c, f"/ws/games/{game_id}/0", headers=local) as ws:
            assert ws.receive_json()["type"] == "state"
    for bad in ("canasta.example.org", "ftp://canasta.example.org", f"{public}/play",
                f"{public}:port", "https://user@canasta.example.org"):
        with pytest.raises(ValueError, match=r"an origin is scheme://host\[:port\]"):
            create_app(tmp_path / "games.sqlite3", host="127.0.0.1", port=8000, origins=[bad])


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    for path in ("/", "/static/js/main.js", "/static/style.css", "/api/options",
                 "/api/games/nope"):
        r = client.get(path)
        csp = r.headers["content-security-policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp, path
        assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
        assert "connect-src 'self' ws://testserver wss://testserver" in csp
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["referrer-policy"] == "no-referrer"
    html = client.get("/").text
    assert "<script>" not in html and " style=" not in html and " on" + "click=" not in html


def test_serve_binds_the_checks_and_limits_to_its_address(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    from canasta.web.app import WS_MAX_SIZE, serve

    with socket.socket() as probe:  # a free port: serve checks the address before it starts
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    configs: list[Any] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self: configs.append(self.config))
    with pytest.raises(SystemExit):  # (it never listened)
        serve("127.0.0.1", port, str(tmp_path / "games.sqlite3"), open_browser=False,
              announce=lambda text: None)
    (config,) = configs
    assert config.ws_max_size == WS_MAX_SIZE
    with TestClient(config.app, headers=MINE, base_url=f"http://localhost:{port}") as c:
        assert c.get("/api/options").status_code == 200
        assert c.get("/api/options", headers={"Host": f"evil.example:{port}"}).status_code == 400
        r = c.post("/api/games", json={}, headers={"Origin": "http://localhost:8000"})
        assert r.status_code == 403  # another port is another site
        assert c.post("/api/games", json={},
                      headers={"Origin": f"http://localhost:{port}"}).status_code == 201


def test_the_client_reads_the_catalogue_of_each_language(client: TestClient) -> None:
    from canasta.i18n import LOCALE

    for lang in ("en", "es"):
        r = client.get(f"/i18n/{lang}.po")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
        assert r.text == (LOCALE / f"{lang}.po").read_text(encoding="utf-8")
    r = client.get("/i18n/fr.po", headers={"Accept-Language": "es"})
    assert r.status_code == 404 and r.json()["code"] == "protocol.lang"
    assert r.json()["error"] == "El idioma es uno de estos: en, es"


def test_quick_messages_and_dealing_without_waiting_are_for_tables(client: TestClient) -> None:
    """A game of one person has no table: a quick message and the host's "deal now" are
    refused by code, and the game is as it was."""
    game_id = new_game(client)
    with game_socket(client, f"/ws/games/{game_id}/0") as ws:
        first = ws.receive_json()
        assert first["type"] == "state"
        for rid, (msg, code) in enumerate(((
                {"type": "say", "say": "good_luck"}, "protocol.quick_not_table"),
                ({"type": "deal_now"}, "protocol.deal_not_table")), start=1):
            ws.send_json({**msg, "id": rid})
            while (answer := ws.receive_json()).get("id") != rid:
                pass
            assert answer["type"] == "error" and answer["code"] == code
        ws.send_json({"type": "sync", "id": 9})
        while (now := ws.receive_json()).get("id") != 9:
            pass
        assert now["view"]["hand_number"] == first["view"]["hand_number"]
        assert now["view"]["history"] == first["view"]["history"]
