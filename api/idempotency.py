"""`Idempotency-Key` for POSTs, as HTTP carries it: the header read into the command's key, and
the command's answer sent back (``Idempotent-Replayed: true`` on the first answer given again).
The command path itself (one transaction, the key claimed in it, the answer built once it has
committed and kept for retries) is eventstore/commands.py."""

import hashlib
import json
from collections.abc import Callable
from typing import Any, TypeVar

from rest_framework import status as http
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from eventstore import commands

HEADER = "Idempotency-Key"
META_KEY = "HTTP_" + HEADER.upper().replace("-", "_")
MAX_KEY_LENGTH = commands.MAX_KEY_LENGTH

R = TypeVar("R")


def answered(
    request: Request,
    command: Callable[[], R],
    answer: Callable[[R], Any],
    *,
    status: int = http.HTTP_200_OK,
    body: bool = True,
) -> Response:
    """Run ``command`` through the command path with the request's key, and send its answer.
    ``body`` False: the operation takes no body, and none is read (nor refused) for the key."""
    outcome = commands.run(key=key_of(request, body=body), command=command, answer=answer, status=status)
    headers = {"Idempotent-Replayed": "true"} if outcome.replayed else None
    return Response(outcome.data, status=outcome.status, headers=headers)


def key_of(request: Request, *, body: bool = True) -> commands.Key | None:
    """The request's Idempotency-Key, with whose it is and the body it came with (an operation
    that takes no body: the empty body's hash, whatever was sent)."""
    # the header as ``request.headers`` names it, read without building every header's name
    key = request._request.META.get(META_KEY)
    if key is None or not request.user.is_authenticated:
        return None
    return commands.Key(
        user_id=request.user.pk,
        key=key.strip(),
        method=request.method or "POST",
        path=request.path,
        body_hash=_body_hash(request.data if body else {}),
    )


def _body_hash(data: Any) -> str:
    """sha256 of the body's JSON, canonical: the same request sent again hashes the same."""
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), cls=JSONEncoder)
    return hashlib.sha256(canonical.encode()).hexdigest()
