"""Event streams, stream tickets and long-polls, served as `make run` serves them: gunicorn
with uvicorn workers (moon.asgi) on the embedded SQLite database, commits notified in-process.
The slow poll is set far beyond the tests' waits, so what arrives was woken by a notification."""

import asyncio
import contextvars
import itertools
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from moon import inflight
from tests.live import (
    Client,
    Stream,
    asgi_server,
    embedded_site,
    open_game,
    play_with_streams,
    register,
)

HEARTBEAT = 0.3


@pytest.fixture(scope="module")
def environment(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return embedded_site(
        tmp_path_factory.mktemp("streams"),
        STREAM_HEARTBEAT_SECONDS=str(HEARTBEAT),
        STREAM_POLL_SECONDS="600",
    )


@pytest.fixture(scope="module")
def server(environment: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with asgi_server(environment, tmp_path_factory.mktemp("web") / "web.log") as url:
        yield url


def stream_of(server: str, player: Client, path: str, **headers: str) -> Stream:
    return Stream(server, path, {"Authorization": f"Token {player.token}", **headers})


def test_every_seat_streams_its_own_feed_of_the_whole_game_and_resumes_without_gap(server: str) -> None:
    players = [register(server, name) for name in ("ann", "ben", "cy")]
    game_id, streams, polled = play_with_streams(players, server)
    for seat, (player, stream, feed) in enumerate(zip(players, streams, polled, strict=True)):
        assert stream.status == 200 and stream.content_type.startswith("text/event-stream")
        assert stream.events() == feed, f"seat {seat}"
        assert [m.id for m in stream.messages if m.event == "message"] == list(range(1, len(feed) + 1))
        assert all(m.id is None for m in stream.messages if m.event != "message")
        decisions = [m.data["kind"] for m in stream.messages if m.event == "decision"]
        assert "choose" in decisions and "confirm" in decisions and decisions[-1] == "wait"
        assert all(a != b for a, b in itertools.pairwise(decisions)), "only changes"
        assert stream.messages[-1].event == "end"

        # A reconnect from the middle gets the rest, nothing missed or repeated.
        middle = len(feed) // 2
        resumed = stream_of(
            server, player, f"/games/{game_id}/stream?after=1", **{"Last-Event-ID": str(middle)}
        )
        resumed.wait(lambda s: s.ended, what="the end")
        now = player.get(f"/games/{game_id}/events?after={middle}&limit=100000")["events"]
        assert resumed.events() == now
        # At the end of a finished game there is nothing to follow: 204, EventSource stops.
        done = stream_of(server, player, f"/games/{game_id}/stream?after={len(feed)}")
        done.wait(lambda s: s.ended, what="the answer")
        assert done.status == 204


def test_a_stream_resumed_mid_game_with_last_event_id_repeats_and_misses_nothing(server: str) -> None:
    ann, ben = register(server, "ann"), register(server, "ben")
    game_id = open_game([ann, ben])
    base = f"/games/{game_id}"
    first = stream_of(server, ann, f"{base}/stream")
    first.wait(lambda s: len(s.events()) >= 2, what="the opening events")
    first.close()
    seen = first.events()
    # while ann is away, she and ben play
    for player in (ann, ben):
        decision = player.get(f"{base}/decision")
        player.post(f"{base}/moves", {"choice": decision["options"][0]})
    version = ann.get(base)["version"]
    assert version > len(seen)
    again = stream_of(server, ann, f"{base}/stream", **{"Last-Event-ID": str(seen[-1]["seq"])})
    again.wait(lambda s: len(s.events()) >= version - len(seen), what="the events missed")
    assert seen + again.events() == ann.get(f"{base}/events?after=0&limit=1000")["events"]
    # and what comes next arrives live, with the decision's change of kind
    ann.post(f"{base}/confirm")
    again.wait(
        lambda s: s.messages[-1].event == "decision" and s.messages[-1].data["kind"] == "wait", what="wait"
    )
    assert [m.data["kind"] for m in again.messages if m.event == "decision"][-2:] == ["confirm", "wait"]
    again.close()


def test_a_quiet_stream_sends_heartbeats(server: str) -> None:
    ann = register(server, "ann")
    game = ann.post("/games", {"adventure": 1, "max_players": 2})
    stream = stream_of(server, ann, f"/games/{game['id']}/stream")
    stream.wait(lambda s: s.heartbeats >= 2, timeout=10, what="heartbeats")
    assert [m.event for m in stream.messages] == ["decision"]  # in the lobby: nothing yet
    stream.close()


def test_a_stream_ticket_opens_its_stream_once_and_no_other(server: str) -> None:
    ann, ben, eve = (register(server, name) for name in ("ann", "ben", "eve"))
    game_id = open_game([ann, ben])
    other = open_game([ann, ben])
    ticket = ann.post(f"/games/{game_id}/stream-ticket")
    assert set(ticket) == {"ticket", "expires"}

    by_ticket = Stream(server, f"/games/{game_id}/stream?ticket={ticket['ticket']}")
    by_ticket.wait(lambda s: len(s.events()) >= 2, what="events")
    assert by_ticket.events() == ann.get(f"/games/{game_id}/events")["events"][: len(by_ticket.events())]
    by_ticket.close()

    again = Stream(server, f"/games/{game_id}/stream?ticket={ticket['ticket']}")
    again.wait(lambda s: s.ended, what="the refusal")
    assert again.status == 401 and b'"invalid_ticket"' in again.body

    elsewhere = ann.post(f"/games/{game_id}/stream-ticket")["ticket"]
    refused = Stream(server, f"/games/{other}/stream?ticket={elsewhere}")
    refused.wait(lambda s: s.ended, what="the refusal")
    assert refused.status == 401

    status, body = eve.request("POST", f"/games/{game_id}/stream-ticket")
    assert (status, body["code"]) == (404, "not_found")  # a started game is not there for outsiders
    anonymous = Stream(server, f"/games/{game_id}/stream")
    anonymous.wait(lambda s: s.ended, what="the refusal")
    assert anonymous.status == 401 and b'"not_authenticated"' in anonymous.body


def test_a_long_poll_answers_when_the_feed_moves_or_empty_after_its_wait(server: str) -> None:
    ann, ben = register(server, "ann"), register(server, "ben")
    game_id = open_game([ann, ben])
    base = f"/games/{game_id}"
    version = ann.get(base)["version"]

    started = time.monotonic()
    assert ann.get(f"{base}/events?after={version}&wait=1")["events"] == []
    assert time.monotonic() - started >= 1

    # ben's move is hidden from ann until the turn resolves; ann's own move wakes her poll
    def later() -> None:
        time.sleep(0.5)
        ben.post(f"{base}/moves", {"choice": ben.get(f"{base}/decision")["options"][0]})
        time.sleep(0.5)
        ann.post(f"{base}/moves", {"choice": ann.get(f"{base}/decision")["options"][0]})

    mover = threading.Thread(target=later)
    mover.start()
    started = time.monotonic()
    page = ann.get(f"{base}/events?after={version}&wait=20")
    mover.join()
    assert 0.9 < time.monotonic() - started < 10
    assert page["events"] and all(event["seat"] in (0, None) for event in page["events"])
    assert page == ann.get(f"{base}/events?after={version}")

    status, body = ann.request("GET", f"{base}/events?after=0&wait=31")
    assert (status, body["code"]) == (400, "invalid_request")


def test_a_campaign_streams_its_log(server: str) -> None:
    ann = register(server, "ann")
    campaign = ann.post("/campaigns", {"max_players": 2})
    base = f"/campaigns/{campaign['id']}"
    ann.post(f"{base}/bots", {"kind": "greedy"})
    stream = stream_of(server, ann, f"{base}/stream")
    stream.wait(lambda s: len(s.events()) >= 1, what="campaign_created")
    ann.post(f"{base}/start")
    log = ann.get(f"{base}/events?limit=1000")["events"]
    stream.wait(lambda s: len(s.events()) >= len(log), what="the chapter's start")
    assert stream.events() == log
    assert [m.id for m in stream.messages if m.event == "message"] == [event["seq"] for event in log]
    stream.close()


def ann_following_on(other: str, server: str) -> tuple[Client, Client, str, Stream]:
    """ann and ben in a new game of ``server``, and ann's stream of it open on ``other`` with
    the opening events read: ann, ben, the game's path and the stream."""
    ann, ben = register(server, "ann"), register(server, "ben")
    base = f"/games/{open_game([ann, ben])}"
    stream = stream_of(other, ann, f"{base}/stream")
    stream.wait(lambda s: len(s.events()) == ann.get(base)["version"], what="the opening events")
    return ann, ben, base, stream


def test_a_stream_hears_of_a_commit_it_was_not_told_of_at_the_next_poll(
    environment: dict[str, str], server: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # Another process on the same database, without Redis: its streams are never notified of
    # the commits of `server`, and read them when their process looks at every followed log.
    polling = {**environment, "STREAM_POLL_SECONDS": "1"}
    with asgi_server(polling, tmp_path_factory.mktemp("polling") / "web.log") as other:
        ann, _, base, stream = ann_following_on(other, server)
        ann.post(f"{base}/moves", {"choice": ann.get(f"{base}/decision")["options"][0]})
        stream.wait(lambda s: s.events() == ann.get(f"{base}/events?limit=1000")["events"], timeout=10)
        stream.close()


def test_a_stream_handed_its_process_commit_reads_the_commit_it_missed_before_it(
    environment: dict[str, str], server: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # Another process on the same database, without Redis, whose poll never comes: its hub is
    # handed the rows of its own process's commits, and one made after a commit of `server`
    # (never notified to it) does not follow what it read: it reads the log, both in order.
    unpolled = {**environment, "STREAM_POLL_SECONDS": "600"}
    with asgi_server(unpolled, tmp_path_factory.mktemp("unpolled") / "web.log") as other:
        ann, ben, base, stream = ann_following_on(other, server)
        ann.post(f"{base}/moves", {"choice": ann.get(f"{base}/decision")["options"][0]})
        ben.at(other).post(f"{base}/moves", {"choice": ben.get(f"{base}/decision")["options"][0]})
        feed = ann.get(f"{base}/events?limit=1000")["events"]
        assert feed[-1]["seat"] == 0  # ann's move: ben's is hidden from her until the turn resolves
        stream.wait(lambda s: s.events() == feed, timeout=10)
        stream.close()


def test_a_streams_read_waits_for_the_commands_in_flight_not_for_reads_nor_for_ever() -> None:
    # A hub reads a commit once its process has answered the commands it serves (moon/inflight):
    # a move's answer then never shares the interpreter with its own streams' read.
    async def scenario() -> None:
        command_done, read_done = asyncio.Event(), asyncio.Event()

        async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
            await (command_done if scope["method"] == "POST" else read_done).wait()

        served = inflight.counted(application)
        read = asyncio.create_task(served({"type": "http", "method": "GET"}, None, None))
        await asyncio.wait_for(inflight.after_commands(most=5), 1)  # a read is not waited for
        command = asyncio.create_task(served({"type": "http", "method": "POST"}, None, None))
        await asyncio.sleep(0)
        started = time.monotonic()
        await inflight.after_commands(most=0.1)  # at most as long as asked
        assert 0.09 <= time.monotonic() - started < 1
        waiting = asyncio.create_task(inflight.after_commands(most=5))
        await asyncio.sleep(0.05)
        assert not waiting.done()
        command_done.set()
        await asyncio.wait_for(waiting, 1)  # as soon as the command has answered
        read_done.set()
        await asyncio.gather(read, command)

    asyncio.run(scenario())


def test_a_commands_streams_hear_of_its_commits_once_it_has_answered() -> None:
    # A command's commits reach its process's streams once it has answered (moon/inflight:
    # after_answer), not from its view's thread while it writes the answer; what runs after the
    # command ended, or outside any, runs at once.
    async def scenario() -> None:
        ran: list[str] = []
        answer = threading.Event()
        late: list[threading.Thread] = []

        def view() -> None:
            inflight.after_answer(lambda: ran.append("commit"))
            assert ran == []  # held while the view runs
            answer.wait(5)

        def straggler() -> None:  # a thread of the command still running after it answered
            answer.wait(5)
            time.sleep(0.05)
            inflight.after_answer(lambda: ran.append("late"))

        async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
            thread = threading.Thread(target=contextvars.copy_context().run, args=(straggler,))
            thread.start()
            late.append(thread)
            await asyncio.to_thread(view)  # the context (and what it holds) goes with the view

        served = inflight.counted(application)
        command = asyncio.create_task(served({"type": "http", "method": "POST"}, None, None))
        await asyncio.sleep(0.05)
        assert ran == []
        answer.set()
        await command
        assert ran == ["commit"]  # on the loop, as the command answered
        await asyncio.to_thread(late[0].join, 5)
        assert ran == ["commit", "late"]
        inflight.after_answer(lambda: ran.append("outside"))
        assert ran == ["commit", "late", "outside"]

    asyncio.run(scenario())
