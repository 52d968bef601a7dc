"""Tables with friends (docs/PROTOCOL.md, "Tables"): opening a table, the links' keys as
capabilities (only hashes stored), joining, the lobby and who is connected, the host's actions,
quick messages, and every refusal: wrong key, another seat, seat taken, game started,
host-only actions."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from canasta.i18n import entries
from canasta.web.app import create_app
from canasta.web.quick import QUICK_MESSAGES
from canasta.web.session import ConfigError
from canasta.web.store import Store, WriteRefused, read_cursor
from canasta.web.tables import KEY_BYTES, Pass, Table, TableRefusal, key_hash

STATIC = Path(__file__).resolve().parents[1] / "src" / "canasta" / "web" / "static"
SEATS = [{"friend": True}, {"level": "basic"}, {"friend": True, "level": "random"}]


def table_body(**more: Any) -> dict[str, Any]:
    return {"variant": "classic", "players": 4, "target": 2500, "name": "Ana", "lang": "en",
            "seats": SEATS, **more}


def key_of(link: str) -> str:
    """The key a link carries in its fragment (and nowhere else)."""
    parts = urlsplit(link)
    assert parts.path == "/" and not parts.query
    fragment = dict(p.split("=", 1) for p in parts.fragment.split("&"))
    return fragment["k"]


def with_key(link_or_key: str) -> dict[str, str]:
    key = key_of(link_or_key) if "#" in link_or_key else link_or_key
    return {"X-Canasta-Key": key}


DEVICE = {"X-Canasta-Device": "the-host-device-key-0123456789"}


@pytest.fixture()
def client(tmp_path: Path) -> Any:
    # (the host's browser sends its device's key with every request: its games are its own)
    with TestClient(create_app(tmp_path / "games.sqlite3"), headers=DEVICE) as c:
        yield c


def open_table(client: TestClient, **more: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json=table_body(**more))
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


# --- the table itself (plain Python) -------------------------------------------------------------
def test_keys_are_long_random_and_only_their_hashes_are_kept() -> None:
    table, keys = Table.open("t1", table_body())
    every = [keys["host"], keys["table"], keys["watch"], *keys["invites"].values()]
    assert len(set(every)) == len(every) == 5  # the host's, table's, spectator's, 2 invites
    assert sorted(keys["invites"]) == [1, 3]
    for key in every:
        assert len(key) >= 22 and KEY_BYTES * 8 >= 128
    stored = json.dumps(table.to_json())
    assert not any(key in stored for key in every)
    assert key_hash(keys["host"]) in stored
    assert table.resolve(keys["host"]) == Pass("host", 0)
    assert table.resolve(keys["table"]) == Pass("table")
    assert table.resolve(keys["watch"]) == Pass("watch")
    assert table.resolve(keys["invites"][3]) == Pass("invite", 3)


def test_a_key_of_another_table_or_a_changed_one_opens_nothing() -> None:
    table, keys = Table.open("t1", table_body())
    _, other = Table.open("t2", table_body())
    changed = keys["host"][:-1] + ("A" if keys["host"][-1] != "A" else "B")
    for key in (other["host"], other["invites"][1], changed, "", "short", None, 7,
                keys["host"] + "x" * 40, "é" * 30):
        with pytest.raises(TableRefusal) as e:
            table.resolve(key)
        assert (e.value.status, e.value.code) == (403, "table.wrong_key")


@pytest.mark.parametrize(("change", "message"), [
    ({"seats": [{"friend": True}]}, "'seats' must list 3 seats"),
    ({"seats": [{"level": "basic"}] * 3}, "at least one friend's seat"),
    ({"seats": [{"friend": "yes"}, {}, {}]}, "'friend' is true or false"),
    ({"seats": [{"friend": True}, {"level": "genius"}, {}]}, "seat 2: the level is one of"),
    ({"seats": [{"friend": True, "colour": 1}, {}, {}]}, "seat 1: unknown field(s) colour"),
    ({"levels": ["basic"] * 3}, "not 'levels'"),
    ({"target": 1}, "the target score is one of"),
    ({"variant": "poker"}, "unknown variant"),
])
def test_a_table_with_bad_options_is_refused(change: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Table.open("t", table_body(**change))


def test_a_refused_change_leaves_the_table_as_it_was() -> None:
    table, keys = Table.open("t1", table_body())
    before = table.to_json()
    invite = table.resolve(keys["invites"][1])
    with pytest.raises(TableRefusal):
        table.joined(invite, "\x00bad")
    joined, key = table.joined(invite, " Luis ")
    assert key is None and joined.seats[1].name == "Luis"
    assert table.to_json() == before  # the change made a new table


# --- over HTTP ----------------------------------------------------------------------------------
def test_opening_a_table_gives_links_with_the_key_in_the_fragment(client: TestClient) -> None:
    links = open_table(client)
    assert set(links) == {"id", "host", "table", "watch", "invites"}
    assert set(links["invites"]) == {"1", "3"}
    for link in [links["host"], links["table"], links["watch"], *links["invites"].values()]:
        assert link.startswith("http://testserver/#table=" + links["id"] + "&k=")
    lobby = client.get(f"/api/tables/{links['id']}", headers=with_key(links["host"])).json()
    assert lobby["you"] == {"role": "host", "seat": 0, "joined": True}
    assert [(s["kind"], s["taken"], s["computer"]) for s in lobby["seats"]] == [
        ("host", True, False), ("friend", False, False), ("computer", False, True),
        ("friend", False, False)]
    assert lobby["seats"][0]["name"] == "Ana" and not lobby["started"]
    assert (lobby["players"], lobby["sides"]) == (4, 2)
    assert "k=" not in json.dumps(lobby) and "hash" not in json.dumps(lobby)


def test_the_store_keeps_no_key(client: TestClient, tmp_path: Path) -> None:
    persons = ["Pa" * 15, "Pe" * 15]  # the host's and Eva's devices' person keys
    r = client.post("/api/tables", json=table_body(), headers={"X-Canasta-Device": persons[0]})
    links = r.json()
    client.post(f"/api/tables/{links['id']}/join", json={"name": "Eva", "seat": 1},
                headers={**with_key(links["table"]), "X-Canasta-Device": persons[1]})
    con = sqlite3.connect(tmp_path / "games.sqlite3")
    dump = "\n".join(con.iterdump())
    con.close()
    for link in [links["host"], links["table"], links["watch"], *links["invites"].values()]:
        assert key_of(link) not in dump
    assert key_hash(key_of(links["host"])) in dump
    for key in persons:
        assert key not in dump and key_hash(key) in dump


def test_joining_through_an_invite_and_coming_back(client: TestClient) -> None:
    links = open_table(client)
    tid, invite = links["id"], links["invites"]["3"]
    r = client.post(f"/api/tables/{tid}/join", json={"name": "Luis"}, headers=with_key(invite))
    assert r.status_code == 200, r.text
    assert r.json() == {"seat": 3, "link": None, "key": None}  # the invite stays the seat's
    lobby = client.get(f"/api/tables/{tid}", headers=with_key(invite)).json()
    assert lobby["you"] == {"role": "seat", "seat": 3, "joined": True}
    assert lobby["seats"][3]["name"] == "Luis" and lobby["seats"][3]["taken"]
    again = client.post(f"/api/tables/{tid}/join", json={"name": "Luis M."},
                        headers=with_key(invite))  # the same person, renaming
    assert again.status_code == 200
    assert client.get(f"/api/tables/{tid}", headers=with_key(invite)).json()["seats"][3][
        "name"] == "Luis M."


def test_joining_through_the_table_link_makes_a_seat_key(client: TestClient) -> None:
    links = open_table(client)
    tid = links["id"]
    r = client.post(f"/api/tables/{tid}/join", json={"name": "Eva", "seat": 1},
                    headers=with_key(links["table"]))
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["seat"] == 1 and answer["key"] == key_of(answer["link"])
    lobby = client.get(f"/api/tables/{tid}", headers=with_key(answer["key"])).json()
    assert lobby["you"] == {"role": "seat", "seat": 1, "joined": True}
    # The table link stays the table's: it cannot act as Eva.
    lobby = client.get(f"/api/tables/{tid}", headers=with_key(links["table"])).json()
    assert lobby["you"] == {"role": "table", "seat": None, "joined": False}


def refusal(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["code"] == code, body
    assert body["error"] and body["english"]
    return body  # type: ignore[no-any-return]


def test_refusals_wrong_key_and_no_key(client: TestClient) -> None:
    links = open_table(client)
    other = open_table(client)
    tid = links["id"]
    for path, body in ((f"/api/tables/{tid}", None), (f"/api/tables/{tid}/join",
                                                       {"name": "X"}),
                       (f"/api/tables/{tid}/start", {}), (f"/api/tables/{tid}/fill", {})):
        for headers in (with_key(other["host"]), with_key("A" * 30)):
            r = client.get(path, headers=headers) if body is None else \
                client.post(path, json=body, headers=headers)
            refusal(r, 403, "table.wrong_key")
        r = client.get(path) if body is None else client.post(path, json=body)
        refusal(r, 403, "table.no_key")
    refusal(client.get("/api/tables/nothing", headers=with_key(links["host"])), 404,
            "table.no_table")


def test_refusals_another_seat_and_seat_taken(client: TestClient) -> None:
    links = open_table(client)
    tid = links["id"]
    r = client.post(f"/api/tables/{tid}/join", json={"name": "Luis", "seat": 3},
                    headers=with_key(links["invites"]["1"]))
    assert refusal(r, 403, "table.other_seat")["english"] == "this link is seat 1's, not " \
                                                            "seat 3's"
    ok = client.post(f"/api/tables/{tid}/join", json={"name": "Eva", "seat": 1},
                     headers=with_key(links["table"]))
    assert ok.status_code == 200
    # The seat is Eva's now: neither the table link nor seat 1's invite sits there again.
    refusal(client.post(f"/api/tables/{tid}/join", json={"name": "Max", "seat": 1},
                        headers=with_key(links["table"])), 409, "table.seat_taken")
    refusal(client.post(f"/api/tables/{tid}/join", json={"name": "Max"},
                        headers=with_key(links["invites"]["1"])), 409, "table.seat_taken")
    refusal(client.post(f"/api/tables/{tid}/join", json={"name": "Max", "seat": 2},
                        headers=with_key(links["table"])), 409, "table.not_friend_seat")
    refusal(client.post(f"/api/tables/{tid}/join", json={"name": "Max", "seat": 9},
                        headers=with_key(links["table"])), 400, "table.no_such_seat")
    refusal(client.post(f"/api/tables/{tid}/join", json={"name": "Max"},
                        headers=with_key(links["table"])), 400, "table.choose_seat")
    refusal(client.post(f"/api/tables/{tid}/join", json={"name": "Max"},
                        headers=with_key(links["watch"])), 403, "table.watch_only")
    refusal(client.post(f"/api/tables/{tid}/join", json={"name": ""},
                        headers=with_key(links["invites"]["3"])), 400, "table.bad_name")
    refusal(client.post(f"/api/tables/{tid}/join", json={"name": "A", "extra": 1},
                        headers=with_key(links["invites"]["3"])), 400, "table.bad_request")
    lobby = client.get(f"/api/tables/{tid}", headers=with_key(links["host"])).json()
    assert [s["name"] for s in lobby["seats"]] == ["Ana", "Eva", None, None]


def test_a_name_of_format_or_control_characters_is_refused_at_a_table(
        client: TestClient) -> None:
    """A right-to-left override turned every other name on the screens of the table: names are
    refused format and bidi-control characters as well as controls, the host's and the
    friends'."""
    links = open_table(client)
    tid = links["id"]
    for name in ("\u202e", "Luis\u202e", "\u2067Luis\u2069", "\u200b", "Lu\u00adis", "\x07"):
        refusal(client.post(f"/api/tables/{tid}/join", json={"name": name},
                            headers=with_key(links["invites"]["3"])), 400, "table.bad_name")
        body = refusal(client.post("/api/tables", json=table_body(name=name)), 400,
                       "table.bad_request")
        assert "printable" in body["english"]
    ok = client.post(f"/api/tables/{tid}/join", json={"name": "\U0001f469\u200d\U0001f4bb Luis"},
                     headers=with_key(links["invites"]["3"]))
    assert ok.status_code == 200, ok.text


def test_no_two_seats_of_a_table_share_a_name(client: TestClient) -> None:
    """The computer players took "Lucía" and "Mateo" whatever the people were called: a friend
    saw a partner and a rival both named Lucía.  A person may not take another person's name
    (case and accents as a reader sees them), and the computers take none of the people's."""
    links = open_table(client, name="Lucía", seats=[{"friend": True}, {"level": "basic"},
                                                    {"friend": True, "level": "random"}])
    tid, host = links["id"], with_key(links["host"])
    for name in ("Lucía", "LUCÍA", "Luci\u0301a"):
        body = refusal(client.post(f"/api/tables/{tid}/join", json={"name": name},
                                   headers=with_key(links["invites"]["1"])), 409,
                       "table.name_taken")
        assert body["english"] == f"{name} is already at this table: choose another name"
    assert client.post(f"/api/tables/{tid}/join", json={"name": "Mateo"},
                       headers=with_key(links["invites"]["1"])).status_code == 200
    assert client.post(f"/api/tables/{tid}/join", json={"name": "Mateo"},  # renaming: his own
                       headers=with_key(links["invites"]["1"])).status_code == 200
    refusal(client.post(f"/api/tables/{tid}/join", json={"name": "mateo", "seat": 3},
                        headers=with_key(links["table"])), 409, "table.name_taken")
    client.post(f"/api/tables/{tid}/fill", json={}, headers=host)
    assert client.post(f"/api/tables/{tid}/start", json={}, headers=host).status_code == 200
    with client.websocket_connect(f"/ws/tables/{tid}/play") as ws:
        ws.send_json({"type": "hello", "key": key_of(links["host"])})
        names = ws.receive_json()["view"]["names"]
    assert names[:2] == ["Lucía", "Mateo"] and len(set(names)) == 4, names


def test_host_only_actions_are_refused_to_everybody_else(client: TestClient) -> None:
    links = open_table(client)
    tid = links["id"]
    client.post(f"/api/tables/{tid}/join", json={"name": "Luis"},
                headers=with_key(links["invites"]["3"]))
    for key in (links["invites"]["3"], links["invites"]["1"], links["table"], links["watch"]):
        for path, body in (("start", {}), ("fill", {}), ("seats/3", {"computer": True})):
            body_text = refusal(client.post(f"/api/tables/{tid}/{path}", json=body,
                                            headers=with_key(key)), 403, "table.host_only")
            assert body_text["english"].startswith("only the host may")
    lobby = client.get(f"/api/tables/{tid}", headers=with_key(links["host"])).json()
    assert not lobby["started"] and not lobby["seats"][3]["computer"]


def test_the_host_starts_once_every_seat_is_taken_or_filled(client: TestClient) -> None:
    links = open_table(client)
    tid, host = links["id"], with_key(links["host"])
    client.post(f"/api/tables/{tid}/join", json={"name": "Luis"},
                headers=with_key(links["invites"]["3"]))
    body = refusal(client.post(f"/api/tables/{tid}/start", json={}, headers=host), 409,
                   "table.seat_empty")
    assert body["params"] == {"seat": 1}
    lobby = client.post(f"/api/tables/{tid}/fill", json={}, headers=host).json()
    assert [s["computer"] for s in lobby["seats"]] == [False, True, True, False]
    r = client.post(f"/api/tables/{tid}/start", json={}, headers=host)
    assert r.status_code == 200, r.text
    game = r.json()["game"]
    summary = client.get(f"/api/games/{game}").json()
    assert (summary["variant"], summary["players"], summary["target"], summary["name"]) == (
        "classic", 4, 2500, "Ana")
    assert summary["levels"] == ["expert", "basic", "random"]  # the seats' computer levels
    assert client.get(f"/api/tables/{tid}", headers=host).json()["game"] == game
    for key in (links["invites"]["3"], links["watch"], links["table"]):  # the host's only
        lobby = client.get(f"/api/tables/{tid}", headers=with_key(key)).json()
        assert lobby["started"] and lobby["game"] is None
    # Game started: no more joining, filling or starting.
    refusal(client.post(f"/api/tables/{tid}/start", json={}, headers=host), 409,
            "table.started")
    refusal(client.post(f"/api/tables/{tid}/fill", json={}, headers=host), 409,
            "table.started")
    refusal(client.post(f"/api/tables/{tid}/join", json={"name": "Max", "seat": 1},
                        headers=with_key(links["table"])), 409, "table.started")
    refusal(client.post(f"/api/tables/{tid}/join", json={"name": "Max"},
                        headers=with_key(links["invites"]["1"])), 409, "table.started")


def test_the_host_hands_an_absent_seat_to_a_computer_and_back(client: TestClient) -> None:
    links = open_table(client)
    tid, host = links["id"], with_key(links["host"])
    refusal(client.post(f"/api/tables/{tid}/seats/3", json={"computer": False}, headers=host),
            409, "table.nobody")
    refusal(client.post(f"/api/tables/{tid}/seats/2", json={"computer": True}, headers=host),
            409, "table.not_friend_seat")
    refusal(client.post(f"/api/tables/{tid}/seats/7", json={"computer": True}, headers=host),
            400, "table.no_such_seat")
    refusal(client.post(f"/api/tables/{tid}/seats/3", json={"computer": 1}, headers=host),
            400, "table.bad_field")
    invite = links["invites"]["3"]
    client.post(f"/api/tables/{tid}/join", json={"name": "Luis"}, headers=with_key(invite))
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_json({"type": "hello", "key": key_of(invite)})
        assert ws.receive_json()["seats"][3]["present"]
        body = refusal(client.post(f"/api/tables/{tid}/seats/3", json={"computer": True},
                                   headers=host), 409, "table.present")
        assert body["english"].startswith("Luis is at the table")
    lobby = client.post(f"/api/tables/{tid}/seats/3", json={"computer": True},
                        headers=host).json()
    assert lobby["seats"][3]["computer"] and not lobby["seats"][3]["present"]
    lobby = client.post(f"/api/tables/{tid}/seats/3", json={"computer": False},
                        headers=host).json()
    assert not lobby["seats"][3]["computer"]


def test_refusals_in_the_language_asked_for(client: TestClient) -> None:
    links = open_table(client)
    r = client.post(f"/api/tables/{links['id']}/start", json={},
                    headers={**with_key(links["watch"]), "Accept-Language": "es"})
    body = refusal(r, 403, "table.host_only")
    assert body["error"] == ("Solo el anfitrión puede empezar la partida, llenar los asientos "
                             "vacíos, dar un asiento a la máquina o crear enlaces nuevos")
    assert body["english"].startswith("only the host may start the game")


def test_a_refusal_nests_why_and_quotes_what_was_asked_for_in_both_languages(
        client: TestClient) -> None:
    """(table.bad_request carries its reason as a refusal of its own, rendered in the language
    asked for; an unknown table is named as it was given)"""
    r = client.post("/api/tables", json=table_body(seats=[{"friend": "yes"}, {}, {}]),
                    headers={"Accept-Language": "es"})
    body = refusal(r, 400, "table.bad_request")
    assert body["params"]["reason"]["code"] == "config.seat_friend"
    assert body["error"] == "La petición no es válida: asiento 1: 'friend' es true o false"
    assert body["english"] == "the request is not valid: seat 1: 'friend' is true or false"
    r = client.get("/api/tables/nope", headers={**with_key("k" * 22), "Accept-Language": "es"})
    body = refusal(r, 404, "table.no_table")
    assert (body["error"], body["english"]) == ("No existe la mesa 'nope'",
                                                "there is no table 'nope'")


# --- the table's socket: the lobby, who is there, quick messages ------------------------------
def test_the_socket_shows_who_is_there_and_relays_quick_messages(client: TestClient) -> None:
    links = open_table(client)
    tid = links["id"]
    invite = links["invites"]["3"]
    client.post(f"/api/tables/{tid}/join", json={"name": "Luis"}, headers=with_key(invite))
    with client.websocket_connect(f"/ws/tables/{tid}") as host:
        host.send_json({"type": "hello", "key": key_of(links["host"])})
        first = host.receive_json()
        assert first["type"] == "lobby" and first["you"]["role"] == "host"
        assert [s["present"] for s in first["seats"]] == [True, False, False, False]
        with client.websocket_connect(f"/ws/tables/{tid}") as luis:
            luis.send_json({"type": "hello", "key": key_of(invite)})
            assert luis.receive_json()["you"] == {"role": "seat", "seat": 3, "joined": True}
            assert [s["present"] for s in host.receive_json()["seats"]] == [
                True, False, False, True]
            luis.send_json({"type": "say", "say": "good_luck"})
            said = {"type": "said", "seat": 3, "say": "good_luck"}
            assert host.receive_json() == said and luis.receive_json() == said
            luis.send_json({"type": "say", "say": "you are bad"})
            assert luis.receive_json()["code"] == "table.bad_quick"
            luis.send_json({"type": "move", "move": "draw"})
            assert luis.receive_json()["code"] == "table.bad_request"
        away = host.receive_json()  # Luis left: "Luis is away"
        assert away["seats"][3]["name"] == "Luis" and not away["seats"][3]["present"]
        with client.websocket_connect(f"/ws/tables/{tid}") as watcher:
            watcher.send_json({"type": "hello", "key": key_of(links["watch"])})
            assert watcher.receive_json()["you"]["role"] == "watch"
            host.receive_json()
            watcher.send_json({"type": "say", "say": "hello"})
            assert watcher.receive_json()["code"] == "table.not_seated"


def test_a_socket_opened_before_sitting_down_is_there_once_seated(client: TestClient) -> None:
    links = open_table(client)
    tid, invite = links["id"], links["invites"]["1"]
    with client.websocket_connect(f"/ws/tables/{tid}") as luis:
        luis.send_json({"type": "hello", "key": key_of(invite)})
        first = luis.receive_json()
        assert first["you"]["role"] == "invite" and not first["seats"][1]["present"]
        client.post(f"/api/tables/{tid}/join", json={"name": "Luis"}, headers=with_key(invite))
        seated = luis.receive_json()
        assert seated["you"] == {"role": "seat", "seat": 1, "joined": True}
        assert seated["seats"][1]["present"]
        luis.send_json({"type": "say", "say": "hello"})  # seated now: he may speak
        assert luis.receive_json() == {"type": "said", "seat": 1, "say": "hello"}


def test_a_socket_without_the_right_key_gets_nothing(client: TestClient) -> None:
    links = open_table(client)
    other = open_table(client)
    tid = links["id"]
    for hello, code in (({"type": "hello", "key": key_of(other["host"])}, 4403),
                        ({"type": "sync"}, 4401), ({"type": "hello"}, 4403)):
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json(hello)
            message = ws.receive_json()
            assert message["type"] == "error" and "seats" not in message
            with pytest.raises(WebSocketDisconnect) as e:
                ws.receive_json()
            assert e.value.code == code
    with client.websocket_connect("/ws/tables/nothing") as ws:
        assert ws.receive_json()["code"] == "table.no_table"
        with pytest.raises(WebSocketDisconnect) as e:
            ws.receive_json()
        assert e.value.code == 4404


def test_tables_survive_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db)) as client:
        links = open_table(client)
        client.post(f"/api/tables/{links['id']}/join", json={"name": "Luis"},
                    headers=with_key(links["invites"]["3"]))
    with TestClient(create_app(db)) as client:
        lobby = client.get(f"/api/tables/{links['id']}",
                           headers=with_key(links["invites"]["3"])).json()
        assert lobby["you"]["seat"] == 3 and lobby["seats"][3]["name"] == "Luis"


def test_an_older_database_gets_the_tables_and_keeps_its_games(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db), headers=DEVICE) as client:
        game = client.post("/api/games", json={"name": "Ana", "levels": ["basic"] * 3}).json()
    con = sqlite3.connect(db)
    con.execute("DROP TABLE tables")  # as a server from before the tables left it
    con.commit()
    con.close()
    with TestClient(create_app(db), headers=DEVICE) as client:
        assert client.get(f"/api/games/{game['id']}").json()["name"] == "Ana"
        open_table(client)
    con = sqlite3.connect(db)
    assert con.execute("SELECT COUNT(*) FROM tables").fetchone()[0] == 1
    con.close()


def test_a_foreign_tables_table_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "other.sqlite3"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE tables (id TEXT, legs INTEGER)")
    con.commit()
    con.close()
    from canasta.web.store import StoreOpenError

    with pytest.raises(StoreOpenError, match="no column created"):
        Store(db)


def test_quick_messages_have_texts_in_both_languages() -> None:
    """(in the catalogues the client reads through js/i18n.js, /i18n/<lang>.po)"""
    for lang in ("en", "es"):
        catalogue = entries(lang)
        assert all(catalogue.get(f"quick.{q}", ("", ""))[1] for q in QUICK_MESSAGES), lang


# --- on a network: the public address ----------------------------------------------------------
def test_the_public_url_is_where_links_point_and_whose_pages_may_play(tmp_path: Path) -> None:
    app = create_app(tmp_path / "games.sqlite3", host="0.0.0.0", port=8000,
                     public_url="https://Cards.example.org/")
    with TestClient(app, base_url="https://cards.example.org") as client:
        links = open_table(client)
        assert links["host"].startswith(f"https://cards.example.org/#table={links['id']}&k=")
        assert all(link.startswith("https://cards.example.org/#")
                   for link in links["invites"].values())
        page = {"Origin": "https://cards.example.org"}
        r = client.post("/api/tables", json=table_body(), headers=page)
        assert r.status_code == 201
        r = client.post("/api/tables", json=table_body(),
                        headers={"Origin": "https://evil.example"})
        assert r.status_code == 403
        # (not a name of this server: DNS rebinding)
        assert client.get("/api/options", headers={"Host": "evil.example"}).status_code == 400


@pytest.mark.parametrize("url", ["ftp://cards.example.org", "https://", "cards.example.org",
                                 "https://cards.example.org/play?x=1",
                                 "https://user@cards.example.org"])
def test_a_public_url_that_is_not_an_address_is_refused(url: str) -> None:
    from canasta.web.app import public_origin

    with pytest.raises(ValueError, match="the public URL is"):
        public_origin(url)


def test_serve_refuses_a_bad_public_url(capsys: pytest.CaptureFixture[str]) -> None:
    from canasta.cli import main

    assert main(["serve", "--no-browser", "--public-url", "cards.example.org"]) == 2
    assert "--public-url: the public URL is" in capsys.readouterr().err


def test_the_turn_clock_is_off_unless_chosen(client: TestClient) -> None:
    links = open_table(client)
    assert client.get(f"/api/tables/{links['id']}",
                      headers=with_key(links["host"])).json()["clock"] is None
    links = open_table(client, clock=60)
    assert client.get(f"/api/tables/{links['id']}",
                      headers=with_key(links["watch"])).json()["clock"] == 60
    for clock in (0, 45, "60", True):
        refusal(client.post("/api/tables", json=table_body(clock=clock)), 400,
                "table.bad_request")


def test_the_table_socket_refuses_in_the_language_of_its_hello(client: TestClient) -> None:
    links = open_table(client)
    with client.websocket_connect(f"/ws/tables/{links['id']}") as ws:
        ws.send_json({"type": "hello", "key": key_of(links["host"]), "lang": "es"})
        assert ws.receive_json()["type"] == "lobby"
        ws.send_json({"type": "say", "say": "you are bad"})
        error = ws.receive_json()
        assert error["code"] == "table.bad_quick"
        assert error["error"].startswith("Los mensajes rápidos son hello, good_luck")
        assert error["english"].startswith("the quick messages are hello, good_luck")


def test_new_links_replace_the_old_ones_but_not_a_seated_friends(client: TestClient) -> None:
    links = open_table(client)
    tid, host = links["id"], with_key(links["host"])
    client.post(f"/api/tables/{tid}/join", json={"name": "Luis"},
                headers=with_key(links["invites"]["3"]))
    refusal(client.post(f"/api/tables/{tid}/links", json={},
                        headers=with_key(links["invites"]["3"])), 403, "table.host_only")
    with client.websocket_connect(f"/ws/tables/{tid}") as watcher:
        watcher.send_json({"type": "hello", "key": key_of(links["watch"])})
        watcher.receive_json()
        fresh = client.post(f"/api/tables/{tid}/links", json={}, headers=host)
        assert fresh.status_code == 200, fresh.text
        with pytest.raises(WebSocketDisconnect) as e:  # the old spectator's link is gone
            watcher.receive_json()
        assert e.value.code == 4403
    new = fresh.json()
    assert new["host"] == links["host"] and set(new["invites"]) == {"1"}
    for old in (links["table"], links["watch"], links["invites"]["1"]):
        refusal(client.get(f"/api/tables/{tid}", headers=with_key(old)), 403,
                "table.wrong_key")
    for key, role in ((new["table"], "table"), (new["watch"], "watch"),
                      (new["invites"]["1"], "invite"), (links["invites"]["3"], "seat")):
        assert client.get(f"/api/tables/{tid}",
                          headers=with_key(key)).json()["you"]["role"] == role


async def asgi_request(app: Any, method: str, path: str, body: Any = None,
                       key: str | None = None) -> tuple[int, Any]:
    """One request straight through the ASGI app (several may run at once on one loop)."""
    raw = json.dumps(body).encode() if body is not None else b""
    headers = [(b"host", b"testserver"), (b"content-type", b"application/json")]
    if key is not None:
        headers.append((b"x-canasta-key", key.encode()))
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
             "query_string": b"", "root_path": "", "headers": headers,
             "client": ("127.0.0.1", 1), "server": ("testserver", 80)}
    sent = False
    out: dict[str, Any] = {"body": b""}

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            await asyncio.sleep(3600)
        sent = True
        return {"type": "http.request", "body": raw, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            out["status"] = message["status"]
        elif message["type"] == "http.response.body":
            out["body"] += message.get("body", b"")

    await app(scope, receive, send)
    return out["status"], json.loads(out["body"])


def test_friends_racing_for_one_seat_get_it_once(tmp_path: Path) -> None:
    """Five joins for seat 1 through the table link at the same moment: one sits, the other
    four are told the seat is taken, and the table holds that one's name."""
    app = create_app(tmp_path / "games.sqlite3")

    async def race() -> tuple[list[tuple[int, Any]], Any]:
        _, links = await asgi_request(app, "POST", "/api/tables", table_body())
        tid, key = links["id"], key_of(links["table"])
        answers = await asyncio.gather(*(
            asgi_request(app, "POST", f"/api/tables/{tid}/join", {"name": f"P{i}", "seat": 1},
                         key) for i in range(5)))
        _, lobby = await asgi_request(app, "GET", f"/api/tables/{tid}",
                                      key=key_of(links["host"]))
        return list(answers), lobby

    answers, lobby = asyncio.run(race())
    assert sorted(status for status, _ in answers) == [200, 409, 409, 409, 409]
    winner = next(body for status, body in answers if status == 200)
    assert all(body["code"] == "table.seat_taken" for status, body in answers if status == 409)
    assert lobby["seats"][1]["taken"] and winner["seat"] == 1
    assert sum(1 for s in lobby["seats"] if s["name"] and s["name"].startswith("P")) == 1


def test_the_client_knows_the_servers_quick_messages_and_clocks() -> None:
    import re

    from canasta.web.tables import CLOCKS

    lobby = (STATIC / "js" / "ui" / "lobby.js").read_text()
    start = (STATIC / "js" / "ui" / "start.js").read_text()
    quick = re.search(r"export const QUICK = \[(.*?)\];", lobby, re.DOTALL)
    clocks = re.search(r"const CLOCKS = \[(.*?)\];", start)
    assert quick and clocks
    assert tuple(re.findall(r'"([a-z_]+)"', quick.group(1))) == QUICK_MESSAGES
    assert tuple(int(n) for n in clocks.group(1).split(",")) == CLOCKS


def test_the_games_list_says_which_games_are_a_tables(client: TestClient) -> None:
    alone = client.post("/api/games", json={"name": "Ana", "levels": ["basic"] * 3}).json()
    links = open_table(client)
    host = with_key(links["host"])
    client.post(f"/api/tables/{links['id']}/fill", json={}, headers=host)
    game = client.post(f"/api/tables/{links['id']}/start", json={}, headers=host).json()["game"]
    listed = {g["id"]: g["table"] for g in client.get("/api/games").json()["games"]}
    assert listed == {alone["id"]: None, game: links["id"]}
    assert client.get(f"/api/games/{game}").json()["table"] == links["id"]


def test_a_persons_games_are_paged_and_counted_for_their_own_side(tmp_path: Path) -> None:
    """The store's seatings, written directly: three games of Classic for three (every seat its
    own side); the person plays seat 2 in two of them, seat 0 in the third."""
    store = Store(tmp_path / "games.sqlite3")
    config = {"variant": "classic", "players": 3, "target": 5000, "levels": ["basic"] * 2,
              "name": "Ana", "lang": "en", "seed": 1, "options": {}}
    result = {"hand_score": [100, 50, 300], "breakdown": [], "went_out": 2,
              "concealed": False}
    record = {"hands": [{"moves": [[0, "draw"]], "result": result}], "scores": [100, 50, 300],
              "over": False, "winner": None}
    for n, seat in enumerate((2, 2, 0)):
        store.create(f"g{n}", config, {"hands": [{"moves": []}], "scores": [0, 0, 0]})
        store.seat_people(f"g{n}", {seat: "pa", 1: "pb"})
        store.save(f"g{n}", config, record)  # (the seatings follow every write)
    first = store.person_page("pa", 2)
    assert [(g["id"], g["seat"]) for g in first.games] == [("g2", 0), ("g1", 2)]
    assert first.next is not None
    rest = store.person_page("pa", 2, read_cursor(first.next))
    assert [(g["id"], g["seat"]) for g in rest.games] == [("g0", 2)] and rest.next is None
    stats = store.person_stats("pa")
    assert (stats["games"], stats["hands"], stats["hands_won"]) == (3, 3, 2)
    assert stats["average_hand_score"] == round((300 + 300 + 100) / 3, 1)
    assert store.person_stats("pb")["hands_won"] == 0
    assert store.person_stats("nobody")["games"] == 0
    with pytest.raises(WriteRefused):
        store.seat_people("g0", {5: "pa"})  # no seat 5 at a table of three
    with pytest.raises(WriteRefused):
        store.seat_people("missing", {0: "pa"})
    store.close()


def test_the_table_socket_takes_a_seated_persons_language_only(client: TestClient) -> None:
    links = open_table(client)
    with client.websocket_connect(f"/ws/tables/{links['id']}") as ws:
        ws.send_json({"type": "hello", "key": key_of(links["watch"])})
        assert ws.receive_json()["type"] == "lobby"
        ws.send_json({"type": "lang", "lang": "es"})
        assert ws.receive_json()["code"] == "table.not_seated"
    with client.websocket_connect(f"/ws/tables/{links['id']}") as ws:
        ws.send_json({"type": "hello", "key": key_of(links["host"]), "lang": "es"})
        assert ws.receive_json()["type"] == "lobby"
        ws.send_json({"type": "lang", "lang": "fr", "extra": 1})
        assert ws.receive_json()["code"] == "table.bad_request"
        ws.send_json({"type": "lang", "lang": "fr"})
        refused = ws.receive_json()
        assert refused["code"] == "table.bad_request"
        assert refused["error"].lower() != refused["english"].lower()  # (in Spanish)
    stored = client.app.state.lobby.store.load_table(links["id"])  # type: ignore[attr-defined]
    assert [s["lang"] for s in stored["seats"]] == ["es", None, None, None]


#: A client on the machine the server runs on (which adopts the games nobody owns).
FROM_HERE: dict[str, Any] = {"client": ("127.0.0.1", 50000), "base_url": "http://127.0.0.1:8000"}


def test_a_tables_match_started_without_a_device_key_is_nobodys_for_good(
        tmp_path: Path) -> None:
    """PROTOCOL.md, "Devices": only the one-person games from before the devices are adopted
    by the first device of the machine; a table's match whose host sent no device key stays
    nobody's (in memory and in the store, and after a restart)."""
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db)) as client:  # (no device key: a program, an old client)
        links = open_table(client)
        host = with_key(links["host"])
        client.post(f"/api/tables/{links['id']}/fill", json={}, headers=host)
        game = client.post(f"/api/tables/{links['id']}/start", json={},
                           headers=host).json()["game"]
        here = TestClient(client.app, headers=DEVICE, **FROM_HERE)
        assert here.get("/api/games").json()["games"] == []  # the same process
        assert client.app.state.hub.games[game].owner is None  # type: ignore[attr-defined]
    for _ in range(2):  # after a restart (twice: the first device of each start)
        with TestClient(create_app(db), headers=DEVICE, **FROM_HERE) as here:
            assert here.get("/api/games").json()["games"] == []
            assert here.get(f"/api/games/{game}").status_code == 404
    con = sqlite3.connect(db)
    owners = con.execute("SELECT owner FROM games UNION ALL SELECT owner FROM summaries")
    assert [r[0] for r in owners] == [None, None]
    con.close()
