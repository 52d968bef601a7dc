"""The observation tensor of the research interfaces (docs/OBSERVATIONS.md).

``observe(view)`` turns one seat's ``PlayerView`` into a flat float32 vector whose layout
depends only on the table (variant and number of players): ``observation_fields(rules)`` lists
its fields in order.  It is built from the view alone, so it can never hold another seat's
hidden cards: the other hands, the stock and the ponytails appear only as sizes.  What the view
does let a seat infer is included: the cards other seats took from the pile (every card in the
pile was seen face up by everyone, and the public history shows every take) and have not shown
since.

Seats and sides are *relative* to the observer: seat 0 is the observer, seat 1 the next to play
after it, and so on; side 0 is the observer's side.  Every count is a plain number of cards;
points (scores, minimums, penalties, bonuses, hand results) are divided by ``POINTS_SCALE``.

>>> from canasta.match import Match
>>> from canasta.rules import Rules
>>> from canasta.view import view_of
>>> rules = Rules.make("classic", 4)
>>> observation_size(rules)
340
>>> vector = observe(view_of(Match(rules, seed=1).state, 0))
>>> vector.shape, vector.dtype.name, float(vector[:15].sum())
((340,), 'float32', 11.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from canasta.cards import (
    BLACK_THREE,
    DEUCE,
    JOKER,
    KIND_NAMES,
    N_KINDS,
    NATURAL_RANKS,
    RED_THREE,
    Card,
    cards_text,
    kind_counts,
    sort_cards,
)
from canasta.engine.melds import Meld
from canasta.moves import BLACK_THREES_MELD, WILD_MELD, MoveKind
from canasta.mypyc_attrs import mypyc_attr
from canasta.rules import Rules
from canasta.view import PlayerView

#: Points (scores, minimums, penalties, bonuses, hand results) are divided by this.
POINTS_SCALE: Final = 1000.0
#: Meld rank classes, in vector order: the natural ranks, then wild-card melds, then black threes.
RANK_CLASSES: Final = (*NATURAL_RANKS, WILD_MELD, BLACK_THREES_MELD)
#: What is given for each rank class of a side's melds, in vector order.
MELD_STATS: Final = ("naturals", "deuces", "jokers", "canastas", "clean_canastas", "unfinished")
PHASES: Final = ("draw", "play", "answer", "over")

_KINDS_TEXT = " ".join(KIND_NAMES)
_CLASSES_TEXT = " ".join(RANK_CLASSES)


@dataclass(frozen=True)
class Field:
    """One field of the observation vector."""

    name: str  # e.g. "hand_counts"
    size: int  # number of floats
    description: str  # one line: what each entry means, its order and scale


_LAYOUTS: dict[tuple[str, int], list[Field]] = {}


def observation_fields(rules: Rules) -> list[Field]:
    """The layout of the observation vector for a table, field by field, in order."""
    key = (rules.variant.name, rules.players)
    fields = _LAYOUTS.get(key)
    if fields is None:
        fields = _LAYOUTS[key] = _layout(rules)
    return list(fields)


def _layout(rules: Rules) -> list[Field]:
    n, s = rules.players, rules.n_sides
    nc, ns = len(RANK_CLASSES), len(MELD_STATS)
    return [
        Field("hand_counts", N_KINDS,
              f"cards of each kind in the observer's hand (kinds {_KINDS_TEXT})"),
        Field("hand_sizes", n, "cards in each seat's hand (relative seats 0..n-1)"),
        Field("ponytail_sizes", n,
              "cards in each seat's ponytail still face down (0 once picked up, or no ponytails)"),
        Field("seat_melded", n, "1 if the seat has melded this hand (relative seats)"),
        Field("seat_asked", n, "1 if the seat has asked \"may I go out?\" (this turn, or this hand "
                               "where it is asked once per hand)"),
        Field("known_cards", (n - 1) * N_KINDS,
              "for relative seats 1..n-1, cards of each kind known to be in that seat's hand: "
              "taken from the pile and not shown since (15 kinds per seat)"),
        Field("unseen_counts", N_KINDS,
              "cards of each kind the observer cannot place: the pack less its hand, the table, "
              "the pile and known_cards (in other hands, the stock or ponytails)"),
        Field("melds", s * nc * ns,
              f"per relative side, per rank class ({_CLASSES_TEXT}): "
              f"{', '.join(MELD_STATS)} ({nc * ns} per side)"),
        Field("threes", 2 * s, "per relative side: red threes laid, black threes laid"),
        Field("canastas", s, "canastas of each relative side"),
        Field("opened", s, "1 if the relative side has made its initial meld"),
        Field("scores", s, f"each relative side's score before this hand, / {POINTS_SCALE:g}"),
        Field("minimums", s,
              f"the count each relative side's initial meld needs, / {POINTS_SCALE:g}"),
        Field("penalties", s, f"penalties of each relative side this hand, / {POINTS_SCALE:g}"),
        Field("bonuses", s, f"bonuses of each relative side this hand, / {POINTS_SCALE:g}"),
        Field("pile_size", 1, "cards in the discard pile"),
        Field("pile_top", N_KINDS + 1,
              f"one-hot kind of the pile's top card (kinds {_KINDS_TEXT}, then empty pile)"),
        Field("pile_flags", 3,
              "pile frozen for everyone, frozen for the observer's side, frozen by its start"),
        Field("pile_counts", N_KINDS, "cards of each kind in the pile"),
        Field("stock_size", 1, "cards in the stock"),
        Field("hand_number", 1, "the number of this hand in the match (1 for the first)"),
        Field("phase", len(PHASES),
              "one-hot: draw, play, answer (an answer to \"may I go out?\" is awaited), over"),
        Field("turn", n, "one-hot relative seat to act (all 0 once the hand is over)"),
        Field("asker", n, "one-hot relative seat waiting for an answer to \"may I go out?\""),
        Field("answer", 2, "the answer the observer received this turn: yes, no"),
        Field("drew", 2, "where the observer drew from this turn: stock, pile"),
        Field("turn_facts", 4, "this turn so far: the player had melded before it, has melded, "
                               "has added to an older meld, has laid black threes"),
        Field("new_ranks", nc, f"1 for each rank class ({_CLASSES_TEXT}) melded anew this turn"),
        Field("result", s, f"the hand's score of each relative side once over, / {POINTS_SCALE:g}"),
        Field("went_out", n, "one-hot relative seat that went out (all 0 otherwise)"),
        Field("concealed", 1, "1 if the hand ended by going out concealed"),
    ]


def observation_size(rules: Rules) -> int:
    """The length of the observation vector for a table."""
    return sum(f.size for f in observation_fields(rules))


# ---------------------------------------------------------------------------------------------
# What a seat can infer from the view


def known_cards(view: PlayerView) -> list[list[Card]]:
    """Per (absolute) seat, the cards known to be in its hand from the public history: cards
    taken with the pile, less those played since.

    The history shows every discard, so the pile is followed from the first discard on; the
    cards that started the pile are not in the view, so once that first pile is taken they are
    not counted (``unseen_counts`` still holds them).  The observer's own entry is empty (its
    hand is ``hand_counts``)."""
    known = [list(h) for h in _followed(view).hands]
    known[view.seat] = []
    return known


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: made without __init__ as in Python
class _Followed:
    """The known cards of one hand's history, followed move by move.

    A hand's history only grows, by new tuples that hold the same ``(seat, move)`` entries, so
    what was worked out for its first ``seen`` moves holds for every later view of that hand:
    each observation replays only the moves since the last one (replaying the whole history
    at every step made the observation the larger part of an environment's step)."""

    __slots__ = ("first", "hands", "last", "penalized", "pile", "seen")

    # The history's entries are held and compared as plain objects: compiled, an entry typed
    # ``tuple[int, Move]`` is unboxed and boxed again as a new tuple, and identity is lost.
    def __init__(self, history: Sequence[object], players: int) -> None:
        self.first: object = history[0] if history else None
        self.last: object = None  # the entry at ``seen - 1``
        self.seen = 0
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.pile: list[Card] = []  # the part of the pile the history shows
        self.penalized: frozenset[int] = frozenset()

    def continues(self, view: PlayerView) -> bool:
        """Whether ``view``'s history extends the one followed so far (and no move already
        followed has been taken back since)."""
        history: Sequence[object] = view.history
        seen = self.seen
        if not history or history[0] is not self.first or len(history) < seen:
            return False
        if seen and history[seen - 1] is not self.last:
            return False
        penalized = view.penalized
        return penalized is self.penalized or penalized == self.penalized or all(
            i >= seen for i in penalized - self.penalized)

    def follow(self, view: PlayerView) -> None:
        history = view.history
        laid = view.rules.variant.laid_on_sight
        penalized = view.penalized
        known, pile = self.hands, self.pile
        for i in range(self.seen, len(history)):
            if i in penalized:
                continue  # taken back for a penalty (table mode): nothing moved
            seat, move = history[i]
            k = move.kind
            hand = known[seat]
            if k is MoveKind.DISCARD and move.card is not None:
                _drop(hand, move.card)
                pile.append(move.card)
            elif k is MoveKind.TAKE:
                for c in move.cards_from_hand():
                    _drop(hand, c)
                hand.extend(c for c in pile[:-1] if not laid(c))
                pile.clear()
            elif k in (MoveKind.MELD, MoveKind.ADD):
                for c in move.cards_from_hand():
                    _drop(hand, c)
        entries: Sequence[object] = history
        self.seen = len(entries)
        self.last = entries[-1] if entries else None
        self.penalized = penalized


#: The hands followed lately, by the identity of their history's first entry (several games
#: may be observed in turn, as vectorised environments do).
_FOLLOWING: dict[int, _Followed] = {}
_FOLLOWED_MAX = 64


def _followed(view: PlayerView) -> _Followed:
    history: Sequence[object] = view.history  # entries as objects: see _Followed
    if not history:
        return _Followed(history, view.rules.players)
    key = id(history[0])  # kept alive by the entry itself, so never reused while it is there
    entry = _FOLLOWING.get(key)
    if entry is None or not entry.continues(view):
        entry = _Followed(history, view.rules.players)
        if len(_FOLLOWING) >= _FOLLOWED_MAX:
            del _FOLLOWING[next(iter(_FOLLOWING))]
        _FOLLOWING[key] = entry
    entry.follow(view)
    return entry


def _drop(cards: list[Card], c: Card) -> None:
    if c in cards:
        cards.remove(c)


def unseen_counts(view: PlayerView, known: Sequence[Sequence[Card]]) -> list[int]:
    """Cards of each kind the observer cannot place (``known`` as from ``known_cards``)."""
    rules = view.rules
    decks = rules.variant.decks(rules.players)
    counts = [4 * decks] * N_KINDS
    counts[JOKER] = counts[RED_THREE] = counts[BLACK_THREE] = 2 * decks
    seen: list[Card] = [*view.hand, *view.pile]
    for ms in view.melds:
        for m in ms:
            seen.extend(m.cards)
    for t in view.threes:
        seen.extend(t)
    for h in known:
        seen.extend(h)
    return [a - b for a, b in zip(counts, kind_counts(seen), strict=True)]


_CLASS_INDEX: Final = {r: i for i, r in enumerate(RANK_CLASSES)}
#: The kind of a meld's natural cards, by its rank (a wild-card meld holds none).
_MELD_KIND: Final = {**{r: i for i, r in enumerate(NATURAL_RANKS)},
                     BLACK_THREES_MELD: BLACK_THREE, WILD_MELD: -1}


def _phase(view: PlayerView) -> str:
    if view.result is not None:
        return "over"
    if view.asking is not None:
        return "answer"
    return "draw" if view.phase == "draw" else "play"


# ---------------------------------------------------------------------------------------------
# The vector
#
# The vector is made of parts, each a function of a few of the view's fields.  ``observe``
# joins them all; an ``Observer`` keeps one seat's vector between steps and works out again
# only the parts whose fields changed (at a step most of the table stays as it was), writing
# only those into its array: turning the whole list into float32 every step cost as much as
# working it out.


_NO_KINDS: Final = (0,) * N_KINDS
_ANSWERS: Final = {"yes": 0, "no": 1}
_DREW: Final = {"stock": 0, "pile": 1}


def _seat_part(view: PlayerView, seats: list[int]) -> list[int]:
    """hand_sizes, ponytail_sizes, seat_melded, seat_asked."""
    sizes, tails, melded, asked = (view.hand_sizes, view.ponytail_sizes, view.melded,
                                   view.asked)
    out: list[int] = [sizes[a] for a in seats]
    out.extend([tails[a] or 0 for a in seats])
    out.extend([melded[a] for a in seats])
    out.extend([asked[a] for a in seats])
    return out


def _known_part(known: list[list[Card]], seats: list[int]) -> tuple[list[int], list[int]]:
    """known_cards, and the cards of each kind it places."""
    out: list[int] = []
    seen = [0] * N_KINDS
    for a in seats[1:]:
        if not known[a]:
            out.extend(_NO_KINDS)  # what is known of a hand is mostly nothing
            continue
        counts = kind_counts(known[a])
        out.extend(counts)
        for k, x in enumerate(counts):
            seen[k] += x
    return out, seen


def _meld_part(melds: tuple[Meld, ...], size: int) -> tuple[list[int], list[int], int]:
    """One side's melds: MELD_STATS for every rank class, the cards of each kind they hold,
    and the side's canastas (counts: whole numbers, as ints)."""
    out = [0] * (len(RANK_CLASSES) * len(MELD_STATS))
    seen = [0] * N_KINDS
    canastas = 0
    for m in melds:
        base = _CLASS_INDEX[m.rank] * len(MELD_STATS)
        out[base] += m.naturals
        out[base + 1] += m.deuces
        out[base + 2] += m.jokers
        if m.size >= size and m.rank != BLACK_THREES_MELD:
            out[base + 3] += 1
            out[base + 4] += m.wilds == 0
            canastas += 1
        else:
            out[base + 5] += m.size
        kind = _MELD_KIND[m.rank]
        if kind >= 0:
            seen[kind] += m.naturals
        seen[DEUCE] += m.deuces
        seen[JOKER] += m.jokers
    return out, seen, canastas


def _side_part(view: PlayerView, sides: list[int], canastas: list[int]) -> list[float]:
    """threes, canastas, opened, scores, minimums, penalties, bonuses."""
    rules = view.rules
    v = rules.variant
    out: list[float] = []
    for b in sides:
        threes = view.threes[b]
        red = sum(1 for c in threes if c.kind == RED_THREE)
        out.append(red)
        out.append(len(threes) - red)
    out.extend(canastas)
    out.extend([bool(view.melds[b]) for b in sides])
    scores, hand_number = view.scores, view.hand_number
    out.extend([scores[b] / POINTS_SCALE for b in sides])
    out.extend([v.initial_minimum(scores[b], hand_number, rules) / POINTS_SCALE
                for b in sides])
    out.extend([view.penalties[b] / POINTS_SCALE for b in sides])
    out.extend([view.bonuses[b] / POINTS_SCALE for b in sides])
    return out


def _pile_part(view: PlayerView, pile: list[int]) -> list[int]:
    """pile_size, pile_top, pile_flags, pile_counts (``pile``: the pile's kind counts)."""
    out = [0] * (N_KINDS + 5)
    out[0] = view.pile_size
    top = view.pile_top
    out[1 + (N_KINDS if top is None else top.kind)] = 1
    out[N_KINDS + 2] = view.pile_frozen
    out[N_KINDS + 3] = view.pile_frozen or not view.melds[view.seat % view.rules.n_sides]
    out[N_KINDS + 4] = view.start_frozen
    out.extend(pile)
    return out


def _turn_part(view: PlayerView, sides: list[int]) -> list[float]:
    """stock_size, hand_number and the rest: the phase, the turn, its facts, the result."""
    # Written into a list of zeros, entry by entry: it is made again at every step, and
    # joining one-hot lists made it the dearest part of the vector.
    n = view.rules.players
    me = view.seat
    result = view.result
    nc = len(RANK_CLASSES)
    out: list[float] = [0.0] * (2 + len(PHASES) + 2 * n + 4 + 4 + nc + len(sides) + n + 1)
    out[0] = view.stock_size
    out[1] = view.hand_number
    at = 2
    out[at + PHASES.index(_phase(view))] = 1.0
    at += len(PHASES)
    if result is None:
        out[at + (view.turn - me) % n] = 1.0
    at += n
    if view.asking is not None:
        out[at + (view.asking - me) % n] = 1.0
    at += n
    answer = _ANSWERS.get(view.answer or "")
    if answer is not None:
        out[at + answer] = 1.0
    drew = _DREW.get(view.drew or "")
    if drew is not None:
        out[at + 2 + drew] = 1.0
    at += 4
    f = view.turn_facts
    out[at] = f.start_melded
    out[at + 1] = f.melded
    out[at + 2] = f.old_touched
    out[at + 3] = f.black_threes_down
    at += 4
    for r in f.new_ranks:
        i = _CLASS_INDEX.get(r)
        if i is not None:
            out[at + i] = 1.0
    at += nc
    if result is not None:
        for i, b in enumerate(sides):
            out[at + i] = result.scores[b] / POINTS_SCALE
        at += len(sides)
        went = result.went_out
        if went is not None:
            out[at + (went - me) % n] = 1.0
        out[at + n] = bool(result.concealed)
    return out


def _pack(rules: Rules) -> list[int]:
    """How many cards of each kind the table's pack holds."""
    decks = rules.variant.decks(rules.players)
    counts = [4 * decks] * N_KINDS
    counts[JOKER] = counts[RED_THREE] = counts[BLACK_THREE] = 2 * decks
    return counts


def _unseen_part(rules: Rules, hand: list[int], pile: list[int], known: list[int],
                 melds: list[list[int]], threes: tuple[tuple[Card, ...], ...],
                 pack: list[int] | None = None) -> list[int]:
    """unseen_counts: the pack less every card of a kind the observer can place (``pack``:
    ``_pack(rules)``, when the caller keeps it).  Counted in ints: whole numbers, as the
    other counts of the vector (float arithmetic on a list's items cost ten times more)."""
    out = list(_pack(rules) if pack is None else pack)
    for k in range(N_KINDS):
        out[k] -= hand[k] + pile[k] + known[k]
    for m in melds:
        for k in range(N_KINDS):
            x = m[k]
            if x:
                out[k] -= x
    for t in threes:
        for c in t:
            out[c.kind] -= 1
    return out


def _relative(view: PlayerView) -> tuple[list[int], list[int]]:
    """The absolute seat of each relative seat, and the absolute side of each relative side."""
    n, s = view.rules.players, view.rules.n_sides
    me = view.seat
    return [(me + r) % n for r in range(n)], [(me % s + r) % s for r in range(s)]


def observe(view: PlayerView) -> npt.NDArray[np.float32]:
    """The observation vector of ``view`` (float32, ``observation_size(view.rules)`` long)."""
    out = observation_values(view)
    return np.fromiter(out, np.float32, len(out))


def observation_values(view: PlayerView) -> list[float]:
    """``observe``'s numbers as a list, field after field in the order of
    ``observation_fields``, all worked out from the view alone."""
    rules = view.rules
    seats, sides = _relative(view)
    size = rules.variant.canasta_size
    hand, pile = kind_counts(view.hand), kind_counts(view.pile)
    known, known_seen = _known_part(_followed(view).hands, seats)
    melds = [_meld_part(view.melds[b], size) for b in range(rules.n_sides)]
    out: list[float] = []
    out.extend(hand)
    out.extend(_seat_part(view, seats))
    out.extend(known)
    out.extend(_unseen_part(rules, hand, pile, known_seen, [m[1] for m in melds], view.threes))
    for b in sides:
        out.extend(melds[b][0])
    out.extend(_side_part(view, sides, [melds[b][2] for b in sides]))
    out.extend(_pile_part(view, pile))
    out.extend(_turn_part(view, sides))
    if len(out) != _size(rules):
        raise AssertionError(f"{len(out)} values where the layout has {_size(rules)}")
    return out


@mypyc_attr(allow_interpreted_subclasses=True)
class Observer:
    """One seat's observation vector kept from step to step: ``vector(view, extra)`` is
    ``observe(view)`` followed by ``extra`` (an interface's own fields), worked out again only
    where the fields of ``view`` it depends on changed since the last call.

    Every part is keyed by the very fields it is made from, compared by value, so the vector
    is right for any view of any hand given in any order (a new hand, a position loaded, a
    copy): only the work saved depends on the views following each other.  A part that did
    change is written entry by entry where it differs (a step changes a few entries of each),
    through a memoryview of the array (float32, rounded as numpy rounds): numpy's own item
    and slice assignments from Python numbers cost several times more.  The parts made of
    counts and flags are lists of ints, compared as such."""

    def __init__(self, rules: Rules, extra: int) -> None:
        self.rules = rules
        s = rules.n_sides
        size = observation_size(rules)
        self.array: npt.NDArray[np.float32] = np.zeros(size + extra, np.float32)
        # The array's items as a memoryview (format "f"): what the parts are written through.
        self._items: Any = self.array.data
        self.size = size
        self._pack = _pack(rules)
        starts: dict[str, int] = {}
        start = 0
        for f in observation_fields(rules):
            starts[f.name] = start
            start += f.size
        meld_size = len(RANK_CLASSES) * len(MELD_STATS)
        # Where each part starts: hand, seats, known, unseen, the sides' melds (relative
        # order), sides, pile, turn, extra.
        self._at: list[int] = [starts["hand_counts"], starts["hand_sizes"],
                               starts["known_cards"], starts["unseen_counts"],
                               *[starts["melds"] + r * meld_size for r in range(s)],
                               starts["threes"], starts["pile_size"], starts["stock_size"],
                               size]
        # What each part wrote last, as the array holds it (ints: the parts of counts).
        self._last: list[list[float]] = [[] for _ in self._at]
        self._last_ints: list[list[int]] = [[] for _ in self._at]
        # The fields some parts were last made from (None: never made), and what the parts
        # that feed others gave.
        self._hand_key: object = None
        self._hand: list[int] = [0] * N_KINDS
        self._pile_key: object = None
        self._pile: list[int] = [0] * N_KINDS
        self._known_key: object = None
        self._known_seen: list[int] = [0] * N_KINDS
        self._meld_keys: list[object] = [None] * s
        self._meld_seen: list[list[int]] = [[0] * N_KINDS for _ in range(s)]
        self._canastas: list[int] = [0] * s
        self._sides: object = None  # the sides in relative order at the last call
        self._threes_key: object = None
        self._side_key: object = None  # everything _side_part reads
        self._pile_flags: object = None  # what _pile_part reads besides the pile
        # The extra fields given last, when they are an immutable sequence (a tuple) that a
        # later call may give again: not written again then.
        self._extra: Sequence[float] | None = None

    def _put(self, part: int, values: list[float]) -> None:
        last = self._last[part]
        if values == last:
            return
        items = self._items
        at = self._at[part]
        if len(values) != len(last):
            for i, x in enumerate(values):
                items[at + i] = x
        else:
            for i, x in enumerate(values):
                if x != last[i]:
                    items[at + i] = x
        self._last[part] = values

    def _put_ints(self, part: int, values: list[int]) -> None:
        """``_put`` for a part of whole numbers."""
        last = self._last_ints[part]
        if values == last:
            return
        items = self._items
        at = self._at[part]
        if len(values) != len(last):
            for i, x in enumerate(values):
                items[at + i] = x
        else:
            for i, x in enumerate(values):
                if x != last[i]:
                    items[at + i] = x
        self._last_ints[part] = values

    def vector(self, view: PlayerView, extra: Sequence[float]) -> npt.NDArray[np.float32]:
        """``observe(view)`` followed by ``extra``, as a new array the caller may change."""
        rules = self.rules
        if view.rules is not rules and view.rules != rules:
            raise ValueError("the view is of another table than this observer's")
        seats, sides = _relative(view)
        hand = view.hand
        # ``seen``: a part that feeds unseen_counts was made again.
        seen = hand != self._hand_key
        if seen:
            self._hand = kind_counts(hand)
            self._hand_key = hand
            self._put_ints(0, self._hand)
        self._put_ints(1, _seat_part(view, seats))
        followed = _followed(view).hands
        known_key = tuple([tuple(followed[a]) for a in seats[1:]])
        if known_key != self._known_key:
            known, self._known_seen = _known_part(followed, seats)
            self._known_key = known_key
            self._put_ints(2, known)
            seen = True
        size = rules.variant.canasta_size
        moved = sides != self._sides  # the view of a seat of another side: all made again
        self._sides = sides
        for r, b in enumerate(sides):
            melds = view.melds[b]
            if moved or melds != self._meld_keys[b]:
                stats, self._meld_seen[b], self._canastas[b] = _meld_part(melds, size)
                self._meld_keys[b] = melds
                self._put_ints(4 + r, stats)
                seen = True
        pile = view.pile
        piled = pile != self._pile_key
        if piled:
            self._pile = kind_counts(pile)
            self._pile_key = pile
        threes = view.threes
        if seen or piled or threes != self._threes_key:
            self._put_ints(3, _unseen_part(rules, self._hand, self._pile, self._known_seen,
                                      self._meld_seen, threes, self._pack))
        s = rules.n_sides
        side_key = (sides, threes, view.scores, view.hand_number, view.penalties,
                    view.bonuses, tuple([self._canastas[b] for b in sides]),
                    tuple([bool(view.melds[b]) for b in sides]))
        if side_key != self._side_key:
            self._put(4 + s, _side_part(view, sides, [self._canastas[b] for b in sides]))
            self._side_key = side_key
        self._threes_key = threes
        pile_key = (view.pile_frozen, view.start_frozen, view.melds[view.seat % s] == ())
        if piled or pile_key != self._pile_flags:
            self._put_ints(5 + s, _pile_part(view, self._pile))
            self._pile_flags = pile_key
        self._put(6 + s, _turn_part(view, sides))
        if extra is not self._extra:  # mostly the one tuple of zeros, step after step
            self._put(7 + s, list(extra))
            self._extra = extra if isinstance(extra, tuple) else None
        return self.array.copy()


_SIZES: dict[tuple[str, int], int] = {}


def _size(rules: Rules) -> int:
    key = (rules.variant.name, rules.players)
    size = _SIZES.get(key)
    if size is None:
        size = _SIZES[key] = observation_size(rules)
    return size


# ---------------------------------------------------------------------------------------------
# The same information as text


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _seat_name(view: PlayerView, rel: int) -> str:
    seat = (view.seat + rel) % view.rules.players
    if rel == 0:
        return f"you (seat {seat})"
    role = "partner" if seat == view.partner else "opponent"
    return f"seat +{rel} (seat {seat}, {role})"


def _side_name(rel: int) -> str:
    return "your side" if rel == 0 else f"side +{rel}"


def _meld_text(m: Meld, size: int) -> str:
    text = f"{m.rank}: {cards_text(m.sorted_cards())}"
    if m.size >= size and m.rank != BLACK_THREES_MELD:
        text += " (clean canasta)" if m.wilds == 0 else " (mixed canasta)"
    return text


def observation_string(view: PlayerView) -> str:
    """What ``observe`` encodes, as text: one line per item, only what the view shows."""
    rules = view.rules
    n, s = rules.players, rules.n_sides
    me, my_side = view.seat, view.side
    v = rules.variant
    size = v.canasta_size
    known = known_cards(view)
    lines = [
        f"table: {v.title}, {n} players; hand {view.hand_number}; you are seat {me} "
        f"(side {my_side})",
        f"your hand ({len(view.hand)}): {cards_text(view.hand) or '-'}",
    ]
    for rel in range(n):
        seat = (me + rel) % n
        parts = [f"{view.hand_sizes[seat]} cards"]
        tail = view.ponytail_sizes[seat]
        if tail is not None:
            parts.append(f"ponytail {tail}")
        parts.append(f"melded {_yes(view.melded[seat])}")
        parts.append(f"asked {_yes(view.asked[seat])}")
        if rel:
            parts.append(f"known in hand: {cards_text(sort_cards(known[seat])) or '-'}")
        lines.append(f"{_seat_name(view, rel)}: " + "; ".join(parts))
    unseen = unseen_counts(view, known)
    lines.append("unseen: " + (" ".join(f"{KIND_NAMES[k]}x{c}" for k, c in enumerate(unseen)
                                        if c) or "-"))
    for rel in range(s):
        side = (my_side + rel) % s
        melds = "; ".join(_meld_text(m, size) for m in view.melds[side]) or "-"
        lines.append(f"{_side_name(rel)} melds: {melds}")
        lines.append(
            f"{_side_name(rel)}: score {view.scores[side]}; minimum "
            f"{v.initial_minimum(view.scores[side], view.hand_number, rules)}; canastas "
            f"{view.canastas(side)}; threes {cards_text(view.threes[side]) or '-'}; penalties "
            f"{view.penalties[side]}; bonuses {view.bonuses[side]}")
    top = view.pile_top.text if view.pile_top is not None else "-"
    frozen = ("frozen" if view.pile_frozen else
              "frozen for your side" if view.pile_frozen_for_me() else "not frozen")
    if view.start_frozen:
        frozen += " (by its start)"
    lines.append(f"pile ({view.pile_size}): {cards_text(view.pile) or '-'}; top {top}; {frozen}")
    lines.append(f"stock: {view.stock_size}")
    phase = _phase(view)
    if phase == "over":
        result = view.result
        assert result is not None
        went = ("nobody went out" if result.went_out is None else
                f"{_seat_name(view, (result.went_out - me) % n)} went out"
                + (" concealed" if result.concealed else ""))
        scores = ", ".join(f"{_side_name(rel)} {result.scores[(my_side + rel) % s]}"
                           for rel in range(s))
        lines.append(f"phase: over; {went}; hand scores: {scores}")
    else:
        lines.append(f"phase: {phase}; to act: {_seat_name(view, (view.turn - me) % n)}")
    if view.asking is not None:
        lines.append(f"asking \"may I go out?\": {_seat_name(view, (view.asking - me) % n)}")
    if view.answer is not None:
        lines.append(f"answer received: {view.answer}")
    if view.drew is not None:
        lines.append(f"drew from: {view.drew}")
    f = view.turn_facts
    new = " ".join(r for r in RANK_CLASSES if r in f.new_ranks) or "-"
    lines.append(f"this turn: had melded before {_yes(f.start_melded)}; melded "
                 f"{_yes(f.melded)}; added to an older meld {_yes(f.old_touched)}; black threes "
                 f"laid {_yes(f.black_threes_down)}; new melds {new}")
    return "\n".join(lines)


__all__ = ["MELD_STATS", "PHASES", "POINTS_SCALE", "RANK_CLASSES", "Field", "Observer",
           "known_cards", "observation_fields", "observation_size", "observation_string",
           "observe", "unseen_counts"]
