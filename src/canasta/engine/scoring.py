"""Scoring a hand (RULES.md B.10), with the breakdown of FORMAT.md."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

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
