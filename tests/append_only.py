"""Lifting the event logs' append-only triggers inside a test, as only a test may: to change a
row behind their back, or to empty the logs when a transactional test ends."""

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection

from eventstore.triggers import APPEND_ONLY, GAME_EVENTS, AppendOnly

LOGS = APPEND_ONLY


def _run(statements: list[str]) -> None:
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


@contextmanager
def triggers_lifted(*logs: AppendOnly) -> Iterator[None]:
    """Drop the append-only triggers of ``logs`` (the games' by default), and put them back as
    the migrations install them."""
    logs = logs or (GAME_EVENTS,)
    for log in logs:
        _run(log.drop_statements(connection.vendor))
    try:
        yield
    finally:
        for log in logs:
            _run(log.create_statements(connection.vendor))


def empty_the_log() -> None:
    """Delete every event of every log, for a transactional test's flush. On PostgreSQL the
    flush is a TRUNCATE, which each log's statement trigger refuses even on an empty table: that
    trigger is left disabled in this throwaway test database, as tests/services/conftest.py
    leaves it."""
    with triggers_lifted(*LOGS), connection.cursor() as cursor:
        for log in reversed(LOGS):
            cursor.execute(f"DELETE FROM {log.table}")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            for log in LOGS:
                cursor.execute(f"ALTER TABLE {log.table} DISABLE TRIGGER {log.prefix}_no_truncate")
