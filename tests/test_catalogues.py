"""The message catalogues (src/canasta/locale/*.po) against the refusal codes and each other.

Every refusal code has its text in every language with the same placeholders; sample
parameters of the kind each placeholder names render without card notation and with numbers
grouped the language's way; and the refusals the engine really gives -- collected from random
games of every variant where illegal and malformed moves are tried at many positions, and from
the rule scenarios -- all come out in Spanish without notation or English words.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import shutil
import string
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

from canasta.cards import ALL_CARDS, BLACK_THREE, Card, card
from canasta.engine.state import HandState
from canasta.errors import CanastaError, IllegalMove, PositionError, Refusal
from canasta.i18n import LANGS, LOCALE, catalogue, entries, format_number, read_po, render
from canasta.match import Match
from canasta.records import replay
from canasta.refusals import KINDS, REFUSALS, UNCODED
from canasta.rules import Rules

from conftest import ROOT, SHARED
from test_records import _broken

#: Refusals that teach the notation itself: their examples are moves as the player types them.
TEACH_NOTATION = {code for code in REFUSALS if code.startswith("notation.")} | {"web.move_text"}
#: A card in the notation (KD, 10H, TC, JK) or a plural rank as the notation's English says it.
CARD_NOTATION = re.compile(r"\b(?:[AKQJT2-9]|10)[CDHS]\b|\bJK\b")
#: English words a Spanish text must not hold (outside quotes: the player's own text).
ENGLISH = {"the", "you", "your", "with", "must", "may", "cannot", "card", "cards", "pile",
           "stock", "side", "wild", "going", "is", "are", "have", "and", "to", "only", "never",
           "of", "on", "from", "for", "after", "before", "this", "when", "which", "them", "it",
           "its", "need", "needs", "meld", "melds", "hand", "go", "out", "take", "draw", "kings",
           "queens", "aces", "jacks", "mixed"}
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def english_left(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", _QUOTED.sub(" ", text).lower()) if w in ENGLISH}


def test_both_catalogues_hold_the_same_entries_from_the_same_english() -> None:
    en, es = entries("en"), entries("es")
    assert set(en) == set(es)
    assert {k: v[0] for k, v in en.items()} == {k: v[0] for k, v in es.items()}


@pytest.mark.parametrize("lang", LANGS)
def test_every_refusal_code_has_its_text_with_the_same_placeholders(lang: str) -> None:
    cat = entries(lang)
    for code, template in REFUSALS.items():
        source, text = cat[f"refusal.{code}"]
        assert source == template, code  # the msgid is the engine's English template
        assert text, f"{code} is not translated into {lang}"
        assert placeholders(text) == placeholders(source), code
    for key, (source, text) in cat.items():  # the client's texts and the words too
        assert placeholders(text or source) == placeholders(source), key


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext is not installed")
@pytest.mark.parametrize("lang", LANGS)
def test_gettext_itself_accepts_the_catalogue(lang: str) -> None:
    """(msgfmt --check: the syntax, and python-brace-format placeholders as translators' tools
    check them)"""
    done = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(LOCALE / f"{lang}.po")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_the_reader_reads_continued_and_escaped_strings() -> None:
    po = ('# a comment\nmsgid ""\nmsgstr "Language: es\\n"\n\n#, python-brace-format\n'
          'msgctxt "a.b"\nmsgid "say \\"{x}\\"\\n"\n"again"\nmsgstr ""\n"dilo "\n"{x}"\n')
    assert read_po(po) == {"a.b": ('say "{x}"\nagain', "dilo {x}")}
    with pytest.raises(ValueError, match="no msgctxt"):
        read_po('msgid "x"\nmsgstr "y"\n')
    with pytest.raises(ValueError, match="twice"):
        read_po('msgctxt "k"\nmsgid "x"\nmsgstr ""\n\nmsgctxt "k"\nmsgid "y"\nmsgstr ""\n')


SAMPLES: dict[str, Any] = {
    "card": card("KD"), "cards": (card("5H"), card("JK"), card("TC")), "rank": "Q",
    "kinds": ("natural", "mixed", "sevens"), "reason": IllegalMove("discard.red_three"),
    "quoted": "'xyz'", "variant": "modern-american", "numbers": (2, 3, 4),
    "place": PositionError("place.deal", hand=3),
}


def sample_params(code: str) -> dict[str, Any]:
    """A parameter for each placeholder of ``code``'s template, of the kind its name says."""
    out: dict[str, Any] = {}
    for name in placeholders(REFUSALS[code]):
        name = "rank" if name.startswith("rank_") else name
        kind = KINDS.get(name, "number")
        out[name] = 5000 if kind == "number" else SAMPLES["card" if kind == "card" else
                                                          name if name in SAMPLES else kind]
    return out


CODES = sorted(REFUSALS)


@pytest.mark.parametrize("code", CODES)
def test_a_refusal_in_each_language_shows_no_notation_and_groups_its_numbers(code: str) -> None:
    e = CanastaError(code, **sample_params(code))
    for lang in LANGS:
        text = render(e, lang)
        assert "{" not in text and text[:1] == text[:1].upper(), text
        if code not in TEACH_NOTATION:
            assert not CARD_NOTATION.search(text), text
        if "5000" in str(e):
            assert format_number(5000, lang) in text and "5000" not in text
    spanish = render(e, "es")
    assert spanish != render(e, "en")
    if code not in TEACH_NOTATION:  # (the moves' verbs are the notation's English)
        assert english_left(spanish) == set(), spanish


def test_cards_ranks_and_numbers_as_each_language_writes_them() -> None:
    e = IllegalMove("pile.show_rank", rank="Q", top=card("QD"), card=card("TH"))
    assert render(e, "en") == ("To take the pile, show queens or wild cards to meld with the "
                               "Q♦ on top; 10♥ does not go with them")
    assert render(e, "es") == ("Para tomar el pozo, enseña damas o comodines para bajarlos con "
                               "el Q♦ de encima; 10♥ no sirve para eso")
    held = IllegalMove("hand.not_held", cards=(card("5H"), card("JK")))
    assert render(held, "es") == "No tienes 5♥ y Joker en la mano"
    assert render(IllegalMove("meld.one_per_rank", rank="J"), "es") == (
        "Una sola combinación por valor: pon todas tus jotas en un mismo grupo")
    assert render(IllegalMove("pile.need_pair_or_meld", rank="K"), "es") == (
        "Para tomar el pozo necesitas dos reyes naturales, o uno y un comodín, o una "
        "combinación de reyes en la mesa")
    points = IllegalMove("meld.initial_points", need=1500, total=15)
    assert render(points, "es") == ("La primera bajada de tu equipo necesita 1.500 puntos; "
                                    "estas cartas suman 15")
    assert render(points, "en") == ("Your side's initial meld needs 1,500 points; these cards "
                                    "count 15")
    assert str(points) == "your side's initial meld needs 1500 points; these cards count 15"
    kinds = IllegalMove("out.canasta_kinds", kinds=("mixed",))
    assert render(kinds, "es").startswith("Para cerrar, a tu equipo le falta una canasta sucia")
    nested = IllegalMove("meld.out_then_discard", reason=IllegalMove("discard.wild"))
    assert render(nested, "es") == ("Después de esta combinación no podrías cerrar: un comodín "
                                    "solo se puede descartar al cerrar, o si en tu mano solo "
                                    "hay comodines")


def test_a_text_without_a_code_is_shown_as_it_is_in_every_language() -> None:
    e = CanastaError("hand of seat 1: too many cards")
    assert e.code == UNCODED
    assert render(e, "es") == render(e, "en") == "Hand of seat 1: too many cards"


def test_an_unknown_language_is_an_error() -> None:
    with pytest.raises(ValueError, match="language"):
        catalogue("fr")


# ----------------------------------------------------------------------------------------
# The refusals the engine really gives

CONFIGS = [("classic", 2), ("classic", 4), ("modern-american", 4), ("ponytail", 4),
           ("ponytail", 6)]
SEEDS = 3
MAX_MOVES = 300

GARBAGE = ["", "fold", "draw 4S", "take /", "meld", "meld 4S /", "add", "add 7", "add X 7C",
           "add W 2C", "discard", "discard 4S 5S", "discard ZZ", "pass now", "help",
           "meld JK JK JK", "meld 3H", "meld 3C 3S 3C", "discard 3H", "discard 3C", "take 3C 3S"]


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
    yield "draw", rng.choice([s for s in range(state.rules.players) if s != seat])

    def some(pool: list[Card], lo: int, hi: int) -> list[Card]:
        return rng.sample(pool, min(len(pool), rng.randint(lo, hi)))

    for _ in range(2):
        groups = [some(hand, 1, 5) for _ in range(rng.randint(1, 3))]
        yield "meld " + " / ".join(_texts(g) for g in groups if g), None
    for _ in range(3):
        if naturals:
            r = rng.choice(naturals).rank
            same = [c for c in hand if c.rank == r]
            yield f"meld {_texts(some(same, 1, 4) + some(wilds, 0, 4))}", None
    for m in state.melds[state.side_of(seat)]:
        same = [c for c in hand if c.rank == m.rank]
        yield f"add {m.rank} {_texts(some(same, 0, 3) + some(wilds, 0, 3) or hand[:1])}", None
    yield f"add {rng.choice('AKQJT98765W')} {_texts(some(hand, 1, 3))}", None
    top = state.pile_top
    if top is not None:
        same = [c for c in hand if c.rank == top.rank]
        yield f"take {_texts(some(same, 0, 3) + some(wilds, 0, 2))}", None
        yield f"take {_texts(some(same, 1, 2) or hand[:1])} / {_texts(some(hand, 2, 4))}", None
        blacks = [c for c in hand if c.kind == BLACK_THREE]
        if blacks:
            yield f"take {_texts(same[:2])} / {_texts(blacks)}", None
    for c in some(hand, 2, 3):
        yield f"discard {c.text}", None
    yield f"discard {rng.choice(ALL_CARDS).text}", None


def harvest() -> dict[tuple[str, str], CanastaError]:
    found: dict[tuple[str, str], CanastaError] = {}

    def attempt(state: HandState, text: str, seat: int | None) -> None:
        try:
            state.check(text, seat)
        except CanastaError as e:
            found.setdefault((e.code, str(e)), e)

    for variant, players in CONFIGS:
        for seed in range(SEEDS):
            rng = random.Random(f"{variant}/{players}/{seed}")
            match = Match(Rules.make(variant, players), seed)
            state = match.state
            for _ in range(MAX_MOVES):
                if state.result is not None:
                    break
                for text, seat in _attempts(state, rng):
                    attempt(state, text, seat)
                legal = state.legal_moves()
                special = [m for m in legal if m.kind in ("ask", "yes")]
                match.apply(rng.choice(special if special and rng.random() < 0.7 else legal))
    from canasta.scenario import run_scenario

    for folder in (ROOT / "tests" / "scenarios", SHARED / "scenarios"):
        for path in sorted(folder.rglob("*.json")) if folder.is_dir() else ():
            data = json.loads(path.read_text(encoding="utf-8"))
            for sc in data if isinstance(data, list) else [data]:
                with contextlib.suppress(CanastaError):
                    for e in _scenario_refusals(run_scenario, sc):
                        found.setdefault((e.code, str(e)), e)
    return found


def _scenario_refusals(run: Any, sc: dict[str, Any]) -> list[CanastaError]:
    """The refusals a scenario's run raises inside the engine (its illegal moves)."""
    seen: list[CanastaError] = []
    original, error = CanastaError.__init__, Refusal.error

    def recording(self: CanastaError, *args: Any, **params: Any) -> None:
        original(self, *args, **params)
        seen.append(self)

    def recording_error(self: Refusal) -> IllegalMove:  # (a variant's refusal, raised)
        e = error(self)
        seen.append(e)
        return e

    mp = pytest.MonkeyPatch()
    mp.setattr(CanastaError, "__init__", recording)
    mp.setattr(Refusal, "error", recording_error)
    try:
        with contextlib.suppress(Exception):
            run(sc)
    finally:
        mp.undo()
    return [e for e in seen if e.code != UNCODED]


@pytest.fixture(scope="module")
def refusals() -> dict[tuple[str, str], CanastaError]:
    return harvest()


def test_the_refusals_the_engine_gives_all_come_out_in_spanish(
        refusals: dict[tuple[str, str], CanastaError]) -> None:
    assert all(e.code in REFUSALS for e in refusals.values())  # nothing uncoded
    bad = {}
    for e in refusals.values():
        spanish = render(e, "es")
        leaks = english_left(spanish) if e.code not in TEACH_NOTATION else set()
        if e.code not in TEACH_NOTATION and CARD_NOTATION.search(spanish):
            leaks.add(CARD_NOTATION.search(spanish).group(0))  # type: ignore[union-attr]
        if leaks:
            bad[str(e)] = (spanish, leaks)
    assert bad == {}
    codes = {e.code for e in refusals.values()}
    print(f"\n{len(refusals)} distinct refusals, {len(codes)} of {len(REFUSALS)} codes")
    assert len(codes) >= 50


@pytest.mark.parametrize("change", [
    lambda r: r.update(format="chess"),
    lambda r: r.update(version=99),
    lambda r: r.pop("seed"),
    lambda r: r["rules"].update(variant="poker"),
    lambda r: r["rules"].update(players=5),
    lambda r: r["rules"].update(players="2"),
    lambda r: r["rules"]["options"].update(wild_ratio="any"),
    lambda r: r.update(deals=[["KD", "ZZ"]]),
    lambda r: r["hands"][0]["moves"].insert(0, [0, "discard JK"]),
    lambda r: r["hands"][0]["moves"].insert(0, [0, "fly"]),
    lambda r: r["hands"][0]["moves"].insert(0, "draw"),
    lambda r: r["hands"][0]["result"].update(hand_score=[1, 2]),
    lambda r: r["hands"][0]["result"]["breakdown"][0].update(melded=1),
    lambda r: r["hands"][0]["result"].update(concealed=None),
    lambda r: r.update(scores=[1, 2]),
    lambda r: r.update(winner=0),
])
def test_a_saved_game_that_cannot_be_read_says_why_in_spanish(change: Any) -> None:
    """What the browser shows for a stored game whose record does not replay: every part of
    the reason is worded in the player's language (the record's own texts quoted)."""
    with pytest.raises(PositionError) as raised:
        replay(_broken(change))
    assert raised.value.code != UNCODED
    shown = render(CanastaError("web.unreadable", reason=raised.value), "es")
    assert shown.startswith("Esta partida guardada no se puede leer: ")
    codes, e = [], raised.value
    while isinstance(e, CanastaError):
        codes.append(e.code)
        e = e.params.get("reason") or e.params.get("where")
    if not TEACH_NOTATION & set(codes):  # (a record's text not in the notation: it teaches it)
        assert english_left(shown) == set(), shown
        assert not CARD_NOTATION.search(_QUOTED.sub(" ", shown)), shown
