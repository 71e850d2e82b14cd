"""gunicorn settings for the web process; every value can be overridden by the environment."""

import os

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("WEB_THREADS", "4"))
timeout = int(os.environ.get("WEB_TIMEOUT", "30"))
accesslog = "-"
errorlog = "-"
# One JSON object per line, like the application's own logs.
access_log_format = (
    '{"logger": "gunicorn.access", "remote": "%(h)s", "method": "%(m)s", "path": "%(U)s", '
    '"status": %(s)s, "bytes": "%(B)s", "duration_us": %(D)s}'
)
