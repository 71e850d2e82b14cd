"""Django's own middlewares, run on the event loop under ASGI.

Under ASGI Django's middlewares (``MiddlewareMixin``) run each ``process_request`` and
``process_response`` in a thread, a hop from the event loop and back for each: a dozen per
request, whatever the view. These only read the request and set headers, cookies and the
language, with no I/O, so ``install()`` (moon/asgi.py) has them run inline. The session's,
which writes the session when it changed (the admin's sign-in), hops to a thread for that write
only. MIDDLEWARE keeps naming Django's classes (the deploy checks look for those names); under
WSGI (and in the tests' client) nothing changes: the same methods run in the request's thread.
"""

from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import HttpRequest
from django.utils.module_loading import import_string

# Whose steps run inline: each reads the request and sets headers, cookies or the language
# (the user is read lazily, by the view, in its thread).
INLINE = (
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
)
SESSION = "django.contrib.sessions.middleware.SessionMiddleware"


async def _inline(self: Any, request: HttpRequest) -> Any:
    """``MiddlewareMixin.__acall__`` with no thread hop."""
    response = None
    if hasattr(self, "process_request"):
        response = self.process_request(request)
    response = response or await self.get_response(request)
    if hasattr(self, "process_response"):
        response = self.process_response(request, response)
    return response


async def _session(self: Any, request: HttpRequest) -> Any:
    """The session's steps inline, but its write in a thread (a database write)."""
    self.process_request(request)
    response = await self.get_response(request)
    session = request.session
    if session.modified or settings.SESSION_SAVE_EVERY_REQUEST:
        return await sync_to_async(self.process_response, thread_sensitive=True)(request, response)
    return self.process_response(request, response)


def install() -> None:
    """Run Django's middlewares' steps on the event loop under ASGI, from now on (once Django
    is set up: the authentication's middleware imports its models)."""
    for path in INLINE:
        setattr(import_string(path), "__acall__", _inline)  # noqa: B010 (Django's method, replaced)
    setattr(import_string(SESSION), "__acall__", _session)  # noqa: B010
