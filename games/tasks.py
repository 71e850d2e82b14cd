"""Celery tasks. Each is idempotent: it reads the log before it appends, so a retry is safe."""

from celery import shared_task
from django.db import OperationalError

from games import services


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def score_game(game_id: int) -> int | None:
    """Append the result event of an ended game (once) and mark the game finished."""
    event = services.score_game(game_id=game_id)
    return event.seq if event is not None else None
