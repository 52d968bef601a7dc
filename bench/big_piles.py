"""Modern American's big piles, judged by play-outs: was the expert right to take or decline?

Every seat plays the expert (the yardsticks' hands: seed 1, one fresh deal a hand).  At each
draw turn with a pile of 12 cards or more and a legal take, the take and the draw are both
played out in ``--worlds`` deals of the cards the seat cannot see, the rest of the hand by the
expert at every seat (``yardsticks.judge_pile``): the take the expert played where it took, the
take it judges best where it drew.  Each turn keeps the mean of take less draw for the seat's
side, its standard error over the deals, and the expert's own one-ply judgement of the same
(``one_ply``); the game goes on with the expert's own choice.  Each hand's judge draws from a
generator of its own, so a split of the hands over processes gives the same turns.  The summary
groups the turns by what the expert did and by the pile's top card (a seven on top must be
melded as a natural sevens meld, 2,500 when finished and -2,500 when not; an ace on top as an
aces meld, natural with the same stakes unless it takes wild cards in the side's opening, an
ordinary mixed meld then), with the standard error of the group's mean from the spread of its
turns:

    python bench/big_piles.py --first 1 --last 120 --worlds 16 --out FILE
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
    for h in range(first, last + 1):
        rng = random.Random(f"piles-{hand_seed(seed, h)}")
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
                move = bots[seat].choose(view)
                took = move.kind is MoveKind.TAKE
                judged = judge_pile(state, seat, memories[seat], rng, worlds,
                                    move if took else None)
                yield {"hand": h, "seat": seat, "pile": len(state.pile),
                       "top": state.pile[-1].rank,
                       "sevens": sum(c.rank == "7" for c in state.pile),
                       "aces": sum(c.rank == "A" for c in state.pile),
                       "stock": len(state.stock), "opened": bool(state.melds[state.side_of(seat)]),
                       "took": took, "take": str(judged.take),
                       "take_less_draw": round(judged.mean, 1), "se": round(judged.se, 1),
                       "one_ply": round(judged.one_ply, 1)}
            else:
                move = bots[seat].choose(view)
            state.apply(move, seat)


def summary(rows: list[dict[str, object]]) -> list[str]:
    """The turns grouped by what the expert did and the pile's top card (the sevens piles
    declined also by the sevens under the top one): count, the mean of take less draw with
    its standard error from the spread of the group's turns, and the expert's own one-ply
    judgement of the same, mean."""
    def declined(top: str) -> list[dict[str, object]]:
        return [r for r in rows if not r["took"] and r["top"] == top]

    def sevens(r: dict[str, object]) -> int:
        return int(str(r["sevens"]))

    groups = {"taken": [r for r in rows if r["took"]],
              "declined, a seven on top": declined("7"),
              "... three sevens or more under it": [r for r in declined("7") if sevens(r) >= 3],
              "... two or fewer": [r for r in declined("7") if sevens(r) <= 2],
              "declined, an ace on top": declined("A"),
              "declined, another card on top": [r for r in rows if not r["took"]
                                                and r["top"] not in ("7", "A")]}
    lines = ["| big-pile turns | count | take less draw, mean a pile (se) "
             "| the expert's one-ply take less draw, mean |", "|---|---|---|---|"]
    for name, rs in groups.items():
        if not rs:
            continue
        gains = [float(str(r["take_less_draw"])) for r in rs]
        se = statistics.stdev(gains) / len(gains) ** 0.5 if len(gains) > 1 else float("nan")
        one_ply = statistics.fmean(float(str(r.get("one_ply", "nan"))) for r in rs)
        lines.append(f"| {name} | {len(rs)} | {statistics.fmean(gains):+.0f} ({se:.0f}) "
                     f"| {one_ply:+.0f} |")
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
