"""The work that follows appended events, once their transaction commits.

Services append events and hand the kinds they appended to ``after_commit``, with what the state
they lead to leaves to workers (``services.ASTRA_DUE``: ASTRA's part of a solo turn;
``services.BOTS_TO_PLAY``: bot seats have a decision to make); what each sets off is registered
by the module that does that work (``games.tasks``: scoring, ASTRA's turns, bot seats;
``campaigns.tasks``: the end of a campaign chapter once its game has its result), so that tasks
call services and services never import tasks, and ``games`` never imports the apps built on it.
The mapping itself is the list of ``register`` calls at the end of those modules.
"""

import logging
from collections.abc import Callable, Iterable

from django.db import transaction

logger = logging.getLogger(__name__)

FollowUp = Callable[[int], object]

_FOLLOW_UPS: dict[str, list[FollowUp]] = {}


def register(kind: str, work: FollowUp) -> None:
    """Run ``work(game_id)`` after the commit of any transaction appending a ``kind`` event."""
    _FOLLOW_UPS.setdefault(kind, []).append(work)


def after_commit(*, game_id: int, kinds: Iterable[str]) -> None:
    """Schedule, for when the current transaction commits, the work that follows each kind."""
    for kind in dict.fromkeys(kinds):
        for work in _FOLLOW_UPS.get(kind, []):
            transaction.on_commit(_runner(work, game_id, kind), robust=True)


def _runner(work: FollowUp, game_id: int, kind: str) -> Callable[[], None]:
    def run() -> None:
        logger.info("follow-up of %s", kind, extra={"game_id": game_id})
        work(game_id)

    return run
