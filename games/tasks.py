"""Celery tasks. Each is idempotent: it reads the log before it appends, so a retry is safe.

Each is sent for a follow-up (eventstore/followups.py) with the id of its row, which it deletes
once its work is done; a follow-up whose message was lost is sent again by the sweeper.

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
from collections.abc import Callable
from typing import Any

from celery import shared_task
from django.db import OperationalError

from eventstore import followups
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


def logged(
    task: Any,
    what: str,
    work: Callable[..., Any],
    *,
    followup: int | None,
    delay: str | None = None,
    **ids: int,
) -> int | None:
    """Run a task's ``work(**ids)`` between the log lines "<what> started" and "<what> done"
    (with the seq of the last event it appended, and how many), after the test-only ``delay``,
    then mark its ``followup`` done; the seq."""
    context = log_context(task, **ids)
    logger.info("%s started", what, extra=context)
    if delay is not None:
        delay_for_tests(delay, context)
    appended = work(**ids)
    rows = appended if isinstance(appended, list) else [] if appended is None else [appended]
    seq: int | None = rows[-1].seq if rows else None
    followups.done(followup)
    logger.info("%s done", what, extra={**context, "seq": seq, "count": len(rows)})
    return seq


# ``followup`` is the id of the follow-up's row (None in a message sent before follow-ups had
# rows, still queued when the new version starts).


@retried_task
def score_game(self: Any, game_id: int, followup: int | None = None) -> int | None:
    """Append the result event of an ended game (once) and mark the game finished."""
    return logged(
        self, "scoring", services.score_game, followup=followup, delay=SCORING_DELAY_ENV, game_id=game_id
    )


@retried_task
def play_astra(self: Any, game_id: int, followup: int | None = None) -> int | None:
    """Append ASTRA's part of the turn of a solo game, if it is due (once)."""
    return logged(
        self, "astra turn", services.play_astra, followup=followup, delay=ASTRA_DELAY_ENV, game_id=game_id
    )


@retried_task
def play_bots(self: Any, game_id: int, followup: int | None = None) -> int:
    """Play the turn of each bot seat of a game that has something to decide (once)."""
    context = log_context(self, game_id=game_id)
    played = services.play_bot_turns(game_id=game_id)
    followups.done(followup)
    logger.info("bots played", extra={**context, "count": played})
    return played


@retried_task
def play_deadline(self: Any, game_id: int, version: int, followup: int | None = None) -> int | None:
    """Once the deadline of the phase asked by the log at ``version`` has passed, play for the
    seats that have not finished it (once: the log's version decides). Delivered early (a
    clock behind the one that set the deadline), its follow-up is left to be sent again when
    the deadline passes."""
    context = log_context(self, game_id=game_id, seq=version)
    outcome = services.play_deadline(game_id=game_id, version=version)
    if outcome.early:
        followups.later(followup, seconds=outcome.early)
    else:
        followups.done(followup)
    logger.info("deadline", extra={**context, "count": len(outcome.events), "early": outcome.early})
    return outcome.events[-1].seq if outcome.events else None
