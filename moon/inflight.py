"""The commands a web process is serving, so that work which can wait a little (the stream
hubs' reads of a commit, api/streams.py) runs after them rather than beside them: the threads
of one process share one interpreter lock, and a read run beside a command lengthens it. A
command is any HTTP request but GET, HEAD and OPTIONS (moves, confirms, joins ...)."""

import asyncio
import contextlib
import weakref
from collections.abc import Callable, Coroutine
from typing import Any

Scope = dict[str, Any]
Application = Callable[[Scope, Any, Any], Coroutine[Any, Any, None]]

READS = frozenset({"GET", "HEAD", "OPTIONS"})


class _Commands:
    """The commands in flight on one event loop (uvicorn runs one per process)."""

    def __init__(self) -> None:
        self.count = 0
        self.none = asyncio.Event()
        self.none.set()


_loops: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Commands]" = weakref.WeakKeyDictionary()


def counted(application: Application) -> Application:
    """The ASGI ``application``, counting the commands it serves until each is answered."""

    async def counting(scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] in READS:
            await application(scope, receive, send)
            return
        loop = asyncio.get_running_loop()
        commands = _loops.get(loop)
        if commands is None:
            commands = _loops[loop] = _Commands()
        commands.count += 1
        commands.none.clear()
        try:
            await application(scope, receive, send)
        finally:
            commands.count -= 1
            if not commands.count:
                commands.none.set()

    return counting


async def after_commands(*, most: float) -> None:
    """Until this process serves no command (one that commits has answered), ``most``
    seconds at most (under a steady flow of commands, there may never be none)."""
    commands = _loops.get(asyncio.get_running_loop())
    if commands is None or not commands.count:
        return
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(most):
            await commands.none.wait()
