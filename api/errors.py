"""Every error leaves the API as JSON `{code, detail}` (validation errors add `errors`)."""

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response

from api.authentication import TicketRefused, TokenExpired
from eventstore.errors import Conflict, Forbidden, GameError, Invalid, NotFound, Unprocessable

logger = logging.getLogger(__name__)

# A database that cannot be reached, or a transaction it gave up on (a deadlock, a lost
# connection): its transaction rolled back, and the same request may well succeed again.
DatabaseUnavailable = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 5

REFUSAL_STATUS: dict[type[GameError], int] = {
    Invalid: status.HTTP_400_BAD_REQUEST,
    Forbidden: status.HTTP_403_FORBIDDEN,
    NotFound: status.HTTP_404_NOT_FOUND,
    Conflict: status.HTTP_409_CONFLICT,
    Unprocessable: status.HTTP_422_UNPROCESSABLE_ENTITY,
}

API_ERROR_CODES: list[tuple[type[exceptions.APIException], str]] = [
    (exceptions.NotAuthenticated, "not_authenticated"),
    (TokenExpired, "token_expired"),
    (TicketRefused, "invalid_ticket"),
    (exceptions.AuthenticationFailed, "authentication_failed"),
    (exceptions.PermissionDenied, "permission_denied"),
    (exceptions.NotFound, "not_found"),
    (exceptions.MethodNotAllowed, "method_not_allowed"),
    (exceptions.NotAcceptable, "not_acceptable"),
    (exceptions.UnsupportedMediaType, "unsupported_media_type"),
    (exceptions.Throttled, "throttled"),
    (exceptions.ParseError, "malformed_request"),
    (exceptions.ValidationError, "invalid_request"),
]


def error_body(code: str, detail: str, **extra: Any) -> dict[str, Any]:
    return {"code": code, "detail": detail, **extra}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    """DRF's EXCEPTION_HANDLER: map our refusals and DRF's own errors to `{code, detail}`."""
    if isinstance(exc, GameError):
        http_status = next(
            (code for cls, code in REFUSAL_STATUS.items() if isinstance(exc, cls)),
            status.HTTP_400_BAD_REQUEST,
        )
        return Response(error_body(exc.code, exc.detail), status=http_status)

    if isinstance(exc, DatabaseUnavailable):
        logger.warning("database unavailable in %s", context.get("view"), exc_info=exc)
        return Response(
            error_body("database_unavailable", "The database cannot be reached just now; try again shortly."),
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        )

    if isinstance(exc, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        return Response(
            error_body("payload_too_large", f"The body is larger than {limit} bytes."),
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )

    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()

    if isinstance(exc, exceptions.APIException):
        headers = {}
        if getattr(exc, "auth_header", None):
            headers["WWW-Authenticate"] = exc.auth_header  # type: ignore[attr-defined]
        if getattr(exc, "wait", None):
            headers["Retry-After"] = str(int(exc.wait))  # type: ignore[attr-defined]
        if isinstance(exc, exceptions.ValidationError):
            body = error_body(
                "invalid_request", _validation_sentence(exc.detail), errors=exc.detail
            )
        else:
            code = next(
                (name for cls, name in API_ERROR_CODES if isinstance(exc, cls)),
                str(exc.default_code),
            )
            body = error_body(code, str(exc.detail))
        return Response(body, status=exc.status_code, headers=headers)

    logger.exception("Unhandled error in %s", context.get("view"), exc_info=exc)
    return Response(
        error_body("internal_error", "Something went wrong on our side."),
        status=status.HTTP_500_INTERNAL_SERVER_ERROR,
    )


def _validation_sentence(detail: Any) -> str:
    """The first message of a validation error, prefixed by its field."""
    if isinstance(detail, dict):
        for field, messages in detail.items():
            first = _validation_sentence(messages)
            return first if field == "non_field_errors" else f"{field}: {first}"
    if isinstance(detail, list) and detail:
        return _validation_sentence(detail[0])
    return str(detail) or "The request is not valid."


def not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    """Django's handler404 and the API's catch-all route: JSON even outside DRF views."""
    return JsonResponse(error_body("not_found", "There is nothing at this address."), status=404)


def server_error(request: HttpRequest) -> JsonResponse:
    return JsonResponse(
        error_body("internal_error", "Something went wrong on our side."), status=500
    )
