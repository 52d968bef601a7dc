"""What the browser is sent: a seat's ``PlayerView`` turned into JSON, and nothing more.

Everything here is built from the view (which the engine builds by copying only what the seat
may see), so no card of another hand or of the stock can reach a client through it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from canasta.cards import BLACK_THREE, JOKER, RED_THREE, Card
from canasta.engine.melds import Meld
from canasta.moves import BLACK_THREES_MELD, MoveKind
from canasta.options import TABLE_PENALTIES_MODE
from canasta.view import PlayerView


def card_json(c: Card) -> dict[str, Any]:
    return {"text": c.text, "rank": "JK" if c.kind == JOKER else c.rank, "suit": c.suit,
            "value": c.value, "wild": c.is_wild, "three": c.kind in (RED_THREE, BLACK_THREE)}


#: The canasta kinds of the engine as the client names them (``Variant.canasta_kind``).
CANASTA_NAMES = {"natural": "clean", "mixed": "dirty", "wild": "wild", "sevens": "sevens"}


def meld_json(view: PlayerView, m: Meld) -> dict[str, Any]:
    variant = view.rules.variant
    canasta: str | None = None
    if m.size >= variant.canasta_size and m.rank != BLACK_THREES_MELD:
        canasta = CANASTA_NAMES[variant.canasta_kind(m, view.rules)]
    return {"rank": m.rank, "cards": [card_json(c) for c in m.sorted_cards()], "size": m.size,
            "naturals": m.naturals, "wilds": m.wilds, "canasta": canasta, "value": m.value}


def legal_json(view: PlayerView) -> dict[str, Any]:
    kinds = {m.kind for m in view.legal_moves}
    add = sorted({m.rank for m in view.legal_moves if m.kind is MoveKind.ADD})
    # The engine lists one discard per kind of card (any ace stands for every ace): the client
    # is told every card of the hand that may go, so it can offer the very card chosen.
    goes = {m.card.kind for m in view.legal_moves
            if m.kind is MoveKind.DISCARD and m.card is not None}
    discard = sorted({c.text for c in view.hand if c.kind in goes})
    # With table penalties an initial meld (or take) below the minimum is a mistake the player
    # may make: it is not among the legal moves, yet the server accepts it for a penalty.
    attempt = (view.rules.option(TABLE_PENALTIES_MODE) and view.to_act
               and view.asking is None and not view.opened(view.side))
    return {"draw": MoveKind.DRAW in kinds,
            "take": MoveKind.TAKE in kinds or (attempt and view.phase == "draw"
                                               and view.pile_top is not None
                                               and view.pile_top.is_natural),
            "pass": MoveKind.PASS in kinds, "ask": MoveKind.ASK in kinds,
            "yes": MoveKind.YES in kinds, "no": MoveKind.NO in kinds,
            "meld": MoveKind.MELD in kinds or (attempt and view.phase == "play"),
            "add": add, "discard": discard}


def view_json(view: PlayerView, *, names: Sequence[str], levels: Sequence[str | None],
              match: dict[str, Any], drew: Sequence[Card] = ()) -> dict[str, Any]:
    """The JSON of ``view`` for its seat's client (see docs/PROTOCOL.md)."""
    rules = view.rules
    side = view.side
    result = view.result.to_json() if view.result is not None else None
    if result is not None:
        result.pop("hand_score", None)
    return {
        "seat": view.seat, "side": side, "players": rules.players, "sides": rules.n_sides,
        "variant": rules.variant.name, "names": list(names), "levels": list(levels),
        "partner": view.partner,
        "hand_number": view.hand_number, "target": rules.target,
        "hand_limit": rules.variant.hand_limit,
        "scores": list(view.scores),
        "penalties": list(view.penalties),
        "penalized": sorted(view.penalized),
        "minimum": 0 if view.opened(side) else view.minimum(),
        "turn": view.turn, "phase": view.phase, "to_act": view.to_act,
        "hand": [card_json(c) for c in view.hand],
        "drew": [c.text for c in drew] or None,
        "hand_sizes": list(view.hand_sizes),
        "melds": [[meld_json(view, m) for m in ms] for ms in view.melds],
        "threes": [[card_json(c) for c in t] for t in view.threes],
        "pile_top": card_json(view.pile_top) if view.pile_top is not None else None,
        # What taking the pile adds to an initial meld's count (the engine's own count).
        "top_counts": (rules.variant.initial_count(0, view.pile_top)
                       if view.pile_top is not None else 0),
        "pile_size": view.pile_size,
        "pile_frozen": view.pile_frozen_for_me(),
        "pile_frozen_all": view.pile_frozen or view.start_frozen,
        "stock_size": view.stock_size,
        "ponytail_sizes": (list(view.ponytail_sizes)
                           if any(p is not None for p in view.ponytail_sizes) else None),
        "canastas_needed": rules.variant.canastas_required(rules),
        "canastas_missing": [rules.variant.canastas_missing(rules, ms) for ms in view.melds],
        "house_rules": {name: rules.option(name)
                        for name in rules.variant.offered_options(rules.players)},
        "asking": view.asking,
        "answer": view.answer,
        "legal": legal_json(view),
        "result": result,
        "match": match,
        "history": [[s, str(m)] for s, m in view.history],
    }
