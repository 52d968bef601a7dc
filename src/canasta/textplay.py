"""Canasta in the terminal: the user plays one seat, the computer plays the others.

Everything shown comes from the user's ``PlayerView``; moves go through the ``Table``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from canasta.bots import make_player
from canasta.cards import Card, sort_cards
from canasta.engine.scoring import BREAKDOWN_KEYS, HandResult
from canasta.errors import CanastaError
from canasta.moves import Move, MoveKind
from canasta.records import save_record
from canasta.rules import Rules
from canasta.table import Table
from canasta.view import PlayerView

HELP = """Moves (cards as rank + suit: KH, 10D or TD, 7S, 2C, JK for a joker):
  draw                      take from the stock
  take 7H 7S                take the pile, melding its top card with these cards
  take                      take the pile by putting its top card on your meld of that rank
  take KD KH / 7S 7D 7C     ... and lay further melds with it (initial meld)
  meld KH KD KC / 9S 9D 2C  lay one or more new melds
  add 9 9C 2D               add cards to your side's meld of nines (W: wild-card meld)
  discard 4S                discard, ending your turn (or going out with your last card)
  pass                      decline the pile once the stock is exhausted (Classic)
  ask                       ask your partner "may I go out?"; yes / no answer a question
Commands: help (this and your legal moves), score, quit"""


def seat_names(rules: Rules, me: int) -> dict[int, str]:
    n = rules.players
    names = {me: "You"}
    if n == 6:
        for i, name in enumerate(("Left", "Across left", "Partner", "Across right", "Right"), 1):
            names[(me + i) % n] = name
    elif n == 2:
        names[(me + 1) % n] = "Opponent"
    elif n == 3:
        names[(me + 1) % n] = "Left"
        names[(me + 2) % n] = "Right"
    else:
        names[(me + 1) % n] = "Left"
        names[(me + 2) % n] = "Partner"
        names[(me + 3) % n] = "Right"
    return names


def side_names(rules: Rules, me: int) -> list[str]:
    names = seat_names(rules, me)
    out = []
    for side in range(rules.n_sides):
        seats = [s for s in range(rules.players) if s % rules.n_sides == side]
        out.append(" & ".join(names[s] for s in seats))
    return out


def _cards(cs: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(c.text for c in cs) if cs else "-"


def render(view: PlayerView, me: int) -> str:
    rules = view.rules
    names = seat_names(rules, me)
    sides = side_names(rules, me)
    lines = []
    scores = ", ".join(f"{sides[i]} {s}" for i, s in enumerate(view.scores))
    lines.append(f"Hand {view.hand_number} - {rules.variant.title}, {rules.players} players, "
                 f"target {rules.target} - scores: {scores}")
    defaults = rules.variant.option_defaults
    changed = [f"{k}={str(v).lower() if isinstance(v, bool) else v}"
               for k, v in rules.options.items() if k in defaults and v != defaults[k]]
    if changed:
        lines.append("Table options: " + ", ".join(changed))
    top = view.pile_top.text if view.pile_top else "empty"
    frozen = " (frozen)" if view.pile_frozen else ""
    lines.append(f"Stock {view.stock_size} - pile {view.pile_size}, top {top}{frozen}")
    for side in range(rules.n_sides):
        melds = "  ".join(
            _cards(m.sorted_cards()) + (" [canasta]" if m.size >= rules.variant.canasta_size
                                        and m.rank != "3" else "")
            for m in view.melds[side]) or "no melds"
        threes = f"; threes {_cards(view.threes[side])}" if view.threes[side] else ""
        lines.append(f"  {sides[side]}: {melds}{threes}")
    others = ", ".join(f"{names[s]} {view.hand_sizes[s]}" for s in range(rules.players)
                       if s != me)
    lines.append(f"Cards in hand: {others}")
    tails = [f"{names[s]} {n}" for s, n in enumerate(view.ponytail_sizes) if n is not None]
    if tails:
        lines.append(f"Ponytails still face down: {', '.join(tails)} (picked up with your "
                     "side's first canasta)")
    lines.append(f"Your hand ({len(view.hand)}): {_cards(view.hand)}")
    if not view.opened(view.side):
        lines.append(f"Your side's initial meld needs {view.minimum()} points.")
    return "\n".join(lines)


def describe(move: Move, who: str) -> str:
    k = move.kind
    if k is MoveKind.DRAW:
        return f"{who}: draw"
    if k is MoveKind.TAKE:
        return f"{who}: take the pile" + (f" ({move})" if move.groups and move.groups[0] else "")
    if k is MoveKind.ASK:
        return f"{who}: \"may I go out?\""
    if k in (MoveKind.YES, MoveKind.NO):
        return f"{who}: \"{k.value}\""
    return f"{who}: {move}"


def score_sheet(result: HandResult, rules: Rules, me: int, totals: list[int]) -> str:
    sides = side_names(rules, me)
    width = max(len(s) for s in sides) + 2
    lines = ["Score sheet:", " " * 12 + "".join(s.rjust(width) for s in sides)]
    keys = list(BREAKDOWN_KEYS[:-1]) + [k for k in result.breakdown[0]
                                        if k not in BREAKDOWN_KEYS] + ["total"]
    for key in keys:
        lines.append(key.replace("_", " ").ljust(12)
                     + "".join(str(b.get(key, 0)).rjust(width) for b in result.breakdown))
    lines.append("match".ljust(12) + "".join(str(t).rjust(width) for t in totals))
    return "\n".join(lines)


def play_text(rules: Rules, seed: int, seat: int = 0, save: str | None = None,
              levels: dict[int, str] | None = None,
              read: Callable[[str], str] = input, write: Callable[[str], None] = print) -> int:
    """Run a match in the terminal.  Returns the exit status."""
    if not 0 <= seat < rules.players:
        raise CanastaError(f"--seat must be a seat from 0 to {rules.players - 1}")
    levels = levels or {}
    computers = {s: make_player(levels.get(s, "expert"), seed * 31 + s)
                 for s in range(rules.players) if s != seat}
    table = Table(rules, seed, computers)
    names = seat_names(rules, seat)
    write(f"Canasta - seed {seed}. Type 'help' for the moves.")
    write("Computer players: " + ", ".join(f"{names[s]} {p.name}" for s, p in computers.items()))
    status = 0
    try:
        _loop(table, seat, names, read, write)
    except EOFError:
        write("\nGoodbye.")
    finally:
        if save:
            save_record(table.match, Path(save))
            write(f"Game record written to {save}")
    return status


def _loop(table: Table, me: int, names: dict[int, str], read: Callable[[str], str],
          write: Callable[[str], None]) -> None:
    rules = table.rules
    shown = False
    while True:
        match = table.match
        state_over = match.state.result is not None
        if state_over:
            result = match.state.result
            assert result is not None
            if result.went_out is None:
                how = "the stock ran out"
            else:
                how = f"{names[result.went_out]} went out"
                how += " concealed" if result.concealed else ""
            write(f"\nThe hand is over: {how}.")
            write(score_sheet(result, rules, me, list(match.scores)))
            if match.over:
                winner = side_names(rules, me)[match.winner or 0]
                write(f"\nThe match is over. Winner: {winner}.")
                return
            read("Press Enter for the next hand... ")
            table.next_hand()
            shown = False
            continue
        if table.computer_to_act():
            seat, move = table.step_computer()
            write(describe(move, names[seat]))
            shown = False
            continue
        view = table.view(me)
        if not shown:
            write("")
            write(render(view, me))
            shown = True
        if view.asking is not None:
            prompt = f"{names[view.asking]} asks: may I go out? (yes/no) > "
        elif view.phase == "draw":
            prompt = "Your turn: draw or take the pile > "
        else:
            extra = {"yes": " (your partner said yes: go out)",
                     "no": " (your partner said no)"}.get(view.answer or "", "")
            prompt = f"Meld, or discard to end your turn{extra} > "
        line = read(prompt).strip()
        if not line:
            continue
        word = line.split()[0].lower()
        if word in ("quit", "exit"):
            write("Goodbye.")
            return
        if word in ("help", "?"):
            write(HELP)
            write("Legal now: " + ", ".join(str(m) for m in view.legal_moves))
            continue
        if word == "score":
            write(", ".join(f"{n}: {s}" for n, s in
                            zip(side_names(rules, me), match.scores, strict=True)))
            continue
        before = sort_cards(view.hand)
        try:
            move = table.play(me, line)
        except CanastaError as e:
            write(f"Not possible: {e}")
            continue
        fined = table.view(me).penalties[view.side] - view.penalties[view.side]
        if fined > 0:
            write(f"Your initial meld was below the minimum ({view.minimum()}): taken back, "
                  f"{fined} penalty points.")
        if move.kind in (MoveKind.DRAW, MoveKind.TAKE) and match.state.result is None:
            after = list(table.view(me).hand)
            for c in before:
                if c in after:
                    after.remove(c)
            if move.kind is MoveKind.DRAW:
                write(f"You drew: {_cards(sort_cards(after))}")
        shown = False
