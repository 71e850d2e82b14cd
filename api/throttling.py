"""API throttling: anonymous clients by address, signed-in ones by user.

The rates come from REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] (env THROTTLE_ANON, THROTTLE_USER),
read on every request rather than once at import as DRF's own classes do, so that a changed
setting (the tests turn throttling off) takes effect. A rate of None turns the throttle off.
"""

from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle


def _rate(scope: str | None) -> str | None:
    rate = api_settings.DEFAULT_THROTTLE_RATES.get(scope or "")
    return rate if isinstance(rate, str) and rate else None


class AnonThrottle(AnonRateThrottle):
    def get_rate(self) -> str | None:
        return _rate(self.scope)


class UserThrottle(UserRateThrottle):
    def get_rate(self) -> str | None:
        return _rate(self.scope)
