"""`Authorization: Token <key>` with per-client tokens (`accounts.ClientToken`) that expire after
TOKEN_LIFETIME_DAYS and are revoked one by one by signing out."""

from typing import Any

from django.conf import settings
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.request import Request

from accounts import services


class TokenExpired(exceptions.AuthenticationFailed):
    default_detail = "This token has expired: sign in again at /api/v1/auth/token for a new one."
    default_code = "token_expired"


class ExpiringTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        token = services.authenticate_token(key=key)
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed("Invalid token.")
        if services.token_expired(token=token):
            raise TokenExpired()
        return token.user, token


class StaffSessionAuthentication(SessionAuthentication):
    """The admin's session, for staff only: a staff member signed in to /admin/ reads and tries
    the API in the browsable API, with Django's CSRF check on every unsafe request. Anyone
    else's session is ignored (the API is token-only for players)."""

    def authenticate(self, request: Request) -> tuple[Any, None] | None:
        user = getattr(request._request, "user", None)
        if user is None or not user.is_active or not user.is_staff:
            return None
        self.enforce_csrf(request)
        return user, None


class StaffSessionScheme(OpenApiAuthenticationExtension):
    """The staff's session in the OpenAPI schema: the admin's session cookie (with the CSRF
    token in ``X-CSRFToken`` on a write), for staff only."""

    target_class = StaffSessionAuthentication
    name = "staffSession"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "cookie",
            "name": settings.SESSION_COOKIE_NAME,
            "description": "Staff only: the session of a staff member signed in to /admin/ "
            "(the browsable API); writes carry the CSRF token in X-CSRFToken.",
        }
