"""Celery tasks. Each is idempotent: it reads the log before it appends, so a retry is safe.

`score_game` acknowledges its message only once it has run (`acks_late`), and a worker that dies
while running it hands the message back (`reject_on_worker_lost`; with the Redis broker a message
left unacknowledged by a killed worker is delivered again after CELERY_VISIBILITY_TIMEOUT). The
task may therefore run more than once for a game: the result event is still appended only once.
"""

import logging
import os
import socket
import time

from celery import shared_task
from django.db import OperationalError

from games import followups, services

logger = logging.getLogger(__name__)

# Test-only hook: seconds the scoring task waits before it scores, so that a test can kill the
# worker while the task runs (tests/services/test_worker_killed.py). Never set it in production.
SCORING_DELAY_ENV = "MOON_SCORING_DELAY_SECONDS"


@shared_task(
    bind=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
    acks_late=True,
    reject_on_worker_lost=True,
)
def score_game(self, game_id: int) -> int | None:
    """Append the result event of an ended game (once) and mark the game finished."""
    context = {
        "game_id": game_id,
        "task_id": self.request.id,
        "hostname": self.request.hostname or socket.gethostname(),
    }
    logger.info("scoring started", extra=context)
    delay = float(os.environ.get(SCORING_DELAY_ENV) or 0)
    if delay > 0:
        logger.warning("scoring delayed by %s s (%s)", delay, SCORING_DELAY_ENV, extra=context)
        time.sleep(delay)
    event = services.score_game(game_id=game_id)
    seq = event.seq if event is not None else None
    logger.info("scoring done", extra={**context, "seq": seq})
    return seq


# What follows appended events, on commit (see games.followups).
followups.register(services.GAME_ENDED, lambda game_id: score_game.delay(game_id))
