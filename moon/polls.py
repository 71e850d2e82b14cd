"""Health polls answered before Django, from the answer Django gave a moment ago.

Under ASGI every middleware of Django's own kind runs each of its steps in a thread (Django
hands ``process_request`` and ``process_response`` to ``sync_to_async``): a dozen hops between
the event loop and a thread for the simplest answer, each waiting for the interpreter behind
the threads that serve games. Under 200 busy games a health poll waited 50 ms at the median
and a quarter of a second at p99 (bench/load.py), however little its own work.

So a ``GET /api/v1/health`` is answered as Django last answered a poll with the same headers
the answer depends on (language, origin, accepted types, host), status, headers and body,
with no thread and no Django. Once that answer is HEALTH_FRESH_SECONDS old, Django is asked
again in the background (middleware, view, the latest check of api/views.py's
``LatestCheck``) and the polls meanwhile still get the one before; past HEALTH_STALE_SECONDS
(or for the first poll of its kind) the poll waits for Django's. A poll's answer is then about
two HEALTH_FRESH_SECONDS old at most while polls keep coming (a load balancer sees a failure
within 2 s or so).
"""

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

Message = Mapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[dict[str, Any], Receive, Send], Awaitable[None]]

PATH = "/api/v1/health"
# The request headers an answer depends on: kept apart, answers to different ones are not shared.
KEYED = (b"accept", b"accept-language", b"origin", b"host")
KEPT = 16  # kinds of polls remembered (a load balancer sends one)


class HealthPolls:
    """The ASGI application ``app``, with health polls answered as described above."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.answers: dict[tuple[bytes, ...], tuple[float, list[Message]]] = {}
        self.refreshing: dict[tuple[bytes, ...], asyncio.Task[None]] = {}

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        from moon import health  # with the settings, once Django is set up

        poll = scope["type"] == "http" and scope["method"] == "GET" and scope["path"] == PATH
        if not poll or scope["query_string"]:
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        key = tuple(headers.get(name, b"") for name in KEYED)
        kept = self.answers.get(key)
        age = None if kept is None else time.monotonic() - kept[0]
        if kept is None or age is None or age > health.stale_seconds():
            await self._ask(key, scope, receive, send)
            return
        if age > health.fresh_seconds() and key not in self.refreshing:
            # Django answers the next one meanwhile; this poll does not wait for it
            task = asyncio.create_task(self._ask(key, dict(scope), _request_only(), _dropped))
            self.refreshing[key] = task
            task.add_done_callback(lambda _: self.refreshing.pop(key, None))
        for message in kept[1]:
            await send(message)

    async def _ask(self, key: tuple[bytes, ...], scope: dict[str, Any], receive: Receive, send: Send) -> None:
        """The poll through Django, its answer kept for the polls after it."""
        started, sent = time.monotonic(), []

        async def recording(message: Message) -> None:
            sent.append(message)
            await send(message)

        await self.app(scope, receive, recording)
        if len(sent) == 2 and sent[0]["type"] == "http.response.start" and not sent[1].get("more_body"):
            if len(self.answers) >= KEPT:
                self.answers.clear()
            self.answers[key] = (started, sent)


def _request_only() -> Receive:
    """A request with no body, then no disconnect ever (Django stops listening once it has
    answered)."""
    asked = False

    async def receive() -> Message:
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    return receive


async def _dropped(message: Message) -> None:
    """Where a refresh's answer goes: nowhere but the polls after it."""
