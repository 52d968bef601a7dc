"""The terminal game in each language: its Spanish letters for cards (canasta.letters), its
language from the locale, and a scripted Spanish session that shows no English."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from canasta.cards import ALL_CARDS, card
from canasta.engine.scoring import HandResult
from canasta.errors import CanastaError, NotationError
from canasta.i18n import catalogue, render
from canasta.letters import MOVE_VERBS_ES, card_text, move_text, read_move
from canasta.moves import Move, parse_move
from canasta.rules import Rules
from canasta.textplay import (
    default_lang,
    help_text,
    how_it_ended,
    play_text,
    score_sheet,
    seat_names,
    table_options,
)


def test_every_card_reads_back_from_its_spanish_letters_and_no_two_share_them() -> None:
    texts = {c.text: card_text(c, "es") for c in ALL_CARDS}
    assert len(set(texts.values())) == len(set(texts))  # (the decks' copies share a text)
    for english, spanish in texts.items():
        assert read_move(f"discard {spanish}", "es") == f"discard {english}"
        assert read_move(f"descartar {spanish.lower()}", "es") == f"discard {english}"
    assert {texts[t] for t in ("KH", "QD", "JS", "TC", "AS", "2D", "3H", "JK")} == {
        "RC", "DD", "JP", "10T", "AP", "2D", "3C", "JK"}


@pytest.mark.parametrize(("typed", "notation"), [
    ("robar", "draw"), ("tomar", "take"), ("tomar 7C 7P", "take 7H 7S"),
    ("tomar RD RC / 7P 7D 7T", "take KD KH / 7S 7D 7C"),
    ("bajar RC RD RT/9P 9D 2T", "meld KH KD KC / 9S 9D 2C"),
    ("añadir 9 9T 2D", "add 9 9C 2D"), ("anadir R RC", "add K KH"),
    ("añadir W 2T JK", "add W 2C JK"),
    ("añadir 10 10P", "add T TS"), ("pasar", "pass"), ("preguntar", "ask"), ("sí", "yes"),
    ("si", "yes"), ("no", "no"), ("ayuda", "help"), ("puntos", "score"), ("salir", "quit"),
    ("discard 4P", "discard 4S"),  # the notation's verbs are read too
])
def test_spanish_input_in_the_notation(typed: str, notation: str) -> None:
    assert read_move(typed, "es") == notation


@pytest.mark.parametrize(("typed", "code"), [
    ("descartar KH", "notation.card_es"),  # K is no Spanish rank
    ("descartar 7H", "notation.card_es"),  # nor H a Spanish suit
    ("bajar 9S 9D 9P", "notation.card_es"),
    ("tomar TC", "notation.card_es"),  # T is tréboles: the ten is 10
    ("añadir K RC", "notation.meld_rank_es"), ("añadir 2 2T", "notation.meld_rank_es"),
])
def test_english_letters_are_refused_in_spanish_rather_than_guessed(typed: str,
                                                                    code: str) -> None:
    with pytest.raises(NotationError) as e:
        read_move(typed, "es")
    assert e.value.code == code


@pytest.mark.parametrize("typed", ["robar 4C", "pasar x", "preguntar x", "sí x", "Si x",
                                   "no x", "draw 4C"])
def test_a_verb_that_takes_nothing_is_named_as_the_player_typed_it(typed: str) -> None:
    with pytest.raises(NotationError) as e:
        read_move(typed, "es")
    assert e.value.code == "notation.nothing_after"
    assert render(e.value, "es") == f"'{typed.split()[0].lower()}' no lleva nada detrás"


def test_read_move_refuses_after_a_verb_exactly_what_parse_move_would() -> None:
    for verb, spanish in MOVE_VERBS_ES.items():
        try:
            parse_move(f"{verb} 4S")
        except NotationError as e:
            alone = e.code == "notation.nothing_after"
        else:
            alone = False
        try:
            read_move(f"{spanish} 4P", "es")
        except NotationError as e:
            refused = e.code == "notation.nothing_after"
            assert not refused or e.params == {"verb": spanish}, spanish
        else:
            refused = False
        assert refused == alone, spanish


def test_english_input_is_left_to_the_notation() -> None:
    assert read_move("bajar RC RD", "en") == "bajar RC RD"  # (parse_move refuses it)
    assert read_move("meld KH KD KC", "en") == "meld KH KD KC"


def test_moves_are_shown_in_the_letters_they_are_typed_in() -> None:
    for text in ("take KD KH / 7S 7D 7C", "add K KH JK", "add W 2C JK", "discard TC", "draw",
                 "yes", "ask"):
        move = parse_move(text)
        assert move_text(move, "en") == str(move)
        assert parse_move(read_move(move_text(move, "es"), "es")) == move
    assert move_text(Move.discard(card("QD")), "es") == "descartar DD"
    assert move_text(parse_move("add K KH JK"), "es") == "añadir R RC JK"


@pytest.mark.parametrize(("environ", "lang"), [
    ({}, "en"), ({"LANG": "es_ES.UTF-8"}, "es"), ({"LANG": "es"}, "es"),
    ({"LANG": "en_GB.UTF-8"}, "en"), ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "es_AR.UTF-8", "LC_ALL": "en_US.UTF-8"}, "en"),  # LC_ALL comes first
    ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "es_MX.UTF-8"}, "es"),
    ({"LC_ALL": "", "LANG": "es_ES.UTF-8"}, "es"),  # an empty variable is not set
])
def test_the_language_comes_from_the_locale(environ: dict[str, str], lang: str) -> None:
    assert default_lang(environ) == lang


def session(lines: list[str], lang: str) -> str:
    """The terminal's output for the typed ``lines`` (seed 1, two players)."""
    out: list[str] = []
    feed: Iterator[str] = iter(lines)

    def read(prompt: str) -> str:
        out.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    assert play_text(Rules.make("classic", 2), seed=1, read=read, write=out.append,
                     lang=lang) == 0
    return "\n".join(out)


ENGLISH_WORDS = re.compile(r"\b(?:the|you|your|hand|pile|stock|not|meld|cards?|side|draw|"
                           r"take|discard|score|target|players?|turn)\b")


def test_a_spanish_session_shows_no_english_and_no_english_card_letters() -> None:
    out = session(["descartar 4P", "robar", "bajar RT RT", "descartar 9T", "puntos", "ayuda"],
                  "es")
    assert "Jugadas posibles ahora: robar" in out
    assert "Tu mano (15): AT DT DC DP JT 10T 9T 9T 8T 7T 7P 6P 5T JK 3T" in out
    assert "No se puede: no tienes RT y RT en la mano" in out  # the refusal in the letters too
    assert "Rival: roba" in out or "Rival: toma el pozo" in out  # the computer's moves
    hands = re.findall(r"Tu mano \(\d+\): (.*)", out)
    assert hands and all(read_move(f"discard {c}", "es") for h in hands for c in h.split())
    # Not a word of English (but in the help, which names the notation's verbs too).
    help_es = help_text(Rules.make("classic", 2), "es")
    assert help_es in out
    assert ENGLISH_WORDS.findall(out.replace(help_es, "").lower()) == []


def test_an_english_session_reads_as_before() -> None:
    out = session(["help", "discard 4S", "draw", "score"], "en")
    assert "Hand 1 - Classic Canasta, 2 players, target 5,000 - scores: You 0, Opponent 0" in out
    assert "Your hand (15): AC QC QH QS JC TC 9C 9C 8C 7C 7S 6S 5C JK 3C" in out
    assert "Not possible: begin your turn: draw from the stock or take the pile" in out
    assert "Legal now: draw" in out and "You drew:" in out


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="--lang"):
        play_text(Rules.make("classic", 2), seed=1, lang="fr", read=input, write=print)


@pytest.mark.parametrize(("variant", "players", "en", "es"), [
    ("classic", 4, "Red threes", "Treses rojos"),
    ("ponytail", 4, "Red threes", "Treses rojos"),
    ("modern-american", 4, "Threes", "Treses"),  # every three counts there, as the client says
])
def test_the_score_sheet_names_the_threes_as_the_variant_counts_them(
        variant: str, players: int, en: str, es: str) -> None:
    rules = Rules.make(variant, players)
    part = {"melded": 120, "canastas": 300, "threes": 100, "going_out": 100, "in_hand": -5,
            "penalties": 0, "total": 615}
    result = HandResult(0, False, (part, dict(part)))
    for lang, label in (("en", en), ("es", es)):
        rows = score_sheet(result, rules, 0, [615, 615], lang).splitlines()
        assert re.fullmatch(rf"{label} +100 +100", rows[4]), rows  # (after the melds' rows)


@pytest.mark.parametrize(("went_out", "concealed", "en", "es"), [
    (0, False, "The hand is over: you went out.", "La mano ha terminado: has cerrado."),
    (0, True, "The hand is over: you went out concealed.",
     "La mano ha terminado: has cerrado de mano."),
    (1, False, "The hand is over: Left went out.", "La mano ha terminado: Izquierda cerró."),
    (2, True, "The hand is over: Partner went out concealed.",
     "La mano ha terminado: Compañero cerró de mano."),
    (None, False, "The hand is over: the stock ran out.",
     "La mano ha terminado: se agotó el mazo."),
])
def test_the_players_own_going_out_is_told_in_the_second_person(
        went_out: int | None, concealed: bool, en: str, es: str) -> None:
    rules = Rules.make("classic", 4)
    result = HandResult(went_out, concealed)
    for lang, expected in (("en", en), ("es", es)):
        how = how_it_ended(result, 0, seat_names(rules, 0, lang), lang)
        assert catalogue(lang)["text.hand_over"].format(how=how) == expected


@pytest.mark.parametrize(("variant", "players", "draws", "passes"), [
    ("classic", 4, 1, True), ("classic", 3, 2, True), ("classic", 2, 2, True),
    ("ponytail", 4, 2, True), ("ponytail", 6, 2, True),
    ("modern-american", 4, 1, False),  # (the hand ends when the stock runs out)
])
def test_the_help_says_what_a_draw_takes_and_whether_pass_is_a_move_at_this_table(
        variant: str, players: int, draws: int, passes: bool) -> None:
    rules = Rules.make(variant, players)
    assert rules.draws == draws
    english, spanish = help_text(rules, "en"), help_text(rules, "es")
    number = {1: ("one card", "una carta"), 2: ("two cards", "dos cartas")}[draws]
    assert f"  draw                      take {number[0]} from the stock\n" in english
    assert f"  robar                       roba {number[1]} del mazo (o: draw)\n" in spanish
    assert ("  pass                      once the stock is exhausted, leave the pile and end the "
            "hand\n" in english) == passes
    assert ("  pasar                       con el mazo agotado, deja el pozo y termina la mano "
            "(pass)\n" in spanish) == passes
    assert "Classic" not in english and "clásica" not in spanish
    # "May I go out?" is asked of a partner, whom a table of two or three has not.
    partner = players >= 4
    assert ('  ask                       ask your partner "may I go out?"; yes / no answer a '
            'question\n' in english) == partner
    assert ("  preguntar                   pregunta a tu compañero «¿puedo cerrar?»; sí / no "
            "responden (ask)\n" in spanish) == partner
    assert ("there is no partner to ask" in english) == (not partner)
    assert ("no tienes compañero a quien preguntar" in spanish) == (not partner)


def test_the_table_options_are_named_as_the_browser_names_them() -> None:
    classic = Rules.make("classic", 4, table_penalties_mode=True, wild_ratio="not-more-wilds")
    assert table_options(classic, "en") == [
        "Wild cards in a meld: No more than the natural cards",
        "Initial meld below the minimum: Allowed, with a 100-point penalty"]
    assert table_options(classic, "es") == [
        "Comodines en una combinación: No más que las cartas naturales",
        "Primera bajada por debajo del mínimo: Se permite, con 100 puntos de multa"]
    ponytail = Rules.make("ponytail", 4, cut_bonus=1.0, count_unpicked_ponytails=True)
    # (cut_bonus, a chance rather than a choice, has no name in the catalogue: kept as it is)
    assert table_options(ponytail, "es") == [
        "cut_bonus=1.0", "Colas de caballo no recogidas: Cuentan en contra del equipo"]
    assert table_options(Rules.make("ponytail", 4), "es") == []


@pytest.mark.parametrize(("where", "en", "es"), [
    ("none/game.json", "the folder {tmp}/none does not exist", "la carpeta {tmp}/none no existe"),
    ("", "it is a folder", "es una carpeta"),
])
def test_a_record_that_cannot_be_saved_is_refused_before_the_game(
        tmp_path: Path, where: str, en: str, es: str) -> None:
    save = str(tmp_path / where) if where else str(tmp_path)

    def read(prompt: str) -> str:
        raise AssertionError("the game began")

    for lang, reason in (("en", en), ("es", es)):
        start = {"en": "cannot save the game to", "es": "no se puede guardar la partida en"}
        with pytest.raises(CanastaError) as e:
            play_text(Rules.make("classic", 2), seed=1, save=save, read=read,
                      write=lambda line: None, lang=lang)
        assert str(e.value) == f"{start[lang]} {save}: {reason.format(tmp=tmp_path)}"


def test_a_record_that_fails_at_the_end_is_told_not_a_traceback(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    for lang, said in (("en", "The game record could not be written to {save}: the folder "
                              "{folder} does not exist."),
                       ("es", "No se pudo guardar el registro de la partida en {save}: la "
                              "carpeta {folder} no existe.")):
        folder.mkdir()
        save = str(folder / "game.json")
        out: list[str] = []

        def read(prompt: str) -> str:
            shutil.rmtree(folder)  # (gone during the game)
            raise EOFError

        assert play_text(Rules.make("classic", 2), seed=1, save=save, read=read,
                         write=out.append, lang=lang) == 1
        assert out[-1] == said.format(save=save, folder=folder)
