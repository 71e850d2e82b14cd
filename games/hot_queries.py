"""The queries every game request runs, as plain SQL.

A move reads the game, the caller's seat, the snapshot and the events after it, then writes the
events and the snapshot, and reads back what the caller's feed holds; a decision reads the first
four. Each is one indexed lookup for the database, but Django's SQL compiler spent more on
building them than the database on running them (three quarters of a command's query time, in
the profile of bench/load.py's move path), so they are written out here once, for SQLite and
PostgreSQL alike. Everything else goes through the ORM.
"""

import json
from typing import Any

from django.db import connection

from games.models import Event, Game, GameSnapshot, Seat

GAME = Game._meta.db_table
SEAT = Seat._meta.db_table
EVENT = Event._meta.db_table
SNAPSHOT = GameSnapshot._meta.db_table
GAME_FIELDS = tuple(field.attname for field in Game._meta.concrete_fields)
EVENT_FIELDS = ("seq", "kind", "version", "seat", "turn", "data")


def game(game_id: int, *, lock: bool = False) -> Game | None:
    """The game with that id (None when there is none); ``lock``: its row is locked for the
    transaction (on SQLite the transaction itself takes the write lock)."""
    columns = ", ".join(GAME_FIELDS)
    for_update = " FOR UPDATE" if lock and connection.features.has_select_for_update else ""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {columns} FROM {GAME} WHERE id = %s{for_update}", [game_id])
        row = cursor.fetchone()
    return None if row is None else Game.from_db(connection.alias, list(GAME_FIELDS), row)


def seat_index(game_id: int, user_id: int) -> int | None:
    """The index of the user's seat in the game, or None."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {connection.ops.quote_name('index')} FROM {SEAT} WHERE game_id = %s AND user_id = %s",
            [game_id, user_id],
        )
        row = cursor.fetchone()
    return None if row is None else int(row[0])


def snapshot(game_id: int, engine_version: str) -> tuple[int, Any] | None:
    """The seq and the state (decoded JSON) of the game's snapshot written by this version of
    the engine, or None."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT seq, state FROM {SNAPSHOT} WHERE game_id = %s AND engine_version = %s",
            [game_id, engine_version],
        )
        row = cursor.fetchone()
    return None if row is None else (row[0], _json(row[1]))


def events_after(game_id: int, seq: int) -> list[tuple[Any, ...]]:
    """The game's events after ``seq`` as tuples of ``EVENT_FIELDS`` (data decoded)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {', '.join(EVENT_FIELDS)} FROM {EVENT} WHERE game_id = %s AND seq > %s ORDER BY seq",
            [game_id, seq],
        )
        return [(*row[:-1], _json(row[-1])) for row in cursor.fetchall()]


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


def _json(value: Any) -> Any:
    """A JSON column as Python: the drivers hand it over as text (Django decodes it for the ORM)."""
    return json.loads(value) if isinstance(value, str | bytes) else value
