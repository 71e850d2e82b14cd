"""Services mode: a campaign chapter's game is scored by the worker, which then ends the chapter
(stars, captain, cards offered); the chapter-end task delivered again and again, and the scoring
task redelivered, append nothing more; a worker killed while it ends a chapter leaves the
chapter's end to the next worker, done once. A bot seat's choices are made by the worker, once
however often their task is delivered. PostgreSQL refuses to change campaign events.

The killed run is made slow with MOON_CHAPTER_END_DELAY_SECONDS, set only in the environment of
the worker the test starts (campaigns/tasks.py); its message, left unacknowledged, is delivered
again after the visibility timeout (5 s in this session), as in tests/services/test_worker_killed.py.
"""

import random
import time

import pytest
from django.contrib.auth.models import User
from django.db import DatabaseError, connection, transaction

from campaigns import selectors as campaign_selectors
from campaigns import services as campaigns
from campaigns.models import Campaign, CampaignEvent, ChapterGame
from campaigns.tasks import end_chapter, play_bot_choice
from games import selectors
from games import services as commands
from games.models import Game
from games.tasks import score_game
from tests.services import conftest
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
                commands.play_move(game_id=game.pk, by=user, choice=rng.choice(decision["options"]))
            elif decision["can_confirm"]:
                commands.confirm_turn(game_id=game.pk, by=user)
    raise AssertionError("the game did not end")


def test_the_worker_ends_a_chapter_once_however_often_it_is_delivered(worker: Worker) -> None:
    suffix = time.monotonic_ns()
    users = [User.objects.create_user(f"{name}-{suffix}", password="secret-pw") for name in ("ann", "ben")]
    campaign = campaigns.create_campaign(by=users[0], max_players=2)
    campaigns.join_campaign(campaign=campaign, by=users[1], invite=campaign.invite)
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
        task.delay(game.pk)  # the scoring delivered again sets off nothing: its result did
    wait_for(
        lambda: sum(
            line.get("message") == "chapter end done" and line.get("game_id") == game.pk
            for line in worker.log_lines()
        ) >= 3,
        60,
        "the worker to run the chapter end three times",
    )
    kinds = list(CampaignEvent.objects.filter(campaign=campaign).values_list("kind", flat=True))
    assert len(kinds) == count
    # rules version 2: no card is offered before the captain keeps the chapter (keep_or_replay)
    assert [kinds.count(kind) for kind in ("chapter_finished", "stars_awarded", "cards_offered")] == [1, 1, 0]
    done = [
        line for line in worker.log_lines()
        if line.get("message") == "chapter end done" and line.get("game_id") == game.pk
    ]  # fmt: skip
    started = CampaignEvent.objects.get(campaign=campaign, kind="chapter_started").seq
    assert [line["count"] for line in done] == [count - started, 0, 0]
    seqs = list(CampaignEvent.objects.filter(campaign=campaign).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))


def chapter_end_lines(worker: Worker, game: Game, message: str) -> list[dict[str, object]]:
    return [
        line for line in worker.log_lines()
        if line.get("message") == message and line.get("game_id") == game.pk
    ]  # fmt: skip


def test_a_killed_chapter_end_is_done_again_once(services: Services, worker: Worker) -> None:
    worker.stop()  # only the slow worker may take the chapter-end task
    slow = services.make_worker(
        "slow-chapter-end", {"MOON_CHAPTER_END_DELAY_SECONDS": "120"}, pool="solo", concurrency=1
    ).start()
    try:
        suffix = time.monotonic_ns()
        names = ("eve", "fox")
        users = [User.objects.create_user(f"{name}-{suffix}", password="secret-pw") for name in names]
        campaign = campaigns.create_campaign(by=users[0], max_players=2)
        campaigns.join_campaign(campaign=campaign, by=users[1], invite=campaign.invite)
        campaigns.start_campaign(campaign=campaign, by=users[0])
        game = ChapterGame.objects.get(campaign=campaign, chapter=1).game
        play_to_the_end(game, users)  # the slow worker scores it, then sleeps in the chapter end
        wait_for(
            lambda: chapter_end_lines(slow, game, "chapter end started"),
            60,
            "the slow worker to start ending the chapter",
        )
        slow.kill()
    finally:
        slow.kill()

    assert Campaign.objects.get(pk=campaign.pk).status == Campaign.Status.PLAYING
    assert not CampaignEvent.objects.filter(campaign=campaign, kind="chapter_finished").exists()

    worker.start()
    wait_for(
        lambda: Campaign.objects.get(pk=campaign.pk).status == Campaign.Status.BETWEEN,
        60,
        "the restarted worker to end the chapter",
    )
    time.sleep(2)  # a second delivery, were there one, would have shown by now
    kinds = list(CampaignEvent.objects.filter(campaign=campaign).values_list("kind", flat=True))
    # rules version 2: no card is offered before the captain keeps the chapter (keep_or_replay)
    assert [kinds.count(kind) for kind in ("chapter_finished", "stars_awarded", "cards_offered")] == [1, 1, 0]
    awards = CampaignEvent.objects.get(campaign=campaign, kind="stars_awarded").data["awards"]
    assert sorted(award["seat"] for award in awards) == [0, 1]  # one set of stars, a seat each
    assert not chapter_end_lines(slow, game, "chapter end done")
    redone = chapter_end_lines(worker, game, "chapter end done")
    assert [line["count"] for line in redone] == [len(kinds) - kinds.index("chapter_finished")]


def test_the_worker_makes_a_bots_choice_once_however_often_it_is_delivered(worker: Worker) -> None:
    user = User.objects.create_user(f"gus-{time.monotonic_ns()}", password="secret-pw")
    campaign = campaigns.create_campaign(by=user, max_players=2)
    campaigns.add_bot(campaign=campaign, by=user, kind="random")
    campaigns.start_campaign(campaign=campaign, by=user)
    game = ChapterGame.objects.get(campaign=campaign, chapter=1).game
    # the bot's turns are played by the worker, the human's here
    conftest.play_to_the_end(game, user, random.Random(6))

    def bot_events() -> list[CampaignEvent]:
        return list(CampaignEvent.objects.filter(campaign=campaign, seat=1).order_by("seq"))

    def waits_for_the_player() -> bool:
        """Once the worker has made a choice of the bot's: the campaign asks the player (whose
        choices before it are made here), or chapter 2 is in play (the bot was captain)."""
        row = Campaign.objects.get(pk=campaign.pk)
        if row.status == Campaign.Status.PLAYING:
            return ChapterGame.objects.filter(campaign=campaign, chapter=2).exists()
        decision = campaign_selectors.decision_view(campaign=row, viewer=user)
        if decision["kind"] == "wait" or bot_events():
            return decision["kind"] != "wait"
        campaigns.play_choice(campaign=row, by=user, choice=decision["options"][0])
        return False

    wait_for(waits_for_the_player, 60, "the worker to end the chapter and make the bot's choices")
    made = bot_events()
    assert made
    count = CampaignEvent.objects.filter(campaign=campaign).count()
    for event in made:
        play_bot_choice.delay(campaign.pk, event.seq - 1)
        play_bot_choice.delay(campaign.pk, event.seq - 1)

    def done() -> list[dict[str, object]]:
        return [
            line for line in worker.log_lines()
            if line.get("message") == "bot choice done" and line.get("campaign_id") == campaign.pk
        ]  # fmt: skip

    wait_for(lambda: len(done()) >= 3 * len(made), 60, "the worker to run every delivery")
    assert CampaignEvent.objects.filter(campaign=campaign).count() == count
    # one run per choice appended it; every delivery again found the log moved on
    assert len([line for line in done() if line["count"]]) == len(made)
    assert all(event.actor_id is None for event in made)


def test_update_delete_and_truncate_of_campaign_events_are_refused_by_postgresql(services: Services) -> None:
    assert connection.vendor == "postgresql"
    suffix = time.monotonic_ns()
    users = [User.objects.create_user(f"{name}-{suffix}", password="secret-pw") for name in ("cy", "dee")]
    campaign = campaigns.create_campaign(by=users[0], max_players=2)
    count = CampaignEvent.objects.filter(campaign=campaign).count()
    for statement in (
        "UPDATE campaigns_campaignevent SET seq = seq + 1000 WHERE campaign_id = %s",
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
