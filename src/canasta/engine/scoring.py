"""Scoring a hand (RULES.md B.10), with the breakdown of FORMAT.md."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from canasta.engine.state import HandState

#: Whether this module runs compiled (mypyc): see ``HandResult.__init__``.
_NATIVE: Final = not __file__.endswith(".py")

BREAKDOWN_KEYS = ("melded", "canastas", "threes", "going_out", "in_hand", "penalties", "total")


@dataclass(frozen=True)
class HandResult:
    """How a hand ended and what each side scored."""

    went_out: int | None  # the seat that went out, or None (stock exhausted)
    concealed: bool
    breakdown: tuple[dict[str, int], ...] = ()

    def __init__(self, went_out: int | None, concealed: bool,
                 breakdown: tuple[dict[str, int], ...] = ()) -> None:
        # Written out instead of the frozen dataclass's own __init__, as PlayerView's is (see
        # view.py): compiled, a plain assignment is a native store; interpreted, it has to go
        # through object.__setattr__ as the dataclass would.
        if _NATIVE:
            self.went_out = went_out  # type: ignore[misc]
            self.concealed = concealed  # type: ignore[misc]
            self.breakdown = breakdown  # type: ignore[misc]
        else:
            set_field = object.__setattr__
            set_field(self, "went_out", went_out)
            set_field(self, "concealed", concealed)
            set_field(self, "breakdown", breakdown)

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
