"""Streams on the production topology: PostgreSQL, Redis, a Celery worker and two web servers
(gunicorn with uvicorn workers). Every command goes to one server and every stream is served
by the other, so each message on a stream was set off by a commit in another process, told
through Redis (the streams' slow poll is set far beyond the tests' waits)."""

import pytest

from tests.live import Stream, play_with_streams, register
from tests.services.conftest import Worker

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_streams_served_by_another_process_carry_every_seats_feed_and_resume(
    worker: Worker, web: str, other_web: str
) -> None:
    players = [register(web, name) for name in ("ann", "ben", "cy")]
    # the end of the game (its result) is appended by the worker, a third process
    game_id, streams, polled = play_with_streams(players, other_web)
    for seat, (player, stream, feed) in enumerate(zip(players, streams, polled, strict=True)):
        assert stream.events() == feed, f"seat {seat}"
        assert feed[-1]["kind"] == "result" and stream.messages[-1].event == "end"
        assert [m.id for m in stream.messages if m.event == "message"] == list(range(1, len(feed) + 1))

        # a reconnect, to either server, resumes after Last-Event-ID with nothing missed or repeated
        middle = len(feed) // 3
        for server in (web, other_web):
            resumed = Stream(
                server,
                f"/games/{game_id}/stream",
                {"Authorization": f"Token {player.token}", "Last-Event-ID": str(middle)},
            )
            resumed.wait(lambda s: s.ended, what="the end")
            assert (
                resumed.events()
                == player.get(f"/games/{game_id}/events?after={middle}&limit=100000")["events"]
            )
