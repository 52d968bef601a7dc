"""The variant registry: ``get_variant("classic")``."""

from __future__ import annotations

from canasta.errors import PositionError
from canasta.variants.base import Variant
from canasta.variants.classic import CLASSIC
from canasta.variants.modern_american import MODERN_AMERICAN
from canasta.variants.ponytail import PONYTAIL_VARIANT

_REGISTRY: dict[str, Variant] = {}


def register(variant: Variant) -> None:
    for name in (variant.name, *variant.aliases):
        _REGISTRY[name] = variant


def get_variant(name: str) -> Variant:
    v = _REGISTRY.get(name.strip().lower().replace("_", "-"))
    if v is None:
        raise PositionError("rules.unknown_variant", name=name, known=", ".join(variant_names()))
    return v


def variant_names() -> list[str]:
    return sorted({v.name for v in _REGISTRY.values()})


register(CLASSIC)
register(MODERN_AMERICAN)
register(PONYTAIL_VARIANT)

__all__ = ["Variant", "get_variant", "register", "variant_names"]
