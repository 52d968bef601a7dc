"""The ``canasta`` command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from canasta.errors import CanastaError
from canasta.rules import TARGETS
from canasta.variants import variant_names


def _scenario(args: argparse.Namespace) -> int:
    from canasta.scenario import run_paths

    def report(o: object) -> None:
        print(o.line(), flush=True)  # type: ignore[attr-defined]

    outcomes = run_paths(args.paths, report)
    failed = sum(1 for o in outcomes if o.failure is not None)
    print(f"{len(outcomes) - failed} passed, {failed} failed")
    if any(o.malformed for o in outcomes):
        return 2
    return 1 if failed else 0


def _simulate(args: argparse.Namespace) -> int:
    from canasta.rules import Rules
    from canasta.simulate import format_report, simulate

    rules = Rules.make(args.variant, args.players, target=args.target)
    report = simulate(rules, hands=args.hands, seed=args.seed)
    print(format_report(report))
    return 0


def _replay(args: argparse.Namespace) -> int:
    from canasta.records import format_replay, load_record, replay

    record = load_record(args.record)
    match = replay(record)
    print(format_replay(match))
    return 0


def _play(args: argparse.Namespace) -> int:
    from canasta.rules import Rules
    from canasta.textplay import play_text

    rules = Rules.make(args.variant, args.players, target=args.target)
    return play_text(rules, seed=args.seed, seat=args.seat, save=args.save)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="canasta", description="Canasta: play, simulate, check.")
    sub = p.add_subparsers(dest="command", required=True)

    def table(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--variant", default="classic", choices=variant_names(),
                        help="the variant (default: classic)")
        sp.add_argument("--players", type=int, default=None,
                        help="number of players (classic: 2, 3 or 4; default 4)")
        sp.add_argument("--target", type=int, default=None, choices=TARGETS,
                        help="winning score (default: the variant's, 5000; 7500 with 3 players)")
        sp.add_argument("--seed", type=int, default=None, help="seed of the deal (default: random)")

    sp = sub.add_parser("play", help="play a game in the terminal")
    table(sp)
    sp.add_argument("--text", action="store_true", help="play in the terminal (the default now)")
    sp.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    sp.add_argument("--save", default=None, help="write the game record to this file at the end")
    sp.set_defaults(func=_play)

    sp = sub.add_parser("scenario", help="run rule scenario files or folders")
    sp.add_argument("paths", nargs="+", help="scenario files or folders (*.json, recursively)")
    sp.set_defaults(func=_scenario)

    sp = sub.add_parser("simulate", help="random legal play: speed and statistics")
    table(sp)
    sp.add_argument("--hands", type=int, default=1000, help="hands to play (default 1000)")
    sp.set_defaults(func=_simulate)

    sp = sub.add_parser("replay", help="replay a saved game record and print its scores")
    sp.add_argument("record", help="a game record (JSON)")
    sp.set_defaults(func=_replay)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "seed", 0) is None:
        import random

        args.seed = random.SystemRandom().randrange(2**31)
    try:
        result: int = args.func(args)
        return result
    except CanastaError as e:
        print(f"canasta: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ncanasta: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
