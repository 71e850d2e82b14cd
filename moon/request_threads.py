"""The threads that run a web process's sync code under ASGI, kept from one request to the next.

Django's ASGI handler runs a request's sync code (its view, the signals at its start and end) in
a thread of the request's own: asgiref starts one per request, and at the request's end starts
another to join it. Starting and joining two threads cost a request about 0.1 ms of CPU and 0.4
ms of its answer's time, as much as a third of the trivial GET's whole work. ``leased`` gives
each request a thread kept from an earlier one instead, which is what a WSGI server's threads do
too: one request at a time on a thread, all of that request's sync code on it. A thread is taken
back once everything the request gave it has run, so a request that ended while its view still
ran (a client gone) never shares its thread with the next one; a thread idle already is taken
back at once, without waking it.
"""

from collections.abc import Callable, Coroutine
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from asgiref.sync import SyncToAsync, ThreadSensitiveContext

Scope = dict[str, Any]
Application = Callable[[Scope, Any, Any], Coroutine[Any, Any, None]]
P = ParamSpec("P")
T = TypeVar("T")

# Threads kept idle at most: as many as a process runs sync views at once (moon/slots.py), and a
# few for the signals of requests that wait for a slot.
KEPT = 32


class RequestThread(ThreadPoolExecutor):
    """One thread that runs one request's sync code at a time. Asgiref ends a request's
    executor with ``shutdown()`` (so does a stream that lets its thread go, api/streams.py):
    this one goes back to the idle threads instead, once the last call it was given has run
    (its calls run in order)."""

    def __init__(self) -> None:
        super().__init__(max_workers=1, thread_name_prefix="request")
        self._last: Future[Any] | None = None

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        self._last = future = super().submit(fn, *args, **kwargs)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if len(_idle) >= KEPT:
            super().shutdown(wait=False)
            return
        last, self._last = self._last, None
        if last is None:
            _idle.append(self)
        else:
            # at once if it is done; else in the thread, as it ends
            last.add_done_callback(lambda _: _idle.append(self))


# The most recently idle last: a thread taken again soon has its stack still in the caches.
# Appended by the threads themselves, taken by the event loop: a list's append and pop are atomic.
_idle: list[RequestThread] = []


def _lease() -> RequestThread:
    try:
        return _idle.pop()
    except IndexError:
        return RequestThread()


def leased(application: Application) -> Application:
    """The ASGI ``application`` (Django's), each HTTP request's sync code run in a kept thread."""

    async def with_thread(scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await application(scope, receive, send)
            return
        # Django's handler enters a context of its own; inside this one, that does nothing.
        async with ThreadSensitiveContext() as context:
            executors = SyncToAsync.context_to_thread_executor
            executors[context] = _lease()
            try:
                await application(scope, receive, send)
            finally:
                # Ours, or (after a stream let ours go) the one asgiref made for the request's
                # last calls. Taken out of asgiref's hands, which would join it in a new thread.
                executor = executors.pop(context, None)
                if executor is not None:
                    executor.shutdown(wait=False)

    return with_thread
