"""Canasta in the terminal: the user plays one seat, the computer plays the others.

Everything shown comes from the user's ``PlayerView``; moves go through the ``Table``, which
keeps the user's melds of the turn for ``undo``, and an expert adviser watches the user's seat
for ``hint`` (``canasta.hints.suggest``, the browser's hint).  The moves are told in words
(``canasta.textlog``) and every line is wrapped to the terminal's width.
"""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path

from canasta.bots import make_player
from canasta.bots.expert import ExpertPlayer
from canasta.cards import Card
from canasta.engine.scoring import BREAKDOWN_KEYS, HandResult
from canasta.errors import CanastaError
from canasta.hints import suggest
from canasta.i18n import LANGS, catalogue, format_number, text
from canasta.i18n import render as refusal_text
from canasta.letters import card_text, move_text, read_move
from canasta.records import save_record
from canasta.rules import Rules
from canasta.table import Table
from canasta.textlog import narrate, undone, wrap
from canasta.view import PlayerView


def seat_names(rules: Rules, me: int, lang: str = "en") -> dict[int, str]:
    n = rules.players
    word = {k: text(f"text.seat.{k}", lang) for k in (
        "you", "left", "right", "partner", "opponent", "across_left", "across_right")}
    names = {me: word["you"]}
    if n == 6:
        for i, key in enumerate(("left", "across_left", "partner", "across_right", "right"), 1):
            names[(me + i) % n] = word[key]
    elif n == 2:
        names[(me + 1) % n] = word["opponent"]
    elif n == 3:
        names[(me + 1) % n] = word["left"]
        names[(me + 2) % n] = word["right"]
    else:
        names[(me + 1) % n] = word["left"]
        names[(me + 2) % n] = word["partner"]
        names[(me + 3) % n] = word["right"]
    return names


def log_names(rules: Rules, me: int, lang: str = "en") -> dict[int, str]:
    """Each seat as the move log names it at the start of a sentence: ``seat_names``, but
    "Your partner" ("Tu compañero") for the partner."""
    partner = text("text.seat.partner", lang)
    return {s: text("text.seat.your_partner", lang) if n == partner else n
            for s, n in seat_names(rules, me, lang).items()}


def side_names(rules: Rules, me: int, lang: str = "en") -> list[str]:
    names = seat_names(rules, me, lang)
    out = []
    for side in range(rules.n_sides):
        seats = [s for s in range(rules.players) if s % rules.n_sides == side]
        out.append(" & ".join(names[s] for s in seats))
    return out


def default_lang(environ: Mapping[str, str]) -> str:
    """The terminal's language from the locale: Spanish when the first of LC_ALL, LC_MESSAGES
    and LANG that is set starts with "es", else English (gettext's order of precedence)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            return "es" if value.lower().startswith("es") else "en"
    return "en"


def _cards(cs: tuple[Card, ...] | list[Card], lang: str = "en") -> str:
    return " ".join(card_text(c, lang) for c in cs) if cs else "-"


def _number(n: int, lang: str) -> str:
    return format_number(n, lang)


def table_options(rules: Rules, lang: str = "en") -> list[str]:
    """The table's options that differ from the variant's defaults, each by the name and the
    choice the browser's start page shows for it ("Canastas needed to go out: Natural, mixed,
    sevens and wild cards (four books)"); an option the catalogue names no choice of (Ponytail's
    ``cut_bonus``, a chance, not a choice) as its NAME=VALUE."""
    words = catalogue(lang)
    defaults = rules.variant.option_defaults
    out = []
    for k, v in rules.options.items():
        if k not in defaults or v == defaults[k]:
            continue
        value = str(v).lower() if isinstance(v, bool) else str(v)
        name, choice = words.get(f"option.{k}"), words.get(f"option.{k}.{value}")
        out.append(f"{name}: {choice}" if name and choice else f"{k}={value}")
    return out


#: Between two melds of a side in the table display (the cards of a meld stand a space apart).
MELD_SEPARATOR = " · "


def render(view: PlayerView, me: int, lang: str = "en") -> str:
    rules = view.rules
    names = seat_names(rules, me, lang)
    sides = side_names(rules, me, lang)
    lines = []
    scores = ", ".join(f"{sides[i]} {_number(s, lang)}" for i, s in enumerate(view.scores))
    lines.append(text("text.header", lang, hand=view.hand_number, variant=rules.variant.name,
                      players=rules.players, target=rules.target, scores=scores))
    changed = table_options(rules, lang)
    if changed:
        lines.append(text("text.options", lang, options="; ".join(changed)))
    if view.pile_top is not None:
        pile = text("text.pile", lang, stock=view.stock_size, pile=view.pile_size,
                    top=card_text(view.pile_top, lang))
    else:
        pile = text("text.pile_empty", lang, stock=view.stock_size, pile=view.pile_size)
    lines.append(pile + (" " + text("text.frozen", lang) if view.pile_frozen else ""))
    tag = " " + text("text.canasta", lang)
    for side in range(rules.n_sides):
        melds = MELD_SEPARATOR.join(
            _cards(m.sorted_cards(), lang) + (tag if m.size >= rules.variant.canasta_size
                                              and m.rank != "3" else "")
            for m in view.melds[side]) or text("text.no_melds", lang)
        threes = ("; " + text("text.threes", lang, cards=_cards(view.threes[side], lang))
                  if view.threes[side] else "")
        lines.append(f"  {sides[side]}: {melds}{threes}")
    others = ", ".join(f"{names[s]} {view.hand_sizes[s]}" for s in range(rules.players)
                       if s != me)
    lines.append(text("text.hand_sizes", lang, others=others))
    tails = [f"{names[s]} {n}" for s, n in enumerate(view.ponytail_sizes) if n is not None]
    if tails:
        lines.append(text("text.ponytails", lang, tails=", ".join(tails)))
    lines.append(text("text.your_hand", lang, count=len(view.hand),
                      cards=_cards(view.hand, lang)))
    if not view.opened(view.side):
        lines.append(text("text.initial_needs", lang, need=view.minimum()))
    return "\n".join(lines)


def help_text(rules: Rules, lang: str = "en") -> str:
    """The moves and commands, as they are at this table: the cards a draw takes (two in
    Classic for 2 or 3 players and in Ponytail), whether ``pass`` is a move (where play
    goes on over the pile once the stock is exhausted: not in Modern American), and whether
    there is a partner to ask "may I go out?" (not at two or three players)."""
    draw = text({1: "text.help.draw_one", 2: "text.help.draw_two"}[rules.draws], lang)
    passing = text("text.help.pass" if rules.settings.pile_after_stock else "text.help.no_pass",
                   lang)
    # "May I go out?" is asked of a partner: none at a table of two or three.
    asking = text("text.help.ask" if rules.n_sides < rules.players else "text.help.no_ask", lang)
    return text("text.help", lang, draw=draw, passing=passing, asking=asking)


def how_it_ended(result: HandResult, me: int, names: dict[int, str], lang: str = "en") -> str:
    """How the hand ended: the stock ran out, or who went out (the player's own going out in
    the second person: "has cerrado", where "Tú cerró" would not agree)."""
    if result.went_out is None:
        return text("text.stock_ran_out", lang)
    concealed = "_concealed" if result.concealed else ""
    if result.went_out == me:
        return text(f"text.you_went_out{concealed}", lang)
    return text(f"text.went_out{concealed}", lang, who=names[result.went_out])


def score_sheet(result: HandResult, rules: Rules, me: int, totals: list[int],
                lang: str = "en") -> str:
    sides = side_names(rules, me, lang)
    words = catalogue(lang)
    keys = list(BREAKDOWN_KEYS[:-1]) + [k for k in result.breakdown[0]
                                        if k not in BREAKDOWN_KEYS] + ["total"]
    # A variant may name a row its own way (Modern American's threes all count, not only the
    # red ones), as the browser's score sheet does.
    variant = rules.variant.name
    labels = {k: words.get(f"score.row.{k}.{variant}",
                           words.get(f"score.row.{k}", k.replace("_", " ")))
              for k in [*keys, "match"]}
    first = max(len(v) for v in labels.values()) + 2
    width = max(len(s) for s in sides) + 2
    lines = [text("text.score_sheet", lang), " " * first + "".join(s.rjust(width) for s in sides)]
    for key in keys:
        lines.append(labels[key].ljust(first) + "".join(
            _number(b.get(key, 0), lang).rjust(width) for b in result.breakdown))
    lines.append(labels["match"].ljust(first)
                 + "".join(_number(t, lang).rjust(width) for t in totals))
    return "\n".join(lines)


def play_text(rules: Rules, seed: int, seat: int = 0, save: str | None = None,
              levels: dict[int, str] | None = None,
              read: Callable[[str], str] = input, write: Callable[[str], None] = print,
              lang: str | None = None, width: int | None = None) -> int:
    """Run a match in the terminal, in ``lang`` (by default the environment's locale:
    ``default_lang``), its lines wrapped to ``width`` (by default the terminal's width, asked
    again at each line: ``shutil.get_terminal_size``).  Returns the exit status: 1 when the
    record could not be written to ``save`` at the end (said in ``lang``); a ``save`` that
    cannot be written to at all (no such folder, a folder itself) is refused with a
    CanastaError before the game begins."""
    if not 0 <= seat < rules.players:
        raise CanastaError(f"--seat must be a seat from 0 to {rules.players - 1}")
    lang = default_lang(os.environ) if lang is None else lang
    if lang not in LANGS:
        raise CanastaError(f"--lang must be one of {', '.join(LANGS)}, not {lang!r}")
    if save:
        problem = _unwritable(Path(save), lang)
        if problem:  # (refused before the game, not lost with it at its end)
            raise CanastaError(text("text.save_refused", lang, path=save, reason=problem))
    levels = levels or {}
    computers = {s: make_player(levels.get(s, "expert"), seed * 31 + s)
                 for s in range(rules.players) if s != seat}
    # The hint's adviser watches the user's seat, as the browser's watches its player's.
    table = Table(rules, seed, computers, advisers={seat: ExpertPlayer(seed * 31 + seat)},
                  undo=True)
    names = seat_names(rules, seat, lang)
    words = catalogue(lang)
    screen = _Screen(read, write, width)
    read, write = screen.read, screen.write
    write(text("text.welcome", lang, seed=str(seed)))
    write(text("text.computers", lang, players=", ".join(
        f"{names[s]} {words.get(f'level.{p.name}', p.name)}" for s, p in computers.items())))
    status = 0
    try:
        _loop(table, seat, names, read, write, lang)
    except EOFError:
        write("\n" + text("text.goodbye", lang))
    finally:
        if save:
            try:
                save_record(table.match, Path(save))
            except OSError as e:  # (the folder went away during the game, the disk is full...)
                write(text("text.save_failed", lang, path=save,
                           reason=_save_problem(e, Path(save), lang)))
                status = 1
            else:
                write(text("text.record_written", lang, path=save))
    return status


#: A space no line is broken at (``textwrap`` breaks only at ASCII whitespace).
_GLUE = "\u00a0"


class _Screen:
    """The terminal's reading and writing, every line wrapped to the width (``wrap``)."""

    def __init__(self, read: Callable[[str], str], write: Callable[[str], None],
                 width: int | None) -> None:
        self._read, self._write, self._width = read, write, width

    def width(self) -> int:
        return self._width if self._width is not None else shutil.get_terminal_size().columns

    def write(self, lines: str) -> None:
        self._write(wrap(lines, self.width()))

    def read(self, prompt: str) -> str:
        """The answer to ``prompt``: its lines but the last are written, and the last (with
        the space after it) asked with; the prompt's closing ">" stays with its last word."""
        body = prompt.rstrip()
        if body.endswith(" >"):
            body = body[:-2] + _GLUE + ">"
        *before, last = wrap(body, self.width()).replace(_GLUE, " ").split("\n")
        if before:
            self._write("\n".join(before))
        return self._read(last + prompt[len(prompt.rstrip()):])


def _unwritable(path: Path, lang: str) -> str | None:
    """Why the game record cannot be written to ``path``, in ``lang``, or None."""
    folder = path.parent
    if path.is_dir():
        return text("text.save_is_folder", lang)
    if not folder.is_dir():
        return text("text.save_no_folder", lang, folder=str(folder))
    if not os.access(path if path.exists() else folder, os.W_OK):
        return text("text.save_not_allowed", lang)
    return None


def _save_problem(e: OSError, path: Path, lang: str) -> str:
    """Why writing the record failed, in ``lang`` where it is one of ``_unwritable``'s reasons
    (else the system's own words)."""
    if e.errno in (errno.ENOENT, errno.EISDIR, errno.EACCES, errno.EPERM):
        why = _unwritable(path, lang)
        if why:
            return why
    return str(e.strerror or e)


def _loop(table: Table, me: int, names: dict[int, str], read: Callable[[str], str],
          write: Callable[[str], None], lang: str) -> None:
    rules = table.rules
    told = log_names(rules, me, lang)

    def shown_card(c: Card) -> str:
        return card_text(c, lang)

    def refused(e: CanastaError) -> None:
        write(text("text.refused", lang, reason=refusal_text(e, lang, capital=False,
                                                             show_card=shown_card)))

    shown = False
    while True:
        match = table.match
        state_over = match.state.result is not None
        if state_over:
            result = match.state.result
            assert result is not None
            write("\n" + text("text.hand_over", lang, how=how_it_ended(result, me, names, lang)))
            write(score_sheet(result, rules, me, list(match.scores), lang))
            if match.over:
                winner = side_names(rules, me, lang)[match.winner or 0]
                write("\n" + text("text.match_over", lang, winner=winner))
                return
            read(text("text.next_hand", lang))
            table.next_hand()
            shown = False
            continue
        if table.computer_to_act():
            before = table.view(me)
            seat, move = table.step_computer()
            write(narrate(before, table.view(me), seat, move, told, lang))
            shown = False
            continue
        view = table.view(me)
        if not shown:
            write("")
            write(render(view, me, lang))
            shown = True
        if view.asking is not None:
            prompt = text("text.prompt.asking", lang, who=names[view.asking])
        elif view.phase == "draw":
            prompt = text("text.prompt.draw", lang)
        else:
            prompt = text({"yes": "text.prompt.play_yes", "no": "text.prompt.play_no"}.get(
                view.answer or "", "text.prompt.play"), lang)
        line = read(prompt).strip()
        if not line:
            continue
        try:
            line = read_move(line, lang)
        except CanastaError as e:
            refused(e)
            continue
        word = line.split()[0].lower()
        if word in ("quit", "exit"):
            write(text("text.goodbye", lang))
            return
        if word in ("help", "?"):
            write(help_text(rules, lang))
            write(text("text.legal", lang, moves=", ".join(
                move_text(m, lang) for m in view.legal_moves)))
            continue
        if word == "score":
            write(", ".join(f"{n}: {_number(s, lang)}" for n, s in
                            zip(side_names(rules, me, lang), match.scores, strict=True)))
            continue
        if word in ("hint", "undo"):
            try:
                write(_hint(table, me, lang) if word == "hint" else _undo(table, me, lang))
            except CanastaError as e:
                refused(e)
            else:
                shown = shown and word == "hint"  # (after an undo the table shows again)
            continue
        try:
            move = table.play(me, line)
        except CanastaError as e:
            refused(e)
            continue
        write(narrate(view, table.view(me), me, move, told, lang))
        shown = False


def _hint(table: Table, me: int, lang: str) -> str:
    """The hint: the move the expert watching ``me`` would make now, its reason, and how to
    type it (``canasta.hints.suggest``, as the browser's hint); raises a CanastaError when
    there is nothing to suggest."""
    move, reason = suggest(table.advisers.get(me), table.state, me, lang)
    return text("text.hint", lang, reason=reason, move=move_text(move, lang))


def _undo(table: Table, me: int, lang: str) -> str:
    """Take back the last meld or addition of ``me``'s turn (``Table.undo``) and say what it
    was; raises a CanastaError (and changes nothing) when there is none."""
    moves = table.match.moves[-1]
    last = moves[-1][1] if moves else None
    table.undo(me)
    assert last is not None  # (an undo takes back a move of this hand)
    return undone(last, lang)
