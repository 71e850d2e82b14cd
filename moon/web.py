"""The web process's worker class for gunicorn (deploy/gunicorn.conf.py): uvicorn serving the
ASGI application on uvloop with httptools' parser, with the project's logs, a bound on a
request's head and a bounded shutdown."""

import gc
import json
import logging
import os
import sys
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn_worker import UvicornWorker

from moon.logs import log_format

# Open streams do not end by themselves: on shutdown they are closed after this many seconds
# (their clients reconnect with Last-Event-ID, to another process).
GRACEFUL_SECONDS = int(os.environ.get("WEB_GRACEFUL_SECONDS") or 5)
# The garbage collector's thresholds in a web process (gc.set_threshold): a full pass walks
# every object of the process, open streams' included, and pauses every request meanwhile.
# The first figure is the default's ten times: young passes a tenth as often, and so the full
# ones (bench/streams.py).
GC_THRESHOLD = os.environ.get("WEB_GC_THRESHOLD") or "7000,10,10"
# How long a thread keeps the interpreter before one waiting for it takes it, in seconds
# (sys.setswitchinterval; Python's default is 0.005). The event loop, which answers the health
# check and feeds the streams, waits up to this long each time it needs the interpreter back
# from the threads running sync views: a fifth of the default keeps a health poll under load
# within a few milliseconds of its own work (bench/load.py).
SWITCH_INTERVAL = float(os.environ.get("WEB_SWITCH_INTERVAL") or 0.001)


def share_interpreter() -> None:
    """Set the interval of WEB_SWITCH_INTERVAL in this web process."""
    sys.setswitchinterval(SWITCH_INTERVAL)


def settle_memory() -> None:
    """Once a web process has loaded the application: import what its first request would
    (the URLconf and the views), then move every object made so far out of the collector's
    reach (``gc.freeze``: they live as long as the process) so its passes walk only what
    requests and streams make; and set the thresholds of WEB_GC_THRESHOLD."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 (imported now rather than by the first request)
    gc.collect()
    gc.freeze()
    gc.set_threshold(*(int(each) for each in GC_THRESHOLD.split(",")))


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


# The most a request's head (its line and headers) may hold, in bytes: what uvicorn's h11
# protocol took, which served before httptools did. A 4,301-digit id or a 9,000-character
# header still reaches the API.
HEAD_LIMIT = 16 * 1024


class HeadTooLarge(Exception):
    """A request's head past HEAD_LIMIT."""


class BoundedHead(HttpToolsProtocol):
    """uvicorn's protocol on httptools' parser (with uvloop, the web process's CPU per command
    of bench/streams.py fell about 5 %, and what feeding streams adds to it by half), which
    takes a head of any length: this one stops parsing past HEAD_LIMIT bytes. The parser
    reports the callback's error, and uvicorn answers 400 and closes the connection, as it did
    for a head h11 refused."""

    head = 0

    def on_message_begin(self) -> None:
        self.head = 0
        super().on_message_begin()

    def on_url(self, url: bytes) -> None:
        self._count(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count(len(name) + len(value) + 4)  # ": " and the line's end
        super().on_header(name, value)

    def _count(self, size: int) -> None:
        self.head += size
        if self.head > HEAD_LIMIT:
            raise HeadTooLarge(f"a request head past {HEAD_LIMIT} bytes")


class Worker(UvicornWorker):
    """``UvicornWorker`` on uvloop and httptools (``BoundedHead``), whose access lines are JSON
    objects and whose shutdown waits for open streams GRACEFUL_SECONDS at most."""

    CONFIG_KWARGS: dict[str, Any] = {
        **UvicornWorker.CONFIG_KWARGS,
        "loop": "uvloop",
        "http": BoundedHead,
        "timeout_graceful_shutdown": GRACEFUL_SECONDS,
        # deploy/gunicorn.conf.py: WEB_ACCESS_LOG=false writes no access line
        "access_log": os.environ.get("WEB_ACCESS_LOG", "true").lower() != "false",
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if log_format() == "json":  # the embedded mode's text lines stay as uvicorn writes them
            logging.getLogger("uvicorn.access").addFilter(AccessAsJson())
