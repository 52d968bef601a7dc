"""The going-out question ("can the seat to act still go out this turn?") alone, in CPU time:
this engine beside an earlier one, on the same positions.

    python bench/goingout.py --against 3810f03

Random play at each table (``canasta simulate``'s seeds and players) records every position at
which the listing asks the question (to offer ``ask``, or a concealed going out); the question
is then asked again of each recorded position, ``--repeats`` times, and the best pass counts.
Each engine runs in a child process of its own (an earlier engine is that commit's ``src``,
``git archive``), which checks that both gave the same answers.  The listing asks it at nearly
every play turn of a partnership, so it is a large part of random play (Ponytail most).
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
TABLES = (("classic", 4), ("modern-american", 4), ("ponytail", 4), ("ponytail", 6))

CHILD = """
import hashlib, json, resource, sys
import canasta.engine.goingout as goingout
import canasta.engine.legal as legal
from canasta.rules import Rules
from canasta.simulate import simulate
asked = goingout.can_go_out
positions = []
def recording(state):
    positions.append(state.copy())
    return asked(state)
legal.can_go_out = recording
simulate(Rules.make(sys.argv[1], int(sys.argv[2])), hands=int(sys.argv[3]), seed=int(sys.argv[4]))
legal.can_go_out = asked
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
best = None
for _ in range(int(sys.argv[5])):
    before = cpu()
    answers = [asked(p) for p in positions]
    took = cpu() - before
    best = took if best is None else min(best, took)
print(json.dumps({"cpu": best, "positions": len(positions), "yes": sum(answers),
                  "answers": hashlib.sha256(bytes(answers)).hexdigest()}))
"""


def run(src: Path, variant: str, players: int, hands: int, seed: int,
        repeats: int) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(src), CANASTA_PURE_PYTHON="1")
    out = subprocess.run([sys.executable, "-c", CHILD, variant, str(players), str(hands),
                          str(seed), str(repeats)], env=env, check=True, capture_output=True,
                         text=True)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=60, help="hands per table (Ponytail a third)")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--against", default="3810f03", help="the earlier engine's commit")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--variant", help="only this variant's tables")
    args = p.parse_args()
    print(f"| table | positions | answers yes | µs per question, pure Python | ... at "
          f"{args.against} | speed-up |\n|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.against, "src"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        for variant, players in TABLES:
            if args.variant and variant != args.variant:
                continue
            hands = args.hands if variant != "ponytail" else max(5, args.hands // 3)
            now, then = (run(src, variant, players, hands, args.seed, args.repeats)
                         for src in (ROOT / "src", Path(tmp) / "src"))
            if now["answers"] != then["answers"] or now["positions"] != then["positions"]:
                raise SystemExit(f"{variant} {players}p: the engines answered differently")
            n = now["positions"]
            print(f"| {variant} {players}p | {n} | {now['yes']} | "
                  f"{1e6 * now['cpu'] / n:.1f} | {1e6 * then['cpu'] / n:.1f} | "
                  f"{then['cpu'] / now['cpu']:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
