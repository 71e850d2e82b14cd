"""Schemathesis against a live server, every check on: 0 server errors, 0 schema violations.

    python -m tests.contract.run [--port 8797] [--max-examples 25]

Serves the API as `make run` does (gunicorn over a fresh SQLite database under
`var/contract/`, eager tasks), registers a player with a started game and a started campaign
(the stateful phase reaches them through `GET /games` and `GET /campaigns`, and those it creates
itself through the links it infers),
runs `st run` with `tests/contract/schemathesis.toml`, and stops the server. `/auth/logout` and
`/auth/logout-all` are left out: they would revoke the token the run authenticates with
(tests/api/test_auth.py covers them).
gunicorn's own limit on request lines is lifted so that long generated query strings reach
the API (see deploy/gunicorn.conf.py). One worker: Python 3.11's `ast.parse`, which
Hypothesis calls to describe filters, can fail when two threads run it at once.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
WORK = ROOT / "var" / "contract"
CONFIG = Path(__file__).with_name("schemathesis.toml")


def call(
    base: str, path: str, body: Any = None, token: str | None = None, method: str = "POST"
) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{base}{path}", data=data, headers=headers, method=method)
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"null")


def play_to_the_end(base: str, game: int, token: str) -> None:
    """A one-player game played with its first option each time, until it is finished, so that
    the run also reaches what only a finished game answers (replay, export)."""
    for _ in range(2000):
        if call(base, f"/games/{game}", token=token, method="GET")["status"] == "finished":
            return
        decision = call(base, f"/games/{game}/decision", token=token, method="GET")
        if decision["options"]:
            call(base, f"/games/{game}/moves", {"choice": decision["options"][0]}, token)
        else:
            call(base, f"/games/{game}/confirm", token=token)
    raise RuntimeError(f"game {game} did not finish")


def wait_for(base: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(f"{base}/", timeout=5):
                return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def prepare(base: str) -> str:
    """The token of a player with a started two-player game, a finished one-player game and a
    started two-player campaign."""
    ann = call(base, "/auth/register", {"username": "contract-ann", "password": "lunar-module-17"})
    ben = call(base, "/auth/register", {"username": "contract-ben", "password": "orbit-station-42"})
    game = call(base, "/games", {"adventure": 1, "max_players": 2}, ann["token"])
    call(base, f"/games/{game['id']}/join", {"invite": game["invite"]}, token=ben["token"])
    call(base, f"/games/{game['id']}/start", token=ann["token"])
    solo = call(base, "/games", {"adventure": 1, "max_players": 1}, ann["token"])
    call(base, f"/games/{solo['id']}/start", token=ann["token"])
    play_to_the_end(base, solo["id"], ann["token"])
    campaign = call(base, "/campaigns", {"max_players": 2}, ann["token"])
    call(base, f"/campaigns/{campaign['id']}/join", {"invite": campaign["invite"]}, token=ben["token"])
    call(base, f"/campaigns/{campaign['id']}/start", token=ann["token"])
    return str(ann["token"])


@contextmanager
def serve(work: Path, port: int) -> Iterator[tuple[str, dict[str, str]]]:
    """The API as `make run` serves it (gunicorn, eager tasks) over a fresh SQLite database in
    ``work``, until the block ends: its base URL and the environment it runs with."""
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    bin_dir = Path(sys.executable).parent
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{work / 'moon.sqlite3'}",
        "DEBUG": "false",
        "SECRET_KEY": f"contract-{os.getpid()}-{time.time_ns()}",
        "ALLOWED_HOSTS": "127.0.0.1",
        "THROTTLE_ANON": "",
        "THROTTLE_USER": "",
        "BIND_HOST": "127.0.0.1",
        "PORT": str(port),
        "WEB_LIMIT_REQUEST_LINE": "0",
        # long-polls answer within a second: schemathesis checks what they answer, not how long
        "LONG_POLL_MAX_SECONDS": "1",
        # one account creates hundreds of games here; the quotas are tested in tests/api/test_quotas.py
        "QUOTA_OPEN_LOBBIES": "0",
        "QUOTA_GAMES_PER_HOUR": "0",
        "QUOTA_BOT_GAMES_PER_HOUR": "0",
        "QUOTA_UNDOS_PER_TURN": "0",
    }
    env.pop("CELERY_BROKER_URL", None)
    migrate = [sys.executable, "manage.py", "migrate", "--noinput", "-v0"]
    subprocess.run(migrate, cwd=ROOT, env=env, check=True)
    log = (work / "web.log").open("w")
    web = subprocess.Popen(
        [str(bin_dir / "gunicorn"), "--config", "deploy/gunicorn.conf.py",
         "--access-logfile", "/dev/null", "moon.asgi:application"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}/api/v1"
    try:
        wait_for(base)
        yield base, env
    finally:
        web.terminate()
        web.wait(timeout=30)
        log.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=8797)
    parser.add_argument("--max-examples", type=int, default=25)
    args = parser.parse_args()
    bin_dir = Path(sys.executable).parent
    with serve(WORK, args.port) as (base, env):
        token = prepare(base)
        command = [
            str(bin_dir / "st"), "--config-file", str(CONFIG), "run", f"{base}/schema",
            "--checks", "all", "--header", f"Authorization: Token {token}",
            "--exclude-path", "/api/v1/auth/logout",
            "--exclude-path", "/api/v1/auth/logout-all",
            # event streams stay open while their game is played: they are tested in test_streams
            "--exclude-path-regex", "/stream$",
            "--max-examples", str(args.max_examples), "--workers", "1",
            "--generation-database", "none", "--no-color",
            "--report", "junit", "--report-dir", str(WORK / "report"),
        ]
        return subprocess.run(command, cwd=ROOT, env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
