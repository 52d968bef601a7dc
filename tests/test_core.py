"""One source, two cores: the mypyc build and the pure Python modules play the same games, and a
build that no longer matches the source never runs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from canasta import __version__, core
from canasta.cli import main

ROOT = Path(__file__).resolve().parents[1]

# Whole hands on every table (house rules too), each seat a uniformly random listed move, then
# the computer players whose modules are compiled (basic, and the expert built on its
# evaluation): every move's text and every hand's score breakdown.
WALK = """
import json, random, sys
from canasta import core
from canasta.bots import make_player
from canasta.rules import Rules
from canasta.table import Table
from canasta.match import Match

def hand(match, rng):
    state, moves = match.state, []
    while state.result is None:
        moves.append(str(match.apply(rng.choice(state.legal_moves()))))
    return {"moves": moves, "breakdown": state.result.breakdown, "scores": match.scores}

TABLES = [("classic", 2, {}), ("classic", 3, {}), ("classic", 4, {}), ("modern-american", 4, {}),
          ("ponytail", 4, {}), ("ponytail", 6, {}),
          ("classic", 2, {"two_player_last_card_rule": "pagat"}),
          ("classic", 4, {"wild_ratio": "not-more-wilds", "table_penalties_mode": True}),
          ("ponytail", 4, {"required_canastas": "four-books", "cut_bonus": 0.5})]
games = []
for variant, players, options in TABLES:
    for seed in (1, 2):
        match = Match(Rules.make(variant, players, **options), seed)
        games.append(hand(match, random.Random(seed)))
        match.next_hand()
        games.append(hand(match, random.Random(seed + 100)))
for variant, levels in (("classic", "basic,expert,basic,expert"),
                        ("ponytail", "expert,basic,expert,basic")):
    seats = {s: make_player(level, seed=s) for s, level in enumerate(levels.split(","))}
    table, moves = Table(Rules.make(variant, 4), 5, seats), []
    while table.to_act() is not None:
        moves.append(str(table.step_computer()[1]))
    games.append({"moves": moves, "breakdown": table.match.state.result.breakdown})
print(json.dumps({"core": core.describe(), "compiled": core.running_compiled(), "games": games}))
"""


def child_env(pure: bool, src: Path = ROOT / "src") -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(src))
    env.pop(core.PURE_VARIABLE, None)
    if pure:
        env[core.PURE_VARIABLE] = "1"
    return env


def matching_build() -> bool:
    manifest = core.read_manifest()
    return manifest is not None and core.stale_reason(manifest) is None


needs_build = pytest.mark.skipif(not matching_build(),
                                 reason="no compiled core matching the source (make install)")


@needs_build
def test_the_compiled_and_the_pure_core_play_the_same_games() -> None:
    runs = {}
    for pure in (False, True):
        out = subprocess.run([sys.executable, "-c", WALK], env=child_env(pure), check=True,
                             capture_output=True, text=True)
        runs[pure] = json.loads(out.stdout)
    compiled, pure = runs[False], runs[True]
    assert (compiled["core"], compiled["compiled"]) == ("compiled core: mypyc", True)
    assert (pure["core"], pure["compiled"]) == ("pure Python core", False)
    assert len(compiled["games"]) == 38 and all(g["moves"] for g in compiled["games"])
    for i, (a, b) in enumerate(zip(compiled["games"], pure["games"], strict=True)):
        assert a == b, f"game {i} differs"


COPIES = """
import copy, pickle, random
from dataclasses import replace
from canasta import core
from canasta.match import Match
from canasta.position import position_to_json
from canasta.records import record_of
from canasta.rules import Rules
from canasta.view import view_of

match = Match(Rules.make("ponytail", 4, required_canastas="four-books"), 3)
rng = random.Random(3)
for _ in range(150):
    match.apply(rng.choice(match.state.legal_moves()))
view = view_of(match.state, match.state.turn)
for twin in (copy.deepcopy(match), pickle.loads(pickle.dumps(match)), copy.copy(match)):
    assert position_to_json(twin.state) == position_to_json(match.state)
    assert record_of(twin) == record_of(match)
    assert twin.state.legal_moves() == match.state.legal_moves()
for twin in (copy.deepcopy(view), pickle.loads(pickle.dumps(view))):
    assert replace(twin, rules=view.rules) == view  # a copied variant is another object
print(core.describe())
"""


@pytest.mark.parametrize("pure", [True, pytest.param(False, marks=needs_build)])
def test_positions_copy_and_pickle_in_either_core(pure: bool) -> None:
    """copy, deepcopy and pickle (which OpenSpiel and the arena's processes use) give the
    same position: a compiled class is made through its __init__ or __new__ only."""
    out = subprocess.run([sys.executable, "-c", COPIES], env=child_env(pure), check=True,
                         capture_output=True, text=True).stdout
    assert out.strip() == ("pure Python core" if pure else "compiled core: mypyc")


MADE_WITHOUT_INIT = """
import dataclasses, importlib
import canasta.core as core
refused = []
for name in (core.module_name(p) for p in core.compiled_sources()):
    module = importlib.import_module(name)
    for cls in list(vars(module).values()):
        if (isinstance(cls, type) and cls.__module__ == name and hasattr(cls, "__mypyc_attrs__")
                and not dataclasses.is_dataclass(cls) and "__reduce__" not in vars(cls)):
            try:
                cls.__new__(cls)
            except TypeError:
                refused.append(f"{name}.{cls.__qualname__}")
print(core.KIND, refused)
"""


@needs_build
def test_every_compiled_class_can_be_made_without_init() -> None:
    """What copy and pickle (and ``Cls.__new__(Cls)`` in a copy method) need of a compiled
    class: a class whose __init__ takes arguments is marked
    ``@mypyc_attr(allow_interpreted_subclasses=True)`` (or defines ``__reduce__``); this names
    any that is not (dataclasses are seen to by canasta.core)."""
    out = subprocess.run([sys.executable, "-c", MADE_WITHOUT_INIT], env=child_env(False),
                         check=True, capture_output=True, text=True).stdout
    assert out.strip() == "compiled []"


def copy_tree(tmp: Path) -> Path:
    """The source and its compiled build, copied (the build's manifest names src/ files)."""
    shutil.copytree(ROOT / "src" / "canasta", tmp / "src" / "canasta",
                    ignore=shutil.ignore_patterns("__pycache__", "static"))
    shutil.copytree(core.BUILD_DIR, tmp / "build" / "compiled")
    return tmp / "src"


REPORT = "import canasta.core as c; print(c.KIND, c.running_compiled(), c.describe(why=True))"


def report(src: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-W", "always", "-c", REPORT], env=child_env(False, src),
                          check=True, capture_output=True, text=True)


@needs_build
def test_a_build_older_than_its_source_is_not_run(tmp_path: Path) -> None:
    src = copy_tree(tmp_path)
    fresh = report(src)
    assert fresh.stdout.startswith("compiled True") and not fresh.stderr
    legal = src / "canasta" / "engine" / "legal.py"
    legal.write_text(legal.read_text() + "\n# edited\n")
    stale = report(src)
    assert stale.stdout.startswith("pure False pure Python core; the compiled build is out of "
                                   "date: canasta/engine/legal.py changed since it was built")
    assert "StaleCoreWarning" in stale.stderr and "make install" in stale.stderr
    legal.write_text(legal.read_text().removesuffix("\n# edited\n"))
    assert report(src).stdout.startswith("compiled True")
    (src / "canasta" / "engine" / "newer.py").write_text('"""A module the build has not seen."""\n')
    assert "the set of compiled modules has changed" in report(src).stdout


def test_the_rule_selects_every_engine_module() -> None:
    """New modules under engine/ and variants/ are compiled without a word elsewhere; packages'
    __init__ files are not; the hashes cover what the compiled modules import."""
    package = ROOT / "src" / "canasta"
    chosen = set(core.compiled_sources())
    for folder in ("engine", "variants"):
        for path in (package / folder).glob("*.py"):
            assert (path in chosen) == (path.name != "__init__.py"), path
    for name in ("cards.py", "moves.py", "options.py", "rules.py", "view.py", "bots/basic.py",
                 "bots/evaluate.py"):
        assert package / name in chosen
    hashed = core.imported_sources(sorted(chosen))
    assert package / "errors.py" in hashed and package / "variants" / "__init__.py" in hashed
    assert package / "web" / "app.py" not in hashed


def test_version_says_which_core_runs(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith(f"canasta {__version__} ({core.describe()}")
    out = subprocess.run([sys.executable, "-m", "canasta", "--version"], env=child_env(True),
                         check=True, capture_output=True, text=True).stdout
    assert out == f"canasta {__version__} (pure Python core; CANASTA_PURE_PYTHON is set)\n"


def test_the_build_falls_back_to_pure_python(tmp_path: Path) -> None:
    """Without a C compiler, or with CANASTA_PURE_PYTHON=1, the build says so, leaves no
    compiled core behind and succeeds (even --strict)."""
    shutil.copytree(ROOT / "tools", tmp_path / "tools")
    shutil.copytree(ROOT / "src" / "canasta", tmp_path / "src" / "canasta",
                    ignore=shutil.ignore_patterns("__pycache__", "static"))
    build = tmp_path / "build" / "compiled"
    script = [sys.executable, str(tmp_path / "tools" / "build_core.py"), "--strict"]
    for env, said in (({"CC": str(tmp_path / "no-such-cc")}, "no C compiler"),
                      ({core.PURE_VARIABLE: "1"}, "CANASTA_PURE_PYTHON=1: not compiled")):
        build.mkdir(parents=True, exist_ok=True)
        (build / core.MANIFEST).write_text("{}")
        run = subprocess.run(script, env=child_env(False) | env, capture_output=True, text=True)
        assert run.returncode == 0 and said in run.stdout and "runs as pure Python" in run.stdout
        assert not build.exists()
