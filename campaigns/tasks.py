"""Celery tasks of campaigns. Each is idempotent: it reads the log before it appends.

`end_chapter` follows the result of a chapter's game (campaigns/followups.py);
`play_bot_choice` follows campaign events after which the campaign waits for a bot seat's
choice, with the log's version then. Each acknowledges its message only once it has run and is
handed back when its worker dies; however often it runs, the chapter's end is appended once,
and a bot's choice is made once.
"""

from typing import Any

from campaigns import services
from games.tasks import logged, retried_task

# Test-only hook: seconds the chapter-end task waits before it ends the chapter, so that a test
# can kill the worker while it runs (tests/services/test_campaign_chapter_end.py). Never set it
# in production.
CHAPTER_END_DELAY_ENV = "MOON_CHAPTER_END_DELAY_SECONDS"


# ``followup``: the id of the follow-up's row, deleted once the work is done (games/tasks.py).


@retried_task
def end_chapter(self: Any, game_id: int, followup: int | None = None) -> int | None:
    """Append the end of the chapter played in a game (once): stars, captain, cards offered."""
    return logged(
        self, "chapter end", services.end_chapter, followup=followup, delay=CHAPTER_END_DELAY_ENV,
        game_id=game_id,
    )  # fmt: skip


@retried_task
def play_bot_choice(self: Any, campaign_id: int, version: int, followup: int | None = None) -> int | None:
    """Make the choice a bot seat was asked when the campaign's log was at ``version`` (once)."""
    return logged(
        self, "bot choice", services.play_bot_choice, followup=followup, campaign_id=campaign_id,
        version=version,
    )  # fmt: skip
