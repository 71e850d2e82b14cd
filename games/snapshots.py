"""Each game's state kept beside its log, so that the cost of a request does not grow with the
game: a request reads the snapshot and folds only the events after it.

Commands write the snapshot in the transaction that appends (``save``); a player's command
only once the snapshot is SNAPSHOT_EVERY events behind (``due``): folding a few events costs far
less than writing the whole state again (bench/server.py). Reads never write: a snapshot that
is missing, or was written by another version of the engine, is ignored and the log is folded
from the start (the next command stores a fresh one).
"""

import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from eventstore import chain
from eventstore.kinds import version_of
from games import hot_queries
from games.models import Event, Game, GameSnapshot
from games.rules import engine
from games.rules.engine import GameState, snapshots

EVENT_FIELDS = ("seq", "kind", "version", "seat", "turn", "data")
# the version of the engine whose snapshots are read (another's are ignored)
ENGINE_VERSION = snapshots.ENGINE_VERSION
# A player's command writes the snapshot once it is this many events behind the log (or more).
SNAPSHOT_EVERY = 16


@dataclass(frozen=True)
class Head:
    """What a command reads of a game's log, in one query: the state now, the seq and hash of
    the last event (0 and the chain's start before the first), which the next append chains
    to, and the seq of the snapshot it was folded from (None: none of this engine's)."""

    state: GameState
    seq: int
    hash: str
    snapshot_seq: int | None


def current(*, game: Game) -> tuple[GameState, int]:
    """The game's state now and the seq of its last event (0 before it starts)."""
    now = head(game=game)
    return now.state, now.seq


# The state a player's command left each game in, in this process, by game id, as (seq of its
# last event, that event's stored hash, state): the next command on the game folds from it the
# events after it (none, unless another process appended) instead of reading and loading the
# snapshot. The hash makes it safe across processes: the chain gives a log that still has that
# event at that seq the same history up to it. The rules change a state in place, so a state is
# held either here or by one command, never both (``_take`` removes it); a command that fails
# never gives its state back. The games played last are kept, up to KEPT_GAMES.
Kept = tuple[int, bytes, GameState]
KEPT_GAMES = 256
_kept: OrderedDict[int, Kept] = OrderedDict()
_kept_lock = threading.Lock()


def head(*, game: Game) -> Head:
    """The game's ``Head``."""
    return _folded(hot_queries.log_head(game.pk, snapshots.ENGINE_VERSION), None)


def locked_head(*, game_id: int, user_id: int) -> tuple[Game, int | None, Head, hot_queries.Window]:
    """The game's row locked for the transaction, the user's seat index in it (None when they
    have none), the game's ``Head`` read under the lock and the feed window of the turn of its
    last event (``hot_queries.locked_log_head``): as every player's command begins. The state
    is folded from the one ``keep`` was given for the game when the log goes on from it; it is
    the caller's alone from here (give it back with ``keep`` once nothing reads it)."""
    kept = _take(game_id)
    game, seat, read, turn_in_play = hot_queries.locked_log_head(
        game_id,
        user_id=user_id,
        engine_version=snapshots.ENGINE_VERSION,
        known=None if kept is None else kept[:2],
    )
    return game, seat, _folded(read, kept), turn_in_play


def _folded(read: hot_queries.Head, kept: Kept | None) -> Head:
    if read.from_known and kept is not None:
        seq, _, state = kept
    else:
        state, seq = loaded(None if read.snapshot_seq is None else (read.snapshot_seq, read.snapshot))
    state, last = fold(state, read.rows, seq)
    digest = chain.GENESIS if read.last_hash is None else chain.hexed(read.last_hash)
    return Head(state, last, digest, read.snapshot_seq)


def _take(game_id: int) -> Kept | None:
    with _kept_lock:
        return _kept.pop(game_id, None)


def keep(*, game_id: int, seq: int, hash: bytes, state: GameState) -> None:
    """Give back the state a committed command left the game in, as of its event ``seq`` whose
    stored hash is ``hash``, once nothing reads it any more: the next command on the game in
    this process folds from it (``locked_head``). A state of an older event than the one kept
    is dropped."""
    with _kept_lock:
        held = _kept.get(game_id)
        if held is not None and held[0] >= seq:
            return
        _kept[game_id] = (seq, hash, state)
        _kept.move_to_end(game_id)
        if len(_kept) > KEPT_GAMES:
            _kept.popitem(last=False)


def loaded(stored: tuple[int, Any] | None) -> tuple[GameState, int]:
    """The state a snapshot read as ``(seq, state)`` of this version of the engine holds (the
    state before the first event when there is none), and its seq."""
    if stored is None:
        return GameState(), 0
    seq, data = stored
    return snapshots.load(data), seq


def due(read: Head, *, seq: int, state: GameState) -> bool:
    """Whether a command that read ``read`` and brought the log to ``seq`` and ``state``
    writes the snapshot: when none of this engine's was read, when it is SNAPSHOT_EVERY events
    behind, and once the game no longer plays (what the admin and the imports read)."""
    if read.snapshot_seq is None or state.status != "playing":
        return True
    return seq - read.snapshot_seq >= SNAPSHOT_EVERY


def at(*, game: Game, seq: int) -> GameState:
    """The game's state right after event ``seq``, folded from the log alone."""
    return fold(GameState(), _rows(Event.objects.filter(game_id=game.pk, seq__lte=seq)), 0)[0]


def events_after(*, game: Game, seq: int) -> Any:
    """The rows after ``seq`` as tuples of ``EVENT_FIELDS`` (no model instances)."""
    return _rows(Event.objects.filter(game_id=game.pk, seq__gt=seq))


def _rows(events: Any) -> Iterator[tuple[Any, ...]]:
    """``events`` in order as tuples of ``EVENT_FIELDS``: the version is the one their ``kind``
    was stored with."""
    columns = ("seq", "kind", "seat", "turn", "data")
    for seq, kind, seat, turn, data in events.order_by("seq").values_list(*columns):
        yield seq, str(kind), version_of(kind), seat, turn, data


def fold(state: GameState, rows: Any, seq: int) -> tuple[GameState, int]:
    """Apply rows of ``EVENT_FIELDS`` to ``state`` in place; the state and the last seq."""
    rows = list(rows)
    engine.replay(
        (
            {"kind": kind, "v": version or 1, "seat": seat, "turn": turn, "data": data}
            for _, kind, version, seat, turn, data in rows
        ),
        state,
    )
    return state, rows[-1][0] if rows else seq


def save(*, game: Game, state: GameState, seq: int) -> None:
    """Store the state as of event ``seq``; call it in the transaction that appended it."""
    hot_queries.save_snapshot(
        game.pk, seq=seq, engine_version=snapshots.ENGINE_VERSION, state=snapshots.dump(state)
    )


def matches_log(*, game: Game) -> bool:
    """Whether the stored snapshot is the fold of the log up to its seq (True when none)."""
    stored = GameSnapshot.objects.filter(game_id=game.pk).first()
    if stored is None or stored.engine_version != snapshots.ENGINE_VERSION:
        return True
    return snapshots.load(stored.state) == at(game=game, seq=stored.seq)
