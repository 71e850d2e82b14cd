"""Services mode: a campaign chapter's game is scored by the worker, which then ends the chapter
(stars, captain, cards offered); the chapter-end task delivered again and again, and the scoring
task redelivered, append nothing more. PostgreSQL refuses to change campaign events."""

import random
import time

import pytest
from django.contrib.auth.models import User
from django.db import DatabaseError, connection, transaction

from campaigns import services as campaigns
from campaigns.models import Campaign, CampaignEvent, ChapterGame
from campaigns.tasks import end_chapter
from games import selectors
from games import services as commands
from games.models import Game
from games.tasks import score_game
from tests.services.conftest import Services, Worker, wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def play_to_the_end(game: Game, users: list[User]) -> None:
    rng = random.Random(4)
    for _ in range(5000):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return
        for user in users:
            decision = selectors.decision_view(game=game, viewer=user)
            if decision["options"]:
                commands.play_move(game=game, by=user, choice=rng.choice(decision["options"]))
            elif decision["can_confirm"]:
                commands.confirm_turn(game=game, by=user)
    raise AssertionError("the game did not end")


def test_the_worker_ends_a_chapter_once_however_often_it_is_delivered(worker: Worker) -> None:
    suffix = time.monotonic_ns()
    users = [User.objects.create_user(f"{name}-{suffix}", password="secret-pw") for name in ("ann", "ben")]
    campaign = campaigns.create_campaign(by=users[0], max_players=2)
    campaigns.join_campaign(campaign=campaign, by=users[1])
    campaigns.start_campaign(campaign=campaign, by=users[0])
    game = ChapterGame.objects.get(campaign=campaign, chapter=1).game
    play_to_the_end(game, users)  # the last confirm sends the scoring task to the worker

    wait_for(
        lambda: Campaign.objects.get(pk=campaign.pk).status == Campaign.Status.BETWEEN,
        60,
        "the worker to score the game and end the chapter",
    )
    count = CampaignEvent.objects.filter(campaign=campaign).count()
    for task in (end_chapter, end_chapter, score_game):
        task.delay(game.pk)
    wait_for(
        lambda: sum(
            line.get("message") == "chapter end done" and line.get("game_id") == game.pk
            for line in worker.log_lines()
        ) >= 4,
        60,
        "the worker to run the chapter end four times",
    )
    kinds = list(CampaignEvent.objects.filter(campaign=campaign).values_list("kind", flat=True))
    assert len(kinds) == count
    assert [kinds.count(kind) for kind in ("chapter_finished", "stars_awarded", "cards_offered")] == [1, 1, 1]
    done = [
        line for line in worker.log_lines()
        if line.get("message") == "chapter end done" and line.get("game_id") == game.pk
    ]  # fmt: skip
    started = CampaignEvent.objects.get(campaign=campaign, kind="chapter_started").seq
    assert [line["count"] for line in done] == [count - started, 0, 0, 0]
    seqs = list(CampaignEvent.objects.filter(campaign=campaign).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))


def test_update_delete_and_truncate_of_campaign_events_are_refused_by_postgresql(services: Services) -> None:
    assert connection.vendor == "postgresql"
    suffix = time.monotonic_ns()
    users = [User.objects.create_user(f"{name}-{suffix}", password="secret-pw") for name in ("cy", "dee")]
    campaign = campaigns.create_campaign(by=users[0], max_players=2)
    count = CampaignEvent.objects.filter(campaign=campaign).count()
    for statement in (
        "UPDATE campaigns_campaignevent SET kind = 'forged' WHERE campaign_id = %s",
        "DELETE FROM campaigns_campaignevent WHERE campaign_id = %s",
    ):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), \
                connection.cursor() as cursor:
            cursor.execute(statement, [campaign.pk])
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), \
            connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("ALTER TABLE campaigns_campaignevent ENABLE TRIGGER campaigns_event_no_truncate")
        cursor.execute("TRUNCATE campaigns_campaignevent CASCADE")
    assert CampaignEvent.objects.filter(campaign=campaign).count() == count
