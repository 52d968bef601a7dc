"""The notation's letters in the terminal player's language.

Positions, records and the API write the notation of FORMAT.md (``KH``, ``10D``, ``JK``, the
verbs ``draw`` ... ``no``), whatever the language.  The terminal game in Spanish
(``canasta play --text --lang es``) reads and shows cards with Spanish letters instead, one
scheme with no letter of two meanings, so that nothing a player types is read two ways:

* ranks: ``A`` as, ``R`` rey, ``D`` dama, ``J`` jota, ``10``, ``9`` ... ``2`` (no ``T``: it is
  tréboles' letter; no ``K`` nor ``Q``: a Spanish deck names them R and D);
* suits: ``P`` picas (♠), ``C`` corazones (♥), ``D`` diamantes (♦), ``T`` tréboles (♣); a card
  is its rank then its suit, so ``DD`` is the queen of diamonds and ``10T`` the ten of clubs;
* the joker: ``JK``, as in English; the wild-card meld of ``add``: ``W``;
* the verbs: the notation's, or in Spanish ``robar tomar bajar añadir descartar pasar preguntar
  sí no`` (the ones the terminal shows moves with).

In Spanish the English letters are refused rather than guessed (``7C`` is the seven of hearts
there, of clubs in English):

>>> read_move("descartar 7C", "es"), read_move("bajar RP RD RT / 9P 9C 2T", "es")
('discard 7H', 'meld KS KD KC / 9S 9H 2C')
>>> from canasta.cards import card
>>> card_text(card("QD"), "es"), card_text(card("TC"), "es"), card_text(card("QD"), "en")
('DD', '10T', 'QD')
"""

from __future__ import annotations

from typing import Final

from canasta.cards import Card, card
from canasta.errors import NotationError
from canasta.moves import Move

#: Spanish letters -> the notation's, for ranks and suits.
RANKS_ES: Final = {"A": "A", "R": "K", "D": "Q", "J": "J", "10": "T", **{
    str(n): str(n) for n in range(2, 10)}}
SUITS_ES: Final = {"P": "S", "C": "H", "D": "D", "T": "C"}
#: Spanish verbs (and the terminal's commands) -> the notation's.
VERBS_ES: Final = {"robar": "draw", "tomar": "take", "bajar": "meld", "añadir": "add",
                   "anadir": "add", "descartar": "discard", "pasar": "pass", "preguntar": "ask",
                   "sí": "yes", "si": "yes", "ayuda": "help", "pista": "hint",
                   "deshacer": "undo", "puntos": "score", "salir": "quit"}
#: The verb the terminal shows a move with in Spanish (it reads it back).
MOVE_VERBS_ES: Final = {"draw": "robar", "take": "tomar", "meld": "bajar", "add": "añadir",
                        "discard": "descartar", "pass": "pasar", "ask": "preguntar", "yes": "sí",
                        "no": "no"}
#: The verbs that take nothing after them (``parse_move`` refuses "draw 4C").
_ALONE: Final = frozenset({"draw", "pass", "ask", "yes", "no"})
_RANK_TO_ES: Final = {v: k for k, v in RANKS_ES.items()}
_SUIT_TO_ES: Final = {v: k for k, v in SUITS_ES.items()}
LANGS: Final = ("en", "es")


def card_text(c: Card, lang: str) -> str:
    """A card as the terminal shows it in ``lang`` (the player types it back the same)."""
    if lang != "es" or not c.suit:
        return c.text
    return _RANK_TO_ES[c.rank] + _SUIT_TO_ES[c.suit]


def _card_es(token: str) -> str:
    t = token.strip().upper()
    if t == "JK":
        return t
    rank, suit = RANKS_ES.get(t[:-1]), SUITS_ES.get(t[-1:])
    if rank is None or suit is None:
        raise NotationError("notation.card_es", text=token)
    return rank + suit


def read_move(text: str, lang: str) -> str:
    """What the player typed in ``lang``, in the notation (``canasta.moves.parse_move`` reads
    it and says what is wrong with it, if anything).  Raises NotationError for a card that is
    not one in the Spanish letters, and for anything after a verb that takes nothing (naming
    the verb as it was typed: "'robar' no lleva nada detrás")."""
    if lang != "es":
        return text
    words = text.split()
    if not words:
        return text
    typed = words[0].lower()
    verb = VERBS_ES.get(typed, typed)
    rest = words[1:]
    if verb in _ALONE and rest:
        # (refused here, where the verb the player typed is still known: parse_move would
        # name the notation's English one)
        raise NotationError("notation.nothing_after", verb=typed)
    out = [verb]
    if verb == "add" and rest:
        rank = RANKS_ES.get(rest[0].upper(), "W" if rest[0].upper() == "W" else None)
        if rank is None or rank in ("2", "3"):
            raise NotationError("notation.meld_rank_es", text=rest[0])
        out.append(rank)
        rest = rest[1:]
    if verb in ("take", "meld", "add", "discard"):
        # A group sign may touch a card ("RP/9C"): it stands apart in the notation.
        tokens = " ".join(rest).replace("/", " / ").split()
        out += [t if t == "/" else _card_es(t) for t in tokens]
    else:
        out += rest
    return " ".join(out)


def move_text(move: Move, lang: str) -> str:
    """A move as the terminal shows it in ``lang``: the notation, or in Spanish its verbs and
    letters (``read_move`` reads it back)."""
    text = str(move)
    if lang != "es":
        return text
    words = text.split()
    out = [MOVE_VERBS_ES[words[0]]]
    for i, w in enumerate(words[1:]):
        if w == "/":
            out.append(w)
        elif i == 0 and words[0] == "add":
            out.append(_RANK_TO_ES.get(w, w))
        else:
            out.append(card_text(card(w), lang))
    return " ".join(out)


__all__ = ["LANGS", "MOVE_VERBS_ES", "RANKS_ES", "SUITS_ES", "VERBS_ES", "card_text",
           "move_text", "read_move"]
