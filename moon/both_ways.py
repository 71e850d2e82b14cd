"""Middleware that serves its chain either way: sync under WSGI, async under ASGI."""

from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction


def serves_async(middleware: Callable[..., Any], get_response: Any) -> bool:
    """Whether the chain below ``middleware`` is async (ASGI); ``middleware`` is then marked a
    coroutine function, as Django asks of one that serves both ways. Asked once, as the
    middleware is made, not on every request: a chain is the one or the other for the
    process's life."""
    asynchronous = iscoroutinefunction(get_response)
    if asynchronous:
        markcoroutinefunction(middleware)
    return asynchronous
