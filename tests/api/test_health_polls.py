"""Health polls under ASGI answered from the answer Django gave a moment ago (moon/polls.py):
the same bytes and headers, with no thread, at most once per HEALTH_FRESH_SECONDS through
Django for each kind of poll."""

import asyncio
from typing import Any

import pytest

from moon.polls import HealthPolls


class App:
    """A stand-in for Django's ASGI handler: counts what reaches it and answers each request."""

    def __init__(self) -> None:
        self.reached: list[str] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.reached.append(f"{scope['method']} {scope['path']}")
        language = dict(scope["headers"]).get(b"accept-language", b"en")
        headers = [(b"content-language", language)]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": f"answer {len(self.reached)}".encode()})


async def poll(app: HealthPolls, path: str = "/api/v1/health", *, method: str = "GET", **headers: str) -> Any:
    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "query_string": b"",
        "headers": [(name.replace("_", "-").encode(), value.encode()) for name, value in headers.items()],
    }
    sent: list[Any] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        sent.append(message)

    await app(scope, receive, send)
    return sent


def test_polls_share_the_answer_django_gave_and_ask_it_again_in_the_background(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HEALTH_FRESH_SECONDS", "60")
    django = App()
    app = HealthPolls(django)

    async def polls() -> None:
        first = await poll(app, accept="application/json")
        assert await poll(app, accept="application/json") == first  # status, headers and body as sent
        assert django.reached == ["GET /api/v1/health"]
        # another language is another answer (Content-Language), asked of Django once too
        spanish = await poll(app, accept="application/json", accept_language="es")
        assert spanish[0]["headers"] == [(b"content-language", b"es")] and spanish != first
        assert await poll(app, accept="application/json", accept_language="es") == spanish
        assert len(django.reached) == 2
        # past HEALTH_FRESH_SECONDS: the poll still gets the last answer, Django is asked meanwhile
        monkeypatch.setenv("HEALTH_FRESH_SECONDS", "0")
        assert await poll(app, accept="application/json") == first
        await asyncio.gather(*app.refreshing.values())
        assert len(django.reached) == 3
        monkeypatch.setenv("HEALTH_FRESH_SECONDS", "60")
        refreshed = await poll(app, accept="application/json")
        assert refreshed != first and refreshed[1]["body"] == b"answer 3"
        # past HEALTH_STALE_SECONDS the poll waits for Django's answer
        monkeypatch.setenv("HEALTH_FRESH_SECONDS", "0")
        monkeypatch.setenv("HEALTH_STALE_SECONDS", "0")
        assert (await poll(app, accept="application/json"))[1]["body"] == b"answer 4"

    asyncio.run(polls())


def test_only_a_plain_get_of_the_health_check_is_shared() -> None:
    django = App()
    app = HealthPolls(django)

    async def calls() -> None:
        for _ in range(2):
            await poll(app, method="HEAD")
            await poll(app, "/api/v1/games")

    asyncio.run(calls())
    assert django.reached == ["HEAD /api/v1/health", "GET /api/v1/games"] * 2
