"""The work that follows appended campaign events, once their transaction commits (as
``games.followups`` does for games).

Services hand ``after_commit`` what the campaign's log leaves to workers once the events they
appended are in (``BOT_TO_CHOOSE``: the choice the campaign waits for is a bot seat's), with the
log's version then; what each sets off is registered by ``campaigns.tasks``, so that services
never import tasks.
"""

import logging
from collections.abc import Callable, Iterable

from django.db import transaction

logger = logging.getLogger(__name__)

# The campaign waits for a bot seat's choice.
BOT_TO_CHOOSE = "bot_to_choose"

# work(campaign_id, version)
FollowUp = Callable[[int, int], object]

_FOLLOW_UPS: dict[str, list[FollowUp]] = {}


def register(kind: str, work: FollowUp) -> None:
    """Run ``work(campaign_id, version)`` after the commit of a transaction that leaves ``kind``
    to do."""
    _FOLLOW_UPS.setdefault(kind, []).append(work)


def after_commit(*, campaign_id: int, version: int, kinds: Iterable[str]) -> None:
    """Schedule, for when the current transaction commits, the work that follows each kind."""
    for kind in dict.fromkeys(kinds):
        for work in _FOLLOW_UPS.get(kind, []):
            transaction.on_commit(_runner(work, campaign_id, version, kind), robust=True)


def _runner(work: FollowUp, campaign_id: int, version: int, kind: str) -> Callable[[], None]:
    def run() -> None:
        logger.info("follow-up of %s", kind, extra={"campaign_id": campaign_id, "seq": version})
        work(campaign_id, version)

    return run
