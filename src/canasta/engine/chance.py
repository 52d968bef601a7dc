"""Seeded chance for dealing and random play: the numbers ``random.Random`` would draw.

``shuffle`` and the uniform choice of ``play_out`` draw from a ``random.Random``'s
``getrandbits`` exactly as CPython's ``Random.shuffle`` and ``Random.choice`` do
(``_randbelow_with_getrandbits``: ``k = n.bit_length()`` bits, drawn again while the number is
``n`` or more), so the same seed gives the same deck and the same moves; ``random.Random``'s own
methods are interpreted Python (random.py) around that one C call, these are compiled with the
engine.  tests/test_chance.py compares them with ``random.Random`` over many draws and lengths:
a Python whose ``random`` draws otherwise fails there.  The generator is a plain
``random.Random`` (a subclass with a ``random()`` of its own draws otherwise in CPython).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final, TypeVar

from canasta.engine.goingout import can_go_out
from canasta.engine.legal import listing
from canasta.engine.plans import PLAIN
from canasta.engine.play import carry_out_kept
from canasta.moves import ASK

if TYPE_CHECKING:
    from canasta.engine.state import HandState

T = TypeVar("T")

#: ``n.bit_length()`` for the lengths met in play (a table look-up costs less than the call).
_BITS: Final = tuple(n.bit_length() for n in range(1024))


def below(rng: random.Random, n: int) -> int:
    """A uniform integer of ``range(n)`` (``n`` > 0), as ``rng._randbelow(n)`` draws it."""
    getrandbits = rng.getrandbits
    k = _BITS[n] if n < 1024 else n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def choice(rng: random.Random, seq: list[T]) -> T:
    """``rng.choice(seq)``: the same element, ``rng`` left in the same state."""
    n = len(seq)
    if not n:
        raise IndexError("Cannot choose from an empty sequence")
    return seq[below(rng, n)]


#: ``shuffle``'s steps for each length of list shuffled: (i, i + 1, the bits drawn for it),
#: i from the end down, worked out once per length (a deck is shuffled at every deal).
_SHUFFLES: Final[dict[int, tuple[tuple[int, int, int], ...]]] = {}


def shuffle(rng: random.Random, x: list[T]) -> None:
    """``rng.shuffle(x)``: the same order, ``rng`` left in the same state."""
    getrandbits = rng.getrandbits
    steps = _SHUFFLES.get(len(x))
    if steps is None:
        steps = tuple((i, i + 1, (i + 1).bit_length()) for i in range(len(x) - 1, 0, -1))
        _SHUFFLES[len(x)] = steps
    for i, n, k in steps:
        j = getrandbits(k)  # ``below(rng, i + 1)``, inlined: 107 draws a deal in Classic
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def play_out(state: HandState, rng: random.Random) -> int:
    """Play the hand of ``state`` to its end, each move drawn uniformly from the legal moves
    as ``rng.choice(state.legal_moves())`` would draw it; the number of moves played.

    Whether ``ask`` is legal (a going-out search) is asked only when the draw needs it: with
    ``n`` other moves and ``ask`` last, a draw below ``n`` picks one of them whether ``ask``
    is listed or not, a draw above ``n`` is drawn again either way, and only a draw of ``n``
    itself depends on the answer; and ``n`` and ``n + 1`` need as many bits, except where
    ``n + 1`` is a power of two (then the answer is asked first).  The same draws, the same
    moves."""
    getrandbits = rng.getrandbits
    played = 0
    while state.result is None:
        out, deferred = listing(state, True)
        n = len(out.moves)
        if deferred and not (n + 1) & n:  # (n + 1 a power of two: the answer decides the bits)
            deferred = False
            if can_go_out(state):
                out.add(ASK, PLAIN)
                n += 1
        if not n:
            raise IndexError("Cannot choose from an empty sequence")
        k = _BITS[n] if n < 1024 else n.bit_length()  # ``choice``, inlined
        r = getrandbits(k)
        while r >= n:
            if deferred and r == n:
                deferred = False  # asked once
                if can_go_out(state):
                    out.add(ASK, PLAIN)
                    n += 1
                    break
            r = getrandbits(k)
        if carry_out_kept(state, out, r) is None:  # ``state.apply(moves[r])``, no search
            state.apply(out.moves[r])
        played += 1
    return played


__all__ = ["below", "choice", "play_out", "shuffle"]
