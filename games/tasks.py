"""Celery tasks. Each is idempotent: it reads the log before it appends, so a retry is safe.

Each task acknowledges its message only once it has run (`acks_late`), and a worker that dies
while running it hands the message back (`reject_on_worker_lost`; with the Redis broker a message
left unacknowledged by a killed worker is delivered again after CELERY_VISIBILITY_TIMEOUT). A
task may therefore run more than once for the same work: what it appends, it appends once. The
result event exists once; ASTRA's part of a turn is appended only while the game's state says it
is due; a bot seat plays only while its decision is not to wait.
"""

import logging
import os
import socket
import time
from typing import Any

from celery import shared_task
from django.db import OperationalError

from games import services

logger = logging.getLogger(__name__)

# Test-only hooks: seconds the scoring task (the ASTRA task) waits before it scores (plays), so
# that a test can kill the worker while the task runs (tests/services/test_worker_killed.py,
# tests/services/test_astra_worker.py). Never set them in production.
SCORING_DELAY_ENV = "MOON_SCORING_DELAY_SECONDS"
ASTRA_DELAY_ENV = "MOON_ASTRA_DELAY_SECONDS"

# Every task: retried on a database hiccup, acknowledged only once it has run.
retried_task = shared_task(
    bind=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
    acks_late=True,
    reject_on_worker_lost=True,
)


def log_context(task: Any, **ids: int) -> dict[str, object]:
    """What a task's log lines carry: the ids it works on, its task id and its worker."""
    return {**ids, "task_id": task.request.id, "hostname": task.request.hostname or socket.gethostname()}


def delay_for_tests(variable: str, context: dict[str, object]) -> None:
    """Wait the seconds the test-only environment ``variable`` names (none when unset)."""
    delay = float(os.environ.get(variable) or 0)
    if delay > 0:
        logger.warning("task delayed by %s s (%s)", delay, variable, extra=context)
        time.sleep(delay)


@retried_task
def score_game(self: Any, game_id: int) -> int | None:
    """Append the result event of an ended game (once) and mark the game finished."""
    context = log_context(self, game_id=game_id)
    logger.info("scoring started", extra=context)
    delay_for_tests(SCORING_DELAY_ENV, context)
    event = services.score_game(game_id=game_id)
    seq = event.seq if event is not None else None
    logger.info("scoring done", extra={**context, "seq": seq})
    return seq


@retried_task
def play_astra(self: Any, game_id: int) -> int | None:
    """Append ASTRA's part of the turn of a solo game, if it is due (once)."""
    context = log_context(self, game_id=game_id)
    logger.info("astra turn started", extra=context)
    delay_for_tests(ASTRA_DELAY_ENV, context)
    appended = services.play_astra(game_id=game_id)
    seq = appended[-1].seq if appended else None
    logger.info("astra turn done", extra={**context, "seq": seq, "count": len(appended)})
    return seq


@retried_task
def play_bots(self: Any, game_id: int) -> int:
    """Play the turn of each bot seat of a game that has something to decide (once)."""
    context = log_context(self, game_id=game_id)
    played = services.play_bot_turns(game_id=game_id)
    logger.info("bots played", extra={**context, "count": played})
    return played
