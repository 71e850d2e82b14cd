"""The queries every game request runs, as plain SQL.

A move reads the game, the caller's seat, the snapshot and the events after it (the event store,
eventstore/store.py, reads the game, the seat and the events), then writes the events and the
snapshot, and reads back what the caller's feed holds; a decision reads the first four. Each is
one indexed lookup for the database, but Django's SQL compiler spent more on building them than
the database on running them (three quarters of a command's query time, in
the profile of bench/load.py's move path), so they are written out here once, for SQLite and
PostgreSQL alike. Everything else goes through the ORM.
"""

from collections.abc import Collection
from typing import Any

from django.db import connection

from eventstore import store
from games.models import Event, GameSnapshot

EVENT = Event._meta.db_table
SNAPSHOT = GameSnapshot._meta.db_table


def snapshot(game_id: int, engine_version: str) -> tuple[int, Any] | None:
    """The seq and the state (decoded JSON) of the game's snapshot written by this version of
    the engine, or None."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT seq, state FROM {SNAPSHOT} WHERE game_id = %s AND engine_version = %s",
            [game_id, engine_version],
        )
        row = cursor.fetchone()
    return None if row is None else (row[0], store.decoded(row[1]))


def window(game_id: int, *, from_turn: int, last: int) -> tuple[int, list[tuple[int, int, int | None, str]]]:
    """How many events up to seq ``last`` come before turn ``from_turn``, and the ones from that
    turn on as ``(seq, turn, seat, kind)``."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT COUNT(*) FROM {EVENT} WHERE game_id = %s AND seq <= %s AND turn < %s",
            [game_id, last, from_turn],
        )
        (before,) = cursor.fetchone()
        cursor.execute(
            f"SELECT seq, turn, seat, kind FROM {EVENT} "
            "WHERE game_id = %s AND seq <= %s AND turn >= %s ORDER BY seq",
            [game_id, last, from_turn],
        )
        rows = [(seq, turn, seat, kind) for seq, turn, seat, kind in cursor.fetchall()]
    return int(before), rows


def after(game_id: int, seq: int, *, upto: int | None = None) -> list[tuple[int, int, int | None, str]]:
    """The game's events after ``seq`` (up to ``upto`` when given) as ``(seq, turn, seat,
    kind)``, in order: what a stream's tail reads after each commit."""
    bound, args = ("", [game_id, seq]) if upto is None else (" AND seq <= %s", [game_id, seq, upto])
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT seq, turn, seat, kind FROM {EVENT} WHERE game_id = %s AND seq > %s{bound} ORDER BY seq",
            args,
        )
        return [(seq, turn, seat, kind) for seq, turn, seat, kind in cursor.fetchall()]


def events(game_id: int, seqs: Collection[int]) -> list[Event]:
    """The game's events of these seqs (as a stream's tail renders them), in order."""
    if not seqs:
        return []
    marks = ", ".join(["%s"] * len(seqs))
    query = f"SELECT * FROM {EVENT} WHERE game_id = %s AND seq IN ({marks}) ORDER BY seq"
    return list(Event.objects.raw(query, [game_id, *seqs]))
