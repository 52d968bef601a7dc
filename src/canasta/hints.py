"""The hint: the move the expert would make for a person's seat, and why, in a short reason a
player understands, in Spanish or English (the catalogues' ``hint.*`` texts), built from the
seat's view only.  The browser's hint button and the terminal's ``hint`` both ask ``suggest``."""

from __future__ import annotations

from typing import Any

from canasta.bots.base import Player
from canasta.bots.expert import ExpertPlayer
from canasta.cards import BLACK_THREE, JOKER, Card
from canasta.errors import IllegalMove
from canasta.i18n import LANGS, format_card, text
from canasta.moves import Move, MoveKind
from canasta.view import PlayerView


def suggest(adviser: Player | None, view: PlayerView, lang: str) -> tuple[Move, str]:
    """The move ``adviser`` (the expert watching the seat of ``view``: ``Table.advisers``)
    makes for that seat now, and why, in ``lang``.  Raises IllegalMove when the seat is not to
    act, or has no expert watching it."""
    if not isinstance(adviser, ExpertPlayer) or not view.to_act:
        raise IllegalMove("web.no_hint")
    adviser.memory.update(view)
    move = adviser.decide(view)
    return move, explain(view, move, lang)


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
