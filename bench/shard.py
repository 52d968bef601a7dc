"""A long arena run in shards: deals are played one by one and appended to a JSON-lines file,
so a tournament too long for one sitting (master against expert over 2,000 duplicate deals) can
be resumed and its shards merged into one arena report.

Every deal of the arena is seeded on its own (`canasta.arena.play_deal`), so the deals played
here are exactly the deals `canasta arena` would play with the same seed.

    python bench/shard.py play --variant classic --team master --vs expert --seed 1 \
        --deals 2000 --out build/shards/classic-master-expert.jsonl
    python bench/shard.py report build/shards/classic-master-expert.jsonl [--json]
    python bench/shard.py compact FILE... --into bench/shards/   # keep them in the repository

Decision times are kept to 0.1 ms.  The shards measured so far are in ``bench/shards/``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path

from canasta.arena import (
    ArenaConfig,
    ArenaReport,
    PlayResult,
    format_report,
    play_deal,
    summarize,
)


def _config(header: dict[str, object]) -> ArenaConfig:
    return ArenaConfig(variant=str(header["variant"]), players=int(str(header["players"])),
                       team=tuple(header["team"]),  # type: ignore[arg-type]
                       vs=tuple(header["vs"]),  # type: ignore[arg-type]
                       deals=int(str(header["deals"])), seed=int(str(header["seed"])))


def _read(path: Path, seconds: dict[int, float] | None = None
          ) -> tuple[dict[str, object] | None, dict[int, list[PlayResult]]]:
    """The tournament's header and its deals (``seconds``: filled with each deal's time)."""
    header: dict[str, object] | None = None
    deals: dict[int, list[PlayResult]] = {}
    if not path.exists():
        return header, deals
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by an interrupted run: that deal is played again
        if "config" in row:
            header = row["config"]
            continue
        if seconds is not None:
            seconds[int(row["deal"])] = float(row.get("seconds", 0.0))
        deals[int(row["deal"])] = [
            PlayResult(p["a"], p["b"], tuple(p["went_out"]), tuple(p["canastas"]), p["hands"],
                       (p["times"][0], p["times"][1])) for p in row["plays"]]
    return header, deals


def _row(deal: int, seconds: float, plays: list[PlayResult]) -> str:
    out = []
    for p in plays:
        d = asdict(p)
        d["times"] = [[round(t, 1) for t in ts] for ts in p.times]
        out.append(d)
    return json.dumps({"deal": deal, "seconds": round(seconds, 2), "plays": out},
                      separators=(",", ":"))


def play(args: argparse.Namespace) -> int:
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    header = {"variant": args.variant, "players": args.players, "team": args.team.split(","),
              "vs": args.vs.split(","), "deals": args.deals, "seed": args.seed}
    old, done = _read(out)
    if old is not None and {k: v for k, v in old.items() if k != "deals"} != {
            k: v for k, v in header.items() if k != "deals"}:
        print(f"{out} holds another tournament: {old}", file=sys.stderr)
        return 2
    config = _config(header)
    with out.open("a") as f:
        if old is None:
            f.write(json.dumps({"config": header}) + "\n")
            f.flush()  # a report run meanwhile sees the tournament, not an empty file
        for deal in range(args.first, args.deals):
            if deal in done:
                continue
            start = time.perf_counter()
            plays = play_deal(config, deal)
            f.write(_row(deal, time.perf_counter() - start, plays) + "\n")
            f.flush()
    return 0


def merged(files: list[Path]) -> ArenaReport:
    """One arena report from the shard files of one tournament (ValueError if they differ)."""
    header: dict[str, object] | None = None
    deals: dict[int, list[PlayResult]] = {}
    for path in files:
        h, d = _read(path)
        if h is None:
            raise ValueError(f"{path}: no tournament header")
        if header is not None and {k: v for k, v in h.items() if k != "deals"} != {
                k: v for k, v in header.items() if k != "deals"}:
            raise ValueError(f"{path} holds another tournament")
        header = h
        deals.update(d)
    if header is None:
        raise ValueError("no shard files")
    per_deal = [deals[k] for k in sorted(deals)]
    return summarize(_config({**header, "deals": len(per_deal)}), per_deal, 0.0)


def report(args: argparse.Namespace) -> int:
    try:
        r = merged([Path(f) for f in args.files])
    except ValueError as e:
        print(e, file=sys.stderr)
        return 2
    print(json.dumps(r.to_json()) if args.json else format_report(r))
    return 0


def compact(args: argparse.Namespace) -> int:
    """Rewrite shard files (times to 0.1 ms, deals in order) into a folder."""
    into = Path(args.into)
    into.mkdir(parents=True, exist_ok=True)
    for name in args.files:
        seconds: dict[int, float] = {}
        header, deals = _read(Path(name), seconds)
        if header is None:
            print(f"{name}: no tournament header yet, left out", file=sys.stderr)
            continue
        rows = [json.dumps({"config": header})]
        rows += [_row(d, seconds[d], deals[d]) for d in sorted(deals)]
        (into / Path(name).name).write_text("\n".join(rows) + "\n")
        print(f"{into / Path(name).name}: {len(deals)} deals")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="play deals and append them to a file (resumes)")
    p.add_argument("--variant", default="classic")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--team", default="master")
    p.add_argument("--vs", default="expert")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--first", type=int, default=0, help="first deal number of this shard")
    p.add_argument("--deals", type=int, default=2000, help="play deals up to this number")
    p.add_argument("--out", required=True)
    r = sub.add_parser("report", help="merge shard files into one arena report")
    r.add_argument("files", nargs="+")
    r.add_argument("--json", action="store_true")
    c = sub.add_parser("compact", help="rewrite shard files compactly into a folder")
    c.add_argument("files", nargs="+")
    c.add_argument("--into", required=True)
    args = parser.parse_args(argv)
    commands = {"play": play, "report": report, "compact": compact}
    return commands[args.command](args)


if __name__ == "__main__":
    raise SystemExit(main())
