"""The work that follows committed events, scheduled for when their transaction commits.

Services hand ``after_commit`` the kinds of the events they appended, with what the state they
lead to leaves to workers (``ASTRA_DUE``, ``BOTS_TO_PLAY``, ``BOT_TO_CHOOSE``, ``DEADLINE``). What each sets
off is one table, ``FOLLOW_UPS`` in campaigns/followups.py (named by the ``FOLLOW_UPS`` setting),
read here when work is first scheduled: the table imports the tasks, so that services never
import tasks and the apps never import those built on them.
"""

import logging
from collections.abc import Callable, Iterable, Mapping
from functools import cache

from django.conf import settings
from django.db import transaction
from django.utils.module_loading import import_string

logger = logging.getLogger(__name__)

# What a stream's state leaves to workers besides what its events' kinds set off.
ASTRA_DUE = "astra_due"  # a solo game: ASTRA's part of the turn is due
BOTS_TO_PLAY = "bots_to_play"  # a game: bot seats have a decision to make
BOT_TO_CHOOSE = "bot_to_choose"  # a campaign: the choice it waits for is a bot seat's
DEADLINE = "deadline"  # a game with turn_seconds: a phase began, whose deadline is to be kept

# work(stream_id, version): the stream's id, and its log's version once the events are in
Work = Callable[[int, int], object]
Table = Mapping[tuple[str, str], tuple[Work, ...]]


@cache
def table() -> Table:
    """The table of follow-ups: (stream, kind) -> the work it sets off."""
    loaded: Table = import_string(settings.FOLLOW_UPS)
    return loaded


def after_commit(*, stream: str, stream_id: int, version: int, kinds: Iterable[str]) -> None:
    """Schedule, for when the current transaction commits, the work that follows each kind."""
    for kind in dict.fromkeys(kinds):
        for work in table().get((stream, kind), ()):
            transaction.on_commit(_runner(work, stream, stream_id, version, kind), robust=True)


def _runner(work: Work, stream: str, stream_id: int, version: int, kind: str) -> Callable[[], None]:
    def run() -> None:
        logger.info("follow-up of %s", kind, extra={f"{stream}_id": stream_id, "seq": version})
        work(stream_id, version)

    return run
