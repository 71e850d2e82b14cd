"""A commit notification as the transport (Redis, PostgreSQL) brings it to every process: the
process that committed, whose followers were handed the commit already, lets its own pass;
and when a command's notification is sent."""

import asyncio
import os
import threading
import time
from typing import Any

import pytest

from eventstore import notify
from games.models import Event, Game
from moon import inflight


@pytest.fixture(autouse=True)
def no_transport(monkeypatch: pytest.MonkeyPatch) -> None:
    # what the transport would bring is handed to ``heard`` here
    monkeypatch.setattr(notify, "transport", lambda: None)


def told(*payloads: str) -> notify.News:
    """What a follower of game 7 in this process is told once the payloads were heard."""

    async def follow() -> notify.News:
        async with notify.subscribe("game", 7) as subscription:
            for payload in payloads:
                notify.heard(payload)
            return subscription.news()

    return asyncio.run(follow())


def test_a_processs_own_notification_brought_back_is_not_delivered_again() -> None:
    assert told(notify.notice(notify.key("game", 7), 5)) == notify.News([], 0, False)
    assert told("game:7 5 another-process") == notify.News([], 5, False)


def test_notifications_without_a_sender_or_a_seq_are_delivered_as_before() -> None:
    # as a process of the previous release sends them, during a rolling deploy
    assert told("game:7 6") == notify.News([], 6, False)
    assert told("game:7") == notify.News([], 0, True)
    assert told("game:8 9 another-process") == notify.News([], 0, False)


def test_a_forked_process_names_itself_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    parent = notify.origin()
    assert notify.origin() == parent
    pid = os.getpid()
    monkeypatch.setattr(os, "getpid", lambda: pid + 1)  # the child of a fork
    assert notify.origin() != parent


class Recording:
    """A transport that records what it is given to publish, and in which thread."""

    name = "recording"

    def __init__(self, *, fails: int = 0) -> None:
        self.sent: list[tuple[str, str]] = []
        self.fails = fails

    def publish(self, payload: str) -> None:
        if self.fails:
            self.fails -= 1
            raise ConnectionError("the transport is down")
        self.sent.append((payload, threading.current_thread().name))

    async def listen(self, ready: asyncio.Event) -> None:
        raise NotImplementedError


def commit_of_game_7() -> None:
    notify.committed(stream="game", stream_id=7, rows=[Event(game=Game(id=7), seq=3, turn=1)])


def sent_by(transport: Recording, count: int) -> list[tuple[str, str]]:
    for _ in range(500):
        if len(transport.sent) >= count:
            break
        time.sleep(0.01)
    return transport.sent


def test_a_commands_notification_is_sent_once_it_has_answered_and_not_by_the_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Sent while the command's view still ran, the notification came back to the process's own
    # listener then, whose loop took the interpreter from the view: it is sent once the command
    # has answered, from the process's notifying thread (the loop does not wait for the round
    # trip either). A worker or a script sends it at once.
    transport = Recording()
    monkeypatch.setattr(notify, "transport", lambda: transport)
    notice = notify.notice("game:7", 3)

    async def scenario() -> None:
        def view() -> None:
            commit_of_game_7()
            time.sleep(0.05)
            assert transport.sent == []  # not while the command runs

        async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
            await asyncio.to_thread(view)

        await inflight.counted(application)({"type": "http", "method": "POST"}, None, None)

    asyncio.run(scenario())
    [(payload, thread)] = sent_by(transport, 1)
    assert payload == notice
    assert thread.startswith("commit notifications")
    commit_of_game_7()  # outside a command
    assert transport.sent[1:] == [(notice, threading.current_thread().name)]


def test_a_notification_the_transport_failed_to_send_is_logged_and_the_next_goes(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    transport = Recording(fails=1)
    monkeypatch.setattr(notify, "transport", lambda: transport)

    async def from_the_loop() -> None:
        notify.publish(transport, "game:7 3 here")
        notify.publish(transport, "game:7 4 here")

    asyncio.run(from_the_loop())
    assert [payload for payload, _ in sent_by(transport, 1)] == ["game:7 4 here"]
    assert [record.getMessage() for record in caplog.records] == ["commit notification not published"]
