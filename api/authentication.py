"""`Authorization: Token <key>` (or `Bearer <key>`, what generated clients send) with
per-client tokens (`accounts.ClientToken`) that expire after TOKEN_LIFETIME_DAYS and are revoked
one by one by signing out."""

from typing import Any

from django.conf import settings
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import HTTP_HEADER_ENCODING, exceptions
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.request import Request

from accounts import services

# The schemes `Authorization` may name, the first one the one `WWW-Authenticate` offers.
SCHEMES = ("Token", "Bearer")
KNOWN = frozenset(scheme.lower() for scheme in SCHEMES)


class TokenExpired(exceptions.AuthenticationFailed):
    default_detail = gettext_lazy(
        "This token has expired: sign in again at /api/v1/auth/token for a new one."
    )
    default_code = "token_expired"


class TicketRefused(exceptions.AuthenticationFailed):
    """A stream ticket (``?ticket=``) that opens nothing."""

    default_detail = gettext_lazy(
        "This stream ticket is unknown, used, expired or for another stream: "
        "POST .../stream-ticket for a new one."
    )
    default_code = "invalid_ticket"


class ExpiringTokenAuthentication(TokenAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        # DRF's get_authorization_header, read from the Django request's META: DRF's request
        # reaches an attribute of the request it wraps only once its own lookup has failed
        sent = request._request.META.get("HTTP_AUTHORIZATION", b"")
        header = (sent.encode(HTTP_HEADER_ENCODING) if isinstance(sent, str) else sent).split()
        if not header:
            return None
        scheme = header[0].decode("latin-1")
        if scheme.lower() not in KNOWN:
            raise exceptions.AuthenticationFailed(
                gettext(
                    "The Authorization header names the scheme %(scheme)s; send `Token <token>` or "
                    "`Bearer <token>`."
                )
                % {"scheme": scheme[:20]}
            )
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(
                gettext(
                    "The Authorization header is a scheme and a token: `Token <token>` or "
                    "`Bearer <token>`."
                )
            )
        try:
            key = header[1].decode()
        except UnicodeError as exc:
            raise exceptions.AuthenticationFailed(gettext("A token is written in plain characters.")) from exc
        return self.authenticate_credentials(key)

    def authenticate_header(self, request: Request) -> str:
        return ", ".join(f'{scheme} realm="api"' for scheme in SCHEMES)

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        token = services.authenticate_token(key=key)
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed(gettext("Invalid token."))
        if services.token_expired(token=token):
            raise TokenExpired()
        return token.user, token


class BearerScheme(OpenApiAuthenticationExtension):
    """The schema's security scheme: HTTP bearer, so that generated clients send
    `Authorization: Bearer <token>` (`Token <token>` is accepted as well)."""

    target_class = "api.authentication.ExpiringTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "The token of /auth/register or /auth/token, as `Bearer <token>` "
            "(or `Token <token>`).",
        }


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
