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
"""

from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils.decorators import sync_and_async_middleware


def _let_go(request: HttpRequest, response: HttpResponseBase) -> None:
    """Cut the cycles between the request, its DRF view and request, and the response."""
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
    response._resource_closers.append(lambda: _let_go(request, response))  # type: ignore[attr-defined]
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
