"""The ASGI application, served by gunicorn's uvicorn workers (deploy/gunicorn.conf.py): event
streams and long-polls wait on the event loop; every other view runs in a thread, one request at
a time on it.
The commands in flight are counted (moon/inflight.py): the streams' reads wait for them."""

import os

from django.core.asgi import get_asgi_application

from moon import inflight, inline, request_cycles, request_threads
from moon.polls import HealthPolls

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "moon.settings")
# A request gives its database connection back at its end rather than keeping it with its thread
# (the threads outnumber the connections a process needs): PostgreSQL's go back to the process's
# pool (settings.py); SQLite's cost next to nothing to open.
os.environ.setdefault("CONN_MAX_AGE", "0")

django_application = get_asgi_application()
# Django's middlewares run their steps on the event loop, each without a thread hop.
inline.install()
# Health polls are answered before Django when it answered the same a moment ago (moon/polls.py);
# a request's sync code runs in a thread kept from an earlier request (moon/request_threads.py).
# A request's objects are freed as its answer is sent, not by the garbage collector
# (moon/request_cycles.py).
application = HealthPolls(
    inflight.counted(request_threads.leased(request_cycles.settled(django_application)))
)
