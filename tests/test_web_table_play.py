"""Several people at one running match (docs/PROTOCOL.md, "Tables"): each seat its own socket,
its own view, hints and undo; "may I go out?" between two people; the match waits for an absent
person; the host hands an absent seat to a computer player and back; a spectator sees no hand.

The leak test records every frame every seat and the spectator receive over whole hands of
every variant with several people, and checks each against the true state replayed from the
stored record: a seat's frame is exactly what its own view makes (no other hand, no stock
order, no ponytail before it is picked up), a spectator's holds no card of any hand."""

from __future__ import annotations

import json
import re
import sqlite3
import time
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from canasta.bots.basic import BasicPlayer
from canasta.match import Match
from canasta.records import hand_moves, replay, replay_hand
from canasta.web.app import create_app
from canasta.web.present import view_json
from canasta.web.quick import QUICK_MOST
from canasta.web.tablegame import PRIVATE, TableSession
from test_web_tables import key_of, with_key

#: What a frame holds besides its view of the engine: the names and levels of the seats, the
#: match's score sheet, the cards received this turn (checked apart) and the reasons of what
#: is refused (checked apart).
CONTEXT = ("names", "levels", "match", "drew", "unavailable", "add_fits")
CARD = re.compile(r"\b(?:10|[2-9TJQKA])[CDHS]\b|\bJK\b")


DEVICE = {"X-Canasta-Device": "the-host-device-key-0123456789"}


@pytest.fixture()
def client(tmp_path: Path) -> Any:
    # (the host's browser sends its device's key with every request: its games are its own)
    with TestClient(create_app(tmp_path / "games.sqlite3"), headers=DEVICE) as c:
        yield c


class Seated:
    """A table's match with its people connected: one socket per person, one spectator."""

    def __init__(self, client: TestClient, variant: str, players: int, people: list[int],
                 levels: str = "basic", **more: Any) -> None:
        self.client = client
        seats = [{"friend": True} if n in people else {"level": levels}
                 for n in range(1, players)]
        r = client.post("/api/tables", json={"variant": variant, "players": players,
                                             "name": "Ana", "seats": seats, **more})
        assert r.status_code == 201, r.text
        self.links = r.json()
        self.id = self.links["id"]
        self.keys = {0: key_of(self.links["host"])}
        for n in people:
            if n:
                key = key_of(self.links["invites"][str(n)])
                assert client.post(f"/api/tables/{self.id}/join", json={"name": f"P{n}"},
                                   headers=with_key(key)).status_code == 200
                self.keys[n] = key
        started = client.post(f"/api/tables/{self.id}/start", json={},
                              headers=with_key(self.keys[0]))
        assert started.status_code == 200, started.text
        self.game = started.json()["game"]
        self.frames: dict[int | None, list[dict[str, Any]]] = {}
        self.sockets: dict[int | None, Any] = {}
        self.contexts: list[Any] = []
        self.ids = 0

    def connect(self, seat: int | None) -> Any:
        """Open ``seat``'s socket (None: the spectator's) and read its first state: once it
        came, every other socket has been sent the new list of who is here."""
        key = key_of(self.links["watch"]) if seat is None else self.keys[seat]
        cm = self.client.websocket_connect(f"/ws/tables/{self.id}/play")
        ws = cm.__enter__()
        self.contexts.append(cm)
        ws.send_json({"type": "hello", "key": key})
        self.sockets[seat] = ws
        self.frames.setdefault(seat, [])
        first = self.read(seat)
        assert first["type"] == "state", first
        return ws

    def close(self) -> None:
        for cm in reversed(self.contexts):
            cm.__exit__(None, None, None)

    @property
    def session(self) -> TableSession:
        s = self.client.app.state.hub.games[self.game].session  # type: ignore[attr-defined]
        assert isinstance(s, TableSession)
        return s

    def read(self, seat: int | None) -> dict[str, Any]:
        msg: dict[str, Any] = self.sockets[seat].receive_json()
        if msg["type"] == "state":
            self.frames[seat].append(msg)
        return msg

    def quiet(self) -> None:
        """Wait until the computer players have nothing left to do."""
        live = self.client.app.state.hub.games[self.game]  # type: ignore[attr-defined]
        while live.driver is not None and not live.driver.done():
            time.sleep(0.002)

    def sync(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat``'s socket was sent until now (recorded), and the present state:
        a ``sync``'s answer comes after all that was queued before it."""
        self.ids += 1
        self.sockets[seat].send_json({"type": "sync", "id": self.ids})
        while True:
            msg = self.read(seat)
            if msg.get("id") == self.ids:
                return msg

    def settle(self, seat: int | None) -> dict[str, Any]:
        """``seat``'s socket read up to now, once its request and the computer players'
        moves that follow are done."""
        self.sync(seat)  # (its own request was handled first)
        self.quiet()
        return self.sync(seat)

    def settle_all(self) -> dict[int | None, dict[str, Any]]:
        self.quiet()
        return {seat: self.sync(seat) for seat in self.sockets}


def play_hand(t: Seated, people: list[int], whole: bool = False) -> None:
    """The people play one hand (``whole``: the whole match) as the basic player would, each
    through their own socket."""
    players = {n: BasicPlayer(11 + n) for n in people}
    last = t.settle_all()
    for _ in range(30000):
        view = last[people[0]]["view"]
        if view["result"] is not None:
            if not whole or view["match"]["over"]:
                return
            for n in people:  # (dealt once every person there has closed the score sheet)
                t.sockets[n].send_json({"type": "next_hand"})
                t.sync(n)
            last = t.settle_all()
            continue
        acting = [n for n in people if last[n]["view"]["to_act"]]
        assert len(acting) == 1, {n: last[n]["view"]["to_act"] for n in people}
        seat = acting[0]
        move = str(players[seat].choose(t.session.view(seat)))
        t.sockets[seat].send_json({"type": "move", "move": move})
        t.sync(seat)
        last = t.settle_all()
    raise AssertionError("the hand did not end")


def check_frames(t: Seated) -> int:
    """Every recorded frame against the true state replayed from the stored record; the number
    of frames checked."""
    record = t.session.record()
    checked = 0
    seats = list(range(t.session.table.rules.players))
    truths: dict[int, list[Any]] = {}
    for seat, frames in t.frames.items():
        for msg in frames:
            v = msg["view"]
            hand = v["hand_number"]
            if hand not in truths:
                shown = replay(record, upto=hand)
                truths[hand] = list(replay_hand(shown, hand_moves(record, hand), seats))
            truth = truths[hand][len(v["history"])]
            own = 0 if seat is None else seat
            expected = view_json(truth.views[own], names=[], levels=[], match={})
            if seat is None:
                for key in PRIVATE:
                    empty = not any(v[key].values()) if key == "legal" else not v[key]
                    assert empty, (key, v[key])
                same = [k for k in expected if k not in (*CONTEXT, *PRIVATE, "seat", "side",
                                                         "partner", "to_act", "minimum",
                                                         "pile_frozen")]
            else:
                same = [k for k in expected if k not in CONTEXT]
                # What it received this turn and the reasons of its refusals name only
                # cards it holds or everybody sees (a drawn card may be melded already).
                visible = {c["text"] for c in v["hand"]} | set(CARD.findall(json.dumps(
                    {k: v[k] for k in ("melds", "threes", "pile_top", "history")})))
                assert set(v["drew"] or []) <= visible, v["drew"]
                reasons = json.dumps(v["unavailable"])
                assert set(CARD.findall(reasons)) <= visible, reasons
            for key in same:
                assert v[key] == expected[key], (seat, key, v[key], expected[key])
            checked += 1
    return checked


#: The seed of the whole match of Classic for two to 2500: it takes more than one hand.
WHOLE_MATCH_SEED = 7


@pytest.mark.parametrize(("variant", "players", "people", "whole"), [
    ("classic", 4, [0, 1, 2], False),  # partners who are both people, and an opponent
    ("classic", 2, [0, 1], True),  # a whole match, hand after hand
    ("classic", 3, [0, 2], False),
    ("modern-american", 4, [0, 2], False),
    ("ponytail", 4, [0, 1, 3], False),
    ("ponytail", 6, [0, 3], False),
])
def test_every_frame_of_every_seat_shows_only_what_it_may(
        client: TestClient, monkeypatch: pytest.MonkeyPatch, variant: str, players: int,
        people: list[int], whole: bool) -> None:
    if whole:  # a deal of its own: with a drawn one, a side could reach the target in one hand
        monkeypatch.setattr("canasta.web.hub.new_seed", lambda: WHOLE_MATCH_SEED)
    t = Seated(client, variant, players, people, target=2500) if whole else \
        Seated(client, variant, players, people)
    try:
        for seat in [*people, None]:
            t.connect(seat)
        play_hand(t, people, whole)
        t.settle_all()
        assert check_frames(t) > 50
        if whole:
            assert t.session.match.over and len(t.session.match.results) > 1
    finally:
        t.close()


def test_may_i_go_out_between_two_people(client: TestClient, make_position: Any) -> None:
    """Seat 0 asks; seat 2, a person, answers in their own screen, and the answer binds."""
    t = Seated(client, "classic", 4, [0, 2])
    try:
        for seat in (0, 2):
            t.connect(seat)
        t.settle_all()
        state = make_position(
            hands=[["4S", "4H", "4D", "5S"], ["6C", "7C"], ["8D", "9D"], ["TC", "JC"]],
            melds=[[["KH", "KD", "KS", "KC", "KH", "KD", "KS"], ["QH", "QD", "QS"]], []],
            discard=["3C"], stock=["4H", "5H", "6H", "7H", "8H", "9H"], phase="play")
        live = client.app.state.hub.games[t.game]  # type: ignore[attr-defined]
        live.session.table.match.state = state
        t.sockets[0].send_json({"type": "sync"})
        t.settle(0)
        t.sockets[0].send_json({"type": "move", "move": "ask"})
        asked = t.settle(2)
        assert asked["view"]["to_act"] and asked["view"]["asking"] == 0
        assert asked["view"]["legal"]["yes"] and asked["view"]["legal"]["no"]
        seen0 = t.settle(0)
        assert not seen0["view"]["to_act"]
        # Seat 0 cannot answer for its partner.
        t.sockets[0].send_json({"type": "move", "move": "yes"})
        assert t.read(0)["type"] == "error"
        t.sockets[2].send_json({"type": "move", "move": "no"})
        answered = t.settle(0)
        assert answered["view"]["answer"] == "no" and answered["view"]["to_act"]
        assert not answered["view"]["legal"]["ask"]
    finally:
        t.close()


def test_the_match_waits_for_an_absent_person_and_the_host_hands_the_seat_over(
        client: TestClient) -> None:
    t = Seated(client, "classic", 2, [0, 1])
    try:
        t.connect(0)
        first = t.settle(0)
        assert first["people"][1] == {"seat": 1, "name": "P1", "person": True,
                                      "present": False, "computer": False, "ready": False}
        me = BasicPlayer(3)
        while t.session.state.to_move() == 0:
            t.sockets[0].send_json({"type": "move", "move": str(me.choose(t.session.view(0)))})
            last = t.settle(0)
        assert not last["waiting"] and not last["view"]["to_act"]  # P1's turn: it waits
        waited = len(t.session.state.history)
        host = with_key(t.keys[0])
        r = client.post(f"/api/tables/{t.id}/seats/1", json={"computer": True}, headers=host)
        assert r.status_code == 200, r.text
        handed = t.settle(0)
        assert handed["people"][1]["computer"]
        assert len(t.session.state.history) > waited  # the computer played P1's turn
        # P1 comes back: the host cannot hand it over while P1 is there; gives it back.
        t.connect(1)
        back = t.settle(1)
        assert back["view"]["seat"] == 1 and back["people"][1]["present"]
        r = client.post(f"/api/tables/{t.id}/seats/1", json={"computer": True}, headers=host)
        assert r.status_code == 409 and r.json()["code"] == "table.present"
        r = client.post(f"/api/tables/{t.id}/seats/1", json={"computer": False}, headers=host)
        assert r.status_code == 200
        assert not t.settle(1)["people"][1]["computer"]
    finally:
        t.close()


def test_each_seat_has_its_own_hint_undo_and_nobody_plays_for_another(
        client: TestClient) -> None:
    t = Seated(client, "classic", 4, [0, 1, 2])
    try:
        for seat in (0, 1, 2):
            t.connect(seat)
        last = t.settle_all()
        turn = next(n for n in (0, 1, 2) if last[n]["view"]["to_act"])
        other = next(n for n in (0, 1, 2) if n != turn)
        t.sockets[other].send_json({"type": "move", "move": "draw", "id": 5})
        refused = t.read(other)
        assert refused["type"] == "error" and refused["id"] == 5
        t.sockets[other].send_json({"type": "hint", "id": 6})
        assert t.read(other)["type"] == "error"
        t.sockets[turn].send_json({"type": "hint", "id": 7})
        hint = t.read(turn)
        assert hint["type"] == "hint" and hint["id"] == 7
        t.sockets[other].send_json({"type": "undo"})
        assert t.read(other)["type"] == "error"
        t.sockets[turn].send_json({"type": "say", "say": "good_luck"})
        for seat in (0, 1, 2):
            assert t.read(seat) == {"type": "said", "seat": turn, "say": "good_luck"}
    finally:
        t.close()


def test_the_match_socket_needs_a_seated_key(client: TestClient) -> None:
    t = Seated(client, "classic", 4, [0, 2])
    try:
        bad = [("A" * 30, 4403)]
        for key, code in bad:
            with client.websocket_connect(f"/ws/tables/{t.id}/play") as ws:
                ws.send_json({"type": "hello", "key": key})
                message = ws.receive_json()
                assert message["type"] == "error" and "view" not in message
                with pytest.raises(WebSocketDisconnect) as e:
                    ws.receive_json()
                assert e.value.code == code
        # The match of a table is not open through the one-person game's socket.
        with pytest.raises(WebSocketDisconnect) as e, \
                client.websocket_connect(f"/ws/games/{t.game}/0") as ws:
            ws.send_json({"type": "hello", "key": DEVICE["X-Canasta-Device"]})
            ws.receive_json()
        assert e.value.code == 4403
        watcher = t.connect(None)
        seen = t.settle(None)
        assert seen["view"]["hand"] == [] and seen["view"]["seat"] is None
        watcher.send_json({"type": "move", "move": "draw"})
        assert t.read(None)["type"] == "error"
        watcher.send_json({"type": "say", "say": "hello"})
        assert t.read(None)["type"] == "error"
    finally:
        t.close()


def test_a_table_match_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db)) as client:
        t = Seated(client, "classic", 2, [0, 1])
        t.connect(0)
        t.connect(1)
        last = t.settle_all()
        seat = 0 if last[0]["view"]["to_act"] else 1
        t.sockets[seat].send_json({"type": "move", "move": "draw"})
        before = t.settle_all()[seat]["view"]
        t.close()
    with TestClient(create_app(db)) as client:
        t.client = client
        t.sockets, t.contexts = {}, []
        t.connect(seat)
        after = t.settle(seat)
        assert after["view"]["hand"] == before["hand"]
        assert after["view"]["history"] == before["history"]
        assert after["people"][1 - seat]["name"] in ("Ana", "P1")
        t.close()


def open_tab(t: Seated, seat: int) -> Any:
    """A second socket of ``seat`` (another tab), its first state read."""
    cm = t.client.websocket_connect(f"/ws/tables/{t.id}/play")
    ws = cm.__enter__()
    t.contexts.append(cm)
    ws.send_json({"type": "hello", "key": t.keys[seat]})
    assert ws.receive_json()["type"] == "state"
    return ws


def drain(ws: Any, rid: int) -> list[dict[str, Any]]:
    """What ``ws`` was sent up to the answer of a sync with id ``rid`` (sent here)."""
    ws.send_json({"type": "sync", "id": rid})
    out = []
    while True:
        msg = ws.receive_json()
        out.append(msg)
        if msg.get("id") == rid:
            return out


def test_double_clicks_and_two_tabs_acting_at_once_make_one_move(client: TestClient) -> None:
    t = Seated(client, "classic", 2, [0, 1])
    try:
        for seat in (0, 1):
            t.connect(seat)
        last = t.settle_all()
        seat = 0 if last[0]["view"]["to_act"] else 1
        tab = open_tab(t, seat)
        before = len(t.session.state.history)
        # The same draw: twice from one tab (a double click), once from another, and the
        # other person drawing out of turn, all at once.
        t.sockets[seat].send_json({"type": "move", "move": "draw", "id": 1})
        t.sockets[seat].send_json({"type": "move", "move": "draw", "id": 2})
        tab.send_json({"type": "move", "move": "draw", "id": 3})
        t.sockets[1 - seat].send_json({"type": "move", "move": "draw", "id": 4})
        answers = {}
        for ws, ids in ((t.sockets[seat], (1, 2)), (tab, (3,)), (t.sockets[1 - seat], (4,))):
            for msg in drain(ws, 99):
                if msg.get("id") in ids:
                    answers[msg["id"]] = msg["type"]
        assert sorted(answers.values()) == ["error", "error", "error", "state"]
        history = t.session.state.history
        assert len(history) == before + 1 and str(history[-1][1]) == "draw"
        replay(t.session.record())  # the stored game is one consistent game
    finally:
        t.close()


def test_a_move_racing_an_undo_gives_one_consistent_game(client: TestClient,
                                                         make_position: Any) -> None:
    t = Seated(client, "classic", 2, [0, 1])
    try:
        t.connect(0)
        t.connect(1)
        t.settle_all()
        live = client.app.state.hub.games[t.game]  # type: ignore[attr-defined]
        # Seat 0 has drawn and may meld three fives, then discard (a match from this
        # position: undo plays the turn again from where it began).
        live.session.table.match = Match.from_position(make_position(
            players=2, hands=[["5S", "5H", "5D", "9C", "KH"], ["6C", "7C", "8C"]],
            melds=[[["QH", "QD", "QS"]], []], discard=["3C"],
            stock=["4H", "5C", "6H", "7H", "8H", "9H"], phase="play"))
        t.sockets[0].send_json({"type": "move", "move": "meld 5S 5H 5D"})
        assert t.sync(0)["can_undo"]
        tab = open_tab(t, 0)
        t.sockets[0].send_json({"type": "undo", "id": 10})
        tab.send_json({"type": "move", "move": "discard 9C", "id": 11})
        first = {m.get("id"): m for m in drain(t.sockets[0], 98)}
        second = {m.get("id"): m for m in drain(tab, 97)}
        state = t.session.state
        kinds = [str(m) for _, m in state.history]
        assert second[11]["type"] == "state", second[11]  # the discard is legal either way
        if first[10]["type"] == "state":  # the undo came first: the fives went back to hand
            assert kinds == ["discard 9C"], kinds
        else:  # the discard came first: the turn is over, nothing to undo
            assert first[10]["type"] == "error" and kinds == ["meld 5S 5H 5D", "discard 9C"]
        final0, final_tab = t.sync(0), drain(tab, 96)[-1]
        assert final0["view"] == final_tab["view"]  # both tabs show the same game
    finally:
        t.close()


def test_reconnecting_in_the_middle_of_the_computers_turns(client: TestClient) -> None:
    t = Seated(client, "classic", 4, [0, 2], levels="expert")
    try:  # (the friend's seat played by a computer: three computer players after seat 0)
        assert client.post(f"/api/tables/{t.id}/seats/2", json={"computer": True},
                           headers=with_key(t.keys[0])).status_code == 200
        t.connect(0)
        last = t.settle(0)
        me = BasicPlayer(2)
        for _ in range(6):  # moves that hand the turn to three computer players each time
            if not last["view"]["to_act"] or last["view"]["result"] is not None:
                break
            t.sockets[0].send_json({"type": "move", "move": str(me.choose(t.session.view(0)))})
            tab = open_tab(t, 0)  # at once: while the computer players are at it
            states = [m for m in drain(tab, 1) if m["type"] == "state"]
            t.quiet()
            states += [m for m in drain(tab, 2) if m["type"] == "state"]
            histories = [s["view"]["history"] for s in states
                         if s["view"]["hand_number"] == states[-1]["view"]["hand_number"]]
            for a, b in pairwise(histories):
                assert b[:len(a)] == a  # never a lost, undone or duplicated move
            truth = t.session.view_json(0)
            assert states[-1]["view"]["history"] == truth["history"]
            assert states[-1]["view"]["hand"] == truth["hand"]
            last = t.sync(0)
    finally:
        t.close()


def test_each_person_replays_their_own_seat_only(client: TestClient) -> None:
    t = Seated(client, "classic", 2, [0, 1])
    try:
        t.connect(0)
        t.connect(1)
        last = t.settle_all()
        seat = 0 if last[0]["view"]["to_act"] else 1
        t.sockets[seat].send_json({"type": "move", "move": "draw"})
        t.settle_all()
        for n in (0, 1):
            r = client.get(f"/api/tables/{t.id}/replay?hand=1", headers=with_key(t.keys[n]))
            assert r.status_code == 200, r.text
            frames = r.json()["frames"]
            assert len(frames) == 2 and frames[1]["move"] == "draw"
            truth = t.session.view_json(n)
            assert frames[-1]["view"]["seat"] == n
            assert frames[-1]["view"]["hand"] == truth["hand"]
            assert frames[-1]["view"]["names"] == ["Ana", "P1"]
        r = client.get(f"/api/tables/{t.id}/replay", headers=with_key(key_of(t.links["watch"])))
        assert r.status_code == 403 and r.json()["code"] == "table.not_seated"
        # Not through the one-person games' replay, which is seat 0's to whoever asks.
        assert client.get(f"/api/games/{t.game}/replay").status_code == 403
    finally:
        t.close()


def test_the_turn_clock_lets_a_computer_play_an_absent_persons_turn(
        client: TestClient) -> None:
    client.app.state.lobby.clock_unit = 0.005  # type: ignore[attr-defined]  # 30 s: 0.15 s
    t = Seated(client, "classic", 2, [0, 1], clock=30)
    try:
        t.connect(0)
        me = BasicPlayer(3)
        last = t.settle(0)
        played_for = 0
        deadline = time.monotonic() + 20
        while played_for < 2 and t.session.state.result is None:
            assert time.monotonic() < deadline, "the clock did not play for the absent one"
            if last["view"]["to_act"]:
                t.sockets[0].send_json({"type": "move",
                                        "move": str(me.choose(t.session.view(0)))})
                last = t.settle(0)
                continue
            before = len(t.session.state.history)
            while len(t.session.state.history) == before:
                assert time.monotonic() < deadline
                time.sleep(0.01)
            last = t.settle(0)
            assert last["view"]["history"][before][0] == 1  # a move of P1's seat
            assert not last["people"][1]["computer"]  # and the seat stays P1's
            played_for += 1
    finally:
        t.close()


def test_the_turn_clock_never_hurries_a_person_who_is_there(client: TestClient) -> None:
    client.app.state.lobby.clock_unit = 0.002  # type: ignore[attr-defined]
    t = Seated(client, "classic", 2, [0, 1], clock=30)
    try:
        t.connect(0)
        t.connect(1)
        last = t.settle_all()
        before = len(t.session.state.history)
        time.sleep(0.5)  # many clock periods
        assert len(t.session.state.history) == before
        assert any(last[n]["view"]["to_act"] for n in (0, 1))
    finally:
        t.close()


def test_each_person_has_their_own_language(client: TestClient) -> None:
    t = Seated(client, "classic", 2, [0, 1])
    try:
        t.connect(0)
        t.connect(1)
        last = t.settle_all()
        waiting = 1 if last[0]["view"]["to_act"] else 0
        t.sockets[waiting].send_json({"type": "lang", "lang": "es", "id": 1})
        assert t.sync(waiting)["type"] == "state"
        for seat in (0, 1):  # out of turn for one, a bad move for the other
            t.sockets[seat].send_json({"type": "move", "move": "discard 2X", "id": 2})
        answers = {}
        for seat in (0, 1):
            while True:
                msg = t.read(seat)
                if msg.get("id") == 2:
                    answers[seat] = msg
                    break
        assert answers[waiting]["message"] != answers[waiting]["english"]  # in Spanish
        other = 1 - waiting
        assert answers[other]["message"] == answers[other]["english"]  # still English
    finally:
        t.close()


# --- between two hands, quick messages, each person's language ----------------------------------
def end_the_hand(t: Seated, make_position: Any) -> dict[str, Any]:
    """Seat 0 goes out at once (a position set on the live match: three fives melded, the last
    card discarded): the hand is over, its score sheet shown; seat 0's state after it."""
    live = t.client.app.state.hub.games[t.game]  # type: ignore[attr-defined]
    live.session.table.match.state = make_position(
        hands=[["5H", "5D", "5S", "9C"], ["6C", "7C", "8C"], ["8D", "9D", "JD"],
               ["TC", "JC", "QC"]],
        melds=[[["KH", "KD", "KS", "KC", "KH", "KD", "KS"], ["QH", "QD", "QS"]], []],
        discard=["3C"], stock=["4H", "5C", "6H", "7H", "8H", "9H"], phase="play")
    for move in ("meld 5H 5D 5S", "discard 9C"):
        t.sockets[0].send_json({"type": "move", "move": move})
        t.settle(0)
    ended = t.sync(0)
    assert ended["view"]["result"] is not None and ended["view"]["hand_number"] == 1
    return ended


def test_the_next_hand_waits_for_every_person_there_but_not_for_one_away(
        client: TestClient, make_position: Any) -> None:
    t = Seated(client, "classic", 4, [0, 1, 2])  # seat 2's person never comes
    try:
        t.connect(0)
        t.connect(1)
        end_the_hand(t, make_position)
        for _ in range(2):  # (asking twice is asking once: no error)
            t.sockets[1].send_json({"type": "next_hand"})
            seen = t.settle(1)
            assert seen["view"]["hand_number"] == 1 and seen["view"]["result"] is not None
        assert [p["ready"] for p in t.sync(0)["people"]] == [False, True, False, False]
        t.sockets[0].send_json({"type": "next_hand"})  # the last one there: dealt
        dealt = t.settle(0)
        assert dealt["view"]["hand_number"] == 2 and dealt["view"]["result"] is None
        assert not any(p["ready"] for p in dealt["people"])
        assert t.sync(1)["view"]["hand_number"] == 2
    finally:
        t.close()


def test_the_host_deals_without_waiting_for_a_person_who_left_the_sheet_open(
        client: TestClient, make_position: Any) -> None:
    t = Seated(client, "classic", 4, [0, 1, 2])
    try:
        for seat in (0, 1, 2):
            t.connect(seat)
        end_the_hand(t, make_position)
        t.sockets[1].send_json({"type": "deal_now", "id": 3})  # not the host: refused
        while (refused := t.read(1)).get("id") != 3:
            pass
        assert refused["type"] == "error" and refused["code"] == "web.host_deals"
        assert t.session.state.hand_number == 1 and not t.session.ready
        t.sockets[0].send_json({"type": "next_hand"})
        assert t.settle(0)["view"]["hand_number"] == 1  # seats 1 and 2 still read the sheet
        t.sockets[0].send_json({"type": "deal_now"})
        dealt = t.settle(0)
        assert dealt["view"]["hand_number"] == 2 and dealt["view"]["result"] is None
        assert not any(p["ready"] for p in dealt["people"])
        assert t.sync(2)["view"]["hand_number"] == 2
        t.sockets[0].send_json({"type": "deal_now", "id": 4})  # a hand is being played
        while (refused := t.read(0)).get("id") != 4:
            pass
        assert refused["code"] == "web.hand_not_over"
        assert t.session.state.hand_number == 2
    finally:
        t.close()


def test_a_person_leaving_deals_the_hand_they_alone_held_up(
        client: TestClient, make_position: Any) -> None:
    t = Seated(client, "classic", 4, [0, 1])
    try:
        t.connect(0)
        t.connect(1)
        end_the_hand(t, make_position)
        t.sockets[1].send_json({"type": "next_hand"})
        t.settle(1)
        assert t.session.state.hand_number == 1  # seat 0 reads the score sheet
        t.sockets[0].close()
        deadline = time.monotonic() + 10
        while t.session.state.hand_number == 1:
            assert time.monotonic() < deadline, "the hand was not dealt"
            time.sleep(0.01)
        seen = t.settle(1)
        assert seen["view"]["hand_number"] == 2 and not seen["people"][0]["present"]
    finally:
        t.close()


def test_a_clock_table_deals_the_next_hand_after_its_clock(
        client: TestClient, make_position: Any) -> None:
    client.app.state.lobby.clock_unit = 0.005  # type: ignore[attr-defined]  # 30 s: 0.15 s
    t = Seated(client, "classic", 4, [0, 1], clock=30)
    try:
        t.connect(0)
        t.connect(1)
        end_the_hand(t, make_position)  # nobody presses "next hand"
        deadline = time.monotonic() + 10
        while t.session.state.hand_number == 1:
            assert time.monotonic() < deadline, "the clock did not deal"
            time.sleep(0.01)
        assert t.settle(1)["view"]["hand_number"] == 2
    finally:
        t.close()


def table_socket(t: Seated, seat: int, **hello: Any) -> Any:
    """``seat``'s table socket (the lobby's), its first lobby read."""
    cm = t.client.websocket_connect(f"/ws/tables/{t.id}")
    ws = cm.__enter__()
    t.contexts.append(cm)
    ws.send_json({"type": "hello", "key": t.keys[seat], **hello})
    assert ws.receive_json()["type"] == "lobby"
    return ws


def test_quick_messages_are_limited_per_person_over_both_sockets(client: TestClient) -> None:
    now = [1000.0]
    client.app.state.lobby.quick.clock = lambda: now[0]  # type: ignore[attr-defined]
    t = Seated(client, "classic", 2, [0, 1])
    try:
        t.connect(0)
        t.connect(1)
        t.settle_all()
        lobby = table_socket(t, 1, lang="es")
        for _ in range(QUICK_MOST):  # the table's socket and the match's count together
            lobby.send_json({"type": "say", "say": "hurry_up"})
            assert lobby.receive_json()["type"] == "said"
        t.sockets[1].send_json({"type": "say", "say": "hurry_up", "id": 3})
        while (refused := t.read(1)).get("id") != 3:
            pass
        assert refused["type"] == "error" and refused["code"] == "table.quick_too_many"
        lobby.send_json({"type": "say", "say": "hurry_up"})
        too_many = lobby.receive_json()
        assert too_many["type"] == "error" and too_many["code"] == "table.quick_too_many"
        assert too_many["params"] == {"most": QUICK_MOST, "seconds": 60}
        assert too_many["error"] != too_many["english"]  # in Spanish, as its hello asked
        # The other person is not held back by seat 1's messages.
        t.sockets[0].send_json({"type": "say", "say": "sorry"})
        assert t.read(0) == {"type": "said", "seat": 0, "say": "sorry"}
        now[0] += 61  # a minute later
        t.sockets[1].send_json({"type": "say", "say": "thanks", "id": 4})
        while (msg := t.read(1)).get("type") != "said" or msg["seat"] != 1:
            assert msg.get("id") != 4, msg  # (an error would carry its id)
        assert msg == {"type": "said", "seat": 1, "say": "thanks"}
    finally:
        t.close()


def stored_langs(client: TestClient, table_id: str) -> list[str | None]:
    data = client.app.state.lobby.store.load_table(table_id)  # type: ignore[attr-defined]
    return [s["lang"] for s in data["seats"]]


def wait_for(check: Any, what: str) -> None:
    deadline = time.monotonic() + 10
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def test_a_persons_language_is_kept_with_their_seat_across_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db)) as client:
        t = Seated(client, "classic", 2, [0, 1])
        assert stored_langs(client, t.id) == ["en", None]  # the host's: the table's own
        table_socket(t, 1, lang="es")  # said once, in a hello
        wait_for(lambda: stored_langs(client, t.id) == ["en", "es"], "not stored")
        t.close()
    with TestClient(create_app(db)) as client:  # a restart; hellos that name no language
        t.client, t.sockets, t.contexts = client, {}, []
        try:
            t.connect(1)
            t.sockets[1].send_json({"type": "move", "move": "discard 2X", "id": 1})
            while (refused := t.read(1)).get("id") != 1:
                pass
            assert refused["type"] == "error" and refused["message"] != refused["english"]
            lobby = table_socket(t, 1)
            lobby.send_json({"type": "say", "say": "nope"})
            wrong = lobby.receive_json()
            assert wrong["error"].lower() != wrong["english"].lower()  # in Spanish
            # Changing it in the page (the match's socket) stores it too.
            t.sockets[1].send_json({"type": "lang", "lang": "en", "id": 2})
            while t.read(1).get("id") != 2:
                pass
            wait_for(lambda: stored_langs(client, t.id) == ["en", "en"], "the change not stored")
            lobby.send_json({"type": "say", "say": "nope"})
            while (wrong := lobby.receive_json())["type"] == "lobby":
                pass  # (the change was announced)
            assert wrong["error"].lower() == wrong["english"].lower()  # (the lobby's too)
            # ... and over the table's socket, which answers with the lobby.
            lobby.send_json({"type": "lang", "lang": "es"})
            assert lobby.receive_json()["type"] == "lobby"
            assert stored_langs(client, t.id) == ["en", "es"]
            lobby.send_json({"type": "lang", "lang": "xx"})
            bad = lobby.receive_json()
            assert bad["code"] == "table.bad_request" and stored_langs(client, t.id)[1] == "es"
            t.sockets[1].send_json({"type": "move", "move": "discard 2X", "id": 3})
            while (refused := t.read(1)).get("id") != 3:
                pass
            assert refused["message"] != refused["english"]  # the match follows the lobby's
        finally:
            t.close()


def person(n: int) -> dict[str, str]:
    return {"X-Canasta-Device": f"person-{n}-" + "x" * 30}


def test_each_person_has_their_own_statistics_and_games_list(
        client: TestClient, make_position: Any) -> None:
    """Ana (seat 0) and Luis (seat 1, the other side) sit down with their devices' person keys;
    Eva (seat 3) with none; seat 2 is a computer's.  Ana goes out."""
    r = client.post("/api/tables", headers=person(0), json={
        "variant": "classic", "players": 4, "name": "Ana",
        "seats": [{"friend": True}, {"level": "basic"}, {"friend": True}]})
    links = r.json()
    t = Seated.__new__(Seated)
    t.client, t.links, t.id = client, links, links["id"]
    t.keys = {0: key_of(links["host"]), 1: key_of(links["invites"]["1"]),
              3: key_of(links["invites"]["3"])}
    for n, name, headers in ((1, "Luis", person(1)), (3, "Eva", {})):
        assert client.post(f"/api/tables/{t.id}/join", json={"name": name},
                           headers={**with_key(t.keys[n]), **headers}).status_code == 200
    t.game = client.post(f"/api/tables/{t.id}/start", json={},
                         headers=with_key(t.keys[0])).json()["game"]
    t.frames, t.sockets, t.contexts, t.ids = {}, {}, [], 0
    try:
        nothing = client.get("/api/person/stats", headers=person(1)).json()
        assert nothing["games"] == 0  # (no move made yet)
        t.connect(0)
        ended = end_the_hand(t, make_position)
        scores = [b["total"] for b in ended["view"]["result"]["breakdown"]]
        assert scores[0] > scores[1]
        ana = client.get("/api/person/stats", headers=person(0)).json()
        luis = client.get("/api/person/stats", headers=person(1)).json()
        assert ana["games"] == luis["games"] == 1 and ana["hands"] == luis["hands"] == 1
        assert (ana["hands_won"], luis["hands_won"]) == (1, 0)  # each counted for their side
        assert (ana["average_hand_score"], luis["average_hand_score"]) == tuple(scores)
        assert client.get("/api/person/stats", headers=person(7)).json()["games"] == 0
        listed = client.get("/api/person/games", headers=person(1)).json()
        assert [(g["id"], g["seat"], g["table"]) for g in listed["games"]] == [
            (t.game, 1, t.id)]
        assert client.get("/api/person/games", headers=person(7)).json()["games"] == []
        # Eva's seat stands for her (her seat's key); the computer's seat has nobody.
        rows = sqlite3.connect(client.app.state.lobby.store.path).execute(  # type: ignore
            "SELECT seat FROM seatings WHERE game = ? ORDER BY seat", (t.game,)).fetchall()
        assert [r[0] for r in rows] == [0, 1, 3]
        for bad in ({"X-Canasta-Device": ""}, {"X-Canasta-Device": "short"}):
            r = client.get("/api/person/stats", headers=bad)
            assert r.status_code == 400 and r.json()["code"] == "table.person_key"
        r = client.post("/api/tables", headers={"X-Canasta-Device": "no good!"},
                        json={"name": "Ana", "seats": [{"friend": True}]})
        assert r.status_code == 400 and r.json()["code"] == "table.person_key"
    finally:
        t.close()


def lobby_of(t: Seated, key: str) -> dict[str, Any]:
    r = t.client.get(f"/api/tables/{t.id}", headers=with_key(key))
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def test_who_is_here_is_one_truth_for_the_table_page_and_the_match(client: TestClient) -> None:
    """The table's page marked the people playing as away (a third visitor saw everybody away,
    and the host was offered to hand a present player's seat to a computer): a person is here
    when either page of the table is open, and both pages say the same."""
    t = Seated(client, "classic", 4, [0, 1, 3])
    watch = key_of(t.links["watch"])

    def present_on_page() -> list[bool]:
        return [s["present"] for s in lobby_of(t, watch)["seats"]]

    try:
        host = table_socket(t, 0)  # the host's table page, before anyone plays
        t.connect(0)
        t.connect(1)  # P1 plays; P3 is on the table's page only
        with client.websocket_connect(f"/ws/tables/{t.id}") as on_page:
            on_page.send_json({"type": "hello", "key": t.keys[3]})
            assert on_page.receive_json()["type"] == "lobby"
            assert present_on_page() == [True, True, False, True]  # a third visitor's lobby
            assert [p["present"] for p in t.settle(0)["people"]] == [True, True, False, True]
            while (msg := host.receive_json())["type"] != "lobby" \
                    or not msg["seats"][1]["present"]:
                pass  # the table page hears the match's sockets open
            r = client.post(f"/api/tables/{t.id}/seats/3", json={"computer": True},
                            headers=with_key(t.keys[0]))
            assert r.status_code == 409 and r.json()["code"] == "table.present"
        # P3 leaves: both pages say so
        wait_for(lambda: not present_on_page()[3], "P3 away on the page")
        assert not t.settle(0)["people"][3]["present"]
        t.sockets[1].close()  # P1 leaves the match
        wait_for(lambda: not present_on_page()[1], "P1 away on the page")
        assert present_on_page() == [True, False, False, False]
    finally:
        t.close()


def test_every_key_of_the_table_watches_its_started_match(client: TestClient) -> None:
    """Once started, the table's link ("any free seat") and an invite whose seat went to a
    computer player find no seat: they watch, with no card of any hand."""
    r = client.post("/api/tables", json={"variant": "classic", "players": 4, "name": "Ana",
                                         "seats": [{"friend": True}, {"level": "basic"},
                                                   {"friend": True}]})
    links = r.json()
    tid, host = links["id"], with_key(links["host"])
    client.post(f"/api/tables/{tid}/fill", json={}, headers=host)  # seat 1's invite unused
    assert client.post(f"/api/tables/{tid}/start", json={}, headers=host).status_code == 200
    for link in (links["table"], links["invites"]["1"]):
        with client.websocket_connect(f"/ws/tables/{tid}/play") as ws:
            ws.send_json({"type": "hello", "key": key_of(link)})
            seen = ws.receive_json()
            assert seen["type"] == "state" and seen["view"]["seat"] is None
            assert seen["view"]["hand"] == [] and not CARD.search(json.dumps(seen["view"]["legal"]))
            ws.send_json({"type": "move", "move": "draw", "id": 1})
            while (msg := ws.receive_json()).get("id") != 1:
                pass
            assert msg["type"] == "error"


def test_new_links_close_a_spectator_watching_with_the_old_one(client: TestClient) -> None:
    t = Seated(client, "classic", 2, [0, 1])
    try:
        t.connect(0)
        t.connect(1)
        t.connect(None)
        t.settle_all()
        r = client.post(f"/api/tables/{t.id}/links", json={}, headers=with_key(t.keys[0]))
        assert r.status_code == 200
        with pytest.raises(WebSocketDisconnect) as e:
            while True:
                t.read(None)
        assert e.value.code == 4403
        assert t.sync(1)["view"]["seat"] == 1  # the seated keep theirs
        t.links["watch"] = r.json()["watch"]
        t.connect(None)  # the new link watches
        assert t.settle(None)["view"]["seat"] is None
    finally:
        t.close()
