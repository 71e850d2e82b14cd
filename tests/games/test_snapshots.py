"""The snapshot beside each game's log: the fold of the log, at most SNAPSHOT_EVERY events
behind it while the game is played, and ignored when it is missing or was written by another
version of the engine."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from games import snapshots
from games.models import Event, Game, GameSnapshot
from games.rules import engine
from games.rules.core import snapshots as codec
from tests.api.test_reading import base, play_until_confirm

pytestmark = pytest.mark.django_db


def _replayed(game_id: int) -> Any:
    rows = Event.objects.filter(game_id=game_id).order_by("seq")
    return engine.replay(row.as_engine_event() for row in rows)


def test_commands_keep_the_snapshot_a_few_events_behind_the_log_at_most(
    playing_game: int, alice: APIClient, bob: APIClient, carol: APIClient, post: Any
) -> None:
    game = Game.objects.get(pk=playing_game)
    seqs = set()
    for _ in range(5):  # turns
        for client in (alice, bob, carol):
            play_until_confirm(client, playing_game, post)
            post(client, f"{base(playing_game)}/confirm")
            stored = GameSnapshot.objects.get(game=game)
            logged = Event.objects.filter(game=game).count()
            assert logged - snapshots.SNAPSHOT_EVERY < stored.seq <= logged
            assert snapshots.matches_log(game=game)
            assert snapshots.current(game=game) == (_replayed(playing_game), logged)
            seqs.add(stored.seq)
    assert len(seqs) > 1  # written again as the log grew


@pytest.mark.parametrize("damage", ["stale", "missing"])
def test_a_stale_or_missing_snapshot_is_rebuilt_from_the_log(
    playing_game: int, alice: APIClient, post: Any, damage: str
) -> None:
    play_until_confirm(alice, playing_game, post)
    def answers() -> list[Any]:
        return [alice.get(base(playing_game)).json(), alice.get(f"{base(playing_game)}/sheets/0").json()]

    before = answers()
    if damage == "stale":
        # another engine's snapshot, with a state this one would misread
        GameSnapshot.objects.filter(game_id=playing_game).update(
            engine_version="another-engine", state={"not": "a state"}
        )
    else:
        GameSnapshot.objects.filter(game_id=playing_game).delete()
    assert answers() == before
    assert post(alice, f"{base(playing_game)}/confirm").status_code == 200
    stored = GameSnapshot.objects.get(game_id=playing_game)
    assert stored.engine_version == codec.ENGINE_VERSION
    assert snapshots.matches_log(game=Game.objects.get(pk=playing_game))


def test_a_snapshot_that_disagrees_with_the_log_is_caught(playing_game: int) -> None:
    game = Game.objects.get(pk=playing_game)
    stored = GameSnapshot.objects.get(game=game)
    stored.state = {**stored.state, "turn": stored.state["turn"] + 1}
    stored.save()
    assert not snapshots.matches_log(game=game)
