"""Turn deadlines kept by a real worker through the outbox (eventstore/followups.py): in a game
with the API's shortest `turn_seconds` (30), a seat that does not act is played for once the
deadline has passed, by the worker's sweeper sending the deadline's follow-up, exactly once.

The follow-up is made due at once, so the sweeper sends it before the deadline: the worker
finds it early and leaves it to be sent again when the deadline passes (the deadline is the
asking event's time plus turn_seconds, which the log keeps: a test cannot move it)."""

import random
import time

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from eventstore import followups
from eventstore.models import FollowUp
from games import selectors, tasks
from games import services as commands
from games.models import Event
from tests.services.conftest import Worker, wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
TURN_SECONDS = 30


def test_an_absent_seat_is_played_once_when_its_deadline_passes(worker: Worker) -> None:
    rng = random.Random(5)
    ann, ben = (User.objects.create_user(f"{name}-{time.monotonic_ns()}") for name in ("ann", "ben"))
    game = commands.create_game(by=ann, adventure=1, max_players=2, turn_seconds=TURN_SECONDS)
    commands.join_game(game=game, by=ben, invite=game.invite)
    game = commands.start_game(game=game, by=ann).game
    while (decision := selectors.decision_view(game=game, viewer=ann))["kind"] != "wait":
        if decision["options"]:
            commands.play_move(game_id=game.pk, by=ann, choice=rng.choice(decision["options"]))
        else:
            commands.confirm_turn(game_id=game.pk, by=ann)
    (deadline,) = FollowUp.objects.filter(stream="game", stream_id=game.pk, kind=followups.DEADLINE)
    passes = selectors.deadline_of(game=game)
    assert passes is not None

    FollowUp.objects.filter(pk=deadline.pk).update(due_at=timezone.now(), retry_at=timezone.now())
    wait_for(lambda: FollowUp.objects.get(pk=deadline.pk).attempts >= 1, 20, "the sweeper to send it")
    # the worker found it early and left it to be sent again when the deadline passes
    wait_for(
        lambda: abs((FollowUp.objects.get(pk=deadline.pk).retry_at - passes).total_seconds()) < 2,
        20,
        "the follow-up put off to the deadline",
    )
    assert not Event.objects.filter(game=game, kind="autopilot").exists()

    # once the deadline has passed, the sweeper sends it again and the worker plays ben's turn
    played = wait_for(
        lambda: Event.objects.filter(game=game, kind="autopilot").first(), TURN_SECONDS + 20, "autopilot"
    )
    assert played.seat == 1 and played.turn == 1
    wait_for(lambda: not FollowUp.objects.filter(pk=deadline.pk).exists(), 20, "the follow-up done")
    assert Event.objects.filter(game=game, kind="turn_started", turn=2).exists()

    # the same deadline delivered again plays nothing twice
    again = tasks.play_deadline.delay(game.pk, deadline.version).id
    wait_for(
        lambda: any(
            again in line.get("message", "") and "succeeded" in line["message"] for line in worker.log_lines()
        ),
        30,
        "the deadline delivered again to run",
    )
    assert Event.objects.filter(game=game, kind="autopilot").count() == 1
    decision = selectors.decision_view(game=game, viewer=ben)
    assert decision["kind"] == "choose"  # ben keeps his seat and plays the next turn

