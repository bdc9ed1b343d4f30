# Everything a fresh machine needs: `make serve` runs the service, `make test` runs the tests.
# Both create the virtual environment in .venv on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
# The client generators and the OpenAPI linter the tests run (npm, pinned by the lock file).
CLIENTS := tests/clients
NODE_STAMP := $(CLIENTS)/node_modules/.installed-stamp

.PHONY: serve demo test lint clients bench clean

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

# Without npm the TypeScript client and linter tests skip, saying so.
$(NODE_STAMP): $(CLIENTS)/package.json $(CLIENTS)/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
		npm ci --prefix $(CLIENTS) --no-audit --no-fund && touch $@; \
	else \
		echo "npm not found: the TypeScript client and OpenAPI linter tests will be skipped"; \
	fi

clients: $(NODE_STAMP)

test: lint clients
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python -m tests.bench --quick

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .import_linter_cache \
		$(CLIENTS)/node_modules $(CLIENTS)/.generated
