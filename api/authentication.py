"""`Authorization: Token <key>`, with tokens that expire (TOKEN_LIFETIME_DAYS) and can be revoked
by signing out."""

from typing import Any

from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from games import services


class TokenExpired(exceptions.AuthenticationFailed):
    default_detail = "This token has expired: sign in again at /api/v1/auth/token for a new one."
    default_code = "token_expired"


class ExpiringTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        user, token = super().authenticate_credentials(key)
        if services.token_expired(token=token):
            raise TokenExpired()
        return user, token
