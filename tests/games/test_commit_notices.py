"""A commit notification as the transport (Redis, PostgreSQL) brings it to every process: the
process that committed, whose followers were handed the commit already, lets its own pass."""

import asyncio
import os

import pytest

from eventstore import notify


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
