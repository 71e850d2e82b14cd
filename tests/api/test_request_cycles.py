"""A request served leaves nothing for the garbage collector (moon/request_cycles.py): its objects
are freed by their reference counts once its answer is closed, so the collector's young passes,
which pause the process (the move path's tail), come seldom. Served as servers call Django,
under WSGI and under ASGI, without the tests' client (which ties its own knots)."""

import asyncio
import contextlib
import gc
import io
import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections

from moon import inline, request_cycles
from moon.inflight import Application
from tests.api.test_reading import base

pytestmark = pytest.mark.django_db
inline.install()  # as moon/asgi.py does for the web processes

Serve = Callable[[str, str, str, Any], tuple[int, Any]]


def wsgi(handler: WSGIHandler) -> Serve:
    """A WSGI server's call of ``handler``: the answer's status and JSON."""
    return lambda method, path, token, body: _wsgi(handler, method, path, token, body)


def _wsgi(handler: WSGIHandler, method: str, path: str, token: str, body: Any) -> tuple[int, Any]:
    payload = b"" if body is None else json.dumps(body).encode()
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "SCRIPT_NAME": "",
        "QUERY_STRING": "",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": "testserver",
        "HTTP_AUTHORIZATION": token,
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(payload)),
        "wsgi.input": io.BytesIO(payload),
        "wsgi.url_scheme": "http",
    }
    statuses: list[str] = []

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        statuses.append(status)

    response = handler(environ, start_response)
    try:
        content = b"".join(response)
    finally:
        response.close()  # as a server does once it has sent the answer
    return int(statuses[0].split()[0]), json.loads(content)


def asgi(handler: Application) -> Serve:
    """An ASGI server's call of ``handler``: the answer's status and JSON."""
    return lambda method, path, token, body: _asgi(handler, method, path, token, body)


def _asgi(handler: Application, method: str, path: str, token: str, body: Any) -> tuple[int, Any]:
    payload = b"" if body is None else json.dumps(body).encode()
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"testserver"),
            (b"authorization", token.encode()),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(payload)).encode()),
        ],
        "client": ("127.0.0.1", 40000),
        "server": ("testserver", 80),
    }
    sent: list[Mapping[str, Any]] = []
    answered = asyncio.Event()
    bodies = [{"type": "http.request", "body": payload, "more_body": False}]

    async def receive() -> dict[str, Any]:
        # as uvicorn does: the body, then a disconnect as soon as the answer is whole
        if bodies:
            return bodies.pop()
        await answered.wait()
        return {"type": "http.disconnect"}

    async def send(message: Mapping[str, Any]) -> None:
        sent.append(message)
        if message["type"] == "http.response.body" and not message.get("more_body"):
            answered.set()

    async_to_sync(handler)(scope, receive, send)
    return sent[0]["status"], json.loads(b"".join(message.get("body", b"") for message in sent[1:]))


@pytest.fixture
def cyclic_garbage() -> Iterator[Callable[[Callable[[], Any]], list[Any]]]:
    """What ``call`` leaves that only the garbage collector would free. The requests run in the
    test's transaction: as the tests' client does, a request's start and end do not close the
    connection."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)

    def left_by(call: Callable[[], Any]) -> list[Any]:
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            call()
            gc.collect()
            return list(gc.garbage)
        finally:
            gc.set_debug(0)
            gc.garbage.clear()

    try:
        yield left_by
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.mark.parametrize("server", ["wsgi", "asgi"])
def test_the_move_path_leaves_no_cyclic_garbage(
    server: str, playing_game: int, alice: Any, cyclic_garbage: Any
) -> None:
    # made once, as a server does: its middleware chain lives as long as the process
    serve = wsgi(WSGIHandler()) if server == "wsgi" else asgi(request_cycles.settled(ASGIHandler()))
    token = alice._credentials["HTTP_AUTHORIZATION"]
    game = base(playing_game)
    status, decision = serve("GET", f"{game}/decision", token, None)
    assert status == 200 and decision["options"]
    # the first request of a kind loads and caches what later ones reuse
    warm = serve("GET", "/api/v1/games", token, None)
    assert warm[0] == 200

    answers: list[tuple[int, Any]] = []
    requests = [
        ("GET", f"{game}/decision", None),
        ("POST", f"{game}/moves", {"choice": decision["options"][0]}),
        ("GET", "/api/v1/games", None),
        ("GET", "/api/v1/games/999999", None),
    ]
    for method, path, body in requests:
        left = cyclic_garbage(lambda: answers.append(serve(method, path, token, body)))  # noqa: B023
        assert left == [], (method, path, sorted({type(each).__name__ for each in left}))
    assert [status for status, _ in answers] == [200, 200, 200, 404]


def test_a_disconnect_reaches_the_application_until_its_answer_is_whole() -> None:
    heard: list[str] = []

    async def application(scope: Any, receive: Any, send: Any) -> None:
        heard.append((await receive())["type"])  # the client left while the view ran
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"", "more_body": False})
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(0.05):
                heard.append((await receive())["type"])

    async def receive() -> dict[str, Any]:
        return {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        pass

    async_to_sync(request_cycles.settled(application))({"type": "http"}, receive, send)
    assert heard == ["http.disconnect"]
