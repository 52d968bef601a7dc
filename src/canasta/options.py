"""House rules declared once and read through their declarations.

A variant lists the options it offers (``Variant.declared_options``); everything else (the
defaults ``Rules.make`` fills in, what it accepts, the house rules the web's start screen and the
terminal game offer) is derived from that list. Code reads an option as
``rules.option(WILD_RATIO)``: the declaration is a constant, so a misspelt name is a NameError at
import and a mypy error, and its value type (a ``Literal`` of its choices) makes a comparison
with a misspelt value a mypy error too (``--strict`` includes ``--strict-equality``).

The options below are Classic's, here rather than in ``classic.py`` because the base rules and
the engine consult them at every table (a variant that does not offer one plays its default).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Generic, Literal, TypeVar, cast

from canasta.errors import PositionError

T = TypeVar("T")


def is_choice(value: Any, choices: Sequence[Any]) -> bool:
    """Whether ``value`` is one of ``choices``, of the same type too (``1`` is not ``True``)."""
    return any(type(value) is type(c) and value == c for c in choices)


class Option(Generic[T]):
    """One house rule: its name (as in ``Rules.make(**options)`` and the JSON of a game), its
    default (the rule a table plays unless it chooses otherwise) and the values it may take.

    A plain class with ``Final`` attributes rather than a frozen dataclass: mypyc compiles no
    generic dataclass, and ``Final`` keeps the compiled attributes read-only all the same.
    """

    def __init__(self, name: str, default: T, choices: tuple[T, ...] | None = None,
                 players: tuple[int, ...] | None = None) -> None:
        self.name: Final = name
        self.default: Final = default
        #: the values a table may choose; None for a chance, a number from 0 to 1
        self.choices: Final = choices
        #: the table sizes at which the option matters (None: every table)
        self.players: Final = players

    def __repr__(self) -> str:
        return f"Option({self.name!r}, {self.default!r}, {self.choices!r}, {self.players!r})"

    def __reduce__(self) -> tuple[type[Option[Any]], tuple[Any, ...]]:
        # copy and pickle of a compiled class whose __init__ takes arguments (tests/test_core.py)
        return (Option, (self.name, self.default, self.choices, self.players))

    def check(self, value: object) -> T:
        """``value`` if this option may take it, else a PositionError saying what it may be."""
        if self.choices is None:
            if not isinstance(value, int | float) or isinstance(value, bool) \
                    or not 0 <= value <= 1:
                raise PositionError("rules.option_chance", name=self.name, value=repr(value))
            return cast(T, float(value))
        if not is_choice(value, self.choices):
            choices = ", ".join(repr(c) for c in self.choices)
            raise PositionError("rules.option_choice", name=self.name, known=choices,
                                value=repr(value))
        return cast(T, value)

    def offered_at(self, players: int) -> bool:
        """Whether a table of ``players`` may choose this option: it has a choice there."""
        return (self.choices is not None and len(self.choices) > 1
                and (self.players is None or players in self.players))


WildRatio = Literal["more-naturals", "not-more-wilds"]
LastCardRule = Literal["seed", "pagat"]

#: E-1: the seeds' "more naturals than wilds"; the looser P/H reading is an option.
WILD_RATIO: Final[Option[WildRatio]] = Option(
    "wild_ratio", "more-naturals", ("more-naturals", "not-more-wilds"))
#: E-6: a red three drawn as the last stock card ends the hand at once (seed), or in the
#: 2-player game a red three among the last two cards is a one-card draw (Pagat).
TWO_PLAYER_LAST_CARD_RULE: Final[Option[LastCardRule]] = Option(
    "two_player_last_card_rule", "seed", ("seed", "pagat"), players=(2,))
#: E-14: an initial meld below the minimum is refused; in table mode it costs 100 instead.
TABLE_PENALTIES_MODE: Final[Option[bool]] = Option("table_penalties_mode", False, (False, True))
