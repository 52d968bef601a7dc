"""Which core runs: the engine compiled with mypyc, or its pure Python source.

``make install`` compiles the modules that :data:`COMPILED` selects (``tools/build_core.py``)
into ``build/compiled/`` beside ``src/``, never into ``src/`` itself: a checkout that only puts
``src`` on the path (``PYTHONPATH=src``, another worktree) runs its own source as it is.
Importing ``canasta`` calls :func:`install`, which puts the compiled modules in front of the
source only when the build was made from exactly the source files now on disk (their hashes
are kept in the build's manifest); otherwise the pure Python modules run and a warning says
why, so an edited ``.py`` file never runs as a stale compiled copy. ``CANASTA_PURE_PYTHON=1``
forces the pure modules (and, at install time, skips the compiler).

>>> describe() in ("compiled core: mypyc", "pure Python core")
True
"""

from __future__ import annotations

import ast
import copyreg
import dataclasses
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

# The one place that says what is compiled: globs under src/canasta. Packages' __init__.py files
# stay pure Python (a compiled package has no __path__ to find the rest of its modules in).
COMPILED = (
    "cards.py",
    "moves.py",
    "options.py",
    "rules.py",
    "engine/*.py",
    "variants/*.py",
    "view.py",
    "bots/basic.py",
    "bots/evaluate.py",
    "envs/actions.py",  # the research interfaces' encoding and observation, run at every step
    "envs/observation.py",
    "envs/core.py",  # EnvGame: every interface's step goes through it
    "envs/seat.py",  # the observation vector and action masks of a seat, asked at every step
)
GROUP = "canasta_core"  # mypyc's shared library is GROUP + "__mypyc"
MANIFEST = "canasta-core.json"
PURE_VARIABLE = "CANASTA_PURE_PYTHON"

PACKAGE = Path(__file__).resolve().parent
SOURCE_ROOT = PACKAGE.parent
BUILD_DIR = SOURCE_ROOT.parent / "build" / "compiled"


class StaleCoreWarning(RuntimeWarning):
    """The compiled core does not match the source on disk: the pure Python core runs."""


def pure_requested() -> bool:
    """Whether ``CANASTA_PURE_PYTHON`` asks for the pure Python modules."""
    return os.environ.get(PURE_VARIABLE, "").strip().lower() not in ("", "0", "false", "no")


def module_name(path: Path) -> str:
    rel = path.relative_to(SOURCE_ROOT).with_suffix("")
    return ".".join(rel.parts)


def compiled_sources() -> list[Path]:
    """The source files :data:`COMPILED` selects now, in a fixed order."""
    found: set[Path] = set()
    for pattern in COMPILED:
        found.update(p for p in PACKAGE.glob(pattern) if p.name != "__init__.py")
    return sorted(found)


def imported_sources(sources: Sequence[Path]) -> list[Path]:
    """``sources`` and every module of this package they import, directly or not (type-only
    imports too: mypyc compiles against their types), in a fixed order."""
    seen: set[Path] = set()
    todo = list(sources)
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                if name.split(".")[0] != PACKAGE.name:
                    continue
                base = SOURCE_ROOT.joinpath(*name.split("."))
                for candidate in (base.with_suffix(".py"), base / "__init__.py"):
                    if candidate.is_file():
                        todo.append(candidate)
    return sorted(seen)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def source_hashes(paths: Sequence[Path]) -> dict[str, str]:
    return {p.relative_to(SOURCE_ROOT).as_posix(): digest(p) for p in paths}


def stale_reason(manifest: dict[str, object]) -> str | None:
    """Why the build described by ``manifest`` cannot run against the source on disk, or None."""
    tag = sys.implementation.cache_tag
    if manifest.get("cache_tag") != tag:
        return f"it was built for {manifest.get('cache_tag')}, this Python is {tag}"
    modules = [module_name(p) for p in compiled_sources()]
    if manifest.get("modules") != modules:
        return "the set of compiled modules has changed"
    recorded = manifest.get("sources")
    if not isinstance(recorded, dict):
        return "its manifest is unreadable"
    changed = []
    for rel, sha in sorted(recorded.items()):
        path = SOURCE_ROOT / rel
        if not path.is_file() or digest(path) != sha:
            changed.append(rel)
    if changed:
        more = f" and {len(changed) - 3} more" if len(changed) > 3 else ""
        return f"{', '.join(changed[:3])}{more} changed since it was built"
    return None


def _rebuilt(obj: Any) -> tuple[type, tuple[object, ...]]:
    """A compiled dataclass copied and pickled through its __init__ (mypyc's own way sets the
    fields one by one, which a frozen dataclass refuses)."""
    return (type(obj), tuple(getattr(obj, f.name) for f in dataclasses.fields(obj) if f.init))


_COMPILED_NAMES: set[str] = set()


def register_dataclasses() -> None:
    """Copy and pickle the compiled modules' dataclasses through :func:`_rebuilt` (called as
    each compiled module is imported, and by ``import canasta`` at its end: a module can be in
    sys.modules before its classes exist, while the modules it imports are imported)."""
    for name in _COMPILED_NAMES:
        loaded = sys.modules.get(name)
        for value in list(vars(loaded).values()) if loaded is not None else ():
            if (isinstance(value, type) and value.__module__ == name
                    and dataclasses.is_dataclass(value) and "__reduce__" not in vars(value)
                    and value not in copyreg.dispatch_table):
                copyreg.pickle(value, _rebuilt)


class _CompiledLoader(importlib.machinery.ExtensionFileLoader):
    def exec_module(self, module: ModuleType) -> None:
        super().exec_module(module)
        # The modules it imported are loaded too, not all of them through this loader: mypyc
        # initialises the modules of its own library directly.
        register_dataclasses()


class _CompiledFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules (and mypyc's shared library) in the build directory."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = _CompiledLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


KIND = "pure"  # "compiled" once install() has put the compiled modules in front
WHY = "not compiled"  # why the pure Python core runs


def read_manifest(build: Path = BUILD_DIR) -> dict[str, object] | None:
    try:
        data = json.loads((build / MANIFEST).read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def install(build: Path = BUILD_DIR) -> None:
    """Put the compiled core in front of the source when it matches it (called once, by
    ``import canasta``, before any compiled module is imported)."""
    global KIND, WHY
    if KIND == "compiled":
        return
    if pure_requested():
        WHY = f"{PURE_VARIABLE} is set"
        return
    manifest = read_manifest(build)
    if manifest is None:
        WHY = "not compiled" if not build.exists() else f"no readable {MANIFEST} in {build}"
        return
    reason = stale_reason(manifest)
    files = manifest.get("files")
    if reason is None and not (isinstance(files, dict) and all(
            (build / str(f)).is_file() for f in files.values())):
        reason = "some of its files are missing"
    if reason is not None:
        WHY = f"the compiled build is out of date: {reason}"
        warnings.warn(f"canasta: running the pure Python core, since the compiled core in "
                      f"{build} does not match the source ({reason}); `make install` rebuilds "
                      f"it", StaleCoreWarning, stacklevel=3)
        return
    assert isinstance(files, dict)
    _COMPILED_NAMES.update(str(m) for m in files)
    sys.meta_path.insert(0, _CompiledFinder({str(m): build / str(f) for m, f in files.items()}))
    KIND, WHY = "compiled", ""


def describe(why: bool = False) -> str:
    """The core in a few words, as ``simulate`` reports it; ``why``: with the reason the pure
    Python core runs where it is not just that nothing was compiled (``canasta --version``)."""
    if KIND == "compiled":
        return "compiled core: mypyc"
    return f"pure Python core; {WHY}" if why and WHY != "not compiled" else "pure Python core"


def running_compiled() -> bool:
    """Whether the engine's modules imported so far are the compiled ones (a check of the
    modules themselves, not of what :func:`install` decided)."""
    cards = sys.modules.get(f"{PACKAGE.name}.cards")
    return cards is not None and not str(getattr(cards, "__file__", "")).endswith(".py")


if __name__ == f"{PACKAGE.name}.core":  # not when tools/build_core.py reads the rule alone
    install()
