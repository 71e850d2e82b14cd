"""Prepared statements for the queries every request runs.

On PostgreSQL, planning a join or a union cost the database more than running it: the list of
a player's games was planned in about 0.35 ms and run in 0.05 ms, the token's lookup likewise
(bench/server.py). A statement prepared on the connection is planned once and run many times.
Django binds parameters on the client and prepares nothing; ``cursor()`` binds them on the
server, where psycopg prepares a statement from its second run on a connection (the
``prepare_threshold`` of the settings' OPTIONS; the connection keeps it for its life, pooled or
persistent). Only these cursors prepare: Django's bind on the client, which prepares nothing. Elsewhere
(SQLite) it is Django's own cursor. Either way it is Django's cursor wrapper: its errors, its
query log and its execute wrappers are the same.

Use it for plain SQL written out for the hot path, whose parameters have a type of their own
(numbers, text, bytes, datetimes, JSON): a parameter whose type PostgreSQL must infer from
nothing (``%s IS NULL``) cannot be bound on the server.
"""

import functools
from collections.abc import Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections


def cursor() -> Any:
    """A cursor of the default connection whose statements are prepared (PostgreSQL), for use
    as ``with cursor() as c:``."""
    # the connection looked up once: each ``django.db.connection.x`` looks it up again
    db = connections[DEFAULT_DB_ALIAS]
    if db.vendor != "postgresql" or db.settings_dict["OPTIONS"].get("prepare_threshold") is None:
        return db.cursor()
    binding, tz_oid, register_tzloader, text = _postgresql()
    db.ensure_connection()
    # These statements run without Django's health check of a kept connection (a SELECT 1 on
    # a request's first Django cursor or transaction): one that finds the connection dead fails
    # and the connection is dropped at the request's end. The request's first statement is most
    # often one of these (the token's lookup): a check after it would only find what it found.
    db.health_check_done = True  # type: ignore[attr-defined]
    with db.wrap_database_errors:
        raw = binding(db.connection)
        # as Django's create_cursor: the connection's time zone when its loader disagrees
        if db.timezone != raw.adapters.get_loader(tz_oid, text).timezone:
            register_tzloader(db.timezone, raw)
    # as Django's ``connection.cursor()`` wraps its own (a debug wrapper when queries are logged)
    return db._prepare_cursor(raw)  # type: ignore[attr-defined]


# A statement as ``fetch`` takes it: its SQL and its parameters.
Statement = tuple[str, Sequence[Any]]


def fetch(statement: Statement) -> list[tuple[Any, ...]]:
    """Run a query (a ``statement`` that returns rows) with a cursor of ``cursor()`` and fetch
    its rows. One statement per round trip, on purpose: psycopg's pipeline mode, which sends
    several in one, cost more of this process's CPU than the round trips it saved (its own
    bookkeeping, about 55 µs a pipeline, against about 40 µs a round trip; a move's CPU in
    bench/server.py fell by a tenth without it). A query that must see what a lock's previous
    holder committed is a statement after the lock's."""
    sql, params = statement
    with cursor() as each:
        each.execute(sql, params)
        return each.fetchall()


@functools.cache
def _postgresql() -> tuple[Any, int, Any, Any]:
    """What a server-binding cursor needs of Django's PostgreSQL backend and of psycopg
    (imported on PostgreSQL only)."""
    from django.db.backends.postgresql.base import (  # type: ignore[attr-defined]
        TIMESTAMPTZ_OID,
        ServerBindingCursor,
    )
    from django.db.backends.postgresql.psycopg_any import register_tzloader
    from psycopg.pq import Format

    return ServerBindingCursor, TIMESTAMPTZ_OID, register_tzloader, Format.TEXT
