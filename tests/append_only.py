"""Lifting the event log's append-only triggers inside a test, as only a test may: to change a
row behind their back, or to empty the log when a transactional test ends."""

import importlib
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection

append_only = importlib.import_module("games.migrations.0002_event_append_only")


def _run(*, forward: bool) -> None:
    with connection.cursor() as cursor:
        for statement in append_only._statements(connection.vendor, forward=forward):
            cursor.execute(statement)


@contextmanager
def triggers_lifted() -> Iterator[None]:
    """Drop the append-only triggers, and put them back as migration 0002 installs them."""
    _run(forward=False)
    try:
        yield
    finally:
        _run(forward=True)


def empty_the_log() -> None:
    """Delete every event, for a transactional test's flush. On PostgreSQL the flush is a
    TRUNCATE, which the log's statement trigger refuses even on an empty table: that trigger is
    left disabled in this throwaway test database, as tests/services/conftest.py leaves it."""
    with triggers_lifted(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM games_event")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ALTER TABLE games_event DISABLE TRIGGER games_event_no_truncate")
