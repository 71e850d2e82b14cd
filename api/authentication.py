"""`Authorization: Token <key>` with per-client tokens (`accounts.ClientToken`) that expire after
TOKEN_LIFETIME_DAYS and are revoked one by one by signing out."""

from typing import Any

from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from accounts import services


class TokenExpired(exceptions.AuthenticationFailed):
    default_detail = "This token has expired: sign in again at /api/v1/auth/token for a new one."
    default_code = "token_expired"


class TicketRefused(exceptions.AuthenticationFailed):
    """A stream ticket (``?ticket=``) that opens nothing."""

    default_detail = (
        "This stream ticket is unknown, used, expired or for another stream: "
        "POST .../stream-ticket for a new one."
    )
    default_code = "invalid_ticket"


class ExpiringTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        token = services.authenticate_token(key=key)
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed("Invalid token.")
        if services.token_expired(token=token):
            raise TokenExpired()
        return token.user, token
