"""The worker dies (SIGKILL) while it scores a game; once a worker runs again the game is scored,
with exactly one result event. And when only a pool process of a prefork worker dies, the task
is handed back at once (reject_on_worker_lost) and run again, once. (The games are solo games:
ASTRA's part of each turn is played by the same workers.)

The scoring task acknowledges its message only after it ran (acks_late), so the message of the
killed run stays unacknowledged in Redis and is delivered again after the visibility timeout
(5 s in this session). The slow run is made with MOON_SCORING_DELAY_SECONDS, set only in the
environment of the worker this test starts (games/tasks.py).
"""

import os
import random
import signal
import time
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from games import services as commands
from games.models import Event, Game
from tests.services import conftest
from tests.services.conftest import Services, Worker, wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def play_to_the_end(game: Game, user: User) -> None:
    conftest.play_to_the_end(game, user, random.Random(2))


def test_a_killed_scoring_run_is_done_again_once(services: Services, worker: Worker) -> None:
    worker.stop()  # only the slow worker may take the scoring task
    slow = services.make_worker(
        "slow", {"MOON_SCORING_DELAY_SECONDS": "120"}, pool="solo", concurrency=1
    ).start()
    try:
        user = User.objects.create_user(f"solo-{time.monotonic_ns()}", password="secret-pw")
        game = commands.create_game(by=user, adventure=1, max_players=1)
        commands.start_game(game=game, by=user)
        play_to_the_end(game, user)  # the last confirm dispatches the scoring task on commit

        wait_for(
            lambda: any(
                line.get("message") == "scoring started" and line.get("game_id") == game.pk
                for line in slow.log_lines()
            ),
            30,
            "the slow worker to start scoring",
        )
        slow.kill()
    finally:
        slow.kill()

    game.refresh_from_db()
    assert game.status == Game.Status.SCORING
    assert not Event.objects.filter(game=game, kind="result").exists()

    worker.start()
    wait_for(
        lambda: Game.objects.get(pk=game.pk).status == Game.Status.FINISHED,
        60,
        "the restarted worker to score the game",
    )
    time.sleep(2)  # a second delivery, were there one, would have shown by now
    assert Event.objects.filter(game=game, kind="result").count() == 1
    seqs = list(Event.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    assert Event.objects.get(game=game, kind="result").seq == seqs[-1]

    killed_run = [line for line in slow.log_lines() if line.get("game_id") == game.pk]
    assert [line["message"] for line in killed_run if line["message"].startswith("scoring")][:1] == [
        "scoring started"
    ]
    assert not any(line["message"] == "scoring done" for line in killed_run)
    redone = [
        line for line in worker.log_lines()
        if line.get("game_id") == game.pk and line.get("message") == "scoring done"
    ]  # fmt: skip
    assert len(redone) == 1, worker.log_tail()


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            # pid (comm) state ppid ...: comm may hold spaces, so split after its closing paren.
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def test_a_killed_pool_process_hands_its_task_back_at_once(services: Services, worker: Worker) -> None:
    """Prefork: the pool process running the task dies; the worker itself lives on, and with
    reject_on_worker_lost the task goes straight back to the queue and runs again, once."""
    worker.stop()
    pool = services.make_worker(
        "pool", {"MOON_SCORING_DELAY_SECONDS": "3"}, pool="prefork", concurrency=1
    ).start()
    try:
        user = User.objects.create_user(f"pool-{time.monotonic_ns()}", password="secret-pw")
        game = commands.create_game(by=user, adventure=1, max_players=1)
        commands.start_game(game=game, by=user)
        play_to_the_end(game, user)

        def started() -> list[dict[str, object]]:
            return [
                line for line in pool.log_lines()
                if line.get("message") == "scoring started" and line.get("game_id") == game.pk
            ]  # fmt: skip

        wait_for(started, 30, "the pool process to start scoring")
        assert pool.process is not None
        (child,) = _children(pool.process.pid)
        os.kill(child, signal.SIGKILL)

        wait_for(
            lambda: Game.objects.get(pk=game.pk).status == Game.Status.FINISHED,
            60,
            "the task handed back to be run again",
        )
        assert pool.running, "the worker's main process survives its pool process"
        assert len(started()) == 2, pool.log_tail()
    finally:
        pool.stop()
    assert Event.objects.filter(game=game, kind="result").count() == 1
    done = [
        line for line in pool.log_lines()
        if line.get("game_id") == game.pk and line.get("message") == "scoring done"
    ]  # fmt: skip
    assert len(done) == 1
