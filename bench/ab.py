"""The expert (or the master) of this checkout against that of an earlier commit, on duplicate
deals.

    PYTHONPATH=src nice -n 10 python bench/ab.py --against f2a20c7 --variant classic \
        --players 4 --deals 300 --seed 1 --workers 1
    nice -n 19 .venv/bin/python bench/ab.py --level master --against 843c7b4 --deals 200 \
        --out build/ab/classic-master.jsonl

The earlier expert's modules (``bots/basic.py``, ``bots/evaluate.py``, ``bots/expert.py`` as
``git show`` gives them) are copied into ``build/ab/COMMIT/`` as a package of their own, so both
experts play in one process with the engine of this checkout; the old one is registered as the
level ``old`` and plays side B.  The deals are those of ``canasta arena --seed SEED``.
``--level master`` copies ``bots/master.py`` alone (into ``build/ab/COMMIT-master/``): both
masters search with this checkout's expert, evaluation and basic policy (compiled, where the core
is), so that the comparison measures the search's own changes and both get the same rounds from
their time caps, which count CPU time as in every benchmark.  ``--out FILE`` plays the deals one
by one into a file that a later run resumes (``bench/shard.py play``); ``bench/shard.py report
FILE`` reports on the deals played so far.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULES = ("basic", "evaluate", "expert")


def old_package(commit: str, level: str = "expert") -> Path:
    """``build/ab/COMMIT``, holding the package ``oldbots`` of that commit's expert, or
    ``build/ab/COMMIT-master`` with its ``master.py`` alone."""
    modules = MODULES if level == "expert" else ("master",)
    where = ROOT / "build" / "ab" / (commit if level == "expert" else f"{commit}-{level}")
    pkg = where / "oldbots"
    if not pkg.exists():
        pkg.mkdir(parents=True)
        (pkg / "__init__.py").write_text("")
        for name in modules:
            text = subprocess.run(["git", "show", f"{commit}:src/canasta/bots/{name}.py"],
                                  cwd=ROOT, capture_output=True, text=True, check=True).stdout
            for n in modules:  # the old modules import one another, not this checkout's
                text = text.replace(f"canasta.bots.{n} ", f"oldbots.{n} ")
            (pkg / f"{name}.py").write_text(text)
    return where


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--against", required=True, help="the commit whose bot plays side B")
    p.add_argument("--level", choices=("expert", "master"), default="expert")
    p.add_argument("--variant", default="classic")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--deals", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--out", default=None,
                   help="play the deals one by one into this file, resuming it "
                        "(bench/shard.py play; its report merges the files)")
    args = p.parse_args()
    sys.path.insert(0, str(old_package(args.against, args.level)))
    import canasta.bots as bots
    from canasta.arena import ArenaConfig, format_report, run_arena

    if args.level == "master":
        from oldbots.master import MasterPlayer as OldMaster  # type: ignore[import-not-found]

        # (A registered level is made from its seed alone: the arena's CPU clock is given here.)
        bots.register_player("old", lambda seed: OldMaster(seed, clock="cpu"))
    else:
        from oldbots.expert import ExpertPlayer as OldExpert  # type: ignore[import-not-found]

        bots.register_player("old", OldExpert)
    bots.LEVELS = (*bots.LEVELS, "old")  # the arena's workers are forked with it
    if args.out is not None:
        import shard

        return shard.main(["play", "--variant", args.variant, "--players", str(args.players),
                           "--team", args.level, "--vs", "old", "--seed", str(args.seed),
                           "--deals", str(args.deals), "--out", args.out])
    config = ArenaConfig(args.variant, args.players, (args.level,), ("old",), args.deals,
                         args.seed)
    print(format_report(run_arena(config, "process", args.workers)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
