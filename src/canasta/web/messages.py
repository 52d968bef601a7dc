"""The engine's messages in the player's language.

The engine speaks English (``IllegalMove``, ``NotationError`` and ``PositionError`` carry
player-readable reasons).  ``translate`` renders one of them in another language from an ordered
catalogue of (regular expression, template) pairs: the first pattern that matches the *whole*
message wins, its named groups fill the template's fields, and a few kinds of group are turned
into Spanish on the way (see ``_fields``):

>>> translate("the pile is frozen: you need two natural nines from your hand", "es")
'El pozo está congelado: necesitas dos nueves naturales de tu mano'
>>> translate("you could not go out after this meld: red threes are never discarded", "es")
'Después de esta combinación no podrías cerrar: los treses rojos nunca se descartan'

Card texts (``7H``, ``JK``) and move texts (``discard 4S``) are the game's notation and stay as
they are.  A message no pattern knows is returned in English, unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

LANGS: Final = ("en", "es")

#: The engine's plural rank names (``canasta.engine.play.rank_name``): Spanish name, feminine.
RANK_NAMES_ES: Final[dict[str, tuple[str, bool]]] = {
    "aces": ("ases", False),
    "kings": ("reyes", False),
    "queens": ("damas", True),
    "jacks": ("jotas", True),
    "tens": ("dieces", False),
    "nines": ("nueves", False),
    "eights": ("ochos", False),
    "sevens": ("sietes", False),
    "sixes": ("seises", False),
    "fives": ("cincos", False),
    "fours": ("cuatros", False),
    "wild cards": ("comodines", False),  # the wild-card "rank" W of Modern American
    "Ws": ("comodines", False),  # (how older versions named it)
    "3s": ("treses", False),
}

_VARIANTS_ES: Final = {
    "classic": "la Canasta clásica",
    "modern-american": "la Canasta americana moderna",
    "ponytail": "la Canasta cola de caballo",
}

_CANASTA_KINDS_ES: Final = {
    "natural": "una canasta limpia",
    "mixed": "una canasta sucia",
    "sevens": "una canasta de sietes",
    "wild": "una canasta de comodines",
}

# Pieces of the patterns.
_RANK: Final = "(?:" + "|".join(re.escape(r) for r in RANK_NAMES_ES) + ")"
_CARD: Final = r"(?:JK|(?:[AKQJT2-9]|10)[CDHS])"
_N: Final = r"-?\d+"
_KIND: Final = "(?:" + "|".join(_CANASTA_KINDS_ES) + ")"
#: Where a position's field went wrong (``canasta.position``, ``canasta.records``).
_WHERE: Final = (r"(?:hand of seat \d+|a meld of side \d+|threes of side \d+|ponytail of seat \d+"
                 r"|deal \d+|'discard'|'stock')")
_KEEP: Final = "(one to discard and one to keep)"
_KEEP_ES: Final = "(una para descartar y otra para guardar)"

_WHERE_ES: Final[tuple[tuple[re.Pattern[str], str], ...]] = (
    (re.compile(r"hand of seat (\d+)"), r"la mano del asiento \1"),
    (re.compile(r"a meld of side (\d+)"), r"una combinación del equipo \1"),
    (re.compile(r"threes of side (\d+)"), r"los treses del equipo \1"),
    (re.compile(r"ponytail of seat (\d+)"), r"la cola de caballo del asiento \1"),
    (re.compile(r"deal (\d+)"), r"el reparto \1"),
)

_RAW: Final[tuple[tuple[str, str], ...]] = (
    # --- cards and moves (canasta.cards, canasta.moves) -------------------------------------
    (r"'(?P<text>.*)' is not a card: write a rank \(A K Q J T/10 9 8 7 6 5 4 3 2\) and a suit "
     r"\(C D H S\), or JK for a joker",
     "'{text}' no es una carta: escribe un valor (A K Q J T/10 9 8 7 6 5 4 3 2) y un palo "
     "(C tréboles, D diamantes, H corazones, S picas), o JK para un comodín (joker)"),
    (r"a move must be text", "una jugada tiene que ser un texto"),
    (r"empty move: try 'help' for the moves you can make",
     "jugada vacía: prueba 'help' para ver las jugadas que puedes hacer"),
    (r"'(?P<verb>.*)' takes nothing after it", "'{verb}' no lleva nada detrás"),
    (r"discard one card, for example: discard 4S",
     "descarta una sola carta, por ejemplo: discard 4S"),
    (r"add a rank and cards, for example: add 7 7C 2D",
     "para añadir indica un valor y las cartas, por ejemplo: add 7 7C 2D"),
    (r"'(?P<text>.*)' is not a meld rank \(A K Q J T 9 8 7 6 5 4, or W\)",
     "'{text}' no es un valor de combinación (A K Q J T 9 8 7 6 5 4, o W para los comodines)"),
    (r"meld some cards, for example: meld KH KD KC / 9S 9D 2C",
     "indica las cartas que bajas, por ejemplo: meld KH KD KC / 9S 9D 2C"),
    (r"an empty meld group: put cards between the '/' signs",
     "un grupo de la combinación está vacío: pon cartas entre los signos '/'"),
    (r"unknown move '(?P<verb>.*)': the moves are draw, take, meld, add, discard, pass, ask, yes, "
     r"no",
     "jugada desconocida '{verb}': las jugadas son draw (robar), take (tomar el pozo), meld "
     "(bajar), add (añadir), discard (descartar), pass (pasar), ask (preguntar), yes (sí) y no"),
    # --- turns, drawing, asking (canasta.engine.play) ----------------------------------------
    (r"the hand is over", "la mano ha terminado"),
    (rf"it is seat (?P<seat>{_N})'s turn to act, not seat (?P<other>{_N})'s",
     "le toca jugar al asiento {seat}, no al asiento {other}"),
    (r"your partner asked \"may I go out\?\": answer yes or no",
     "tu compañero te ha preguntado «¿Puedo cerrar?»: responde sí o no"),
    (r"nobody has asked you whether they may go out",
     "nadie te ha preguntado si puede cerrar"),
    (r"the stock is exhausted: take the pile or pass",
     "el mazo se ha agotado: toma el pozo o pasa"),
    (r"begin your turn: draw from the stock or take the pile",
     "empieza tu turno: roba del mazo o toma el pozo"),
    (r"you have already drawn this turn: meld, or discard to end your turn",
     "ya has robado en este turno: baja combinaciones, o descarta para terminar tu turno"),
    (r"you do not hold (?P<cards>.+)", "no tienes {cards} en la mano"),
    (r"your partner said no: you may not go out this turn, so keep two cards",
     "tu compañero ha dicho que no: no puedes cerrar en este turno, así que quédate con dos "
     "cartas"),
    (r"your partner said yes, so you must go out this turn; after this meld you could not",
     "tu compañero ha dicho que sí, así que debes cerrar en este turno; después de esta "
     "combinación no podrías"),
    (r"your partner said yes, so you must go out this turn: meld first",
     "tu compañero ha dicho que sí, así que debes cerrar en este turno: baja primero"),
    (r"there is no partner to ask in this game",
     "en esta partida no tienes compañero al que preguntar"),
    (r"you have already asked your partner this hand",
     "ya has preguntado a tu compañero en esta mano"),
    (r"you have already asked your partner this turn",
     "ya has preguntado a tu compañero en este turno"),
    (r"ask your partner right after drawing, before you meld",
     "pregunta a tu compañero justo después de robar, antes de bajar"),
    (r"with one card left you can only go out: there is nothing to ask",
     "con una sola carta en la mano solo puedes cerrar: no hay nada que preguntar"),
    (r"you cannot go out this turn, so there is nothing to ask",
     "no puedes cerrar en este turno, así que no hay nada que preguntar"),
    (r"you may pass only when the stock is exhausted: draw a card",
     "solo puedes pasar cuando el mazo se ha agotado: roba una carta"),
    (rf"the stock is exhausted and the (?P<top>{_CARD}) on top goes onto your (?P<rank>{_RANK}): "
     r"you must take the pile",
     "el mazo se ha agotado y el {top} de encima va con tus {rank}: debes tomar el pozo"),
    # --- melding (canasta.engine.play) --------------------------------------------------------
    (r"red threes are never melded: they are laid beside your melds",
     "los treses rojos nunca se bajan en combinaciones: se colocan junto a tus combinaciones"),
    (r"threes are never melded: they are laid beside your melds",
     "los treses nunca se bajan en combinaciones: se colocan junto a tus combinaciones"),
    (r"black threes are melded only with each other, never with wild cards",
     "los treses negros solo se bajan entre sí, nunca con comodines"),
    (r"black threes are melded only with each other, when going out",
     "los treses negros solo se bajan entre sí, y solo al cerrar"),
    (r"black threes are your last meld: discard to go out",
     "los treses negros son tu última combinación: descarta para cerrar"),
    (r"black threes may be melded only as you go out",
     "los treses negros solo se pueden bajar al cerrar"),
    # Ponytail's "3 or more" comes out as "3 or 99" (its sizes are (3, 99)).
    (rf"black threes may be melded only as you go out, (?P<low>{_N}) or 99 of them",
     "los treses negros solo se pueden bajar al cerrar, {low} o más"),
    (rf"black threes may be melded only as you go out, (?P<low>{_N}) or (?P<high>{_N}) of them",
     "los treses negros solo se pueden bajar al cerrar, {low} o {high}"),
    (rf"black threes may be melded only as you go out, (?P<low>{_N}) or more of them",
     "los treses negros solo se pueden bajar al cerrar, {low} o más"),
    (r"a meld needs natural cards: wild cards alone are not a meld",
     "una combinación necesita cartas naturales: los comodines solos no forman una combinación"),
    (rf"a meld is made of one rank: (?P<card>{_CARD}) does not go with the (?P<rank>{_RANK})",
     "una combinación es de un solo valor: {card} no va con {rank_the}"),
    (rf"one meld per rank: put all your (?P<rank>{_RANK}) in one group",
     "una sola combinación por valor: pon {rank_all} en un mismo grupo"),
    (r"you go out by discarding your last card: keep one card to discard",
     "para cerrar tienes que descartar tu última carta: guarda una carta para descartarla"),
    (r"meld at least one card", "baja al menos una carta"),
    (rf"your side has no meld of (?P<rank>{_RANK}) to add to",
     "tu equipo no tiene ninguna combinación de {rank} a la que añadir cartas"),
    (r"you could not go out after this meld: (?P<reason>.+)",
     "después de esta combinación no podrías cerrar: {reason}"),
    # --- taking the pile (canasta.engine.play, the variants' take_error) ----------------------
    (r"the pile is empty", "el pozo está vacío"),
    (r"a black three on top of the pile blocks it this turn",
     "un tres negro encima del pozo lo bloquea en este turno"),
    (r"a wild card on top of the pile blocks it this turn",
     "un comodín encima del pozo lo bloquea en este turno"),
    (r"the pile cannot be taken", "el pozo no se puede tomar"),
    (r"with a single card in hand you may not take a one-card pile",
     "con una sola carta en la mano no puedes tomar un pozo de una sola carta"),
    (rf"to take the pile, show (?P<rank>{_RANK}) or wild cards to meld with the (?P<top>{_CARD}) "
     rf"on top; (?P<card>{_CARD}) does not go with them",
     "para tomar el pozo, enseña {rank} o comodines para bajarlos con el {top} de encima; "
     "{card} no sirve para eso"),
    (r"once your side has melded, take the pile first and then meld",
     "cuando tu equipo ya ha bajado, primero se toma el pozo y luego se baja"),
    (rf"the pile is frozen: you need two natural (?P<rank>{_RANK}) from your hand",
     "el pozo está congelado: necesitas dos {rank} naturales de tu mano"),
    (rf"the pile is frozen until your side has made its initial meld: you need two natural "
     rf"(?P<rank>{_RANK}) from your hand",
     "el pozo está congelado hasta que tu equipo haga su primera bajada: necesitas dos {rank} "
     "naturales de tu mano"),
    (rf"to take the pile you need two natural (?P<rank>{_RANK}), or one and a wild card, or a "
     r"meld of (?P=rank) on the table",
     "para tomar el pozo necesitas dos {rank} naturales, o {rank_one} y un comodín, o una "
     "combinación de {rank} en la mesa"),
    (rf"the pile is taken only with a natural pair: you need two natural (?P<rank>{_RANK})",
     "el pozo solo se toma con una pareja natural: necesitas dos {rank} naturales"),
    (rf"your (?P<rank>{_RANK}) already hold (?P<count>{_N}) cards: the pair and the top card may "
     r"join a meld of 3 or 4 cards only",
     "tus {rank} ya tienen {count} cartas: la pareja y la carta de encima solo pueden unirse a "
     "una combinación de 3 o 4 cartas"),
    # --- the shape of melds (the variants' meld rules) ----------------------------------------
    (r"a meld needs at least 3 cards", "una combinación necesita al menos 3 cartas"),
    (r"a meld needs at least 2 natural cards",
     "una combinación necesita al menos 2 cartas naturales"),
    (rf"a meld may hold at most (?P<count>{_N}) wild cards",
     "una combinación puede tener como mucho {count} comodines"),
    (r"a meld may not hold more wild cards than natural cards",
     "una combinación no puede tener más comodines que cartas naturales"),
    (r"a meld needs more natural cards than wild cards",
     "una combinación necesita más cartas naturales que comodines"),
    (r"a meld stops at 7 cards", "una combinación tiene como mucho 7 cartas"),
    (r"a meld stops at 7 cards: a canasta takes nothing more",
     "una combinación tiene como mucho 7 cartas: a una canasta no se le añade nada más"),
    (r"the wild-card canasta (?:is finished|are a finished canasta): nothing more may be added",
     "la canasta de comodines está terminada: no se le puede añadir nada más"),
    (rf"the (?P<rank>{_RANK}) are a finished canasta: nothing more may be added",
     "{rank_the} ya son una canasta terminada: no se les puede añadir nada más"),
    (r"a wild-card meld holds only deuces and jokers",
     "una combinación de comodines solo admite doses y jokers"),
    (rf"the (?P<rank>{_RANK}) are closed: a side has a natural canasta of them, so nobody may "
     r"meld them any more",
     "{rank_the} son un valor cerrado: un equipo tiene una canasta limpia de ese valor, así que "
     "ya nadie puede bajarlo"),
    (r"sevens never take wild cards", "los sietes nunca admiten comodines"),
    (r"aces take wild cards only in the initial meld",
     "los ases solo admiten comodines en la primera bajada"),
    (r"after your side's first meld, wild cards only go to a meld of five or more naturals",
     "tras la primera bajada de tu equipo, los comodines solo van a una combinación de cinco o "
     "más cartas naturales"),
    (r"while your wild-card meld is unfinished, wild cards go only to it",
     "mientras tu combinación de comodines no esté terminada, los comodines solo pueden ir a "
     "ella"),
    (r"an initial meld may not hold both an unfinished wild-card meld and a meld with wild cards",
     "una primera bajada no puede tener a la vez una combinación de comodines sin terminar y una "
     "combinación con comodines"),
    (r"with the four-books rule, sevens take no wild cards",
     "con la regla de las cuatro canastas (four-books), los sietes no admiten comodines"),
    # --- the initial meld and going out -------------------------------------------------------
    (rf"your side's initial meld needs (?P<need>{_N}) points; these cards count (?P<total>{_N})",
     "la primera bajada de tu equipo necesita {need} puntos; estas cartas suman {total}"),
    (rf"your side's initial meld needs (?P<need>{_N}) points from your hand; these cards count "
     rf"(?P<total>{_N})",
     "la primera bajada de tu equipo necesita {need} puntos de tu mano; estas cartas suman "
     "{total}"),
    (r"the initial meld must include a meld of three or more natural cards without wild cards, "
     r"or a meld of wild cards",
     "la primera bajada debe incluir una combinación limpia de tres o más cartas naturales, o una "
     "combinación de comodines"),
    (rf"going out needs (?P<canastas>a canasta|{_N} canastas): until your side has "
     rf"(?P=canastas), keep two cards {re.escape(_KEEP)}",
     "para cerrar {canastas_verb} falta {canastas}: hasta que tu equipo tenga {canastas}, "
     "quédate con dos cartas " + _KEEP_ES),
    (rf"going out needs a (?P<kinds>{_KIND}(?: and a {_KIND})*) canasta more: until then keep two "
     rf"cards {re.escape(_KEEP)}",
     "para cerrar, a tu equipo le {kinds}: hasta entonces quédate con dos cartas " + _KEEP_ES),
    # --- discarding (the variants' discard_error) ---------------------------------------------
    (r"red threes are never discarded", "los treses rojos nunca se descartan"),
    (r"threes are never discarded", "los treses nunca se descartan"),
    (r"a wild card may be discarded only when going out, or from a hand of wild cards only",
     "un comodín solo se puede descartar al cerrar, o si en tu mano solo hay comodines"),
    (r"on an empty pile an ace or a seven may be discarded only when you hold no other natural "
     r"card",
     "sobre el pozo vacío solo puedes descartar un as o un siete si no tienes ninguna otra carta "
     "natural"),
    (r"on an empty pile a card of a closed rank may be discarded only when no other card may go",
     "sobre el pozo vacío solo puedes descartar una carta de un valor cerrado si no puedes "
     "descartar ninguna otra"),
    # --- matches, tables and computer players (canasta.match, canasta.table, canasta.bots) ----
    (r"the current hand is still being played", "la mano actual todavía se está jugando"),
    (r"the match is over", "la partida ha terminado"),
    (r"no computer player is to act", "no le toca jugar a ningún jugador del ordenador"),
    (r"there is no legal move to choose from", "no hay ninguna jugada legal entre la que elegir"),
    (r"unknown level '(?P<text>.*)' \(known: (?P<known>.*)\)",
     "nivel desconocido '{text}' (los niveles son: {known})"),
    # --- rules and variants (canasta.rules, canasta.variants) ---------------------------------
    (r"unknown variant '(?P<text>.*)' \(known: (?P<known>.*)\)",
     "variante desconocida '{text}' (las variantes son: {known})"),
    (r"(?P<variant>[a-z-]+) is played by (?P<counts>[\d, ]+) players, not (?P<value>.+)",
     "{variant} se juega con {counts} jugadores, no con {value}"),
    (r"the target score must be a positive whole number, not (?P<value>.+)",
     "la puntuación objetivo debe ser un número entero positivo, no {value}"),
    (r"unknown option '(?P<name>.*)' for (?P<variant>[a-z-]+) \(known: (?P<known>.*)\)",
     "opción desconocida '{name}' para {variant} (las opciones son: {known})"),
    (r"option '(?P<name>.*)' must be a number from 0 to 1, not (?P<value>.+)",
     "la opción '{name}' debe ser un número de 0 a 1, no {value}"),
    (r"option '(?P<name>.*)' must be one of (?P<choices>.+), not (?P<value>.+)",
     "la opción '{name}' debe ser uno de estos valores: {choices}; no {value}"),
    (r"rules must be a JSON object", "las reglas deben ser un objeto JSON"),
    (r"'options' must be a JSON object", "'options' debe ser un objeto JSON"),
    (r"'options' must be an object", "'options' debe ser un objeto"),
    (r"(?P<variant>[a-z-]+) has no ponytails", "{variant} no tiene colas de caballo"),
    (rf"'ponytails' must hold one ponytail \(or null\) per seat \((?P<count>{_N})\)",
     "'ponytails' debe tener una cola de caballo (o null) por asiento ({count})"),
    # --- deals and positions (canasta.engine.deal, canasta.position) --------------------------
    (rf"a deal needs exactly the (?P<count>{_N}) cards of (?P<decks>{_N}) decks",
     "un reparto necesita exactamente las {count} cartas de {decks} barajas"),
    (rf"scores needs one number per side \((?P<count>{_N})\)",
     "scores necesita un número por equipo ({count})"),
    (rf"(?P<where>{_WHERE}) must be a list of cards", "{where} debe ser una lista de cartas"),
    (rf"(?P<where>{_WHERE}): (?P<value>.+) is not a card", "{where}: {value} no es una carta"),
    (rf"(?P<where>{_WHERE}): (?P<reason>.+)", "{where}: {reason}"),
    (r"'(?P<key>\w+)' must be a whole number, not (?P<value>.+)",
     "'{key}' debe ser un número entero, no {value}"),
    (rf"'(?P<key>\w+)' must be a list of (?P<count>{_N}) true/false values",
     "'{key}' debe ser una lista de {count} valores true/false"),
    (r"a position must be a JSON object", "una posición debe ser un objeto JSON"),
    (r"the position has no '(?P<key>.*)'", "la posición no tiene '{key}'"),
    (r"'variant' must be a name such as \"classic\"",
     "'variant' debe ser un nombre como \"classic\""),
    (rf"'scores' must hold one number per side \((?P<count>{_N})\)",
     "'scores' debe tener un número por equipo ({count})"),
    (rf"'turn' must be a seat from 0 to (?P<count>{_N})",
     "'turn' debe ser un asiento de 0 a {count}"),
    (r"'phase' must be \"draw\" or \"play\"", "'phase' debe ser \"draw\" o \"play\""),
    (rf"'hands' must hold one hand per seat \((?P<count>{_N})\)",
     "'hands' debe tener una mano por asiento ({count})"),
    (rf"seat (?P<seat>{_N}) holds (?P<card>{_CARD}), which is laid down at once",
     "el asiento {seat} tiene {card} en la mano, pero esa carta se pone en la mesa al instante"),
    (rf"'melds' must hold one list of melds per side \((?P<count>{_N})\)",
     "'melds' debe tener una lista de combinaciones por equipo ({count})"),
    (rf"melds of side (?P<side>{_N}) must be a list of melds",
     "las combinaciones del equipo {side} deben ser una lista de combinaciones"),
    (rf"side (?P<side>{_N}) has a meld of fewer than 3 cards",
     "el equipo {side} tiene una combinación de menos de 3 cartas"),
    (rf"side (?P<side>{_N}) has a meld that is not one rank: (?P<cards>.+)",
     "el equipo {side} tiene una combinación que no es de un solo valor: {cards}"),
    (rf"side (?P<side>{_N}) has two melds of rank (?P<text>\w+)",
     "el equipo {side} tiene dos combinaciones del valor {text}"),
    (rf"'threes' must hold one list per side \((?P<count>{_N})\)",
     "'threes' debe tener una lista por equipo ({count})"),
    (rf"side (?P<side>{_N}) has (?P<card>{_CARD}) among its threes",
     "el equipo {side} tiene {card} entre sus treses"),
    (r"'drew' must be \"stock\" or \"pile\"", "'drew' debe ser \"stock\" o \"pile\""),
    (r"'hand_number' counts hands from 1", "'hand_number' cuenta las manos desde 1"),
    (rf"(?P<card>{_CARD}) appears (?P<count>{_N}) times, but (?P<decks>{_N}) decks hold "
     rf"(?P<most>{_N})",
     "{card} aparece {count} veces, pero {decks} barajas tienen {most}"),
    # --- game records (canasta.records) -------------------------------------------------------
    (r"cannot read (?P<path>.+?): (?P<text>.+)", "no se puede leer {path}: {text}"),
    (r"(?P<path>.+) is not a text file", "{path} no es un archivo de texto"),
    (r"(?P<path>.+?) is not valid JSON: (?P<text>.+)", "{path} no es un JSON válido: {text}"),
    (r"(?P<path>.+) is not a game record \(a JSON object\)",
     "{path} no es un registro de partida (un objeto JSON)"),
    (r"not a game record \(its 'format' must be \"(?P<text>.*)\"\)",
     "no es un registro de partida (su 'format' debe ser \"{text}\")"),
    (r"unknown record version (?P<value>.+)", "versión de registro desconocida: {value}"),
    (r"'deals' must be a list of decks, one per hand",
     "'deals' debe ser una lista de barajas, una por mano"),
    (r"the record needs a whole-number 'seed' \(or 'deals'\)",
     "el registro necesita una 'seed' entera (o 'deals')"),
    (r"the record needs a list of 'hands'", "el registro necesita una lista de 'hands'"),
    (rf"the record has no deal for hand (?P<hand>{_N})",
     "el registro no tiene el reparto de la mano {hand}"),
    (rf"hand (?P<hand>{_N}) had not ended when hand (?P<next>{_N}) began",
     "la mano {hand} no había terminado cuando empezó la mano {next}"),
    (rf"the match was over before hand (?P<hand>{_N})",
     "la partida había terminado antes de la mano {hand}"),
    (rf"hand (?P<hand>{_N}) needs a list of 'moves'",
     "la mano {hand} necesita una lista de 'moves'"),
    (rf"hand (?P<hand>{_N}), move (?P<move>{_N}): write each move as \[seat, text\]",
     "mano {hand}, jugada {move}: escribe cada jugada como [asiento, texto]"),
    (rf"hand (?P<hand>{_N}), move (?P<move>{_N}): the hand was already over",
     "mano {hand}, jugada {move}: la mano ya había terminado"),
    (rf"hand (?P<hand>{_N}), move (?P<move>{_N}) \((?P<text>.*?)\): (?P<reason>.+)",
     "mano {hand}, jugada {move} ({text}): {reason}"),
    (rf"hand (?P<hand>{_N}): 'result' must be an object",
     "mano {hand}: 'result' debe ser un objeto"),
    (rf"hand (?P<hand>{_N}) does not replay: it scores (?P<value>.+), the record says "
     r"(?P<text>.+)",
     "la mano {hand} no se reproduce igual: puntúa {value} y el registro dice {text}"),
    # --- the game server (canasta.web) ---------------------------------------------------------
    (rf"seat (?P<seat>{_N}) is a computer player's",
     "el asiento {seat} es de un jugador del ordenador"),
    (r"a move is a short text, such as 'draw' or 'discard 4S'",
     "una jugada es un texto corto, como 'draw' o 'discard 4S'"),
    (r"there is nothing to undo: only your melds of this turn, before you discard",
     "no hay nada que deshacer: solo tus combinaciones de este turno, antes de descartar"),
    (r"the hand is still being played", "la mano todavía se está jugando"),
    (r"the match is over: start a new game",
     "la partida ha terminado: empieza una nueva"),
    (r"it is not your turn: there is nothing to suggest",
     "no es tu turno: no hay nada que sugerir"),
    (r"this saved game cannot be read: (?P<reason>.+)",
     "esta partida guardada no se puede leer: {reason}"),
    (r"the stored game has no seed", "la partida guardada no tiene semilla"),
    # --- the game server's store (canasta.web.store) --------------------------------------------
    (r"the game could not be saved \((?P<reason>.+)\): it is paused, and goes on by itself "
     r"once the server can save again",
     "no se ha podido guardar la partida ({reason}): queda en pausa, y seguirá sola en cuanto "
     "el servidor pueda guardar de nuevo"),
    (r"the game could not be saved \((?P<reason>.+)\): the language is unchanged",
     "no se ha podido guardar la partida ({reason}): el idioma no ha cambiado"),
    (r"the game could not be created: the server cannot save games now \((?P<reason>.+)\)",
     "no se ha podido crear la partida: ahora el servidor no puede guardar partidas "
     "({reason})"),
    (r"the computer players stopped because of an error on the server: reload the page to go "
     r"on",
     "los jugadores del ordenador se han detenido por un error del servidor: vuelve a cargar "
     "la página para seguir"),
    (r"database or disk is full", "la base de datos o el disco están llenos"),
    (r"disk I/O error", "error de lectura o escritura en el disco"),
    (r"database is locked", "la base de datos está bloqueada por otro programa"),
    (r"attempt to write a readonly database", "la base de datos es de solo lectura"),
    (r"database disk image is malformed", "el archivo de la base de datos está dañado"),
    (r"the stored game is not text", "la partida guardada no es un texto"),
    (r"the stored game is longer than (?P<n>\d+) characters",
     "la partida guardada tiene más de {n} caracteres"),
    (r"the stored game is nested more than (?P<n>\d+) levels deep",
     "la partida guardada tiene más de {n} niveles de anidamiento"),
    (r"the stored game is not valid JSON", "la partida guardada no es un JSON válido"),
    (r"the stored game is not a JSON object", "la partida guardada no es un objeto JSON"),
    (r"the database cannot read it \((?P<reason>.+)\)",
     "la base de datos no puede leerla ({reason})"),
    (r"the game is nested more than (?P<n>\d+) levels deep",
     "la partida tiene más de {n} niveles de anidamiento"),
    (r"the game is longer than (?P<n>\d+) characters", "la partida tiene más de {n} caracteres"),
    (r"the game '(?P<text>.*)' is no longer in the database",
     "la partida '{text}' ya no está en la base de datos"),
    (r"the list's 'limit' is 1 to (?P<n>\d+), not (?P<value>.+)",
     "el 'limit' de la lista va de 1 a {n}, no {value}"),
    (r"the 'before' cursor is not one the games list gave",
     "el cursor 'before' no es uno de los que da la lista de partidas"),
    (r"the message is too long", "el mensaje es demasiado largo"),
    (r"the request is too long", "la petición es demasiado larga"),
    (r"the message is not valid JSON", "el mensaje no es un JSON válido"),
    (r"the request is not valid JSON", "la petición no es un JSON válido"),
    (r"the message gives the field '(?P<name>.*)' twice",
     "el mensaje da dos veces el campo '{name}'"),
    (r"the request gives the field '(?P<name>.*)' twice",
     "la petición da dos veces el campo '{name}'"),
    (r"requests from other sites are refused \(this one comes from '(?P<origin>.*)'\)",
     "se rechazan las peticiones de otros sitios (esta viene de '{origin}')"),
    (r"send the request as JSON \(Content-Type: application/json\)",
     "envía la petición como JSON (Content-Type: application/json)"),
    (r"a message is a JSON object with a 'type'", "un mensaje es un objeto JSON con un 'type'"),
    (r"unknown message type (?P<text>.+) \(known: (?P<known>.+)\)",
     "tipo de mensaje desconocido: {text}"),
    (r"unknown field\(s\) in '(?P<kind>.+)': (?P<names>.+)",
     "campo(s) desconocido(s) en '{kind}': {names}"),
    (r"'(?P<kind>.+)' needs the field '(?P<name>.+)'", "'{kind}' necesita el campo '{name}'"),
    (r"'(?P<name>.+)' must be a (?P<typ>\w+)", "'{name}' debe ser de tipo {typ}"),
    (r"'id' must be a whole number from 0 to (?P<max>\d+) or 1 to (?P<n>\d+) letters, digits, "
     r"'-', '_', '\.' or ':'",
     "'id' debe ser un número entero de 0 a {max} o de 1 a {n} letras, cifras, '-', '_', '.' "
     "o ':'"),
    (r"send JSON text, not binary data", "envía texto JSON, no datos binarios"),
    (r"the language is one of (?P<langs>[a-z, ]+)(?:, not (?P<value>.+))?",
     "el idioma es uno de estos: {langs}"),
    (r"the game options must be a JSON object",
     "las opciones de la partida deben ser un objeto JSON"),
    (r"unknown option\(s\): (?P<names>.+)", "opción(es) desconocida(s): {names}"),
    (r"the target score is one of (?P<values>[0-9, ]+), not (?P<value>.+)",
     "la puntuación objetivo es una de estas: {values}; no {value}"),
    (r"'levels' must list one level per computer seat \((?P<n>\d+)\), each one of "
     r"(?P<levels>.+)",
     "'levels' debe dar un nivel por cada asiento del ordenador ({n}), cada uno de estos: "
     "{levels}"),
    (r"the player's name must be 1 to (?P<n>\d+) printable characters",
     "el nombre del jugador debe tener de 1 a {n} caracteres imprimibles"),
    (r"'options' must be a JSON object of house rules",
     "'options' debe ser un objeto JSON de reglas de la mesa"),
    (r"(?P<variant>[a-z-]+) with (?P<n>\d+) players has no house rule '(?P<name>.+)' "
     r"\(its house rules: (?P<known>.+)\)",
     "{variant} con {n} jugadores no tiene la regla de la mesa '{name}' (las que tiene: "
     "{known})"),
    (r"the house rule '(?P<name>.+)' is one of (?P<values>.+), not (?P<value>.+)",
     "la regla de la mesa '{name}' es una de estas: {values}; no {value}"),
    (r"the saved game's options do not match its record",
     "las opciones de la partida guardada no coinciden con su registro"),
    (r"there is no game '(?P<text>.*)'", "no existe la partida '{text}'"),
    (r"the game has hands 1 to (?P<n>\d+)", "la partida tiene las manos 1 a {n}"),
    (r"no hint can be given now", "ahora no se puede dar ninguna pista"),
    # --- why a button is disabled (canasta.web.reasons) --------------------------------------
    (r"none of your cards make a new meld now",
     "ahora ninguna de tus cartas forma una combinación nueva"),
    (rf"none of your cards make an initial meld now \(your side needs (?P<need>{_N}) points\)",
     "ahora ninguna de tus cartas forma la primera bajada (tu equipo necesita {need} puntos)"),
    (r"your side has no melds to add to yet",
     "tu equipo aún no tiene combinaciones a las que añadir"),
    (r"none of your cards go onto your side's melds now",
     "ahora ninguna de tus cartas va a las combinaciones de tu equipo"),
    (r"the request's '(?P<name>.+)' is not valid: (?P<text>.*)",
     "el campo '{name}' de la petición no es válido"),
)

#: The ordered catalogue: the first pattern that matches a whole message translates it.
CATALOGUE: Final[tuple[tuple[re.Pattern[str], str], ...]] = tuple(
    (re.compile(pattern, re.DOTALL), template) for pattern, template in _RAW
)


def _rank_fields(name: str, english: str) -> dict[str, str]:
    es, feminine = RANK_NAMES_ES[english]
    return {
        name: es,
        name + "_the": ("las " if feminine else "los ") + es,
        name + "_all": ("todas tus " if feminine else "todos tus ") + es,
        name + "_one": "una" if feminine else "uno",
    }


def _canasta_kinds(text: str) -> str:
    kinds = [_CANASTA_KINDS_ES[k] for k in text.split(" and a ")]
    if len(kinds) == 1:
        return "falta " + kinds[0]
    return "faltan " + ", ".join(kinds[:-1]) + " y " + kinds[-1]


def _where(text: str) -> str:
    for pattern, spanish in _WHERE_ES:
        if pattern.fullmatch(text):
            return pattern.sub(spanish, text)
    return text


def _or_list(text: str) -> str:
    """``2, 3, 4`` as ``2, 3 o 4``."""
    head, sep, last = text.rpartition(", ")
    return f"{head} o {last}" if sep else text


def _points(text: str) -> str:
    """A number as the Spanish client writes every number: thousands always grouped with a
    point (1.500, like 10.000)."""
    return f"{int(text):,}".replace(",", ".")


_CONVERT: Final[dict[str, Callable[[str], str]]] = {
    "need": _points,
    "total": _points,
    "reason": lambda text: _to_spanish(text),
    "kinds": _canasta_kinds,
    "where": _where,
    "variant": lambda text: _VARIANTS_ES.get(text, text),
    "counts": _or_list,
    "known": lambda text: "ninguna" if text == "none" else text,
}


def _fields(match: re.Match[str]) -> dict[str, str]:
    """The template's fields from a match's named groups: ``rank`` groups give the Spanish rank
    name and its ``_the`` / ``_all`` / ``_one`` forms, ``canastas`` its verb (``_verb``),
    ``reason`` groups (a nested message) are
    translated in turn, a few more are converted (``_CONVERT``); the rest are copied."""
    out: dict[str, str] = {}
    for name, value in match.groupdict().items():
        if value is None:
            continue
        if name == "rank":
            out.update(_rank_fields(name, value))
        elif name == "canastas":
            out[name] = "una canasta" if value == "a canasta" else value
            out[name + "_verb"] = "hace" if value == "a canasta" else "hacen"
        else:
            out[name] = _CONVERT.get(name, str)(value)
    return out


def find_entry(message: str) -> int | None:
    """The index in ``CATALOGUE`` of the entry that translates ``message``, or None."""
    for i, (pattern, _template) in enumerate(CATALOGUE):
        if pattern.fullmatch(message):
            return i
    return None


def _to_spanish(message: str) -> str:
    """The Spanish of one message, not capitalized (it may be nested in another)."""
    for pattern, template in CATALOGUE:
        m = pattern.fullmatch(message)
        if m is not None:
            return template.format_map(_fields(m))
    return message


def translate(message: str, lang: str) -> str:
    """``message`` (an engine message, in English) in ``lang`` (one of ``LANGS``).  A message
    the catalogue does not know is returned in English, unchanged."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r} (known: {', '.join(LANGS)})")
    if lang == "en":
        return message
    spanish = _to_spanish(message)
    if spanish == message:
        return message
    return spanish[:1].upper() + spanish[1:]


__all__ = ["CATALOGUE", "LANGS", "RANK_NAMES_ES", "find_entry", "translate"]
