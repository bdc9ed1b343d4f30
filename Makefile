# Everything a fresh machine needs: `make serve` runs the service, `make test` runs the tests.
# Both create the virtual environment in .venv on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
# Every Python dependency, exact and with hashes: the checkout's (runtime, tests, bench, tools)
# and the image's (runtime only, the same versions). `make lock` writes both from pyproject.toml.
LOCK := requirements.lock
RUNTIME_LOCK := deploy/requirements.lock
UV_COMPILE = $(BIN)/uv pip compile pyproject.toml --universal --python-version 3.11 --generate-hashes --quiet
# The client generators and the OpenAPI linter the tests run (npm, pinned by the lock file).
CLIENTS := tests/clients
NODE_STAMP := $(CLIENTS)/node_modules/.installed-stamp
# The web client (web/, served at /play/): TypeScript built by Vite, linted by Biome, unit-tested
# by Vitest, every tool pinned by its lock file. Its build (web/dist) is copied into the package
# (service/api/web_dist, package data), rebuilt when its sources (its tests too: the build
# type-checks them), lock file or the contracts its generated client is typed from change.
WEB := web
WEB_DIST := service/api/web_dist
WEB_MODULES := $(WEB)/node_modules/.installed-stamp
WEB_STAMP := $(WEB)/.build-stamp
WEB_SOURCES := $(shell find $(WEB)/src $(WEB)/tests contracts -type f \( -name '*.ts' -o -name '*.tsx' -o -name '*.css' -o -name '*.py' \) 2>/dev/null) \
	$(WEB)/package.json $(WEB)/package-lock.json $(WEB)/index.html $(WEB)/vite.config.ts $(WEB)/tsconfig.json

.PHONY: serve demo test lint lint-web test-web lock clients web browser bench clean

# Exactly the lock (no resolver: hashes checked, nothing else fetched), then Skald itself,
# built offline by the locked setuptools.
$(STAMP): pyproject.toml $(LOCK)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps -r $(LOCK)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $(STAMP)

# Refresh both locks to the newest releases pyproject.toml allows (then run `make test`);
# `make lock LOCK_UPGRADE=` only adds what pyproject.toml gained, keeping every other pin.
LOCK_UPGRADE ?= --upgrade
lock: $(STAMP)
	$(UV_COMPILE) $(LOCK_UPGRADE) --extra build --extra test --extra bench --extra tools -o $(LOCK)
	$(UV_COMPILE) --extra build -c $(LOCK) -o $(RUNTIME_LOCK)

serve: $(STAMP) web
	$(BIN)/skald serve

demo: $(STAMP)
	$(BIN)/skald demo --game fjords --players 4 --seed 7

lint: $(STAMP) lint-web
	$(BIN)/ruff check contracts domain service workers tests
	$(BIN)/ruff format --check contracts domain service workers tests
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

# The web client's npm packages, exactly as its lock file has them; without npm, what needs them
# (its build, lint and unit tests) says so and is skipped.
$(WEB_MODULES): $(WEB)/package.json $(WEB)/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
		npm ci --prefix $(WEB) --no-audit --no-fund && touch $@; \
	else \
		echo "npm not found: the web client's packages are not installed"; \
	fi

# Without npm the server says at /play/ how to build the client, and its browser tests skip.
$(WEB_STAMP): $(STAMP) $(WEB_MODULES) $(WEB_SOURCES)
	@if [ -f $(WEB_MODULES) ]; then \
		mkdir -p $(WEB)/generated && $(BIN)/skald openapi > $(WEB)/generated/openapi.json && \
		npm run build --prefix $(WEB) && rm -rf $(WEB_DIST) && cp -R $(WEB)/dist $(WEB_DIST) && touch $@; \
	else \
		echo "npm not found: the web client is not built (its browser tests will be skipped)"; \
	fi

web: $(WEB_STAMP)

# Biome: the client's lint rules and formatting (web/biome.json), checked without writing.
lint-web: $(WEB_MODULES)
	@if [ -f $(WEB_MODULES) ]; then npm run lint --prefix $(WEB); \
	else echo "npm not found: the web client's lint (Biome) is skipped"; fi

# Vitest: the client's unit tests (web/tests), before pytest.
test-web: $(WEB_MODULES)
	@if [ -f $(WEB_MODULES) ]; then npm test --prefix $(WEB); \
	else echo "npm not found: the web client's unit tests (Vitest) are skipped"; fi

# The browser the web client's tests drive: Debian's Chromium (needs root or sudo for apt-get).
browser:
	@if [ -x /usr/bin/chromium ]; then :; \
	elif command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
		{ DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium || \
		  { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium; }; } || \
		echo "chromium could not be installed: the browser tests will be skipped"; \
	else \
		echo "no /usr/bin/chromium and no way to install it: the browser tests will be skipped"; \
	fi

test: lint test-web clients web browser
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python -m tests.bench --quick

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .import_linter_cache \
		$(CLIENTS)/node_modules $(CLIENTS)/.generated \
		$(WEB)/node_modules $(WEB)/dist $(WEB)/generated $(WEB_STAMP) $(WEB_DIST)
