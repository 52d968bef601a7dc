"""What one seat gets from a game, the same in every interface: its observation vector, its
action mask and its text.  All of it is built from the seat's view (and, for the seat to act,
the groups it has staged), never from the hidden cards."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from canasta.envs.actions import RANK_CLASSES, ActionSpace
from canasta.envs.core import INT8, EnvGame
from canasta.envs.observation import Observer, observation_size, observation_string
from canasta.rules import Rules

#: per rank class (11 natural ranks, ``W``, ``3``): naturals, deuces, jokers staged; then the
#: staged take's cards from hand (naturals, deuces, jokers) and 1 if a take is staged.
STAGED_SIZE = 3 * len(RANK_CLASSES) + 4
_NOTHING_STAGED = (0.0,) * STAGED_SIZE


def vector_size(rules: Rules) -> int:
    """The length of an interface's observation vector: the view's, then the staged groups."""
    return observation_size(rules) + STAGED_SIZE


def staged_features(space: ActionSpace, prefix: Sequence[int]) -> list[float]:
    out = [0.0] * STAGED_SIZE
    for action in prefix:
        family, i = space.family(action)
        if family == "take-staged":
            base = 3 * len(RANK_CLASSES)
            for k, x in enumerate(space.takes[i]):
                out[base + k] += float(x)
            out[base + 3] = 1.0
        elif family == "meld-staged":
            rank, n, d, j = space.groups[i]
            k = 3 * RANK_CLASSES.index(rank)  # adds up: Ponytail may lay two groups of a rank
            out[k] += float(n)
            out[k + 1] += float(d)
            out[k + 2] += float(j)
    return out


def observation_vector(game: EnvGame, seat: int) -> npt.NDArray[np.float32]:
    """``seat``'s observation: ``observe`` of its view, then its staged groups (zeros unless it
    is the seat to act), kept by the seat's ``Observer`` from one step to the next."""
    observer = game.observers.get(seat)
    if observer is None:
        observer = game.observers[seat] = Observer(game.rules, STAGED_SIZE)
    staged: Sequence[float] = _NOTHING_STAGED
    if game.prefix and game.to_act() == seat:
        staged = staged_features(game.space, game.prefix)
    return observer.vector(game.view(seat), staged)


def action_mask(game: EnvGame, seat: int) -> npt.NDArray[np.int8]:
    """1 for each legal action id of ``seat`` (all 0 unless it is to act)."""
    return action_masks(game, (seat,))[0]


def action_masks(game: EnvGame, seats: Sequence[int]) -> list[npt.NDArray[np.int8]]:
    """``action_mask`` of each of ``seats``, the seat to act looked up once (PettingZoo gives
    every agent its mask at every step)."""
    actor = game.to_act()
    mask = game.mask() if actor is not None else None
    size = game.space.size
    # each a new array: the caller may change its own
    return [mask.copy() if mask is not None and seat == actor else np.zeros(size, INT8)
            for seat in seats]


def render_text(game: EnvGame, seat: int) -> str:
    """``seat``'s view as text (``observation_string``) and the groups it has staged."""
    text = observation_string(game.view(seat))
    if game.to_act() == seat and game.prefix:
        text += "\nstaged: " + "; ".join(game.space.name(a) for a in game.prefix)
    if game.is_match:
        text += f"\nmatch scores: {game.match.scores}"
    return text
