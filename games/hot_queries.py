"""The queries every game request runs, as plain SQL.

A move locks the game's row with the caller's seat (the event store, eventstore/store.py), then
reads in one query (``locked_log_head``) the log's head (the snapshot, unless the state the
process kept is still on the log, the events after it and the last hash) and the turn in play
(the author's feed positions follow from it), then writes the events and the snapshot; a
decision reads the log's head (``log_head``) and locks nothing. Each is an indexed lookup for
the database, but Django's SQL compiler spent more on building them than the database on running
them (three quarters of a command's query time, in the profile of bench/load.py's move path), and
each statement costs both sides: so they are written out here once, for SQLite and PostgreSQL
alike, as few as they can be. The list of a player's games, the most polled read, is here too.
Everything else goes through the ORM.
"""

import functools
from datetime import UTC, datetime
from itertools import groupby
from typing import Any, NamedTuple

from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from eventstore import kinds, store
from eventstore.models import stored_form
from games.models import Event, Game, GameSnapshot, Seat
from moon import prepared

EVENT = Event._meta.db_table
SNAPSHOT = GameSnapshot._meta.db_table
GAME = Game._meta.db_table
SEAT = Seat._meta.db_table
USER = User._meta.db_table


class Head(NamedTuple):
    """What folding a game up to now reads (``log_head``)."""

    # the seq of its snapshot written by this version of the engine (None when there is none)
    snapshot_seq: int | None
    # that snapshot's state (None when the fold starts from the known event instead)
    snapshot: Any
    # the events after the snapshot (or the known event) as tuples of ``snapshots.EVENT_FIELDS``
    rows: list[tuple[Any, ...]]
    # the hash stored on the last event (None before the first)
    last_hash: bytes | None
    # whether the fold starts from the known event (``locked_log_head``)
    from_known: bool = False


def log_head(game_id: int, engine_version: str) -> Head:
    """What folding the game up to now reads, in one query: its snapshot, the events after it
    (data decoded) and the last event's hash."""
    return _head(prepared.fetch(_log_head(game_id, engine_version, known=NOTHING_KNOWN, window=False)))


# Events as ``engine.feed`` reads them: ``(seq, turn, seat, kind)``.
FeedRow = tuple[int, int, int | None, str]
# How many events come before a turn, and the events from that turn on (``window``).
Window = tuple[int, list[FeedRow]]


def locked_log_head(
    game_id: int, *, user_id: int, engine_version: str, known: tuple[int, bytes] | None
) -> tuple[Game, int | None, Head, Window]:
    """The game's row locked for the transaction with the user's seat index (or None), then,
    once the lock is held, its ``log_head`` and the ``window`` of the turn of its last event
    (the author's feed positions of what the command appends follow from it) in one query: as
    every player's command begins. ``known``: the seq and stored hash of an event whose state
    the caller holds: when the log still has it, and it is not older than the snapshot, the
    head is the events after it (``Head.from_known``)."""
    locked = prepared.fetch(store.lock_seated(Game, game_id, seats=Seat, stream="game", user_id=user_id))
    game, seat = store.seated(Game, game_id, locked)
    # a statement of its own, after the lock: in READ COMMITTED it sees what the lock's
    # previous holder committed
    found = prepared.fetch(_log_head(game_id, engine_version, known=known or NOTHING_KNOWN, window=True))
    window = [row for row in found if row[0] >= WINDOW_BOUND]
    return game, seat, _head(found[: len(found) - len(window)]), _window_rows(window)


# ``known`` when the caller holds no state: no event has seq 0.
NOTHING_KNOWN = (0, b"")
# The parts of ``_log_head``'s rows: the snapshot, the events after it (or after the known
# event), the known event, and with the window its bound and its events.
SNAPSHOT_PART, EVENTS_PART, KNOWN_PART, WINDOW_BOUND, WINDOW_EVENTS = range(5)


def _log_head(
    game_id: int, engine_version: str, *, known: tuple[int, bytes], window: bool
) -> prepared.Statement:
    seq, digest = known
    params: list[Any] = [game_id, seq, digest, game_id, engine_version]
    if window:
        params += [game_id, game_id]  # the window's start (BEFORE_LAST_TURN)
    params += [game_id, game_id, engine_version, game_id, engine_version]
    if window:
        params.append(game_id)  # the window's events
    return _log_head_sql(window), params


@functools.cache
def _log_head_sql(window: bool) -> str:
    # The known event, when it is on the log with that hash (the chain makes it the same
    # history up to it) and not older than the snapshot; the snapshot's seq, with its state
    # only when the fold starts from it; the events after the one or the other. With
    # ``window``: the turn in play of the last event (see START_CTE).
    snapshot = f"SELECT seq FROM {SNAPSHOT} WHERE game_id = %s AND engine_version = %s"
    ctes = (
        f"WITH known AS (SELECT seq, hash FROM {EVENT} WHERE game_id = %s AND seq = %s AND hash = %s "
        f"AND seq >= COALESCE(({snapshot}), 0))"
    )
    parts = (
        f"SELECT {EVENTS_PART} AS part, seq, kind, seat, turn, CAST(data AS text), hash FROM {EVENT} "
        f"WHERE game_id = %s AND seq > COALESCE((SELECT seq FROM known), ({snapshot}), 0) "
        f"UNION ALL SELECT {SNAPSHOT_PART}, s.seq, NULL, NULL, NULL, "
        "CASE WHEN EXISTS (SELECT 1 FROM known) THEN NULL ELSE CAST(s.state AS text) END, e.hash "
        f"FROM {SNAPSHOT} s LEFT JOIN {EVENT} e ON e.game_id = s.game_id AND e.seq = s.seq "
        "WHERE s.game_id = %s AND s.engine_version = %s "
        f"UNION ALL SELECT {KNOWN_PART}, seq, NULL, NULL, NULL, NULL, hash FROM known"
    )
    if window:
        ctes += ", " + START_CTE.format(before=BEFORE_LAST_TURN)
        parts += " UNION ALL " + _window_branches(width=7)
    return f"{ctes} {parts} ORDER BY 1, 2"


def _head(found: list[tuple[Any, ...]]) -> Head:
    snapshot_seq, state, head = None, None, None
    if found and found[0][0] == SNAPSHOT_PART:
        _, snapshot_seq, *_, state, head = found.pop(0)
    from_known = bool(found) and found[-1][0] == KNOWN_PART
    if from_known:
        head = found.pop()[-1]
    rows = [(row[1], *kinds.pair(row[2]), *row[3:5], store.decoded(row[5])) for row in found]
    last_hash = found[-1][-1] if found else head
    return Head(snapshot_seq, None if state is None else store.decoded(state), rows, last_hash, from_known)


def save_snapshot(game_id: int, *, seq: int, engine_version: str, state: Any) -> None:
    """Store the game's snapshot: one UPDATE on every command but the first (the game's row is
    locked, so nobody races it), an INSERT on the first."""
    values = {"seq": seq, "engine_version": engine_version, "state": state, "updated_at": timezone.now()}
    fields = {field.name: field for field in GameSnapshot._meta.concrete_fields}
    bound = [fields[name].get_db_prep_save(value, connection) for name, value in values.items()]
    with prepared.cursor() as cursor:
        cursor.execute(
            f"UPDATE {SNAPSHOT} SET {', '.join(f'{name} = %s' for name in values)} WHERE game_id = %s",
            [*bound, game_id],
        )
        if cursor.rowcount == 0:
            cursor.execute(
                f"INSERT INTO {SNAPSHOT} (game_id, {', '.join(values)}) VALUES (%s, %s, %s, %s, %s)",
                [game_id, *bound],
            )


def window(game_id: int, *, from_turn: int, last: int) -> Window:
    """How many events up to seq ``last`` come before turn ``from_turn``, and the ones from that
    turn on as ``(seq, turn, seat, kind)``: one query (the count comes first). See ``START_CTE``."""
    return _window_rows(prepared.fetch((_window_sql(), [game_id, last, from_turn, game_id, last])))


@functools.cache
def _window_sql() -> str:
    before = (
        f"SELECT seq FROM {EVENT} WHERE game_id = %s AND seq <= %s AND turn < %s ORDER BY seq DESC LIMIT 1"
    )
    branches = _window_branches(width=5, up_to=" AND seq <= %s")
    return f"WITH {START_CTE.format(before=before)} {branches} ORDER BY 1, 2"


def _window_branches(*, width: int, up_to: str = "") -> str:
    """A window's part of a statement whose ``start`` is START_CTE's: its events from the bound
    on (``up_to``: a further condition on them), then the bound, each row padded with NULLs to
    ``width`` columns. Its parameters: the game's id (then ``up_to``'s)."""
    pad = ", NULL" * (width - 5)
    return (
        f"SELECT {WINDOW_EVENTS}, seq, kind, seat, turn{pad} FROM {EVENT} "
        f"WHERE game_id = %s AND seq > {BOUND}{up_to} "
        f"UNION ALL SELECT {WINDOW_BOUND}, bound, NULL, NULL, NULL{pad} FROM start"
    )


def _window_rows(found: list[tuple[Any, ...]]) -> Window:
    """The ``Window`` of a window's rows: its bound, then its events as ``(part, seq, kind, seat,
    turn, ...)``."""
    (_, before_count, *_), *rows = found
    return int(before_count), [(row[1], row[4], row[3], kinds.pair(row[2])[0]) for row in rows]


# Where a turn starts, with no index on turn: a game's turns only grow with its seqs, which are
# 1, 2, 3..., so the seq of the last event before a turn (``before``, 0 when there is none) is
# also how many come before it, and the turn's events are the ones after it. The primary key is
# read backwards from the end, through the events of the turns asked for, which are read anyway.
START_CTE = "start AS (SELECT COALESCE(({before}), 0) AS bound)"
# The turn's events are read from that seq on as a value, so the primary key's range starts
# there: joined with ``start`` instead, the planner, when it took a game for a short one (a game
# newer than its statistics), read every event of the game and filtered them.
BOUND = "(SELECT bound FROM start)"
# ``before`` for the turn of the game's last event (it takes the game's id twice).
BEFORE_LAST_TURN = (
    f"SELECT seq FROM {EVENT} WHERE game_id = %s AND turn < "
    f"(SELECT turn FROM {EVENT} WHERE game_id = %s ORDER BY seq DESC LIMIT 1) ORDER BY seq DESC LIMIT 1"
)


class TailRow(NamedTuple):
    """An event as a stream's tail keeps it: the columns it folds, shows and renders."""

    seq: int
    kind: str
    version: int | None
    seat: int | None
    turn: int
    data: Any
    created_at: datetime

    def as_engine_event(self) -> dict[str, Any]:
        """The event as the rules engine knows it (as ``Event.as_engine_event``)."""
        return stored_form(
            kind=self.kind, version=self.version, seat=self.seat, turn=self.turn, data=self.data
        )


# The columns of a TailRow; the events' branch comes first in each query so that SQLite types
# the union's columns by it (it converts created_at by the declared type of the first branch).
# JSON is read as its text in a union: events' data is json on PostgreSQL, a snapshot's jsonb.
TAIL_COLUMNS = "seq, kind, seat, turn, CAST(data AS text), created_at"


def turn_in_play(game_id: int) -> tuple[int, list[TailRow]]:
    """How many events come before the turn of the game's last event, and the events of that
    turn in full, in order: where a stream's tail starts, in one query (see ``START_CTE``)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH {START_CTE.format(before=BEFORE_LAST_TURN)} SELECT 1, {TAIL_COLUMNS} FROM {EVENT} "
            f"WHERE game_id = %s AND seq > {BOUND} "
            "UNION ALL SELECT 0, bound, NULL, NULL, NULL, NULL, NULL FROM start ORDER BY 1, 2",
            [game_id, game_id, game_id],
        )
        (_, before_count, *_), *rows = cursor.fetchall()
    return int(before_count), [_tail_row(row[1:]) for row in rows]


def tail(
    game_id: int, *, after: int, engine_version: str | None
) -> tuple[Game | None, tuple[int, Any] | None, list[TailRow]]:
    """What a stream's tail reads after each commit, in one query: the game's row (None when
    there is none), and its events after seq ``after`` in full, in order. With
    ``engine_version``, also the snapshot that version wrote as ``(seq, state)`` (None when
    there is none), and the events from the older of the two on (the tail folds its state from
    it). One statement: the row's status is the one its events made."""
    bound, args = "%s", list[Any]([after])
    snapshot = ""
    if engine_version is not None:
        older = "CASE WHEN COALESCE(MAX(seq), 0) < %s THEN COALESCE(MAX(seq), 0) ELSE %s END"
        bound = f"(SELECT {older} FROM {SNAPSHOT} WHERE game_id = %s AND engine_version = %s)"
        args = [after, after, game_id, engine_version]
        snapshot = (
            f" UNION ALL SELECT 0, seq, NULL, NULL, NULL, CAST(state AS text), NULL FROM {SNAPSHOT} "
            "WHERE game_id = %s AND engine_version = %s"
        )
        args += [game_id, engine_version]
    fields = len(Game._meta.concrete_fields)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {store.columns(Game, 'g')}, x.* FROM {GAME} g LEFT JOIN ("
            f"SELECT 1 AS part, {TAIL_COLUMNS} FROM {EVENT} WHERE game_id = %s AND seq > {bound}{snapshot}"
            ") x ON 1 = 1 WHERE g.id = %s ORDER BY x.part, x.seq",
            [game_id, *args, game_id],
        )
        found = cursor.fetchall()
    if not found:
        return None, None, []
    game = store.from_row(Game, found[0][:fields])
    stored = None
    rows = []
    for row in found:
        part, *columns = row[fields:]
        if part == 0:
            stored = (int(columns[0]), store.decoded(columns[4]))
        elif part == 1:
            rows.append(_tail_row(columns))
    return game, stored, rows


def _tail_row(columns: Any) -> TailRow:
    seq, code, seat, turn, data, created_at = store.aware(columns)
    if isinstance(created_at, str):  # SQLite hands a union's times over as their text, in UTC
        created_at = datetime.fromisoformat(created_at).replace(tzinfo=UTC)
    kind, version = kinds.pair(code)
    return TailRow(seq, kind, version, seat, turn, store.decoded(data), created_at)


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
    with prepared.cursor() as cursor:
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
