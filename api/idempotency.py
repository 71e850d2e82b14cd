"""`Idempotency-Key` for POSTs: a retry gets the first answer and changes nothing.

The record of the answer is written in the same transaction as the command's events, so either
both exist or neither does. Refused requests store nothing: they changed nothing, and a retry is
judged afresh.

A retry that races its original (sent before the first answer came back) waits for the original
to finish and then gets its answer, like any later retry. Should the record still be unfinished
when the retry looks (it cannot be, once its insert has waited for the original's commit), the
retry is refused with 409 `concurrent_command` and appends nothing.
"""

import functools
import hashlib
import json
from collections.abc import Callable
from typing import Any, TypeVar

from django.db import IntegrityError, transaction
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from api.errors import Unprocessable
from games.errors import Conflict, Invalid
from games.models import IdempotencyRecord

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 255

Handler = TypeVar("Handler", bound=Callable[..., Response])


def idempotent(handler: Handler) -> Handler:
    """Decorate an APIView's `post` so that a repeated Idempotency-Key replays the first answer."""

    @functools.wraps(handler)
    def wrapper(view: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request.headers.get(HEADER)
        if key is None or not request.user.is_authenticated:
            return handler(view, request, *args, **kwargs)
        key = key.strip()
        if not key or len(key) > MAX_KEY_LENGTH:
            raise Invalid(
                "invalid_idempotency_key",
                f"{HEADER} must be 1 to {MAX_KEY_LENGTH} characters long.",
            )
        with transaction.atomic():
            body_hash = _body_hash(request)
            record = IdempotencyRecord.objects.filter(user_id=request.user.pk, key=key).first()
            if record is not None:
                return _replayed(record, request, body_hash)
            # Claim the key before running the command. A request racing with the same key
            # blocks on this insert (PostgreSQL: the unique index; SQLite: the write lock) until
            # the first one commits, then finds its record and replays its answer.
            try:
                with transaction.atomic():
                    record = IdempotencyRecord.objects.create(
                        user_id=request.user.pk,
                        key=key,
                        method=request.method or "POST",
                        path=request.path,
                        body_hash=body_hash,
                        status_code=0,
                        response=None,
                    )
            except IntegrityError:
                claimed = IdempotencyRecord.objects.filter(user_id=request.user.pk, key=key).first()
                if claimed is None or not claimed.status_code:
                    raise Conflict(
                        "concurrent_command", f"Another request with this {HEADER} is in progress."
                    ) from None
                return _replayed(claimed, request, body_hash)
            response = handler(view, request, *args, **kwargs)
            if 200 <= response.status_code < 300:
                record.status_code = response.status_code
                record.response = json.loads(json.dumps(response.data, cls=JSONEncoder))
                record.save(update_fields=["status_code", "response"])
            else:
                record.delete()
            return response

    return wrapper  # type: ignore[return-value]


def _body_hash(request: Request) -> str:
    """sha256 of the body's JSON, canonical: the same request sent again hashes the same."""
    canonical = json.dumps(request.data, sort_keys=True, separators=(",", ":"), cls=JSONEncoder)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _replayed(record: IdempotencyRecord, request: Request, body_hash: str) -> Response:
    if record.method != request.method or record.path != request.path:
        raise Unprocessable(
            "idempotency_key_reused",
            f"This {HEADER} was already used for {record.method} {record.path}.",
        )
    if record.body_hash and record.body_hash != body_hash:
        raise Unprocessable(
            "idempotency_key_reused",
            f"This {HEADER} was already used for {record.method} {record.path} with another body.",
        )
    return Response(
        record.response, status=record.status_code, headers={"Idempotent-Replayed": "true"}
    )
