# Everything a fresh machine needs: `make serve` runs the service, `make test` runs the tests.
# Both create the virtual environment in .venv on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: serve demo test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

serve: $(STAMP)
	$(BIN)/skald serve

demo: $(STAMP)
	$(BIN)/skald demo --game fjords --players 4 --seed 7

lint: $(STAMP)
	$(BIN)/ruff check contracts domain service workers tests
	$(BIN)/mypy
	$(BIN)/lint-imports --no-logo

test: lint
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python -m tests.bench --quick

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .import_linter_cache
