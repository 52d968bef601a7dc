"""The arena: duplicate deals between two sides of computer players.

Each deal is played once per seating: side A's players sit at each side of the table in turn
(two seatings with two sides, three with three), the other seats take side B's players, and the
cards are the same every time, so the luck of the deal cancels out.  Bots are created afresh for
every play, so nothing carries over between the plays of a deal.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from canasta.arena.deals import MAX_HANDS, ArenaConfig, PlayResult, play_deal, seatings
from canasta.arena.executors import run_deals
from canasta.arena.stats import mean_ci95, p_text, percentile, sign_test

__all__ = ["MAX_HANDS", "ArenaConfig", "ArenaReport", "PlayResult", "format_report", "play_deal",
           "run_arena", "seatings", "summarize"]


@dataclass
class ArenaReport:
    config: ArenaConfig
    deals: int
    mean_diff: float
    ci95: tuple[float, float]
    hands_won: tuple[int, int]
    plays: int
    went_out: tuple[float, float]
    canastas: tuple[float, float]
    decision_ms: tuple[dict[str, float], dict[str, float]]
    seconds: float
    #: duplicate deals whose plays together scored more for side A, for side B (ties left out),
    #: and the sign test's two-sided p-value of that split
    deals_won: tuple[int, int] = (0, 0)
    sign_p: float = 1.0
    #: matches cut at ``config.max_hands`` still undecided (each counted won by the side ahead)
    capped: int = 0

    def to_json(self) -> dict[str, Any]:
        c = self.config
        return {
            "variant": c.variant, "players": c.players, "team": list(c.team), "vs": list(c.vs),
            "seed": c.seed, "match": c.match, "max_hands": c.max_hands,
            "options": dict(c.options),
            "deals": self.deals, "plays": self.plays,
            "mean_diff": round(self.mean_diff, 2),
            # one deal gives no interval: its bounds are infinite, which JSON cannot hold
            "ci95": [round(x, 2) if math.isfinite(x) else None for x in self.ci95],
            "hands_won": list(self.hands_won), "went_out": [round(x, 4) for x in self.went_out],
            "canastas": [round(x, 3) for x in self.canastas],
            "decision_ms": [dict(d) for d in self.decision_ms],
            "seconds": round(self.seconds, 1),
            "deals_won": list(self.deals_won), "sign_p": float(f"{self.sign_p:.3g}"),
            "capped": self.capped,
        }


def summarize(config: ArenaConfig, per_deal: list[list[PlayResult]],
              seconds: float) -> ArenaReport:
    diffs = [sum(p.a - p.b for p in plays) / len(plays) for plays in per_deal]
    mean, ci = mean_ci95(diffs)
    plays = [p for ps in per_deal for p in ps]
    n = max(1, len(plays))
    won = (sum(1 for p in plays if p.a > p.b), sum(1 for p in plays if p.b > p.a))
    went = (sum(p.went_out[0] for p in plays) / n, sum(p.went_out[1] for p in plays) / n)
    canastas = (sum(p.canastas[0] for p in plays) / n, sum(p.canastas[1] for p in plays) / n)
    ms: tuple[dict[str, float], dict[str, float]] = ({}, {})
    for k in (0, 1):
        times = [t for p in plays for t in p.times[k]]
        ms[k]["p50"] = round(percentile(times, 50), 3)
        ms[k]["p95"] = round(percentile(times, 95), 3)
        ms[k]["max"] = round(max(times, default=0.0), 3)
    deals_won = (sum(1 for d in diffs if d > 0), sum(1 for d in diffs if d < 0))
    return ArenaReport(config, len(per_deal), mean, ci, won, len(plays), went, canastas, ms,
                       seconds, deals_won, sign_test(*deals_won),
                       sum(1 for p in plays if p.capped))


def run_arena(config: ArenaConfig, executor: str = "process", workers: int | None = None
              ) -> ArenaReport:
    """Play ``config.deals`` duplicate deals and summarise them."""
    start = time.perf_counter()
    per_deal = run_deals(config, executor, workers)
    return summarize(config, per_deal, time.perf_counter() - start)


def format_report(r: ArenaReport) -> str:
    c = r.config
    what = "matches" if c.match else "hands"
    lines = [
        f"{c.variant}, {c.players} players: side A {','.join(c.team)} against side B "
        f"{','.join(c.vs)}; {r.deals} duplicate deals ({r.plays} {what}) in {r.seconds:.1f} s"
        + (" - table options: " + ", ".join(f"{k}={v}" for k, v in c.options)
           if c.options else ""),
        f"mean score difference A - B per {what[:-2] if what == 'matches' else 'hand'}: "
        f"{r.mean_diff:+.1f} " + (f"(95% CI {r.ci95[0]:+.1f} .. {r.ci95[1]:+.1f})"
                                  if all(map(math.isfinite, r.ci95))
                                  else "(no 95% CI from a single deal)"),
        f"{what} won: A {r.hands_won[0]}, B {r.hands_won[1]}"
        + (f" ({r.capped} undecided after {c.max_hands} hands: the side ahead wins)"
           if r.capped else ""),
        f"duplicate deals won (all their plays together): A {r.deals_won[0]}, B "
        f"{r.deals_won[1]} (sign test p = {p_text(r.sign_p)})",
        f"went out: A {100 * r.went_out[0]:.1f}%, B {100 * r.went_out[1]:.1f}%",
        f"canastas per hand: A {r.canastas[0]:.2f}, B {r.canastas[1]:.2f}",
        f"decision time (ms): A p50 {r.decision_ms[0]['p50']:.2f} p95 "
        f"{r.decision_ms[0]['p95']:.2f}; B p50 {r.decision_ms[1]['p50']:.2f} p95 "
        f"{r.decision_ms[1]['p95']:.2f}",
    ]
    return "\n".join(lines)
