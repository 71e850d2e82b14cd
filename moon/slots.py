"""How many sync views a web process runs at once under ASGI: WEB_THREADS (4 by default).

Django runs each sync view in a thread of its own, as many at once as requests come in. Past a
few, they only take turns on the interpreter's lock, and the event loop, which answers the
health check and feeds the event streams, waits its turn behind all of them: under 200 busy
games a health poll took a quarter of a second. Past WEB_THREADS, a request waits on the event
loop (no thread, no connection) for a running one to end, in the order they came. Async views
(the health check, streams, long-polls) never wait here.
"""

import asyncio
import functools
import os
from typing import Any

from asgiref.sync import iscoroutinefunction
from django.http import HttpRequest
from django.urls import Resolver404, resolve

from moon import both_ways


def limit() -> int:
    """The most sync views a process runs at once (WEB_THREADS)."""
    return max(1, int(os.environ.get("WEB_THREADS") or 4))


@functools.lru_cache(maxsize=4096)
def _async_view(path: str) -> bool:
    try:
        return iscoroutinefunction(resolve(path).func)
    except Resolver404:
        return False


class SyncViewSlots:
    """The middleware closest to the views: under ASGI, a sync view waits for one of
    ``limit()`` slots of its process; under WSGI it does nothing (the server's threads bound
    the views)."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response
        self.slots: asyncio.Semaphore | None = None
        self.asynchronous = both_ways.serves_async(self, get_response)

    def __call__(self, request: HttpRequest) -> Any:
        if self.asynchronous:
            return self._acall(request)
        return self.get_response(request)

    async def _acall(self, request: HttpRequest) -> Any:
        if _async_view(request.path_info):
            return await self.get_response(request)
        if self.slots is None:  # made on the event loop that serves the process
            self.slots = asyncio.Semaphore(limit())
        async with self.slots:
            return await self.get_response(request)
