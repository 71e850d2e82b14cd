"""API throttling: anonymous clients by address, signed-in ones by user.

The rates come from REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] (env THROTTLE_ANON, THROTTLE_USER),
read on every request rather than once at import as DRF's own classes do, so that a changed
setting (the tests turn throttling off) takes effect. A rate of None turns the throttle off.

The counters live in the cache (Redis in production). When the cache cannot be reached the
throttles fail open, logged: an API that cannot count requests still serves them, rather than
answering every request 500.
"""

import logging
from typing import Any

from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

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
