"""The `canasta` command: exit status 0/1/2, clear messages, no tracebacks."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from canasta.cli import main

from conftest import ROOT

CLASSIC = ROOT / "tests" / "scenarios" / "classic"


def run(*args: str, stdin: str = "", lang: str = "en_US.UTF-8",
        columns: int = 200) -> subprocess.CompletedProcess[str]:
    """The command's run, in the locale ``lang`` (the terminal game speaks its language), on a
    terminal ``columns`` wide (the terminal game wraps its lines to it)."""
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    return subprocess.run([sys.executable, "-m", "canasta.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=120,
                          env={**env, "LANG": lang, "COLUMNS": str(columns)})


def test_scenario_all_pass(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", str(CLASSIC)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1].endswith(" passed, 0 failed")
    assert all(line.startswith("PASS ") for line in out[:-1])


def test_scenario_failure_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sc = json.loads((CLASSIC / "threes.json").read_text())[0]
    sc["expect"]["stock_size"] = 99
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(sc))
    assert main(["scenario", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("FAIL ") and "stock_size: expected 99, got 1" in out[0]
    assert out[-1] == "0 passed, 1 failed"


@pytest.mark.parametrize(("content", "message"), [
    ("{oops", "not valid JSON"),
    ('{"name": "x"}', "not a valid scenario"),
    ('{"name": "x", "variant": "classic", "players": 4, "scores": [0, 0], "turn": 0, '
     '"phase": "draw", "hands": [["ZZ"], [], [], []], "melds": [[], []], "threes": [[], []], '
     '"discard": [], "stock": []}', "bad position"),
])
def test_malformed_scenario_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert main(["scenario", str(path)]) == 2
    out = capsys.readouterr().out
    assert "FAIL " in out and message in out and "Traceback" not in out


def test_scenario_folder_without_scenarios_exit_2(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    notes = tmp_path / "notes"
    (notes / "deeper").mkdir(parents=True)
    (notes / "deeper" / "readme.txt").write_text("no scenario here\n")
    for paths in ([empty], [notes], [CLASSIC / "threes.json", notes]):
        assert main(["scenario", *map(str, paths)]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err == f"canasta: no scenario found in {paths[-1]}\n"


def test_simulate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--variant", "classic", "--players", "3", "--hands", "5",
                 "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert "hands per second" in out and "moves per hand" in out and "mean score" in out


def test_simulate_refuses_fewer_than_one_hand(capsys: pytest.CaptureFixture[str]) -> None:
    for hands in ("0", "-3"):
        assert main(["simulate", "--hands", hands]) == 2
        assert capsys.readouterr().err == "canasta: --hands must be at least 1\n"


def test_simulate_modern_american(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--variant", "modern-american", "--hands", "3", "--seed", "2"]) == 0
    assert "Modern American Canasta, 4 players" in capsys.readouterr().out


def test_simulate_ponytail_six(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--variant", "ponytail", "--players", "6", "--hands", "2"]) == 0
    assert "Ponytail Canasta, 6 players" in capsys.readouterr().out


def test_house_rules_from_the_command_line(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    from canasta.arena import ArenaConfig

    assert main(["simulate", "--variant", "ponytail", "--hands", "1", "--seed", "3",
                 "--option", "required_canastas=four-books",
                 "--option", "count_unpicked_ponytails=true"]) == 0
    assert "Ponytail Canasta" in capsys.readouterr().out
    assert main(["arena", "--variant", "classic", "--team", "random,random", "--vs",
                 "random,random", "--deals", "1", "--executor", "serial", "--json",
                 "--option", "wild_ratio=not-more-wilds"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["deals"] == 1 and report["options"] == {"wild_ratio": "not-more-wilds"}
    config = ArenaConfig("ponytail", 4, ("basic",), ("basic",), 1,
                         options=(("minimum_by", "hand"),))
    assert config.rules().option("minimum_by") == "hand"
    path = tmp_path / "game.json"
    result = run("play", "--text", "--variant", "ponytail", "--seed", "4", "--save", str(path),
                 "--option", "required_canastas=four-books", stdin="quit\n")
    assert result.returncode == 0, result.stderr
    record = json.loads(path.read_text())
    assert record["rules"]["options"]["required_canastas"] == "four-books"
    assert ("Table options: Canastas needed to go out: Natural, mixed, sevens and wild cards "
            "(four books)" in result.stdout)


def test_play_text_table_penalties() -> None:
    # Seed 1 deals seat 0 three nines: 30 points, below the initial meld's 50.
    result = run("play", "--text", "--seed", "1", "--option", "table_penalties_mode=true",
                 stdin="draw\nmeld 9C 9C 9D\nquit\n")
    assert result.returncode == 0, result.stderr
    assert ("Your initial meld was below the minimum (50): taken back, 100 penalty points."
            in result.stdout)


def test_replay_prints_scores(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = run("play", "--text", "--seed", "4", "--save", str(path), stdin="draw\nquit\n")
    assert result.returncode == 0, result.stderr
    result = run("replay", str(path))
    assert result.returncode == 0 and "hand 1 in progress" in result.stdout


def test_bad_input_exit_2_without_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[1]")
    for args in (["replay", str(bad)], ["replay", str(tmp_path / "none.json")],
                 ["simulate", "--players", "5"],
                 ["simulate", "--variant", "modern-american", "--players", "2"],
                 ["simulate", "--option", "wild_ratio"],
                 ["simulate", "--option", "wild_ratio=loose"],
                 ["simulate", "--option", "required_canastas=four-books"],
                 ["simulate", "--option", "two_player_last_card_rule=pagat"],
                 ["play", "--option", "wild_ratio=not-more-wilds", "--no-browser"],
                 ["play", "--text", "--save", str(tmp_path / "none" / "game.json")],
                 ["play", "--text", "--save", str(tmp_path)]):  # (refused before the game)
        result = run(*args)
        assert result.returncode == 2
        assert result.stderr.startswith("canasta: ") and "Traceback" not in result.stderr


@pytest.mark.parametrize("command", [["simulate", "--hands", "1"],
                                     ["arena", "--deals", "1", "--executor", "serial"],
                                     ["play", "--text"]])
def test_the_table_flags_are_no_options(command: list[str],
                                        capsys: pytest.CaptureFixture[str]) -> None:
    for name, what in (("target", "the winning score"), ("players", "the number of players"),
                       ("variant", "the variant")):
        assert main([*command, "--option", f"{name}=5000"]) == 2
        assert capsys.readouterr().err == (f"canasta: unknown option '{name}' ({what} is set "
                                           f"by --{name})\n")


def test_seat_level_takes_ascii_digits_only(capsys: pytest.CaptureFixture[str]) -> None:
    from canasta.bots import LEVELS

    for item in ("²=basic", "١=basic", "x=basic", "1=genius", "=basic"):
        assert main(["play", "--text", "--seat-level", item]) == 2
        assert capsys.readouterr().err == ("canasta: --seat-level takes SEAT=LEVEL with a level "
                                           f"among {', '.join(LEVELS)}, not '{item}'\n")
    assert main(["play", "--text", "--seat-level", "4=basic"]) == 2
    assert capsys.readouterr().err == "canasta: --seat-level: seat 4 is not a computer seat\n"


def test_play_text_session() -> None:
    script = "help\ndiscard 4S\nfly away\ndraw\nscore\nquit\n"
    result = run("play", "--text", "--seed", "1", "--players", "2", stdin=script)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Your hand (15)" in out
    assert "Legal now: draw" in out
    assert "Not possible: begin your turn" in out
    assert "Not possible: unknown move 'fly'" in out
    assert "You draw from the stock: " in out
    assert "Goodbye." in out


def test_play_text_speaks_spanish_in_a_spanish_locale_or_when_asked() -> None:
    script = "ayuda\ndescartar 4P\nrobar\nbajar KH KD KC\npuntos\nsalir\n"
    for result in (run("play", "--text", "--seed", "1", "--players", "2", stdin=script,
                       lang="es_ES.UTF-8"),
                   run("play", "--text", "--seed", "1", "--players", "2", "--lang", "es",
                       stdin=script)):
        assert result.returncode == 0, result.stderr
        out = result.stdout
        assert "Tu mano (15): AT DT DC DP JT 10T 9T 9T 8T 7T 7P 6P 5T JK 3T" in out
        assert "objetivo 5.000" in out and "palos P picas, C corazones" in out
        assert "No se puede: empieza tu turno: roba del mazo o toma el pozo" in out
        assert "Tú robas del mazo: 6♣ Joker." in out
        assert "No se puede: 'KH' no es una carta" in out  # English letters are refused
        assert "Adiós." in out
    english = run("play", "--text", "--seed", "1", "--players", "2", "--lang", "en",
                  stdin="quit\n", lang="es_ES.UTF-8").stdout
    assert "Your hand (15): AC QC QH QS JC TC 9C 9C 8C 7C 7S 6S 5C JK 3C" in english


@pytest.mark.parametrize(("lang", "script", "told"), [
    ("en_US.UTF-8", "draw\nmeld QC QH QS / 9C 9C JK\nhint\nundo\nundo\nquit\n", [
        "You draw from the stock: 6♣ Joker.", "You meld Q♣ Q♥ Q♠ and 9♣ 9♣ Joker.",
        "Hint: ", "You take back Q♣ Q♥ Q♠ and 9♣ 9♣ Joker; the cards are back in your hand.",
        "Not possible: there is nothing to undo: only your melds of this turn, before you "
        "discard"]),
    ("es_ES.UTF-8", "robar\nbajar DT DC DP / 9T 9T JK\npista\ndeshacer\ndeshacer\nsalir\n", [
        "Tú robas del mazo: 6♣ Joker.", "Tú bajas Q♣ Q♥ Q♠ y 9♣ 9♣ Joker.", "Pista: ",
        "Tú retiras Q♣ Q♥ Q♠ y 9♣ 9♣ Joker; las cartas vuelven a tu mano.",
        "No se puede: no hay nada que deshacer: solo tus combinaciones de este turno, antes "
        "de descartar"]),
])
def test_play_text_tells_the_moves_in_words_gives_hints_and_undoes_in_a_narrow_terminal(
        lang: str, script: str, told: list[str]) -> None:
    result = run("play", "--text", "--seed", "1", "--players", "2", stdin=script, lang=lang,
                 columns=40)
    assert result.returncode == 0, result.stderr
    # (each prompt, ending in "> ", shares its line with what follows its answer: the answer
    # comes from a pipe, not from a typist's Enter)
    lines = [part for line in result.stdout.splitlines() for part in re.split("(?<=> )", line)]
    assert all(len(line) <= 40 for line in lines), [line for line in lines if len(line) > 40]
    flowing = " ".join(line.strip() for line in lines if not line.endswith("> "))
    at = 0
    for said in told:  # in this order
        at = flowing.index(said, at) + len(said)


def test_play_text_ends_cleanly_on_end_of_input() -> None:
    result = run("play", "--text", "--seed", "2", stdin="")
    assert result.returncode == 0 and "Goodbye." in result.stdout


def test_python_dash_m_canasta_is_the_canasta_command() -> None:
    out = subprocess.run([sys.executable, "-m", "canasta", "play", "--help"], capture_output=True,
                         text=True, check=True).stdout
    assert "--text" in out and "master" in out


def test_the_help_lists_the_levels_the_registry_holds(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    import canasta.bots

    monkeypatch.setattr(canasta.bots, "LEVELS", (*canasta.bots.LEVELS, "genius"))
    for command in ("play", "strategy"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert "master, genius" in " ".join(capsys.readouterr().out.split())


def free_port() -> int:
    """A port nothing listens on now (the system's choice)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_serve_where_it_cannot_listen_says_why_and_exits_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("uvicorn")
    db = tmp_path / "games.sqlite3"
    for command in (["serve"], ["play"]):
        for port in ("0", "-1", "65536", "99999"):
            assert main([*command, "--no-browser", "--db", str(db), "--port", port]) == 2
            assert capsys.readouterr().err == "canasta: --port must be 1 to 65535\n"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--no-browser", "--db", str(db), "--port", str(port)]) == 2
        assert capsys.readouterr().err == (f"canasta: cannot listen on 127.0.0.1:{port}: the "
                                           "address is in use (is another server running "
                                           "there?)\n")
    assert main(["serve", "--no-browser", "--db", str(db), "--host", "nosuchhost.invalid",
                 "--port", str(free_port())]) == 2
    err = capsys.readouterr().err
    assert err.startswith("canasta: --host 'nosuchhost.invalid' is not a known name or "
                          "address (") and err.count("\n") == 1, err
    assert not db.exists()  # the games database is not created where the server cannot run
    result = run("serve", "--no-browser", "--db", str(db), "--port", "99999")
    assert result.returncode == 2 and result.stderr == "canasta: --port must be 1 to 65535\n"


def test_serve_with_a_database_it_cannot_use_says_why_and_exits_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    port = free_port()  # the address is checked first
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n" * 200)
    folder = tmp_path / "games.sqlite3"
    folder.mkdir()
    import sqlite3

    other = tmp_path / "other.sqlite3"  # another program's database
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE games (name TEXT, score INTEGER)")
    con.commit()
    con.close()
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    if os.access(locked, os.W_OK):  # root may write anywhere: /sys takes no new files
        locked = Path("/sys")
    cases = [
        (text, f"canasta: {text} is not a SQLite database (file is not a database)"),
        (folder, f"canasta: {folder} is a folder, not a database file"),
        (other, f"canasta: {other} is not a canasta games database (its table 'games' has no "
                "column id, created, updated, config, record, over, winner)"),
        (locked / "games.sqlite3", f"canasta: cannot use the games database "
                                   f"{locked / 'games.sqlite3'}: the folder {locked} is not "
                                   "writable"),
        (text / "games" / "games.sqlite3", f"canasta: cannot create the folder {text / 'games'} "
                                           f"for the games database"),
    ]
    try:
        for path, said in cases:
            assert main(["serve", "--no-browser", "--db", str(path), "--port", str(port)]) == 2
            err = capsys.readouterr().err
            assert err.startswith(said) and err.count("\n") == 1, err
    finally:
        if locked != Path("/sys"):
            locked.chmod(0o755)
    assert text.read_text() == "not a database\n" * 200  # and nothing was changed
    assert list(folder.iterdir()) == [] and list(tmp_path.glob("notes.txt*")) == [text]
    con = sqlite3.connect(other)
    assert [r[0] for r in con.execute("SELECT name FROM sqlite_master")] == ["games"]
    con.close()
    result = run("serve", "--no-browser", "--db", str(text), "--port", str(port))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith(cases[0][1])
