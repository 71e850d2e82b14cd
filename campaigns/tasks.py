"""Celery tasks of campaigns. Each is idempotent: it reads the log before it appends.

`end_chapter` follows the result of a chapter's game (registered below with games.followups,
which ``games.services.score_game`` schedules after every run, also a run that finds the game
scored already). It acknowledges its message only once it has run and is handed back when its
worker dies; however often it runs for a game, the chapter's end is appended once.
"""

import logging
import socket

from celery import shared_task
from django.db import OperationalError

from campaigns import services
from games import followups
from games.services import RESULT

logger = logging.getLogger(__name__)


@shared_task(
    bind=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
    acks_late=True,
    reject_on_worker_lost=True,
)
def end_chapter(self, game_id: int) -> int | None:
    """Append the end of the chapter played in a game (once): stars, captain, cards offered."""
    context = {
        "game_id": game_id,
        "task_id": self.request.id,
        "hostname": self.request.hostname or socket.gethostname(),
    }
    rows = services.end_chapter(game_id=game_id)
    seq = rows[-1].seq if rows else None
    logger.info("chapter end done", extra={**context, "seq": seq, "count": len(rows)})
    return seq


def _after_result(game_id: int) -> None:
    if services.is_chapter_game(game_id=game_id):
        end_chapter.delay(game_id)


# What follows appended events, on commit (see games.followups).
followups.register(RESULT, _after_result)
