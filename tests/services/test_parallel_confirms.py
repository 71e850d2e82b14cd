"""All six seats confirm at the same moment from parallel HTTP clients (each request served by
its own thread and database connection): the log stays dense, nothing is written twice, each
turn resolves exactly once, and the hash chain runs unbroken across the racing appends."""

import random
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from eventstore import store
from games.models import Event
from tests.services.conftest import HttpClient, Worker, open_game

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

TURNS = 4


def play_until_confirm(player: HttpClient, base: str, rng: random.Random) -> None:
    for _ in range(50):
        decision = player.get(f"{base}/decision")
        if not decision["options"]:
            assert decision["can_confirm"], decision
            return
        status, body = player.post(f"{base}/moves", {"choice": rng.choice(decision["options"])})
        assert status == 200, body
    raise AssertionError("the turn did not reach confirm")


def all_at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls in threads released together by a barrier; their results in order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        barrier.wait(timeout=30)
        try:
            results[index] = calls[index]()
        except BaseException as exc:  # reported below, in the test's thread
            results[index] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    for result in results:
        if isinstance(result, BaseException):
            raise result
    return results


def test_six_seats_confirming_together_resolve_each_turn_once(
    worker: Worker, http: Callable[[str], HttpClient]
) -> None:
    players = [http(f"p{seat}") for seat in range(6)]
    game_id = open_game(players)
    base = f"/games/{game_id}"
    rng = random.Random(11)
    for turn in range(1, TURNS + 1):
        assert players[0].get(base)["turn"] == turn
        for player in players:
            play_until_confirm(player, base, rng)
        before = Event.objects.filter(game_id=game_id).count()

        answers = all_at_once(
            [lambda player=player: player.post(f"{base}/confirm") for player in players]  # type: ignore[misc]
        )

        assert [status for status, _ in answers] == [200] * 6, answers
        events = list(Event.objects.filter(game_id=game_id).order_by("seq"))
        assert [event.seq for event in events] == list(range(1, len(events) + 1))
        new = events[before:]
        confirmed = [event.seat for event in new if event.kind == "confirmed"]
        assert len(confirmed) == 6 and set(confirmed) == set(range(6))
        started = [event for event in events if event.kind == "turn_started"]
        assert Counter(event.data["turn"] for event in started) == Counter(range(1, turn + 2))
        assert sum(1 for event in new if event.kind == "turn_started") == 1
        assert [report.broken for report in store.verify(Event, stream_id=game_id)] == [None]
        # Exactly one of the six answers carries the end of the turn it resolved.
        resolving = [body for _, body in answers if any(
            event["kind"] == "turn_started" for event in body["events"]
        )]
        assert len(resolving) == 1
        assert players[0].get(base)["version"] == len(events)
