# Everything installs itself: `make play` and `make test` work on a fresh clone.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev

.PHONY: install play test lint typecheck pytest bench scenarios clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

## Play Classic Canasta in the terminal (make play ARGS="--players 2 --target 2500")
play: $(STAMP)
	$(BIN)/canasta play --text $(ARGS)

## The whole test suite: lint, types, unit and rule tests, scenarios, self-play
test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest

## The shared rule scenarios (when ../shared exists) and the project's own copies
scenarios: $(STAMP)
	$(BIN)/canasta scenario tests/scenarios

## Benchmarks: writes docs/BENCHMARKS.md
bench: $(STAMP)
	$(BIN)/python bench/run.py --write docs/BENCHMARKS.md

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache src/*.egg-info
