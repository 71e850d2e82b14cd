"""Each game's state kept beside its log, so that the cost of a request does not grow with the
game: a request reads the snapshot and folds only the events after it.

Commands write the snapshot in the transaction that appends (``save``). Reads never write: a
snapshot that is missing, or was written by another version of the engine, is ignored and the
log is folded from the start (the next command stores a fresh one).
"""

from typing import Any

from eventstore import chain
from games import hot_queries
from games.models import Event, Game, GameSnapshot
from games.rules import engine
from games.rules.engine import GameState, snapshots

EVENT_FIELDS = ("seq", "kind", "version", "seat", "turn", "data")


def current(*, game: Game) -> tuple[GameState, int]:
    """The game's state now and the seq of its last event (0 before it starts)."""
    state, seq, _ = head(game=game)
    return state, seq


def head(*, game: Game) -> tuple[GameState, int, str]:
    """``current``, and the hash of the last event (the chain's start before the first), which
    the next append chains to: what a command reads of the log, in one query."""
    stored, rows, last_hash = hot_queries.log_head(game.pk, snapshots.ENGINE_VERSION)
    if stored is None:
        state, seq = GameState(), 0
    else:
        seq, data = stored
        state = snapshots.load(data)
    state, seq = fold(state, rows, seq)
    return state, seq, chain.GENESIS if last_hash is None else chain.hexed(last_hash)


def at(*, game: Game, seq: int) -> GameState:
    """The game's state right after event ``seq``, folded from the log alone."""
    rows = Event.objects.filter(game_id=game.pk, seq__lte=seq).order_by("seq")
    return fold(GameState(), rows.values_list(*EVENT_FIELDS), 0)[0]


def events_after(*, game: Game, seq: int) -> Any:
    """The rows after ``seq`` as tuples of ``EVENT_FIELDS`` (no model instances)."""
    return (
        Event.objects.filter(game_id=game.pk, seq__gt=seq).order_by("seq").values_list(*EVENT_FIELDS)
    )


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
