"""Append, lock and load: the one way every stream's events are written and read.

A command locks its stream's row for the transaction (``lock``), folds what it needs from the
events (``rows_after``), and appends what its rules decided (``append``) with dense sequence
numbers, each event chained to the one before it by its hash; the unique (stream, seq)
constraint is the last guard against a lost race. Once the events commit, the stream's open
streams are notified (``notify``). The queries every command runs are written
out as plain SQL: Django's SQL compiler spent more on building them than the database on
running them (see bench/load.py).
"""

import functools
import json
import logging
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import groupby
from typing import Any, TypeVar

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connection, connections, models, transaction
from django.utils import timezone

from eventstore import chain, kinds, notify
from eventstore.errors import Conflict, NotFound, Word
from eventstore.kinds import KindName
from eventstore.models import Stored, StoredEvent
from moon import prepared

logger = logging.getLogger(__name__)

E = TypeVar("E", bound=StoredEvent)
S = TypeVar("S", bound=models.Model)
# Why an event does not fit the current schema of its kind, or None: the stream's registry.
SchemaCheck = Callable[[Any], str | None]


def row(model: type[S], pk: int, *, lock: bool = False) -> S | None:
    """The stream's row with that id (None when there is none); ``lock``: locked for the
    transaction (on SQLite the transaction itself takes the write lock)."""
    for_update = " FOR UPDATE" if lock and connection.features.has_select_for_update else ""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {columns(model)} FROM {model._meta.db_table} WHERE id = %s{for_update}", [pk])
        found = cursor.fetchone()
    return None if found is None else from_row(model, found)


@functools.cache
def columns(model: type[models.Model], table: str = "") -> str:
    """The model's columns, in the order ``from_row`` takes them (each prefixed by ``table.``
    when given, for a join)."""
    prefix = f"{table}." if table else ""
    quote = connection.ops.quote_name
    return ", ".join(prefix + quote(field.column) for field in model._meta.concrete_fields)


def from_row(model: type[S], values: Sequence[Any]) -> S:
    """An instance of ``model`` from the values of its ``columns`` read with plain SQL. SQLite
    hands datetimes over naive (the ORM's converters make them aware): they are made aware here,
    as the ORM would."""
    fields = model._meta.concrete_fields
    return model.from_db(connection.alias, [field.attname for field in fields], aware(values[: len(fields)]))


def aware(values: Sequence[Any]) -> Sequence[Any]:
    """A row read with plain SQL, its datetimes aware as the ORM gives them (SQLite hands them
    over naive, in UTC)."""
    if not settings.USE_TZ or connection.vendor != "sqlite":
        return values
    return tuple(
        timezone.make_aware(value, UTC) if isinstance(value, datetime) and timezone.is_naive(value) else value
        for value in values
    )


def lock(model: type[S], pk: int) -> S:
    """The stream's row, locked for the command's transaction: the command's one read of it
    (refused with ``not_found`` when there is none)."""
    locked = row(model, pk, lock=True)
    if locked is None:
        raise _missing(model, pk)
    return locked


def _missing(model: type[models.Model], pk: int) -> NotFound:
    return NotFound(
        "not_found",
        "There is no %(verbose_name)s %(pk)s.",
        verbose_name=model._meta.verbose_name,
        pk=pk,
    )


def lock_seated(
    model: type[models.Model], pk: int, *, seats: type[models.Model], stream: str, user_id: int
) -> prepared.Statement:
    """The statement of ``lock`` with the index of the user's seat in the stream
    (``seat_index``): one read, as every player's command begins; ``seated`` reads its rows."""
    return _lock_seated(model, seats, stream), [user_id, pk]


@functools.cache
def _lock_seated(model: type[models.Model], seats: type[models.Model], stream: str) -> str:
    index = connection.ops.quote_name("index")
    for_update = " FOR UPDATE" if connection.features.has_select_for_update else ""
    return (
        f"SELECT {columns(model, 'head')}, (SELECT {index} FROM {seats._meta.db_table} "
        f"WHERE {stream}_id = head.id AND user_id = %s) FROM {model._meta.db_table} head "
        f"WHERE head.id = %s{for_update}"
    )


def seated(model: type[S], pk: int, found: Sequence[tuple[Any, ...]]) -> tuple[S, int | None]:
    """The stream's row and the user's seat index (or None) from the rows of ``lock_seated``
    (refused with ``not_found`` when there is no such stream)."""
    if not found:
        raise _missing(model, pk)
    seat = found[0][-1]
    return from_row(model, found[0]), None if seat is None else int(seat)


def seat_index(seat_model: type[models.Model], stream: str, stream_id: int, user_id: int) -> int | None:
    """The index of the user's seat in the stream (a game's or a campaign's), or None."""
    index = connection.ops.quote_name("index")
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {index} FROM {seat_model._meta.db_table} WHERE {stream}_id = %s AND user_id = %s",
            [stream_id, user_id],
        )
        found = cursor.fetchone()
    return None if found is None else int(found[0])


def rows_after(model: type[StoredEvent], stream_id: int, seq: int) -> list[tuple[Any, ...]]:
    """The stream's events after ``seq`` in order, as tuples of ``seq``, ``kind``, ``version``,
    ``seat``, the stream's own columns and ``data`` (decoded)."""
    columns = ", ".join(["seq", "kind", "seat", *model.OWN_FIELDS, "data"])
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {columns} FROM {model._meta.db_table} "
            f"WHERE {model.STREAM}_id = %s AND seq > %s ORDER BY seq",
            [stream_id, seq],
        )
        return [(row[0], *kinds.pair(row[1]), *row[2:-1], decoded(row[-1])) for row in cursor.fetchall()]


def stored_events(model: type[StoredEvent], rows: Sequence[tuple[Any, ...]]) -> Iterator[dict[str, Any]]:
    """The rows of ``rows_after`` as the stream's rules know events."""
    own = model.OWN_FIELDS
    for row in rows:
        _, kind, version, seat, *rest = row
        yield {
            "kind": kind,
            "v": version or 1,
            "seat": seat,
            **dict(zip(own, rest, strict=False)),
            "data": rest[-1],
        }


def append(
    model: type[E],
    stream: models.Model,
    events: Sequence[Stored],
    *,
    version: int,
    actor_id: int | None,
    schema_problem: SchemaCheck,
    prev_hash: str | None = None,
) -> list[E]:
    """Append ``events`` after the stream's event ``version``, chained, in the caller's
    transaction (which holds the stream's lock). Refused with ``concurrent_command`` when
    another command appended first. ``prev_hash``: the hash of event ``version`` when the
    caller read it already (``last_hash`` reads it otherwise)."""
    for event in events:
        # Stored events are forever: one off its kind's schema is a bug, never stored.
        problem = schema_problem(event)
        if problem is not None:
            raise ValueError(f"refusing to store an event off its schema: {problem}")
    if prev_hash is None:
        prev_hash = last_hash(model, stream.pk, version)
    now = timezone.now()  # auto_now_add, as the ORM's insert would
    rows = []
    for seq, event in enumerate(events, start=version + 1):
        content = model.content(seq, event)
        digest = chain.link(prev_hash, content)
        rows.append(
            {
                f"{model.STREAM}_id": stream.pk,
                "seq": seq,
                "kind": KindName(content["kind"], event.get("v", 1)),
                "actor_id": actor_id,
                "hash": chain.stored(digest),
                "created_at": now,
                **{name: content[name] for name in (*model.OWN_FIELDS, "seat", "data")},
            }
        )
        prev_hash = digest
    context = {f"{model.STREAM}_id": stream.pk, "seq": version + 1}
    try:
        # No savepoint: a lost race fails the whole command, whose transaction rolls back.
        with transaction.atomic(savepoint=False):
            appended = insert(model, rows, stream=stream)
    except IntegrityError as exc:
        logger.warning("lost a race to append", extra=context)
        raise Conflict(
            "concurrent_command",
            "Another command on this %(stream)s came first; read it and retry.",
            stream=Word(model.STREAM),
        ) from exc
    if appended:
        # once it is committed, this process's open streams of the log are handed the rows,
        # the other processes' told to read it (eventstore/notify.py)
        notify.after_commit(stream=model.STREAM, stream_id=stream.pk, rows=appended)
        logger.info(
            "events appended: %s",
            ", ".join(row.kind for row in appended),
            extra={**context, "seq": appended[-1].seq, "count": len(appended), "user_id": actor_id},
        )
    return appended


def insert(model: type[E], rows: list[dict[str, Any]], *, stream: models.Model) -> list[E]:
    """Insert new event rows of ``stream`` (each the values of every column, by attribute name)
    in one statement, and give them back as saved rows (their key is (stream, seq)): every
    command appends, and the ORM's SQL compiler cost more than the insert itself."""
    if not rows:
        return []
    db = connections[DEFAULT_DB_ALIAS]  # looked up once: each ``connection.x`` looks it up again
    fields = model._meta.concrete_fields
    values = [field.get_db_prep_save(row[field.attname], db) for row in rows for field in fields]
    with prepared.cursor() as cursor:
        cursor.execute(_insert_statement(model, len(rows)), values)
    names = [field.attname for field in fields]
    owner = model._meta.get_field(model.STREAM)
    saved = []
    for row in rows:
        # as a row read back: built from its values in column order, with its stream at hand
        event = model.from_db(db.alias, names, [row[name] for name in names])
        owner.set_cached_value(event, stream)  # type: ignore[union-attr]
        saved.append(event)
    return saved


@functools.cache
def _insert_statement(model: type[StoredEvent], count: int) -> str:
    """The INSERT of ``count`` rows of ``model``, each the values of every column in order."""
    fields = model._meta.concrete_fields
    marks = ", ".join(["(" + ", ".join(["%s"] * len(fields)) + ")"] * count)
    return f"INSERT INTO {model._meta.db_table} ({columns(model)}) VALUES {marks}"


def last_hash(model: type[StoredEvent], stream_id: int, seq: int) -> str:
    """The hash of the stream's event ``seq`` (the chain's start for 0): one read by the unique
    (stream, seq) index; the stream's row is locked, so it stays the last."""
    if seq == 0:
        return chain.GENESIS
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT hash FROM {model._meta.db_table} WHERE {model.STREAM}_id = %s AND seq = %s",
            [stream_id, seq],
        )
        found = cursor.fetchone()
    if found is None:
        raise ValueError(f"{model.STREAM} {stream_id} has no event {seq} to chain the next one to")
    return chain.hexed(found[0])


# --- the chains --------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChainReport:
    """One stream's chain as ``verify`` found it: its events, its first broken link, and its
    last event's seq and hash (as stored)."""

    stream: str
    stream_id: int
    events: int
    broken: chain.Break | None
    last_seq: int
    last_hash: str


def verify(model: type[StoredEvent], *, stream_id: int | None = None) -> Iterator[ChainReport]:
    """Walk the chain of every stream of ``model``'s with events (or of one), in id order."""
    key = f"{model.STREAM}_id"
    rows = model._default_manager.order_by(key, "seq")
    if stream_id is not None:
        rows = rows.filter(**{key: stream_id})
    fields = model.chained_fields()
    stream = rows.values_list(key, *fields, "hash").iterator(chunk_size=2000)
    for owner, owned in groupby(stream, key=lambda row: row[0]):
        links = list(linked((dict(zip(fields, row[1:-1], strict=True)), row[-1]) for row in owned))
        last = links[-1]
        yield ChainReport(model.STREAM, owner, len(links), chain.first_break(links), last.seq, str(last.hash))


def linked(rows: Iterable[tuple[dict[str, Any], bytes | memoryview]]) -> Iterator[chain.Link]:
    """One stream's rows, in order, as ``(chained fields, stored hash)``, as links of its chain:
    each one's ``prev_hash`` is the hash stored on the row before it (64 zeros for the first)."""
    prev_hash = chain.GENESIS
    for content, stored in rows:
        digest = chain.hexed(stored)
        yield chain.Link(content, prev_hash=prev_hash, hash=digest)
        prev_hash = digest


def decoded(value: Any) -> Any:
    """A JSON column as Python: the drivers hand it over as text (Django decodes it for the ORM)."""
    return json.loads(value) if isinstance(value, str | bytes) else value


def last_seq(model: type[StoredEvent], stream_id: int) -> int:
    """The seq of the stream's last event (0 when it has none): one read of the unique (stream,
    seq) index, for a follower asking whether the log moved."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT MAX(seq) FROM {model._meta.db_table} WHERE {model.STREAM}_id = %s", [stream_id]
        )
        found = cursor.fetchone()
    return int(found[0] or 0) if found else 0


def last_seqs(model: type[StoredEvent], stream_ids: Sequence[int]) -> dict[int, int]:
    """``last_seq`` of many streams in one query (a stream with no event is left out)."""
    if not stream_ids:
        return {}
    marks = ", ".join(["%s"] * len(stream_ids))
    column = f"{model.STREAM}_id"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {column}, MAX(seq) FROM {model._meta.db_table} WHERE {column} IN ({marks}) "
            f"GROUP BY {column}",
            list(stream_ids),
        )
        return {int(stream_id): int(seq) for stream_id, seq in cursor.fetchall()}


def stream_and_events_after(
    model: type[StoredEvent], stream_id: int, seq: int, *, columns: Sequence[str]
) -> tuple[tuple[Any, ...] | None, list[tuple[Any, ...]]]:
    """The stream's row's ``columns`` (None when there is no such stream) and its events after
    ``seq`` in order, as ``rows_after`` gives them with their ``created_at`` last: what a
    stream's follower reads after a commit, in one statement (the row as its events made it)."""
    stream = model._meta.get_field(model.STREAM).related_model
    assert stream is not None and not isinstance(stream, str)
    events = ", ".join(
        f"e.{name}" for name in ["seq", "kind", "seat", *model.OWN_FIELDS, "data", "created_at"]
    )
    wanted = ", ".join(f"s.{connection.ops.quote_name(name)}" for name in columns)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {wanted}, {events} FROM {stream._meta.db_table} s "
            f"LEFT JOIN {model._meta.db_table} e ON e.{model.STREAM}_id = s.id AND e.seq > %s "
            "WHERE s.id = %s ORDER BY e.seq",
            [seq, stream_id],
        )
        found = cursor.fetchall()
    if not found:
        return None, []
    width = len(columns)
    rows = [aware(row[width:]) for row in found if row[width] is not None]
    return found[0][:width], [
        (row[0], *kinds.pair(row[1]), *row[2:-2], decoded(row[-2]), row[-1]) for row in rows
    ]
