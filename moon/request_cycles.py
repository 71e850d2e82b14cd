"""A request's objects freed as soon as its answer is closed, without the garbage collector.

A DRF request is a knot of reference cycles: the view holds the request and the response, the
request's parser context and the response's renderer context hold the view, and Django's
request holds ``auser``, a partial of itself. So everything a request made (about 80 objects:
its headers, the resolver's match, the token and its user, the parsed body, the answer) waited
for the collector's next young pass, which came every few dozen requests and paused the process
a few milliseconds each time: the move path's tail, longer with many event streams open
(bench/streams.py). Once the response is closed (a server closes it after sending it, and so
does the tests' client), nothing reads those links any more: this middleware cuts them then, so
the request's objects are freed at once by their reference counts.

Under ASGI there is a second knot: the server tells Django's handler that the client is gone
(``http.disconnect``) as soon as the answer is sent, the handler's listener task raises
``RequestAborted``, and the handler catches it where its frame holds the tasks, the request and
the answer: the exception's traceback refers to that frame, which refers to the task that holds
the exception. ``settled`` tells the handler nothing of a disconnect once the answer is whole
(there is nothing left to abort); the handler then cancels its listener, which leaves no knot.
"""

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils.decorators import sync_and_async_middleware

from moon.inflight import Application, Scope


def let_go(request: HttpRequest, response: HttpResponseBase) -> None:
    """Cut the cycles between the request, its DRF view and request, and the response, once
    nothing reads them (the middleware does it as the answer is closed; a view that answers
    with something else than a DRF view's response does it with that response)."""
    context = getattr(response, "renderer_context", None)
    if context:
        response.renderer_context = None  # type: ignore[attr-defined]
        view, api_request = context.get("view"), context.get("request")
        if api_request is not None:
            api_request.parser_context = None
        if view is not None:
            view.__dict__.clear()
    request.__dict__.pop("auser", None)


def _on_close(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    # Django calls (then forgets) a response's closers as it is closed: its own list, the one
    # its file responses use for their files.
    response._resource_closers.append(lambda: let_go(request, response))  # type: ignore[attr-defined]
    return response


@sync_and_async_middleware
def let_go_of_requests(get_response: Callable[[HttpRequest], Any]) -> Any:
    """The middleware (first in MIDDLEWARE, so that it sees the response the server gets)."""
    if iscoroutinefunction(get_response):

        async def middleware(request: HttpRequest) -> HttpResponseBase:
            answered: Awaitable[HttpResponseBase] = get_response(request)
            return _on_close(request, await answered)

        return middleware

    def sync_middleware(request: HttpRequest) -> HttpResponseBase:
        return _on_close(request, get_response(request))

    return sync_middleware


def settled(application: Application) -> Application:
    """The ASGI ``application``, which hears of a client's disconnect until its answer is whole
    (a view or a stream still running is stopped by it), not after."""

    async def serving(scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await application(scope, receive, send)
            return
        answered = asyncio.Event()

        async def sending(message: dict[str, Any]) -> None:
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                answered.set()

        async def receiving() -> dict[str, Any]:
            message: dict[str, Any] = await receive()
            if message["type"] == "http.disconnect" and answered.is_set():
                await asyncio.Event().wait()  # until the handler cancels its listener
            return message

        await application(scope, receiving, sending)

    return serving
