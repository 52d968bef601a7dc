"""The position's fields, declared once.

A position (FORMAT.md "The position") is a public table, the per-seat hidden parts, the stock
nobody sees, and an immutable record of what the seat to act did so far this turn.  ``FIELDS``
says, for every field of ``HandState`` that is part of the position, which of those it belongs
to and how it is held; ````determinize`` and the position JSON are built from it; ``HandState.copy``
and ``view_of`` name each field (a loop over the declaration would make them slower), and
tests/test_schema.py holds them to it, so a field added here and not there fails the tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from canasta.mypyc_attrs import mypyc_attr

#: Whether this module runs compiled (mypyc): see ``TurnFacts.__init__``.
_NATIVE: Final = not __file__.endswith(".py")


@dataclass(frozen=True)
class TurnFacts:
    """What everyone saw the player to act do so far this turn (the rules depend on it).

    Immutable, so that copies and views share it: a move that changes a fact makes a new one."""

    start_melded: bool  # the player had melded earlier in the hand
    melded: bool  # has melded this turn
    old_touched: bool  # has added to a meld that was on the table before this turn
    new_ranks: frozenset[str]  # ranks of the melds started this turn
    black_threes_down: bool

    def __init__(self, start_melded: bool, melded: bool, old_touched: bool,
                 new_ranks: frozenset[str], black_threes_down: bool) -> None:
        # Written out instead of the frozen dataclass's own __init__, as PlayerView's is (see
        # view.py): compiled, a plain assignment is a native store; interpreted, it has to go
        # through object.__setattr__ as the dataclass would.
        if _NATIVE:
            self.start_melded = start_melded  # type: ignore[misc]
            self.melded = melded  # type: ignore[misc]
            self.old_touched = old_touched  # type: ignore[misc]
            self.new_ranks = new_ranks  # type: ignore[misc]
            self.black_threes_down = black_threes_down  # type: ignore[misc]
        else:
            # (The fields go into the instance's dictionary in one call, where five calls of
            # object.__setattr__ cost twice as much.)
            self.__dict__.update(start_melded=start_melded, melded=melded,
                                 old_touched=old_touched, new_ranks=new_ranks,
                                 black_threes_down=black_threes_down)


#: The facts at the start of a turn, by whether the player had melded earlier in the hand (a
#: turn starts at every move that passes it on: two shared records instead of a new one each).
TURN_START: Final = (TurnFacts(False, False, False, frozenset(), False),
                     TurnFacts(True, False, False, frozenset(), False))

# Where a field belongs (who may see it).
TABLE: Final = "table"  # the public table: every seat sees it
ACTOR: Final = "actor"  # seen by the seat to act only (others see None)
TURN: Final = "turn"  # the turn's facts: public, one immutable record
SEAT: Final = "seat"  # one entry per seat, seen by that seat only; the others see its size
HIDDEN: Final = "hidden"  # seen by nobody: everyone sees its size

# How a field is held (and so copied, and frozen in a view).
VALUE: Final = "value"  # an immutable value: copies and views share it
LIST: Final = "list"  # a list of immutable values: copied; a tuple in a view
LISTS: Final = "lists"  # a list of such lists (per seat or side): each copied
TAILS: Final = "tails"  # per seat, such a list or None
INDICES: Final = "indices"  # a list of history indices: copied; a frozenset in a view


@mypyc_attr(allow_interpreted_subclasses=True)
class Field:
    """One field of the position: ``name`` on ``HandState``, ``part`` (who sees it),
    ``shape`` (how it is held), ``view`` (its name in ``PlayerView``: the seat's own entry for a
    per-seat field; "" when the view shows only what follows from it), ``sizes`` (the view's
    sizes of a hidden field), ``json`` (its key in the position JSON, "" when it has none)."""

    __slots__ = ("json", "name", "part", "shape", "sizes", "view")

    def __init__(self, name: str, part: str, shape: str, *, view: str | None = None,
                 sizes: str = "", json: str = "") -> None:
        self.name = name
        self.part = part
        self.shape = shape
        self.view = name.lstrip("_") if view is None else view
        self.sizes = sizes
        self.json = json

    def __repr__(self) -> str:
        return f"Field({self.name!r}, {self.part}, {self.shape})"


#: In the order the position JSON writes them (FORMAT.md).
FIELDS: Final = (
    Field("scores", TABLE, VALUE, json="scores"),
    Field("turn", TABLE, VALUE, json="turn"),
    Field("phase", TABLE, VALUE, json="phase"),
    Field("hands", SEAT, LISTS, view="hand", sizes="hand_sizes", json="hands"),
    Field("melds", TABLE, LISTS, json="melds"),
    Field("threes", TABLE, LISTS, json="threes"),
    Field("pile", TABLE, LIST, json="discard"),
    Field("stock", HIDDEN, LIST, view="", sizes="stock_size", json="stock"),
    Field("melded", TABLE, LIST, json="melded"),
    Field("asked", TABLE, LIST, json="asked"),
    Field("hand_number", TABLE, VALUE, json="hand_number"),
    Field("drew", ACTOR, VALUE, json="drew"),
    Field("start_frozen", TABLE, VALUE, json="start_frozen"),
    Field("ponytails", SEAT, TAILS, view="", sizes="ponytail_sizes", json="ponytails"),
    # How many cards in the pile freeze it (+1 for its start): the view says only whether.
    Field("frozen", TABLE, VALUE, view=""),
    Field("asking", TABLE, VALUE),
    Field("penalties", TABLE, LIST),
    Field("penalized", TABLE, INDICES),
    Field("bonuses", TABLE, LIST),
    Field("history", TABLE, VALUE),  # a property of HandState (its slots: see ``record``)
    Field("result", TABLE, VALUE),
    Field("answer", ACTOR, VALUE),
    Field("facts", TURN, VALUE, view="turn_facts"),
)


__all__ = ["ACTOR", "FIELDS", "HIDDEN", "INDICES", "LIST", "LISTS", "SEAT", "TABLE", "TAILS",
           "TURN", "TURN_START", "VALUE", "Field", "TurnFacts"]
