"""Instructions a hand of random play (callgrind): a figure that repeats on a loaded machine.

    python bench/instructions.py VARIANT PLAYERS HANDS [--compiled]

runs ``simulate`` (seed 7) under valgrind's callgrind twice, HANDS hands and one hand, and
prints (Ir(HANDS) - Ir(1)) / (HANDS - 1): the instructions of one hand with the imports and the
start-up left out.  Pure Python unless ``--compiled`` (the core in this tree's build/).  Run it
from the root of the tree to measure (``PYTHONPATH=src``), e.g. in a ``git archive`` of an older
commit to compare engines on the same hands.  Needs valgrind.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

CODE = ("import sys; from canasta.simulate import simulate; from canasta.rules import Rules; "
        "simulate(Rules.make(sys.argv[1], int(sys.argv[2])), int(sys.argv[3]), 7)")


def instructions(variant: str, players: int, hands: int, compiled: bool) -> int:
    env = dict(os.environ, PYTHONPATH="src")
    if not compiled:
        env["CANASTA_PURE_PYTHON"] = "1"
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "callgrind.out")
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                        sys.executable, "-c", CODE, variant, str(players), str(hands)],
                       env=env, check=True, capture_output=True)
        with open(out) as f:
            for line in f:
                if line.startswith(("summary:", "totals:")):
                    return int(line.split()[1])
    raise SystemExit("callgrind wrote no totals")


def main() -> int:
    args = [a for a in sys.argv[1:] if a != "--compiled"]
    if len(args) != 3:
        print(__doc__)
        return 2
    variant, players, hands = args[0], int(args[1]), int(args[2])
    compiled = "--compiled" in sys.argv
    if hands < 2:
        raise SystemExit("at least 2 hands")
    a = instructions(variant, players, hands, compiled)
    b = instructions(variant, players, 1, compiled)
    core = "compiled" if compiled else "pure"
    print(f"{variant} {players}p {core}: {(a - b) / (hands - 1) / 1e6:.2f}M instructions a hand "
          f"({hands} hands, seed 7)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
