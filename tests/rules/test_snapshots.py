"""Snapshots: a state written as JSON and read back is the same state, and a game carried on
from a snapshot ends exactly as the replay of its whole log does."""

import json
import random

import pytest

from games.rules import engine
from games.rules.adventures import PLAYABLE
from games.rules.core import snapshots
from games.rules.engine import GameState
from games.rules.play import bots


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


def test_a_solo_battle_snapshot_keeps_astras_card_of_the_round() -> None:
    """Taken while the player chooses where ASTRA's card goes (before it is placed) and right
    after (placed, the hand still to complete), a snapshot reads back as the same state."""
    rng = random.Random("snapshots/solo-battle")
    final, events = bots.play_game(adventure=8, bots=[bots.greedy_bot(rng)], seed=3, astra_level=5)
    state = GameState()
    seen = set()
    for event in events:
        engine.evolve(state, event)
        assert state.astra is not None
        if event["kind"] in ("card_drawn", "astra_played"):
            seen.add((state.astra.placed, len(state.astra.hand)))
            assert _through_json(state) == state
    assert {(False, 1), (True, 1)} <= seen
    assert engine.result_event(state) == engine.result_event(final)
