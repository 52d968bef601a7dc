"""Benchmarks behind `make bench`: figures written into docs/BENCHMARKS.md with the command.

Speed is measured here, never in timed tests (shared machines make those flaky).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import sys
from pathlib import Path

from canasta.rules import Rules
from canasta.simulate import simulate

COMMAND = "make bench  (= .venv/bin/python bench/run.py --write docs/BENCHMARKS.md)"


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores; Python {platform.python_version()} ({sys.platform})"


def random_play(hands: int, repeats: int) -> list[str]:
    rows = [f"| variant | players | hands | hands per second (best of {repeats}) "
            "| moves per hand |", "|---|---|---|---|---|"]
    for variant, players in (("classic", 2), ("classic", 3), ("classic", 4),
                             ("modern-american", 4), ("ponytail", 4), ("ponytail", 6)):
        rules = Rules.make(variant, players)
        n = hands if variant != "ponytail" else max(50, hands // 5)  # hands 3-4 times longer
        best = max((simulate(rules, hands=n, seed=7) for _ in range(repeats)),
                   key=lambda r: r.hands_per_second)
        rows.append(f"| {variant} | {players} | {n} | {best.hands_per_second:.0f} | "
                    f"{best.moves_per_hand:.1f} |")
        print(rows[-1], flush=True)
    return rows


ARENA = [  # (variant, players, team, vs, deals)
    ("classic", 4, "basic,basic", "random,random", 2000),
    ("classic", 4, "expert,expert", "basic,basic", 2000),
    ("classic", 4, "expert,basic", "basic,basic", 2000),
    ("modern-american", 4, "basic,basic", "random,random", 500),
    ("modern-american", 4, "expert,expert", "basic,basic", 2000),
    ("modern-american", 4, "expert,basic", "basic,basic", 1000),
    ("ponytail", 4, "basic,basic", "random,random", 100),
    ("ponytail", 4, "expert,expert", "basic,basic", 2000),
    ("ponytail", 4, "expert,basic", "basic,basic", 2000),
]


def arena() -> list[str]:
    from canasta.arena import ArenaConfig, run_arena

    rows = ["| command | mean A - B per hand (95% CI) | hands won A / B | went out A / B "
            "| decision ms A p50 / p95 | seconds |", "|---|---|---|---|---|---|"]
    for variant, players, team, vs, deals in ARENA:
        config = ArenaConfig(variant, players, tuple(team.split(",")), tuple(vs.split(",")),
                             deals, seed=1)
        r = run_arena(config)
        command = (f"`canasta arena --variant {variant} --players {players} --team {team} "
                   f"--vs {vs} --deals {deals} --seed 1`")
        rows.append(f"| {command} | {r.mean_diff:+.1f} ({r.ci95[0]:+.1f} .. {r.ci95[1]:+.1f}) "
                    f"| {r.hands_won[0]} / {r.hands_won[1]} "
                    f"({100 * r.hands_won[0] / max(1, r.plays):.1f}% / "
                    f"{100 * r.hands_won[1] / max(1, r.plays):.1f}%) "
                    f"| {100 * r.went_out[0]:.1f}% / {100 * r.went_out[1]:.1f}% "
                    f"| {r.decision_ms[0]['p50']:.2f} / {r.decision_ms[0]['p95']:.2f} "
                    f"| {r.seconds:.0f} |")
        print(rows[-1], flush=True)
    return rows


def server_load() -> list[str]:
    sys.path.insert(0, str(Path(__file__).parent))
    from server import measure

    return measure(20.0, steps=(1, 4, 8, 16, 24, 32, 48, 64, 96))


SECTIONS = ("random", "envs", "arena", "shards", "openspiel", "server")
SHARDS = Path(__file__).parent / "shards"


def shards() -> list[str]:
    """The long tournaments played in shards (bench/shard.py), merged: one row per file group
    (files named TOURNAMENT*.jsonl, e.g. classic-master-expert-s1.jsonl)."""
    sys.path.insert(0, str(Path(__file__).parent))
    from shard import merged

    rows = ["| tournament | deals so far | mean A - B per hand (95% CI) | hands won A / B "
            "| went out A / B | decision ms A p50 / p95 / max | files |",
            "|---|---|---|---|---|---|---|"]
    groups: dict[str, list[Path]] = {}
    for f in sorted(SHARDS.glob("*.jsonl")):
        if not f.stat().st_size:
            continue  # a tournament that has just begun
        groups.setdefault(f.name.split(".")[0].removesuffix("-b"), []).append(f)
    for files in groups.values():
        r = merged(files)
        c = r.config
        rows.append(f"| {c.variant} {c.players}p: {','.join(c.team)} vs {','.join(c.vs)}, seed "
                    f"{c.seed} | {r.deals} | {r.mean_diff:+.1f} ({r.ci95[0]:+.1f} .. "
                    f"{r.ci95[1]:+.1f}) | {r.hands_won[0]} / {r.hands_won[1]} "
                    f"| {100 * r.went_out[0]:.1f}% / {100 * r.went_out[1]:.1f}% "
                    f"| {r.decision_ms[0]['p50']:.0f} / {r.decision_ms[0]['p95']:.0f} / "
                    f"{r.decision_ms[0]['max']:.0f} "
                    f"| {', '.join(f.name for f in files)} |")
    return rows


def openspiel() -> list[str]:
    sys.path.insert(0, str(Path(__file__).parent))
    from openspiel_bots import measure

    return measure()


def envs() -> list[str]:
    sys.path.insert(0, str(Path(__file__).parent))
    from envs import measure

    return measure(10.0)


def merge(old: str, new: dict[str, str]) -> str:
    """``old`` with the sections (``## `` headings) re-measured now put in place."""
    parts: list[tuple[str, str]] = []
    title = ""
    lines: list[str] = []
    for line in old.splitlines():
        if line.startswith("## "):
            parts.append((title, "\n".join(lines)))
            title, lines = line, []
        lines.append(line)
    parts.append((title, "\n".join(lines)))
    out = []
    for t, text in parts:
        out.append(new.pop(t, text).rstrip("\n") + "\n")
    out.extend(text.rstrip("\n") + "\n" for text in new.values())  # sections not there yet
    return "\n".join(out)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--hands", type=int, default=1000)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--write", help="write the report to this Markdown file")
    p.add_argument("--no-arena", action="store_true", help="skip the computer players' matches")
    p.add_argument("--no-server", action="store_true", help="skip the game server's load test")
    p.add_argument("--only", help="measure only these sections (comma-separated: "
                   f"{', '.join(SECTIONS)}) and keep the others of the --write file as they are")
    args = p.parse_args()
    only = set(args.only.split(",")) if args.only else set(SECTIONS)
    if unknown := only - set(SECTIONS):
        p.error(f"unknown sections: {', '.join(sorted(unknown))}")
    if args.no_arena:
        only.discard("arena")
    if args.no_server:
        only.discard("server")
    today = f"Measured {dt.date.today().isoformat()} on {machine()}."
    described = {  # section: (heading, what is measured and how, the rows)
        "random": ("Random legal play (the engine alone, one core)",
                   "Every seat picks a uniformly random move from `legal_moves()` and `apply` "
                   "plays it; each hand is a fresh seeded deal (`canasta simulate` does the "
                   "same).", lambda: random_play(args.hands, args.repeats)),
        "envs": ("Research interfaces (one core)",
                 "`bench/envs.py`: uniformly random legal actions (the action mask) for whole "
                 "hands through each interface, 10 s each. A *step* is one move for the engine "
                 "and one action id for the interfaces (a move laying several groups is several "
                 "actions); OpenSpiel's chance nodes (the deal, one per card) are not counted as "
                 "steps; Gymnasium's steps are the agent's only, the other seats (our random "
                 "players) move inside `step`. OpenSpiel's random play asks for no observation; "
                 "PettingZoo and Gymnasium build the acting seat's observation vector and mask "
                 "at every step (the view, the replay of the public history for the known "
                 "cards), which is most of their cost.", envs),
        "arena": ("Computer players (the arena, all cores)",
                  "Duplicate deals: each deal is played with the sides' seats swapped. Side A "
                  "is the first team named. Decision times are per move on this machine.", arena),
        "shards": ("Master against expert (long runs, in shards)",
                   "A duplicate deal of two master seats against two experts takes about 4.5 s of "
                   "one core in Classic, 7 s in Modern American and 9 s in Ponytail (the "
                   "*seconds* of each deal in the files), so 2,000 duplicate deals are played "
                   "over several sittings: `bench/shard.py play --variant classic --team master "
                   "--vs expert --seed 1 --deals 2000 --out FILE` plays the deals one by one "
                   "(the same deals `canasta arena --seed 1` plays) and appends them to a file; "
                   "it resumes where the file stops (`--deals N` stops it at deal N), and a "
                   "second process plays the rest into `FILE-b.jsonl` (`--first N`). The files "
                   "are kept in `bench/shards/`; "
                   "this table merges them (`bench/shard.py report FILE...`). One process per "
                   "core; decision times per move.", shards),
        "openspiel": ("OpenSpiel's bots against ours (Classic, 4 players)",
                      "The one outside reference for our players: OpenSpiel's own bots "
                      "(`bench/openspiel_bots.py`, OpenSpiel 2.0.2) play side A through "
                      "`canasta.envs.openspiel.OpenSpielPlayer`, which deals them the hidden "
                      "cards afresh from their seat's view at every decision. "
                      "*openspiel-random*: its uniform random bot (one random action id at a "
                      "time); *openspiel-mcts*: `algorithms.mcts.MCTSBot` with random rollouts "
                      "(UCT constant 300, the returns being points), searching one world per "
                      "decision; *openspiel-ismcts*: `algorithms.ismcts.ISMCTSBot`, random "
                      "rollouts, a world dealt for every simulation, nodes keyed by the seat's "
                      "observation. Both searches get 50 simulations a decision (each a random "
                      "rollout to the end of the hand), so a duplicate deal costs 19 to 39 CPU "
                      "seconds (the last column) and the deals are few: the whole table is "
                      "about 67 CPU minutes (`bench/run.py --only openspiel "
                      "--write docs/BENCHMARKS.md`, two worker processes; one row: "
                      "`python bench/openspiel_bots.py --team openspiel-mcts --vs expert "
                      "--deals 40`). The deals are the arena's with seed 1 (both seatings of "
                      "each deal); the MCTS rows are exactly `examples/mcts_vs_expert.py "
                      "--simulations 50 --vs LEVEL --deals N`. Decision times are wall-clock "
                      "per move of side A while other jobs shared the two cores; CPU seconds "
                      "are per duplicate deal (both seatings, all four seats). Our master is "
                      "not in the table: the searches already lose to basic, and its rows "
                      "would take the table well past its hour of CPU.", openspiel),
        "server": ("The browser game's server (one process, loopback)",
                   "`bench/server.py`: a real `canasta serve` process; simulated players "
                   "connect over WebSockets and play (draw, discard, answer yes), thinking 1 s "
                   "before each move. *ack* is the time from sending a move to the server's "
                   "answer for it; *computer turns* is from the player's discard until the three "
                   "expert computer players have moved and it is the player's turn again (the "
                   "client then shows those moves at a readable pace).", server_load),
    }
    sections: dict[str, str] = {}
    for key in SECTIONS:
        if key in only:
            heading, intro, rows = described[key]
            sections[f"## {heading}"] = "\n".join([f"## {heading}", "", today, "", intro, "",
                                                   *rows(), ""])
    head = "\n".join([
        "# Benchmarks", "",
        "Measured figures, never timed tests. Regenerate everything with:", "",
        f"    {COMMAND}", "",
        "or some sections only, keeping the others: `.venv/bin/python bench/run.py --only "
        "envs --write docs/BENCHMARKS.md`.", ""])
    target = Path(args.write) if args.write else None
    if target is not None and target.exists() and only != set(SECTIONS):
        report = merge(target.read_text(encoding="utf-8"), sections)
    else:
        report = head + "\n" + "\n".join(sections.values())
    if target is not None:
        target.write_text(report, encoding="utf-8")
        print(f"wrote {target}")
    else:
        print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
