"""Classic Canasta for 2, 3 and 4 players (RULES.md section B, decisions of section E)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from canasta.mypyc_attrs import mypyc_attr
from canasta.options import (
    TABLE_PENALTIES_MODE,
    TWO_PLAYER_LAST_CARD_RULE,
    WILD_RATIO,
    Option,
)
from canasta.variants.base import Variant

if TYPE_CHECKING:
    from canasta.engine.melds import Meld
    from canasta.engine.state import HandState


@mypyc_attr(allow_interpreted_subclasses=True)  # a variant registered from outside may extend it
class Classic(Variant):
    name: ClassVar[str] = "classic"
    title: ClassVar[str] = "Classic Canasta"
    aliases: ClassVar[tuple[str, ...]] = ("canasta", "standard")
    player_counts: ClassVar[tuple[int, ...]] = (2, 3, 4)
    default_players: ClassVar[int] = 4
    declared_options: ClassVar[tuple[Option[Any], ...]] = (
        WILD_RATIO, TWO_PLAYER_LAST_CARD_RULE, TABLE_PENALTIES_MODE)

    def hand_size(self, players: int) -> int:
        return {2: 15, 3: 13, 4: 11}[players]

    def draw_count(self, players: int) -> int:
        return 1 if players == 4 else 2

    def canastas_to_go_out(self, players: int) -> int:
        return 2 if players == 2 else 1

    def default_target(self, players: int) -> int:
        return 7500 if players == 3 else 5000

    def wild_range(self, state: HandState, side: int, rank: str, naturals: int,
                   existing: Meld | None) -> tuple[int, int] | None:
        # The base class finds the range by trying each count; Classic's limits (B.4) give it
        # directly, and the move generator asks this often.
        n = naturals + (existing.naturals if existing else 0)
        w0 = existing.wilds if existing else 0
        if n < 2:
            return None
        ratio = n if state.rules.option(WILD_RATIO) == "not-more-wilds" else n - 1
        hi = min(self.max_wilds, ratio) - w0
        lo = max(0, 3 - n - w0)
        return (lo, hi) if lo <= hi else None


CLASSIC = Classic()
