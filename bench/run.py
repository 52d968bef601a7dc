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

from canasta import core
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
    rows = [f"| variant | players | hands | hands per second (best of {repeats}; "
            f"{core.describe()}) | moves per hand |", "|---|---|---|---|---|"]
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


def arena(workers: int | None = None) -> list[str]:
    from canasta.arena import ArenaConfig, run_arena

    rows = ["| command | mean A - B per hand (95% CI) | hands won A / B | went out A / B "
            "| decision ms A p50 / p95 | seconds |", "|---|---|---|---|---|---|"]
    for variant, players, team, vs, deals in ARENA:
        config = ArenaConfig(variant, players, tuple(team.split(",")), tuple(vs.split(",")),
                             deals, seed=1)
        r = run_arena(config, workers=workers)
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


def store_load() -> list[str]:
    sys.path.insert(0, str(Path(__file__).parent))
    from server import measure_store

    return measure_store(2000)


def server_load() -> list[str]:
    sys.path.insert(0, str(Path(__file__).parent))
    from server import measure

    return measure(20.0, steps=(1, 4, 8, 16, 24, 32, 48, 64, 96))


def tables_load() -> list[str]:
    sys.path.insert(0, str(Path(__file__).parent))
    from server import measure_tables

    return measure_tables(20.0, steps=(1, 4, 8, 16, 24, 32))


SECTIONS = ("random", "core", "envs", "arena", "shards", "strategy", "yardsticks", "openspiel",
            "server", "tables", "store")
SHARDS = Path(__file__).parent / "shards"
SUITE = Path(__file__).resolve().parents[1] / "tests" / "strategy"
TABLES = (("classic", 2, "Classic 2p"), ("classic", 3, "Classic 3p"), ("classic", 4, "Classic 4p"),
          ("modern-american", 4, "Modern American"), ("ponytail", 4, "Ponytail 4p"),
          ("ponytail", 6, "Ponytail 6p"))


def strategy() -> list[str]:
    """The strategy suite scored for every level, table by table."""
    from canasta.bots import LEVELS
    from canasta.strategy import load_cases, run_levels

    cases = load_cases([SUITE])
    rows = ["| level | " + " | ".join(t for _v, _p, t in TABLES) + " | all |",
            "|---|" + "---|" * (len(TABLES) + 1)]
    for level, verdicts in run_levels(cases, LEVELS).items():
        cells = []
        for variant, players, _title in TABLES:
            mine = [v for v in verdicts if v.case.position["variant"] == variant
                    and v.case.position["players"] == players]
            cells.append(f"{sum(v.passed for v in mine)} of {len(mine)}")
        passed = sum(v.passed for v in verdicts)
        rows.append(f"| {level} | " + " | ".join(cells)
                    + f" | **{passed} of {len(verdicts)}** ({100 * passed / len(verdicts):.0f}%) |")
        print(rows[-1], flush=True)
    return rows


def yardsticks() -> list[str]:
    sys.path.insert(0, str(Path(__file__).parent))
    from yardsticks import measure

    return measure()


def shards() -> list[str]:
    """The long tournaments played in shards (bench/shard.py), merged: one row per file group
    (files named TOURNAMENT*.jsonl, e.g. classic-master-expert-s1.jsonl)."""
    sys.path.insert(0, str(Path(__file__).parent))
    from canasta.arena.stats import p_text
    from shard import merged

    rows = ["| tournament | deals so far | mean A - B per hand (95% CI) | hands won A / B "
            "| deals won A / B (sign test p) "
            "| went out A / B | decision ms A p50 / p95 / max | files |",
            "|---|---|---|---|---|---|---|---|"]
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
                    f"| {r.deals_won[0]} / {r.deals_won[1]} "
                    f"({p_text(r.sign_p)}) "
                    f"| {100 * r.went_out[0]:.1f}% / {100 * r.went_out[1]:.1f}% "
                    f"| {r.decision_ms[0]['p50']:.0f} / {r.decision_ms[0]['p95']:.0f} / "
                    f"{r.decision_ms[0]['max']:.0f} "
                    f"| {', '.join(f.name for f in files)} |")
    return rows


def core_speed() -> list[str]:
    sys.path.insert(0, str(Path(__file__).parent))
    from speed import side_by_side

    return side_by_side(300, 3, "02804b9")


def openspiel() -> list[str]:
    sys.path.insert(0, str(Path(__file__).parent))
    from openspiel_bots import measure

    return measure()


def envs() -> list[str]:
    sys.path.insert(0, str(Path(__file__).parent))
    from envs import measure, side_by_side

    return [*measure(10.0), "", *side_by_side(40, 2, "02804b9")]


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
    p.add_argument("--workers", type=int, default=None,
                   help="the arena's worker processes (default: all cores)")
    p.add_argument("--only", help="measure only these sections (comma-separated: "
                   f"{', '.join(SECTIONS)}) and keep the others of the --write file as they are")
    args = p.parse_args()
    only = set(args.only.split(",")) if args.only else set(SECTIONS)
    if unknown := only - set(SECTIONS):
        p.error(f"unknown sections: {', '.join(sorted(unknown))}")
    if args.no_arena:
        only.discard("arena")
    if args.no_server:
        only.difference_update({"server", "tables"})
    today = f"Measured {dt.date.today().isoformat()} on {machine()}."
    described = {  # section: (heading, what is measured and how, the rows)
        "random": ("Random legal play (the engine alone, one core)",
                   "Every seat picks a uniformly random move from `legal_moves()` and `apply` "
                   "plays it; each hand is a fresh seeded deal (`canasta simulate` does the "
                   "same).", lambda: random_play(args.hands, args.repeats)),
        "core": ("The compiled core and the pure Python core (random play, one core)",
                 "`python bench/speed.py --hands 300 --repeats 3 --against 02804b9`: the "
                 "same random hands (`canasta simulate --seed 7`; Ponytail a fifth as many "
                 "hands, each 3 to 4 times longer) played by this engine compiled with mypyc "
                 "(`make install`), by the same source as pure Python "
                 "(`CANASTA_PURE_PYTHON=1`) and by the engine of commit 02804b9, each in a "
                 "child process that measures its own CPU time (the best of 3). The compiled "
                 "and the pure runs play the same moves (the script checks the counts; "
                 "`tests/test_core.py` checks every move).", core_speed),
        "envs": ("Research interfaces (one core)",
                 "`bench/envs.py`: uniformly random legal actions (the action mask) for whole "
                 "hands through each interface, 10 s each. A *step* is one move for the engine "
                 "and one action id for the interfaces (a move laying several groups is several "
                 "actions); OpenSpiel's chance nodes (the deal, one per card) are not counted as "
                 "steps; Gymnasium's steps are the agent's only, the other seats (our random "
                 "players) move inside `step`. OpenSpiel's random play asks for no observation; "
                 "PettingZoo and Gymnasium build the acting seat's observation vector and mask "
                 "at every step (the view; the known cards followed from the moves since the "
                 "last observation; each seat's vector kept between steps by "
                 "`observation.Observer`, which works out again only the parts whose view "
                 "fields changed). The agent picks its random action with `random.Random` "
                 "over the mask's nonzero ids (from commit e333e78 on: numpy's "
                 "`Generator.choice` before cost about 10 us a step of the agent's own; "
                 "both engines of the second table run the same agent). The second table, "
                 "`python bench/envs.py --against 02804b9 "
                 "--hands 40 --repeats 2`, gives PettingZoo's and Gymnasium's steps per CPU "
                 "second side by side with that commit's (its `src`, pure Python; ours with "
                 "the core built, so the compiled modules run unless `CANASTA_PURE_PYTHON=1`), "
                 "each run in a child process timing its own CPU, the best of 2.", envs),
        "arena": ("Computer players (the arena, all cores)",
                  "Duplicate deals: each deal is played with the sides' seats swapped. Side A "
                  "is the first team named. Decision times are per move on this machine"
                  + (f", with {args.workers} worker process{'es' if args.workers > 1 else ''} "
                     "(`--workers`)" if args.workers else "") + ". The master's time caps "
                  "count its thread's CPU time in the arena, as in `bench/shard.py`, "
                  "`bench/yardsticks.py` and `canasta strategy` (`make_player(..., "
                  "clock=\"cpu\")`): a busy machine does not measure a weaker master. Live "
                  "play counts wall-clock time.",
                  lambda: arena(args.workers)),
        "shards": ("Master against expert (long runs, in shards)",
                   "A duplicate deal of two master seats against two experts took about 4.5 s "
                   "of one core in Classic, 7 s in Modern American and 9 s in Ponytail with the "
                   "earlier bots; with today's (whose play-outs finish the master's turn as the "
                   "expert) a Classic deal took a median 20 s of wall-clock on a machine shared "
                   "with other jobs, load average 5 to 7 (the *seconds* of each deal in the "
                   "files), so 2,000 duplicate deals are played "
                   "over several sittings: `bench/shard.py play --variant classic --team master "
                   "--vs expert --seed 1 --deals 2000 --out FILE` plays the deals one by one "
                   "(the same deals `canasta arena --seed 1` plays) and appends them to a file; "
                   "it resumes where the file stops (`--deals N` stops it at deal N), and a "
                   "second process plays the rest into `FILE-b.jsonl` (`--first N`). The files "
                   "are kept in `bench/shards/`; "
                   "this table merges them (`bench/shard.py report FILE...`). One process per "
                   "core; decision times per move, wall-clock. The Ponytail expert against "
                   "basic is played the same way (`--team expert --vs basic`). The files "
                   "named `-cpu` are played with the master's caps on CPU time (commit a1caa2d "
                   "on) and the bots of commit 45fc5d0, compiled core, at nice 10 or 19 (the "
                   "caps count CPU time, so other jobs do not weaken the master; a Classic "
                   "deal about 5 s of one core): the ladder's every rung with today's bots, "
                   "basic against random, expert against basic and master against expert over "
                   "2,000 deals each, Modern American's master against expert over more (the "
                   "wall-clock decision times "
                   "of these files include the waits of a process at nice 19, and Modern "
                   "American's maximum a pause of the shards while `make test` was timed; the "
                   "same bots "
                   "ran on the compiled core of each session's engine, faster from session to "
                   "session, so later deals gave the master's capped search as many rounds or "
                   "more: Classic deals 573-1064, Modern American 466-999 and Ponytail "
                   "126-281 were played on commit ad48ebf's core, Modern American 1000-1159 "
                   "and Ponytail 282-374 on 3b04054's, Classic 1065-1803 and Ponytail "
                   "375-749 and Modern American 1160-1278 on 3ca308e's, Classic 1804-1999, "
                   "Modern American 1279-1481 and Ponytail 750-791 on 004ff22's, Modern "
                   "American 1482-1999 and Ponytail 792-1999 on 5731139's, Modern American "
                   "2000-2239 and 3500-3748 on 6d559cc's; Ponytail 1672-1999 and Modern "
                   "American 3500-3748 in the `-b` files, played by a second process); the "
                   "others "
                   "hold earlier bots with wall-clock caps and stay for the record. *Deals won*: "
                   "the duplicate deals whose plays together scored more for side A, and for "
                   "side B (ties left out), with the sign test's two-sided p-value, the chance "
                   "of a split at least this uneven between two equal sides. The two answer "
                   "different questions: the sign test whether a side wins more deals than it "
                   "loses, the mean whether it scores more on average. In Modern American a "
                   "hand's difference has a standard deviation of about 2,050 points (the "
                   "2,500-point sevens and aces canastas and penalties; 428 in Classic, 682 "
                   "in Ponytail), so its mean needs several times the deals to be told from "
                   "zero.", shards),
        "strategy": ("The strategy suite (one core)",
                     "`canasta strategy tests/strategy`: positions from every table with the moves "
                     "a strong player makes or avoids, each with its reason from published "
                     "strategy advice (docs/STRATEGY.md); the answers to \"may I go out?\" are "
                     "in `tests/strategy/with-steps/`, the cases that use the project's `steps` "
                     "addition to the shared format. A level passes a case when its move, "
                     "chosen from the seat's view, is none of the moves to avoid and one of the "
                     "best moves where the case names them. Targets for the computer players: "
                     "expert 80%, master 85%. The master's search stops at its time cap "
                     "(CPU time of its thread) on a slow machine, so its row can move by a case "
                     "or two between machines, not with the machine's load.", strategy),
        "yardsticks": ("Club yardsticks (whole hands, one core)",
                       "`bench/yardsticks.py`: every seat plays at the level named, one fresh "
                       "seeded deal a hand (seed 1, the first hand of a match); each figure is "
                       "counted at the seats' own decisions from what the seat could see. "
                       "*Decisions*: moves chosen among two or more legal ones. *Avoidable "
                       "feed*: the discard of a natural card that the next player's side (an "
                       "opponent) could take the pile with by the variant's take rule "
                       "(`Variant.take_error`), using its melds on the table (Classic, "
                       "Ponytail: a meld of that rank that may grow, the pile not frozen for it) "
                       "or the cards the discarder saw that player take from the pile and not "
                       "show since (a natural pair of the rank; one and a wild card where the "
                       "pile is not frozen for it), while another listed discard was neither such "
                       "a feed nor a wild card (a black three, a rank that side cannot take "
                       "with); a discard that goes out is not counted. Targets: 0.3 per 100 "
                       "decisions for expert and master. *Stripped hands*: of the draw turns "
                       "with 40 cards or more in the stock before the seat's side has a canasta, "
                       "the share at which the seat holds 2 cards or fewer (target 10%). *Wild "
                       "cards for small piles*: wild cards from hand in takes of a pile of 3 "
                       "cards or fewer, top card included. *Piles of 12+ declined* (Modern "
                       "American): draw turns with a pile of 12 or more and a legal take at "
                       "which the seat drew instead (target 0.3 per hand), and in brackets "
                       "how many of those judged a strong player would have taken: the take "
                       "the expert judges best and the draw are played in 12 deals of the "
                       "cards the seat cannot see, the rest of the hand by the expert at every "
                       "seat as for the answers below, the decline wrong when the take scores "
                       "better by 2 standard errors, and the mean of take less draw over the "
                       "judged piles. *Black threes taken* (Ponytail): black threes in the piles "
                       "the seats took. *Answers "
                       "reversed*: each answer to \"may I go out?\" is judged by the engine's "
                       "own search: in 12 deals of the cards the answerer cannot see (the "
                       "asker's hand kept as it is, since the question says it can go out) both "
                       "answers are played and the rest of the hand is played out by the expert "
                       "at every seat, the same players and deal for both; the answer counts as "
                       "reversed when the other one scores better for the answerer's side (its "
                       "hand score less the mean of the other sides') by 2 standard errors of the "
                       "paired differences (24 expert hands played out per judged answer). The "
                       "seconds column is each row's time on one core; most of it goes to the "
                       "master's searches and the judge's rollouts.", yardsticks),
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
        "store": ("The browser game's store (2,000 stored games)",
                  "`bench/server.py store`: a real `canasta serve` process on a database of "
                  "2,000 finished matches (eight real Classic matches to 10,000, stored under "
                  "2,000 ids) written as a server of before the summaries wrote it, so that "
                  "the first start builds them. Each request is asked while a WebSocket of one "
                  "game sends `sync` every 10 ms: the *sync* column is how late the server's "
                  "answers to it come meanwhile (the event loop being held up shows there). "
                  "Before the summaries (the code of commit 02804b9, which parsed every record "
                  "on the event loop: `git archive 02804b9 src | tar -x -C /tmp/base && "
                  "PYTHONPATH=/tmp/base/src .venv/bin/python bench/server.py store`, the same "
                  "day and machine, load average about 7), `GET /api/games` took 8,989 ms "
                  "(p50 of 5; max 10,392) and `GET /api/stats` 5,996 ms (max 11,953), and the "
                  "socket's answers waited up to 11,900 ms.", store_load),
        "tables": ("Tables with friends on the browser game's server (one process, loopback)",
                   "`bench/server.py tables`: a real `canasta serve` process; each table is "
                   "opened, joined and started over HTTP, then its two people play through "
                   "their own sockets of the match (`/ws/tables/{id}/play`), thinking 1 s "
                   "before each of their moves (draw, discard, answer yes), while the two "
                   "computer players take their turns. *ack* is from a person's move to the "
                   "answer carrying its request id (the partner's and the computer players' "
                   "moves arrive on the same socket meanwhile).", tables_load),
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
