"""The groups the seat to act has staged, as numbers (the last part of every observation)."""

from __future__ import annotations

from collections.abc import Sequence

from canasta.envs.actions import RANK_CLASSES, ActionSpace

#: per rank class (11 natural ranks, ``W``, ``3``): naturals, deuces, jokers staged; then the
#: staged take's cards from hand (naturals, deuces, jokers) and 1 if a take is staged.
STAGED_SIZE = 3 * len(RANK_CLASSES) + 4


def staged_features(space: ActionSpace, prefix: Sequence[int]) -> list[float]:
    out = [0.0] * STAGED_SIZE
    for action in prefix:
        family, i = space.family(action)
        if family == "take-staged":
            base = 3 * len(RANK_CLASSES)
            out[base:base + 3] = [float(x) for x in space.takes[i]]
            out[base + 3] = 1.0
        elif family == "meld-staged":
            rank, n, d, j = space.groups[i]
            k = 3 * RANK_CLASSES.index(rank)
            out[k:k + 3] = [float(n), float(d), float(j)]
    return out
