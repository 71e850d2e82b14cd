"""A player's command folds from the state the game's last command left in this process when the
log still goes on from it (games/snapshots.py, ``keep``): every command's state is then the one
folded from the log alone, whatever another process appended meanwhile, and a state whose event
is not on the log with that hash, or that a refused command was handed, is never folded from."""

from collections import OrderedDict
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games import hot_queries, services, snapshots
from games.models import Event
from games.rules.engine import GameState
from tests.api.test_reading import base

pytestmark = pytest.mark.django_db


@pytest.fixture
def folds(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each command's head was folded from a kept state; and every state a command
    leaves checked against the log's fold."""
    made: list[bool] = []
    folded = snapshots._folded
    keep_state = services.keep_state

    def watched(read: hot_queries.Head, kept: Any) -> snapshots.Head:
        if kept is not None:
            made.append(read.from_known)
        return folded(read, kept)

    def checked(*, result: services.CommandResult) -> None:
        last = result.events[-1].seq
        assert result.state == snapshots.at(game=result.game, seq=last)
        keep_state(result=result)

    monkeypatch.setattr(snapshots, "_kept", OrderedDict())  # none kept by an earlier test's games
    monkeypatch.setattr(snapshots, "_folded", watched)
    monkeypatch.setattr(services, "keep_state", checked)
    return made


def move(client: APIClient, game: int, post: Any) -> Any:
    """The seat's first option played, or its turn confirmed when it has none left."""
    options = client.get(f"{base(game)}/decision").json()["options"]
    if options:
        answer = post(client, f"{base(game)}/moves", {"choice": options[0]})
    else:
        answer = post(client, f"{base(game)}/confirm")
    assert answer.status_code == 200, answer.content
    return answer.json()


def test_a_command_folds_from_the_state_the_last_one_left_and_what_was_appended_since(
    playing_game: int, alice: APIClient, bob: APIClient, post: Any, folds: list[bool]
) -> None:
    move(alice, playing_game, post)
    # bob's move appended by another process: not kept here
    options = bob.get(f"{base(playing_game)}/decision").json()["options"]
    services.play_move(game_id=playing_game, by=User.objects.get(username="bob"), choice=options[0])
    answer = move(alice, playing_game, post)
    assert folds == [True]
    assert answer["version"] == alice.get(f"{base(playing_game)}/events").json()["version"]


def test_a_state_kept_for_another_history_is_not_folded_from(
    playing_game: int, alice: APIClient, post: Any, folds: list[bool]
) -> None:
    last = Event.objects.filter(game_id=playing_game).order_by("-seq").first()
    assert last is not None
    snapshots.keep(game_id=playing_game, seq=last.seq, hash=bytes(32), state=GameState())
    move(alice, playing_game, post)
    assert folds == [False]


def test_a_refused_command_leaves_no_state_to_fold_from(
    playing_game: int, alice: APIClient, post: Any, folds: list[bool]
) -> None:
    move(alice, playing_game, post)
    # alice has written her number: the rules refuse a move now, with the state she left
    refused = post(alice, f"{base(playing_game)}/moves", {"choice": {"type": "no_such_option"}})
    assert refused.status_code == 409
    move(alice, playing_game, post)
    # the refused command folded from the kept state; the confirm after it found none
    assert folds == [True]
