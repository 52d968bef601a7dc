# Everything installs itself: `make play` and `make test` work on a fresh clone.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev

CHROMIUM := /usr/bin/chromium

.PHONY: install play play-text test lint typecheck pytest bench scenarios browser node clean

$(STAMP): pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,web,cluster,rl]'
	touch $(STAMP)

install: $(STAMP)

## Debian's chromium for the browser tests (playwright drives it; it cannot download its own)
browser:
	@if [ ! -x $(CHROMIUM) ]; then \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium; \
		else sudo apt-get update -qq && sudo apt-get install -y -qq chromium; fi; \
	fi

## Debian's nodejs for the client's tests (node --test tests/js/, run by pytest)
node:
	@if ! command -v node >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq nodejs; \
		else sudo apt-get update -qq && sudo apt-get install -y -qq nodejs; fi; \
	fi

## The browser game: starts the server on localhost and opens (or prints) its address
play: $(STAMP)
	$(BIN)/canasta serve $(ARGS)

## Play in the terminal (make play-text ARGS="--players 2 --target 2500")
play-text: $(STAMP)
	$(BIN)/canasta play --text $(ARGS)

## The whole test suite: lint, types, unit and rule tests, scenarios, self-play, browser, client
test: browser node lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests bench examples

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest

## The project's copies of the rule scenarios (the shared ones run in make test, when ../shared exists)
scenarios: $(STAMP)
	$(BIN)/canasta scenario tests/scenarios

## Benchmarks: writes docs/BENCHMARKS.md
bench: $(STAMP)
	$(BIN)/python bench/run.py --write docs/BENCHMARKS.md

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache src/*.egg-info
