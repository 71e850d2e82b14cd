"""The outbox of follow-ups (eventstore/followups.py), in the embedded mode (eager tasks): a
follow-up is written in its command's transaction and rolled back with it, its work runs on
commit and deletes it, the sweeper sends again what is due and not done, and a follow-up sent
again plays nothing twice. (The same with a real worker and broker: tests/services/test_outbox.py.)"""

import random
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from rest_framework.test import APIClient

from eventstore import followups
from eventstore.models import FollowUp
from games import selectors
from games import services as commands
from games.models import Event, Game

pytestmark = pytest.mark.django_db

recorded: list[tuple[int, int, int]] = []


def _record(stream_id: int, version: int, followup: int) -> None:
    recorded.append((stream_id, version, followup))


def _refuse(stream_id: int, version: int, followup: int) -> None:
    raise ConnectionError("the broker is down")


# A table of this test's own, for what does not need a game: "ping" is recorded (its row stays,
# as when a message is lost), "down" cannot be sent.
TABLE = {("test", "ping"): _record, ("test", "down"): _refuse}


@pytest.fixture
def test_table(settings: Any) -> Iterator[None]:
    settings.FOLLOW_UPS = "tests.games.test_outbox.TABLE"
    followups.table.cache_clear()
    recorded.clear()
    yield
    followups.table.cache_clear()


def solo_game_at_confirm(name: str = "solo") -> tuple[Game, User]:
    """A solo game whose player has made the moves of the first turn, left to confirm."""
    user = User.objects.create_user(name, password="secret-pw")
    game = commands.create_game(by=user, adventure=1, max_players=1)
    game = commands.start_game(game=game, by=user).game
    rng = random.Random(1)
    while (decision := selectors.decision_view(game=game, viewer=user))["kind"] != "confirm":
        commands.play_move(game_id=game.pk, by=user, choice=rng.choice(decision["options"]))
    return game, user


def astra_took(game: Game) -> int:
    return Event.objects.filter(game=game, kind="astra_took").count()


def due_now(**filters: Any) -> None:
    """The retry time of these follow-ups comes (their message is taken as lost)."""
    FollowUp.objects.filter(**filters).update(retry_at=timezone.now() - timedelta(seconds=1))


def test_a_follow_up_is_written_with_its_events_and_rolled_back_with_them() -> None:
    game, user = solo_game_at_confirm()
    with pytest.raises(RuntimeError), transaction.atomic():
        commands.confirm_turn(game_id=game.pk, by=user)
        (row,) = FollowUp.objects.filter(stream="game", stream_id=game.pk)
        assert row.kind == followups.ASTRA_DUE
        assert row.version == Event.objects.filter(game=game).count()
        assert row.retry_at > row.due_at  # sent on commit: sent again only if not done by then
        raise RuntimeError("the command's transaction fails after its follow-up was written")
    assert not FollowUp.objects.exists()
    assert not Event.objects.filter(game=game, kind="confirmed").exists()


def test_on_commit_the_work_runs_and_deletes_its_follow_up(django_capture_on_commit_callbacks: Any) -> None:
    game, user = solo_game_at_confirm()
    with django_capture_on_commit_callbacks(execute=True):
        commands.confirm_turn(game_id=game.pk, by=user)
    assert astra_took(game) == 1
    assert not FollowUp.objects.exists()


def test_the_sweeper_sends_again_a_lost_follow_up_and_it_plays_once(
    django_capture_on_commit_callbacks: Any,
) -> None:
    game, user = solo_game_at_confirm()
    with django_capture_on_commit_callbacks(execute=False):  # the message is lost
        commands.confirm_turn(game_id=game.pk, by=user)
    assert followups.sweep() == 0  # not yet: it may still be in the queue
    assert astra_took(game) == 0

    due_now()
    with django_capture_on_commit_callbacks(execute=True):
        assert followups.sweep() == 1
    assert astra_took(game) == 1
    assert not FollowUp.objects.exists()
    assert followups.sweep() == 0


def test_a_follow_up_whose_work_was_done_but_not_marked_plays_nothing_twice(
    django_capture_on_commit_callbacks: Any,
) -> None:
    game, user = solo_game_at_confirm()
    with django_capture_on_commit_callbacks(execute=False):
        commands.confirm_turn(game_id=game.pk, by=user)
    with django_capture_on_commit_callbacks(execute=False):
        commands.play_astra(game_id=game.pk)  # the task ran, and its worker died before `done`
    events = Event.objects.filter(game=game).count()
    followup = FollowUp.objects.get(kind=followups.ASTRA_DUE)

    due_now(pk=followup.pk)
    with django_capture_on_commit_callbacks(execute=True):
        assert followups.sweep() == 1
    assert Event.objects.filter(game=game).count() == events
    assert astra_took(game) == 1
    assert not FollowUp.objects.filter(pk=followup.pk).exists()


def test_a_whole_solo_game_leaves_no_follow_up(alice: APIClient, post: Any) -> None:
    base = f"/api/v1/games/{post(alice, '/api/v1/games', {'adventure': 1, 'max_players': 1}).json()['id']}"
    post(alice, f"{base}/start")
    rng = random.Random(5)
    while alice.get(base).json()["status"] == "playing":
        decision = alice.get(f"{base}/decision").json()
        if decision["options"]:
            post(alice, f"{base}/moves", {"choice": rng.choice(decision["options"])})
        else:
            post(alice, f"{base}/confirm")
    assert alice.get(base).json()["status"] == "finished"
    assert not FollowUp.objects.exists()


def test_a_follow_up_due_later_is_sent_by_the_sweeper_once_due(
    test_table: None, django_capture_on_commit_callbacks: Any
) -> None:
    later = timezone.now() + timedelta(minutes=5)
    with django_capture_on_commit_callbacks(execute=True):
        followups.after_commit(stream="test", stream_id=7, version=3, kinds=["ping", "unknown"], due_at=later)
    (row,) = FollowUp.objects.all()  # a kind with no work in the table writes nothing
    assert (row.due_at, row.retry_at) == (later, later)
    assert recorded == []  # not on commit
    assert followups.sweep() == 0
    FollowUp.objects.update(due_at=timezone.now(), retry_at=timezone.now())
    assert followups.sweep() == 1
    assert recorded == [(7, 3, row.pk)]
    row.refresh_from_db()
    assert row.attempts == 1
    # not done: sent again after FOLLOWUP_RESEND_SECONDS, doubled at each try
    assert row.retry_at - timezone.now() > followups.resend_after(0)
    assert followups.sweep() == 0


def test_a_follow_up_the_broker_refused_on_commit_is_left_to_the_next_sweep(
    test_table: None, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        followups.after_commit(stream="test", stream_id=1, version=1, kinds=["down", "ping"])
    assert len(recorded) == 1
    refused = FollowUp.objects.get(kind="down")
    assert refused.retry_at <= timezone.now()  # the broker was down: due at the next sweep
    assert followups.sweep() == 0  # still down: the rest of the batch waits with it
    assert FollowUp.objects.get(kind="down").retry_at <= timezone.now()


def test_health_reports_the_oldest_follow_up_and_degrades_when_it_is_late(
    anon: APIClient, test_table: None
) -> None:
    body = anon.get("/api/v1/health").json()
    assert body["status"] == "ok"
    assert body["checks"]["followups"] == {
        "status": "ok", "detail": "no follow-up waits", "age": None, "unfinished": 0
    }  # fmt: skip
    now = timezone.now()
    for age in (30, 200):
        FollowUp.objects.create(
            stream="test", stream_id=1, kind="ping", version=1, due_at=now - timedelta(seconds=age),
            retry_at=now,
        )  # fmt: skip
    response = anon.get("/api/v1/health")
    assert response.status_code == 200  # the web processes still serve
    body = response.json()
    assert (body["status"], body["detail"]) == ("degraded", "late: followups")
    check = body["checks"]["followups"]
    assert check["status"] == "late" and check["unfinished"] == 2 and 200 <= check["age"] < 260
