"""Complete strategy cases written in short form, in place: ``python complete.py FILE...``

A case's position may leave out the cards its seat to act cannot see:

* a hand or a ponytail given as a number is dealt that many cards;
* the stock given as a number holds that many cards, and ``"rest"`` every card left;
* a number among the discard pile's cards stands for that many natural cards there.

The cards come from those the position does not show, chosen from the case's name (so
completing a file twice gives the same file). Hidden hands get no threes that would be laid at
once, and filled piles only natural cards, so that nothing freezes or blocks by chance. Cases
already complete are only rewritten in the suite's layout.
"""

from __future__ import annotations

import json
import random
import sys
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

from canasta.cards import Card, card, make_deck
from canasta.rules import Rules

LAYOUT = ("variant", "players", "options", "scores", "turn", "phase", "hands", "ponytails",
          "melds", "threes", "discard", "stock", "start_frozen", "melded", "drew", "asked",
          "hand_number")
ONE_PER_LINE = ("hands", "ponytails", "melds")


def _draw(pool: list[Card], n: int, ok: Any) -> list[str]:
    picked = [c for c in pool if ok(c)][:n]
    if len(picked) < n:
        raise ValueError(f"not enough unseen cards to deal {n}")
    for c in picked:
        pool.remove(c)
    return [c.text for c in picked]


def complete(position: dict[str, Any], seed: str) -> dict[str, Any]:
    rules = Rules.make(position["variant"], position["players"],
                       **dict(position.get("options") or {}))
    v = rules.variant
    shown: Counter[Card] = Counter()
    for h in position["hands"]:
        if isinstance(h, list):
            shown.update(card(t) for t in h)
    for tail in position.get("ponytails") or []:
        if isinstance(tail, list):
            shown.update(card(t) for t in tail)
    for ms in position["melds"]:
        for m in ms:
            shown.update(card(t) for t in m)
    for t in position["threes"]:
        shown.update(card(x) for x in t)
    shown.update(card(t) for t in position["discard"] if isinstance(t, str))
    if isinstance(position["stock"], list):
        shown.update(card(t) for t in position["stock"])
    pool_count = Counter(make_deck(v.decks(rules.players)))
    pool_count.subtract(shown)
    if any(k < 0 for k in pool_count.values()):
        raise ValueError("the position shows more copies of a card than the decks hold")
    pool = list(pool_count.elements())
    rng = random.Random(zlib.crc32(seed.encode("utf-8")))
    rng.shuffle(pool)
    out = dict(position)
    pile: list[str] = []
    for t in position["discard"]:
        pile += _draw(pool, t, lambda c: c.is_natural) if isinstance(t, int) else [t]
    out["discard"] = pile
    out["hands"] = [_draw(pool, h, lambda c: not v.laid_on_sight(c)) if isinstance(h, int)
                    else h for h in position["hands"]]
    if position.get("ponytails") is not None:
        out["ponytails"] = [_draw(pool, t, lambda c: True) if isinstance(t, int) else t
                            for t in position["ponytails"]]
    stock = position["stock"]
    if stock == "rest" or isinstance(stock, int):
        rng.shuffle(pool)  # the hands took no threes: mix what they left
        out["stock"] = _draw(pool, len(pool) if stock == "rest" else stock, lambda c: True)
    return out


def _line(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def layout(cases: list[dict[str, Any]]) -> str:
    """The suite's layout: one field a line, and one hand, ponytail or side's melds a line."""
    out = []
    for case in cases:
        parts = []
        for key, value in case.items():
            if key != "position":
                parts.append(f'    {_line(key)}: {_line(value)}')
                continue
            fields = []
            for k in sorted(value, key=LAYOUT.index):
                x = value[k]
                if k in ONE_PER_LINE and isinstance(x, list):
                    inner = ",\n".join(f"        {_line(e)}" for e in x)
                    fields.append(f'      {_line(k)}: [\n{inner}\n      ]')
                else:
                    fields.append(f'      {_line(k)}: {_line(x)}')
            parts.append('    "position": {\n' + ",\n".join(fields) + "\n    }")
        out.append("  {\n" + ",\n".join(parts) + "\n  }")
    return "[\n" + ",\n".join(out) + "\n]\n"


def main(paths: list[str]) -> int:
    for name in paths:
        path = Path(name)
        cases = json.loads(path.read_text(encoding="utf-8"))
        for case in cases:
            case["position"] = complete(case["position"], case["name"])
            print(f"{case['name']}: stock {len(case['position']['stock'])}, "
                  f"pile {len(case['position']['discard'])}")
        path.write_text(layout(cases), encoding="utf-8")
        print(f"{path}: {len(cases)} cases")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
