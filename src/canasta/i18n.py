"""The game's texts in the player's language, from one gettext catalogue per language.

``src/canasta/locale/<lang>.po`` holds every text a player reads: the refusals (``msgctxt``
``refusal.<code>``, ``msgid`` the English template of ``canasta.refusals.REFUSALS``), the words
they are written with (rank names, canasta kinds) and the browser client's and the terminal
game's texts.  Why gettext, and how to add a language: docs/I18N.md.  This module reads the
catalogues itself (a few lines: the engine and the terminal game have no dependency) and writes
cards and numbers the way each language does:

>>> from canasta.cards import card
>>> from canasta.errors import IllegalMove
>>> e = IllegalMove("meld.one_rank", card=card("5D"), rank="Q")
>>> render(e, "es")
'Una combinación es de un solo valor: 5♦ no va con las damas'
>>> render(IllegalMove("meld.initial_points", need=5000, total=120), "en")
"Your side's initial meld needs 5,000 points; these cards count 120"
>>> format_number(5000, "es"), format_number(1500, "en")
('5.000', '1,500')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any, Final

from canasta.cards import Card
from canasta.errors import CanastaError
from canasta.refusals import RANK_FORMS

LANGS: Final = ("en", "es")
LOCALE: Final = Path(__file__).resolve().parent / "locale"
SUIT_SYMBOLS: Final = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}

_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_ESCAPES: Final = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _unquote(line: str, where: str) -> str:
    m = _STRING.fullmatch(line.strip())
    if m is None:
        raise ValueError(f"{where}: not a quoted string: {line!r}")
    return re.sub(r"\\(.)", lambda e: _ESCAPES.get(e.group(1), e.group(0)), m.group(1))


def read_po(text: str, where: str = "catalogue") -> dict[str, tuple[str, str]]:
    """The entries of a ``.po`` file's text: ``msgctxt`` -> (``msgid``, ``msgstr``).  Every
    entry has a context (the key the program asks for); comments and flags are skipped."""
    out: dict[str, tuple[str, str]] = {}
    fields: dict[str, str] = {}
    last = ""

    def flush() -> None:
        if fields.get("msgid"):
            ctx = fields.get("msgctxt")
            if ctx is None:
                raise ValueError(f"{where}: the entry {fields['msgid']!r} has no msgctxt")
            if ctx in out:
                raise ValueError(f"{where}: the context {ctx!r} is given twice")
            out[ctx] = (fields["msgid"], fields.get("msgstr", ""))
        fields.clear()

    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, rest = line.partition(" ")
        if key in ("msgctxt", "msgid", "msgstr"):
            if key in fields or (key != "msgstr" and "msgstr" in fields):
                flush()
            fields[key] = _unquote(rest, f"{where}:{n}")
            last = key
        elif line.startswith('"') and last:
            fields[last] += _unquote(line, f"{where}:{n}")
        else:
            raise ValueError(f"{where}:{n}: unexpected line {raw!r}")
    flush()
    return out


def _check(lang: str) -> None:
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r} (known: {', '.join(LANGS)})")


@cache
def entries(lang: str) -> dict[str, tuple[str, str]]:
    """The catalogue of ``lang`` as it is written: key -> (English source, translation)."""
    _check(lang)
    path = LOCALE / f"{lang}.po"
    return read_po(path.read_text(encoding="utf-8"), path.name)


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The texts of ``lang`` by key (an untranslated entry reads as its English source)."""
    return {k: text or source for k, (source, text) in entries(lang).items()}


def format_number(n: int, lang: str) -> str:
    """A whole number with its thousands always grouped: "5.000" in Spanish (where CLDR would
    leave four digits ungrouped, unlike the client's "10.000"), "5,000" in English."""
    grouped = f"{n:,}"
    return grouped.replace(",", ".") if lang == "es" else grouped


def format_card(c: Card, lang: str) -> str:
    """A card as the player reads it: 10♥, A♦, and the joker by its name."""
    if not c.suit:
        return catalogue(lang)["card.joker"]
    return ("10" if c.rank == "T" else c.rank) + SUIT_SYMBOLS[c.suit]


def join_and(items: Iterable[str], lang: str, key: str = "list.and") -> str:
    """``a, b and c`` in the language's words (``key`` "list.or": ``a, b or c``)."""
    xs = list(items)
    if len(xs) < 2:
        return "".join(xs)
    return catalogue(lang)[key].format(head=", ".join(xs[:-1]), last=xs[-1])


def _rank_key(rank: str) -> str:
    return f"meld.rank.{rank}" if rank in ("W", "3") else f"rankPlural.{rank}"


CardWriter = Callable[[Card], str]


def _fields(params: Mapping[str, Any], lang: str,
            show_card: CardWriter | None) -> dict[str, str]:
    """The parameters of a text written in ``lang`` (``canasta.refusals.KINDS``); ``show_card``
    writes a card instead of ``format_card`` (the terminal shows the letters it reads)."""
    words = catalogue(lang)
    show = show_card or (lambda c: format_card(c, lang))
    out: dict[str, str] = {}
    for name, value in params.items():
        if isinstance(value, Card):
            out[name] = show(value)
        elif isinstance(value, CanastaError):
            out[name] = render(value, lang, capital=False, show_card=show_card)
        elif isinstance(value, bool):
            out[name] = str(value)
        elif isinstance(value, int):
            out[name] = format_number(value, lang)
        elif isinstance(value, tuple | list):
            if name == "kinds":
                out[name] = join_and((words[f"canastaKind.{k}"] for k in value), lang)
            elif name == "counts":
                out[name] = join_and((format_number(n, lang) for n in value), lang, "list.or")
            else:
                out[name] = join_and((show(c) for c in value), lang)
        elif name == "variant":
            out[name] = words.get(f"variant.{value}", str(value))
        elif name == "rank":
            out[name] = words[_rank_key(value)]
            for form in RANK_FORMS:
                out[f"rank_{form}"] = words[f"rank{form.title()}.{value}"]
        else:
            out[name] = str(value)
    return out


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def text(key: str, lang: str, /, show_card: CardWriter | None = None, **params: Any) -> str:
    """The catalogue's text ``key`` in ``lang`` with its parameters filled in (cards, numbers
    and ranks written the language's way; ``show_card``: see ``_fields``)."""
    return catalogue(lang)[key].format_map(_fields(params, lang, show_card))


def render(error: CanastaError, lang: str, *, capital: bool = True,
           show_card: CardWriter | None = None) -> str:
    """Why ``error`` refused, in ``lang``: the player's text (the English of ``str(error)`` is
    the API's, in the notation)."""
    out = text(f"refusal.{error.code}", lang, show_card, **error.params)
    return _capital(out) if capital else out


def params_json(params: Mapping[str, Any]) -> dict[str, Any]:
    """A refusal's parameters as JSON: cards by their text in the notation, a nested refusal
    as its own {code, params}."""
    out: dict[str, Any] = {}
    for name, value in params.items():
        if isinstance(value, Card):
            out[name] = value.text
        elif isinstance(value, CanastaError):
            out[name] = {"code": value.code, "params": params_json(value.params)}
        elif isinstance(value, tuple | list):
            out[name] = [v.text if isinstance(v, Card) else v for v in value]
        else:
            out[name] = value
    return out


__all__ = ["LANGS", "catalogue", "entries", "format_card", "format_number", "join_and",
           "params_json", "read_po", "render", "text"]
