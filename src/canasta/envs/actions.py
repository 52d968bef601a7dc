"""The action encoding shared by the research interfaces (docs/ENVS.md, "Actions").

Suits never matter in Canasta except for threes, so an action names a move by *composition*:
a group of cards is its rank class (a natural rank, ``W`` for a meld of wild cards only, ``3``
for black threes) and how many naturals (black threes for ``3``), deuces and jokers it holds.
The engine lists one legal move per composition (docs/ENGINE.md), so every listed move has its
own encoding and the encoding leads back to that move.

Almost every move is one action.  A move that lays several groups at once (an initial meld that
needs two groups to reach the minimum, a take with extra groups, going out in one go) is a short
sequence: every group but the last as a *staged* action (the same player acts again), the last
one as the action that plays the move.  The table of actions depends only on the variant and the
number of players (the number of decks bounds the counts) and the table's options (Ponytail's
four books allow melds of wild cards), so it is fixed for a table:

====================  =============================================================
ids                   action
====================  =============================================================
0 .. 4                ``draw``, ``pass``, ``ask``, ``yes``, ``no``
5 .. 19               ``discard`` a card of kind k (cards.KIND_NAMES order)
take (final)          take the pile with this composition from hand (rank: the top card's)
take (staged)         the same, more groups to come
add                   add a group (rank, naturals, deuces, jokers) to the side's meld
meld (final)          lay a group: the move's last (or only) group
meld (staged)         lay a group, more groups to come
====================  =============================================================

>>> from canasta.rules import Rules
>>> from canasta.moves import parse_move
>>> a = ActionSpace(Rules.make("classic", 4))
>>> a.encode(parse_move("meld 9C 9D 2S")), a.name(1651)
((1651,), 'meld 9: 2 naturals, 1 deuce')
>>> [a.name(i) for i in a.encode(parse_move("take 9C 9D / KC KD KH"))]
['take with 2 naturals (more groups to come)', 'meld K: 3 naturals']
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import SupportsIndex

from canasta.cards import DEUCE, JOKER, KIND_NAMES, N_KINDS, NATURAL_RANKS, Card
from canasta.errors import CanastaError
from canasta.moves import BLACK_THREES_MELD, WILD_MELD, Move, MoveKind, group_rank
from canasta.mypyc_attrs import mypyc_attr
from canasta.rules import Rules

Composition = tuple[int, int, int]  # naturals (black threes for "3"), deuces, jokers
GroupKey = tuple[str, int, int, int]  # rank class, naturals, deuces, jokers

RANK_CLASSES = (*NATURAL_RANKS, WILD_MELD, BLACK_THREES_MELD)
SIMPLE = (MoveKind.DRAW, MoveKind.PASS, MoveKind.ASK, MoveKind.YES, MoveKind.NO)
DISCARD_BASE = len(SIMPLE)


@mypyc_attr(native_class=False)  # compiled, it still derives from the interpreted CanastaError
class IllegalAction(CanastaError):
    """An action id that is not legal in the position (or not an action at all)."""


def composition(cards: Iterable[Card]) -> Composition:
    n = d = j = 0
    for c in cards:
        if c.kind == DEUCE:
            d += 1
        elif c.kind == JOKER:
            j += 1
        else:
            n += 1  # a natural, or a black three in a group of black threes
    return n, d, j


@dataclass(frozen=True)
class Family:
    name: str
    start: int
    size: int


#: Encodings kept per action space (a long-running process starts afresh past this).
_ENCODED_MAX = 100_000


# Compiled, ActionSpace.__new__(ActionSpace) would run __init__ (and fail) but for this
# attribute; with it, copy and pickle do as in Python (Decision too).
@mypyc_attr(allow_interpreted_subclasses=True)
class ActionSpace:
    """The fixed table of action ids of one table (variant and number of players)."""

    def __init__(self, rules: Rules) -> None:
        v = rules.variant
        decks = v.decks(rules.players)
        naturals, deuces, jokers = 4 * decks, 4 * decks, 2 * decks
        self.rules = rules
        groups: list[GroupKey] = []
        for rank in NATURAL_RANKS:
            for n in range(naturals + 1):
                for d in range(min(deuces, v.max_wilds) + 1):
                    for j in range(min(jokers, v.max_wilds - d) + 1):
                        if n + d + j:
                            groups.append((rank, n, d, j))
        if v.has_wild_melds(rules):
            for d in range(deuces + 1):
                for j in range(jokers + 1):
                    if d + j:
                        groups.append((WILD_MELD, 0, d, j))
        for n in range(1, 2 * decks + 1):
            groups.append((BLACK_THREES_MELD, n, 0, 0))
        takes: list[Composition] = [
            (n, d, j) for n in range(naturals + 1)
            for d in range(min(deuces, v.max_wilds) + 1)
            for j in range(min(jokers, v.max_wilds - d) + 1)]
        self.groups: tuple[GroupKey, ...] = tuple(groups)
        self.takes: tuple[Composition, ...] = tuple(takes)
        self._group_index = {g: i for i, g in enumerate(groups)}
        self._take_index = {t: i for i, t in enumerate(takes)}
        start = DISCARD_BASE + N_KINDS
        fams = []
        for name, size in (("take", len(takes)), ("take-staged", len(takes)),
                           ("add", len(groups)), ("meld", len(groups)),
                           ("meld-staged", len(groups))):
            fams.append(Family(name, start, size))
            start += size
        self.families = {f.name: f for f in fams}
        self.size = start
        self._staged = ((self.families["take-staged"].start, self.families["take-staged"].size),
                        (self.families["meld-staged"].start, self.families["meld-staged"].size))
        # Every encoding worked out: the engine lists the same (shared) move objects at
        # decision after decision, and a move's encoding depends on the move alone.
        self._encoded: dict[int, tuple[Move, tuple[int, ...]]] = {}

    # --- moves to actions -----------------------------------------------------------------
    def _group(self, family: str, key: GroupKey, move: Move) -> int:
        i = self._group_index.get(key)
        if i is None:
            raise IllegalAction(f"'{move}' has a group ({_group_text(key)}) beyond this "
                                "table's action encoding")
        return self.families[family].start + i

    def encode(self, move: Move) -> tuple[int, ...]:
        """The action ids of ``move``: one for most moves, one per group for a move that lays
        several groups (all but the last staged)."""
        # By identity (a move's own hash rebuilds the tuple of its fields); the entry holds the
        # move, so its id cannot be reused while the entry is there.
        found = self._encoded.get(id(move))
        if found is not None and found[0] is move:
            return found[1]
        seq = self._encode(move)
        if len(self._encoded) >= _ENCODED_MAX:
            self._encoded.clear()
        self._encoded[id(move)] = (move, seq)
        return seq

    def _encode(self, move: Move) -> tuple[int, ...]:
        k = move.kind
        if k in SIMPLE:
            return (SIMPLE.index(k),)
        if k is MoveKind.DISCARD:
            assert move.card is not None
            return (DISCARD_BASE + move.card.kind,)
        if k is MoveKind.ADD:
            (g,) = move.groups
            return (self._group("add", (move.rank, *composition(g)), move),)
        if k is MoveKind.MELD:
            keys = [(group_rank(g), *composition(g)) for g in move.groups]
            return (*(self._group("meld-staged", key, move) for key in keys[:-1]),
                    self._group("meld", keys[-1], move))
        if k is MoveKind.TAKE:
            top, *extra = move.groups if move.groups else ((),)
            t = self._take_index.get(composition(top))
            if t is None:
                raise IllegalAction(f"'{move}' takes the pile with more cards than this "
                                    "table's action encoding holds")
            if not extra:
                return (self.families["take"].start + t,)
            keys = [(group_rank(g), *composition(g)) for g in extra]
            return (self.families["take-staged"].start + t,
                    *(self._group("meld-staged", key, move) for key in keys[:-1]),
                    self._group("meld", keys[-1], move))
        raise IllegalAction(f"'{move}' has no action")

    # --- actions to words -----------------------------------------------------------------
    def index(self, action: SupportsIndex) -> int:
        """``action`` as an int (numpy integers too); IllegalAction, saying why, for anything
        that is not an action id."""
        try:
            i = operator.index(action)
        except TypeError:
            raise IllegalAction(f"{action!r} is not an action id (a whole number)") from None
        if not 0 <= i < self.size:
            raise IllegalAction(f"{i!r} is not an action id (0 to {self.size - 1})")
        return i

    def family(self, action: SupportsIndex) -> tuple[str, int]:
        """The family of an action id and its index inside the family."""
        i = self.index(action)
        if i < DISCARD_BASE:
            return SIMPLE[i].value, 0
        if i < DISCARD_BASE + N_KINDS:
            return "discard", i - DISCARD_BASE
        for f in self.families.values():
            if i < f.start + f.size:
                return f.name, i - f.start
        raise AssertionError("unreachable")

    def staged(self, action: SupportsIndex) -> bool:
        """Whether the action only stages a group (the same player then acts again)."""
        i = self.index(action)
        (take, takes), (meld, melds) = self._staged
        return take <= i < take + takes or meld <= i < meld + melds

    def name(self, action: SupportsIndex) -> str:
        """The action in words: ``meld 9: 2 naturals, 1 deuce``."""
        fam, i = self.family(action)
        if fam == "discard":
            return f"discard {KIND_NAMES[i]}"
        if fam.startswith("take"):
            words = _comp_text(self.takes[i]) or "nothing from hand (onto the side's meld)"
            return f"take with {words}" + (" (more groups to come)" if fam == "take-staged" else "")
        if fam in ("add", "meld", "meld-staged"):
            text = f"{fam.split('-')[0]} {_group_text(self.groups[i])}"
            return text + (" (more groups to come)" if fam == "meld-staged" else "")
        return fam


def _comp_text(c: Composition, black_threes: bool = False) -> str:
    n, d, j = c
    parts = []
    if n:
        noun = "black three" if black_threes else "natural"
        parts.append(f"{n} {noun}{'s' if n > 1 else ''}")
    if d:
        parts.append(f"{d} deuce{'s' if d > 1 else ''}")
    if j:
        parts.append(f"{j} joker{'s' if j > 1 else ''}")
    return ", ".join(parts)


def _group_text(key: GroupKey) -> str:
    rank, n, d, j = key
    return f"{rank}: {_comp_text((n, d, j), rank == BLACK_THREES_MELD)}"


_SPACES: dict[tuple[str, int, tuple[tuple[str, str], ...]], ActionSpace] = {}


def action_space(rules: Rules) -> ActionSpace:
    """The action space of a table, built once per variant, players and options."""
    key = (rules.variant.name, rules.players,
           tuple(sorted((k, repr(v)) for k, v in rules.options.items())))
    space = _SPACES.get(key)
    if space is None:
        space = _SPACES[key] = ActionSpace(rules)
    return space


@mypyc_attr(allow_interpreted_subclasses=True)
class Decision:
    """The legal action sequences of one decision point: the engine's legal moves, each
    encoded, as a tree.  ``legal(prefix)`` gives the next actions after the staged ones.

    Nothing is encoded until it is asked for: a decision whose move is played as a move
    (``find``: a computer player's seat) never encodes its moves at all, and the tree is built
    once, at the first question about actions, with each prefix's sorted actions kept."""

    __slots__ = ("_legal", "_next", "_sequences", "moves", "space")

    def __init__(self, space: ActionSpace, moves: Sequence[Move]) -> None:
        self.space = space
        self.moves = tuple(moves)
        self._sequences: dict[tuple[int, ...], Move] | None = None
        self._next: dict[tuple[int, ...], set[int]] = {}
        self._legal: dict[tuple[int, ...], list[int]] = {}

    @property
    def sequences(self) -> dict[tuple[int, ...], Move]:
        """Each legal move by its complete action sequence."""
        sequences = self._sequences
        if sequences is None:
            sequences = self._build()
        return sequences

    def _build(self) -> dict[tuple[int, ...], Move]:
        encode = self.space.encode
        sequences: dict[tuple[int, ...], Move] = {}
        firsts: set[int] = set()
        nxt = self._next
        nxt[()] = firsts
        for m in self.moves:
            seq = encode(m)
            if seq in sequences:
                raise AssertionError(f"two legal moves share an encoding: {sequences[seq]} "
                                     f"and {m}")
            sequences[seq] = m
            firsts.add(seq[0])
            for i in range(1, len(seq)):
                key = seq[:i]
                after = nxt.get(key)
                if after is None:
                    nxt[key] = {seq[i]}
                else:
                    after.add(seq[i])
        self._sequences = sequences
        return sequences

    def legal(self, prefix: Sequence[int] = ()) -> list[int]:
        """The legal action ids after the staged actions ``prefix``, ascending."""
        key = tuple(prefix)
        found = self._legal.get(key)
        if found is None:
            if self._sequences is None:
                self._build()
            found = self._legal[key] = sorted(self._next.get(key, ()))
        return list(found)

    def move(self, sequence: Sequence[int]) -> Move | None:
        """The move a complete sequence plays (None while groups are only staged)."""
        return self.sequences.get(tuple(sequence))

    def find(self, move: Move) -> Move | None:
        """The listed move that is ``move`` (the same object, else an equal one), or None."""
        for m in self.moves:
            if m is move:
                return m
        for m in self.moves:
            if m == move:
                return m
        return None

    def check(self, prefix: Sequence[int], action: SupportsIndex) -> None:
        """Raise IllegalAction, with the reason, unless ``action`` may follow ``prefix``."""
        space = self.space
        action = space.index(action)  # raises for a number that is no action at all
        if self._sequences is None:
            self._build()
        if action not in self._next.get(tuple(prefix), ()):
            staged = f" after {len(prefix)} staged group(s)" if prefix else ""
            raise IllegalAction(f"action {action} ({space.name(action)}) is not legal "
                                f"here{staged}")
