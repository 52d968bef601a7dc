"""Compile the engine core with mypyc into build/compiled/ (``make install`` runs this).

    python tools/build_core.py            # build, or keep a build that matches the source
    CANASTA_PURE_PYTHON=1 python tools/build_core.py   # no compiler: remove the build

The modules are those ``canasta.core.COMPILED`` selects, compiled from the files in src/ as
they are (no copies). The build goes to a scratch directory first, replaces build/compiled/
when complete and stays only if its extension modules import and play a few hands; a manifest
records the hashes of the sources it was made from, which ``import canasta`` checks. Whatever
stops the build (no C compiler, no Python headers, no mypyc, a compile error) leaves the pure
Python core in place with a note saying so: the install goes on.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def _load_core() -> ModuleType:
    """canasta/core.py on its own: importing the package would import the engine it builds."""
    spec = importlib.util.spec_from_file_location("canasta_build_rules",
                                                  ROOT / "src" / "canasta" / "core.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


core = _load_core()

SCRATCH = ROOT / "build" / "mypyc"

SMOKE = """
import canasta.core as core
from canasta.rules import Rules
from canasta.simulate import simulate
assert core.KIND == "compiled", core.WHY
assert core.running_compiled()
for variant, players in (("classic", 2), ("classic", 4), ("modern-american", 4),
                         ("ponytail", 4), ("ponytail", 6)):
    simulate(Rules.make(variant, players), hands=4, seed=1)
"""


def note(text: str) -> None:
    print(f"canasta core: {text}", flush=True)


def missing_toolchain() -> str | None:
    """What the compile needs and this machine lacks, or None."""
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()  # as distutils
    if not cc or shutil.which(cc[0]) is None:
        return f"no C compiler ({cc[0] if cc else 'CC'} not found)"
    header = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not header.is_file():
        return f"no Python headers ({header} not found)"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc is not installed (it comes with mypy, in the dev extra)"
    return None


def compile_into(out: Path, sources: list[Path], jobs: int) -> dict[str, str]:
    """Compile ``sources`` into ``out``; the built file of each module, relative to ``out``."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    cwd = Path.cwd()
    os.chdir(ROOT)  # mypy reads pyproject.toml's [tool.mypy] from here
    try:
        extensions = mypycify(
            [str(p.relative_to(ROOT)) for p in sources]
            + [f"--cache-dir={SCRATCH / 'mypy-cache'}"],
            group_name=core.GROUP, target_dir=str(SCRATCH / "c"))
        dist = Distribution({"name": "canasta-core", "ext_modules": extensions})
        cmd = dist.get_command_obj("build_ext")
        cmd.build_lib = str(out)
        cmd.build_temp = str(SCRATCH / "temp")
        cmd.parallel = jobs
        cmd.ensure_finalized()
        cmd.run()
        built = {ext.name: Path(cmd.get_ext_fullpath(ext.name)) for ext in extensions}
    finally:
        os.chdir(cwd)
    return {name: str(path.relative_to(out)) for name, path in built.items()}


def build(jobs: int, strict: bool) -> int:
    """Build or keep the compiled core; 0, or 1 where ``strict`` and a compiler that is here
    failed to build it (a lacking toolchain or CANASTA_PURE_PYTHON=1 is never an error)."""
    failed = 1 if strict else 0
    target = core.BUILD_DIR
    if core.pure_requested():
        shutil.rmtree(target, ignore_errors=True)
        note(f"{core.PURE_VARIABLE}=1: not compiled; the engine runs as pure Python")
        return 0
    manifest = core.read_manifest(target)
    if manifest is not None and core.stale_reason(manifest) is None:
        note(f"the compiled build in {target.relative_to(ROOT)} matches the source")
        return 0
    lacking = missing_toolchain()
    if lacking is not None:
        shutil.rmtree(target, ignore_errors=True)
        note(f"{lacking}: not compiled; the engine runs as pure Python (slower, same games)")
        return 0
    sources = core.compiled_sources()
    hashed = core.imported_sources(sources)
    before = core.source_hashes(hashed)
    out = SCRATCH / "out"
    shutil.rmtree(out, ignore_errors=True)
    note(f"compiling {len(sources)} modules with mypyc (about a minute)")
    start = time.monotonic()
    try:
        files = compile_into(out, sources, jobs)
    except (Exception, SystemExit) as e:  # setuptools reports a failed compile as SystemExit
        shutil.rmtree(target, ignore_errors=True)
        note(f"the compile failed ({e}); the engine runs as pure Python")
        return failed
    if core.source_hashes(hashed) != before:
        note("the source changed during the compile; run `make install` again")
        return failed
    manifest = {
        "cache_tag": sys.implementation.cache_tag,
        "modules": [core.module_name(p) for p in sources],
        "files": files,
        "sources": before,
    }
    (out / core.MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    shutil.rmtree(target, ignore_errors=True)
    shutil.rmtree(SCRATCH / "failed", ignore_errors=True)
    out.rename(target)
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    env.pop(core.PURE_VARIABLE, None)
    check = subprocess.run([sys.executable, "-c", SMOKE], env=env, capture_output=True,
                           text=True)
    if check.returncode != 0:
        kept = SCRATCH / "failed"  # kept for a look: the error is in its smoke.txt
        shutil.rmtree(kept, ignore_errors=True)
        target.rename(kept)
        (kept / "smoke.txt").write_text(check.stderr)
        last = check.stderr.strip().splitlines()[-1:] or ["no message"]
        note(f"the compiled modules do not run ({last[0]}; all of it in "
             f"{(kept / 'smoke.txt').relative_to(ROOT)}); the engine runs as pure Python")
        return failed
    note(f"compiled in {time.monotonic() - start:.0f} s into {target.relative_to(ROOT)}")
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="extension modules compiled at once (default: the machine's cores)")
    p.add_argument("--strict", action="store_true",
                   help="exit 1 when a compiler is here and the build fails (make test)")
    args = p.parse_args()
    return build(args.jobs, args.strict)


if __name__ == "__main__":
    raise SystemExit(main())
