"""Random play, this engine and an earlier one side by side, in CPU time.

    python bench/speed.py --hands 300 --against 02804b9

Each table's hands (``canasta simulate --seed 7``: every seat plays a uniformly random listed
move) are played in a child process per engine, the engines taking turns, ``--repeats`` times;
a child measures its own CPU time around the play (``getrusage``), so other jobs on a shared
machine slow the figures down less than they do wall-clock times.  The earlier engine is that
commit's ``src`` (``git archive``), run with the same interpreter.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TABLES = (("classic", 2), ("classic", 3), ("classic", 4), ("modern-american", 4),
          ("ponytail", 4), ("ponytail", 6))

CHILD = """
import json, resource, sys
from canasta.rules import Rules
from canasta.simulate import simulate
rules = Rules.make(sys.argv[1], int(sys.argv[2]))
before = resource.getrusage(resource.RUSAGE_SELF)
report = simulate(rules, hands=int(sys.argv[3]), seed=int(sys.argv[4]))
after = resource.getrusage(resource.RUSAGE_SELF)
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
print(json.dumps({"cpu": cpu, "moves": report.moves, "hands": report.hands}))
"""


def cpu_run(src: Path, variant: str, players: int, hands: int, seed: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(src))
    out = subprocess.run([sys.executable, "-c", CHILD, variant, str(players), str(hands),
                          str(seed)], env=env, check=True, capture_output=True, text=True)
    result: dict[str, float] = json.loads(out.stdout)
    return result


def hands_for(variant: str, hands: int) -> int:
    return hands if variant != "ponytail" else max(20, hands // 5)  # hands 3-4 times longer


def side_by_side(hands: int, repeats: int, against: str, seed: int = 7) -> list[str]:
    rows = [f"| table | hands | hands per CPU second, now | ... at {against} | now / "
            f"{against} | moves per hand now / {against} |", "|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", against, "src"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        srcs = {"now": ROOT / "src", "then": Path(tmp) / "src"}
        for variant, players in TABLES:
            n = hands_for(variant, hands)
            best: dict[str, dict[str, float]] = {}
            for _ in range(repeats):
                for name, src in srcs.items():
                    r = cpu_run(src, variant, players, n, seed)
                    if name not in best or r["cpu"] < best[name]["cpu"]:
                        best[name] = r
            now, then = best["now"], best["then"]
            speed_now, speed_then = n / now["cpu"], n / then["cpu"]
            rows.append(f"| {variant} {players}p | {n} | {speed_now:,.0f} | {speed_then:,.0f} "
                        f"| {speed_now / speed_then:.2f} | {now['moves'] / n:.1f} / "
                        f"{then['moves'] / n:.1f} |")
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
