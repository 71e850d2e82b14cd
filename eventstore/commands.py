"""The one path of a command: one transaction that owns it, and its first answer kept for
retries.

``run`` opens the transaction, claims the Idempotency-Key (when there is one), runs the command
(which locks its stream, decides, appends, evolves once, saves the snapshot and schedules the
follow-ups), and commits; only then is the answer built, so that it shows what the commit set
off in-process (in the embedded mode, ASTRA's part of the turn) whether or not a key was sent.
The answer is then stored for the key: a retry gets exactly that answer and changes nothing.

A refused command stores nothing: it changed nothing, and a retry is judged afresh. A retry
that races its original (sent before the first answer came back) waits on the key's row until
the original commits, then gets its answer; should the answer not be stored yet, the retry is
refused with 409 ``concurrent_command`` and appends nothing.
"""

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction

from eventstore.errors import Conflict, Invalid, Unprocessable
from eventstore.models import IdempotencyRecord

MAX_KEY_LENGTH = 255

R = TypeVar("R")


@dataclass(frozen=True)
class Key:
    """An Idempotency-Key as a command sees it: whose it is, the operation it was sent to, and
    the digest of the body it came with (a key is one request, sent as often as needed)."""

    user_id: int
    key: str
    method: str
    path: str
    body_hash: str

    def __post_init__(self) -> None:
        if not self.key or len(self.key) > MAX_KEY_LENGTH:
            raise Invalid(
                "invalid_idempotency_key",
                "Idempotency-Key must be 1 to %(max_key_length)s characters long.",
                max_key_length=MAX_KEY_LENGTH,
            )


@dataclass(frozen=True)
class Answer:
    """A command's answer: the JSON data and its status; ``replayed`` when it is the first
    answer given again to a retry."""

    data: Any
    status: int
    replayed: bool = False


def run(*, key: Key | None, command: Callable[[], R], answer: Callable[[R], Any], status: int) -> Answer:
    """Run ``command`` in a transaction of its own, then build its ``answer`` (JSON data) once
    it has committed; with a ``key``, a retry gets that first answer instead."""
    with transaction.atomic():
        record = None
        if key is not None:
            claimed = _claim(key)
            if isinstance(claimed, Answer):
                return claimed
            record = claimed
        result = command()
    data = answer(result)
    if record is not None:
        # kept as the JSON it is sent as, so that a retry is sent the same answer
        data = json.loads(json.dumps(data, cls=DjangoJSONEncoder))
        IdempotencyRecord.objects.filter(pk=record.pk).update(status_code=status, response=data)
    return Answer(data=data, status=status)


def _claim(key: Key) -> IdempotencyRecord | Answer:
    """The key's record, claimed for this command, or the first answer when it was answered."""
    record = IdempotencyRecord.objects.filter(user_id=key.user_id, key=key.key).first()
    if record is not None:
        return _replayed(record, key)
    # A request racing with the same key blocks on this insert (PostgreSQL: the unique index;
    # SQLite: the write lock) until the first one commits, then finds its record.
    try:
        with transaction.atomic():
            return IdempotencyRecord.objects.create(
                user_id=key.user_id,
                key=key.key,
                method=key.method,
                path=key.path,
                body_hash=key.body_hash,
                status_code=0,
                response=None,
            )
    except IntegrityError:
        claimed = IdempotencyRecord.objects.filter(user_id=key.user_id, key=key.key).first()
        if claimed is None:
            raise _in_progress() from None
        return _replayed(claimed, key)


def _replayed(record: IdempotencyRecord, key: Key) -> Answer:
    if record.method != key.method or record.path != key.path:
        raise Unprocessable(
            "idempotency_key_reused",
            "This Idempotency-Key was already used for %(method)s %(path)s.",
            method=record.method,
            path=record.path,
        )
    if record.body_hash and record.body_hash != key.body_hash:
        raise Unprocessable(
            "idempotency_key_reused",
            "This Idempotency-Key was already used for %(method)s %(path)s with another body.",
            method=record.method,
            path=record.path,
        )
    if not record.status_code:
        raise _in_progress()
    return Answer(data=record.response, status=record.status_code, replayed=True)


def _in_progress() -> Conflict:
    return Conflict("concurrent_command", "Another request with this Idempotency-Key is in progress.")
