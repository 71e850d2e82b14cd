"""The sweeper: a thread in every Celery worker's main process that sends again, every
FOLLOWUP_SWEEP_SECONDS, the follow-ups not done by their ``retry_at`` (``followups.sweep``).

A loop in the worker rather than Celery beat: nothing more to deploy or to keep single (every
worker sweeps; a row is claimed before it is sent, so each is sent once per try however many
sweep), and it runs wherever a worker runs, the services tests included. It starts when the
worker is ready and stops when it shuts down; FOLLOWUP_SWEEP_SECONDS=0 turns it off.

The embedded mode has no worker: there each web process sweeps (``start_in_web_process``, from
gunicorn's ``post_worker_init``, deploy/gunicorn.conf.py), running the work in-process, so that
follow-ups due later (turn deadlines) are kept there too.
"""

import logging
import threading
from typing import Any

from celery.signals import worker_ready, worker_shutdown
from django.conf import settings
from django.db import close_old_connections, connection

from eventstore import followups

logger = logging.getLogger(__name__)

_stop = threading.Event()


def loop(interval: float, stop: threading.Event) -> None:
    """Sweep every ``interval`` seconds until ``stop`` is set; a failed sweep (the database or
    the broker down) is logged and tried again at the next."""
    while not stop.wait(interval):
        try:
            close_old_connections()
            sent = followups.sweep()
        except Exception:
            logger.exception("follow-up sweep failed")
        else:
            if sent:
                logger.info("follow-ups sent again", extra={"count": sent})
        finally:
            # no connection held between sweeps: a pool process forked meanwhile shares none
            connection.close()


@worker_ready.connect
def start(**kwargs: Any) -> None:
    interval = settings.FOLLOWUP_SWEEP_SECONDS
    if interval <= 0:
        return
    _stop.clear()
    threading.Thread(target=loop, args=(interval, _stop), name="followup-sweeper", daemon=True).start()
    logger.info("follow-up sweeper started", extra={"interval": interval})


def start_in_web_process() -> None:
    """Sweep in this web process when no worker will: tasks run eagerly (no broker)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        start()


@worker_shutdown.connect
def stop(**kwargs: Any) -> None:
    _stop.set()
