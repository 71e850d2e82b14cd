"""Commit notifications: how an open stream learns that a log it follows has moved.

``store.append`` schedules ``committed`` for when the appending transaction commits, so every
command, task and import that writes to a stream notifies (one path). One notifier, three
transports (``transport``): with ``REDIS_URL`` set the notification is published on one Redis
channel that every web process listens to; else with PostgreSQL as the database, on one
``LISTEN/NOTIFY`` channel; else (the embedded mode, SQLite) it reaches the streams of this
process only. A notification carries nothing but the stream's name and id, its last seq and
the process that sent it (which lets its own pass: its followers were handed the commit):
whoever wakes reads the log from the database (unless it has read that far already), so a
notification that is lost (the transport down, another process in the embedded mode) delays a
message, never loses it, as long as the reader also looks at the log every now and then (the
stream hubs' poll, api/streams.py). A commit made in this process hands its rows to the
process's followers of the stream at once (``Commit``): a follower holding every event before
them takes them as they are, without reading the log; else it reads the log, which stays the
truth. In a web process, a command's commits are handed on and notified once it has answered
(``moon/inflight``), the notification from a thread of the process's own (``publish``).
"""

import asyncio
import contextlib
import json
import logging
import os
import secrets
import threading
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache, partial
from typing import Any, Protocol

from django.conf import settings
from django.db import connection, models, transaction
from django.db import connections as db_connections

from eventstore import kinds
from eventstore.models import StoredEvent, compact
from moon import inflight

logger = logging.getLogger(__name__)

CHANNEL = "moon:commits"
# How long a lost connection to Redis waits before the listener tries again.
RECONNECT_SECONDS = 1.0

_lock = threading.Lock()
# stream key ("game:12") -> the events of the subscriptions waiting on it, with their loops
_waiting: dict[str, set["Subscription"]] = {}
# one listener per event loop (uvicorn runs one loop per process), and whether it listens
_listeners: dict[asyncio.AbstractEventLoop, tuple[asyncio.Task[None], asyncio.Event]] = {}
# How long a first subscription waits for the listener to be subscribed to Redis.
READY_SECONDS = 2.0


def key(stream: str, stream_id: int) -> str:
    """The name a stream is notified under: ``game:12``, ``campaign:3``."""
    return f"{stream}:{stream_id}"


@dataclass(frozen=True)
class Commit:
    """What a commit made in this process appended to a stream: its rows, in order, and the
    stream's row as the committing transaction left it (copied as it committed: its status
    is the one its events made)."""

    rows: Sequence[StoredEvent]
    head: models.Model

    @property
    def last(self) -> int:
        """The seq of its last event."""
        return self.rows[-1].seq


def following(
    commits: Sequence[Commit], *, after: int, latest: int
) -> tuple[Any, list[tuple[Any, ...]]] | None:
    """The stream's row and its events after seq ``after`` from what ``commits`` (handed to a
    follower, in order) hold, when they hold every event from there up to ``latest`` (the last
    seq known to be committed); else None: read the log. The events are tuples as
    ``store.stream_and_events_after`` reads them: ``seq``, ``kind``, ``version``, ``seat``, the
    stream's own columns, ``data`` (as its stored text decodes) and ``created_at``."""
    rows = [row for commit in commits for row in commit.rows if row.seq > after]
    gap = any(row.seq != seq for seq, row in enumerate(rows, start=after + 1))
    if not rows or gap or rows[-1].seq < latest:
        return None
    return commits[-1].head, [
        (
            row.seq,
            str(row.kind),
            kinds.version_of(row.kind),
            row.seat,
            *(getattr(row, name) for name in row.OWN_FIELDS),
            json.loads(compact(row.data)),
            row.created_at,
        )
        for row in rows
    ]


def after_commit(*, stream: str, stream_id: int, rows: Sequence[StoredEvent]) -> None:
    """Notify the stream's followers of ``rows`` (appended, in order) once the current
    transaction commits (at once outside one)."""
    transaction.on_commit(partial(committed, stream=stream, stream_id=stream_id, rows=rows), robust=True)


def committed(*, stream: str, stream_id: int, rows: Sequence[StoredEvent]) -> None:
    """Hand the rows to this process's followers of the stream (once the command committing
    them has answered, in a web process), and tell every other process that its log moved,
    through the transport."""
    name = key(stream, stream_id)
    commit = Commit(rows, as_now(getattr(rows[-1], stream)))
    inflight.after_answer(partial(deliver, name, seq=commit.last, commit=commit))
    through = transport()
    if through is not None:
        inflight.after_answer(partial(publish, through, notice(name, commit.last)))


def publish(through: "Transport", payload: str) -> None:
    """Send a notification through the transport. On an event loop (a web process's command
    that has answered) it is sent from the process's notifying thread, so that neither the
    command nor the loop waits for the round trip; elsewhere (a worker, a script, a test) at
    once. Sent once the command has answered, it also comes back to this process's own
    listener (every listener hears every notification) after the answer rather than while
    the command's view still runs: taking it in, on the loop, took the interpreter from the
    view (bench/streams.py)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        _publish_now(through, payload)
    else:
        _notifier().submit(_publish_from_thread, through, payload)


def _publish_now(through: "Transport", payload: str) -> None:
    try:
        through.publish(payload)
    except Exception:  # a lost notification only delays a message: the readers poll too
        stream = payload.split()[0]
        logger.warning("commit notification not published", exc_info=True, extra={"stream": stream})


def _publish_from_thread(through: "Transport", payload: str) -> None:
    try:
        _publish_now(through, payload)
    finally:
        # PostgreSQL's NOTIFY took a connection of the process's pool: it goes back
        db_connections.close_all()


_notifying: tuple[int, ThreadPoolExecutor] | None = None


def _notifier() -> ThreadPoolExecutor:
    """The process's notifying thread (made again in a forked child, which has no thread of
    its parent's)."""
    global _notifying
    if _notifying is None or _notifying[0] != os.getpid():
        thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="commit notifications")
        _notifying = (os.getpid(), thread)
    return _notifying[1]


def as_now(instance: models.Model) -> models.Model:
    """A copy of a row's instance with its fields as they are now, which later changes of the
    instance leave as they are. Shallow, as ``copy.copy`` is, but a tenth of its cost (which
    goes through Django's pickling of a model): this runs as every command commits."""
    made = object.__new__(type(instance))
    made.__dict__.update(instance.__dict__)
    return made


def notice(name: str, seq: int) -> str:
    """What a notification carries: the stream's name, its last seq and the process that
    committed (``origin``)."""
    return f"{name} {seq} {origin()}"


def heard(payload: str) -> None:
    """Deliver a notification the transport brought (``notice``; a bare name, or a seq that
    is not a number: read the log), unless this process sent it: its commit was handed to
    this process's followers as it committed, and the transport brings it back to every
    listener, the sender's own included."""
    name, _, rest = payload.partition(" ")
    seq, _, sender = rest.partition(" ")
    if sender and sender == origin():
        return
    deliver(name, seq=int(seq) if seq.isdigit() else None)


_origin: tuple[int, str] = (0, "")


def origin() -> str:
    """This process's name in its notifications: random, made again in a forked child (the
    web server's workers are forked), so that two processes never share one."""
    global _origin
    pid = os.getpid()
    if _origin[0] != pid:
        _origin = (pid, secrets.token_hex(8))
    return _origin[1]


class Transport(Protocol):
    """How notifications cross processes: ``publish`` sends one to every process (this one
    included), ``listen`` relays those of every process to ``heard`` until cancelled (it
    raises when its connection is lost), setting ``ready`` once it listens."""

    name: str

    def publish(self, payload: str) -> None: ...

    async def listen(self, ready: asyncio.Event) -> None: ...


class RedisChannel:
    """Redis pub/sub (``REDIS_URL``)."""

    name = "Redis"

    def publish(self, payload: str) -> None:
        _publisher().publish(payload)

    async def listen(self, ready: asyncio.Event) -> None:
        import redis.asyncio as aioredis

        client = aioredis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2)
        try:
            async with client.pubsub() as pubsub:
                await pubsub.subscribe(CHANNEL)
                ready.set()
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        data = message["data"]
                        heard(data.decode() if isinstance(data, bytes) else str(data))
        finally:
            await client.aclose()


class PostgresChannel:
    """PostgreSQL's ``LISTEN/NOTIFY`` on the database itself, when there is no Redis: the
    notification is sent by the committing connection, each process listens on one
    connection of its own (outside the pool)."""

    name = "PostgreSQL"

    def publish(self, payload: str) -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, payload])

    async def listen(self, ready: asyncio.Event) -> None:
        import psycopg

        database = settings.DATABASES["default"]
        where = {
            "dbname": database.get("NAME"),
            "user": database.get("USER"),
            "password": database.get("PASSWORD"),
            "host": database.get("HOST"),
            "port": database.get("PORT"),
        }
        conninfo = psycopg.conninfo.make_conninfo(**{k: str(v) for k, v in where.items() if v})
        async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True, connect_timeout=2) as db:
            await db.execute(f'LISTEN "{CHANNEL}"')
            ready.set()
            async for notification in db.notifies():
                heard(notification.payload)


def transport() -> Transport | None:
    """The transport of this configuration; None in the embedded mode (this process only)."""
    if settings.REDIS_URL:
        return RedisChannel()
    # from the settings: asking a connection made one in the context of every stream hub that
    # subscribed (on the event loop), kept as long as the hub
    if not settings.EMBEDDED:
        return PostgresChannel()
    return None


def deliver(name: str, *, seq: int | None = None, commit: Commit | None = None) -> None:
    """Wake this process's subscriptions to stream ``name`` (its log reached ``seq``, None when
    not known; ``commit``: what a commit of this process appended); safe from any thread."""
    with _lock:
        subscriptions = list(_waiting.get(name, ()))
    for subscription in subscriptions:
        subscription.wake(seq=seq, commit=commit)


@dataclass(frozen=True)
class News:
    """What a subscription was told since it was last asked: the commits of this process
    handed over, in order, the last seq notified (0: none), and whether it was woken without
    a seq (the log may have moved anywhere)."""

    commits: list[Commit]
    latest: int
    unknown: bool


class Subscription:
    """One follower of one stream in an event loop: ``wait`` returns when the stream was
    notified since the last ``wait`` returned (at once if it was); ``news``, what it was told."""

    def __init__(self, name: str, loop: asyncio.AbstractEventLoop) -> None:
        self.name = name
        self.loop = loop
        self.event = asyncio.Event()
        self._commits: list[Commit] = []
        self._latest = 0
        self._unknown = False

    def wake(self, *, seq: int | None = None, commit: Commit | None = None) -> None:
        """Wake the waiter: the log reached ``seq`` (None: look at it whatever it holds),
        with the rows of ``commit`` when this process made it."""
        with contextlib.suppress(RuntimeError):
            if asyncio.get_running_loop() is self.loop:
                # the listener's own loop (every notification of another process): at once,
                # without waking the loop through its pipe as another thread must
                self._woken(seq, commit)
                return
        with contextlib.suppress(RuntimeError):  # the loop closed: nobody is waiting any more
            self.loop.call_soon_threadsafe(self._woken, seq, commit)

    def _woken(self, seq: int | None, commit: Commit | None) -> None:
        if commit is not None:
            self._commits.append(commit)
        if seq is None:
            self._unknown = True
        else:
            self._latest = max(self._latest, seq)
        self.event.set()

    def news(self) -> News:
        """What the subscription was told since it was last asked (on its loop)."""
        news = News(self._commits, self._latest, self._unknown)
        self._commits, self._latest, self._unknown = [], 0, False
        return news

    async def wait(self) -> None:
        """Until the stream is notified (or woken)."""
        await self.event.wait()
        self.event.clear()


@contextlib.asynccontextmanager
async def subscribe(stream: str, stream_id: int) -> AsyncIterator[Subscription]:
    """Follow a stream's commits for the block's duration (in the running event loop)."""
    loop = asyncio.get_running_loop()
    subscription = Subscription(key(stream, stream_id), loop)
    through = transport()
    if through is not None:
        # A commit notified before the channel is listened to is only read at the next poll.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(_listener(loop, through).wait(), READY_SECONDS)
    with _lock:
        _waiting.setdefault(subscription.name, set()).add(subscription)
    try:
        yield subscription
    finally:
        with _lock:
            followers = _waiting.get(subscription.name)
            if followers is not None:
                followers.discard(subscription)
                if not followers:
                    del _waiting[subscription.name]


# The name the publisher's connections give themselves (CLIENT LIST)
PUBLISHER_NAME = "moon-notify"


class Publisher:
    """PUBLISH on the channel over connections kept for it, one per publishing thread at a time:
    every command sends one, and redis-py's client (its pool's checks of a connection on each
    loan, its retry wrapper) cost twice what sending it and reading its reply do. The reply is
    read, so that a publish that failed is known; a kept connection that fails (Redis
    restarted) is dropped and the publish sent once more on a new one, as the client's retry
    would."""

    def __init__(self, url: str) -> None:
        import redis

        self._pool = redis.ConnectionPool.from_url(
            url, socket_connect_timeout=2, socket_timeout=2, client_name=PUBLISHER_NAME
        )
        self._idle: list[Any] = []
        self._pid = os.getpid()
        self._lock = threading.Lock()
        self._lost = (redis.ConnectionError, redis.TimeoutError, OSError)

    def publish(self, payload: str) -> None:
        with self._lock:
            if self._pid != os.getpid():  # forked: the parent's connections are not this one's
                self._idle, self._pid = [], os.getpid()
            kept = self._idle.pop() if self._idle else None
        if kept is not None:
            try:
                self._send(kept, payload)
                return
            except self._lost:
                pass  # lost since it was last used: once more on a new connection
        self._send(self._pool.make_connection(), payload)

    def _send(self, connection: Any, payload: str) -> None:
        try:
            command = connection.pack_command("PUBLISH", CHANNEL, payload)
            connection.send_packed_command(command, check_health=False)
            connection.read_response()
        except BaseException:
            connection.disconnect()
            raise
        with self._lock:
            self._idle.append(connection)


@cache
def _publisher() -> Publisher:
    return Publisher(settings.REDIS_URL)


def _listener(loop: asyncio.AbstractEventLoop, through: Transport) -> asyncio.Event:
    """The loop's listener (started when there is none): set once it listens."""
    running = _listeners.get(loop)
    if running is None or running[0].done():
        ready = asyncio.Event()
        running = (loop.create_task(_listen(through, ready), name="moon commit notifications"), ready)
        _listeners[loop] = running
    return running[1]


async def _listen(through: Transport, ready: asyncio.Event) -> None:
    """Relay the transport's notifications to this process's subscriptions for as long as the
    loop runs, connecting again when the connection is lost."""
    while True:
        try:
            await through.listen(ready)
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.warning("commit notifications: lost %s, connecting again", through.name, exc_info=True)
        # what was committed meanwhile is read when the subscriptions poll
        await asyncio.sleep(RECONNECT_SECONDS)
