"""A request served leaves nothing for the garbage collector (moon/request_cycles.py): its objects
are freed by their reference counts once its answer is closed, so the collector's young passes,
which pause the process (the move path's tail), come seldom. Served as servers call Django,
under WSGI and under ASGI, without the tests' client (which ties its own knots)."""

import asyncio
import contextlib
import gc
import io
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
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


def _scope(
    method: str, path: str, token: str, *, query: bytes = b"", headers: Sequence[tuple[bytes, bytes]] = ()
) -> dict[str, Any]:
    """The scope uvicorn gives an HTTP request: ``token`` in Authorization, ``headers`` added."""
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query,
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"authorization", token.encode()), *headers],
        "client": ("127.0.0.1", 40000),
        "server": ("testserver", 80),
    }


def _asgi(handler: Application, method: str, path: str, token: str, body: Any) -> tuple[int, Any]:
    payload = b"" if body is None else json.dumps(body).encode()
    body_headers = [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]
    scope = _scope(method, path, token, headers=body_headers)
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


async def _stream(
    handler: Application, path: str, token: str, *, opened: asyncio.Event, leave: asyncio.Event
) -> int:
    """Follow a stream as uvicorn serves it: ``opened`` is set once its first message is in,
    the client leaves (disconnects) once ``leave`` is set. The answer's status."""
    scope = _scope("GET", path, token, query=b"after=0")
    sent: list[Mapping[str, Any]] = []
    bodies = [{"type": "http.request", "body": b"", "more_body": False}]

    async def receive() -> dict[str, Any]:
        if bodies:
            return bodies.pop()
        await opened.wait()
        await leave.wait()
        return {"type": "http.disconnect"}

    async def send(message: Mapping[str, Any]) -> None:
        sent.append(message)
        if message["type"] == "http.response.body" and message.get("body", b"").startswith(b"id: "):
            opened.set()

    await handler(scope, receive, send)
    assert opened.is_set()
    return int(sent[0]["status"])


def test_a_stream_opened_and_left_leaves_nothing_of_the_api_for_the_collector(
    emptied_log: None, playing_game: int, alice: Any, bob: Any
) -> None:
    # 1,000 streams opened at once would each add what its opening tied up to the collector's
    # passes. Measured while another stream follows the game (its hub lives on, as it does
    # while a game is played), on one event loop throughout, as a web process serves them.
    # The client's leaving is Django's part: its handler's aborted request is left to the
    # collector (a RequestAborted's traceback holds the handler's frame), not the API's.
    handler = request_cycles.settled(ASGIHandler())
    path = f"{base(playing_game)}/stream"
    alice_token, bob_token = (client._credentials["HTTP_AUTHORIZATION"] for client in (alice, bob))

    async def opened_and_left() -> tuple[list[int], list[Any]]:
        bob_in, bob_leaves = asyncio.Event(), asyncio.Event()
        bob_follows = asyncio.ensure_future(
            _stream(handler, path, bob_token, opened=bob_in, leave=bob_leaves)
        )
        await bob_in.wait()
        left_at_once = asyncio.Event()
        left_at_once.set()

        async def alice_follows() -> int:
            return await _stream(handler, path, alice_token, opened=asyncio.Event(), leave=left_at_once)

        statuses = [await alice_follows()]
        await asyncio.sleep(0.05)  # what the first opening loaded and started has settled
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            statuses.append(await alice_follows())
            await asyncio.sleep(0.05)
            gc.collect()
            left = list(gc.garbage)
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
        bob_leaves.set()
        statuses.append(await bob_follows)
        return statuses, left

    statuses, left = async_to_sync(opened_and_left)()
    assert statuses == [200, 200, 200]
    ours = sorted(
        {
            f"{type(each).__module__}.{type(each).__qualname__}"
            for each in left
            if type(each).__module__.partition(".")[0] in {"rest_framework", "api", "games", "eventstore"}
        }
    )
    assert ours == [], " ".join(ours)
