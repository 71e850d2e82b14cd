"""A game played through the services to its end, scored by the Celery task (eagerly)."""

import random
from typing import Any

import pytest
from django.contrib.auth.models import User

from eventstore import kinds, notify
from games import selectors, services
from games.models import Event, Game
from games.tasks import score_game

pytestmark = pytest.mark.django_db


def play_to_the_end(game: Game, users: list[User], rng: random.Random) -> Game:
    for _ in range(5000):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return game
        for user in users:
            decision = selectors.decision_view(game=game, viewer=user)
            if decision["options"]:
                services.play_move(game_id=game.pk, by=user, choice=rng.choice(decision["options"]))
            elif decision["can_confirm"]:
                services.confirm_turn(game_id=game.pk, by=user)
    raise AssertionError("the game did not end")


@pytest.fixture
def ended(django_capture_on_commit_callbacks: Any) -> tuple[Game, list[User]]:
    users = [User.objects.create_user(name, password="secret-pw") for name in ("ann", "ben")]
    game = services.create_game(by=users[0], adventure=1, max_players=2)
    services.join_game(game=game, by=users[1], invite=game.invite)
    services.start_game(game=game, by=users[0])
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        game = play_to_the_end(game, users, random.Random(7))
    assert game.status == Game.Status.SCORING
    # besides the notifications of the commits to open streams and the event kinds' codes kept
    # once committed, one follow-up: the scoring
    follow_ups = [
        each
        for each in callbacks
        if getattr(each, "func", None) is not notify.committed and not isinstance(each, kinds.Met)
    ]
    assert len(follow_ups) == 1
    return game, users


def test_an_ended_game_waits_in_scoring_until_the_task_runs(ended: tuple[Game, list[User]]) -> None:
    game, users = ended
    assert not Event.objects.filter(game=game, kind="result").exists()
    assert selectors.decision_view(game=game, viewer=users[0])["kind"] == "wait"
    score_game.delay(game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    result = Event.objects.get(game=game, kind="result")
    assert result.seq == Event.objects.filter(game=game).count()
    view = selectors.game_view(game=game, viewer=users[1])
    assert sorted(score["seat"] for score in view["result"]["scores"]) == [0, 1]


def test_scoring_twice_appends_one_result(ended: tuple[Game, list[User]]) -> None:
    game, _ = ended
    score_game.delay(game.pk)
    count = Event.objects.filter(game=game).count()
    score_game.delay(game.pk)
    assert Event.objects.filter(game=game).count() == count
    assert Event.objects.filter(game=game, kind="result").count() == 1


def test_replay_of_a_finished_game(ended: tuple[Game, list[User]]) -> None:
    from eventstore.errors import Invalid

    game, users = ended
    score_game.delay(game.pk)
    game.refresh_from_db()
    version = Event.objects.filter(game=game).count()
    first = selectors.replay_view(game=game, viewer=users[0], seq=1)
    assert first["seq"] == 1
    assert len(first["sheets"]) == 2
    assert all(sheet["marks"] == {} for sheet in first["sheets"])
    last = selectors.replay_view(game=game, viewer=users[0], seq=version)
    assert last["game"]["result"] is not None
    with pytest.raises(Invalid):
        selectors.replay_view(game=game, viewer=users[0], seq=version + 1)


def test_scoring_a_game_still_playing_does_nothing() -> None:
    alice = User.objects.create_user("alice", password="secret-pw")
    game = services.create_game(by=alice, adventure=1, max_players=2)
    bob = User.objects.create_user("bob", password="secret-pw")
    services.join_game(game=game, by=bob, invite=game.invite)
    services.start_game(game=game, by=alice)
    assert services.score_game(game_id=game.pk) is None
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
