"""The outbox of follow-ups with a real worker and broker (eventstore/followups.py): a game whose
ASTRA turn is confirmed while Redis is down (the dispatch on commit fails, logged) goes on once
Redis is back, and finishes once; a follow-up whose message was lost is sent again by the
worker's sweeper, and the outbox is empty again.

Redis is stopped and started again with deploy/services.sh (the ports in the environment of
`make test-services`); it keeps no data, so whatever it held is lost, as in a real outage."""

import random
import subprocess
import time
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from eventstore import followups
from eventstore.models import FollowUp
from games import selectors
from games import services as commands
from games.models import Event, Game
from moon.celery import app as celery_app
from tests.services.conftest import ROOT, Worker, play_to_the_end, wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def redis(action: str) -> None:
    subprocess.run([str(ROOT / "deploy" / "services.sh"), action], check=True, capture_output=True)


def broker_answers() -> bool:
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1)
    except Exception:
        return False
    return True


def solo_game_at_confirm(rng: random.Random) -> tuple[Game, User]:
    user = User.objects.create_user(f"outage-{time.monotonic_ns()}", password="secret-pw")
    game = commands.create_game(by=user, adventure=1, max_players=1)
    game = commands.start_game(game=game, by=user).game
    while (decision := selectors.decision_view(game=game, viewer=user))["kind"] != "confirm":
        commands.play_move(game_id=game.pk, by=user, choice=rng.choice(decision["options"]))
    return game, user


def assert_finished_once(game: Game) -> None:
    wait_for(lambda: Game.objects.get(pk=game.pk).status == Game.Status.FINISHED, 60, "scoring")
    kinds = list(Event.objects.filter(game=game).order_by("seq").values_list("kind", flat=True))
    assert kinds.count("game_ended") == kinds.count("result") == 1 and kinds[-1] == "result"
    turns = list(Event.objects.filter(game=game, kind="turn_started").values_list("turn", flat=True))
    assert len(turns) == len(set(turns))
    wait_for(lambda: not FollowUp.objects.filter(stream_id=game.pk).exists(), 30, "the outbox emptied")


def test_a_game_confirmed_while_redis_is_down_finishes_once_redis_is_back(worker: Worker) -> None:
    rng = random.Random(11)
    game, user = solo_game_at_confirm(rng)
    redis("stop-redis")
    try:
        wait_for(lambda: not broker_answers(), 10, "Redis to stop")
        commands.confirm_turn(game_id=game.pk, by=user)  # the dispatch on commit fails, logged
        (waiting,) = FollowUp.objects.filter(stream_id=game.pk)
        assert waiting.kind == followups.ASTRA_DUE
        assert selectors.decision_view(game=game, viewer=user)["kind"] == "wait"
        time.sleep(2)  # the worker's sweeper tries meanwhile, and cannot send it either
        assert not Event.objects.filter(game=game, kind="astra_took").exists()
    finally:
        redis("start")
    wait_for(lambda: Event.objects.filter(game=game, kind="astra_took").exists(), 60, "ASTRA's turn")
    play_to_the_end(game, user, rng)
    assert_finished_once(game)


def test_a_lost_message_is_sent_again_by_the_sweeper(worker: Worker) -> None:
    rng = random.Random(12)
    game, user = solo_game_at_confirm(rng)
    worker.stop()
    commands.confirm_turn(game_id=game.pk, by=user)
    celery_app.control.purge()  # the message is lost
    FollowUp.objects.filter(stream_id=game.pk).update(retry_at=timezone.now() - timedelta(seconds=1))
    worker.start()
    wait_for(lambda: Event.objects.filter(game=game, kind="astra_took").exists(), 30, "the sweeper")
    play_to_the_end(game, user, rng)
    assert_finished_once(game)
    sent_again = [
        line for line in worker.log_lines()
        if line.get("message") == "follow-up of astra_due sent by the sweeper"
        and line.get("game_id") == game.pk
    ]  # fmt: skip
    assert len(sent_again) == 1
    assert followups.backlog() == (None, 0)  # what /health reports as the follow-ups' age
