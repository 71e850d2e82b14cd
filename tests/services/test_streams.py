"""Streams on the production topology: PostgreSQL, Redis, a Celery worker and two web servers
(gunicorn with uvicorn workers). Every command goes to one server and every stream is served
by the other, so each message on a stream was set off by a commit in another process, told
through Redis (the streams' slow poll is set far beyond the tests' waits)."""

import threading
import time

import pytest

from tests.live import Stream, asgi_server, open_game, play_with_streams, register
from tests.services.conftest import LOG_DIR, Services, Worker, _web_env

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


def test_a_long_poll_served_by_another_process_answers_when_a_move_there_is_readable(
    web: str, other_web: str
) -> None:
    ann, ben = register(web, "ann"), register(web, "ben")
    game_id = open_game([ann, ben])
    base = f"/games/{game_id}"
    version = ann.get(base)["version"]

    # ben's move stays hidden from ann's feed (her poll waits on); her own move ends the wait
    def later() -> None:
        time.sleep(0.5)
        ben.post(f"{base}/moves", {"choice": ben.get(f"{base}/decision")["options"][0]})
        time.sleep(1)
        ann.post(f"{base}/moves", {"choice": ann.get(f"{base}/decision")["options"][0]})

    mover = threading.Thread(target=later)
    mover.start()
    started = time.monotonic()
    page = ann.at(other_web).get(f"{base}/events?after={version}&wait=25")
    mover.join()
    assert 1.4 < time.monotonic() - started < 20
    assert page["events"] and {event["seat"] for event in page["events"]} <= {0, None}
    assert page == ann.get(f"{base}/events?after={version}")


def test_without_redis_streams_hear_of_another_process_commits_through_postgresql(
    services: Services,
) -> None:
    # Two web processes on PostgreSQL with no REDIS_URL: commands served by one, streams by the
    # other, told of each commit by LISTEN/NOTIFY (their slow poll is far beyond the waits).
    env = {key: value for key, value in _web_env(services, 1).items() if key != "REDIS_URL"}
    with (
        asgi_server(env, LOG_DIR / "web-notify-commands.log") as commands,
        asgi_server(env, LOG_DIR / "web-notify-streams.log") as streams,
    ):
        players = [register(commands, name) for name in ("ann", "ben")]
        game_id = open_game(players)
        base = f"/games/{game_id}"
        followed = [
            Stream(streams, f"{base}/stream", {"Authorization": f"Token {each.token}"}) for each in players
        ]
        for player, stream in zip(players, followed, strict=True):
            version = player.get(base)["version"]
            stream.wait(lambda s: len(s.events()) == version, what="the opening")  # noqa: B023
        for player in players:  # each plays a whole turn; the second confirm resolves it
            while (decision := player.get(f"{base}/decision"))["options"]:
                player.post(f"{base}/moves", {"choice": decision["options"][0]})
            player.post(f"{base}/confirm")
        for player, stream in zip(players, followed, strict=True):
            feed = player.get(f"{base}/events?limit=1000")["events"]
            stream.wait(lambda s: s.events() == feed, timeout=20, what="the turn")  # noqa: B023
            assert {"confirmed", "turn_started"} <= {event["kind"] for event in stream.events()}
            stream.close()
