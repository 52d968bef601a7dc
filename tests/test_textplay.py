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
from canasta.errors import CanastaError, IllegalMove, NotationError
from canasta.i18n import catalogue, render
from canasta.letters import MOVE_VERBS_ES, card_text, move_text, read_move
from canasta.moves import Move, parse_move
from canasta.position import position_from_json
from canasta.rules import Rules
from canasta.textlog import narrate, wrap
from canasta.textplay import (
    default_lang,
    help_text,
    how_it_ended,
    log_names,
    play_text,
    score_sheet,
    seat_names,
    table_options,
)
from canasta.textplay import render as table_display
from canasta.view import view_of


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


def session(lines: list[str], lang: str, width: int | None = 80, players: int = 2,
            **options: object) -> str:
    """The terminal's output for the typed ``lines`` (seed 1, Classic for two players unless
    said), ``width`` columns wide."""
    out: list[str] = []
    feed: Iterator[str] = iter(lines)

    def read(prompt: str) -> str:
        out.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    assert play_text(Rules.make("classic", players, **options), seed=1, read=read,
                     write=out.append, lang=lang, width=width) == 0
    return "\n".join(out)


ENGLISH_WORDS = re.compile(r"\b(?:the|you|your|hand|pile|stock|not|meld|cards?|side|draw|"
                           r"take|discard|score|target|players?|turn)\b")


def test_a_spanish_session_shows_no_english_and_no_english_card_letters() -> None:
    out = session(["descartar 4P", "robar", "bajar RT RT", "descartar 9T", "puntos", "ayuda"],
                  "es")
    assert "Jugadas posibles ahora: robar" in out
    assert "Tu mano (15): AT DT DC DP JT 10T 9T 9T 8T 7T 7P 6P 5T JK 3T" in out
    assert "No se puede: no tienes RT y RT en la mano" in out  # the refusal in the letters too
    assert "Rival roba del mazo." in out or "Rival toma el pozo" in out  # the computer's moves
    hands = re.findall(r"Tu mano \(\d+\): (.*)", out)
    assert hands and all(read_move(f"discard {c}", "es") for h in hands for c in h.split())
    # Not a word of English (but in the help, which names the notation's verbs too).
    help_es = wrap(help_text(Rules.make("classic", 2), "es"), 80)
    assert help_es in out
    assert ENGLISH_WORDS.findall(out.replace(help_es, "").lower()) == []


def test_an_english_session_reads_as_before() -> None:
    out = session(["help", "discard 4S", "draw", "score"], "en")
    assert "Hand 1 - Classic Canasta, 2 players, target 5,000 - scores: You 0, Opponent 0" in out
    assert "Your hand (15): AC QC QH QS JC TC 9C 9C 8C 7C 7S 6S 5C JK 3C" in out
    assert "Not possible: begin your turn: draw from the stock or take the pile" in out
    assert "Legal now: draw" in out and "You draw from the stock: " in out


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
                         write=out.append, lang=lang, width=1000) == 1
        assert out[-1] == said.format(save=save, folder=folder)


# --- the move log: every kind of move in words, in both languages ----------------------------
def told(obj: dict[str, object], moves: list[str], lang: str) -> str:
    """The log's line for the last of ``moves``, played from the position ``obj`` (each by the
    seat to act), as seat 0 is told it."""
    state = position_from_json(obj)
    *first, last = moves
    for move in first:
        state.apply(move, state.to_move())
    seat = state.to_move()
    before = view_of(state, 0)
    played = state.apply(last, seat)
    return narrate(before, view_of(state, 0), seat, played, log_names(state.rules, 0, lang),
                   lang)


def classic(**fields: object) -> dict[str, object]:
    """A four-player Classic position: seat 0 (you) to draw, nobody has melded."""
    return {"variant": "classic", "players": 4, "scores": [0, 0], "turn": 0, "phase": "draw",
            "hands": [["4S", "5D", "6C"], ["4C", "5C"], ["4D", "5H"], ["6D", "6H"]],
            "melds": [[], []], "threes": [[], []], "discard": ["8S"],
            "stock": ["8C", "8D", "TC", "TD"], **fields}


QUEENS = ["QC", "QD", "QH", "QS", "QC", "QD", "QH"]  # (a canasta: the side may go out)
KINGS = [["KH", "KC", "KS"]]
#: Seat 0 (you) may go out after drawing: its partner, seat 2, is asked (rules_classic's case).
ASKING = classic(hands=[["8C", "8D", "8H"], ["TC", "TD"], ["QC", "QD", "QH"], ["6C", "6D"]],
                 melds=[[["KS", "KH", "KD", "KC", "KS", "KH", "KD"]], [["9S", "9H", "9D"]]],
                 discard=["4C"], stock=["5C", "JD", "4H", "AS"])
TAIL = ["4C", "4D", "4H", "5C", "5D", "5H", "6C", "6D", "6H", "8C", "8D", "8H", "9C"]


@pytest.mark.parametrize(("position", "moves", "en", "es"), [
    # draw: a computer player's without its cards, the player's own with them; threes laid
    (classic(turn=1), ["draw"], "Left draws from the stock.", "Izquierda roba del mazo."),
    (classic(turn=1, stock=["3D", "3H", "8C", "TD"]), ["draw"],
     "Left draws from the stock. Left lays down 3♥ and 3♦.",
     "Izquierda roba del mazo. Izquierda pone 3♥ y 3♦ sobre la mesa."),
    (classic(stock=["3H", "8C", "9D"]), ["draw"],
     "You draw from the stock: 8♣. You lay down 3♥.",
     "Tú robas del mazo: 8♣. Tú pones 3♥ sobre la mesa."),
    # take: the top card with cards of the hand, onto a meld, with more melds
    (classic(turn=2, hands=[["4S"], ["4C"], ["7H", "7S", "4D"], ["6D"]], melds=[KINGS, []],
             discard=["5C", "4H", "7D"]), ["take 7H 7S"],
     "Your partner takes the pile (3 cards) and melds the 7♦ on top with 7♥ 7♠.",
     "Tu compañero toma el pozo (3 cartas) y baja el 7♦ de encima con 7♥ 7♠."),
    (classic(turn=1, melds=[[], KINGS], discard=["5C", "KD"]), ["take"],
     "Left takes the pile (2 cards), putting the K♦ on the kings.",
     "Izquierda toma el pozo (2 cartas) y pone el K♦ en la combinación de reyes."),
    (classic(hands=[["KD", "KH", "AS", "AD", "AC", "5D", "6D"], ["4C"], ["4D"], ["6D"]],
             discard=["KC"]), ["take KD KH / AS AD AC"],
     "You take the pile (1 card), meld the K♣ on top with K♦ K♥, and meld A♣ A♦ A♠ too.",
     "Tú tomas el pozo (1 carta), bajas el K♣ de encima con K♦ K♥ y bajas también A♣ A♦ A♠."),
    # meld: several groups; add
    (classic(turn=3, phase="play",
             hands=[["4S"], ["4C"], ["4D"], ["9S", "9D", "9H", "KC", "KD", "KH", "4H", "5H"]]),
     ["meld 9S 9D 9H / KC KD KH"], "Right melds K♣ K♦ K♥ and 9♦ 9♥ 9♠.",
     "Derecha baja K♣ K♦ K♥ y 9♦ 9♥ 9♠."),
    (classic(turn=1, phase="play", hands=[["4S"], ["2C", "4C", "5C"], ["4D"], ["6D"]],
             melds=[[], KINGS]), ["add K 2C"],
     "Left adds 2♣ to the kings.", "Izquierda añade 2♣ a la combinación de reyes."),
    # discard, and the three ways of going out
    (classic(turn=2, phase="play"), ["discard 4D"],
     "Your partner discards the 4♦.", "Tu compañero descarta el 4♦."),
    (classic(phase="play", hands=[["4S"], ["4C"], ["4D"], ["6D"]], melds=[[QUEENS], []]),
     ["discard 4S"], "You discard the 4♠ and go out.", "Tú descartas el 4♠ y cierras."),
    (classic(phase="play", hands=[["9S", "9D", "9H"], ["4C"], ["4D"], ["6D"]],
             melds=[[QUEENS], []]), ["meld 9S 9D 9H"],
     "You meld 9♦ 9♥ 9♠ and go out.", "Tú bajas 9♦ 9♥ 9♠ y cierras."),
    (classic(phase="play", hands=[["QS"], ["4C"], ["4D"], ["6D"]], melds=[[QUEENS], []]),
     ["add Q QS"], "You add Q♠ to the queens and go out.",
     "Tú añades Q♠ a la combinación de damas y cierras."),
    # pass (the stock exhausted: rules_classic's case)
    (classic(turn=1, hands=[["9C"], ["JH", "JC", "4D"], ["5S", "5H"], ["AC"]],
             melds=[[QUEENS], [["TS", "TH", "TD"]]], discard=["8C", "JD"], stock=[]),
     ["pass"], "Left passes.", "Izquierda pasa."),
    # "may I go out?" and the answers, both ways
    (ASKING, ["draw", "ask"], "You ask: “Partner, may I go out?”",
     "Tú preguntas: «Compañero, ¿puedo cerrar?»"),
    (ASKING, ["draw", "ask", "no"], "Your partner answers: no.", "Tu compañero responde: no."),
    (ASKING, ["draw", "ask", "no", "discard 5C", "draw", "discard JD", "draw", "ask"],
     "Your partner asks: “Partner, may I go out?”",
     "Tu compañero pregunta: «Compañero, ¿puedo cerrar?»"),
    (ASKING, ["draw", "ask", "no", "discard 5C", "draw", "discard JD", "draw", "ask", "yes"],
     "You answer: yes.", "Tú respondes: sí."),
    # a penalty (table mode: an initial meld below the minimum is taken back)
    (classic(options={"table_penalties_mode": True}, turn=1, phase="play",
             hands=[["4S"], ["9C", "9C", "9D", "4C", "5C"], ["4D"], ["6D"]]),
     ["meld 9C 9C 9D"],
     "Left melds 9♣ 9♣ 9♦. Left's initial meld was below the minimum (50): taken back, 100 "
     "penalty points.",
     "Izquierda baja 9♣ 9♣ 9♦. Izquierda no llegaba al mínimo de la primera bajada (50): se "
     "deshace, con 100 puntos de multa."),
    (classic(options={"table_penalties_mode": True}, phase="play",
             hands=[["9C", "9C", "9D", "4C", "5C"], ["4S"], ["4D"], ["6D"]]),
     ["meld 9C 9C 9D"],
     "You meld 9♣ 9♣ 9♦. Your initial meld was below the minimum (50): taken back, 100 "
     "penalty points.",
     "Tú bajas 9♣ 9♣ 9♦. Tu primera bajada no llegaba al mínimo (50): se deshace, con 100 "
     "puntos de multa."),
    # Ponytail: the side's first canasta brings its ponytails (yours shown, your partner's not)
    ({"variant": "ponytail", "players": 4, "scores": [0, 0], "turn": 0, "phase": "play",
      "hands": [[*QUEENS, "JC"], ["JC"], ["5S"], ["6S"]], "melds": [[], [["KD", "KH", "KS"]]],
      "threes": [[], []], "discard": ["TS"], "stock": ["7C", "7D"],
      "ponytails": [TAIL, None, [*TAIL, "TC"], None]},
     ["meld " + " ".join(QUEENS)],
     "You meld Q♣ Q♣ Q♦ Q♦ Q♥ Q♥ Q♠. You pick up your ponytail: 9♣ 8♣ 8♦ 8♥ 6♣ 6♦ 6♥ 5♣ 5♦ "
     "5♥ 4♣ 4♦ 4♥. Your partner picks up their ponytail (14 cards).",
     "Tú bajas Q♣ Q♣ Q♦ Q♦ Q♥ Q♥ Q♠. Tú recoges tu cola de caballo: 9♣ 8♣ 8♦ 8♥ 6♣ 6♦ 6♥ 5♣ "
     "5♦ 5♥ 4♣ 4♦ 4♥. Tu compañero recoge su cola de caballo (14 cartas)."),
])
def test_every_kind_of_move_is_told_in_words_with_the_cards_as_players_write_them(
        position: dict[str, object], moves: list[str], en: str, es: str) -> None:
    assert told(position, moves, "en") == en
    assert told(position, moves, "es") == es


#: Seed 1 deals the player of two (seat 0) AC QC QH QS JC TC 9C 9C 8C 7C 7S 6S 5C JK 3C, and the
#: stock gives 6C JK, then AC 4H.
OPENING = "meld QC QH QS / 9C 9C JK"


def log_lines(out: str) -> list[str]:
    """The lines of the move log in a session's output (a move begins its line with the
    seat's name, or with the prompt the player answered)."""
    return [line.split("> ")[-1] for line in out.splitlines()
            if re.match(r"(?:.*> )?(?:You|Opponent|Tú|Rival) ", line)]


@pytest.mark.parametrize(("lang", "script", "expected"), [
    ("en", ["draw", OPENING, "discard 3C", "draw"], [
        "You draw from the stock: 6♣ Joker.", "You meld Q♣ Q♥ Q♠ and 9♣ 9♣ Joker.",
        "You discard the 3♣.", "You draw from the stock: A♣ 4♥."]),
    ("es", ["robar", "bajar DT DC DP / 9T 9T JK", "descartar 3T", "robar"], [
        "Tú robas del mazo: 6♣ Joker.", "Tú bajas Q♣ Q♥ Q♠ y 9♣ 9♣ Joker.",
        "Tú descartas el 3♣.", "Tú robas del mazo: A♣ 4♥."]),
])
def test_the_log_tells_every_move_in_words_not_in_the_notation(
        lang: str, script: list[str], expected: list[str]) -> None:
    out = session(script, lang, width=None if lang == "en" else 200)
    lines = log_lines(out)
    mine = [line for line in lines if line.startswith(("You ", "Tú "))]
    assert mine == expected
    theirs = [line for line in lines if line not in mine]
    # The computer's moves between the player's discard and draw, each a sentence in words.
    verbs = {"en": r"Opponent (?:draws|takes|melds|adds|discards|passes)",
             "es": r"Rival (?:roba|toma|baja|añade|descarta|pasa)"}[lang]
    assert theirs and all(re.fullmatch(verbs + r" .*\.", line) for line in theirs), theirs
    assert not re.search(r"^(?:Opponent|Rival): ", out, re.M)  # (the log of before: "Rival: roba")
    # The table display keeps the letters a player types, and sets melds apart.
    assert ("  You: QC QH QS · 9C 9C JK" if lang == "en" else "  Tú: DT DC DP · 9T 9T JK") in out


def test_the_table_display_sets_each_meld_apart() -> None:
    state = position_from_json(classic(melds=[[["KH", "KC", "KS"], ["9S", "9H", "2C"]],
                                              [QUEENS]]))
    shown = table_display(view_of(state, 0), 0, "en").splitlines()
    assert "  You & Partner: KC KH KS · 9H 9S 2C" in shown
    assert "  Left & Right: QC QC QD QD QH QH QS [canasta]" in shown


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_line_wraps_to_the_width_at_the_spaces_never_inside_a_word(lang: str) -> None:
    script = {"en": ["help", "draw", OPENING, "hint", "discard 3C", "score"],
              "es": ["ayuda", "robar", "bajar DT DC DP / 9T 9T JK", "pista", "descartar 3T",
                     "puntos"]}[lang]
    wide, narrow = session(script, lang, width=1000), session(script, lang, width=40)
    assert narrow.split() == wide.split()  # the same words, in the same order, none cut
    assert max(len(line) for line in wide.splitlines()) > 80
    long = [line for line in narrow.splitlines() if len(line) > 40]
    assert all(len(line.split()) == 1 for line in long), long  # (a word longer than 40 alone)
    # A move of the log and a row of the help go on indented under themselves.
    assert "\n  " in wrap(log_lines(wide)[1], 20)
    row = {"en": "  undo                      take back your last meld or addition of this turn",
           "es": "  deshacer                    retira lo último que has bajado o añadido en este "
                 "turno (undo)"}[lang]
    assert row in wide
    column = len(row) - len(row[28:].lstrip())
    assert all(line.startswith(" " * column) for line in wrap(row, 60).splitlines()[1:])


def test_the_width_is_the_terminals_when_none_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "40")  # (shutil.get_terminal_size reads it first)
    out = session(["help", "draw", OPENING], "en", width=None)
    assert all(len(line) <= 40 for line in out.splitlines())
    assert "Your hand (11): AC JC TC 8C 7C 7S 6C 6S\n  5C JK 3C\n" in out


def test_a_word_longer_than_the_line_stands_alone_rather_than_cut() -> None:
    assert wrap("Not possible: 'supercalifragilistic' is no move", 14) == (
        "Not possible:\n  'supercalifragilistic'\n  is no move")


# --- hint and undo, as in the browser ----------------------------------------------------------
@pytest.mark.parametrize(("lang", "hint", "typed"), [("en", "hint", "Type: "),
                                                     ("es", "pista", "Escribe: ")])
def test_a_hint_is_the_experts_move_with_its_reason_and_reads_back_as_typed(
        lang: str, hint: str, typed: str) -> None:
    """The expert plays the player's seat through the terminal, one hint at a time, to the
    end of the hand: each hint is a move the player may type as it is shown, with the
    browser's reason for it (``canasta.hints``)."""
    words = catalogue(lang)
    reasons = [v.split("{")[0] for k, v in words.items()
               if k.startswith("hint.") and k != "hint.label"]
    assert all(reasons)
    label = words["hint.label"]
    out: list[str] = []
    asked = 0

    def read(prompt: str) -> str:
        nonlocal asked
        said = out[-1] if out else ""
        out.append(prompt)
        if prompt == words["text.next_hand"]:
            raise EOFError  # (the hand is over)
        if said.startswith(label):
            return said.rsplit(typed, 1)[1]  # the hint's move, as it is shown
        asked += 1
        return hint

    play_text(Rules.make("classic", 2), seed=1, read=read, write=out.append, lang=lang,
              width=1000)
    hints = [line for line in out if line.startswith(label)]
    assert asked > 10 and len(hints) == asked
    assert all(any(line[len(label) + 1:].startswith(r) for r in reasons) for line in hints)
    shown = "\n".join(out)
    assert words["text.refused"].split("{")[0] not in shown  # every hint could be played
    assert words["text.hand_over"].split("{")[0] in shown  # to the end of the hand


@pytest.mark.parametrize(("lang", "script", "taken_back"), [
    ("en", ["undo", "draw", "undo", OPENING, "add Q JK", "undo", "undo", "undo", OPENING,
            "discard 3C", "undo"],
     ["You take back Joker from the queens; the cards are back in your hand.",
      "You take back Q♣ Q♥ Q♠ and 9♣ 9♣ Joker; the cards are back in your hand."]),
    ("es", ["deshacer", "robar", "deshacer", "bajar DT DC DP / 9T 9T JK", "añadir D JK",
            "deshacer", "deshacer", "deshacer", "bajar DT DC DP / 9T 9T JK", "descartar 3T",
            "deshacer"],
     ["Tú retiras Joker de la combinación de damas; las cartas vuelven a tu mano.",
      "Tú retiras Q♣ Q♥ Q♠ y 9♣ 9♣ Joker; las cartas vuelven a tu mano."]),
])
def test_undo_takes_back_the_melds_of_the_turn_one_by_one_and_nothing_else(
        lang: str, script: list[str], taken_back: list[str]) -> None:
    """As the browser's undo (``Table.undo``): the last meld or addition of the turn, never
    the draw, nor anything once the turn is over."""
    out = session(script, lang, width=1000)
    nothing = catalogue(lang)["text.refused"].format(
        reason=render(IllegalMove("web.nothing_to_undo"), lang, capital=False))
    answers = [line.split("> ")[-1] for line in out.splitlines()
               if line.split("> ")[-1] in (nothing, *taken_back)]
    # before the draw; after it; the addition, then the meld; then nothing; after the discard
    assert answers == [nothing, nothing, *taken_back, nothing, nothing]
    hand = {"en": "Your hand (17): AC QC QH QS JC TC 9C 9C 8C 7C 7S 6C 6S 5C JK JK 3C",
            "es": "Tu mano (17): AT DT DC DP JT 10T 9T 9T 8T 7T 7P 6T 6P 5T JK JK 3T"}[lang]
    drawn_and_undone = out.split(taken_back[1])[1].split(nothing)[0]
    assert hand in drawn_and_undone  # (the drawn cards stay: the draw is not taken back)


def test_a_meld_taken_back_for_a_penalty_cannot_be_undone() -> None:
    # Seed 1 deals seat 0 of four three nines: 30 points, below the initial meld's 50.
    out = session(["draw", "meld 9C 9C 9D", "undo"], "en", players=4, table_penalties_mode=True)
    assert ("You meld 9♣ 9♣ 9♦. Your initial meld was below the minimum (50): taken back, 100 "
            "penalty points.") in out.replace("\n  ", " ")
    assert "Not possible: there is nothing to undo" in out


@pytest.mark.parametrize(("lang", "rows"), [
    ("en", ["  hint                      the move the expert would make now, and why",
            "  undo                      take back your last meld or addition of this turn"]),
    ("es", ["  pista                       la jugada que haría el experto ahora, y por qué "
            "(hint)",
            "  deshacer                    retira lo último que has bajado o añadido en este "
            "turno (undo)"]),
])
def test_the_help_names_hint_and_undo(lang: str, rows: list[str]) -> None:
    shown = help_text(Rules.make("classic", 4), lang).splitlines()
    assert all(row in shown for row in rows)
    assert read_move(rows[0].split()[0], lang) == "hint"
    assert read_move(rows[1].split()[0], lang) == "undo"
