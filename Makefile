# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SERVE_STAMP := $(VENV)/.installed-serve
BROWSER_STAMP := $(VENV)/.installed-browser
PORT ?= 8000
, := ,

.PHONY: run examples test test-services test-contract test-browser install-browser soak bench-load install migrate lint clean

# One line per install step; pip's own output goes to var/install.log, shown when a step fails.
INSTALL_LOG := var/install.log
step = @printf '%s\n' '$(1)'; mkdir -p var; \
	if ! $(2) >>$(INSTALL_LOG) 2>&1; then \
	  tail -n 40 $(INSTALL_LOG); echo "failed: $(1) (whole log: $(INSTALL_LOG))" >&2; exit 1; \
	fi

$(BIN)/python:
	$(call step,[install] creating the virtualenv $(VENV),$(PYTHON) -m venv $(VENV))

# `make run` installs only what serving needs; `make test` adds the test and lint tools.
$(SERVE_STAMP): pyproject.toml | $(BIN)/python
	$(call step,[install] moon and what serving needs (Django$(,) DRF$(,) Celery$(,) gunicorn),$(BIN)/python -m pip install --progress-bar off -e '.[production]')
	@touch $(SERVE_STAMP)

$(STAMP): pyproject.toml | $(BIN)/python
	$(call step,[install] upgrading pip,$(BIN)/python -m pip install --progress-bar off --upgrade pip)
	$(call step,[install] moon with the test and lint tools (pytest$(,) ruff$(,) mypy$(,) schemathesis),$(BIN)/python -m pip install --progress-bar off -e '.[dev$(,)production]')
	@touch $(STAMP) $(SERVE_STAMP)

install: $(STAMP)

# The `browser` extra (Selenium) on top of the test tools.
$(BROWSER_STAMP): pyproject.toml | $(STAMP)
	$(call step,[install] Selenium for the browser tests,$(BIN)/python -m pip install --progress-bar off -e '.[dev$(,)production$(,)browser]')
	@touch $(BROWSER_STAMP)

var:
	mkdir -p var

migrate: $(SERVE_STAMP) | var
	$(call step,[setup] migrating the database (var/moon.sqlite3 unless DATABASE_URL is set),$(BIN)/python manage.py migrate --noinput)

# A real WSGI server (gunicorn, as in production) on the embedded SQLite database: writes queue
# on SQLite's write lock (settings.py), so commands on a game stay serialized.
serve = BIND_HOST=127.0.0.1 PORT=$(1) $(BIN)/gunicorn --config deploy/gunicorn.conf.py moon.wsgi:application
run: migrate
	@echo '[serve] http://127.0.0.1:$(PORT)/api/v1/ (the admin at /admin/); Ctrl-C stops'
	@$(call serve,$(PORT))

# examples/play.py (a whole game and a whole campaign through the API) against the server of
# `make run`, on its own port; the server's log in var/examples-web.log.
EXAMPLES_PORT ?= 8797
examples: migrate
	@echo '[examples] examples/play.py against make run'"'"'s server on port $(EXAMPLES_PORT)'
	@$(call serve,$(EXAMPLES_PORT)) >var/examples-web.log 2>&1 & web=$$!; \
	status=0; $(BIN)/python examples/play.py --url http://127.0.0.1:$(EXAMPLES_PORT) --wait 60 || status=$$?; \
	kill $$web; wait $$web || true; \
	[ $$status = 0 ] || tail -n 30 var/examples-web.log; exit $$status

lint: install
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/mypy moon accounts eventstore games api campaigns tests bench examples

test: lint | var
	$(BIN)/pytest

# Not in CI: 10,000 bot games (all playable adventures, 1-6 players) with the checks of the
# suite's bot games, and what they exercised printed per adventure.
SOAK_GAMES ?= 10000
soak: install
	MOON_SOAK_GAMES=$(SOAK_GAMES) $(BIN)/pytest -s tests/rules/test_bot_games.py

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache

# The suite against PostgreSQL + Redis with a real Celery worker (tests/services/): starts the
# private services of deploy/services.sh, runs pytest with their environment, stops them.
test-services: install | var
	@set -e; env_lines=$$(deploy/services.sh start); eval "$$env_lines"; \
	echo "$$env_lines"; \
	export MOON_SERVICES=1; \
	status=0; $(BIN)/pytest $(PYTEST_ARGS) || status=$$?; \
	deploy/services.sh stop; exit $$status

# Debian's headless Chromium and its driver, when either is missing (apt-get, as root or with
# sudo). The browser tests never download a browser of their own.
install-browser:
	@if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then \
	  sudo=""; [ "$$(id -u)" = 0 ] || sudo="sudo"; \
	  $$sudo apt-get update -qq && \
	  $$sudo apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null; \
	fi

# The replay viewer in a real browser (tests/browser/, MOON_BROWSER=1): staff step through a
# finished game of each adventure in headless Chromium driven by Selenium; screenshots in
# var/browser/. In `make test` these tests are skipped, with the reason.
test-browser: install-browser $(BROWSER_STAMP) | var
	MOON_BROWSER=1 $(BIN)/pytest tests/browser $(PYTEST_ARGS)

# Schemathesis against a live server (gunicorn, SQLite) with every check on: no 5xx, no answer
# off the schema (tests/contract/run.py). CI runs it first, before the two suites.
test-contract: install | var
	$(BIN)/python -m tests.contract.run

# Not in CI: the load bench (bench/load.py) against gunicorn + PostgreSQL + Redis on loopback.
# LOAD_ARGS passes options, e.g. LOAD_ARGS="--games 50 --turns 15".
LOAD_PORT ?= 8799
bench-load: install | var
	@set -e; env_lines=$$(deploy/services.sh start); eval "$$env_lines"; \
	export DEBUG=false SECRET_KEY=bench-$$$$-$$(date +%s%N) ALLOWED_HOSTS=127.0.0.1 \
	  THROTTLE_ANON= THROTTLE_USER= BIND_HOST=127.0.0.1 PORT=$(LOAD_PORT); \
	$(BIN)/python manage.py migrate --noinput >/dev/null; \
	$(BIN)/gunicorn --config deploy/gunicorn.conf.py --access-logfile /dev/null moon.wsgi:application \
	  >var/bench-load-web.log 2>&1 & web=$$!; \
	for i in $$(seq 100); do curl -sf -o /dev/null http://127.0.0.1:$(LOAD_PORT)/api/v1/ && break; sleep 0.2; done; \
	status=0; $(BIN)/python -m bench.load --url http://127.0.0.1:$(LOAD_PORT) $(LOAD_ARGS) || status=$$?; \
	kill $$web; wait $$web || true; deploy/services.sh stop; exit $$status
