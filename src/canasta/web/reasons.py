"""Why an action of the browser's game is not available now, in the player's language.

The client disables the buttons of the moves ``legal_json`` says are unavailable; a disabled
button must also say why.  The reason is the engine's own: the move is checked as the button
would send it (``HandState.check`` raises an ``IllegalMove``, written in the player's language
by ``canasta.i18n.render``), so the client never guesses the rules.  Where no single move
stands for the button (a meld of cards not chosen yet) the reason says what the legal moves
show: that none exists now.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from canasta.engine.state import HandState
from canasta.errors import CanastaError, IllegalMove
from canasta.i18n import render
from canasta.moves import ASK, DRAW, PASS, Move, MoveKind


def _refusal(state: HandState, seat: int, move: Move) -> CanastaError | None:
    """The engine's reason for refusing ``move`` of ``seat``, or None when it is legal."""
    try:
        state.check(move, seat)
    except CanastaError as e:
        return e
    return None


def unavailable(state: HandState, seat: int, legal: tuple[Move, ...],
                available: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """For the seat to act: each action that ``available`` (``present.legal_json``) marks
    unavailable, with its reason in ``lang``; an available action is absent.  ``discard_cards``
    gives the reason for each card of the hand that may not be discarded now.  Nothing (an
    empty mapping) while another seat is to act: the client then says whose turn it is."""
    if state.result is not None or state.turn != seat:
        return {}
    # ``available`` may offer more than the legal moves (a meld below the minimum at a table
    # with penalties): what it offers needs no reason.
    kinds = {m.kind for m in legal}
    kinds |= {kind for name, kind in (("draw", MoveKind.DRAW), ("take", MoveKind.TAKE),
                                      ("pass", MoveKind.PASS), ("ask", MoveKind.ASK),
                                      ("meld", MoveKind.MELD), ("add", MoveKind.ADD))
              if available.get(name)}
    side = state.side_of(seat)
    hand = state.hands[seat]
    out: dict[str, CanastaError] = {}
    for name, kind, move in (("draw", MoveKind.DRAW, DRAW), ("take", MoveKind.TAKE, Move.take()),
                             ("pass", MoveKind.PASS, PASS), ("ask", MoveKind.ASK, ASK)):
        if kind not in kinds:
            why = _refusal(state, seat, move)
            if why:
                out[name] = why
    # Melding and discarding are refused by the phase (or a pending question) before the cards
    # are looked at: any card of the hand shows that reason.
    early = _refusal(state, seat, Move.discard(hand[0])) if hand else None
    waiting = state.asking is not None or state.phase == "draw"
    if MoveKind.MELD not in kinds:
        if waiting and early:
            out["meld"] = early
        elif state.opened(side):
            out["meld"] = IllegalMove("reason.no_new_meld")
        else:
            out["meld"] = IllegalMove("reason.no_initial_meld", need=state.minimum(side))
    if MoveKind.ADD not in kinds:
        if waiting and early:
            out["add"] = early
        elif not state.opened(side):
            out["add"] = IllegalMove("reason.no_melds_yet")
        else:
            out["add"] = IllegalMove("reason.nothing_to_add")
    shown: dict[str, Any] = {k: render(v, lang) for k, v in out.items()}
    if waiting and early:
        shown["discard"] = render(early, lang)
    else:
        # (one legal discard per kind of card: any card of that kind may go)
        allowed = {m.card.kind for m in legal if m.kind is MoveKind.DISCARD and m.card}
        cards: dict[str, str] = {}
        for c in hand:
            if c.kind not in allowed and c.text not in cards:
                why = _refusal(state, seat, Move.discard(c))
                if why:
                    cards[c.text] = render(why, lang)
        if cards:
            shown["discard_cards"] = cards
    return shown


__all__ = ["unavailable"]
