"""The hint: the expert's whole move for a person's seat and why, in Spanish or English.

The expert plays its turn a move at a time (a meld, then its additions card by card); a hint
names at once every card the expert goes on to lay this turn on the ranks of its first move
(``whole_move``), so "add 9♦ 9♥ 9♠" rather than "add 9♦" three times.  The reason is a short
sentence a player understands (the catalogues' ``hint.*`` texts), built from the seat's view
only (``explain``).  ``suggest`` gives both; the browser's Hint button and the terminal's
``hint`` ask it.
"""

from __future__ import annotations

import copy
from typing import Any

from canasta.bots.base import Player
from canasta.bots.expert import ExpertPlayer
from canasta.cards import BLACK_THREE, JOKER, Card
from canasta.engine.state import HandState
from canasta.errors import CanastaError, IllegalMove
from canasta.i18n import LANGS, format_card, text
from canasta.moves import Move, MoveKind, group_rank
from canasta.view import PlayerView, view_of


def advise(state: HandState, seat: int, adviser: ExpertPlayer, lang: str) -> tuple[Move, str]:
    """The hint for ``seat``, to act in ``state``: the adviser's whole move (``whole_move``)
    and why, in ``lang``.  The adviser sees the seat's view only, and is left as it would be
    after choosing that move's first step."""
    view = view_of(state, seat)
    adviser.memory.update(view)
    move = whole_move(state, seat, adviser, adviser.decide(view))
    return move, explain(view, move, lang)


def whole_move(state: HandState, seat: int, adviser: ExpertPlayer, first: Move) -> Move:
    """``first``, the adviser's move for ``seat`` now, with every card the adviser goes on to
    add this turn to the ranks ``first`` lays (a copy of the adviser plays the turn on in a copy
    of the state, seeing the seat's view only), as long as the move that lays them all at once
    is legal now.  Anything but a meld or an addition is the move itself."""
    if first.kind not in (MoveKind.MELD, MoveKind.ADD) or state.turn != seat:
        return first
    ranks = {first.rank} if first.kind is MoveKind.ADD else {group_rank(g) for g in first.groups}
    world = state.copy()
    player = copy.deepcopy(adviser)
    whole = step = first
    for _ in range(len(state.hands[seat])):
        world.apply(step, seat)
        if (world.result is not None or world.turn != seat or world.phase != "play"
                or world.asking is not None):
            break
        view = view_of(world, seat)
        player.memory.update(view)
        step = player.decide(view)
        if step.kind is MoveKind.ADD and step.rank in ranks:
            more = _joined(whole, step)
            try:
                state.check(more, seat)
            except CanastaError:
                break
            whole = more
        elif step.kind not in (MoveKind.MELD, MoveKind.ADD):
            break  # the turn's melding is over (a discard, a question to the partner)
    return whole


def _joined(move: Move, more: Move) -> Move:
    """``move`` (a meld or an addition) with the cards of ``more`` (an addition to one of its
    ranks) laid on the same rank."""
    cards = list(more.groups[0])
    if move.kind is MoveKind.ADD:
        return Move.add(move.rank, [*move.groups[0], *cards])
    return Move.meld(*([*g, *cards] if group_rank(g) == more.rank else g for g in move.groups))


def suggest(adviser: Player | None, state: HandState, seat: int,
            lang: str) -> tuple[Move, str]:
    """The hint for ``seat`` in ``state`` from ``adviser`` (the expert watching that seat:
    ``Table.advisers``): its whole move and why, in ``lang`` (``advise``).  Raises IllegalMove
    when the seat is not to act, or has no expert watching it."""
    if not isinstance(adviser, ExpertPlayer) or state.to_move() != seat:
        raise IllegalMove("web.no_hint")
    return advise(state, seat, adviser, lang)


def explain(view: PlayerView, move: Move, lang: str) -> str:
    """A one-sentence reason for ``move`` in ``view``."""
    lang = lang if lang in LANGS else "en"

    def t(key: str, **params: Any) -> str:
        return text(f"hint.{key}", lang, **params)

    def word(c: Card) -> str:
        return format_card(c, lang)

    k = move.kind
    cards = " ".join(word(c) for c in move.cards_from_hand())
    if k is MoveKind.DRAW:
        return t("draw_frozen" if view.pile_frozen_for_me() and view.pile_size else "draw")
    if k is MoveKind.TAKE:
        top = word(view.pile_top) if view.pile_top is not None else ""
        return t("take_one" if view.pile_size == 1 else "take", n=view.pile_size, top=top)
    left = len(view.hand) - len(move.cards_from_hand())
    if k is MoveKind.MELD:
        if left == 0:  # no going out while the seat's ponytail waits: it joins the hand
            pony = view.ponytail_sizes[view.seat] if view.ponytail_sizes else None
            return t("meld_ponytail" if pony else "meld_out", cards=cards)
        if not view.opened(view.side):
            points = sum(c.value for c in move.cards_from_hand())
            return t("meld_open", cards=cards, points=points, minimum=view.minimum())
        return t("meld", cards=cards)
    if k is MoveKind.ADD:
        size = view.rules.variant.canasta_size
        meld = next((m for m in view.melds[view.side] if m.rank == move.rank), None)
        if meld is not None and meld.size < size <= meld.size + len(move.cards_from_hand()):
            return t("add_canasta", cards=cards, rank=move.rank)
        return t("add", cards=cards, rank=move.rank)
    if k is MoveKind.DISCARD and move.card is not None:
        c = move.card
        if len(view.hand) == 1:
            return t("discard_out", card=c)
        if c.kind == BLACK_THREE:
            return t("discard_three", card=c)
        nxt = (view.seat + 1) % view.rules.players
        side = view.side_of(nxt)
        if (c.kind != JOKER and not c.is_wild and side != view.side
                and all(m.rank != c.rank for m in view.melds[side])):
            return t("discard_safe", card=c, rank=c.rank)
        return t("discard", card=c)
    return t(k.value) if k.value in ("pass", "ask", "yes", "no") else ""


__all__ = ["explain", "suggest"]
