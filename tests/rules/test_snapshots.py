"""Snapshots: a state written as JSON and read back is the same state, and a game carried on
from a snapshot ends exactly as the replay of its whole log does."""

import json
import random

import pytest

from games.rules import bots, engine, snapshots
from games.rules.adventures import PLAYABLE
from games.rules.engine import GameState


def _through_json(state: GameState) -> GameState:
    return snapshots.load(json.loads(json.dumps(snapshots.dump(state))))


@pytest.mark.parametrize(
    ("adventure", "players"),
    [(number, players) for number, rules in sorted(PLAYABLE.items()) for players in (rules.min_players, 4)],
)
def test_a_snapshot_at_any_event_reads_back_as_the_same_state(adventure: int, players: int) -> None:
    rng = random.Random(f"snapshots/{adventure}/{players}")
    seats = [bots.greedy_bot(rng) if seat == 0 else bots.random_bot(rng) for seat in range(players)]
    final, events = bots.play_game(adventure=adventure, bots=seats, seed=adventure * 10 + players)
    state = GameState()
    for index, event in enumerate(events):
        engine.evolve(state, event)
        if index % 5 == 0 or index == len(events) - 1:
            assert _through_json(state) == state, f"after event {index} ({event['kind']})"
    # carried on from a snapshot taken mid-game, the log folds to the same end
    middle = len(events) // 2
    carried = _through_json(engine.replay(events[:middle]))
    for event in events[middle:]:
        engine.evolve(carried, event)
    assert carried == final
    assert engine.result_event(carried) == engine.result_event(final)


def test_the_engine_version_changes_with_the_snapshot_format(monkeypatch: pytest.MonkeyPatch) -> None:
    before = snapshots.ENGINE_VERSION
    monkeypatch.setattr(snapshots, "FORMAT", snapshots.FORMAT + 1)
    assert snapshots._engine_version() != before
