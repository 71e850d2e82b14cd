"""A request repeated with the same Idempotency-Key while the original is still being served.

The retry waits for the original (it cannot claim the key while the original's transaction
holds it) and then answers with the original's answer; should it ever find the original still
unfinished it is refused with 409 `concurrent_command`. Either way the events are appended once.
"""

import random
import uuid
from collections.abc import Callable

import pytest

from eventstore.models import IdempotencyRecord
from games.models import Event
from tests.services.conftest import HttpClient, Worker, open_game
from tests.services.test_parallel_confirms import all_at_once

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def race(player: HttpClient, game_id: int, path: str, body: dict[str, object]) -> None:
    key = f"race-{uuid.uuid4()}"
    before = Event.objects.filter(game_id=game_id).count()
    answers = all_at_once(
        [lambda: player.post(path, body, **{"Idempotency-Key": key})] * 2
    )
    statuses = sorted(status for status, _ in answers)
    assert statuses in ([200, 200], [200, 409]), answers
    ok = [answer for status, answer in answers if status == 200]
    if len(ok) == 2:
        assert ok[0] == ok[1]
    else:
        refused = next(answer for status, answer in answers if status == 409)
        assert refused["code"] == "concurrent_command"
    after = Event.objects.filter(game_id=game_id).count()
    assert after - before == len(ok[0]["events"]) > 0
    assert IdempotencyRecord.objects.filter(key=key).count() == 1
    # And a retry after the fact replays the same answer, appending nothing.
    status, again = player.post(path, body, **{"Idempotency-Key": key})
    assert (status, again) == (200, ok[0])
    assert Event.objects.filter(game_id=game_id).count() == after


def test_a_racing_retry_appends_once(worker: Worker, http: Callable[[str], HttpClient]) -> None:
    players = [http("ida"), http("ivo")]
    game_id = open_game(players)
    base = f"/games/{game_id}"
    rng = random.Random(5)
    for _ in range(3):  # turns
        for player in players:
            while options := player.get(f"{base}/decision")["options"]:
                race(player, game_id, f"{base}/moves", {"choice": rng.choice(options)})
            race(player, game_id, f"{base}/confirm", {})
    events = list(Event.objects.filter(game_id=game_id).order_by("seq"))
    assert [event.seq for event in events] == list(range(1, len(events) + 1))
