"""The rule scenarios: the project's own copies, and ../shared/scenarios when it exists."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from canasta.scenario import run_scenario
from canasta.variants import variant_names

from conftest import ROOT, SHARED

OWN = ROOT / "tests" / "scenarios"


def _collect(folder: Path) -> list[tuple[str, dict[str, object]]]:
    out = []
    if not folder.is_dir():
        return out
    for path in sorted(folder.rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for i, sc in enumerate(data if isinstance(data, list) else [data]):
            out.append((f"{path.relative_to(folder)}#{i}", sc))
    return out


OWN_CASES = _collect(OWN)
SHARED_CASES = _collect(SHARED / "scenarios")


def test_own_copies_exist() -> None:
    assert len(OWN_CASES) >= 30


@pytest.mark.parametrize(("where", "scenario"), OWN_CASES, ids=[c[0] for c in OWN_CASES])
def test_own_scenario(where: str, scenario: dict[str, object]) -> None:
    assert run_scenario(scenario) is None


@pytest.mark.parametrize(("where", "scenario"), SHARED_CASES,
                         ids=[c[0] for c in SHARED_CASES])
def test_shared_scenario(where: str, scenario: dict[str, object]) -> None:
    if scenario["variant"] not in variant_names():
        pytest.skip(f"variant {scenario['variant']} is not built yet")
    assert run_scenario(scenario) is None


def test_scenario_files_match_the_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema_path = SHARED / "schema" / "scenario.schema.json"
    if not schema_path.exists():
        schema_path = ROOT / "tests" / "data" / "scenario.schema.json"
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    validator = jsonschema.validators.validator_for(schema)
    validator.check_schema(schema)  # once: jsonschema.validate checks it again at every call
    check = validator(schema)
    for path in sorted(OWN.rglob("*.json")):
        check.validate(json.loads(path.read_text(encoding="utf-8")))
