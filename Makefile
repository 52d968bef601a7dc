# Everything installs itself: `make play` and `make test` work on a fresh clone.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev

CHROMIUM := /usr/bin/chromium

.PHONY: install core core-strict play play-text test test-jobs test-quick lint typecheck \
	pytest pytest-others pytest-browser pytest-pure bench \
	scenarios browser node clean

$(STAMP): pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,web,cluster,rl]'
	touch $(STAMP)

install: $(STAMP) core

## The engine core compiled with mypyc into build/compiled/ (kept while it matches the source);
## pure Python where no C compiler is, or with CANASTA_PURE_PYTHON=1
core: $(STAMP)
	$(BIN)/python tools/build_core.py $(CORE_FLAGS)

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
play: install
	$(BIN)/canasta serve $(ARGS)

## Play in the terminal (make play-text ARGS="--players 2 --target 2500")
play-text: install
	$(BIN)/canasta play --text $(ARGS)

## The whole test suite: lint, types, unit and rule tests, scenarios, self-play, browser, client
## (on the compiled core), and the rules, scenario, perft and self-play tests again, shorter, on
## the pure Python core
test: browser node $(STAMP)
	$(MAKE) --no-print-directory -j2 --output-sync=target test-jobs

# Two jobs at a time, each job's output shown whole when it ends: the compile keeps one core
# busy and the lint, the types and the pure pass need no compiled core, so they run beside it;
# then the compiled pass in two processes, the tests that drive Chromium (which wait on the
# browser much of the time) beside all the others.
test-jobs: core-strict lint typecheck pytest-pure pytest-others pytest-browser

## A quick run while working: lint, types and the tests not marked slow (no self-play, no
## browser), on the compiled core; make test still runs everything
test-quick: lint typecheck core
	$(BIN)/pytest -m "not slow"

lint: $(STAMP)
	$(BIN)/ruff check src tests bench examples tools

typecheck: $(STAMP)
	$(BIN)/mypy

# A compiler that is here and fails to build the core fails the tests (--strict).
core-strict: $(STAMP)
	$(BIN)/python tools/build_core.py --strict

## The compiled pass in one process
pytest: core-strict
	$(BIN)/canasta --version
	$(BIN)/pytest

# The compiled pass in make test's two parts (tests/conftest.py marks the browser tests).
pytest-others: core-strict
	$(BIN)/canasta --version
	$(BIN)/pytest -m "not browser"

# Without Chromium (and without CI) the browser files skip themselves and no test is left:
# pytest's exit status 5, which is then no failure.
pytest-browser: core-strict
	$(BIN)/pytest -m browser || { rc=$$?; [ $$rc -eq 5 ] && [ ! -x $(CHROMIUM) ] || exit $$rc; }

# The doctests (src/canasta) too: mypyc keeps no docstrings, so the compiled pass has none of the
# compiled modules' doctests.
PURE_PASS := tests/test_rules_classic.py tests/test_rules_modern_american.py \
	tests/test_rules_ponytail.py tests/test_scenarios.py tests/test_perft.py tests/test_selfplay.py \
	src/canasta

pytest-pure: $(STAMP)
	CANASTA_PURE_PYTHON=1 $(BIN)/canasta --version
	CANASTA_PURE_PYTHON=1 $(BIN)/pytest --short $(PURE_PASS)

## The project's copies of the rule scenarios (the shared ones run in make test, when ../shared exists)
scenarios: $(STAMP)
	$(BIN)/canasta scenario tests/scenarios

## Benchmarks: writes docs/BENCHMARKS.md
bench: $(STAMP)
	$(BIN)/python bench/run.py --write docs/BENCHMARKS.md

clean:
	rm -rf $(VENV) build .pytest_cache .mypy_cache .ruff_cache src/*.egg-info
