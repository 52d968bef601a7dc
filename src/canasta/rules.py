"""Rules: a variant, a number of players and the options chosen for one match.

A variant is data plus a few named hooks (``canasta.variants``); ``Rules`` binds one to a table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from canasta.errors import PositionError
from canasta.variants import Variant, get_variant

TARGETS = (2500, 5000, 7500, 10000)


def is_choice(value: Any, choices: Sequence[Any]) -> bool:
    """Whether ``value`` is one of ``choices``, of the same type too (``1`` is not ``True``)."""
    return any(type(value) is type(c) and value == c for c in choices)


@dataclass(frozen=True)
class Rules:
    """The fixed configuration of a match (OpenSpiel's "Game"): variant, players, options."""

    variant: Variant
    players: int
    target: int
    options: Mapping[str, Any] = field(default_factory=dict)
    #: sides that score (a shorthand used on hot paths: ``variant.n_sides(players)``)
    n_sides: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "n_sides", self.variant.n_sides(self.players))

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
        if players not in v.player_counts:
            counts = ", ".join(str(p) for p in v.player_counts)
            raise PositionError(f"{v.name} is played by {counts} players, not {players}")
        target = options.pop("target", None)
        if target is None:
            target = v.default_target(players)
        if not isinstance(target, int) or isinstance(target, bool) or target <= 0:
            raise PositionError(f"the target score must be a positive whole number, not {target!r}")
        opts = dict(v.option_defaults)
        for name, value in options.items():
            if value is None:
                continue
            if name not in v.option_defaults:
                known = ", ".join(sorted(v.option_defaults)) or "none"
                raise PositionError(f"unknown option '{name}' for {v.name} (known: {known})")
            allowed = v.option_choices.get(name)
            default = v.option_defaults[name]
            if isinstance(default, float) and (
                    not isinstance(value, int | float) or isinstance(value, bool)
                    or not 0 <= value <= 1):
                raise PositionError(f"option '{name}' must be a number from 0 to 1, not {value!r}")
            if allowed is not None and not is_choice(value, allowed):
                choices = ", ".join(repr(a) for a in allowed)
                raise PositionError(f"option '{name}' must be one of {choices}, not {value!r}")
            opts[name] = value
        return Rules(v, players, target, opts)

    def option(self, name: str) -> Any:
        return self.options[name]

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
            raise PositionError("rules must be a JSON object")
        options = obj.get("options") or {}
        if not isinstance(options, Mapping):
            raise PositionError("'options' must be a JSON object")
        return Rules.make(str(obj.get("variant", "")), obj.get("players"), **dict(options))

    # Shorthands used on hot paths.
    def side_of(self, seat: int) -> int:
        return seat % self.n_sides
