"""The basic player ("Principiante"): simple greed.

It takes the pile whenever it can meld the top card, melds whatever it can (keeping its wild
cards for melds well on their way to a canasta), goes out as soon as it may unless the other
side's melds are clearly worth more, and discards its least useful card.
"""

from __future__ import annotations

import random

from canasta.bots.sampling import determinize
from canasta.cards import BLACK_THREE, Card
from canasta.engine.state import HandState
from canasta.moves import DRAW, NO, PASS, YES, Move, MoveKind
from canasta.view import PlayerView


def usefulness(view: PlayerView, c: Card) -> float:
    """How much the seat would miss ``c`` (low: a good discard)."""
    if c.is_wild:
        return 1000.0
    if c.kind == BLACK_THREE:
        return -20.0  # a stop card: nobody can take the pile over it
    same = sum(1 for x in view.hand if x.kind == c.kind)
    mine = any(m.rank == c.rank for m in view.melds[view.side])
    # Nor does it hand the pile to the next player, who could put the card on a meld.
    nxt = view.side_of((view.seat + 1) % view.rules.players)
    theirs = nxt != view.side and any(m.rank == c.rank for m in view.melds[nxt])
    return (200.0 if mine else 0.0) + (100.0 if theirs else 0.0) + 40.0 * (same - 1) \
        - c.value / 10 + (_pile_risk(view, c) if nxt != view.side else 0.0)


def _pile_risk(view: PlayerView, c: Card) -> float:
    """How likely a big pile goes to the next player if ``c`` goes on it: the more cards of its
    rank nobody has seen, the likelier the next player holds a pair."""
    if view.pile_size < 3 or not c.is_natural:
        return 0.0
    seen = sum(1 for x in view.hand if x.kind == c.kind) + sum(
        1 for x in view.pile if x.kind == c.kind) + sum(
        1 for ms in view.melds for m in ms for x in m.cards if x.kind == c.kind)
    total = 4 * view.rules.variant.decks(view.rules.players)
    return 3.0 * min(view.pile_size, 20) * max(0, total - seen) / total


def _behind(view: PlayerView) -> bool:
    """The other side's melds are worth clearly more than ours."""
    def worth(side: int) -> int:
        size = view.rules.variant.canasta_size
        return sum(m.value + (300 if m.size >= size else 0) for m in view.melds[side])

    mine = worth(view.side)
    return any(worth(s) > mine + 200 for s in range(view.rules.n_sides) if s != view.side)


def _danger(view: PlayerView) -> bool:
    """An opponent may go out soon: its side has the canastas it needs and it holds few cards."""
    need = max(1, view.rules.variant.canastas_required(view.rules))
    return any(view.side_of(s) != view.side and view.canastas(view.side_of(s)) >= need
               and view.hand_sizes[s] <= 6 for s in range(view.rules.players))


def spoils_a_natural_canasta(view: PlayerView, m: Move) -> bool:
    """Whether ``m`` puts a wild card onto a natural canasta of the seat's side: it becomes a
    mixed one, worth 200 less (Classic), even a beginner sees that."""
    if m.kind is not MoveKind.ADD or not any(c.is_wild for c in m.cards_from_hand()):
        return False
    size = view.rules.variant.canasta_size
    meld = next((x for x in view.melds[view.side] if x.rank == m.rank), None)
    return meld is not None and meld.size >= size and meld.wilds == 0


def discard_last_card(after: HandState, seat: int) -> None:
    """After a move that leaves ``seat`` one card in its own turn, discard it when that is legal:
    the card left is the one that goes out."""
    hand = after.hands[seat]
    if after.result is None and len(hand) == 1 and after.turn == seat:
        last = Move.discard(hand[0])
        if after.is_legal(last):
            after.apply(last)


def _cannot_end_hand(view: PlayerView, state: HandState, m: Move) -> bool:
    """Moves that surely leave the hand going on (no need to try them): a meld that leaves
    two cards or more in hand, a discard that leaves one while the stock lasts."""
    if m.kind is MoveKind.DISCARD:
        return (len(view.hand) > 1 and bool(state.stock)
                and not view.rules.variant.lay_threes_at_turn_start)
    return (m.kind in (MoveKind.MELD, MoveKind.ADD)
            and len(view.hand) - len(m.cards_from_hand()) >= 2)


class BasicPlayer:
    name = "basic"

    def _world(self, view: PlayerView) -> HandState:
        """A full position to try moves in: the world the seat plays in, when a search gave
        one (``choose(view, world)``), else one dealt at random from the view."""
        if self._given is not None:
            return self._given.copy(plans=True)
        return determinize(view, self.rng)

    def _paying(self, view: PlayerView, moves: list[Move], fallback: bool = True) -> list[Move]:
        """Leave out the moves that go out losing the hand (all of them, unless ``fallback``
        and nothing else remains)."""
        state = self._world(view)
        keep = []
        for m in moves:
            if _cannot_end_hand(view, state, m):
                keep.append(m)
                continue
            after = state.copy(plans=True)
            after.apply(m)
            discard_last_card(after, view.seat)
            if after.result is None:
                keep.append(m)
                continue
            scores = after.result.scores
            if scores[view.side] >= 0 and scores[view.side] >= max(scores):
                keep.append(m)
        return keep or (moves if fallback else [])

    def _penalty_relief(self, view: PlayerView, discards: list[Move]) -> dict[Move, float]:
        """How much each discard lowers the penalties the side would pay if the hand ended now
        (such as three aces held in one hand)."""
        v = view.rules.variant
        state = self._world(view)
        if not v.penalizes_holdings:
            return {}  # only moves incur penalties: a card in hand costs no more than its points
        before = v.side_penalties(state, view.side)
        out = {}
        for m in discards:
            if m.card is None:
                continue
            state.hands[view.seat].remove(m.card)
            after = v.side_penalties(state, view.side)
            state.hands[view.seat].append(m.card)
            if after < before:
                out[m] = float(before - after)
        return out

    def _without_penalties(self, view: PlayerView, melds: list[Move]) -> list[Move]:
        """Leave out melds that would cost the side a penalty if the hand ended now (such as
        an unfinished meld the variant punishes)."""
        state = self._world(view)
        v = view.rules.variant
        if not v.penalizes_holdings:
            # Only the penalty the move itself incurs can change (table mode).
            return [m for m in melds if not state.plan(m).penalty]
        before = v.side_penalties(state, view.side)
        keep = []
        for m in melds:
            after = state.copy(plans=True)
            after.apply(m)
            if v.side_penalties(after, view.side) <= before:
                keep.append(m)
        return keep

    def __init__(self, seed: int = 0, holds_back: bool = True) -> None:
        self.rng = random.Random(seed)
        self._given: HandState | None = None
        #: whether it keeps two cards rather than go out while the other side's melds are
        #: worth clearly more (a look-ahead plays the opponents without it: a strong
        #: opponent takes the way out when it is open)
        self.holds_back = holds_back

    def new_hand(self, seat: int) -> None:
        pass

    def choose(self, view: PlayerView, world: HandState | None = None) -> Move:
        """The move for ``view``.  A search that plays on in a world of its own making passes
        that ``world`` (consistent with ``view``), so the player tries its moves there instead
        of dealing the hidden cards again."""
        self._given = world
        try:
            return self._choose(view)
        finally:
            self._given = None

    def _choose(self, view: PlayerView) -> Move:
        moves = view.legal_moves
        if not moves:
            raise ValueError("there is no legal move to choose from")
        if len(moves) == 1:
            return moves[0]
        if view.asking is not None:
            return YES if YES in moves else NO
        if view.phase == "draw":
            takes = self._without_penalties(view, [m for m in moves if m.kind is MoveKind.TAKE])
            if takes:
                return max(takes, key=lambda m: len(m.cards_from_hand()))
            return DRAW if DRAW in moves else PASS
        melds = [m for m in moves if m.kind in (MoveKind.MELD, MoveKind.ADD)
                 and not spoils_a_natural_canasta(view, m)]
        if melds:
            melds = self._without_penalties(view, melds)
        if melds and len(view.hand) <= 8:
            melds = self._paying(view, melds, fallback=False)
        if self.holds_back and _behind(view):
            # Going out now would end a hand the other side is winning: keep two cards.
            keep = [m for m in melds if len(view.hand) - len(m.cards_from_hand()) >= 2]
            if keep or len(view.hand) > 2:
                melds = keep
        if melds:
            danger = _danger(view)

            def key(m: Move) -> tuple[int, int]:
                cs = m.cards_from_hand()
                wilds = sum(1 for c in cs if c.is_wild)
                if danger:  # lay down as much as it can before it is caught
                    return (sum(c.value for c in cs), -wilds)
                return (len(cs) - 3 * wilds, -wilds)

            best = max(melds, key=key)
            cs = best.cards_from_hand()
            if not all(c.is_wild for c in cs) or len(view.hand) - len(cs) <= 1 or danger:
                return best
            # Wild cards alone go onto a meld that is on its way to a canasta.
            for m in melds:
                if m.kind is MoveKind.ADD and all(c.is_wild for c in m.cards_from_hand()):
                    meld = next((x for x in view.melds[view.side] if x.rank == m.rank), None)
                    if meld is not None and meld.size >= 5:
                        return m
        discards = [m for m in moves if m.kind is MoveKind.DISCARD]
        if len(discards) > 1:
            discards = self._paying(view, discards)
        if discards:
            relief = self._penalty_relief(view, discards)
            return min(discards, key=lambda m: (usefulness(view, m.card) - relief.get(m, 0)
                                                 if m.card else 0, self.rng.random()))
        return self.rng.choice(moves)
