"""gunicorn settings for the web process; every value can be overridden by the environment.

    gunicorn --config deploy/gunicorn.conf.py moon.asgi:application

Each process is a uvicorn worker serving the ASGI application: event streams and long-polls are
async views on its event loop, holding no thread while they wait, and the other (sync) views
run each in a thread of their own. ``WEB_WORKER_CLASS=sync`` with ``moon.wsgi:application``
serves everything but streams the old way (``WEB_THREADS`` threads per process).
"""

import os

from moon.logs import log_format

bind = f"{os.environ.get('BIND_HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = os.environ.get("WEB_WORKER_CLASS", "moon.web.Worker")
threads = int(os.environ.get("WEB_THREADS", "4"))
timeout = int(os.environ.get("WEB_TIMEOUT", "30"))
# gunicorn answers a request past these limits itself, in HTML (400 for the request line, 431
# for a header line), before the API sees it. They are set high enough for anything the API
# takes to reach it, and to answer in JSON: a path holding any id the schema allows, or far
# longer (a 4,301-digit id is the API's 404), and a header line of up to 16 KiB. 8190 is the
# most gunicorn allows for a request line short of 0 (no limit, which the contract run sets so
# that the API's own answer to any generated query string is checked).
limit_request_line = int(os.environ.get("WEB_LIMIT_REQUEST_LINE", "8190"))
limit_request_field_size = int(os.environ.get("WEB_LIMIT_REQUEST_FIELD_SIZE", "16384"))
accesslog = "-"
errorlog = "-"
# WEB_ACCESS_LOG=false: no access line at all (the benches; a proxy in front may log instead).
# gunicorn logs access lines whenever a logging config is given, so the logger itself is muted.
ACCESS_LOG = os.environ.get("WEB_ACCESS_LOG", "true").lower() != "false"
# Lines in the application's format (moon/logs.py): JSON in production, text in the embedded mode.
LOG_FORMAT = log_format()
# In JSON, the access line is itself a JSON object, written as it is ("raw" below).
access_log_format = (
    '{"logger": "gunicorn.access", "remote": "%(h)s", "method": "%(m)s", "path": "%(U)s", '
    '"status": %(s)s, "bytes": "%(B)s", "duration_us": %(D)s}'
    if LOG_FORMAT == "json"
    else '%(t)s %(h)s "%(r)s" %(s)s %(B)s bytes %(M)sms'
)
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {"()": "moon.logs.JsonFormatter"},
        "text": {"()": "moon.logs.TextFormatter"},
        "raw": {"format": "%(message)s"},
    },
    "handlers": {
        "error_console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
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
        "gunicorn.access": {
            "level": "INFO" if ACCESS_LOG else "WARNING",
            "handlers": ["console"],
            "propagate": False,
        },
    },
}


def post_worker_init(worker: object) -> None:
    """With no broker (the embedded mode) no Celery worker sweeps the outbox: the web process
    does, so that follow-ups due later (turn deadlines) are sent. Then what the process loaded
    is left out of the garbage collector's passes (moon.web.settle_memory, WEB_GC_THRESHOLD), and
    the threads hand the interpreter over sooner (moon.web.share_interpreter, WEB_SWITCH_INTERVAL);
    log records skip what no line shows (moon.logs.lean_records)."""
    from eventstore import sweeper
    from moon import logs, web

    sweeper.start_in_web_process()
    web.settle_memory()
    web.share_interpreter()
    logs.lean_records()
