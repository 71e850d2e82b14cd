"""Live servers for the stream tests: the ASGI web process as `make run` and production serve
it, a JSON client per player, an SSE client reading a stream in a thread of its own, and a
3-player game played to its end over HTTP while every seat's stream is checked."""

import http.client
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from games.rules.read.views import private_to
from tests import environments

ROOT = Path(__file__).resolve().parents[1]
ASGI_COMMAND = [
    sys.executable, "-m", "gunicorn", "--config", "deploy/gunicorn.conf.py", "moon.asgi:application",
]  # fmt: skip


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def embedded_site(folder: Path, **variables: str) -> dict[str, str]:
    """The environment of an embedded-mode server on a new SQLite database in ``folder``, its
    migrations run: debug on, no throttles, one web process, warnings only in its log, and
    ``variables`` added."""
    env = {
        **environments.embedded(),
        "DATABASE_URL": f"sqlite:///{folder / 'moon.sqlite3'}",
        "DEBUG": "true",
        "THROTTLE_ANON": "",
        "THROTTLE_USER": "",
        "WEB_CONCURRENCY": "1",
        "LOG_LEVEL": "WARNING",
        **variables,
    }
    migrate = [sys.executable, "manage.py", "migrate", "--noinput", "-v0"]
    subprocess.run(migrate, cwd=ROOT, env=env, check=True)
    return env


@contextmanager
def asgi_server(env: dict[str, str], log_path: Path, *, timeout: float = 60) -> Iterator[str]:
    """gunicorn with deploy/gunicorn.conf.py (uvicorn workers) serving moon.asgi on a free
    loopback port, until the block ends; yields its base URL."""
    port = free_port()
    env = {**env, "BIND_HOST": "127.0.0.1", "PORT": str(port)}
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            ASGI_COMMAND, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"the server exited at start:\n{log_path.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(url + "/api/v1/", timeout=5) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"the server did not answer in {timeout} s:\n{log_path.read_text()[-3000:]}"
                )
            time.sleep(0.2)
        yield url
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(10)


class Client:
    """A small JSON client of one server for one player (a token of its own)."""

    def __init__(self, base: str, token: str | None = None) -> None:
        self.base = base.rstrip("/")
        self.token = token

    def at(self, base: str) -> "Client":
        """The same player, talking to another web process."""
        return Client(base, self.token)

    def request(self, method: str, path: str, body: Any = None, **headers: str) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + "/api/v1" + path, data=data, method=method)
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Token {self.token}")
        for name, value in headers.items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def get(self, path: str) -> Any:
        status, body = self.request("GET", path)
        assert status == 200, (path, status, body)
        return body

    def post(self, path: str, body: Any = None) -> Any:
        status, answer = self.request("POST", path, body if body is not None else {})
        assert status in (200, 201), (path, status, answer)
        return answer


def register(base: str, name: str) -> Client:
    status, body = Client(base).request(
        "POST", "/auth/register", {"username": f"{name}-{time.monotonic_ns()}", "password": "secret-pw"}
    )
    assert status == 201, body
    return Client(base, body["token"])


@dataclass
class Message:
    """One SSE message: its id, its event type (``message`` by default) and its JSON data."""

    id: int | None
    event: str
    data: Any


@dataclass
class Stream:
    """An SSE client reading one stream in a thread of its own, as EventSource would."""

    base: str
    path: str
    headers: dict[str, str] = field(default_factory=dict)
    status: int | None = None
    body: bytes = b""
    messages: list[Message] = field(default_factory=list)
    heartbeats: int = 0
    ended: bool = False
    content_type: str = ""

    def __post_init__(self) -> None:
        self._changed = threading.Condition()
        self._connection: http.client.HTTPConnection | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        address = urlsplit(self.base)
        connection = http.client.HTTPConnection(address.hostname or "", address.port, timeout=120)
        self._connection = connection
        try:
            connection.request(
                "GET", "/api/v1" + self.path, headers={"Accept": "text/event-stream", **self.headers}
            )
            response = connection.getresponse()
            self.content_type = response.getheader("Content-Type", "")
            with self._changed:
                self.status = response.status
                self._changed.notify_all()
            if response.status != 200:
                self.body = response.read()
                return
            self._read(response)
        except OSError:
            pass  # closed by ``close``
        finally:
            with self._changed:
                self.ended = True
                self._changed.notify_all()

    def _read(self, response: http.client.HTTPResponse) -> None:
        fields: dict[str, str] = {}
        while True:
            line = response.readline()
            if not line:
                return
            text = line.decode().rstrip("\n")
            if text == "":
                if "data" in fields:
                    message = Message(
                        int(fields["id"]) if "id" in fields else None,
                        fields.get("event", "message"),
                        json.loads(fields["data"]),
                    )
                    with self._changed:
                        self.messages.append(message)
                        self._changed.notify_all()
                fields = {}
            elif text.startswith(":"):
                with self._changed:
                    self.heartbeats += 1
                    self._changed.notify_all()
            else:
                name, _, value = text.partition(":")
                fields[name] = value.removeprefix(" ")

    def wait(self, predicate: Callable[["Stream"], bool], timeout: float = 30, what: str = "") -> None:
        with self._changed:
            if not self._changed.wait_for(lambda: predicate(self), timeout):
                raise AssertionError(
                    f"stream {self.path}: timed out waiting for {what}; got {self.messages[-3:]}"
                )

    def wait_for_events(self, count: int, timeout: float = 30) -> None:
        self.wait(lambda s: len(s.events()) >= count, timeout, what=f"event {count}")

    def events(self) -> list[dict[str, Any]]:
        """The feed events received, in order."""
        with self._changed:
            return [m.data for m in self.messages if m.event == "message"]

    def close(self) -> None:
        connection = self._connection
        if connection is not None and connection.sock is not None:
            connection.sock.shutdown(2)
        self._thread.join(10)


def open_game(players: list[Client]) -> int:
    """An Adventure 1 game for these players, started; players[i] sits in seat i."""
    game = players[0].post("/games", {"adventure": 1, "max_players": len(players)})
    for player in players[1:]:
        player.post(f"/games/{game['id']}/join", {"invite": game["invite"]})
    players[0].post(f"/games/{game['id']}/start")
    return int(game["id"])


def hidden_from(seat: int, events: list[dict[str, Any]], turn: int) -> list[dict[str, Any]]:
    """The events of turn ``turn`` private to another seat than ``seat``."""
    return [
        event for event in events
        if event["turn"] == turn and private_to(event["kind"], event["seat"]) not in (None, seat)
    ]  # fmt: skip


def play_with_streams(
    players: list[Client], streams_at: str, *, seed: int = 5, max_commands: int = 5_000
) -> tuple[int, list[Stream], list[list[dict[str, Any]]]]:
    """Play a new game of ``players`` to its end, each seat's stream open on the server at
    ``streams_at`` (commands go to the players' own servers), each seat also polling
    ``/events`` as a client without a stream would. After each command every stream is waited
    for until it holds its seat's whole feed, and must then be exactly what the seat polled,
    with nothing of another seat's turn in play. Returns the game, the streams (ended with the
    game) and what each seat polled. (An event is read as ``/events`` shows it when it is read:
    a phase 6 ``missions_offered`` shows the other seats' offers only once the phase resolves.)"""
    game_id = open_game(players)
    base = f"/games/{game_id}"
    streams = [
        Stream(streams_at, f"{base}/stream", {"Authorization": f"Token {player.token}"}) for player in players
    ]
    polled: list[list[dict[str, Any]]] = [[] for _ in players]
    rng = random.Random(seed)
    status = "playing"
    for _ in range(max_commands):
        if status != "playing":
            break
        for player in players:
            decision = player.get(f"{base}/decision")
            if decision["options"]:
                answer = player.post(f"{base}/moves", {"choice": rng.choice(decision["options"])})
            elif decision["can_confirm"]:
                answer = player.post(f"{base}/confirm")
            else:
                continue
            status = answer["status"]
            _check(players, streams, polled, base, status)
            if status != "playing":
                break
    assert status != "playing", "the game did not end"
    for stream in streams:
        stream.wait(lambda s: s.ended, timeout=120, what="the end of the game")
    _check(players, streams, polled, base, "finished")
    return game_id, streams, polled


def _check(
    players: list[Client], streams: list[Stream], polled: list[list[dict[str, Any]]], base: str, status: str
) -> None:
    """Every seat polls what is new in its feed; its stream then holds just that."""
    for seat, (player, stream) in enumerate(zip(players, streams, strict=True)):
        page = player.get(f"{base}/events?after={len(polled[seat])}&limit=100000")
        polled[seat] += page["events"]
        stream.wait_for_events(page["version"])
        received = stream.events()
        if status == "scoring":  # the worker appends the result meanwhile: the stream may be ahead
            received = received[: len(polled[seat])]  # (the check once finished compares it all)
        assert received == polled[seat], (
            f"seat {seat}'s stream is not its feed",
            [(a, b) for a, b in zip(received, polled[seat], strict=False) if a != b][:2],
        )
        if status == "playing":
            turn = player.get(base)["turn"]
            assert hidden_from(seat, received, turn) == [], "another seat's turn in play leaked"
