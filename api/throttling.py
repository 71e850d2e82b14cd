"""API throttling: anonymous clients by address, signed-in ones by user; and the admin's login
form by address (AdminLoginThrottleMiddleware).

The rates come from REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] (env THROTTLE_ANON, THROTTLE_USER,
THROTTLE_ADMIN_LOGIN),
read on every request rather than once at import as DRF's own classes do, so that a changed
setting (the tests turn throttling off) takes effect. A rate of None turns the throttle off.

The counters live in the cache (Redis in production). When the cache cannot be reached the
throttles fail open, logged: an API that cannot count requests still serves them, rather than
answering every request 500.
"""

import functools
import logging
import math
from collections.abc import Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase, JsonResponse
from django.urls import get_urlconf, reverse
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

from moon import both_ways

logger = logging.getLogger(__name__)


def _rate(scope: str | None) -> str | None:
    rate = api_settings.DEFAULT_THROTTLE_RATES.get(scope or "")
    return rate if isinstance(rate, str) and rate else None


class FailOpen(SimpleRateThrottle):
    """A throttle that lets a request through when its counters cannot be read or written."""

    def get_rate(self) -> str | None:
        return _rate(self.scope)

    def allow_request(self, request: Request, view: Any) -> bool:
        try:
            return super().allow_request(request, view)
        except Exception:  # whatever the cache backend raises when it is down
            logger.warning("throttle counters unavailable: request let through", exc_info=True)
            return True


class AnonThrottle(FailOpen, AnonRateThrottle):
    pass


class UserThrottle(FailOpen, UserRateThrottle):
    pass


class AdminLoginThrottle(FailOpen):
    """Sign-in attempts at the admin's login page, by client address: the rate THROTTLE_ADMIN_LOGIN
    (scope ``admin_login``) counts every POST to it, so that passwords cannot be guessed there
    at the speed of the network."""

    scope = "admin_login"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class AdminLoginThrottleMiddleware:
    """Throttles the admin's login form (the admin is Django's, outside the API's views):
    past the rate, an attempt is answered 429 ``throttled`` with ``Retry-After`` and the
    password is not checked. Sync and async alike, so that under ASGI an async view (the
    health check) is reached on the event loop, with no thread."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.asynchronous = both_ways.serves_async(self, get_response)

    def __call__(self, request: HttpRequest) -> Any:
        if self.asynchronous:
            return self._acall(request)
        return self._refusal(request) or self.get_response(request)

    async def _acall(self, request: HttpRequest) -> HttpResponseBase:
        if _is_admin_login(request):
            refusal = await sync_to_async(self._refusal)(request)
            if refusal is not None:
                return refusal
        response: HttpResponseBase = await self.get_response(request)
        return response

    @staticmethod
    def _refusal(request: HttpRequest) -> HttpResponseBase | None:
        if _is_admin_login(request):
            throttle = AdminLoginThrottle()
            # the API's throttle reads the client's address as for any API request
            if not throttle.allow_request(Request(request), None):
                wait = max(1, math.ceil(throttle.wait() or 1))
                return JsonResponse(
                    {
                        "code": "throttled",
                        "detail": f"Too many sign-in attempts from this address: try again in {wait} s.",
                    },
                    status=429,
                    headers={"Retry-After": str(wait)},
                )
        return None


def _is_admin_login(request: HttpRequest) -> bool:
    if request.method != "POST":
        return False
    return request.path_info == _admin_login(get_urlconf() or settings.ROOT_URLCONF)


@functools.lru_cache(maxsize=8)
def _admin_login(urlconf: Any) -> str:
    """The admin's login path under ``urlconf`` (reversed once: every POST asks)."""
    return reverse("admin:login", urlconf=urlconf)
