"""Commit notifications published on Redis, as every web process's listener receives them."""

import os
import time

import pytest
import redis

from eventstore import notify
from tests.services.conftest import Services

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_notifications_reach_the_channel_and_outlive_a_lost_connection(services: Services) -> None:
    url = os.environ["REDIS_URL"]
    listener = redis.Redis.from_url(url)
    pubsub = listener.pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(notify.CHANNEL)
    publisher = notify.Publisher(url)

    def received(count: int) -> list[str]:
        got: list[str] = []
        deadline = time.monotonic() + 5
        while len(got) < count and time.monotonic() < deadline:
            message = pubsub.get_message(timeout=0.2)
            if message is not None:
                got.append(message["data"].decode())
        return got

    time.sleep(0.2)  # the subscription is in place
    publisher.publish("game:1")
    publisher.publish("game:2")
    assert received(2) == ["game:1", "game:2"]

    # the publishers' kept connections are cut (this one's, and those of the web servers other
    # tests started), as a restart of Redis would: the next notification still goes out, on a
    # new connection
    clients: list[dict[str, str]] = listener.client_list()  # type: ignore[assignment]
    kept = [client["id"] for client in clients if client["name"] == notify.PUBLISHER_NAME]
    assert kept
    for each in kept:
        listener.client_kill_filter(_id=each)
    publisher.publish("campaign:3")
    assert received(1) == ["campaign:3"]
    pubsub.close()
    listener.close()
