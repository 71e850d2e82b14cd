"""gunicorn settings for the web process; every value can be overridden by the environment.

    gunicorn --config deploy/gunicorn.conf.py moon.wsgi:application
"""

import os

from moon.logs import log_format

bind = f"{os.environ.get('BIND_HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("WEB_THREADS", "4"))
timeout = int(os.environ.get("WEB_TIMEOUT", "30"))
# gunicorn answers a longer request line itself, with an HTML 400, before the API sees it; the
# contract run (tests/contract/run.py) sets 0 (no limit) so that the API's own answer is checked.
limit_request_line = int(os.environ.get("WEB_LIMIT_REQUEST_LINE", "4094"))
accesslog = "-"
errorlog = "-"
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
        "gunicorn.access": {"level": "INFO", "handlers": ["console"], "propagate": False},
    },
}
