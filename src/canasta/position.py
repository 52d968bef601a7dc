"""Positions as JSON (FORMAT.md "The position"): read, check and write.

>>> from canasta.rules import Rules, whole_number
>>> s = position_from_json({"variant": "classic", "players": 2, "scores": [0, 0], "turn": 0,
...     "phase": "draw", "hands": [["KH", "KD"], ["4C"]], "melds": [[], []],
...     "threes": [[], []], "discard": ["KS"], "stock": ["9C"]})
>>> [str(m) for m in s.legal_moves()]
['draw']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from canasta.cards import BLACK_THREE, Card, cards_from_json, make_deck, sort_cards
from canasta.engine.melds import Meld
from canasta.engine.play import end_if_stuck
from canasta.engine.schema import FIELDS, TAILS, TURN_START
from canasta.engine.state import HandState
from canasta.errors import PositionError
from canasta.moves import BLACK_THREES_MELD, WILD_MELD, group_rank
from canasta.rules import Rules, whole_number

POSITION_KEYS = ("variant", "players", "options", "scores", "turn", "phase", "hands", "melds",
                 "threes", "discard", "stock", "ponytails", "start_frozen", "melded", "drew",
                 "asked", "hand_number")
REQUIRED = ("variant", "players", "scores", "turn", "phase", "hands", "melds", "threes",
            "discard", "stock")


def _bools(value: Any, n: int, where: str) -> list[bool]:
    if not isinstance(value, list) or len(value) != n or not all(
            isinstance(b, bool) for b in value):
        raise PositionError("position.flags", where=where, count=n)
    return list(value)


def position_from_json(obj: Mapping[str, Any]) -> HandState:
    """Build the position a scenario (or a saved game) describes; raises PositionError with a
    clear message when it is malformed or impossible."""
    if not isinstance(obj, Mapping):
        raise PositionError("position.not_object")
    for key in REQUIRED:
        if key not in obj:
            raise PositionError("position.missing", name=key)
    options = obj.get("options") or {}
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise PositionError("position.options_object")
    if not isinstance(obj["variant"], str):
        raise PositionError("position.variant_name")
    players = whole_number(obj["players"], "'players'")
    rules = Rules.make(obj["variant"], players, **dict(options))
    v = rules.variant
    n, s = rules.players, rules.n_sides
    state = HandState(rules)
    scores = obj["scores"]
    if not isinstance(scores, list) or len(scores) != s:
        raise PositionError("position.scores", sides=s)
    state.scores = tuple(whole_number(x, "'scores'") for x in scores)
    state.turn = whole_number(obj["turn"], "'turn'")
    if not 0 <= state.turn < n:
        raise PositionError("position.turn", last=n - 1)
    if obj["phase"] not in ("draw", "play"):
        raise PositionError("position.phase")
    state.phase = obj["phase"]
    hands = obj["hands"]
    if not isinstance(hands, list) or len(hands) != n:
        raise PositionError("position.hands", seats=n)
    state.hands = [cards_from_json(h, f"hand of seat {i}") for i, h in enumerate(hands)]
    for i, h in enumerate(state.hands):
        for c in h:
            if v.laid_on_sight(c) and not v.lay_threes_at_turn_start:
                raise PositionError("position.laid_three", seat=i, card=c)
    melds = obj["melds"]
    if not isinstance(melds, list) or len(melds) != s:
        raise PositionError("position.melds", sides=s)
    for side, ms in enumerate(melds):
        if not isinstance(ms, list):
            raise PositionError("position.side_melds", side=side)
        for m in ms:
            cs = cards_from_json(m, f"a meld of side {side}")
            if len(cs) < 3:
                raise PositionError("position.meld_small", side=side)
            rank = group_rank(tuple(cs))
            bad = [c for c in cs if not (
                c.rank == rank or (c.is_wild and rank != BLACK_THREES_MELD)
                or (rank == BLACK_THREES_MELD and c.kind == BLACK_THREE))]
            if bad or (rank == WILD_MELD and not v.has_wild_melds(rules)):
                raise PositionError("position.meld_ranks", side=side, cards=tuple(cs))
            closed = v.reopens_closed_ranks and len(cs) >= v.canasta_size
            if rank != BLACK_THREES_MELD and not closed and state.find_meld(side, rank) >= 0:
                raise PositionError("position.two_melds", side=side, rank=rank)
            state.melds[side].append(Meld(rank, cs))
    threes = obj["threes"]
    if not isinstance(threes, list) or len(threes) != s:
        raise PositionError("position.threes", sides=s)
    state.threes = [cards_from_json(t, f"threes of side {i}") for i, t in enumerate(threes)]
    for i, t in enumerate(state.threes):
        for c in t:
            if not v.laid_on_sight(c):
                raise PositionError("position.not_a_three", side=i, card=c)
    state.pile = cards_from_json(obj["discard"], "'discard'")
    state.stock = list(reversed(cards_from_json(obj["stock"], "'stock'")))
    state.start_frozen = bool(obj.get("start_frozen", False))
    state.frozen = sum(1 for c in state.pile if v.freezes_pile(c)) + state.start_frozen
    melded = obj.get("melded")
    state.melded = (_bools(melded, n, "'melded'") if melded is not None
                    else [bool(state.melds[state.side_of(i)]) for i in range(n)])
    asked = obj.get("asked")
    state.asked = _bools(asked, n, "'asked'") if asked is not None else [False] * n
    drew = obj.get("drew")
    if drew is not None and drew not in ("stock", "pile"):
        raise PositionError("position.drew")
    state.drew = (drew or "stock") if state.phase == "play" else None
    state.hand_number = whole_number(obj.get("hand_number", 1), "'hand_number'")
    if state.hand_number < 1:
        raise PositionError("position.hand_number")
    state.facts = TURN_START[state.melded[state.turn]]
    v.check_position(state, obj)
    _check_counts(state)
    if v.lay_threes_at_turn_start and state.phase == "draw":
        state.lay_threes_in_hand(state.turn)
    end_if_stuck(state)
    return state


def _check_counts(state: HandState) -> None:
    decks = state.rules.variant.decks(state.rules.players)
    allowed = Counter(make_deck(decks))
    for c, k in state.all_cards().items():
        if k > allowed[c]:
            raise PositionError("position.copies", card=c, count=k, decks=decks,
                                allowed=allowed[c])


def _json(x: Any) -> Any:
    """A field's value in JSON: cards as their text, a meld as its cards in order."""
    if isinstance(x, Card):
        return x.text
    if isinstance(x, Meld):
        return [c.text for c in x.sorted_cards()]
    if isinstance(x, list | tuple):
        return [_json(y) for y in x]
    return x


def position_to_json(state: HandState, *, sort: bool = False) -> dict[str, Any]:
    """The position in the scenario format: every field of ``schema.FIELDS`` that has a key,
    written out explicitly (the turn's draw only in its play phase; a pile's frozen start and
    ponytails only where they are)."""
    rules = state.rules
    out: dict[str, Any] = {
        "variant": rules.variant.name,
        "players": rules.players,
        "options": {"target": rules.target, **dict(rules.options)},
    }
    for f in FIELDS:
        if not f.json:
            continue
        value = getattr(state, f.name)
        if f.name == "hands" and sort:
            value = [sort_cards(h) for h in value]
        elif f.name == "stock":
            value = value[::-1]  # the state draws from the end; the JSON lists the top first
        elif value is None or value is False or (
                f.shape == TAILS and all(x is None for x in value)):
            continue  # drew, start_frozen, ponytails: written where they apply
        elif f.name == "drew" and state.phase != "play":
            continue
        out[f.json] = _json(value)
    state.rules.variant.position_extras(state, out)
    return out


__all__ = ["position_from_json", "position_to_json"]
