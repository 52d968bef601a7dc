"""Scoring a hand (RULES.md B.10), with the breakdown of FORMAT.md."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from canasta.moves import BLACK_THREES_MELD

if TYPE_CHECKING:
    from canasta.engine.state import HandState

BREAKDOWN_KEYS = ("melded", "canastas", "threes", "going_out", "in_hand", "penalties", "total")


@dataclass(frozen=True)
class HandResult:
    """How a hand ended and what each side scored."""

    went_out: int | None  # the seat that went out, or None (stock exhausted)
    concealed: bool
    breakdown: tuple[dict[str, int], ...] = field(default_factory=tuple)

    @property
    def scores(self) -> list[int]:
        return [b["total"] for b in self.breakdown]

    def to_json(self) -> dict[str, object]:
        return {
            "went_out": self.went_out,
            "concealed": self.concealed,
            "hand_score": self.scores,
            "breakdown": [dict(b) for b in self.breakdown],
        }


def score_hand(state: HandState, went_out: int | None, concealed: bool) -> HandResult:
    out_side = state.side_of(went_out) if went_out is not None else None
    parts = []
    for side in range(state.rules.n_sides):
        part = state.rules.variant.score_side(state, side, side == out_side, concealed)
        part["total"] = sum(v for k, v in part.items() if k != "total")
        parts.append(part)
    return HandResult(went_out, concealed, tuple(parts))


def classic_score_side(state: HandState, side: int, went_out: bool,
                       concealed: bool) -> dict[str, int]:
    """B.10: melded cards, canasta bonuses, red threes (negative for a side that has not
    melded), the going-out bonus, less the cards left in the side's hands."""
    v = state.rules.variant
    size = v.canasta_size
    melds = state.melds[side]
    going_out = 0
    if went_out:
        going_out = v.concealed_bonus if concealed else v.going_out_bonus
    return {
        "melded": sum(m.value for m in melds),
        "canastas": sum(v.canasta_bonus(m) for m in melds
                        if m.size >= size and m.rank != BLACK_THREES_MELD),
        "threes": v.red_threes_score(len(state.threes[side]), bool(melds)),
        "going_out": going_out,
        "in_hand": -sum(c.value for seat in range(state.rules.players)
                        if state.side_of(seat) == side for c in state.hands[seat]),
        "penalties": -v.side_penalties(state, side),
    }
