"""Seeing the hidden cards as a seat may: memory of what was shown, and determinization.

A bot never gets the full state.  To look ahead it builds a *determinization*: a full position
that agrees with everything its view shows (and everything it remembers), with the hidden cards
(other hands, ponytails, the stock order) dealt at random from the cards it has not seen.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from canasta.cards import BLACK_THREE, DEUCE, JOKER, NATURAL_RANKS, Card, make_deck
from canasta.engine.goingout import can_go_out
from canasta.engine.melds import Meld
from canasta.engine.schema import FIELDS, HIDDEN, INDICES, LIST, LISTS, SEAT, TAILS, VALUE
from canasta.engine.state import HandState
from canasta.moves import WILD_MELD, MoveKind
from canasta.view import PlayerView

#: passes remembered per seat: a pass says little once the player has drawn several times since
PASSES_KEPT = 3


class Memory:
    """What a seat has seen during a hand: the cards other players took from the pile and have
    not shown since (so they are still in their hands), and the ranks they let go by (they drew
    from the stock while the pile's top card was of that rank: they likely held no pair of it)."""

    def __init__(self) -> None:
        self.known: dict[int, list[Card]] = {}
        self.passed: dict[int, list[str]] = {}
        self.version = 0  # changes whenever what it knows may have changed
        self._seen = 0
        self._pile: list[Card] | None = None

    def update(self, view: PlayerView) -> None:
        history = view.history
        if self._pile is None:
            # First look at this hand: earlier moves are not replayed (the pile they started
            # from was not watched); from now on every take is followed.
            self._pile = list(view.pile)
            self._seen = len(history)
            return
        for i, (seat, move) in enumerate(history[self._seen:], self._seen):
            if i in view.penalized:
                continue  # taken back for a penalty: the cards stayed where they were
            hand = self.known.setdefault(seat, [])
            k = move.kind
            if k is MoveKind.DISCARD and move.card is not None:
                _drop(hand, move.card)
                self._pile.append(move.card)
            elif k is MoveKind.DRAW and self._pile and self._pile[-1].is_natural:
                ranks = self.passed.setdefault(seat, [])
                ranks.append(self._pile[-1].rank)
                del ranks[:-PASSES_KEPT]
            elif k is MoveKind.TAKE:
                if seat != view.seat:
                    hand.extend(self._pile[:-1])
                for c in move.cards_from_hand():
                    _drop(hand, c)
                self._pile = []
            elif k in (MoveKind.MELD, MoveKind.ADD):
                for c in move.cards_from_hand():
                    _drop(hand, c)
        self._seen = len(history)
        self.version += 1
        self._pile = list(view.pile)  # resynchronise (buried cards, red threes laid)

    def known_cards(self, seat: int) -> list[Card]:
        return list(self.known.get(seat, []))

    def passed_on(self, seat: int, rank: str) -> bool:
        """Whether ``seat`` recently drew from the stock with a card of ``rank`` on the pile."""
        return rank in self.passed.get(seat, ())


#: How a view's frozen field becomes the state's again (``determinize``).
_THAW: dict[str, Callable[[Any], Any]] = {
    VALUE: lambda x: x, LIST: list, INDICES: sorted,
    LISTS: lambda xs: [list(x) for x in xs],
    TAILS: lambda xs: [None if x is None else list(x) for x in xs],
}


def _drop(cards: list[Card], c: Card) -> None:
    if c in cards:
        cards.remove(c)


def unseen_cards(view: PlayerView) -> list[Card]:
    """The cards this seat has not seen: the whole pack less its hand and everything face up."""
    rules = view.rules
    pool = Counter(make_deck(rules.variant.decks(rules.players)))
    pool.subtract(view.hand)
    for ms in view.melds:
        for m in ms:
            pool.subtract(m.cards)
    for t in view.threes:
        pool.subtract(t)
    pool.subtract(view.pile)
    return sorted(pool.elements(), key=lambda c: c.id)


def determinize(view: PlayerView, rng: random.Random,
                memory: Memory | None = None) -> HandState:
    """A full position consistent with ``view``, hidden cards dealt at random by ``rng``.

    It carries every public fact of the position, the turn's included (the question pending,
    the answer received, how the player drew, what it melded this turn), so the seat to act
    sees its own view there and has the same legal moves.  A seat waiting for the answer to
    "may I go out?" is dealt a hand it can go out with (``going_out_cards``)."""
    rules = view.rules
    v = rules.variant
    state = HandState(rules)
    # Everything the view shows as it is (schema.FIELDS); the hidden parts are dealt below.
    for f in FIELDS:
        if f.view and f.part != SEAT and f.part != HIDDEN:
            setattr(state, f.name, _THAW[f.shape](getattr(view, f.view)))
    state.frozen = sum(1 for c in state.pile if v.freezes_pile(c)) + view.start_frozen

    pool = unseen_cards(view)
    rng.shuffle(pool)
    # Threes that are laid as soon as they reach a hand can only be in the stock or a ponytail.
    held_back: list[Card] = []
    if not v.lay_threes_at_turn_start:
        held_back = [c for c in pool if v.laid_on_sight(c)]
        pool = [c for c in pool if not v.laid_on_sight(c)]
    hands: list[list[Card]] = [[] for _ in range(rules.players)]
    hands[view.seat] = list(view.hand)
    if memory is not None:
        for seat in range(rules.players):
            if seat == view.seat:
                continue
            for c in memory.known_cards(seat)[: view.hand_sizes[seat]]:
                if c in pool:
                    pool.remove(c)
                    hands[seat].append(c)
    asker = view.asking
    if asker is not None and asker != view.seat:
        # A seat asks only when it can go out, so the question tells everyone it can: dealt
        # any hand, it could be left with no legal move after a yes.
        state.hands = hands
        # (Whether a seat still has a ponytail matters to going out; its cards come later.)
        state.ponytails = [None if size is None else [] for size in view.ponytail_sizes]
        extra = going_out_cards(state, asker, hands[asker], view.hand_sizes[asker], pool, rng)
        for c in extra or ():  # none found (never seen in self-play): dealt like the others
            pool.remove(c)
            hands[asker].append(c)
    for seat in range(rules.players):
        if seat != view.seat:
            need = view.hand_sizes[seat] - len(hands[seat])
            hands[seat].extend(pool[:need])
            del pool[:need]
    state.hands = hands
    if held_back:
        pool += held_back
        rng.shuffle(pool)
    tails: list[list[Card] | None] = []
    for size in view.ponytail_sizes:
        if size is None:
            tails.append(None)
        else:
            tails.append(pool[:size])
            del pool[:size]
    state.ponytails = tails
    # A position may hold less than the whole pack (a scenario): the cards it does not hold
    # are out of play, not in the stock.
    state.stock = pool[:view.stock_size]
    return state


# ----------------------------------------------------------------------------------------
# The hand of a seat that asked "may I go out?"
#: guesses at a hand that can go out, for a seat waiting for its answer (each one is checked by
#: the engine; in self-play the first guess almost always does, and none has needed 20)
ASKER_TRIES = 400


def going_out_cards(world: HandState, asker: int, known: Sequence[Card], size: int,
                    pool: Sequence[Card], rng: random.Random) -> list[Card] | None:
    """Cards of ``pool`` that complete ``known`` into a hand of ``size`` cards with which
    ``asker`` can go out in ``world`` (as the engine judges it at the asker's turn, before the
    question), or None when no guess worked.

    A seat asks only when it can go out (``check_ask``), so the world its partner imagines
    must deal it such a hand: with any other, a "yes" would leave it no legal move."""
    need = size - len(known)
    if need <= 0:
        return [] if need == 0 else None
    trial = world.copy()
    trial.turn, trial.asking, trial.answer = asker, None, None
    for _ in range(ASKER_TRIES):
        extra = _Guess(trial, asker, known, pool, rng).deal(need)
        if extra is None:
            continue
        trial.hands[asker] = [*known, *extra]
        if can_go_out(trial):
            return extra
    return None


class _Guess:
    """One random hand built to be laid down: natural cards that join the side's melds or make
    new ones, wild cards where they fit, the canastas the side still lacks, black threes known
    in hand made a meld, and one card to discard.  The engine has the last word
    (``going_out_cards``): this only makes its yes likely."""

    def __init__(self, state: HandState, seat: int, known: Sequence[Card],
                 pool: Sequence[Card], rng: random.Random) -> None:
        rules = state.rules
        self.state = state
        self.seat = seat
        self.side = state.side_of(seat)
        self.rng = rng
        self.ranks = [*NATURAL_RANKS, *([WILD_MELD] if rules.variant.has_wild_melds(rules)
                                        else [])]
        self.avail: dict[int, list[Card]] = {}
        for c in pool:
            self.avail.setdefault(c.kind, []).append(c)
        self.picked: list[Card] = []
        melds = state.melds[self.side]
        self.table = {r: melds[i] for r, i in state.joinable_melds(self.side).items()
                      if r in self.ranks}
        self.plan: dict[str, list[Card]] = {}  # cards of the hand for each rank's meld
        self.loose = [c for c in known if c.is_wild]  # placed once the melds are known
        self.black_threes = sum(1 for c in known if c.kind == BLACK_THREE)
        for c in known:
            if c.is_natural:
                self.plan.setdefault(c.rank, []).append(c)

    # --- what fits ----------------------------------------------------------------------
    def counts(self, rank: str) -> tuple[int, int, int]:
        m = self.table.get(rank)
        n, d, j = (m.naturals, m.deuces, m.jokers) if m else (0, 0, 0)
        for c in self.plan.get(rank, ()):
            n += c.is_natural
            d += c.kind == DEUCE
            j += c.kind == JOKER
        return n, d, j

    def _ok(self, rank: str, n: int, d: int, j: int) -> bool:
        v = self.state.rules.variant
        return v.counts_error(self.state, self.side, rank, n, d, j) is None

    def valid(self, rank: str) -> bool:
        return (rank in self.table or rank in self.plan) and self._ok(rank, *self.counts(rank))

    def _forming(self, rank: str) -> bool:
        """A meld still too small to stand (fewer than 3 cards, none on the table)."""
        return rank not in self.table and sum(self.counts(rank)) < 2

    def natural_fits(self, rank: str) -> bool:
        if rank == WILD_MELD or not self.avail.get(NATURAL_RANKS.index(rank)):
            return False
        n, d, j = self.counts(rank)
        return self._ok(rank, n + 1, d, j) or (self._forming(rank) and d + j == 0)

    def wild_fits(self, rank: str, kind: int) -> bool:
        n, d, j = self.counts(rank)
        return (self._ok(rank, n, d + (kind == DEUCE), j + (kind == JOKER))
                or (rank == WILD_MELD and self._forming(rank)))

    def wild_for(self, rank: str) -> int | None:
        """A kind of wild card (deuce or joker) left to take that may join ``rank``."""
        kinds = [w for w in (DEUCE, JOKER) if self.avail.get(w) and self.wild_fits(rank, w)]
        return self.rng.choice(kinds) if kinds else None

    def melds_after(self) -> list[Meld]:
        """The side's melds once the planned cards are down."""
        out = [m for m in self.state.melds[self.side]
               if not (m.rank in self.plan and self.table.get(m.rank) is m)]
        for rank, cs in self.plan.items():
            m = self.table.get(rank)
            out.append(m.plus(cs) if m else Meld(rank, cs))
        return out

    # --- taking cards -------------------------------------------------------------------
    def take(self, kind: int) -> Card:
        cs = self.avail[kind]
        i = self.rng.randrange(len(cs))
        cs[i], cs[-1] = cs[-1], cs[i]
        c = cs.pop()
        self.picked.append(c)
        return c

    def add(self, rank: str, kind: int) -> None:
        self.plan.setdefault(rank, []).append(self.take(kind))

    def grow(self, rank: str, wild_share: float) -> bool:
        """One more card for ``rank``'s meld: a wild card now and then, else a natural one."""
        w = self.wild_for(rank)
        if w is not None and (self.rng.random() < wild_share or not self.natural_fits(rank)):
            self.add(rank, w)
            return True
        if self.natural_fits(rank):
            self.add(rank, NATURAL_RANKS.index(rank))
            return True
        return False

    # --- the hand -----------------------------------------------------------------------
    def deal(self, need: int) -> list[Card] | None:
        """``need`` cards for the hand, or None when this guess ran into a dead end."""
        state, rng = self.state, self.rng
        v = state.rules.variant
        keep = 1 if not v.may_meld_out or rng.random() < 0.5 else 0
        lone = [r for r, cs in self.plan.items() if r not in self.table and len(cs) == 1]
        if self.black_threes == 1:
            lone.append("3")
        if keep and lone:
            # A card known to be in hand that makes no meld is the one to discard.
            r = rng.choice(lone)
            if r == "3":
                self.black_threes = 0
            else:
                del self.plan[r]
            keep = 0
        elif keep and not need:
            return None
        room = need - keep
        if self.black_threes:
            # Black threes known in hand go down as the last meld.
            missing = max(0, v.black_three_meld_sizes[0] - self.black_threes)
            if missing > min(room, len(self.avail.get(BLACK_THREE, []))):
                return None
            for _ in range(missing):
                self.take(BLACK_THREE)
            room -= missing
        # Natural cards known in hand that make no meld yet must make one (with the wild
        # cards known in hand first).
        for r in [r for r in self.plan if not self.valid(r)]:
            while not self.valid(r):
                wild = next((c for c in self.loose if self.wild_fits(r, c.kind)), None)
                if wild is not None:
                    self.loose.remove(wild)
                    self.plan[r].append(wild)
                    continue
                if not room or not self.grow(r, 0.0):
                    return None
                room -= 1
        for c in self.loose:
            places = [r for r in self.ranks if self.valid(r) and self.wild_fits(r, c.kind)]
            if not places:
                return None
            self.plan.setdefault(rng.choice(places), []).append(c)
        left = self._canastas(room)
        if left is None or not self._fill(left):
            return None
        if keep:
            rest = [c for cs in self.avail.values() for c in cs
                    if v.discard_error(state, self.seat, c, going_out=True, hand=[c]) is None]
            if not rest:
                return None
            self.picked.append(rng.choice(rest))
        return self.picked

    def _canastas(self, room: int) -> int | None:
        """Complete the canastas the side still lacks (of the kinds it lacks, where the variant
        asks for kinds), the melds closest to one first; the room left, or None."""
        rules = self.state.rules
        v = rules.variant
        size = v.canasta_size
        for _ in range(len(self.ranks)):
            if not v.canastas_missing(rules, self.melds_after()):
                return room
            wilds = len(self.avail.get(DEUCE, [])) + len(self.avail.get(JOKER, []))
            gaps: dict[str, int] = {}
            for r in self.ranks:
                gap = size - sum(self.counts(r))
                naturals = 0 if r == WILD_MELD else len(self.avail.get(
                    NATURAL_RANKS.index(r), []))
                started = r in self.table or r in self.plan
                if 0 < gap <= room and naturals + wilds >= gap and (
                        started or naturals >= 2 or (r == WILD_MELD and wilds >= 3)):
                    gaps[r] = gap
            if not gaps:
                return None
            fits = list(gaps)
            r = self.rng.choices(fits, [1.0 / gaps[k] ** 2 for k in fits])[0]
            share = self.rng.choice((0.0, 0.3))
            for _ in range(gaps[r]):
                if not self.grow(r, share):
                    return None
                room -= 1
        return None

    def _fill(self, room: int) -> bool:
        """The rest of the hand: cards that join melds, or new melds of three."""
        rng = self.rng
        v = self.state.rules.variant
        threes = v.black_three_meld_sizes[0]
        while room:
            options: list[tuple[str, str]] = []
            weights: list[float] = []
            for r in self.ranks:
                if self.valid(r):
                    if self.natural_fits(r):
                        options.append(("natural", r))
                        weights.append(1.0)
                    if self.wild_for(r) is not None:
                        options.append(("wild", r))
                        weights.append(0.25)
                elif r not in self.table and r not in self.plan and room >= 3 and (
                        r == WILD_MELD or len(self.avail.get(NATURAL_RANKS.index(r), [])) >= 3):
                    options.append(("new", r))
                    weights.append(0.25)
            if (not self.black_threes and room >= threes
                    and len(self.avail.get(BLACK_THREE, [])) >= threes):
                options.append(("threes", "3"))
                weights.append(0.05)
            if not options:
                return False
            what, r = rng.choices(options, weights)[0]
            if what == "new":
                for share in (0.0, 0.0, 0.3):  # two natural cards, then maybe a wild one
                    if not self.grow(r, share):
                        return False
                room -= 3
            elif what == "threes":
                for _ in range(threes):
                    self.take(BLACK_THREE)
                self.black_threes = threes
                room -= threes
            elif what == "wild":
                w = self.wild_for(r)
                assert w is not None
                self.add(r, w)
                room -= 1
            else:
                self.add(r, NATURAL_RANKS.index(r))
                room -= 1
        return True
