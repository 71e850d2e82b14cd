"""The work that follows committed events: an outbox, so that none is lost.

Services hand ``after_commit`` the kinds of the events they appended, with what the state they
lead to leaves to workers (``ASTRA_DUE``, ``BOTS_TO_PLAY``, ``BOT_TO_CHOOSE``, ``DEADLINE``). What each sets
off is one table, ``FOLLOW_UPS`` in campaigns/followups.py (named by the ``FOLLOW_UPS`` setting),
read here when work is first scheduled: the table imports the tasks, so that services never
import tasks and the apps never import those built on them.

Each follow-up is a ``FollowUp`` row written in the command's own transaction: it exists if and
only if the events it follows were committed. Once they are, the row's work is sent (to the
broker, or run in-process in the embedded mode); the task deletes the row when the work is done
(``done``). A row still there at its ``retry_at`` (the message was lost between the broker and a
killed worker, the broker was down at the commit, the task failed) is sent again by the sweeper
(``sweep``: a loop in every worker, eventstore/sweeper.py), each time a little later, until it is
done. Tasks are idempotent (they read the log before they append), so a follow-up sent twice does
its work once. A follow-up may be due later than its commit (``due_at``, a deadline): the sweeper
sends it when it is due.
"""

import logging
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timedelta
from functools import cache, partial

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Min
from django.utils import timezone
from django.utils.module_loading import import_string

from eventstore.models import FollowUp

logger = logging.getLogger(__name__)

# What a stream's state leaves to workers besides what its events' kinds set off.
ASTRA_DUE = "astra_due"  # a solo game: ASTRA's part of the turn is due
BOTS_TO_PLAY = "bots_to_play"  # a game: bot seats have a decision to make
BOT_TO_CHOOSE = "bot_to_choose"  # a campaign: the choice it waits for is a bot seat's
DEADLINE = "deadline"  # a game with turn_seconds: a phase began, whose deadline is to be kept

# work(stream_id, version, followup): sends (or, in the embedded mode, runs) the task that does
# the work for the stream at its log's version once the events were in, and deletes the
# follow-up's row (its id) when done
Work = Callable[[int, int, int], object]
Table = Mapping[tuple[str, str], Work]


@cache
def table() -> Table:
    """The table of follow-ups: (stream, kind) -> the work it sets off."""
    loaded: Table = import_string(settings.FOLLOW_UPS)
    return loaded


def after_commit(
    *, stream: str, stream_id: int, version: int, kinds: Iterable[str], due_at: datetime | None = None
) -> None:
    """Write, in the current transaction, the work that follows each kind (those the table
    names), and send it when the transaction commits; with ``due_at``, the sweeper sends it
    then instead."""
    now = timezone.now()
    rows = [
        FollowUp(
            stream=stream,
            stream_id=stream_id,
            kind=kind,
            version=version,
            due_at=due_at or now,
            # sent on commit: sent again only if not done by then
            retry_at=due_at or now + resend_after(0),
        )
        for kind in dict.fromkeys(kinds)
        if (stream, kind) in table()
    ]
    if not rows:
        return
    FollowUp.objects.bulk_create(rows)
    if due_at is None:
        for row in rows:
            transaction.on_commit(partial(_send, row, "on commit"), robust=True)


def done(followup: int | None) -> None:
    """The follow-up's work is done: its row goes (a task run without one, from a message sent
    before follow-ups had rows, has none)."""
    if followup is not None:
        FollowUp.objects.filter(pk=followup).delete()


def later(followup: int | None, *, seconds: float) -> None:
    """The follow-up's work came too early (a deadline not passed yet): the sweeper sends it
    again ``seconds`` from now."""
    if followup is not None:
        FollowUp.objects.filter(pk=followup).update(retry_at=timezone.now() + timedelta(seconds=seconds))


def sweep(*, limit: int = 100) -> int:
    """Send again the follow-ups whose ``retry_at`` has come (oldest first, at most ``limit``),
    each claimed for its next try first (so that concurrent sweepers send each once); the number
    sent. Should the broker refuse one, the rest of the batch is left for the next sweep."""
    now = timezone.now()
    with transaction.atomic():
        rows = list(
            FollowUp.objects.select_for_update(skip_locked=True)
            .filter(retry_at__lte=now)
            .order_by("retry_at")[:limit]
        )
        for row in rows:
            row.attempts += 1
            row.retry_at = now + resend_after(row.attempts)
        FollowUp.objects.bulk_update(rows, ["attempts", "retry_at"])
    for sent, row in enumerate(rows):
        if not _send(row, "by the sweeper"):
            FollowUp.objects.filter(pk__in=[left.pk for left in rows[sent:]]).update(retry_at=now)
            return sent
    return len(rows)


def backlog() -> tuple[float | None, int]:
    """How long ago the oldest follow-up not done was due (seconds; None when there is none),
    and how many are due and not done."""
    now = timezone.now()
    found = FollowUp.objects.filter(due_at__lte=now).aggregate(oldest=Min("due_at"), count=Count("id"))
    oldest: datetime | None = found["oldest"]
    return (None if oldest is None else (now - oldest).total_seconds()), found["count"]


def resend_after(attempts: int) -> timedelta:
    """How long after a send a follow-up not done is sent again: FOLLOWUP_RESEND_SECONDS, doubled
    for each time the sweeper sent it already, up to FOLLOWUP_RESEND_MAX_SECONDS (so that a
    backlog the workers are slow to clear is not multiplied)."""
    seconds = settings.FOLLOWUP_RESEND_SECONDS * 2 ** min(attempts, 16)
    return timedelta(seconds=min(seconds, settings.FOLLOWUP_RESEND_MAX_SECONDS))


def _send(row: FollowUp, how: str) -> bool:
    """Send a follow-up's work; whether the broker took it (a failure is logged, and the row
    waits for the sweeper). In the embedded mode the task runs here."""
    context = {f"{row.stream}_id": row.stream_id, "seq": row.version, "followup": row.pk}
    work = table().get((row.stream, row.kind))
    if work is None:  # a kind whose follow-up a later version of the table dropped
        logger.warning("follow-up of %s has no work any more", row.kind, extra=context)
        done(row.pk)
        return True
    try:
        work(row.stream_id, row.version, row.pk)
    except Exception:
        logger.exception(
            "follow-up of %s not sent (or, run in-process, failed): the sweeper sends it again",
            row.kind,
            extra=context,
        )
        if how == "on commit":
            FollowUp.objects.filter(pk=row.pk).update(retry_at=timezone.now())
        return False
    logger.info("follow-up of %s sent %s", row.kind, how, extra={**context, "attempts": row.attempts})
    return True
