"""Cross-check of two engines: the same hands walked in both must give the same positions.

Each hand is dealt from a seed and played by a policy that sees only the listed moves' texts
(so both engines make the same choices while they agree).  At every position the record holds
the listed moves in order, the position (its JSON and the turn's facts), what two seats see
(their views and observation vectors), the position after each listed move, and the verdict of
``check`` on moves made up from the hand (with the position after each accepted one).  The
records are hashed position by position; two engines agree when every hash does.

    python tests/crosscheck.py --against 7a4c7b0 --positions 100000
        walks the hands in this worktree's engine and in the one of that commit (``git
        archive`` into a temporary directory, run in a subprocess) and reports the first
        position that differs, with the parts of its record that differ
    python tests/crosscheck.py --against 7a4c7b0 --positions 100000 --unordered
        the same, each listing compared as the set of its moves (in the order of their texts)
    python tests/crosscheck.py --write tests/data/crosscheck.json --positions 3000
        stores the hashes of this engine (run it with PYTHONPATH pointing at the reference
        engine's ``src``); tests/test_crosscheck.py checks the engine against them

Only the public API is used (``legal_moves``, ``check``, ``apply``, ``copy``, positions as
JSON, ``view_of``, ``observe``), so any engine that keeps it can be compared.
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from canasta.cards import Card
from canasta.engine.deal import deal, shuffled_deck
from canasta.engine.melds import Meld
from canasta.errors import CanastaError
from canasta.match import hand_seed
from canasta.moves import Move, parse_move
from canasta.position import position_to_json
from canasta.rules import Rules

try:
    from canasta.envs.observation import observe
except ImportError:  # the rl extra is optional: without numpy the vectors are left out
    observe = None  # type: ignore[assignment]

ROOT = Path(__file__).resolve().parents[1]

#: The tables walked: variant, players, options (house rules included, so that their branches
#: are compared too).
TABLES: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("classic", 2, {}),
    ("classic", 2, {"two_player_last_card_rule": "pagat"}),
    ("classic", 3, {"table_penalties_mode": True}),
    ("classic", 4, {}),
    ("classic", 4, {"wild_ratio": "not-more-wilds"}),
    ("modern-american", 4, {}),
    ("ponytail", 4, {}),
    ("ponytail", 4, {"required_canastas": "four-books"}),
    ("ponytail", 6, {"minimum_by": "hand", "cut_bonus": 0.5, "count_unpicked_ponytails": True}),
)
#: Scores before the hand (by the first side's), so that every initial-meld minimum is met.
SCORES = (0, -200, 1600, 3100, 5200)
PROBES = 10  # made-up moves checked per position

VIEW_FIELDS = ("seat", "hand_number", "scores", "turn", "phase", "hand", "hand_sizes", "melds",
               "threes", "pile_top", "pile_size", "pile", "pile_frozen", "start_frozen",
               "stock_size", "ponytail_sizes", "melded", "asked", "penalties", "bonuses",
               "turn_facts", "asking", "answer", "drew", "history", "legal_moves", "result",
               "penalized")


def canon(x: Any) -> Any:
    """A JSON value for ``x`` that does not depend on the process (no addresses, no set
    order)."""
    if x is None or isinstance(x, bool | int | float | str):
        return x
    if isinstance(x, Card):
        return x.text
    if isinstance(x, Move):
        return str(x)
    if isinstance(x, Meld):
        return [x.rank, sorted(c.text for c in x.cards)]
    if isinstance(x, set | frozenset):
        return sorted(json.dumps(canon(v)) for v in x)
    if isinstance(x, dict):
        return {str(k): canon(v) for k, v in x.items()}
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return {f.name: canon(getattr(x, f.name)) for f in dataclasses.fields(x)
                if f.name != "rules"}
    if hasattr(x, "to_json"):
        return canon(x.to_json())
    return [canon(v) for v in x]


def facts(state: Any) -> dict[str, Any]:
    """The position as a player's next move depends on it: the JSON of the scenario format
    and the facts that format leaves out."""
    return {
        "json": position_to_json(state),
        "asking": state.asking, "answer": state.answer, "drew": state.drew,
        "frozen": state.frozen, "penalties": list(state.penalties),
        "penalized": list(state.penalized), "bonuses": list(state.bonuses),
        "turn_start_melded": state.turn_start_melded, "turn_melded": state.turn_melded,
        "turn_old_touched": state.turn_old_touched,
        "turn_new_ranks": sorted(state.turn_new_ranks),
        "black_threes_down": state.black_threes_down,
        # The history follows from the path; its length and last move tell a change apart.
        "history": _history(state.history),
        "result": None if state.result is None else state.result.to_json(),
    }


def _history(history: Any) -> list[Any]:
    return [len(history), *([history[-1][0], str(history[-1][1])] if history else [])]


def _after(state: Any, move: Move) -> Any:
    trial = state.copy()
    trial.apply(move)
    return facts(trial)


def probes(state: Any, rng: random.Random) -> list[str]:
    """Moves made up from the position (other suits, whole ranks, the hand but one card...),
    written as text; some are legal, most are not."""
    seat = state.turn
    hand = sorted(state.hands[seat], key=lambda c: c.id)
    out = ["draw", "pass", "ask", "yes", "no", "take"]
    if not hand:
        return out
    ranks: dict[str, list[Card]] = {}
    for c in hand:
        ranks.setdefault(c.rank, []).append(c)
    wild = [c for c in hand if c.is_wild]
    for c in set(hand):
        out.append(f"discard {c.text}")
    for r, cs in ranks.items():
        texts = " ".join(c.text for c in cs)
        out.append(f"meld {texts}")
        out.append(f"add {r if r != 'JK' else 'W'} {cs[-1].text}")
        if wild:
            out.append(f"meld {texts} {wild[-1].text}")
            out.append(f"add {r if r != 'JK' else 'W'} {texts} {wild[0].text}")
        top = state.pile[-1] if state.pile else None
        if top is not None and top.rank == r:
            out.append(f"take {texts}")
            out.append(f"take {cs[0].text}" + (f" {wild[0].text}" if wild else ""))
    rest = list(hand)
    rest.pop(rng.randrange(len(rest)))
    if rest:
        groups: dict[str, list[str]] = {}
        for c in rest:
            groups.setdefault("W" if c.is_wild else c.rank, []).append(c.text)
        out.append("meld " + " / ".join(" ".join(g) for g in groups.values()))
    for _ in range(3):
        k = rng.randint(1, min(4, len(hand)))
        out.append("meld " + " ".join(c.text for c in rng.sample(hand, k)))
    out = sorted(set(out))
    return rng.sample(out, min(PROBES, len(out)))


def verdict(state: Any, text: str) -> Any:
    """What ``check`` says of a made-up move: the kind of refusal (the class of the error: its
    wording is the player's, and was made finer since, e.g. "you hold only 2 of 9C" where the
    first engine said "you do not hold 9C"), or the position the move reaches."""
    try:
        move = state.parse(text)
        state.check(move)
    except CanastaError as e:
        return [type(e).__name__]
    return ["ok", str(move), _after(state, move)]


def views(state: Any) -> list[Any]:
    from canasta.view import view_of

    seats = sorted({state.turn, (state.turn + 1) % state.rules.players})
    out = []
    for s in seats:
        view = view_of(state, s)
        part: dict[str, Any] = {f: canon(getattr(view, f)) for f in VIEW_FIELDS
                                if f != "history"}
        part["history"] = _history(view.history)
        if UNORDERED:
            part["legal_moves"] = sorted(part["legal_moves"])
        if observe is not None:
            part["observation"] = hashlib.sha1(observe(view).tobytes()).hexdigest()
        out.append(part)
    return out


#: ``--unordered``: the listing compared (and chosen from) in the order of its texts, for two
#: engines that list the same moves in another order (the moves that go out in one go are listed
#: by rank since commit 66e328a, the compiled core's merge, in the going-out search's order before)
UNORDERED = False


def record(state: Any, rng: random.Random) -> dict[str, Any]:
    """Everything compared at one position."""
    legal = state.legal_moves()
    if UNORDERED:
        legal = sorted(legal, key=str)
    return {
        "legal": [str(m) for m in legal],
        "position": facts(state),
        "views": views(state),
        "after": [_after(state, m) for m in legal],
        "probes": {t: verdict(state, t) for t in probes(state, rng)},
    }


def choose(legal: list[str], rng: random.Random) -> int:
    """The policy: mostly uniform, now and then a move that lays cards down or asks, so that
    hands reach canastas and going out more often than random play does."""
    if rng.random() < 0.4:
        keen = [i for i, t in enumerate(legal)
                if t.split()[0] in ("meld", "add", "take", "ask", "yes")]
        if keen:
            return rng.choice(keen)
    return rng.randrange(len(legal))


def walk(table: int, seed: int, detail: int | None = None) -> Iterator[tuple[int, Any]]:
    """The positions of one hand: (step, record hash), or the full record at step ``detail``."""
    variant, players, options = TABLES[table]
    rules = Rules.make(variant, players, **options)
    rng = random.Random(f"{table}-{seed}")
    first = SCORES[seed % len(SCORES)]
    scores = [first] + [SCORES[(seed + i) % len(SCORES)] for i in range(1, rules.n_sides)]
    state = deal(rules, shuffled_deck(rules, hand_seed(seed, 1)), scores=scores,
                 hand_number=1 + seed % 4)
    step = 0
    while state.result is None:
        rec = record(state, random.Random(f"probe-{table}-{seed}-{step}"))
        if detail is not None:
            if step == detail:
                yield step, rec
                return
        else:
            text = json.dumps(rec, sort_keys=True, separators=(",", ":"))
            yield step, hashlib.sha1(text.encode()).hexdigest()[:10]
        legal = rec["legal"]
        state.apply(parse_move(legal[choose(legal, rng)]))
        step += 1
    if detail is None:
        yield step, hashlib.sha1(json.dumps(facts(state), sort_keys=True).encode()).hexdigest()[:10]


def emit(positions: int) -> Iterator[dict[str, Any]]:
    """The hashes of every table's hands, seeds 0, 1, 2... until the table has about
    ``positions`` / (number of tables) positions."""
    each = -(-positions // len(TABLES))
    for t in range(len(TABLES)):
        walked = seed = 0
        while walked < each:
            digests = [d for _step, d in walk(t, seed)]
            walked += len(digests)
            yield {"table": t, "seed": seed, "digests": " ".join(digests)}
            seed += 1


def _order() -> list[str]:
    return ["--unordered"] if UNORDERED else []


def _run_emitter(src: Path, positions: int) -> list[dict[str, Any]]:
    env = dict(os.environ, PYTHONPATH=str(src), PYTHONHASHSEED="0")
    out = subprocess.run([sys.executable, __file__, "--emit", str(positions), *_order()],
                         env=env, check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def _detail(src: Path, table: int, seed: int, step: int) -> str:
    env = dict(os.environ, PYTHONPATH=str(src), PYTHONHASHSEED="0")
    return subprocess.run([sys.executable, __file__, "--detail", str(table), str(seed),
                           str(step), *_order()], env=env, check=True, capture_output=True,
                          text=True).stdout


def against(commit: str, positions: int) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "src"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        ref_src = Path(tmp) / "src"
        ours = _run_emitter(ROOT / "src", positions)
        theirs = _run_emitter(ref_src, positions)
        compared = 0
        for a, b in zip(ours, theirs, strict=True):
            mine, ref = a["digests"].split(), b["digests"].split()
            for step, (x, y) in enumerate(zip(mine, ref, strict=False)):
                if x != y:
                    table, seed = a["table"], a["seed"]
                    print(f"DIFFER: table {TABLES[table][:2]} seed {seed} step {step} "
                          f"(after {compared} positions that agree)")
                    ours_text = _detail(ROOT / "src", table, seed, step).splitlines()
                    ref_text = _detail(ref_src, table, seed, step).splitlines()
                    sys.stdout.writelines(line + "\n" for line in difflib.unified_diff(
                        ref_text, ours_text, f"{commit}", "worktree", lineterm="", n=2))
                    return 1
                compared += 1
            if len(mine) != len(ref):
                print(f"DIFFER: table {a['table']} seed {a['seed']}: hand lengths "
                      f"{len(ref)} and {len(mine)}")
                return 1
        print(f"ok: {compared} positions agree ({len(ours)} hands on {len(TABLES)} tables) "
              f"with {commit}")
        return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--positions", type=int, default=3000)
    p.add_argument("--against", metavar="COMMIT", help="compare with the engine of COMMIT")
    p.add_argument("--write", metavar="FILE", help="store this engine's hashes in FILE")
    p.add_argument("--label", default="", help="which engine wrote the hashes (with --write)")
    p.add_argument("--emit", type=int, metavar="N", help=argparse.SUPPRESS)
    p.add_argument("--detail", type=int, nargs=3, metavar=("TABLE", "SEED", "STEP"),
                   help="print the full record of one position")
    p.add_argument("--unordered", action="store_true",
                   help="compare each listing in the order of its texts (see UNORDERED)")
    args = p.parse_args()
    global UNORDERED
    UNORDERED = args.unordered
    if args.unordered and args.write:
        p.error("--unordered hashes are for --against only: tests/test_crosscheck.py walks "
                "the listings in their order")
    if args.emit is not None:
        for line in emit(args.emit):
            print(json.dumps(line))
        return 0
    if args.detail is not None:
        t, seed, step = args.detail
        for _step, rec in walk(t, seed, step):
            print(json.dumps(rec, sort_keys=True, indent=1))
        return 0
    if args.against:
        return against(args.against, args.positions)
    if args.write:
        data = {"about": f"hashes of tests/crosscheck.py records of {args.label or 'an engine'}"
                         f" (python tests/crosscheck.py --write FILE --positions "
                         f"{args.positions})",
                "hands": list(emit(args.positions))}
        Path(args.write).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        return 0
    p.print_help()
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
