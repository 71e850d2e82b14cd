"""The queries every game request runs, as plain SQL.

A move reads the game locked with the caller's seat (the event store, eventstore/store.py), then
the snapshot, the events after it and the last hash in one query (``log_head``), writes the
events and the snapshot, and reads back what the caller's feed holds (``window``); a decision
reads the same but locks nothing. Each is an indexed lookup for the database, but Django's SQL
compiler spent more on building them than the database on running them (three quarters of a
command's query time, in the profile of bench/load.py's move path), and each round trip costs
both sides: so they are written out here once, for SQLite and PostgreSQL alike, as few as they
can be. The list of a player's games, the most polled read, is here too. Everything else goes
through the ORM.
"""

from collections.abc import Collection
from datetime import datetime
from itertools import groupby
from typing import Any

from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from eventstore import store
from games.models import Event, Game, GameSnapshot, Seat

EVENT = Event._meta.db_table
SNAPSHOT = GameSnapshot._meta.db_table
GAME = Game._meta.db_table
SEAT = Seat._meta.db_table
USER = User._meta.db_table


def log_head(
    game_id: int, engine_version: str
) -> tuple[tuple[int, Any] | None, list[tuple[Any, ...]], bytes | None]:
    """What folding the game up to now reads, in one query: its snapshot written by this
    version of the engine as ``(seq, state)`` (None when there is none), the events after it as
    tuples of ``snapshots.EVENT_FIELDS`` (data decoded), and the hash stored on the last of
    them (None before the first event)."""
    snapshot = f"SELECT seq FROM {SNAPSHOT} WHERE game_id = %s AND engine_version = %s"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT 0, s.seq, NULL, NULL, NULL, NULL, s.state, e.hash FROM {SNAPSHOT} s "
            f"LEFT JOIN {EVENT} e ON e.game_id = s.game_id AND e.seq = s.seq "
            "WHERE s.game_id = %s AND s.engine_version = %s "
            f"UNION ALL SELECT 1, seq, kind, version, seat, turn, data, hash FROM {EVENT} "
            f"WHERE game_id = %s AND seq > COALESCE(({snapshot}), 0) ORDER BY 1, 2",
            [game_id, engine_version, game_id, game_id, engine_version],
        )
        found = cursor.fetchall()
    stored = None
    if found and found[0][0] == 0:
        _, seq, *_, state, head = found.pop(0)
        stored = (seq, store.decoded(state))
    else:
        head = None
    rows = [(*row[1:6], store.decoded(row[6])) for row in found]
    return stored, rows, found[-1][-1] if found else head


def save_snapshot(game_id: int, *, seq: int, engine_version: str, state: Any) -> None:
    """Store the game's snapshot: one UPDATE on every command but the first (the game's row is
    locked, so nobody races it), an INSERT on the first."""
    values = {"seq": seq, "engine_version": engine_version, "state": state, "updated_at": timezone.now()}
    fields = {field.name: field for field in GameSnapshot._meta.concrete_fields}
    prepared = [fields[name].get_db_prep_save(value, connection) for name, value in values.items()]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {SNAPSHOT} SET {', '.join(f'{name} = %s' for name in values)} WHERE game_id = %s",
            [*prepared, game_id],
        )
        if cursor.rowcount == 0:
            cursor.execute(
                f"INSERT INTO {SNAPSHOT} (game_id, {', '.join(values)}) VALUES (%s, %s, %s, %s, %s)",
                [game_id, *prepared],
            )


def window(game_id: int, *, from_turn: int, last: int) -> tuple[int, list[tuple[int, int, int | None, str]]]:
    """How many events up to seq ``last`` come before turn ``from_turn``, and the ones from that
    turn on as ``(seq, turn, seat, kind)``: one query (the count comes first)."""
    where = f"FROM {EVENT} WHERE game_id = %s AND seq <= %s AND turn"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT 0, COUNT(*), NULL, NULL, NULL {where} < %s "
            f"UNION ALL SELECT 1, seq, turn, seat, kind {where} >= %s ORDER BY 1, 2",
            [game_id, last, from_turn, game_id, last, from_turn],
        )
        (_, before, *_), *rows = cursor.fetchall()
    return int(before), [(seq, turn, seat, kind) for _, seq, turn, seat, kind in rows]


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


def games_of(
    user_id: int, *, status: str | None, adventure: int | None, cutoff: datetime | None, start: int, size: int
) -> tuple[int, list[tuple[Any, ...]]]:
    """How many games the user has a seat in (of that ``status``, ``adventure``; without the
    lobbies opened before ``cutoff``), and ``size`` of them from ``start`` on, newest first, as
    ``(id, adventure, max_players, astra_level, status, visibility, turn_seconds, creator's
    username, created_at, seats)``, ``seats`` in order as ``(index, username or None, bot)``:
    what the list of a player's games reads on every poll, in one query."""
    where = [f"EXISTS (SELECT 1 FROM {SEAT} s WHERE s.game_id = g.id AND s.user_id = %s)"]
    args: list[Any] = [user_id]
    if cutoff is not None:
        where.append("NOT (g.status = %s AND g.created_at < %s)")
        args += [Game.Status.LOBBY, cutoff]
    if status is not None:
        where.append("g.status = %s")
        args.append(status)
    if adventure is not None:
        where.append("g.adventure = %s")
        args.append(adventure)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT page.*, s.\"index\", seated.username, s.bot FROM ("
            "SELECT g.id, g.adventure, g.max_players, g.astra_level, g.status, g.visibility, "
            f"g.turn_seconds, u.username, g.created_at, COUNT(*) OVER () AS count FROM {GAME} g "
            f"JOIN {USER} u ON u.id = g.creator_id WHERE {' AND '.join(where)} "
            "ORDER BY g.id DESC LIMIT %s OFFSET %s"
            f") page LEFT JOIN {SEAT} s ON s.game_id = page.id "
            f"LEFT JOIN {USER} seated ON seated.id = s.user_id "
            'ORDER BY page.id DESC, s."index"',
            [*args, size, start],
        )
        rows = cursor.fetchall()
        if not rows:
            # past the last page: the count alone
            cursor.execute(f"SELECT COUNT(*) FROM {GAME} g WHERE {' AND '.join(where)}", args)
            return int(cursor.fetchone()[0]), []
    games = []
    for _, group in groupby(rows, key=lambda row: row[0]):
        seated = list(group)
        seats = [tuple(row[10:]) for row in seated if row[10] is not None]
        games.append((*store.aware(seated[0][:9]), seats))
    return int(rows[0][9]), games
