"""The ASGI application, served by gunicorn's uvicorn workers (deploy/gunicorn.conf.py): event
streams and long-polls wait on the event loop; every other view runs in a thread of its own.
The commands in flight are counted (moon/inflight.py): the streams' reads wait for them."""

import os

from django.core.asgi import get_asgi_application

from moon import inflight, inline
from moon.polls import HealthPolls

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "moon.settings")
# Under ASGI each request's sync code runs in a thread of its own, which ends with the request:
# a connection kept for the next request would be stranded with it. PostgreSQL connections are
# pooled instead (settings.py); SQLite's cost next to nothing to open.
os.environ.setdefault("CONN_MAX_AGE", "0")

django_application = get_asgi_application()
# Django's middlewares run their steps on the event loop, each without a thread hop.
inline.install()
# Health polls are answered before Django when it answered the same a moment ago (moon/polls.py).
application = HealthPolls(inflight.counted(django_application))
