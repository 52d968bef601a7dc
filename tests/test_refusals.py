"""Every refusal has a code: the raise sites are read from the source, so a new refusal without
a code (or with a code the registry does not know, or with parameters its template does not
name) fails here before any player sees it."""

from __future__ import annotations

import ast
import pickle
import re
import string
from pathlib import Path

import pytest

from canasta.cards import card
from canasta.errors import CanastaError, IllegalMove, NotationError, PositionError, Refusal
from canasta.i18n import render
from canasta.refusals import RANK_FORMS, REFUSALS, UNCODED
from canasta.variants.base import MIN_CARDS

from rules_helpers import legal, table_position

SRC = Path(__file__).resolve().parents[1] / "src" / "canasta"
#: Built with a code, always (a ``CanastaError`` or a ``PositionError`` may be a plain text).
CODED = {"IllegalMove", "NotationError", "BadMessage", "ConfigError", "UnreadableGame",
         "TableRefusal", "Refusal"}
#: Built with a code or with a plain text: a literal shaped like a code must be a known code.
MAY_BE_TEXT = {"CanastaError", "PositionError", "ScenarioFormatError"}
CODE_SHAPE = re.compile(r"[a-z_]+(\.[a-z_]+)+")
RE_RAISED = ["(the code of another refusal)"]


def placeholders(template: str) -> set[str]:
    """The parameters a template names (``rank_the`` is a form of ``rank``)."""
    names = {name for _, name, _, _ in string.Formatter().parse(template) if name}
    return {"rank" if n.startswith("rank_") and n[5:] in RANK_FORMS else n for n in names}


def _codes(node: ast.expr) -> list[str] | None:
    """The codes an argument can be: a literal, or a choice between literals."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        a, b = _codes(node.body), _codes(node.orelse)
        return None if a is None or b is None else a + b
    if isinstance(node, ast.Attribute) and node.attr == "code":
        return RE_RAISED
    return None


def raise_sites() -> list[tuple[str, int, list[str] | None, set[str]]]:
    """(file, line, codes or None, keyword names) of each IllegalMove / NotationError built in
    the source."""
    out = []
    for path in sorted(SRC.rglob("*.py")):
        if path.name == "errors.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.args):
                continue
            codes = _codes(node.args[0])
            if node.func.id in MAY_BE_TEXT and codes is not None and all(
                    CODE_SHAPE.fullmatch(c) for c in codes):
                pass  # a coded CanastaError or PositionError is checked like the others
            elif node.func.id not in CODED:
                continue
            names = {k.arg for k in node.keywords if k.arg}
            out.append((str(path.relative_to(SRC)), node.lineno, codes, names))
    return out


SITES = raise_sites()


def test_the_source_is_read() -> None:
    files = {f for f, *_ in SITES}
    assert {"engine/check.py", "engine/takes.py", "variants/modern_american.py",
            "web/session.py", "web/app.py", "web/store.py", "web/guard.py", "web/reasons.py",
            "moves.py", "cards.py"} <= files
    assert len(SITES) > 140


@pytest.mark.parametrize(("where", "line", "codes", "names"), SITES,
                         ids=[f"{f}:{n}" for f, n, *_ in SITES])
def test_every_refusal_is_built_with_a_known_code_and_its_parameters(
        where: str, line: int, codes: list[str] | None, names: set[str]) -> None:
    assert codes is not None, "the code must be a string literal (or a choice of literals)"
    if codes is RE_RAISED:
        return
    for code in codes:
        assert code in REFUSALS
        assert placeholders(REFUSALS[code]) == names


def test_every_code_is_raised_somewhere() -> None:
    """(or named in the source: SQLite's fixed messages are looked up by their code)"""
    used = {c for _, _, codes, _ in SITES for c in codes or ()} | {
        node.value for path in SRC.rglob("*.py") if path.name != "refusals.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and node.value in REFUSALS}
    assert set(REFUSALS) - used == set()


def test_codes_are_stable_dotted_names() -> None:
    for code in REFUSALS:
        area, _, name = code.partition(".")
        assert area and name and code == code.lower() and " " not in code


def test_the_english_text_is_the_template_in_the_notation() -> None:
    e = IllegalMove("pile.show_rank", rank="K", top=card("KD"), card=card("5H"))
    assert str(e) == ("to take the pile, show kings or wild cards to meld with the KD on top; "
                      "5H does not go with them")
    assert e.code == "pile.show_rank" and e.params["top"] == card("KD")
    nested = IllegalMove("meld.out_then_discard", reason=IllegalMove("discard.red_three"))
    assert str(nested) == "you could not go out after this meld: red threes are never discarded"
    kinds = IllegalMove("out.canasta_kinds", kinds=("natural", "mixed"))
    assert str(kinds).startswith("going out needs a natural and a mixed canasta more")
    assert str(IllegalMove("hand.not_held", cards=(card("5H"), card("JK")))) == (
        "you do not hold 5H JK")


@pytest.mark.parametrize(("move", "code", "params"), [
    # Two 9C held, three used: "you do not hold 9C" read as holding none.
    ("meld QC QS JK / 9C 9C 9C", "hand.not_enough", {"card": card("9C"), "uses": 3, "held": 2}),
    ("add 9 9C 9C 9C", "hand.not_enough", {"card": card("9C"), "uses": 3, "held": 2}),
    ("discard 5H", "hand.not_held", {"cards": (card("5H"),)}),
    # A card held not at all is named first, as before.
    ("meld KD KD KD / 9C 9C 9C", "hand.not_held", {"cards": (card("KD"),) * 3}),
])
def test_a_card_held_fewer_times_than_the_move_uses_it_says_how_many_are_held(
        move: str, code: str, params: dict[str, object]) -> None:
    state = table_position("classic", 4, hands=["QC QS JK 9C 9C 4H", "", "", ""],
                           melds=[["9D 9S 9H"], []])
    with pytest.raises(IllegalMove) as e:
        state.apply(move)
    assert (e.value.code, dict(e.value.params)) == (code, params)
    if code == "hand.not_enough":
        assert render(e.value, "en") == "The move uses 3 of 9♣ and you hold only 2"
        assert render(e.value, "es") == "La jugada usa 3 veces el 9♣ y solo tienes 2"


def test_a_text_without_a_code_is_kept_as_it_is() -> None:
    e = PositionError("hand of seat 1: too many cards")
    assert e.code == UNCODED and str(e) == "hand of seat 1: too many cards"


@pytest.mark.parametrize("error", [
    IllegalMove("meld.one_rank", card=card("KD"), rank="A"),
    NotationError("notation.card", text="ZZ"),
    PositionError("a free text"),
])
def test_a_refusal_crosses_a_process_pool(error: CanastaError) -> None:
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error)
    assert (back.code, back.params, str(back)) == (error.code, error.params, str(error))


def test_a_shared_refusal_becomes_a_fresh_error_each_time() -> None:
    shared = MIN_CARDS
    first, second = shared.error(), shared.error()
    assert first is not second and type(first) is IllegalMove
    assert (first.code, first.params, str(first)) == ("meld.min_cards", {}, str(shared))
    for e in (first, second):
        with pytest.raises(IllegalMove) as raised:
            raise e
        assert raised.value.__traceback__ is not None
        assert raised.value.__traceback__.tb_next is None  # one raise, one frame: nothing carried
    with_params = Refusal("pile.natural_pair", rank="K")
    assert with_params.error().params == {"rank": "K"} and with_params == Refusal(
        "pile.natural_pair", rank="K")
    assert str(with_params) == str(with_params.error()) == (
        "the pile is taken only with a natural pair: you need two natural kings")


@pytest.mark.parametrize(("variant", "hand", "melds", "ruled_out"), [
    ("modern-american", "JK 5H 9S KD QH", [], "discard JK"),  # discard.wild
    ("classic", "2C 5S 9S 4H", ["KH KD KC 2D 2H"], "add K 2C"),  # meld.wilds_fewer
    ("ponytail", "2C 5S 9S 4H", ["KH KD KC 2D 2H"], "add K 2C"),
])
def test_the_listing_builds_no_error_for_a_move_it_rules_out(
        monkeypatch: pytest.MonkeyPatch, variant: str, hand: str, melds: list[str],
        ruled_out: str) -> None:
    """The variants' hooks answer the listing with a shared value: ruling a candidate out
    builds no exception (one is built only for a move refused to a caller)."""
    extra = {"ponytails": [None] * 4} if variant == "ponytail" else {}
    state = table_position(variant, 4, hands=[hand, "4C 4D", "4H 4S", "6C 6D"],
                           melds=[melds, []], **extra)
    built: list[str] = []  # every error built, by either way
    init, error = CanastaError.__init__, Refusal.error

    def counting(self: CanastaError, code: str, /, **params: object) -> None:
        built.append(code)
        init(self, code, **params)

    def counting_error(self: Refusal) -> IllegalMove:
        built.append(self.code)
        return error(self)

    monkeypatch.setattr(CanastaError, "__init__", counting)
    monkeypatch.setattr(Refusal, "error", counting_error)
    moves = legal(state)
    assert moves and ruled_out not in moves
    assert built == []
    with pytest.raises(IllegalMove):
        state.check(ruled_out)
    assert built  # (the count sees the error built for the caller)
