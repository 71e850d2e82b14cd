# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SERVE_STAMP := $(VENV)/.installed-serve
BROWSER_STAMP := $(VENV)/.installed-browser
PORT ?= 8000
, := ,

.PHONY: run examples test test-services test-contract test-clients test-browser install-browser soak soak-kill bench bench-load bench-streams install migrate lint clean

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

# The server of `make run` and `make examples`: the production server (gunicorn with uvicorn
# workers) on the embedded SQLite database; BIND_HOST and PORT say where.
SERVE = $(BIN)/gunicorn --config deploy/gunicorn.conf.py moon.asgi:application

# The production server (gunicorn with uvicorn workers: async streams, sync views in threads) on
# the embedded SQLite database: writes queue on SQLite's write lock (settings.py), so commands on
# a game stay serialized. One process: without Redis, commit notifications reach the streams of
# the process that committed only. DEBUG is off unless asked for (`DEBUG=true make run`), the
# hosts served are the loopback's, and the secret key is made once into var/secret-key unless
# SECRET_KEY is set. With DEBUG off the web process serves the static assets (admin, API docs)
# collected into staticfiles/ (with DEBUG on, read where the apps keep them).
run: migrate
	@echo '[serve] http://127.0.0.1:$(PORT)/play/ (the web table; the API at /api/v1/, the admin at /admin/); Ctrl-C stops'
	@set -e; \
	if [ -z "$$SECRET_KEY" ] && [ ! -s var/secret-key ]; then \
	  (umask 077; $(BIN)/python -c 'import secrets; print(secrets.token_urlsafe(50))' > var/secret-key); \
	fi; \
	export SECRET_KEY="$${SECRET_KEY:-$$(cat var/secret-key)}" DEBUG="$${DEBUG:-false}" \
	  ALLOWED_HOSTS="$${ALLOWED_HOSTS:-127.0.0.1,localhost,[::1]}" BIND_HOST=127.0.0.1 PORT=$(PORT) \
	  WEB_CONCURRENCY="$${WEB_CONCURRENCY:-1}"; \
	case "$$(echo "$$DEBUG" | tr A-Z a-z)" in \
	  1|true|yes|on) ;; \
	  *) $(BIN)/python manage.py collectstatic --noinput -v0 ;; \
	esac; \
	exec $(SERVE)

# examples/walkthrough.py (a whole game and a whole campaign through the API) against the server of
# `make run`, on its own port; the server's log in var/examples-web.log.
EXAMPLES_PORT ?= 8797
examples: migrate
	@echo '[examples] examples/walkthrough.py against make run'"'"'s server on port $(EXAMPLES_PORT)'
	@BIND_HOST=127.0.0.1 PORT=$(EXAMPLES_PORT) WEB_CONCURRENCY=1 $(SERVE) >var/examples-web.log 2>&1 & web=$$!; \
	status=0; $(BIN)/python examples/walkthrough.py --url http://127.0.0.1:$(EXAMPLES_PORT) --wait 60 || status=$$?; \
	kill $$web; wait $$web || true; \
	[ $$status = 0 ] || tail -n 30 var/examples-web.log; exit $$status

lint: install
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/mypy moon accounts eventstore games api campaigns play tests bench examples

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

# Not in CI: the worker is killed (SIGKILL) mid-work SOAK_KILL_CYCLES times and brought back
# while solo games against ASTRA, games with bot seats and a campaign are played; every game and
# campaign must finish exactly once (tests/services/soak_kill.py). Prints its figures.
SOAK_KILL_CYCLES ?= 20
soak-kill: install | var
	@set -e; env_lines=$$(deploy/services.sh start); eval "$$env_lines"; \
	export MOON_SERVICES=1 MOON_SOAK_KILL_CYCLES=$(SOAK_KILL_CYCLES) \
	  QUOTA_OPEN_LOBBIES=0 QUOTA_GAMES_PER_HOUR=0 QUOTA_BOT_GAMES_PER_HOUR=0; \
	status=0; $(BIN)/pytest -q -p no:cacheprovider tests/services/soak_kill.py $(PYTEST_ARGS) || status=$$?; \
	deploy/services.sh stop; exit $$status

# Debian's headless Chromium and its driver, when either is missing (apt-get, as root or with
# sudo). The browser tests never download a browser of their own.
install-browser:
	@if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then \
	  sudo=""; [ "$$(id -u)" = 0 ] || sudo="sudo"; \
	  $$sudo apt-get update -qq && \
	  $$sudo apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null; \
	fi

# The replay viewer and the web table in a real browser (tests/browser/, MOON_BROWSER=1): staff
# step through a finished game of each adventure, two players play a game of The Launch at /play/
# by clicking, in headless Chromium driven by Selenium; screenshots in var/browser/. In `make test` these tests are skipped, with the reason.
test-browser: install-browser $(BROWSER_STAMP) | var
	MOON_BROWSER=1 $(BIN)/pytest tests/browser $(PYTEST_ARGS)

# Schemathesis against a live server (gunicorn, SQLite) with every check on: no 5xx, no answer
# off the schema (tests/contract/run.py). CI runs it first, before the two suites.
test-contract: install | var
	$(BIN)/python -m tests.contract.run

# Clients generated from the served schema play against a live server (tests/clients/run.py):
# openapi-python-client's (the dev extra) plays a 2-player game, a solo game and a campaign
# chapter; openapi-typescript's types compile under `tsc --strict` and play a turn. The npm
# packages (tests/clients/package-lock.json) go to var/clients/node, with the system's node/npm.
test-clients: install | var
	$(BIN)/python -m tests.clients.run

# Not in CI: the load bench (bench/load.py) against gunicorn + PostgreSQL + Redis on loopback.
# LOAD_ARGS passes options, e.g. LOAD_ARGS="--games 50 --turns 15".
LOAD_PORT ?= 8799
bench-load: install | var
	@set -e; env_lines=$$(deploy/services.sh start); eval "$$env_lines"; \
	export DEBUG=false SECRET_KEY=bench-$$$$-$$(date +%s%N) ALLOWED_HOSTS=127.0.0.1 \
	  THROTTLE_ANON= THROTTLE_USER= BIND_HOST=127.0.0.1 PORT=$(LOAD_PORT) \
	  QUOTA_OPEN_LOBBIES=0 QUOTA_GAMES_PER_HOUR=0 QUOTA_BOT_GAMES_PER_HOUR=0 QUOTA_UNDOS_PER_TURN=0; \
	$(BIN)/python manage.py migrate --noinput >/dev/null; \
	unset DATABASE_OWNER_URL; \
	WEB_ACCESS_LOG=false $(BIN)/gunicorn --config deploy/gunicorn.conf.py moon.asgi:application \
	  >var/bench-load-web.log 2>&1 & web=$$!; \
	for i in $$(seq 100); do curl -sf -o /dev/null http://127.0.0.1:$(LOAD_PORT)/api/v1/ && break; sleep 0.2; done; \
	status=0; $(BIN)/python -m bench.load --url http://127.0.0.1:$(LOAD_PORT) $(LOAD_ARGS) || status=$$?; \
	kill $$web; wait $$web || true; deploy/services.sh stop; exit $$status

# Not in CI: every figure of issue 26 with its floor or goal, in one run (< 10 minutes): the rules
# engine (bench/engine.py: replay against JSON decoding, self-play), then on private PostgreSQL +
# Redis instances on free ports (deploy/services.sh, data in var/bench-services, an empty database
# each run) the server's CPU per move against a bare SQL transaction and the trivial GET
# (bench/server.py), concurrent games over HTTP against gunicorn with /health polled
# (bench/load.py), then the bytes per event of what those games stored (bench/server.py).
BENCH_ENGINE_ARGS ?=
BENCH_SERVER_ARGS ?=
BENCH_LOAD_ARGS ?= --games 200 --turns 6
bench: install | var
	@set -e; \
	echo '[bench] the rules engine (python -m bench.engine)'; \
	$(BIN)/python -m bench.engine $(BENCH_ENGINE_ARGS); \
	set -- $$($(BIN)/python -c 'import socket; s = [socket.socket() for _ in range(3)]; [x.bind(("127.0.0.1", 0)) for x in s]; print(*(x.getsockname()[1] for x in s))'); \
	export MOON_PG_PORT=$$1 MOON_REDIS_PORT=$$2 MOON_SERVICES_DIR=$(CURDIR)/var/bench-services PORT=$$3; \
	env_lines=$$(deploy/services.sh fresh); eval "$$env_lines"; \
	web=; trap 'if [ -n "$$web" ]; then kill $$web; wait $$web || true; fi; deploy/services.sh stop' EXIT; \
	export DEBUG=false SECRET_KEY=bench-$$$$-$$(date +%s%N) ALLOWED_HOSTS=127.0.0.1 \
	  THROTTLE_ANON= THROTTLE_USER= BIND_HOST=127.0.0.1 WEB_ACCESS_LOG=false \
	  QUOTA_OPEN_LOBBIES=0 QUOTA_GAMES_PER_HOUR=0 QUOTA_BOT_GAMES_PER_HOUR=0 QUOTA_UNDOS_PER_TURN=0; \
	$(BIN)/python manage.py migrate --noinput >/dev/null; \
	unset DATABASE_OWNER_URL; \
	echo '[bench] the server in process on PostgreSQL (python -m bench.server)'; \
	$(BIN)/python -m bench.server --figures cpu $(BENCH_SERVER_ARGS); \
	echo '[bench] concurrent games over HTTP, gunicorn + PostgreSQL + Redis (python -m bench.load)'; \
	$(BIN)/gunicorn --config deploy/gunicorn.conf.py moon.asgi:application >var/bench-web.log 2>&1 & web=$$!; \
	for i in $$(seq 100); do curl -sf -o /dev/null http://127.0.0.1:$$PORT/api/v1/ && break; sleep 0.2; done; \
	$(BIN)/python -m bench.load --url http://127.0.0.1:$$PORT $(BENCH_LOAD_ARGS); \
	echo '[bench] the events the games stored (python -m bench.server --figures bytes)'; \
	$(BIN)/python -m bench.server --figures bytes

# Not in CI: open event streams on one web process (bench/streams.py) on PostgreSQL + Redis:
# memory per stream, confirm-to-stream delay, the move path with and without streams open.
# `python -m bench.streams` alone runs it on a fresh SQLite file (in-process notifications).
bench-streams: install | var
	@set -e; env_lines=$$(deploy/services.sh start); eval "$$env_lines"; \
	export DEBUG=false SECRET_KEY=bench-$$$$-$$(date +%s%N) ALLOWED_HOSTS=127.0.0.1; \
	status=0; $(BIN)/python -m bench.streams $(STREAMS_ARGS) || status=$$?; \
	deploy/services.sh stop; exit $$status
