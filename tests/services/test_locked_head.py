"""On PostgreSQL a player's command locks the game's row, then reads the log in a statement of its
own (games/hot_queries.py, ``locked_log_head``): a command that waited for another's lock reads
what that one committed, not the log as it was when it began waiting."""

import threading
import time

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction

from games import selectors, services, snapshots
from games.models import Event

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_a_command_that_waited_for_the_lock_reads_what_its_holder_committed(emptied_log: None) -> None:
    alice, bob = (User.objects.create_user(f"{name}-{time.monotonic_ns()}") for name in ("alice", "bob"))
    game = services.create_game(by=alice, adventure=1, max_players=2)
    services.join_game(game=game, by=bob, invite=game.invite)
    game = services.start_game(game=game, by=alice).game
    holding, release = threading.Event(), threading.Event()
    read: list[snapshots.Head] = []

    def hold() -> None:
        try:
            with transaction.atomic():
                option = selectors.decision_view(game=game, viewer=alice)["options"][0]
                services.play_move(game_id=game.pk, by=alice, choice=option)
                holding.set()
                release.wait(30)
        finally:
            connection.close()

    def wait_and_read() -> None:
        try:
            with transaction.atomic():
                read.append(snapshots.locked_head(game_id=game.pk, user_id=bob.pk)[2])
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    assert holding.wait(30)
    waiter = threading.Thread(target=wait_and_read)
    waiter.start()
    time.sleep(1)  # the waiter has sent its statements and waits on the lock
    assert not read
    release.set()
    holder.join(30)
    waiter.join(30)
    last = Event.objects.filter(game_id=game.pk).order_by("-seq").first()
    assert last is not None and last.kind == "number_written"
    assert [(head.seq, head.hash) for head in read] == [(last.seq, bytes(last.hash).hex())]
    assert read[0].state.turn == snapshots.current(game=game)[0].turn
