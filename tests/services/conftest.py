"""Services mode: PostgreSQL, Redis, a real Celery worker and real web processes.

`make test-services` exports DATABASE_URL and CELERY_BROKER_URL (from deploy/services.sh) and
MOON_SERVICES=1. On the test database pytest-django created, the session starts

- a worker, `celery -A moon worker` (prefork, 2 processes), waited for until it answers a ping;
- web processes, gunicorn with deploy/gunicorn.conf.py serving moon.asgi (3 uvicorn workers on
  a loopback port, DEBUG off, as in production), waited for until it answers: HTTP tests talk to
  it, so parallel clients are served by separate processes with their own database connections;
  and another (one process, ``other_web``) for tests that need two servers of one database;

and stops them when it ends. The session itself connects as the database's owner (it creates,
migrates and empties the test database: tests/conftest.py); the worker and the web processes
connect as the application's role, DATABASE_URL's, which may only read and insert events.
Anything missing makes these tests skip outside CI and fail in CI.
"""

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from django.db import connection

from eventstore.triggers import APPEND_ONLY
from games import selectors
from games import services as commands
from games.models import Game
from moon.celery import app as celery_app
from tests.live import Client, asgi_server

ROOT = Path(__file__).resolve().parents[2]
LOG_DIR = ROOT / "var" / "test-services"
# A message left unacknowledged by a killed worker is delivered again after this many seconds.
VISIBILITY_TIMEOUT = 5
# Each worker's sweeper looks every second for follow-ups not done (eventstore/followups.py),
# and sends one again this long after it was sent: above the slowest test task, so that a test
# that counts a task's runs counts only deliveries (a lost message waits this long).
FOLLOWUP_RESEND_SECONDS = 30


@dataclass
class Worker:
    """One `celery -A moon worker` process, in a process group of its own."""

    name: str
    env: dict[str, str]
    log_path: Path
    pool: str = "prefork"
    concurrency: int = 2
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @property
    def nodename(self) -> str:
        return f"{self.name}@{socket.gethostname()}"

    def start(self, timeout: float = 60) -> "Worker":
        command = [
            sys.executable, "-m", "celery", "-A", "moon", "worker",
            "--pool", self.pool, "--concurrency", str(self.concurrency),
            "--hostname", self.nodename, "--loglevel", "INFO",
            "--without-gossip", "--without-mingle",
        ]  # fmt: skip
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"worker {self.name} exited at start:\n{self.log_tail()}")
            if celery_app.control.ping(destination=[self.nodename], timeout=0.5):
                return self
        self.kill()
        raise RuntimeError(f"worker {self.name} did not answer a ping in {timeout} s:\n{self.log_tail()}")

    def stop(self, timeout: float = 30) -> None:
        """Warm shutdown (SIGTERM): running tasks finish first."""
        self._signal(signal.SIGTERM, timeout)

    def kill(self) -> None:
        """SIGKILL the worker and its pool processes, as a crash or an OOM kill would."""
        self._signal(signal.SIGKILL, 30)

    def _signal(self, sig: int, timeout: float) -> None:
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        try:
            # SIGTERM goes to the main process, which shuts its pool down; SIGKILL to them all.
            if sig == signal.SIGKILL:
                os.killpg(process.pid, sig)
            else:
                os.kill(process.pid, sig)
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
        except ProcessLookupError:
            pass

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def log_lines(self) -> list[dict[str, Any]]:
        """The worker's JSON log lines (anything else it printed is left out)."""
        lines = []
        for raw in self.log_path.read_text(errors="replace").splitlines():
            if raw.startswith("{"):
                try:
                    lines.append(json.loads(raw))
                except ValueError:
                    continue
        return lines

    def log_tail(self, count: int = 40) -> str:
        if not self.log_path.exists():
            return "(no log)"
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-count:])


@dataclass
class Services:
    """What services tests get: the session's worker and a way to start more."""

    worker: Worker
    make_worker: Callable[..., Worker]


def _fail_or_skip(reason: str) -> NoReturn:
    pytest.skip(f"services mode is not usable: {reason}")


def _test_database_url() -> str:
    """DATABASE_URL, pointed at the test database pytest-django created."""
    url = urlsplit(os.environ["DATABASE_URL"])
    return url._replace(path="/" + str(connection.settings_dict["NAME"])).geturl()


@pytest.fixture(scope="session")
def services(django_db_setup: Any, django_db_blocker: Any) -> Iterator[Services]:
    if os.environ.get("MOON_SERVICES") != "1":
        _fail_or_skip("MOON_SERVICES is not 1")
    if connection.vendor != "postgresql":
        _fail_or_skip(f"the database is {connection.vendor}, not PostgreSQL (DATABASE_URL)")
    if not celery_app.conf.broker_url or not os.environ.get("CELERY_BROKER_URL"):
        _fail_or_skip("CELERY_BROKER_URL is not set")
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=2)
    except Exception as exc:
        _fail_or_skip(f"the broker does not answer: {exc}")

    with django_db_blocker.unblock(), connection.cursor() as cursor:
        # Transactional tests empty the tables with TRUNCATE when they end; the triggers refusing
        # TRUNCATE on the event logs are turned off in this throwaway test database only.
        # test_append_only.py turns them back on inside a transaction to show they work.
        for log in APPEND_ONLY:
            cursor.execute(f"ALTER TABLE {log.table} DISABLE TRIGGER {log.prefix}_no_truncate")
    celery_app.control.purge()  # messages left over by an earlier, interrupted run

    LOG_DIR.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "DATABASE_URL": _test_database_url(),
        "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
        "FOLLOWUP_SWEEP_SECONDS": "1",
        "FOLLOWUP_RESEND_SECONDS": str(FOLLOWUP_RESEND_SECONDS),
        "LOG_FORMAT": "json",
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("MOON_SCORING_DELAY_SECONDS", None)
    # the worker and the web processes are the application: its role, never the owner's
    env.pop("DATABASE_OWNER_URL", None)
    made: list[Worker] = []

    def make_worker(name: str, extra_env: dict[str, str] | None = None, **options: Any) -> Worker:
        log_path = LOG_DIR / f"{name}.log"
        log_path.unlink(missing_ok=True)
        worker = Worker(
            name=f"moon-test-{os.getpid()}-{name}",
            env={**env, **(extra_env or {})},
            log_path=log_path,
            **options,
        )
        made.append(worker)
        return worker

    try:
        worker = make_worker("main").start()
    except RuntimeError as exc:
        _fail_or_skip(str(exc))
    try:
        yield Services(worker=worker, make_worker=make_worker)
    finally:
        for each in made:
            each.stop()


def _web_env(services: Services, concurrency: int) -> dict[str, str]:
    return {
        **services.worker.env,
        "DEBUG": "false",
        "SECRET_KEY": "test-services-" + os.urandom(16).hex(),
        "ALLOWED_HOSTS": "127.0.0.1",
        "WEB_CONCURRENCY": str(concurrency),
        "WEB_TIMEOUT": "120",
        "THROTTLE_ANON": "",
        "THROTTLE_USER": "",
        # streams: a quick heartbeat, and a poll too slow to matter, so that what arrives on a
        # stream was woken by a commit notification (Redis) from another process
        "STREAM_HEARTBEAT_SECONDS": "0.5",
        "STREAM_POLL_SECONDS": "600",
    }


@pytest.fixture(scope="session")
def web(services: Services) -> Iterator[str]:
    """The base URL of web processes serving the test database as in production: gunicorn
    with uvicorn workers (moon.asgi), 3 processes."""
    try:
        with asgi_server(_web_env(services, 3), LOG_DIR / "web.log") as url:
            yield url
    except RuntimeError as exc:
        _fail_or_skip(str(exc))


@pytest.fixture(scope="session")
def other_web(services: Services) -> Iterator[str]:
    """Another web server (one process) on the same database, Redis and worker: a client of
    ``web`` and a client of ``other_web`` are served by different processes."""
    try:
        with asgi_server(_web_env(services, 1), LOG_DIR / "other-web.log") as url:
            yield url
    except RuntimeError as exc:
        _fail_or_skip(str(exc))


@pytest.fixture
def worker(services: Services) -> Iterator[Worker]:
    """The session's worker, running; started again afterwards if a test stopped it."""
    if not services.worker.running:
        services.worker.start()
    yield services.worker
    if not services.worker.running:
        services.worker.start()


# --- HTTP against the web processes --------------------------------------------------------------------


class HttpClient(Client):
    """A player's JSON client of the live server (tests/live.py's), whose POST answers its
    status and body whatever they are, for the tests to check."""

    def post(self, path: str, body: Any = None, **headers: str) -> tuple[int, Any]:
        return self.request("POST", path, body if body is not None else {}, **headers)


@pytest.fixture
def http(web: str, transactional_db: None) -> Callable[[str], HttpClient]:
    """Register a player over HTTP (the gunicorn web processes) and return their client."""
    suffix = f"{os.getpid()}-{time.monotonic_ns()}"

    def player(name: str) -> HttpClient:
        anon = HttpClient(web)
        status, body = anon.post(
            "/auth/register", {"username": f"{name}-{suffix}", "password": "secret-pw"}
        )
        assert status == 201, body
        return HttpClient(web, body["token"])

    return player


def open_game(players: list[HttpClient]) -> int:
    """An Adventure 1 game for these players, started; players[i] sits in seat i."""
    status, game = players[0].post("/games", {"adventure": 1, "max_players": len(players)})
    assert status == 201, game
    for player in players[1:]:
        status, body = player.post(f"/games/{game['id']}/join", {"invite": game["invite"]})
        assert status == 200, body
    status, body = players[0].post(f"/games/{game['id']}/start")
    assert status == 200, body
    return int(game["id"])


def wait_for(predicate: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def play_to_the_end(game: Game, user: User, rng: random.Random, *, timeout: float = 300) -> None:
    """Play a game (through the services) to its end for its one player, with random picks;
    while the decision is to wait (ASTRA's part, bot seats, on the worker), poll."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return
        decision = selectors.decision_view(game=game, viewer=user)
        if decision["kind"] == "wait":
            time.sleep(0.05)
        elif decision["options"]:
            commands.play_move(game_id=game.pk, by=user, choice=rng.choice(decision["options"]))
        else:
            commands.confirm_turn(game_id=game.pk, by=user)
    raise AssertionError("the game did not end")
