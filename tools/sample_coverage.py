"""How many seeded self-play matches a sample needs: the engine's branch coverage as it grows.

    export CANASTA_PURE_PYTHON=1 PYTHONPATH=src:tests
    python tools/sample_coverage.py classic 4 --matches 250 --target 5000
    python tools/sample_coverage.py ponytail 6 --matches 15 --first-seed 42000 --max-hands 4 \
        --option required_canastas=four-books

It plays the matches of tests/test_selfplay.py one by one (same seeds, same invariant checks)
under coverage.py (not a dependency of the project: install it where you run this) and prints,
at each checkpoint, how many branches of the rules code (engine, variants, moves, cards,
rules, match, records, position) the matches so far have taken, and the match after which no
new branch came. The pure Python core runs (a compiled module has no lines to trace).
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MEASURED = ["engine", "variants", "moves.py", "cards.py", "rules.py", "match.py", "records.py",
            "position.py"]


def value(text: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("variant")
    p.add_argument("players", type=int)
    p.add_argument("--matches", type=int, required=True)
    p.add_argument("--target", type=int, default=None)
    p.add_argument("--first-seed", type=int, default=None,
                   help="the test's first seed (default: 1000 times the players)")
    p.add_argument("--max-hands", type=int, default=6)
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    args = p.parse_args()
    if os.environ.get("CANASTA_PURE_PYTHON") != "1":
        p.error("run it with CANASTA_PURE_PYTHON=1 (compiled modules have no lines to trace)")

    import coverage

    package = ROOT / "src" / "canasta"
    cov = coverage.Coverage(branch=True, data_file=None,
                            include=[str(package / m) + ("/*" if "." not in m else "")
                                     for m in MEASURED])
    cov.start()
    from canasta.rules import Rules
    from test_selfplay import self_play

    options = dict(o.split("=", 1) for o in args.option)
    more: dict[str, object] = {k: value(v) for k, v in options.items()}
    if args.target is not None:
        more["target"] = args.target
    rules = Rules.make(args.variant, args.players, **more)
    first = args.first_seed if args.first_seed is not None else 1000 * args.players
    covered = 0
    last_new = 0
    checkpoints = {n for n in (1, 2, 5, 10, 15, 20, 25, 30, 40, 50, 60, 80, 100, 125, 150,
                               200, 250, 300)} | {args.matches}
    hands = 0
    for n in range(1, args.matches + 1):
        hands += self_play(rules, 1, first + n - 1, args.max_hands)
        cov.stop()
        data = cov.get_data()
        now = sum(len(data.arcs(f) or ()) for f in data.measured_files())
        cov.start()
        if now > covered:
            covered, last_new = now, n
        if n in checkpoints:
            print(f"{n:4d} matches ({hands} hands): {now} branches", flush=True)
    cov.stop()
    print(f"{args.variant} {args.players}p {options}: {covered} branches, the last new one "
          f"in match {last_new} of {args.matches}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
