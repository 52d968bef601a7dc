"""The terminal game's move log, and its lines to the terminal's width.

Each move is told in the player's language, in words, with the cards as players write them
(``format_card``: 7♥, 10♦, the joker by its name): "Left discards the A♣", "Tú bajas 7♦ 7♥ 7♠",
"Your partner takes the pile (12 cards) and melds the 9♦ on top with 9♣ 9♠."  What follows
from the move is told with it: the threes laid down at once, a ponytail picked up, a penalty,
going out.  The telling uses the player's own views before and after the move and nothing
else, so a computer player's draw is told without its cards and the player's own with them.
"""

from __future__ import annotations

import re
import textwrap
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from canasta.cards import Card, sort_cards
from canasta.i18n import format_card, join_and, text
from canasta.moves import Move, MoveKind
from canasta.view import PlayerView


def cards_text(cs: Iterable[Card], lang: str) -> str:
    """Cards as players write them, one after another: "7♥ 7♠ Joker"."""
    return " ".join(format_card(c, lang) for c in cs)


def melds_text(groups: Iterable[Sequence[Card]], lang: str) -> str:
    """Groups of cards, each written as ``cards_text``, in a list: "7♥ 7♠ 7♦ and K♣ K♦ K♥"."""
    return join_and((cards_text(g, lang) for g in groups), lang)


def _count(n: int, lang: str) -> str:
    return text(f"seat.cards.{'one' if n == 1 else 'other'}", lang, n=n)


def _gained(before: Iterable[Card], after: Iterable[Card]) -> list[Card]:
    """The cards in ``after`` that were not in ``before`` (as many times as they came), in the
    order a hand is shown in."""
    gained = Counter(after)
    gained.subtract(before)
    return sort_cards(list(gained.elements()))


def narrate(before: PlayerView, after: PlayerView, seat: int, move: Move,
            names: Mapping[int, str], lang: str) -> str:
    """``move``, played by ``seat``, told to the player whose views are ``before`` and
    ``after`` it (the player's own move in the second person); ``names``: each seat as the log
    names it."""
    me = before.seat
    you = seat == me

    def said(key: str, **params: Any) -> str:
        return text(f"text.log.{'you.' if you else ''}{key}", lang, who=names[seat], **params)

    result = after.result
    out = "_out" if result is not None and result.went_out == seat else ""
    k = move.kind
    if k is MoveKind.DRAW:
        got = _gained(before.hand, after.hand) if you else []
        main = said("draw", cards=cards_text(got, lang)) if got else said("draw_none" if you
                                                                          else "draw")
    elif k is MoveKind.TAKE:
        with_top = move.groups[0] if move.groups else ()
        extra = move.groups[1:]
        top = before.pile_top
        assert top is not None  # (an empty pile cannot be taken)
        main = said(("take_with" if with_top else "take") + ("_melds" if extra else ""),
                    count=_count(before.pile_size, lang), top=top, rank=top.rank,
                    cards=cards_text(with_top, lang), melds=melds_text(extra, lang))
    elif k is MoveKind.MELD:
        main = said("meld" + out, melds=melds_text(move.groups, lang))
    elif k is MoveKind.ADD:
        main = said("add" + out, cards=cards_text(move.groups[0], lang), rank=move.rank)
    elif k is MoveKind.DISCARD:
        main = said("discard" + out, card=move.card)
    else:  # pass, ask, yes, no
        main = said(k.value)
    told = [main]
    side = before.side_of(seat)
    threes = _gained(before.threes[side], after.threes[side])
    if threes:
        told.append(said("threes", cards=tuple(threes)))
    for s, (was, now) in enumerate(zip(before.ponytail_sizes, after.ponytail_sizes,
                                       strict=True)):
        if was is not None and now is None:  # (the side's first canasta brought it)
            if s == me:
                kept = Counter(before.hand)
                if you:
                    kept.subtract(move.cards_from_hand())
                got = _gained(kept.elements(), after.hand)
                told.append(text("text.log.you.ponytail", lang, cards=cards_text(got, lang)))
            else:
                told.append(text("text.log.ponytail", lang, who=names[s],
                                 count=_count(was, lang)))
    fined = after.penalties[side] - before.penalties[side]
    if fined > 0:
        rules = before.rules
        minimum = rules.variant.initial_minimum(before.scores[side], before.hand_number, rules)
        told.append(said("penalty", minimum=minimum, fined=fined))
    return " ".join(told)


def undone(move: Move, lang: str) -> str:
    """What an undo took back (a meld or an addition of the player's turn), in ``lang``."""
    if move.kind is MoveKind.ADD:
        return text("text.undone.add", lang, cards=cards_text(move.groups[0], lang),
                    rank=move.rank)
    return text("text.undone.meld", lang, melds=melds_text(move.groups, lang))


#: A column in a line: text after a gap of two spaces or more (the help's table, the score
#: sheet's figures).
_COLUMN = re.compile(r"\S {2,}(?=\S)")


def wrap(lines: str, width: int) -> str:
    """``lines`` with each line longer than ``width`` broken at the spaces between words, never
    inside a word (a word longer than the width stands on a line of its own).  A line that
    continues is indented to its column, where it has one (the help's descriptions), else two
    places further than the line itself (a move of the log, a side's melds)."""
    width = max(width, 1)
    out = []
    for line in lines.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        lead = len(line) - len(line.lstrip(" "))
        column = _COLUMN.search(line, lead)
        # (a column too far right for the width leaves too little room beside it)
        indent = column.end() if column and column.end() <= width // 2 else lead + 2
        out.append(textwrap.fill(line[lead:], width, initial_indent=" " * lead,
                                 subsequent_indent=" " * min(indent, width // 2),
                                 break_long_words=False, break_on_hyphens=False))
    return "\n".join(out)


__all__ = ["cards_text", "melds_text", "narrate", "undone", "wrap"]
