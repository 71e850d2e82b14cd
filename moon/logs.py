"""Logs: one JSON object per line in production, plain text lines in the embedded mode.

The web processes and the Celery workers log alike (settings.LOGGING, deploy/gunicorn.conf.py).

Every line has `timestamp` (UTC, ISO 8601), `level`, `logger` and `message`. Context passed with
`extra=` is added when present: `game_id` and `seq` (the last event appended) above all, and a
few others the services and tasks set. An exception adds `exception` (the formatted traceback).

    logger.info("events appended", extra={"game_id": game.pk, "seq": 42})
"""

import json
import logging
import os
from datetime import UTC, datetime
from typing import Any

# Attributes copied from a record into the line when a caller passed them with `extra=`.
CONTEXT_FIELDS = (
    "game_id",
    "campaign_id",
    "seq",
    "seat",
    "turn",
    "kind",
    "count",
    "user_id",
    "task_id",
    "hostname",
    "status_code",
    "duration_ms",
)


def lean_records() -> None:
    """Log records without what no line of ours shows: the caller's file, line and function
    (looked up on the stack for every record), the thread's and the process's names. A web
    process sets it once it has loaded the application: every command logs a line."""
    logging._srcfile = None  # the documented switch (logging, "Optimization")
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False


def log_format() -> str:
    """``text`` or ``json``: ``LOG_FORMAT`` when set, else text in the embedded mode (SQLite,
    no other ``DATABASE_URL``: a person reads the terminal of ``make run``) and JSON in
    production."""
    chosen = os.environ.get("LOG_FORMAT", "").strip().lower()
    if chosen in {"text", "json"}:
        return chosen
    database = os.environ.get("DATABASE_URL", "")
    return "text" if not database or database.startswith("sqlite") else "json"


def _context(record: logging.LogRecord) -> dict[str, Any]:
    return {field: value for field in CONTEXT_FIELDS if (value := getattr(record, field, None)) is not None}


class TextFormatter(logging.Formatter):
    """A line a person reads: time, level, logger, message, then the context as ``key=value``."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)-7s %(name)s: %(message)s", datefmt="%H:%M:%S")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        context = " ".join(f"{key}={value}" for key, value in _context(record).items())
        if not context:
            return line
        head, newline, trace = line.partition("\n")
        return f"{head} [{context}]{newline}{trace}"


class JsonFormatter(logging.Formatter):
    """Format a log record as a single line of JSON."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "timestamp": datetime.fromtimestamp(record.created, tz=UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update(_context(record))
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, default=str, ensure_ascii=False)
