"""gunicorn settings for the web process; every value can be overridden by the environment.

    gunicorn --config deploy/gunicorn.conf.py moon.asgi:application

Each process is a uvicorn worker serving the ASGI application: event streams and long-polls are
async views on its event loop, holding no thread while they wait, and the other (sync) views
run each in a thread of their own. ``WEB_WORKER_CLASS=sync`` with ``moon.wsgi:application``
serves everything but streams the old way (``WEB_THREADS`` threads per process).
"""

import os

bind = f"{os.environ.get('BIND_HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = os.environ.get("WEB_WORKER_CLASS", "moon.web.Worker")
threads = int(os.environ.get("WEB_THREADS", "4"))
timeout = int(os.environ.get("WEB_TIMEOUT", "30"))
# gunicorn answers a longer request line itself, with an HTML 400, before the API sees it; the
# contract run (tests/contract/run.py) sets 0 (no limit) so that the API's own answer is checked.
limit_request_line = int(os.environ.get("WEB_LIMIT_REQUEST_LINE", "4094"))
accesslog = "-"
errorlog = "-"
# The access line is itself a JSON object, written as it is ("raw" below).
access_log_format = (
    '{"logger": "gunicorn.access", "remote": "%(h)s", "method": "%(m)s", "path": "%(U)s", '
    '"status": %(s)s, "bytes": "%(B)s", "duration_us": %(D)s}'
)
# gunicorn's own messages in the application's format: one JSON object per line (moon/logs.py).
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {"()": "moon.logs.JsonFormatter"},
        "raw": {"format": "%(message)s"},
    },
    "handlers": {
        "error_console": {
            "class": "logging.StreamHandler",
            "formatter": "json",
            "stream": "ext://sys.stderr",
        },
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "raw",
            "stream": "ext://sys.stdout",
        },
    },
    "loggers": {
        "gunicorn.error": {"level": "INFO", "handlers": ["error_console"], "propagate": False},
        "gunicorn.access": {"level": "INFO", "handlers": ["console"], "propagate": False},
    },
}
