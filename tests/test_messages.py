"""The translation catalogue of the engine's messages (canasta.web.messages).

Two kinds of test: every catalogue entry translates a hand-written example of the message it is
for (and no earlier entry takes that example from it); and the messages the engine really
produces -- collected from random games of every variant where illegal and malformed moves are
tried at many positions, from the rules tests' refused moves and from the rule scenarios -- all
come out in Spanish.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import itertools
import json
import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from canasta.cards import ALL_CARDS, BLACK_THREE, Card
from canasta.engine.play import rank_name
from canasta.engine.state import HandState
from canasta.errors import CanastaError
from canasta.match import Match
from canasta.rules import Rules
from canasta.web.messages import CATALOGUE, LANGS, RANK_NAMES_ES, find_entry, translate

from conftest import ROOT, SHARED

# ----------------------------------------------------------------------------------------
# (a) The catalogue, entry by entry
EXAMPLES = [
    # cards and moves
    "'XQ' is not a card: write a rank (A K Q J T/10 9 8 7 6 5 4 3 2) and a suit (C D H S), "
    "or JK for a joker",
    "a move must be text",
    "empty move: try 'help' for the moves you can make",
    "'draw' takes nothing after it",
    "discard one card, for example: discard 4S",
    "add a rank and cards, for example: add 7 7C 2D",
    "'X' is not a meld rank (A K Q J T 9 8 7 6 5 4, or W)",
    "meld some cards, for example: meld KH KD KC / 9S 9D 2C",
    "an empty meld group: put cards between the '/' signs",
    "unknown move 'fold': the moves are draw, take, meld, add, discard, pass, ask, yes, no",
    # turns, drawing, asking
    "the hand is over",
    "it is seat 2's turn to act, not seat 0's",
    'your partner asked "may I go out?": answer yes or no',
    "nobody has asked you whether they may go out",
    "the stock is exhausted: take the pile or pass",
    "begin your turn: draw from the stock or take the pile",
    "you have already drawn this turn: meld, or discard to end your turn",
    "you do not hold 7H JK",
    "your partner said no: you may not go out this turn, so keep two cards",
    "your partner said yes, so you must go out this turn; after this meld you could not",
    "your partner said yes, so you must go out this turn: meld first",
    "there is no partner to ask in this game",
    "you have already asked your partner this hand",
    "you have already asked your partner this turn",
    "ask your partner right after drawing, before you meld",
    "with one card left you can only go out: there is nothing to ask",
    "you cannot go out this turn, so there is nothing to ask",
    "you may pass only when the stock is exhausted: draw a card",
    "the stock is exhausted and the 9C on top goes onto your nines: you must take the pile",
    # melding
    "red threes are never melded: they are laid beside your melds",
    "threes are never melded: they are laid beside your melds",
    "black threes are melded only with each other, never with wild cards",
    "black threes are melded only with each other, when going out",
    "black threes are your last meld: discard to go out",
    "black threes may be melded only as you go out",
    "black threes may be melded only as you go out, 3 or 99 of them",
    "black threes may be melded only as you go out, 3 or 4 of them",
    "black threes may be melded only as you go out, 3 or more of them",
    "a meld needs natural cards: wild cards alone are not a meld",
    "a meld is made of one rank: 5D does not go with the queens",
    "one meld per rank: put all your jacks in one group",
    "you go out by discarding your last card: keep one card to discard",
    "meld at least one card",
    "your side has no meld of kings to add to",
    "you could not go out after this meld: red threes are never discarded",
    # taking the pile
    "the pile is empty",
    "a black three on top of the pile blocks it this turn",
    "a wild card on top of the pile blocks it this turn",
    "the pile cannot be taken",
    "with a single card in hand you may not take a one-card pile",
    "to take the pile, show eights or wild cards to meld with the 8S on top; KD does not go "
    "with them",
    "once your side has melded, take the pile first and then meld",
    "the pile is frozen: you need two natural nines from your hand",
    "the pile is frozen until your side has made its initial meld: you need two natural tens "
    "from your hand",
    "to take the pile you need two natural jacks, or one and a wild card, or a meld of jacks on "
    "the table",
    "the pile is taken only with a natural pair: you need two natural aces",
    "your sixes already hold 5 cards: the pair and the top card may join a meld of 3 or 4 cards "
    "only",
    # the shape of melds
    "a meld needs at least 3 cards",
    "a meld needs at least 2 natural cards",
    "a meld may hold at most 3 wild cards",
    "a meld may not hold more wild cards than natural cards",
    "a meld needs more natural cards than wild cards",
    "a meld stops at 7 cards",
    "a meld stops at 7 cards: a canasta takes nothing more",
    "the wild-card canasta is finished: nothing more may be added",
    "the fives are a finished canasta: nothing more may be added",
    "a wild-card meld holds only deuces and jokers",
    "the queens are closed: a side has a natural canasta of them, so nobody may meld them any "
    "more",
    "sevens never take wild cards",
    "aces take wild cards only in the initial meld",
    "after your side's first meld, wild cards only go to a meld of five or more naturals",
    "while your wild-card meld is unfinished, wild cards go only to it",
    "an initial meld may not hold both an unfinished wild-card meld and a meld with wild cards",
    "with the four-books rule, sevens take no wild cards",
    # the initial meld and going out
    "your side's initial meld needs 50 points; these cards count 35",
    "your side's initial meld needs 125 points from your hand; these cards count 90",
    "the initial meld must include a meld of three or more natural cards without wild cards, "
    "or a meld of wild cards",
    "going out needs a canasta: until your side has a canasta, keep two cards (one to discard "
    "and one to keep)",
    "going out needs a natural and a mixed canasta more: until then keep two cards (one to "
    "discard and one to keep)",
    # discarding
    "red threes are never discarded",
    "threes are never discarded",
    "a wild card may be discarded only when going out, or from a hand of wild cards only",
    "on an empty pile an ace or a seven may be discarded only when you hold no other natural card",
    "on an empty pile a card of a closed rank may be discarded only when no other card may go",
    # matches, tables, computer players
    "the current hand is still being played",
    "the match is over",
    "no computer player is to act",
    "there is no legal move to choose from",
    "unknown level 'genius' (known: random, basic, expert, master)",
    # rules and variants
    "unknown variant 'rummy' (known: classic, modern-american, ponytail)",
    "classic is played by 2, 3, 4 players, not 5",
    "the target score must be a positive whole number, not -5",
    "unknown option 'speed' for ponytail (known: cut_bonus, minimum_by)",
    "option 'cut_bonus' must be a number from 0 to 1, not 2",
    "option 'minimum_by' must be one of 'score', 'hand', not 'luck'",
    "rules must be a JSON object",
    "'options' must be a JSON object",
    "'options' must be an object",
    "classic has no ponytails",
    "'ponytails' must hold one ponytail (or null) per seat (4)",
    # deals and positions
    "a deal needs exactly the 108 cards of 2 decks",
    "scores needs one number per side (2)",
    "hand of seat 1 must be a list of cards",
    "a meld of side 0: 7 is not a card",
    "threes of side 1: 'ZZ' is not a card: write a rank (A K Q J T/10 9 8 7 6 5 4 3 2) and a "
    "suit (C D H S), or JK for a joker",
    "'turn' must be a whole number, not 1.5",
    "'melded' must be a list of 4 true/false values",
    "a position must be a JSON object",
    "the position has no 'stock'",
    "'variant' must be a name such as \"classic\"",
    "'scores' must hold one number per side (2)",
    "'turn' must be a seat from 0 to 3",
    "'phase' must be \"draw\" or \"play\"",
    "'hands' must hold one hand per seat (4)",
    "seat 2 holds 3H, which is laid down at once",
    "'melds' must hold one list of melds per side (2)",
    "melds of side 1 must be a list of melds",
    "side 0 has a meld of fewer than 3 cards",
    "side 1 has a meld that is not one rank: 9C 9D 8H",
    "side 0 has two melds of rank K",
    "'threes' must hold one list per side (2)",
    "side 0 has 9C among its threes",
    "'drew' must be \"stock\" or \"pile\"",
    "'hand_number' counts hands from 1",
    "JK appears 5 times, but 2 decks hold 4",
    # game records
    "cannot read games/a.json: Permission denied",
    "games/a.json is not a text file",
    "games/a.json is not valid JSON: Expecting value: line 1 column 1 (char 0)",
    "games/a.json is not a game record (a JSON object)",
    "not a game record (its 'format' must be \"canasta-record\")",
    "unknown record version 7",
    "'deals' must be a list of decks, one per hand",
    "the record needs a whole-number 'seed' (or 'deals')",
    "the record needs a list of 'hands'",
    "the record has no deal for hand 3",
    "hand 1 had not ended when hand 2 began",
    "the match was over before hand 4",
    "hand 2 needs a list of 'moves'",
    "hand 2, move 7: write each move as [seat, text]",
    "hand 2, move 7: the hand was already over",
    "hand 2, move 7 (discard 4S): you do not hold 4S",
    "hand 1: 'result' must be an object",
    "hand 1 does not replay: it scores [120, -40], the record says [100, -40]",
    "seat 2 is a computer player's",
    "a move is a short text, such as 'draw' or 'discard 4S'",
    "there is nothing to undo: only your melds of this turn, before you discard",
    "the hand is still being played",
    "the match is over: start a new game",
    "it is not your turn: there is nothing to suggest",
    "this saved game cannot be read: hand 1, move 1 (discard JK): you do not hold JK",
    "the stored game has no seed",
    "the game could not be saved (database or disk is full): it is paused, and goes on by itself "
    "once the server can save again",
    "the game could not be saved (disk I/O error): the language is unchanged",
    "the game could not be created: the server cannot save games now (database is locked)",
    "the computer players stopped because of an error on the server: reload the page to go on",
    "database or disk is full",
    "disk I/O error",
    "database is locked",
    "attempt to write a readonly database",
    "database disk image is malformed",
    "the stored game is not text",
    "the stored game is longer than 2097152 characters",
    "the stored game is nested more than 16 levels deep",
    "the stored game is not valid JSON",
    "the stored game is not a JSON object",
    "the database cannot read it (database disk image is malformed)",
    "the game is nested more than 16 levels deep",
    "the game is longer than 2097152 characters",
    "the game 'abc' is no longer in the database",
    "the list's 'limit' is 1 to 200, not 0",
    "the 'before' cursor is not one the games list gave",
    "the message is too long",
    "the request is too long",
    "the message is not valid JSON",
    "the request is not valid JSON",
    "the message gives the field 'type' twice",
    "the request gives the field 'lang' twice",
    "requests from other sites are refused (this one comes from 'http://evil.example')",
    "send the request as JSON (Content-Type: application/json)",
    "a message is a JSON object with a 'type'",
    "unknown message type 'fly' (known: move, hint, undo, next_hand, lang, sync)",
    "unknown field(s) in 'move': seat",
    "'move' needs the field 'move'",
    "'move' must be a str",
    "'id' must be a whole number from 0 to 2147483647 or 1 to 32 letters, digits, '-', '_', '.' "
    "or ':'",
    "send JSON text, not binary data",
    "the language is one of en, es, not 'fr'",
    "the game options must be a JSON object",
    "unknown option(s): colour",
    "the target score is one of 2500, 5000, 7500, 10000, not 1234",
    "'levels' must list one level per computer seat (3), each one of random, basic, expert, "
    "master",
    "the player's name must be 1 to 40 printable characters",
    "'options' must be a JSON object of house rules",
    "ponytail with 4 players has no house rule 'colour' (its house rules: required_canastas, "
    "minimum_by, count_unpicked_ponytails)",
    "the house rule 'required_canastas' is one of \"two\", \"four-books\", not 3",
    "the saved game's options do not match its record",
    "there is no game 'abc'",
    "the game has hands 1 to 3",
    "no hint can be given now",
    "none of your cards make a new meld now",
    "none of your cards make an initial meld now (your side needs 1500 points)",
    "your side has no melds to add to yet",
    "none of your cards go onto your side's melds now",
    "the request's 'hand' is not valid: Input should be a valid integer",
]

# English words that a Spanish text must not contain (outside quotes and the move notation).
ENGLISH = {"the", "you", "your", "with", "must", "may", "cannot", "card", "cards", "pile",
           "stock", "side", "wild", "going", "is", "are", "have", "and", "to", "only", "never",
           "of", "on", "from", "for", "after", "before", "this", "when", "which", "them", "it",
           "its", "need", "needs", "meld", "melds", "hand", "go", "out", "take", "draw"}
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|\([a-z]+ \([^)]*\)[^)]*\)")
_NOTATION = re.compile(r"\b(?:draw|take|meld|add|discard|pass|ask|yes) \((?:[^)]*)\)"
                       r"|(?:meld|add|discard) [0-9AKQJTW](?:[ /]*\w+)*")


def english_left(spanish: str) -> set[str]:
    """The English words of ``ENGLISH`` left in a Spanish text."""
    text = _NOTATION.sub(" ", _QUOTED.sub(" ", spanish))
    return {w for w in re.findall(r"[a-z]+", text.lower()) if w in ENGLISH}


def test_every_entry_translates_an_example_that_no_earlier_entry_takes() -> None:
    first = [find_entry(m) for m in EXAMPLES]
    assert [m for m, i in zip(EXAMPLES, first, strict=True) if i is None] == []
    missing = sorted(set(range(len(CATALOGUE))) - set(first))
    assert [CATALOGUE[i][0].pattern for i in missing] == []


@pytest.mark.parametrize("message", EXAMPLES)
def test_example_comes_out_in_spanish(message: str) -> None:
    spanish = translate(message, "es")
    assert spanish != message
    assert spanish[:1] == spanish[:1].upper()
    assert "{" not in spanish and "}" not in spanish
    assert english_left(spanish) == set(), spanish
    assert translate(message, "en") == message


def test_examples_are_in_catalogue_order() -> None:
    """The examples follow the catalogue, so that a new entry gets its example beside it."""
    first = [find_entry(m) for m in EXAMPLES]
    assert first == sorted(first)  # type: ignore[type-var]


@pytest.mark.parametrize(("english", "spanish"), [
    ("the pile is frozen: you need two natural nines from your hand",
     "El pozo está congelado: necesitas dos nueves naturales de tu mano"),
    ("a meld is made of one rank: 5D does not go with the queens",
     "Una combinación es de un solo valor: 5D no va con las damas"),
    ("one meld per rank: put all your kings in one group",
     "Una sola combinación por valor: pon todos tus reyes en un mismo grupo"),
    ("to take the pile you need two natural jacks, or one and a wild card, or a meld of jacks on "
     "the table",
     "Para tomar el pozo necesitas dos jotas naturales, o una y un comodín, o una combinación de "
     "jotas en la mesa"),
    ("you could not go out after this meld: a wild card may be discarded only when going out, "
     "or from a hand of wild cards only",
     "Después de esta combinación no podrías cerrar: un comodín solo se puede descartar al "
     "cerrar, o si en tu mano solo hay comodines"),
    ("going out needs 2 canastas: until your side has 2 canastas, keep two cards (one to discard "
     "and one to keep)",
     "Para cerrar hacen falta 2 canastas: hasta que tu equipo tenga 2 canastas, quédate con dos "
     "cartas (una para descartar y otra para guardar)"),
    ("going out needs a natural and a mixed and a sevens and a wild canasta more: until then "
     "keep two cards (one to discard and one to keep)",
     "Para cerrar, a tu equipo le faltan una canasta limpia, una canasta sucia, una canasta de "
     "sietes y una canasta de comodines: hasta entonces quédate con dos cartas (una para "
     "descartar y otra para guardar)"),
    ("going out needs a mixed canasta more: until then keep two cards (one to discard and one to "
     "keep)",
     "Para cerrar, a tu equipo le falta una canasta sucia: hasta entonces quédate con dos cartas "
     "(una para descartar y otra para guardar)"),
    ("your side has no meld of wild cards to add to",
     "Tu equipo no tiene ninguna combinación de comodines a la que añadir cartas"),
    ("a meld is made of one rank: 9C does not go with the wild cards",
     "Una combinación es de un solo valor: 9C no va con los comodines"),
    ("black threes may be melded only as you go out, 3 or 99 of them",
     "Los treses negros solo se pueden bajar al cerrar, 3 o más"),
    ("classic is played by 2, 3, 4 players, not 5",
     "La Canasta clásica se juega con 2, 3 o 4 jugadores, no con 5"),
    # Spanish numbers are grouped like the client's (1.500 as 10.000), at every size.
    ("your side's initial meld needs 1500 points; these cards count 15",
     "La primera bajada de tu equipo necesita 1.500 puntos; estas cartas suman 15"),
    ("none of your cards make an initial meld now (your side needs 120 points)",
     "Ahora ninguna de tus cartas forma la primera bajada (tu equipo necesita 120 puntos)"),
    ("hand of seat 1: 'ZZ' is not a card: write a rank (A K Q J T/10 9 8 7 6 5 4 3 2) and a "
     "suit (C D H S), or JK for a joker",
     "La mano del asiento 1: 'ZZ' no es una carta: escribe un valor (A K Q J T/10 9 8 7 6 5 4 3 "
     "2) y un palo (C tréboles, D diamantes, H corazones, S picas), o JK para un comodín "
     "(joker)"),
])
def test_spanish_wording(english: str, spanish: str) -> None:
    assert translate(english, "es") == spanish


def test_languages() -> None:
    assert LANGS == ("en", "es")
    with pytest.raises(ValueError, match="language"):
        translate("the pile is empty", "fr")


def test_a_message_nobody_knows_stays_in_english() -> None:
    assert translate("the moon is made of cheese", "es") == "the moon is made of cheese"
    assert translate("", "es") == ""


def test_every_rank_name_of_the_engine_has_a_spanish_name() -> None:
    for rank in "AKQJT98765W":
        assert rank_name(rank) in RANK_NAMES_ES


# ----------------------------------------------------------------------------------------
# (b) The messages the engine really produces
CONFIGS = [("classic", 2), ("classic", 3), ("classic", 4), ("modern-american", 4),
           ("ponytail", 4), ("ponytail", 6)]
SEEDS = {"classic": 6, "modern-american": 6, "ponytail": 2}
MAX_MOVES = 400  # per hand: enough for most random hands to reach their end

GARBAGE = ["", "   ", "fold", "draw 4S", "take /", "take 9C / ", "meld", "meld 4S /", "meld / 4S",
           "add", "add 7", "add X 7C", "add 10 TC TD", "add W 2C", "add 7 ZZ", "discard",
           "discard 4S 5S", "discard ZZ", "discard 10H", "pass now", "ask me", "yes please",
           "no way", "help", "XYZZY 1 2", "meld 1C 2C 3C", "take ZZ", "meld JK JK JK",
           "meld 3H", "meld 3C 3S 3C", "discard 3H", "discard 3C", "take 3C 3S"]


def _texts(cs: list[Card]) -> str:
    return " ".join(c.text for c in cs)


def _attempts(state: HandState, rng: random.Random) -> Iterator[tuple[str, int | None]]:
    """Move texts to try now (mostly illegal), with the seat that tries them (None: the seat to
    act)."""
    seat = state.turn
    hand = list(state.hands[seat])
    wilds = [c for c in hand if c.is_wild]
    naturals = [c for c in hand if c.is_natural]
    yield from ((t, None) for t in ("draw", "take", "pass", "ask", "yes", "no"))
    yield from ((t, None) for t in rng.sample(GARBAGE, 3))
    others = [s for s in range(state.rules.players) if s != seat]
    yield rng.choice(["draw", "discard 4S", "take"]), rng.choice(others)

    def some(pool: list[Card], lo: int, hi: int) -> list[Card]:
        return rng.sample(pool, min(len(pool), rng.randint(lo, hi)))

    for _ in range(3):  # groups of random cards from hand
        groups = [some(hand, 1, 5) for _ in range(rng.randint(1, 3))]
        yield "meld " + " / ".join(_texts(g) for g in groups if g), None
    for _ in range(4):  # groups of one rank from hand, with wild cards
        groups = []
        for _ in range(rng.randint(1, 2)):
            if not naturals:
                break
            r = rng.choice(naturals).rank
            same = [c for c in hand if c.rank == r]
            groups.append(some(same, 1, 4) + some(wilds, 0, 4))
        if groups:
            yield "meld " + " / ".join(_texts(g) for g in groups if g), None
    side = state.side_of(seat)
    for m in state.melds[side]:  # additions to the side's melds (and to the opponents')
        if rng.random() < 0.5:
            same = [c for c in hand if c.rank == m.rank]
            cs = some(same, 0, 3) + some(wilds, 0, 3) or some(hand, 1, 2)
            yield f"add {m.rank} {_texts(cs)}", None
    for ms in state.melds:
        if ms and rng.random() < 0.3:
            yield f"add {rng.choice(ms).rank} {_texts(some(hand, 1, 2))}", None
    yield f"add {rng.choice('AKQJT98765W')} {_texts(some(hand, 1, 3))}", None
    top = state.pile_top
    if top is not None:  # the pile, with cards of its rank, wild cards or anything
        same = [c for c in hand if c.rank == top.rank]
        yield f"take {_texts(some(same, 0, 3) + some(wilds, 0, 2))}", None
        extra = some(hand, 2, 4)
        yield f"take {_texts(some(same, 1, 2) or some(hand, 1, 1))} / {_texts(extra)}", None
        yield f"take {_texts(some(hand, 1, 3))}", None
        blacks = [c for c in hand if c.kind == BLACK_THREE]
        if blacks:
            yield f"take {_texts(some(same, 2, 2))} / {_texts(blacks)}", None
    for c in some(hand, 2, 3):
        yield f"discard {c.text}", None
    yield f"discard {rng.choice(ALL_CARDS).text}", None
    yield f"meld {_texts(rng.sample(ALL_CARDS, 3))}", None


def _try(state: HandState, text: str, seat: int | None, found: dict[str, str]) -> None:
    try:
        state.check(text, seat)
    except CanastaError as e:
        found.setdefault(str(e), text)


def _random_games(found: dict[str, str]) -> None:
    for variant, players in CONFIGS:
        rules = Rules.make(variant, players)
        for seed in range(SEEDS[variant]):
            rng = random.Random(f"{variant}/{players}/{seed}")
            match = Match(rules, seed)
            state = match.state
            for step in range(MAX_MOVES):
                if state.result is not None:
                    break
                if variant != "ponytail" or step % 2 == 0:
                    for text, seat in _attempts(state, rng):
                        _try(state, text, seat, found)
                try:
                    match.next_hand()
                except ValueError as e:
                    found.setdefault(str(e), "next_hand")
                legal = state.legal_moves()
                # Prefer asking and answering, and melding, so that those positions come up.
                special = [m for m in legal if m.kind in ("ask", "yes")]
                match.apply(rng.choice(special if special and rng.random() < 0.7 else legal))
            if state.result is not None:
                _try(state, "draw", None, found)
                _try(state, "discard 4S", None, found)


_OUTCOMES = tuple(
    getattr(pytest, name).Exception for name in ("fail", "skip", "xfail", "exit"))


def _calls(fn: Callable[..., Any]) -> Iterator[dict[str, Any]]:
    """The arguments of each case of a test function from its parametrize marks."""
    axes: list[list[dict[str, Any]]] = []
    for mark in getattr(fn, "pytestmark", []):
        if mark.name != "parametrize":
            continue
        names, values = mark.args[0], mark.args[1]
        if isinstance(names, str):
            names = [n.strip() for n in names.split(",")]
        cases = []
        for v in values:
            v = getattr(v, "values", v)  # pytest.param(...)
            row = v if len(names) > 1 else (v[0] if isinstance(v, tuple) and len(v) == 1
                                             else v,)
            cases.append(dict(zip(names, row, strict=True)))
        axes.append(cases)
    for combo in itertools.product(*axes):
        kwargs: dict[str, Any] = {}
        for part in combo:
            kwargs.update(part)
        yield kwargs


def _rules_tests() -> None:
    """Run the rules tests of every variant: their refused moves raise real messages."""
    for name in ("test_rules_classic", "test_rules_modern_american", "test_rules_ponytail"):
        module = importlib.import_module(name)
        for attr, fn in vars(module).items():
            if not attr.startswith("test_") or not callable(fn):
                continue
            params = set(inspect.signature(fn).parameters)
            for kwargs in _calls(fn):
                if params != set(kwargs):
                    break  # a fixture this harvest does not provide
                try:
                    fn(**kwargs)
                except (Exception, *_OUTCOMES):
                    pass  # failing rules tests are reported by their own run


def _scenarios() -> None:
    from canasta.scenario import run_scenario

    for folder in (ROOT / "tests" / "scenarios", SHARED / "scenarios"):
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            for sc in data if isinstance(data, list) else [data]:
                with contextlib.suppress(CanastaError):
                    run_scenario(sc)


@pytest.fixture(scope="module")
def engine_messages() -> dict[str, str]:
    """Every distinct message of a CanastaError the engine made during the harvest (the ones
    caught inside the engine too), with where it came from."""
    found: dict[str, str] = {}
    source = ["?"]
    original = CanastaError.__init__

    def recording_init(self: CanastaError, *args: Any, **params: Any) -> None:
        original(self, *args, **params)
        found.setdefault(str(self), source[0])

    mp = pytest.MonkeyPatch()
    mp.setattr(CanastaError, "__init__", recording_init)
    try:
        source[0] = "random games"
        _random_games(found)
        source[0] = "rules tests"
        _rules_tests()
        source[0] = "scenarios"
        _scenarios()
    finally:
        mp.undo()
    return found


def test_engine_messages_all_come_out_in_spanish(engine_messages: dict[str, str]) -> None:
    untranslated = sorted(m for m in engine_messages if translate(m, "es") == m)
    assert untranslated == []
    leftovers = {m: english_left(translate(m, "es")) for m in engine_messages}
    assert {m: w for m, w in leftovers.items() if w} == {}
    entries = {find_entry(m) for m in engine_messages}
    print(f"\n{len(engine_messages)} distinct engine messages, "
          f"{len(entries)} of {len(CATALOGUE)} catalogue entries")
    assert len(engine_messages) >= 150
    assert len(entries) >= 60
