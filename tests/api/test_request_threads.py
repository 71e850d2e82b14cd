"""Under ASGI a request's sync code runs in a thread kept from an earlier request
(moon/request_threads.py): all of one request's sync calls on one thread, as Django's database
connections need, one request at a time on a thread, and no thread started per request."""

import asyncio
import threading
from typing import Any

from asgiref.sync import sync_to_async

from moon import request_threads


def app_recording(threads: list[int], *, hold: threading.Event | None = None) -> Any:
    """An ASGI application whose request makes two thread-sensitive sync calls, as Django's
    handler does (the request's start, then its view), recording the thread of each."""

    def record() -> None:
        threads.append(threading.get_ident())
        if hold is not None:
            hold.wait(10)

    async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await sync_to_async(record)()
        await sync_to_async(record)()

    return request_threads.leased(application)


async def request(application: Any) -> None:
    await application({"type": "http"}, None, None)


def test_requests_one_after_another_run_on_one_kept_thread() -> None:
    threads: list[int] = []
    application = app_recording(threads)

    async def five_requests() -> None:
        for _ in range(5):
            await request(application)
            # the thread goes back to the idle ones once the request's calls have run
            await asyncio.sleep(0.05)

    started = threading.active_count()
    asyncio.run(five_requests())
    assert len(threads) == 10
    assert len(set(threads)) == 1
    assert threading.active_count() <= started + 1


def test_a_thread_still_running_an_ended_request_is_not_lent_to_the_next() -> None:
    held: list[int] = []
    hold = threading.Event()
    busy = app_recording(held, hold=hold)
    free: list[int] = []
    other = app_recording(free)

    async def a_request_ends_while_its_view_runs() -> None:
        first = asyncio.ensure_future(request(busy))
        while not held:
            await asyncio.sleep(0.01)
        first.cancel()  # the client went away; its view runs on
        await asyncio.gather(first, return_exceptions=True)
        await request(other)
        assert held[0] not in free
        hold.set()
        await asyncio.sleep(0.1)
        await request(other)

    asyncio.run(a_request_ends_while_its_view_runs())
    # and once its view has ended, it is kept again
    assert set(free[2:]) == {held[0]}
