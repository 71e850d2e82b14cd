"""The commands a web process is serving, so that work which can wait a little (the stream
hubs' reads of a commit, api/streams.py) runs after them rather than beside them: the threads
of one process share one interpreter lock, and a read run beside a command lengthens it. A
command is any HTTP request but GET, HEAD and OPTIONS (moves, confirms, joins ...). What a
command's own code asks to run once it has answered (``after_answer``: telling the process's
streams of its commits) runs then, on the event loop."""

import asyncio
import contextlib
import contextvars
import logging
import threading
import weakref
from collections.abc import Callable, Coroutine
from typing import Any

Scope = dict[str, Any]
Application = Callable[[Scope, Any, Any], Coroutine[Any, Any, None]]

logger = logging.getLogger(__name__)

READS = frozenset({"GET", "HEAD", "OPTIONS"})


class _Commands:
    """The commands in flight on one event loop (uvicorn runs one per process)."""

    def __init__(self) -> None:
        self.count = 0
        self.none = asyncio.Event()
        self.none.set()


_loops: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Commands]" = weakref.WeakKeyDictionary()


class _Held:
    """What a command asked to run once it has answered."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.calls: list[Callable[[], None]] = []
        self.open = True

    def add(self, call: Callable[[], None]) -> bool:
        """Hold ``call``; False once the command has answered (a thread of it still running
        then runs it at once)."""
        with self.lock:
            if self.open:
                self.calls.append(call)
            return self.open

    def release(self) -> list[Callable[[], None]]:
        with self.lock:
            self.open = False
            return self.calls


# What the command being served holds: the context is copied to the thread that runs its view.
_held: contextvars.ContextVar[_Held | None] = contextvars.ContextVar("held until answered", default=None)


def after_answer(call: Callable[[], None]) -> None:
    """Run ``call`` once the command being served has answered, on the event loop; at once
    where no command is served (a worker, a test, a read). Work that would wake the event loop
    while the command's thread writes its answer waits for it: woken, the loop takes the
    interpreter from that thread."""
    held = _held.get()
    if held is None or not held.add(call):
        call()


def counted(application: Application) -> Application:
    """The ASGI ``application``, counting the commands it serves until each is answered, and
    running what they held for then (``after_answer``)."""

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
        held = _Held()
        token = _held.set(held)
        try:
            await application(scope, receive, send)
        finally:
            _held.reset(token)
            commands.count -= 1
            if not commands.count:
                commands.none.set()
            for call in held.release():
                try:
                    call()
                except Exception:  # one failed call must not keep the others from running
                    logger.exception("a call held until the command answered failed")

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
