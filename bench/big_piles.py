"""Modern American's big piles, judged by play-outs: was the expert right to take or decline?

Every seat plays the expert (the yardsticks' hands: seed 1, one fresh deal a hand).  At each
draw turn with a pile of 12 cards or more and a legal take, the take the expert judges best and
the draw are both played out in ``--worlds`` deals of the cards the seat cannot see, the rest of
the hand by the expert at every seat (``yardsticks.judge_pile``), and the mean of take less draw
for the seat's side is kept; the game goes on with the expert's own choice.  The summary groups
the turns by what the expert did and by the pile's top card (a seven or an ace on top must be
melded as a natural meld of its own, 2,500 when finished and -2,500 when not):

    python bench/big_piles.py --first 1 --last 120 --worlds 16
    python bench/big_piles.py --first 1 --last 60 --out a.jsonl   # two processes, then
    python bench/big_piles.py --first 61 --last 120 --out b.jsonl
    python bench/big_piles.py --summary a.jsonl b.jsonl
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
from collections.abc import Iterator
from pathlib import Path

from canasta.bots import make_player
from canasta.bots.sampling import Memory
from canasta.engine.deal import deal, shuffled_deck
from canasta.match import hand_seed
from canasta.moves import MoveKind
from canasta.rules import Rules
from canasta.view import view_of
from yardsticks import BIG_PILE, judge_pile


def judged_turns(first: int, last: int, worlds: int, seed: int = 1
                 ) -> Iterator[dict[str, object]]:
    """Each big-pile turn of hands ``first`` to ``last``, as a dict (see the module's text)."""
    rules = Rules.make("modern-american", 4)
    rng = random.Random(first)
    for h in range(first, last + 1):
        state = deal(rules, shuffled_deck(rules, hand_seed(seed, h)))
        bots = {s: make_player("expert", hand_seed(hand_seed(seed, h), s + 1), clock="cpu")
                for s in range(rules.players)}
        memories = {s: Memory() for s in bots}  # what each seat saw, for the judge
        for s, bot in bots.items():
            bot.new_hand(s)
            memories[s].update(view_of(state, s))
        while state.result is None:
            seat = state.turn
            view = view_of(state, seat)
            memories[seat].update(view)
            legal = view.legal_moves
            if (view.phase == "draw" and view.asking is None and len(state.pile) >= BIG_PILE
                    and any(m.kind is MoveKind.TAKE for m in legal)):
                mean, se, take = judge_pile(state, seat, memories[seat], rng, worlds)
                move = bots[seat].choose(view)
                yield {"hand": h, "seat": seat, "pile": len(state.pile),
                       "top": state.pile[-1].rank,
                       "sevens": sum(c.rank == "7" for c in state.pile),
                       "aces": sum(c.rank == "A" for c in state.pile),
                       "stock": len(state.stock), "opened": bool(state.melds[state.side_of(seat)]),
                       "took": move.kind is MoveKind.TAKE, "take": str(take),
                       "take_less_draw": round(mean, 1), "se": round(se, 1)}
            else:
                move = bots[seat].choose(view)
            state.apply(move, seat)


def summary(rows: list[dict[str, object]]) -> list[str]:
    groups = {"taken": [r for r in rows if r["took"]]}
    for name, top in (("declined, a seven on top", "7"), ("declined, an ace on top", "A")):
        groups[name] = [r for r in rows if not r["took"] and r["top"] == top]
    groups["declined, another card on top"] = [r for r in rows if not r["took"]
                                               and r["top"] not in ("7", "A")]
    lines = ["| big-pile turns | count | take less draw, mean a pile (se) |", "|---|---|---|"]
    for name, rs in groups.items():
        if not rs:
            continue
        mean = statistics.fmean(float(str(r["take_less_draw"])) for r in rs)
        se = sum(float(str(r["se"])) ** 2 for r in rs) ** 0.5 / len(rs)
        lines.append(f"| {name} | {len(rs)} | {mean:+.0f} ({se:.0f}) |")
    return lines


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--first", type=int, default=1, help="first hand")
    p.add_argument("--last", type=int, default=120, help="last hand")
    p.add_argument("--worlds", type=int, default=16, help="deals of the hidden cards a turn")
    p.add_argument("--out", help="also write each turn as a JSON line to this file")
    p.add_argument("--summary", nargs="+", metavar="FILE", help="only sum up these files")
    args = p.parse_args()
    if args.summary:
        rows = [json.loads(line) for f in args.summary for line in Path(f).read_text().splitlines()]
    else:
        rows = []
        with open(args.out or os.devnull, "w") as out:
            for row in judged_turns(args.first, args.last, args.worlds):
                rows.append(row)
                print(json.dumps(row), file=out if args.out else sys.stdout, flush=True)
    print("\n".join(summary(rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
