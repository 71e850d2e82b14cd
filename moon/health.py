"""Is this deployment able to serve? The checks behind GET /api/v1/health.

Each check answers `{"status": "ok" | "eager" | "down", "detail": "..."}`:

- `database`: a query on the default database.
- `broker`: a connection to CELERY_BROKER_URL. In the embedded mode (no broker, tasks run
  eagerly in the web process) it is `eager`, which counts as up.
- `worker`: at least one Celery worker answers a ping within HEALTH_TIMEOUT seconds (default 1).
  `eager` in the embedded mode; `down` when the broker is. The ping returns at the first answer,
  and its outcome is kept in the cache for HEALTH_WORKER_TTL seconds (default 10), so that a
  load balancer polling the endpoint neither waits on the ping nor holds a web thread for it.
- `followups`: the outbox of follow-ups (eventstore/followups.py): how many are due and not done
  (`unfinished`) and how long ago the oldest was due (`age`, seconds). `late` once that age is
  past HEALTH_FOLLOWUP_AGE seconds (default 120): the answer is then 200 with the status
  `degraded`, not 503, since the web processes still serve (a load balancer must not take them
  all out for a game that waits); a monitor alerts on it.

Under ASGI (the web process) the checks run in a thread of their own per process and a poll
asking for JSON is answered from the latest, at most HEALTH_FRESH_SECONDS old (default 1; up to
HEALTH_STALE_SECONDS, default 10, while the next check runs): api/views.py, ``LatestCheck``.
"""

import os
from collections.abc import Callable
from typing import Any, TypedDict

from celery import Celery
from django.core.cache import cache
from django.db import connection

UP = ("ok", "eager")
WORKER_CACHE_KEY = "health:worker"


class Check(TypedDict):
    status: str
    detail: str


class FollowUpsCheck(Check):
    age: float | None
    unfinished: int | None


# how long ago the oldest follow-up not done was due (seconds, or None), and how many are due
Backlog = Callable[[], tuple[float | None, int]]


def timeout() -> float:
    return float(os.environ.get("HEALTH_TIMEOUT", "1.0"))


def check_database() -> Check:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure means the database is not usable
        return {"status": "down", "detail": f"{type(exc).__name__}: {exc}"[:300]}
    return {"status": "ok", "detail": f"{connection.vendor} answered"}


def check_broker(app: Celery) -> Check:
    if app.conf.task_always_eager:
        return {"status": "eager", "detail": "no broker: tasks run in the web process"}
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=int(timeout()) + 1)
    except Exception as exc:
        return {"status": "down", "detail": f"{type(exc).__name__}: {exc}"[:300]}
    return {"status": "ok", "detail": "broker connection made"}


def fresh_seconds() -> float:
    """Under ASGI, how old the latest check may be before a poll starts the next one."""
    return float(os.environ.get("HEALTH_FRESH_SECONDS", "1"))


def stale_seconds() -> float:
    """Under ASGI, how old the latest check may be and still answer a poll."""
    return float(os.environ.get("HEALTH_STALE_SECONDS", "10"))


def worker_ttl() -> float:
    return float(os.environ.get("HEALTH_WORKER_TTL", "10"))


def check_worker(app: Celery, broker: Check) -> Check:
    if app.conf.task_always_eager:
        return {"status": "eager", "detail": "no worker needed: tasks run in the web process"}
    if broker["status"] not in UP:
        return {"status": "down", "detail": "the broker is down, so no worker can be reached"}
    cached: Check | None = cache.get(WORKER_CACHE_KEY)
    if cached is not None:
        return cached
    check = _ping_workers(app)
    cache.set(WORKER_CACHE_KEY, check, worker_ttl())
    return check


def _ping_workers(app: Celery) -> Check:
    try:
        replies: list[dict[str, Any]] = app.control.ping(timeout=timeout(), limit=1) or []
    except Exception as exc:
        return {"status": "down", "detail": f"{type(exc).__name__}: {exc}"[:300]}
    names = sorted(name for reply in replies for name in reply)
    if not names:
        return {"status": "down", "detail": f"no worker answered a ping within {timeout()} s"}
    return {"status": "ok", "detail": f"a worker answered: {', '.join(names)}"}


def run_checks(app: Celery) -> tuple[bool, dict[str, Check]]:
    """All checks, and whether every one is up."""
    broker = check_broker(app)
    checks: dict[str, Check] = {
        "database": check_database(),
        "broker": broker,
        "worker": check_worker(app, broker),
    }
    return all(check["status"] in UP for check in checks.values()), checks


def followup_max_age() -> float:
    return float(os.environ.get("HEALTH_FOLLOWUP_AGE", "120"))


def check_followups(backlog: Backlog, database: Check) -> FollowUpsCheck:
    """The follow-ups not done: `late` when the oldest was due more than HEALTH_FOLLOWUP_AGE
    seconds ago."""
    if database["status"] not in UP:
        return {"status": "down", "detail": "the database is down", "age": None, "unfinished": None}
    try:
        age, count = backlog()
    except Exception as exc:
        detail = f"{type(exc).__name__}: {exc}"[:300]
        return {"status": "down", "detail": detail, "age": None, "unfinished": None}
    if age is None:
        return {"status": "ok", "detail": "no follow-up waits", "age": None, "unfinished": 0}
    limit = followup_max_age()
    return {
        "status": "late" if age > limit else "ok",
        "detail": f"{count} follow-ups not done, the oldest due {age:.0f} s ago (late past {limit:.0f} s)",
        "age": round(age, 1),
        "unfinished": count,
    }
