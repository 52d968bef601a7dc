"""A game read again from the store between two hands (a restart of the server, or a game that
left memory on a busy server) is the game it was: its ended hand is scored once, the next hand
is dealt, and it opens again after that (issue 32, item 1).  A game that a server from before
the fix damaged that way opens repaired: its scores are worked out again from its moves, the
player is told, the log says what changed and the damaged record is kept."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from canasta.bots.basic import BasicPlayer
from canasta.records import rebuild, record_of, replay
from canasta.web.app import create_app
from canasta.web.session import GameSession
from test_web_server import MINE, change_row, game_socket, new_game, session_of, stored_record
from test_web_table_play import Seated

TABLES = [("classic", 2), ("classic", 3), ("classic", 4), ("modern-american", 4),
          ("ponytail", 4), ("ponytail", 6)]


def finish_hand(session: GameSession) -> None:
    """Play the hand in progress to its end in the server's process (the people's seats as the
    basic player would), as quickly as the engine goes."""
    people = {seat: BasicPlayer(40 + seat) for seat in session.table.people()}
    for seat, player in people.items():
        player.new_hand(seat)
    while (seat := session.table.to_act()) is not None:
        if session.table.is_computer(seat):
            session.computer_step()
        else:
            session.play(seat, str(people[seat].choose(session.view(seat))))


def store_now(client: TestClient, game_id: str) -> None:
    session = session_of(client, game_id)
    client.app.state.hub.store.save(game_id, session.config.to_json(),  # type: ignore[attr-defined]
                                    session.record())


def first_messages(ws: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A socket's first state, and what else than states (the computer players' moves) came
    before the answer to a ``sync``."""
    state = ws.receive_json()
    assert state["type"] == "state", state
    ws.send_json({"type": "sync", "id": 1})
    more = []
    while (msg := ws.receive_json()).get("id") != 1:
        if msg["type"] != "state":
            more.append(msg)
    return state, more


def evict(client: TestClient, game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the server forget ``game_id`` as a busy one does: more live games than it keeps."""
    monkeypatch.setattr("canasta.web.hub.MAX_LIVE", 1)
    new_game(client)
    assert game_id not in client.app.state.hub.games  # type: ignore[attr-defined]


@pytest.mark.parametrize(("variant", "players"), TABLES)
def test_a_game_read_again_between_two_hands_counts_its_hand_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variant: str, players: int) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db), headers=MINE) as c:
        game_id = new_game(c, variant=variant, players=players,
                           levels=["basic"] * (players - 1))
        finish_hand(session_of(c, game_id))
        store_now(c, game_id)
        scores = session_of(c, game_id).match.scores
        over = session_of(c, game_id).match.over
    for again in ("restart", "evict"):
        with TestClient(create_app(db), headers=MINE) as c:
            if again == "evict":
                with game_socket(c, f"/ws/games/{game_id}/0") as ws:
                    first_messages(ws)
                evict(c, game_id, monkeypatch)
            with game_socket(c, f"/ws/games/{game_id}/0") as ws:
                state, more = first_messages(ws)
            match = state["view"]["match"]
            assert (match["hands"], match["scores"], match["over"]) == (1, scores, over), again
            assert more == []
            assert stored_record(db, game_id)["scores"] == scores
    if over:
        return
    with TestClient(create_app(db), headers=MINE) as c, \
            game_socket(c, f"/ws/games/{game_id}/0") as ws:
        first_messages(ws)
        ws.send_json({"type": "next_hand", "id": 2})
        while (msg := ws.receive_json()).get("id") != 2:
            pass
        assert msg["type"] == "state" and msg["view"]["hand_number"] == 2
    with TestClient(create_app(db), headers=MINE) as c:  # and it opens after the next deal
        with game_socket(c, f"/ws/games/{game_id}/0") as ws:
            state, more = first_messages(ws)
        assert state["view"]["hand_number"] == 2 and state["view"]["match"]["hands"] == 1
        assert state["view"]["match"]["scores"] == scores and more == []
        assert replay(stored_record(db, game_id)).scores == scores


@pytest.mark.parametrize(("variant", "players", "people"), [
    ("classic", 2, [0, 1]), ("classic", 3, [0, 2]), ("classic", 4, [0, 1]),
    ("modern-american", 4, [0, 2]), ("ponytail", 4, [0, 3]), ("ponytail", 6, [0, 3])])
def test_a_tables_match_read_again_between_two_hands_counts_its_hand_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variant: str, players: int,
        people: list[int]) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db), headers=MINE) as c:
        t = Seated(c, variant, players, people)
        finish_hand(t.session)
        store_now(c, t.game)
        scores, over = t.session.match.scores, t.session.match.over
    for again in ("restart", "evict"):
        with TestClient(create_app(db), headers=MINE) as c:
            t.client, t.sockets, t.contexts = c, {}, []
            if again == "evict":
                t.connect(0)
                t.close()
                t.contexts = []
                evict(c, t.game, monkeypatch)
            for seat in people:
                t.connect(seat)
            seen = t.settle_all()
            t.close()
            for seat in people:
                match = seen[seat]["view"]["match"]
                assert (match["hands"], match["scores"], match["over"]) == (1, scores, over)
    if over:
        return
    with TestClient(create_app(db), headers=MINE) as c:
        t.client, t.sockets, t.contexts = c, {}, []
        for seat in people:
            t.connect(seat)
        for seat in people:  # (dealt once every person there has asked)
            t.sockets[seat].send_json({"type": "next_hand"})
            t.sync(seat)
        assert t.settle_all()[people[0]]["view"]["hand_number"] == 2
        t.close()
    with TestClient(create_app(db), headers=MINE) as c:
        t.client, t.sockets, t.contexts = c, {}, []
        t.connect(people[-1])
        view = t.settle(people[-1])["view"]
        t.close()
        assert view["hand_number"] == 2 and view["match"]["scores"] == scores


def damage(session: GameSession, deal_next: bool) -> dict[str, Any]:
    """The record a server before the fix stored: it read the game again after its first hand
    ended and scored that hand a second time (then, with ``deal_next``, dealt the next hand
    from the doubled scores and played on a little)."""
    match = session.match
    match._score(match.results[0])  # what the old reload did
    if deal_next and not match.over:
        session.table.next_hand()
        for _ in range(6):
            seat = session.table.to_act()
            assert seat is not None
            if session.table.is_computer(seat):
                session.computer_step()
            else:
                session.play(seat, str(session.view(seat).legal_moves[0]))
        # Stopped where a person is to act: the computer players have nothing to play when
        # the people connect again, so that nothing is stored before each has been told (the
        # notice is news only until the game goes on).
        while (seat := session.table.to_act()) is not None and session.table.is_computer(seat):
            session.computer_step()
    return record_of(match)


@pytest.mark.parametrize("deal_next", [False, True])
def test_a_game_damaged_by_an_older_server_opens_repaired(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, deal_next: bool) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db), headers=MINE) as c:
        game_id = new_game(c, variant="classic", players=2, target=10000, levels=["basic"],
                           lang="es")
        session = session_of(c, game_id)
        finish_hand(session)
        good = session.match.scores
        damaged = damage(session, deal_next)
        assert session.match.scores == [2 * s for s in good]
    change_row(db, game_id, "record", lambda _: json.dumps(damaged))
    with pytest.raises(ValueError, match="does not replay"):
        replay(damaged)
    with TestClient(create_app(db), headers={**MINE, "Accept-Language": "es"}) as c:
        # The replay of a damaged game not yet opened already shows it as its moves made it.
        frames = c.get(f"/api/games/{game_id}/replay?hand=1").json()["frames"]
        assert frames[-1]["view"]["match"]["scores"] == good
        with caplog.at_level("WARNING", logger="canasta.web"), \
                game_socket(c, f"/ws/games/{game_id}/0") as ws:
            state, more = first_messages(ws)
        match = state["view"]["match"]
        assert match["hands"] == 1 and match["scores"] == good and not match["over"]
        assert state["view"]["hand_number"] == (2 if deal_next else 1)
        assert [m["type"] for m in more] == ["notice"] and more[0]["code"] == "web.repaired"
        assert more[0]["params"] == {}
        assert "reparado" in more[0]["message"]  # in the game's language
        assert f"game {game_id} was repaired" in caplog.text and "scores" in caplog.text
        listed = {g["id"]: g for g in c.get("/api/games").json()["games"]}
        assert listed[game_id]["scores"] == good
        # The notice is news until the game goes on: once a move is stored, it is not sent.
        if not deal_next:
            with game_socket(c, f"/ws/games/{game_id}/0") as ws:
                first_messages(ws)
                ws.send_json({"type": "next_hand", "id": 2})
                while ws.receive_json().get("id") != 2:
                    pass
            with game_socket(c, f"/ws/games/{game_id}/0") as ws:
                assert first_messages(ws)[1] == []
    stored = stored_record(db, game_id)
    assert replay(stored).scores == good  # stored repaired: it replays as it is
    con = sqlite3.connect(db)
    kept = con.execute("SELECT record, why FROM repairs WHERE game = ?", (game_id,)).fetchall()
    con.close()
    assert len(kept) == 1 and json.loads(kept[0][0]) == damaged and "scores" in kept[0][1]


def test_rebuild_leaves_out_the_hands_played_after_the_true_end() -> None:
    """Doubled scores could keep a match going that its true scores end: the repair ends it
    where the rules do and says how many recorded hands it leaves out."""
    from canasta.match import Match
    from canasta.rules import Rules
    from canasta.table import Table

    rules = Rules.make("classic", 2, target=10000)
    table = Table(rules, 3, {0: BasicPlayer(1), 1: BasicPlayer(2)})
    for _ in range(2):
        table.play_computers()
        if table.match.over:
            break
        table.next_hand()
    table.play_computers()
    record = record_of(table.match)
    first = table.match.results[0].scores
    record["rules"]["options"]["target"] = max(1, max(first))  # hand 1 ends this match
    assert isinstance(table.match, Match)
    rebuilt = rebuild(record)
    assert rebuilt.dropped == len(record["hands"]) - 1
    assert len(rebuilt.record["hands"]) == 1 and rebuilt.record["over"] is True
    assert any(hand is None and name == "over" for hand, name, _, _ in rebuilt.changes)


def test_a_tables_match_damaged_by_an_older_server_opens_repaired(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db), headers=MINE) as c:
        t = Seated(c, "classic", 4, [0, 2], target=10000)
        finish_hand(t.session)
        good = t.session.match.scores
        damaged = damage(t.session, deal_next=True)
    change_row(db, t.game, "record", lambda _: json.dumps(damaged))
    with TestClient(create_app(db), headers=MINE) as c:
        t.client, t.sockets, t.contexts = c, {}, []
        notices = []
        try:
            for seat in (0, 2):  # each person is told, right after their first state
                t.connect(seat)
                notices.append(t.read(seat))
            seen = t.settle_all()
        finally:
            t.close()  # (a socket left open would keep the test client from closing)
    assert [n.get("code") for n in notices] == ["web.repaired", "web.repaired"], notices
    for seat in (0, 2):
        assert seen[seat]["view"]["match"]["scores"] == good
        assert seen[seat]["view"]["hand_number"] == 2
    assert replay(stored_record(db, t.game)).scores == good
