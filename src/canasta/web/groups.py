"""A person's choice of cards made into the engine's moves, as the browser's buttons send them.

*Meld* sends the selected cards as one group; a group that mixes ranks (``7 7 7 9 9 9``) is
laid as one meld per rank, as *Stage group* would have laid them, when the engine accepts that
as one move (``by_rank``).  Its wild cards go with the rank that makes the move legal; when more
than one rank could take them the player is asked to say which rather than given a guess.
*Add to…* offers only the melds that take the selected cards (``add_fits``, sent with the
state), so the client needs no rule of its own to know which.

Everything here asks the engine (``HandState.check``); nothing is played.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import product

from canasta.cards import BLACK_THREE, DEUCE, JOKER, Card
from canasta.engine.state import HandState
from canasta.errors import CanastaError, IllegalMove, NotationError
from canasta.moves import BLACK_THREES_MELD, WILD_MELD, Group, Move, MoveKind, parse_move

#: The engine's refusals of a group that holds more than one rank.
MIXING = frozenset({"meld.one_rank", "meld.black_threes_alone"})


def rank_key(c: Card) -> str:
    """What an addition cares about in a card: its rank (``JK`` for the joker).  A suit makes
    no difference to an addition, and threes are never added."""
    return "JK" if c.kind == JOKER else c.rank


def _melded_as(c: Card) -> str:
    """The rank a card is melded as when it is not a wild card: its own, ``3`` for a black
    three; ``""`` for a wild card or a red three."""
    if c.kind == BLACK_THREE:
        return BLACK_THREES_MELD
    return c.rank if c.is_natural else ""


def _ranks(group: Group) -> list[str]:
    """The ranks of the group's natural cards and black threes, in the order they come."""
    out: list[str] = []
    for c in group:
        r = _melded_as(c)
        if r and r not in out:
            out.append(r)
    return out


def _shares(n: int, k: int) -> Iterator[tuple[int, ...]]:
    """Every way of sharing ``n`` like cards among ``k`` groups."""
    if k == 1:
        yield (n,)
        return
    for i in range(n + 1):
        for rest in _shares(n - i, k - 1):
            yield (i, *rest)


def _ways(group: Group, wild_meld: bool) -> list[tuple[int, list[Group]]]:
    """The ways of laying ``group`` as one group per rank: its natural cards (and black threes)
    by rank, each wild card with one of those ranks (or in a meld of wild cards of its own, where
    the variant has them).  Each way comes with the most wild cards it gives one rank: the ways
    that share them most evenly come first."""
    ranks = _ranks(group)
    targets = [r for r in ranks if r != BLACK_THREES_MELD] + ([WILD_MELD] if wild_meld else [])
    base = {r: [c for c in group if _melded_as(c) == r] for r in ranks}
    wilds = [[c for c in group if c.kind == kind] for kind in (DEUCE, JOKER)]
    wilds = [w for w in wilds if w]
    ways: list[tuple[int, list[Group]]] = []
    for split in product(*(_shares(len(w), len(targets)) for w in wilds)):
        parts = {r: list(cs) for r, cs in base.items()}
        given = dict.fromkeys(targets, 0)
        for w, shares in zip(wilds, split, strict=True):
            at = 0
            for r, n in zip(targets, shares, strict=True):
                parts.setdefault(r, []).extend(w[at:at + n])
                given[r] += n
                at += n
        groups = [tuple(cs) for cs in parts.values() if cs]
        ways.append((max(given.values(), default=0), groups))
    ways.sort(key=lambda way: way[0])
    return ways


def by_rank(state: HandState, seat: int, text: str) -> Move | None:
    """The meld ``text`` with each of its groups that mixes ranks laid as one group per rank,
    when the engine refuses it for mixing them and accepts exactly one such way; None when the
    move is anything else (it is played, or refused, as it is).  Raises IllegalMove when no way
    is legal (``web.meld_by_rank``, with the engine's reason for the first way tried: the wild
    cards shared most evenly) or when the wild cards could go with more than one rank
    (``web.meld_wilds_ambiguous``: the player stages the melds one by one instead)."""
    try:
        move = parse_move(text)
        state.check(state.normalize(move), seat)
    except NotationError:
        return None
    except IllegalMove as e:
        if move.kind is not MoveKind.MELD or e.code not in MIXING:
            return None
    else:
        return None
    if any(not (c.is_wild or _melded_as(c)) for g in move.groups for c in g):
        return None  # (a red three: the engine's own reason says it is never melded)
    wild_meld = state.rules.variant.has_wild_melds(state.rules)
    fixed = [g for g in move.groups if len(_ranks(g)) < 2]
    mixed = [g for g in move.groups if len(_ranks(g)) >= 2]
    candidates = sorted(product(*(_ways(g, wild_meld) for g in mixed)),
                        key=lambda combo: sum(most for most, _ in combo))
    legal: list[Move] = []
    first: CanastaError | None = None
    for combo in candidates:
        candidate = Move.meld(*fixed, *(g for _, groups in combo for g in groups))
        try:
            state.check(candidate, seat)
        except CanastaError as e:
            first = first or e
            continue
        legal.append(candidate)
        if len(legal) > 1:
            wilds = tuple(c for g in mixed for c in g if c.is_wild)
            raise IllegalMove("web.meld_wilds_ambiguous", cards=wilds)
    if legal:
        return legal[0]
    raise IllegalMove("web.meld_by_rank", reason=first)


def add_fits(state: HandState, seat: int) -> dict[str, list[str]]:
    """Which selections of cards each meld of the seat's side takes now, for *Add to…*: by the
    meld's rank, every choice of cards of the hand the engine would add to it, each written as
    its cards' ``rank_key`` sorted and joined by spaces (``"2 9 9"``).  Empty unless the seat is
    to play its melds."""
    if (state.result is not None or state.turn != seat or state.phase != "play"
            or state.asking is not None):
        return {}
    held: dict[str, list[Card]] = {}
    for c in state.hands[seat]:
        held.setdefault(rank_key(c), []).append(c)
    wild = [k for k in ("2", "JK") if k in held]
    out: dict[str, list[str]] = {}
    for meld in state.melds[state.side_of(seat)]:
        r = meld.rank
        if r == BLACK_THREES_MELD or r in out:
            continue
        keys = ([r] if r in held and r not in wild else []) + wild
        fits = [_key(cards) for cards in _choices(held, keys) if _adds(state, seat, r, cards)]
        if fits:
            out[r] = fits
    return out


def _choices(held: dict[str, list[Card]], keys: Sequence[str]) -> Iterator[list[Card]]:
    """Every choice of some of the ``held`` cards of ``keys`` (how many of each kind)."""
    for counts in product(*(range(len(held[k]) + 1) for k in keys)):
        if any(counts):
            yield [c for k, n in zip(keys, counts, strict=True) for c in held[k][:n]]


def _adds(state: HandState, seat: int, rank: str, cards: list[Card]) -> bool:
    try:
        state.check(Move.add(rank, cards), seat)
    except CanastaError:
        return False
    return True


def _key(cards: Sequence[Card]) -> str:
    return " ".join(sorted(rank_key(c) for c in cards))


__all__ = ["MIXING", "add_fits", "by_rank", "rank_key"]
