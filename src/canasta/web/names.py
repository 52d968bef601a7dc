"""The players' names: which a person may take, when two are the same, and the computer
players' (docs/PROTOCOL.md: one-person games and tables alike).

A name is shown on everybody's screen beside their cards, so it may not carry what changes how
*other* text is shown: control characters, lone surrogates (which UTF-8 cannot carry) and the
format characters (Unicode category Cf: the right-to-left override U+202E, the isolates, the
invisible zero-width space, the soft hyphen, the byte order mark...).  The one exception is a
zero-width joiner or non-joiner standing between two visible characters: emoji sequences
("👩‍💻") and several scripts (Persian, the Indic ones) are written with them, and there they
reorder nothing.  Every letter, sign, emoji and space of any script is welcome.

No two seats share a name: the computer players take the first of ``COMPUTER_NAMES`` that no
person at the table has (``computer_names``), and a table refuses a person the name of another
(``same_name``: compared as a reader would tell them apart, case and joiners aside).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

MAX_NAME = 40
#: The computer players' names, in the order the seats take them (seats 1, 2, ...).  Six: a
#: table of six has at most six people and computers together, and each person's name can
#: rule out one of these at most, so every computer player always finds a name.
COMPUTER_NAMES = ("Lucía", "Mateo", "Elena", "Diego", "Sofía", "Pablo")
_JOINERS = frozenset("\u200c\u200d")  # zero-width non-joiner, joiner
_REFUSED = frozenset({"Cc", "Cs", "Cf"})


def _visible(ch: str) -> bool:
    return unicodedata.category(ch) not in _REFUSED and not ch.isspace()


def _refused_at(name: str, i: int) -> bool:
    """Whether the character at ``i`` of ``name`` is one a name may not carry there."""
    ch = name[i]
    if unicodedata.category(ch) not in _REFUSED:
        return False
    return not (ch in _JOINERS and 0 < i < len(name) - 1
                and _visible(name[i - 1]) and _visible(name[i + 1]))


def is_printable_name(name: str) -> bool:
    """No control, format or bidi-control character and no lone surrogate (a joiner between
    two visible characters aside).

    >>> is_printable_name("Ana María"), is_printable_name("\\u202eanA")
    (True, False)
    >>> is_printable_name("\\U0001f469\\u200d\\U0001f4bb Eva"), is_printable_name("Eva\\u200d")
    (True, False)
    """
    return not any(_refused_at(name, i) for i in range(len(name)))


def printable_name(name: str) -> str:
    """``name`` without the characters ``is_printable_name`` refuses (a name stored before
    they were refused)."""
    return "".join(ch for i, ch in enumerate(name) if not _refused_at(name, i)).strip()


def name_key(name: str) -> str:
    """What tells two names apart on a screen: "Lucía", "LUCÍA" and "Luci\\u0301a" are one.

    >>> name_key("LUCÍA") == name_key("lucía") == name_key("Luci\\u0301a")
    True
    """
    shown = "".join(ch for ch in name if ch not in _JOINERS)
    return unicodedata.normalize("NFKC", shown).casefold().strip()


def same_name(a: str, b: str) -> bool:
    return name_key(a) == name_key(b)


def computer_names(people: Iterable[str], count: int) -> list[str]:
    """The names of ``count`` computer players at a table whose people are called ``people``:
    the first of ``COMPUTER_NAMES`` that none of them has, in order.

    >>> computer_names(["Lucía"], 3)
    ['Mateo', 'Elena', 'Diego']
    """
    taken = {name_key(p) for p in people}
    free = [n for n in COMPUTER_NAMES if name_key(n) not in taken]
    if len(free) < count:
        raise ValueError(f"{count} computer players and only {len(free)} names left for them")
    return free[:count]


__all__ = ["COMPUTER_NAMES", "MAX_NAME", "computer_names", "is_printable_name", "name_key",
           "printable_name", "same_name"]
