"""Why the hint button suggests a move: a short reason a player understands, in Spanish or
English, built from the seat's view only."""

from __future__ import annotations

from canasta.cards import BLACK_THREE, JOKER
from canasta.engine.play import rank_name
from canasta.i18n import catalogue
from canasta.moves import Move, MoveKind
from canasta.view import PlayerView

SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "draw": "Nothing on the pile is worth taking now: draw from the stock.",
        "draw_frozen": "The pile is frozen and you cannot take it: draw from the stock.",
        "take": "Take the pile: its {n} cards are worth it, and you can meld the {top} on top "
                "with cards from your hand.",
        "take_one": "Take the pile: you can meld its only card, the {top}, with cards from "
                    "your hand.",
        "meld_open": "Meld {cards}: {points} points reach your side's initial minimum of "
                     "{minimum}.",
        "meld": "Meld {cards}: cards on the table score for your side and cannot be caught in "
                "your hand.",
        "meld_out": "Meld {cards}: that lets you go out.",
        "meld_ponytail": "Meld {cards}: your side's first canasta brings your ponytail into "
                         "your hand.",
        "add_canasta": "Add {cards} to your {rank}: that completes a canasta.",
        "add": "Add {cards} to your {rank}: it brings the meld closer to a canasta.",
        "discard_three": "Discard the {card}: a black three blocks the pile for the next "
                         "player.",
        "discard_out": "Discard the {card} and go out.",
        "discard_safe": "Discard the {card}: the next player has no meld of {rank}, so it "
                        "gives the pile away to nobody.",
        "discard": "Discard the {card}: it is the card your hand misses least.",
        "pass": "The stock is exhausted and the pile is no use to you: pass.",
        "ask": "You can go out now: ask your partner first.",
        "yes": "Your hand would cost little: let your partner go out.",
        "no": "Not yet: your side can still score more (or your hand would cost too much).",
    },
    "es": {
        "draw": "Nada del pozo vale la pena ahora: roba del mazo.",
        "draw_frozen": "El pozo está congelado y no puedes tomarlo: roba del mazo.",
        "take": "Toma el pozo: sus {n} cartas valen la pena, y puedes bajar el {top} de arriba "
                "con cartas de tu mano.",
        "take_one": "Toma el pozo: puedes bajar su única carta, el {top}, con cartas de tu "
                    "mano.",
        "meld_open": "Baja {cards}: {points} puntos alcanzan el mínimo de tu equipo para la "
                     "primera bajada ({minimum}).",
        "meld": "Baja {cards}: las cartas en la mesa suman para tu equipo y no te pueden "
                "quedar en la mano.",
        "meld_out": "Baja {cards}: así puedes cerrar.",
        "meld_ponytail": "Baja {cards}: la primera canasta de tu equipo te trae tu cola de "
                         "caballo a la mano.",
        "add_canasta": "Añade {cards} a tus {rank}: así completas una canasta.",
        "add": "Añade {cards} a tus {rank}: acerca la combinación a una canasta.",
        "discard_three": "Descarta el {card}: un tres negro le bloquea el pozo al siguiente "
                         "jugador.",
        "discard_out": "Descarta el {card} y cierra.",
        "discard_safe": "Descarta el {card}: el siguiente jugador no tiene combinación de {rank}, "
                        "así que no le regalas el pozo.",
        "discard": "Descarta el {card}: es la carta que menos le sirve a tu mano.",
        "pass": "El mazo se acabó y el pozo no te sirve: pasa.",
        "ask": "Puedes cerrar ahora: pregúntale primero a tu compañero.",
        "yes": "Tu mano costaría poco: deja que tu compañero cierre.",
        "no": "Todavía no: tu equipo aún puede sumar más (o tu mano costaría demasiado).",
    },
}


def rank_words(rank: str, lang: str) -> str:
    """A rank as players say it in ``lang`` ("nines", "nueves"), from the catalogue."""
    words = catalogue(lang if lang in TEXTS else "en")
    return words.get(f"meld.rank.{rank}" if rank in ("W", "3") else f"rankPlural.{rank}",
                     rank_name(rank))


def card_words(text: str) -> str:
    """A card as players write it: ``7♥``, ``JK``."""
    if text == "JK":
        return "JK"
    rank = "10" if text[0] == "T" else text[0]
    return rank + SUITS.get(text[1:], text[1:])


def explain(view: PlayerView, move: Move, lang: str) -> str:
    """A one-sentence reason for ``move`` in ``view``."""
    t = TEXTS[lang] if lang in TEXTS else TEXTS["en"]
    k = move.kind
    cards = " ".join(card_words(c.text) for c in move.cards_from_hand())
    if k is MoveKind.DRAW:
        return t["draw_frozen"] if view.pile_frozen_for_me() and view.pile_size else t["draw"]
    if k is MoveKind.TAKE:
        top = card_words(view.pile_top.text) if view.pile_top is not None else ""
        return t["take_one" if view.pile_size == 1 else "take"].format(n=view.pile_size, top=top)
    left = len(view.hand) - len(move.cards_from_hand())
    if k is MoveKind.MELD:
        if left == 0:  # no going out while the seat's ponytail waits: it joins the hand
            pony = view.ponytail_sizes[view.seat] if view.ponytail_sizes else None
            return t["meld_ponytail" if pony else "meld_out"].format(cards=cards)
        if not view.opened(view.side):
            points = sum(c.value for c in move.cards_from_hand())
            return t["meld_open"].format(cards=cards, points=points, minimum=view.minimum())
        return t["meld"].format(cards=cards)
    if k is MoveKind.ADD:
        size = view.rules.variant.canasta_size
        meld = next((m for m in view.melds[view.side] if m.rank == move.rank), None)
        rank = rank_words(move.rank, lang)
        if meld is not None and meld.size < size <= meld.size + len(move.cards_from_hand()):
            return t["add_canasta"].format(cards=cards, rank=rank)
        return t["add"].format(cards=cards, rank=rank)
    if k is MoveKind.DISCARD and move.card is not None:
        c = move.card
        word = card_words(c.text)
        if len(view.hand) == 1:
            return t["discard_out"].format(card=word)
        if c.kind == BLACK_THREE:
            return t["discard_three"].format(card=word)
        nxt = (view.seat + 1) % view.rules.players
        side = view.side_of(nxt)
        if (c.kind != JOKER and not c.is_wild and side != view.side
                and all(m.rank != c.rank for m in view.melds[side])):
            return t["discard_safe"].format(card=word, rank=rank_words(c.rank, lang))
        return t["discard"].format(card=word)
    return t.get(k.value, "")
