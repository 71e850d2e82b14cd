"""The web process's worker class for gunicorn (deploy/gunicorn.conf.py): uvicorn serving the
ASGI application, with the project's logs and a bounded shutdown."""

import json
import logging
import os
from typing import Any

from uvicorn_worker import UvicornWorker

from moon.logs import log_format

# Open streams do not end by themselves: on shutdown they are closed after this many seconds
# (their clients reconnect with Last-Event-ID, to another process).
GRACEFUL_SECONDS = int(os.environ.get("WEB_GRACEFUL_SECONDS") or 5)


class AccessAsJson(logging.Filter):
    """uvicorn's access line as a JSON object, as gunicorn's own (deploy/gunicorn.conf.py)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and len(record.args) == 5:
            remote, method, path, _, status = record.args
            record.msg = json.dumps(
                {
                    "logger": "uvicorn.access",
                    "remote": remote,
                    "method": method,
                    "path": path,
                    "status": status,
                }
            )
            record.args = ()
        return True


class Worker(UvicornWorker):
    """``UvicornWorker`` whose access lines are JSON objects and whose shutdown waits for open
    streams GRACEFUL_SECONDS at most."""

    CONFIG_KWARGS: dict[str, Any] = {
        **UvicornWorker.CONFIG_KWARGS,
        "timeout_graceful_shutdown": GRACEFUL_SECONDS,
        # deploy/gunicorn.conf.py: WEB_ACCESS_LOG=false writes no access line
        "access_log": os.environ.get("WEB_ACCESS_LOG", "true").lower() != "false",
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if log_format() == "json":  # the embedded mode's text lines stay as uvicorn writes them
            logging.getLogger("uvicorn.access").addFilter(AccessAsJson())
