"""The ``canasta`` command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from canasta import __version__, core
from canasta.errors import CanastaError
from canasta.rules import TARGETS, Rules
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


def _strategy(args: argparse.Namespace) -> int:
    from canasta.bots import LEVELS
    from canasta.strategy import load_cases, run_levels

    if args.level is not None and args.level not in LEVELS:
        raise CanastaError(f"--level must be one of {', '.join(LEVELS)}")
    if args.rounds is not None and args.rounds < 1:
        raise CanastaError("--rounds must be at least 1")
    cases = load_cases(args.paths)
    levels = [args.level] if args.level else list(LEVELS)
    run_levels(cases, levels, args.rounds, lambda line: print(line, flush=True))
    return 0


def _option_value(text: str) -> object:
    """An option's value as typed: true / false, a number, or a word."""
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text.strip()


#: What the table's own flags set, not --option (Rules.make takes these names too).
FLAGGED = {"variant": "the variant", "players": "the number of players",
           "target": "the winning score"}


def _options(args: argparse.Namespace) -> dict[str, object]:
    """The rule options given with --option NAME=VALUE (Rules.make checks them)."""
    out: dict[str, object] = {}
    for item in getattr(args, "option", None) or []:
        name, eq, value = item.partition("=")
        if not eq or not name.strip() or not value.strip():
            raise CanastaError(f"--option takes NAME=VALUE, such as "
                               f"--option required_canastas=four-books, not '{item}'")
        name = name.strip()
        if name in FLAGGED:
            raise CanastaError(f"unknown option '{name}' ({FLAGGED[name]} is set by --{name})")
        out[name] = _option_value(value)
    return out


def _rules(args: argparse.Namespace) -> Rules:
    options = _options(args)
    rules = Rules.make(args.variant, args.players, target=args.target, **options)
    for name in options:
        tables = rules.variant.declared_option(name).players
        if tables is not None and rules.players not in tables:
            counts = " or ".join(str(p) for p in tables)
            raise CanastaError(f"--option {name} is for {counts} players, not {rules.players}")
    return rules


def _simulate(args: argparse.Namespace) -> int:
    from canasta.simulate import format_report, simulate

    if args.hands < 1:
        raise CanastaError("--hands must be at least 1")
    rules = _rules(args)
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
    if not args.text:
        if args.option:
            raise CanastaError("--option is for the terminal game (--text); in the browser, "
                               "choose the table options on the start screen")
        return _serve(args)
    from canasta.bots import LEVELS
    from canasta.textplay import play_text

    rules = _rules(args)
    if args.level not in LEVELS:
        raise CanastaError(f"--level must be one of {', '.join(LEVELS)}")
    levels = {s: args.level for s in range(rules.players)}
    for item in args.seat_level or []:
        seat_text, _, level = item.partition("=")
        seat_text = seat_text.strip()
        # ASCII digits only: str.isdigit() takes '²' or '١', which int() then refuses or reads
        if not (seat_text.isascii() and seat_text.isdigit()) or level not in LEVELS:
            raise CanastaError(f"--seat-level takes SEAT=LEVEL with a level among "
                               f"{', '.join(LEVELS)}, not '{item}'")
        seat = int(seat_text)
        if not 0 <= seat < rules.players or seat == args.seat:
            raise CanastaError(f"--seat-level: seat {seat} is not a computer seat")
        levels[seat] = level
    return play_text(rules, seed=args.seed, seat=args.seat, save=args.save, levels=levels,
                     lang=args.lang)


def _arena(args: argparse.Namespace) -> int:
    import json

    from canasta.arena import ArenaConfig, format_report, run_arena
    from canasta.bots import LEVELS

    def levels(text: str, flag: str, seats: int, side: str) -> tuple[str, ...]:
        """The levels of a side's seats in turn (fewer than its seats are taken again in
        turn: arena.seatings); more than its seats would be named in the report unplayed."""
        out = tuple(x.strip() for x in text.split(",") if x.strip())
        bad = [x for x in out if x not in LEVELS]
        if not out or bad:
            raise CanastaError(f"levels are {', '.join(LEVELS)} separated by commas, not "
                               f"'{text}'")
        if len(out) > seats:
            raise CanastaError(f"{flag} lists {len(out)} levels, but side {side} has {seats} "
                               f"seat{'s' if seats > 1 else ''} at a {rules.players}-player "
                               f"{rules.variant.name} table"
                               + (" (every seat but side A's)" if side == "B" else ""))
        return out

    if args.deals < 1:
        raise CanastaError("--deals must be at least 1")
    if args.workers is not None and args.workers < 1:
        raise CanastaError("--workers must be at least 1")
    rules = _rules(args)
    a_seats = rules.players // rules.n_sides  # side A's seats; side B has all the others
    b_seats = rules.players - a_seats
    team = levels(",".join(["expert"] * a_seats) if args.team is None else args.team,
                  "--team", a_seats, "A")
    vs = levels(",".join(["basic"] * b_seats) if args.vs is None else args.vs,
                "--vs", b_seats, "B")
    config = ArenaConfig(rules.variant.name, rules.players, team, vs,
                         args.deals, args.seed if args.seed is not None else 0, args.match,
                         args.target, tuple(sorted(_options(args).items())))
    report = run_arena(config, args.executor, args.workers)
    print(json.dumps(report.to_json()) if args.json else format_report(report))
    return 0


def serve_options(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--host", default="127.0.0.1",
                    help="address to listen on (127.0.0.1); only its name is answered")
    sp.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    sp.add_argument("--db", default=None,
                    help="the games database (default: games.sqlite3 in the user's data folder)")
    sp.add_argument("--no-browser", action="store_true",
                    help="do not open a browser (it opens only where a desktop exists)")
    sp.add_argument("--public-url", default=None, metavar="URL",
                    help="the address people reach the server at, such as "
                         "https://cards.example.org behind a proxy: pages from it may use "
                         "the server, and the tables' invite links point there "
                         "(docs/DEPLOY.md)")


def _serve(args: argparse.Namespace) -> int:
    if not 1 <= args.port <= 65535:  # 0 would be a port of the system's choosing: not shown
        raise CanastaError("--port must be 1 to 65535")
    try:
        from canasta.web.app import serve
        from canasta.web.store import StoreOpenError
    except ImportError as e:  # the web extra is not installed
        print(f"canasta: the browser game needs its packages ({e.name}): "
              "pip install 'canasta[web]'", file=sys.stderr)
        return 2
    public_url = getattr(args, "public_url", None)
    if public_url is not None:
        from canasta.web.app import public_origin

        try:
            public_origin(public_url)
        except ValueError as e:
            print(f"canasta: --public-url: {e}", file=sys.stderr)
            return 2
    try:
        serve(args.host, args.port, args.db, open_browser=not args.no_browser,
              public_url=public_url)
    except StoreOpenError as e:  # the games database: what is wrong with which path
        print(f"canasta: {e}", file=sys.stderr)
        return 2
    return 0


def build_parser() -> argparse.ArgumentParser:
    from canasta.bots import LEVELS  # the help lists the registry's levels, whatever they are

    levels = ", ".join(LEVELS)
    p = argparse.ArgumentParser(prog="canasta", description="Canasta: play, simulate, check.")
    p.add_argument("--version", action="version",
                   version=f"canasta {__version__} ({core.describe(why=True)})",
                   help="the version, and which engine core runs (compiled or pure Python)")
    sub = p.add_subparsers(dest="command", required=True)

    def table(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--variant", default="classic", choices=variant_names(),
                        help="the variant (default: classic)")
        sp.add_argument("--players", type=int, default=None,
                        help="number of players (classic: 2, 3 or 4; default 4)")
        sp.add_argument("--target", type=int, default=None, choices=TARGETS,
                        help="winning score (default: the variant's, 5000; 7500 with 3 players)")
        sp.add_argument("--seed", type=int, default=None,
                        help="seed of the deals (default: random; arena: 0)")
        sp.add_argument("--option", action="append", metavar="NAME=VALUE",
                        help="a table option (house rule), e.g. --option "
                             "required_canastas=four-books; README.md's 'The rules' lists them")

    sp = sub.add_parser("play", help="play a game (the browser game; --text: in the terminal)")
    table(sp)
    sp.add_argument("--text", action="store_true",
                    help="play in the terminal (without it: the browser game, as 'serve')")
    serve_options(sp)
    sp.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    sp.add_argument("--save", default=None, help="write the game record to this file at the end")
    sp.add_argument("--level", default="expert",
                    help=f"level of the computer players: {levels} (default: expert)")
    sp.add_argument("--seat-level", action="append", metavar="SEAT=LEVEL",
                    help="the level of one computer seat, e.g. --seat-level 2=basic (partner)")
    sp.add_argument("--lang", choices=("en", "es"), default=None,
                    help="the terminal game's language (default: from LC_ALL, LC_MESSAGES or "
                         "LANG; es: Spanish, with the cards typed in Spanish letters: "
                         "docs/I18N.md)")
    sp.set_defaults(func=_play)

    sp = sub.add_parser("serve", help="the browser game: start the game server")
    serve_options(sp)
    sp.set_defaults(func=_serve)

    sp = sub.add_parser("scenario", help="run rule scenario files or folders")
    sp.add_argument("paths", nargs="+", help="scenario files or folders (*.json, recursively)")
    sp.set_defaults(func=_scenario)

    sp = sub.add_parser("strategy", help="run strategy cases: the moves each level gets right")
    sp.add_argument("paths", nargs="+", help="strategy case files or folders (*.json)")
    sp.add_argument("--level", default=None,
                    help=f"only this level (default: each of {levels} in turn)")
    sp.add_argument("--rounds", type=int, default=None,
                    help="the master's search rounds (default: its own)")
    sp.set_defaults(func=_strategy)

    sp = sub.add_parser("simulate", help="random legal play: speed and statistics")
    table(sp)
    sp.add_argument("--hands", type=int, default=1000, help="hands to play (default 1000)")
    sp.set_defaults(func=_simulate)

    sp = sub.add_parser("arena", help="duplicate deals between computer players")
    table(sp)
    sp.add_argument("--team", default=None,
                    help="side A's levels, seat by seat, at most one a seat, taken again in "
                         "turn for more seats (default: expert at every seat)")
    sp.add_argument("--vs", default=None,
                    help="side B's levels, for every other seat in turn, at most one a seat "
                         "(default: basic at every seat)")
    sp.add_argument("--deals", type=int, default=200, help="duplicate deals (default 200)")
    sp.add_argument("--match", action="store_true", help="play whole matches, not hands")
    sp.add_argument("--executor", default="process", choices=("process", "serial", "ray"),
                    help="where to play: all cores (default), this process, or Ray")
    sp.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    sp.add_argument("--json", action="store_true", help="print the report as JSON")
    sp.set_defaults(func=_arena)

    sp = sub.add_parser("replay", help="replay a saved game record and print its scores")
    sp.add_argument("record", help="a game record (JSON)")
    sp.set_defaults(func=_replay)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "seed", 0) is None and args.command != "arena":
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
