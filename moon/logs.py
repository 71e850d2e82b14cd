"""Structured logs: one JSON object per line, for the web processes and the Celery workers alike.

Every line has `timestamp` (UTC, ISO 8601), `level`, `logger` and `message`. Context passed with
`extra=` is added when present: `game_id` and `seq` (the last event appended) above all, and a
few others the services and tasks set. An exception adds `exception` (the formatted traceback).

    logger.info("events appended", extra={"game_id": game.pk, "seq": 42})
"""

import json
import logging
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
        for field in CONTEXT_FIELDS:
            value = getattr(record, field, None)
            if value is not None:
                line[field] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, default=str, ensure_ascii=False)
