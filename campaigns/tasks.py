"""Celery tasks of campaigns. Each is idempotent: it reads the log before it appends.

`end_chapter` follows the result of a chapter's game (moon/followups.py; ``games.services.
score_game`` schedules it after every run, also a run that finds the game scored already);
`play_bot_choice` follows campaign events after which the campaign waits for a bot seat's
choice, with the log's version then. Each
acknowledges its message only once it has run and is handed back when its worker dies; however
often it runs, the chapter's end is appended once, and a bot's choice is made once.
"""

import logging
from typing import Any

from campaigns import services
from games.tasks import delay_for_tests, log_context, retried_task

logger = logging.getLogger(__name__)

# Test-only hook: seconds the chapter-end task waits before it ends the chapter, so that a test
# can kill the worker while it runs (tests/services/test_campaign_chapter_end.py). Never set it
# in production.
CHAPTER_END_DELAY_ENV = "MOON_CHAPTER_END_DELAY_SECONDS"


@retried_task
def end_chapter(self: Any, game_id: int) -> int | None:
    """Append the end of the chapter played in a game (once): stars, captain, cards offered."""
    context = log_context(self, game_id=game_id)
    logger.info("chapter end started", extra=context)
    delay_for_tests(CHAPTER_END_DELAY_ENV, context)
    rows = services.end_chapter(game_id=game_id)
    seq = rows[-1].seq if rows else None
    logger.info("chapter end done", extra={**context, "seq": seq, "count": len(rows)})
    return seq


@retried_task
def play_bot_choice(self: Any, campaign_id: int, version: int) -> int | None:
    """Make the choice a bot seat was asked when the campaign's log was at ``version`` (once)."""
    rows = services.play_bot_choice(campaign_id=campaign_id, version=version)
    seq = rows[-1].seq if rows else None
    context = log_context(self, campaign_id=campaign_id)
    logger.info("bot choice done", extra={**context, "seq": seq, "count": len(rows)})
    return seq
