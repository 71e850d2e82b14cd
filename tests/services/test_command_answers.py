"""On PostgreSQL with ASTRA's part on a worker, a command answers the same with and without an
Idempotency-Key: the command's own events and the decision to wait (the worker plays ASTRA's part
after the commit), and a retry of the key gets exactly the first answer. The worker taking
ASTRA's part is made slow (MOON_ASTRA_DELAY_SECONDS), so that no answer can race it."""

import random
import time
from typing import Any

import pytest
from django.contrib.auth.models import User

from api.serializers import CommandResultSerializer
from eventstore import commands
from games import selectors
from games import services as game_services
from games.models import Event, Game
from tests.services.conftest import Services, Worker, wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def ready_to_confirm(user: User) -> Game:
    """A solo Launch with its player's first turn played up to the confirm."""
    game = game_services.create_game(by=user, adventure=1, max_players=1, astra_level=3)
    game = game_services.start_game(game=game, by=user).game
    rng = random.Random(1)
    while (decision := selectors.decision_view(game=game, viewer=user))["options"]:
        game_services.play_move(game_id=game.pk, by=user, choice=rng.choice(decision["options"]))
    return game


def confirm(game: Game, user: User, key: commands.Key | None) -> commands.Answer:
    """A confirm through the command path, answered as the API answers it."""
    return commands.run(
        key=key,
        command=lambda: game_services.confirm_turn(game_id=game.pk, by=user),
        answer=lambda result: (
            CommandResultSerializer(
                selectors.command_answer(
                    game=result.game, rows=result.events, state=result.state, seat=result.seat
                )
            ).data
        ),
        status=200,
    )


def without_times(answer: Any) -> Any:
    return {**answer, "events": [{k: v for k, v in e.items() if k != "created_at"} for e in answer["events"]]}


def test_a_solo_confirm_answers_the_same_with_and_without_a_key_on_workers(
    services: Services, worker: Worker, monkeypatch: pytest.MonkeyPatch
) -> None:
    worker.stop()
    slow = services.make_worker("slow-answers", {"MOON_ASTRA_DELAY_SECONDS": "5"}, pool="solo").start()
    monkeypatch.setattr(game_services.secrets, "randbits", lambda bits: 4321)  # one deck for both games
    users = [User.objects.create_user(f"{name}-{time.monotonic_ns()}") for name in ("plain", "keyed")]
    try:
        plain, keyed = (ready_to_confirm(user) for user in users)
        first = confirm(plain, users[0], None)
        key = commands.Key(user_id=users[1].pk, key="confirm-1", method="POST", path="/confirm", body_hash="")
        with_key = confirm(keyed, users[1], key)

        assert first.data["decision"]["kind"] == "wait"  # ASTRA's part is the worker's, after
        assert [event["kind"] for event in first.data["events"]] == ["confirmed"]
        assert without_times(with_key.data) == without_times(first.data)
        again = confirm(keyed, users[1], key)
        assert again.replayed and again.data == with_key.data
        took = Event.objects.filter(game__in=[plain, keyed], kind="astra_took")
        wait_for(lambda: took.count() == 2, 60, "the worker to play ASTRA's part of both games")
    finally:
        slow.stop()
