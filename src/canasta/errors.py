"""The errors the engine raises: a small hierarchy under ValueError.

A refusal says why by a stable code (``canasta.refusals.REFUSALS``) and its parameters, cards
as ``Card`` values, ranks as rank letters and numbers as ints, so that each language writes it
in its own words (``canasta.i18n.render``).  ``str(error)`` is the English text of the API and
of the scenarios, in the notation:

>>> from canasta.cards import card
>>> e = IllegalMove("meld.one_rank", card=card("KD"), rank="A")
>>> e.code, str(e)
('meld.one_rank', 'a meld is made of one rank: KD does not go with the aces')

A text that is no code is kept as it is (``refusals.UNCODED``).

The variants' hooks answer "why not?" for every candidate the move listing weighs, and most
candidates are refused: they answer with a :class:`Refusal`, a plain value that costs nothing
when it is a shared constant, and the error is built from it (``Refusal.error``) only when a
move is refused to a caller.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from canasta.refusals import REFUSALS, UNCODED, rank_plural


class CanastaError(ValueError):
    """Base class of every error the engine raises for bad input.

    Its code and parameters are its ``args``, ``(code, params)``: the move listing tries
    candidates that raise, and an exception whose ``args`` are all it holds is built in C
    (``Refusal.error``), without an ``__init__`` in Python or attributes to set.
    """

    def __init__(self, code: str, /, **params: Any) -> None:
        if code not in REFUSALS and code != UNCODED:
            code, params = UNCODED, {"text": code}
        self.args = (code, params)

    @property
    def code(self) -> str:
        code: str = self.args[0]
        return code

    @property
    def params(self) -> Mapping[str, Any]:
        """The parameters by placeholder name (never changed: a refusal constant shares
        them)."""
        params: Mapping[str, Any] = self.args[1]
        return params

    def __str__(self) -> str:
        if self.code == UNCODED:
            return str(self.params["text"])
        return REFUSALS[self.code].format_map(_notation(self.params))

    def __reduce__(self) -> tuple[Any, ...]:  # (to cross a process pool as the class it is)
        return _rebuild, (type(self), self.code, dict(self.params))


def _rebuild(cls: type[CanastaError], code: str, params: dict[str, Any]) -> CanastaError:
    return cls(code, **params)


def _notation(params: Mapping[str, Any]) -> dict[str, str]:
    """The parameters as the English text of the API writes them: cards and ranks in the
    notation's words (``KD``, ``kings``), numbers as digits."""
    out: dict[str, str] = {}
    for name, value in params.items():
        if isinstance(value, tuple | list):
            if name == "kinds":
                out[name] = " and a ".join(value)
            elif name == "counts":
                out[name] = ", ".join(map(str, value))
            else:
                out[name] = " ".join(getattr(v, "text", str(v)) for v in value)
        elif name == "rank":
            plural = rank_plural(value)
            out.update(rank=plural, rank_the="the " + plural, rank_all="all your " + plural,
                       rank_one="one")
        else:
            out[name] = getattr(value, "text", None) or str(value)
    return out


class Refusal:
    """Why a move is not allowed, as a value: a code of ``REFUSALS`` and its parameters.

    It is never changed once built, so that one instance can be shared: a refusal without
    parameters is a module constant, which the hooks return without building anything (an
    exception costs a few hundred nanoseconds, and the listing rules out several candidates
    per move).  Raise ``refusal.error()``, a fresh ``IllegalMove``: an exception instance
    raised twice would carry both tracebacks.
    """

    __slots__ = ("code", "params")

    code: str
    params: Mapping[str, Any]

    def __init__(self, code: str, /, **params: Any) -> None:
        self.code = code
        self.params = params

    def error(self) -> IllegalMove:
        """The refusal as the error a caller is given (a fresh one: see the class)."""
        return IllegalMove.__new__(IllegalMove, self.code, self.params)  # args, no __init__

    def __str__(self) -> str:
        return REFUSALS[self.code].format_map(_notation(self.params))

    def __repr__(self) -> str:
        return f"Refusal({self.code!r}, **{dict(self.params)!r})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Refusal) and self.code == other.code
                and self.params == other.params)

    __hash__ = None  # type: ignore[assignment]  # (equal by value, and the params are a dict)


class NotationError(CanastaError):
    """Text that is not a card, a move or a position in the notation of FORMAT.md."""


class IllegalMove(CanastaError):
    """A well-formed move that the rules do not allow now; the code says why."""


class PositionError(CanastaError):
    """A position, scenario or record that is malformed or impossible."""
