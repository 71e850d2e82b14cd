"""Django's own middlewares, run on the event loop under ASGI.

Under ASGI Django's middlewares (``MiddlewareMixin``) run each ``process_request`` and
``process_response`` in a thread, a hop from the event loop and back for each: a dozen per
request, whatever the view. These only read the request and set headers, cookies and the
language, with no I/O, so here they run inline, and the CSRF check before the view too. The
session's, which writes the session when it changed (the admin's sign-in), hops to a thread
for that write only. Under WSGI (and in the
tests' client) nothing changes: the same methods run in the request's thread.
"""

from typing import Any

from asgiref.sync import iscoroutinefunction, sync_to_async
from django.conf import settings
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.sessions.middleware import SessionMiddleware
from django.http import HttpRequest
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.common import CommonMiddleware
from django.middleware.csrf import CsrfViewMiddleware
from django.middleware.locale import LocaleMiddleware
from django.middleware.security import SecurityMiddleware


class Inline:
    """A ``MiddlewareMixin`` whose request and response steps run on the event loop."""

    get_response: Any

    async def __acall__(self, request: HttpRequest) -> Any:
        response = None
        if hasattr(self, "process_request"):
            response = self.process_request(request)
        response = response or await self.get_response(request)
        if hasattr(self, "process_response"):
            response = self.process_response(request, response)
        return response


class Security(Inline, SecurityMiddleware):
    pass


class Locale(Inline, LocaleMiddleware):
    pass


class Common(Inline, CommonMiddleware):
    pass


class Csrf(Inline, CsrfViewMiddleware):
    def __init__(self, get_response: Any) -> None:
        super().__init__(get_response)
        if iscoroutinefunction(get_response):
            # Django calls a coroutine ``process_view`` on the event loop, a sync one in a thread
            check = self.process_view

            async def process_view(request: HttpRequest, view: Any, args: Any, kwargs: Any) -> Any:
                return check(request, view, args, kwargs)

            setattr(self, "process_view", process_view)  # noqa: B010 (a method of this instance only)


class Authentication(Inline, AuthenticationMiddleware):
    # the user is read lazily, by the view, in its thread
    pass


class XFrameOptions(Inline, XFrameOptionsMiddleware):
    pass


class Session(SessionMiddleware):
    async def __acall__(self, request: HttpRequest) -> Any:
        self.process_request(request)
        response = await self.get_response(request)  # type: ignore[misc]
        session = request.session
        if session.modified or settings.SESSION_SAVE_EVERY_REQUEST:
            # the session is written: a database write, in a thread
            return await sync_to_async(self.process_response, thread_sensitive=True)(request, response)
        return self.process_response(request, response)
