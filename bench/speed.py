"""Random play in CPU time: this engine compiled (mypyc), the same source as pure Python, and
an earlier engine, side by side.

    python bench/speed.py --hands 300 --against 02804b9

Each table's hands (``canasta simulate --seed 7``: every seat plays a uniformly random listed
move) are played in a child process per engine, the engines taking turns, ``--repeats`` times
(the best run counts); a child measures its own CPU time around the play (``getrusage``), so
other jobs on a shared machine slow the figures down less than they do wall-clock times.  The
compiled engine is ``build/compiled/`` (``make install``; without it that column is left out),
the pure one the same ``src`` with ``CANASTA_PURE_PYTHON=1``, the earlier one that commit's
``src`` (``git archive``), run with the same interpreter.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TABLES = (("classic", 2), ("classic", 3), ("classic", 4), ("modern-american", 4),
          ("ponytail", 4), ("ponytail", 6))

CHILD = """
import json, resource, sys
from canasta.rules import Rules
from canasta.simulate import simulate
try:
    from canasta.core import describe
except ImportError:  # an engine from before the compiled core
    def describe(): return "pure Python core"
rules = Rules.make(sys.argv[1], int(sys.argv[2]))
before = resource.getrusage(resource.RUSAGE_SELF)
report = simulate(rules, hands=int(sys.argv[3]), seed=int(sys.argv[4]))
after = resource.getrusage(resource.RUSAGE_SELF)
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
print(json.dumps({"cpu": cpu, "moves": report.moves, "hands": report.hands,
                  "core": describe()}))
"""


def cpu_run(src: Path, variant: str, players: int, hands: int, seed: int,
            pure: bool = False) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(src))
    env.pop("CANASTA_PURE_PYTHON", None)
    if pure:
        env["CANASTA_PURE_PYTHON"] = "1"
    out = subprocess.run([sys.executable, "-c", CHILD, variant, str(players), str(hands),
                          str(seed)], env=env, check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def compiled_here() -> bool:
    out = subprocess.run([sys.executable, "-c", "import canasta.core as c; print(c.KIND)"],
                         env=dict(os.environ, PYTHONPATH=str(ROOT / "src")) | {
                             "CANASTA_PURE_PYTHON": ""}, capture_output=True, text=True)
    return out.stdout.strip() == "compiled"


def hands_for(variant: str, hands: int) -> int:
    return hands if variant != "ponytail" else max(20, hands // 5)  # hands 3-4 times longer


def side_by_side(hands: int, repeats: int, against: str, seed: int = 7) -> list[str]:
    compiled = compiled_here()
    names = (["compiled"] if compiled else []) + ["pure"]
    rows = ["| table | hands | " + " | ".join(f"hands per CPU second, {n}" for n in names)
            + f" | ... at {against} | " + " | ".join(f"{n} / {against}" for n in names)
            + f" | moves per hand now / {against} |",
            "|---|---|" + "---|" * (2 * len(names) + 2)]
    if not compiled:
        print("no compiled core matches the source (make install): pure Python only",
              file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", against, "src"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        engines = {n: (ROOT / "src", n == "pure") for n in names}
        engines["then"] = (Path(tmp) / "src", False)
        for variant, players in TABLES:
            n = hands_for(variant, hands)
            best: dict[str, dict[str, Any]] = {}
            for _ in range(repeats):
                for name, (src, pure) in engines.items():
                    r = cpu_run(src, variant, players, n, seed, pure)
                    if name not in best or r["cpu"] < best[name]["cpu"]:
                        best[name] = r
            if compiled and best["compiled"]["core"] != "compiled core: mypyc":
                raise SystemExit(f"the compiled run used the {best['compiled']['core']}")
            speed = {name: n / r["cpu"] for name, r in best.items()}
            moves = {r["moves"] for name, r in best.items() if name != "then"}
            if len(moves) != 1:
                raise SystemExit(f"{variant} {players}p: the cores played different games")
            rows.append(f"| {variant} {players}p | {n} | "
                        + " | ".join(f"{speed[m]:,.0f}" for m in names)
                        + f" | {speed['then']:,.0f} | "
                        + " | ".join(f"{speed[m] / speed['then']:.2f}" for m in names)
                        + f" | {best['pure']['moves'] / n:.1f} / "
                          f"{best['then']['moves'] / n:.1f} |")
            print(rows[-1], flush=True)
    return rows


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=300)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--against", default="02804b9", help="the earlier engine's commit")
    p.add_argument("--seed", type=int, default=7)
    args = p.parse_args()
    side_by_side(args.hands, args.repeats, args.against, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
