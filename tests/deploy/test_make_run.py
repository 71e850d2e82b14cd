"""`make run` as a client meets it: gunicorn's two processes on the embedded SQLite database,
DEBUG off, only the loopback's host names served, throttle counters shared by both processes,
and requests far past what the API takes still answered by the API, in JSON.

One server for the module (started by `make run` itself, on a free port, over a database and a
cache of its own), stopped at the end.
"""

import json
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests import environments

ROOT = Path(__file__).resolve().parents[2]
USER_RATE = 5  # requests a minute per signed-in user, as the server below is told


@dataclass(frozen=True)
class Served:
    base: str

    def request(
        self, path: str, *, method: str = "GET", body: Any = None, **headers: str
    ) -> tuple[int, str, str]:
        """(status, content type, body) of one request on a connection of its own."""
        data = json.dumps(body).encode() if body is not None else None
        if data is not None:
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, answer.headers.get("Content-Type", ""), answer.read().decode()
        except urllib.error.HTTPError as refused:
            return refused.code, refused.headers.get("Content-Type", ""), refused.read().decode()

    def token(self, username: str) -> str:
        status, _, body = self.request(
            "/api/v1/auth/register", method="POST", body={"username": username, "password": "secret-pw"}
        )
        assert status == 201, body
        return str(json.loads(body)["token"])


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    work = tmp_path_factory.mktemp("make-run")
    port = _free_port()
    env = environments.embedded(leave_out=frozenset({"DEBUG", "ALLOWED_HOSTS"}))
    env.update(
        DATABASE_URL=f"sqlite:///{work / 'moon.sqlite3'}",
        CACHE_DIR=str(work / "cache"),
        SECRET_KEY=f"test-make-run-{time.time_ns()}",
        THROTTLE_ANON="1000/min",
        THROTTLE_USER=f"{USER_RATE}/min",
    )
    log = (work / "make-run.log").open("w")
    server = subprocess.Popen(
        ["make", "-s", "run", f"PORT={port}"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(f"{base}/api/v1/health", timeout=2).close()
                break
            except (OSError, urllib.error.HTTPError):
                assert server.poll() is None, (work / "make-run.log").read_text()
                time.sleep(0.2)
        else:
            pytest.fail("make run did not serve within a minute")
        yield Served(base)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        log.close()


def test_debug_is_off_and_a_foreign_host_is_refused(served: Served) -> None:
    status, _, body = served.request("/api/v1/no-such-page", Host="evil.example")
    assert status == 400
    assert "DisallowedHost" not in body and "settings" not in body.lower()  # no debug page
    status, kind, body = served.request("/api/v1/no-such-page")
    assert (status, kind) == (404, "application/json")
    assert json.loads(body)["code"] == "not_found" and "Traceback" not in body


def test_the_docs_are_served_with_their_assets(served: Served) -> None:
    status, _, page = served.request("/api/v1/docs")
    assert status == 200
    asset = page.split('src="', 2)[1].split('"')[0] if 'src="' in page else ""
    assert asset.startswith("/static/"), page[:500]
    assert served.request(asset)[0] == 200


def test_the_throttle_counts_the_requests_of_both_processes_together(served: Served) -> None:
    token = served.token("counted")
    statuses = [
        served.request("/api/v1/games", Authorization=f"Token {token}")[0] for _ in range(4 * USER_RATE)
    ]
    # each request on a connection of its own, spread over gunicorn's two processes
    assert statuses.count(200) == USER_RATE and statuses.count(429) == 3 * USER_RATE


def test_a_huge_numeric_id_reaches_the_api_and_is_its_json_404(served: Served) -> None:
    token = served.token("prober")
    status, kind, body = served.request("/api/v1/games/" + "9" * 4301, Authorization=f"Token {token}")
    assert (status, kind, json.loads(body)["code"]) == (404, "application/json", "not_found")


def test_a_header_of_9000_characters_reaches_the_api(served: Served) -> None:
    status, kind, body = served.request("/api/v1/", **{"X-Padding": "x" * 9000})
    assert (status, kind) == (200, "application/json")
    assert json.loads(body)["name"] == "moon"


def test_a_head_past_16_kib_is_refused_and_the_server_serves_on(served: Served) -> None:
    status, _, body = served.request("/api/v1/", **{"X-Padding": "x" * 20_000})
    assert (status, body) == (400, "Invalid HTTP request received.")
    assert served.request("/api/v1/")[0] == 200
