"""Rules: a variant, a number of players and the options chosen for one match.

A variant is data plus a few named hooks (``canasta.variants``); ``Rules`` binds one to a table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar, overload

from canasta.errors import PositionError
from canasta.options import Option
from canasta.options import is_choice as is_choice  # where the web session imports it
from canasta.variants import Variant, get_variant
from canasta.variants.base import Settings

T = TypeVar("T")

TARGETS = (2500, 5000, 7500, 10000)


def whole_number(value: object, where: str) -> int:
    """``value`` when it is a whole number (an int: ``True`` is not one), else a PositionError
    saying that ``where`` must be one.

    >>> whole_number(2.0, "'players'")
    Traceback (most recent call last):
    ...
    canasta.errors.PositionError: 'players' must be a whole number, not 2.0
    """
    if not isinstance(value, int) or isinstance(value, bool):
        raise PositionError("position.whole_number", where=where, value=repr(value))
    return value


@dataclass(frozen=True)
class Rules:
    """The fixed configuration of a match (OpenSpiel's "Game"): variant, players, options."""

    variant: Variant
    players: int
    target: int
    options: Mapping[str, Any] = field(default_factory=dict)
    #: sides that score (a shorthand used on hot paths: ``variant.n_sides(players)``)
    n_sides: int = field(init=False, repr=False, compare=False)
    #: cards a draw from the stock takes (``variant.draw_count(players)``, read at every draw)
    draws: int = field(init=False, repr=False, compare=False)
    #: values the variant derives from these rules alone and reads at nearly every step (its
    #: meld limits, house rules read once), by a name of the variant's: filled as they are
    #: first asked for, kept as long as the rules (which never change)
    derived: dict[str, Any] = field(init=False, repr=False, compare=False)
    #: the variant's settings, read on hot paths (``Settings``)
    settings: Settings = field(init=False, repr=False, compare=False)
    #: the canastas a side needs to go out (``variant.canastas_required``: the listing and the
    #: going-out search ask it at nearly every position)
    canastas_needed: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "n_sides", self.variant.n_sides(self.players))
        object.__setattr__(self, "draws", self.variant.draw_count(self.players))
        object.__setattr__(self, "derived", {})
        object.__setattr__(self, "settings", Settings(self.variant))
        object.__setattr__(self, "canastas_needed", self.variant.canastas_required(self))

    @staticmethod
    def make(variant: str | Variant, players: int | None = None, **options: Any) -> Rules:
        """Rules for ``variant`` with its defaults for every option not given.

        >>> r = Rules.make("classic", 3)
        >>> r.target, r.option("wild_ratio")
        (7500, 'more-naturals')
        """
        v = get_variant(variant) if isinstance(variant, str) else variant
        if players is None:
            players = v.default_players
        players = whole_number(players, "'players'")
        if players not in v.player_counts:
            raise PositionError("rules.players", variant=v.name, counts=tuple(v.player_counts),
                                value=str(players))
        target = options.pop("target", None)
        if target is None:
            target = v.default_target(players)
        if not isinstance(target, int) or isinstance(target, bool) or target <= 0:
            raise PositionError("rules.target", value=repr(target))
        opts = v.option_defaults
        for name, value in options.items():
            if value is not None:
                opts[name] = v.declared_option(name).check(value)
        return Rules(v, players, target, opts)

    @overload
    def option(self, option: Option[T]) -> T: ...

    @overload
    def option(self, option: str) -> Any: ...

    def option(self, option: Option[T] | str) -> T | Any:
        """The table's value of a house rule: a declared ``Option`` (a variant that does not
        offer it plays its default), or the name of one of this variant's options (any other
        name is a PositionError).

        >>> Rules.make("ponytail").option("wild_ratoi")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        canasta.errors.PositionError: unknown option 'wild_ratoi' for ponytail (known: ...)
        """
        if isinstance(option, str):
            if option not in self.options:
                self.variant.declared_option(option)  # raises, naming the known options
            return self.options[option]
        return self.options.get(option.name, option.default)

    def to_json(self) -> dict[str, Any]:
        """The rules as JSON: variant, players and every option (target included)."""
        return {
            "variant": self.variant.name,
            "players": self.players,
            "options": {"target": self.target, **dict(self.options)},
        }

    @staticmethod
    def from_json(obj: Mapping[str, Any]) -> Rules:
        if not isinstance(obj, Mapping):
            raise PositionError("rules.not_object")
        options = obj.get("options") or {}
        if not isinstance(options, Mapping):
            raise PositionError("rules.options_object")
        # (checked here too: the compiled ``make`` takes nothing but an int or None)
        players = obj.get("players")
        if players is not None:
            players = whole_number(players, "'players'")
        return Rules.make(str(obj.get("variant", "")), players, **dict(options))

    # Shorthands used on hot paths.
    def side_of(self, seat: int) -> int:
        return seat % self.n_sides
