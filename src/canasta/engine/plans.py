"""What a checked move will do: ``check`` works a plan out, ``apply`` carries it out.

``legal_moves`` keeps, for every move it lists, what ``apply`` needs to carry that move out
without checking it again (a ``Listing``); it builds the ``Plan`` itself only for the move
played.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from canasta.cards import Card
from canasta.moves import Move, MoveKind, group_rank


class GroupPlan(NamedTuple):
    """One group of a meld move, resolved against the table: a new meld or an existing one."""

    rank: str
    cards: tuple[Card, ...]
    joins: int  # index of the side's meld it joins, or -1 for a new meld


class Plan(NamedTuple):
    """What a checked move will do (``check`` computes it, ``apply`` carries it out)."""

    move: Move
    groups: tuple[GroupPlan, ...] = ()
    penalty: int = 0  # table mode: an initial meld below the minimum is taken back for 100


#: A listed move that lays no cards (draw, discard, pass, ask, yes, no): carried out as it is.
PLAIN: Final = -2
#: What a listing keeps for one move: its Plan; for a move of one group, the index of the
#: side's meld it joins (-1: a new meld); PLAIN; or None when ``apply`` must check it.
Spec = Plan | int | None


class Listing:
    """The moves ``legal_moves`` listed for a position, in order, each with its ``Spec``.

    The generator appends to ``moves`` and ``specs`` side by side (``add``, or both lists
    directly on its hot paths); membership hashes the moves only when asked, and only those
    listed since the last question."""

    __slots__ = ("_seen", "_seen_upto", "moves", "specs")

    moves: list[Move]
    specs: list[Spec]
    _seen: set[Move] | None  # (made when first asked: most listings never are)
    _seen_upto: int  # (set with ``_seen``: a listing is made at every move)

    def __init__(self) -> None:
        self.moves = []
        self.specs = []
        self._seen = None

    def add(self, move: Move, spec: Spec) -> None:
        self.moves.append(move)
        self.specs.append(spec)

    def __contains__(self, move: Move) -> bool:
        # Only a few listings ask (moves that go out, first canastas).
        moves = self.moves
        seen = self._seen
        if seen is None:
            seen = self._seen = set()
            self._seen_upto = 0
        if self._seen_upto != len(moves):
            seen.update(moves[self._seen_upto:])
            self._seen_upto = len(moves)
        return move in seen

    def __len__(self) -> int:
        return len(self.moves)

    def find(self, move: Move) -> int:
        """Where ``move`` is in the listing, or -1."""
        # The move played is nearly always one of the listed objects: look for it by identity
        # first (comparing moves by value calls their __eq__ for every move before it). A
        # plain loop: ``list(map(id, moves)).index(id(move))`` makes an int per move and took
        # four times as long in pure Python (``enumerate`` makes a tuple per move).
        moves = self.moves
        i = 0
        for m in moves:
            if m is move:
                return i
            i += 1  # noqa: SIM113
        try:
            return moves.index(move)
        except ValueError:
            return -1

    def plan(self, move: Move) -> Plan | None:
        """The plan of ``move`` if it was listed with one (built now), else None."""
        i = self.find(move)
        if i < 0:
            return None
        spec = self.specs[i]
        if spec is None or isinstance(spec, Plan):
            return spec
        return spec_plan(self.moves[i], spec)


def spec_plan(listed: Move, spec: int) -> Plan:
    """The Plan of a move listed with ``spec`` PLAIN or the index of the meld its one group
    joins."""
    if spec == PLAIN:
        return Plan(listed)
    group = listed.groups[0]
    rank = listed.rank if listed.kind is MoveKind.ADD else group_rank(group)
    return Plan(listed, (GroupPlan(rank, group, spec),))
