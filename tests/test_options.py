"""House rules: declared once per variant, read through their declarations, a typo an error."""

from __future__ import annotations

import ast
import copy
import pickle
from pathlib import Path

import pytest

from canasta.errors import PositionError
from canasta.options import (
    TABLE_PENALTIES_MODE,
    TWO_PLAYER_LAST_CARD_RULE,
    WILD_RATIO,
    Option,
    is_choice,
)
from canasta.rules import Rules
from canasta.variants import get_variant, variant_names
from canasta.variants.ponytail import CUT_BONUS, REQUIRED_CANASTAS

SRC = Path(__file__).resolve().parents[1] / "src" / "canasta"


def test_a_misspelt_option_name_fails_at_once() -> None:
    with pytest.raises(PositionError, match="unknown option 'wild_ratoi' for classic"):
        Rules.make("classic", wild_ratoi="not-more-wilds")
    with pytest.raises(PositionError, match="unknown option 'wild_ratoi' for classic"):
        Rules.make("classic").option("wild_ratoi")
    with pytest.raises(PositionError, match="unknown option 'wild_ratoi'"):
        Rules.from_json({"variant": "classic", "players": 4,
                         "options": {"target": 5000, "wild_ratoi": "not-more-wilds"}})
    # A name another variant declares is no option of this one either.
    with pytest.raises(PositionError, match=r"unknown option 'wild_ratio' for ponytail "
                                            r"\(known: count_unpicked_ponytails, cut_bonus, "
                                            r"minimum_by, required_canastas\)"):
        Rules.make("ponytail").option("wild_ratio")


def test_a_declared_option_reads_the_tables_value_with_its_type() -> None:
    loose = Rules.make("classic", 2, wild_ratio="not-more-wilds", table_penalties_mode=True)
    assert loose.option(WILD_RATIO) == "not-more-wilds"
    assert loose.option(TABLE_PENALTIES_MODE) is True
    assert Rules.make("classic", 2).option(WILD_RATIO) == WILD_RATIO.default == "more-naturals"
    books = Rules.make("ponytail", 6, required_canastas="four-books", cut_bonus=1)
    assert books.option(REQUIRED_CANASTAS) == "four-books"
    assert books.option(CUT_BONUS) == 1.0 and isinstance(books.option(CUT_BONUS), float)
    # A variant that does not offer an option plays its default.
    assert books.option(WILD_RATIO) == "more-naturals"
    assert books.option(TABLE_PENALTIES_MODE) is False


def test_a_value_outside_the_declaration_is_refused_and_named() -> None:
    with pytest.raises(PositionError, match="option 'wild_ratio' must be one of "
                                            "'more-naturals', 'not-more-wilds', not 'loose'"):
        Rules.make("classic", wild_ratio="loose")
    with pytest.raises(PositionError, match="option 'table_penalties_mode' must be one of "
                                            "False, True, not 1"):
        Rules.make("classic", table_penalties_mode=1)
    for chance in (1.5, -0.1, True, "0.5"):
        with pytest.raises(PositionError, match="option 'cut_bonus' must be a number from 0"):
            Rules.make("ponytail", cut_bonus=chance)
    with pytest.raises(PositionError, match="must be one of False, not True"):
        Rules.make("modern-american", talon_enabled=True)


def test_an_option_copies_and_pickles_as_the_same_declaration() -> None:
    for option in (WILD_RATIO, CUT_BONUS, TWO_PLAYER_LAST_CARD_RULE):
        for twin in (copy.deepcopy(option), pickle.loads(pickle.dumps(option))):
            assert repr(twin) == repr(option)
            assert Rules.make("classic", 2).option(twin) == option.default


def test_a_choice_is_of_the_same_type_in_any_sequence() -> None:
    # The web session checks a house rule against the choices as JSON lists them (a list).
    assert is_choice(True, [False, True]) and is_choice("pagat", ("seed", "pagat"))
    assert not is_choice(1, [False, True]) and not is_choice(0, (False, True))


@pytest.mark.parametrize("name", variant_names())
def test_everything_about_a_variants_options_comes_from_its_declarations(name: str) -> None:
    v = get_variant(name)
    declared = v.declared_options
    assert declared and all(isinstance(o, Option) for o in declared)
    assert len({o.name for o in declared}) == len(declared)
    assert v.option_defaults == {o.name: o.default for o in declared}
    rules = Rules.make(name)
    assert dict(rules.options) == v.option_defaults
    assert all(rules.option(o) == o.default and rules.option(o.name) == o.default
               for o in declared)
    for players in v.player_counts:
        assert v.offered_options(players) == {
            o.name: o.choices for o in declared
            if o.choices is not None and len(o.choices) > 1
            and (o.players is None or players in o.players)}
    assert Rules.from_json(rules.to_json()) == rules


def test_stored_rules_keep_their_json() -> None:
    # The JSON a stored game holds, as written before the options were declared objects.
    stored = {"variant": "ponytail", "players": 4,
              "options": {"target": 50000, "required_canastas": "four-books",
                          "minimum_by": "score", "cut_bonus": 0.0,
                          "count_unpicked_ponytails": False}}
    rules = Rules.from_json(stored)
    assert rules.to_json() == stored
    assert rules.option(REQUIRED_CANASTAS) == "four-books"
    assert Rules.make("classic", 2).to_json() == {
        "variant": "classic", "players": 2,
        "options": {"target": 5000, "wild_ratio": "more-naturals",
                    "two_player_last_card_rule": "seed", "table_penalties_mode": False}}


def _reads_by_name(tree: ast.AST) -> list[int]:
    """Lines that read an option by a literal name: ``x.options.get("n")``,
    ``x.options["n"]`` or ``x.option("n")``."""
    lines = []
    for node in ast.walk(tree):
        literal = None
        if isinstance(node, ast.Call) and node.args:
            f = node.func
            if isinstance(f, ast.Attribute) and (
                    f.attr == "option"
                    or (f.attr == "get" and isinstance(f.value, ast.Attribute)
                        and f.value.attr == "options")):
                literal = node.args[0]
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) \
                and node.value.attr == "options":
            literal = node.slice
        if isinstance(literal, ast.Constant) and isinstance(literal.value, str):
            lines.append(node.lineno)
    return lines


def test_no_code_reads_an_option_by_a_name_in_a_string() -> None:
    sample = ast.parse('r.options.get("wild_ratio")\nr.options["x"]\nr.option("y")\n'
                       "r.option(WILD_RATIO)\nr.options.get(name)\nr.options.items()\n")
    assert _reads_by_name(sample) == [1, 2, 3]
    found = {str(path.relative_to(SRC)): lines for path in sorted(SRC.rglob("*.py"))
             if (lines := _reads_by_name(ast.parse(path.read_text(encoding="utf-8"))))}
    assert found == {}
