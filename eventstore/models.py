"""The stored event every event-sourced stream shares, and the first answers of idempotent
commands.

A stream's app declares its event table as a subclass of ``StoredEvent`` with the foreign key to
its stream (``STREAM`` names it) and any column of its own (a game's events carry their
``turn``). Rows are never updated or deleted: database triggers refuse it
(eventstore/triggers.py), and each row carries a hash chained to the one before it
(eventstore/chain.py), so that a row changed behind the triggers' back shows.
"""

import json
from collections.abc import Mapping
from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Lookup

from eventstore import kinds
from eventstore.kinds import KindName

# The event as the stream's rules know it: {"kind", "v", "seat", "data"} (a game's: and "turn").
Stored = Mapping[str, Any]


class CompactJSONField(models.JSONField):
    """JSON kept as the compact text it was written as (no spaces, non-ASCII as is): PostgreSQL's
    ``json`` rather than ``jsonb``, whose binary form of an event's few small fields takes half
    as much room again. Nothing queries inside an event's data in SQL; an event is read whole.
    The driver hands ``json`` over decoded (``from_db_value`` takes it as it comes)."""

    def db_type(self, connection: Any) -> str | None:
        return "json" if connection.vendor == "postgresql" else super().db_type(connection)

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if not prepared:
            value = self.get_prep_value(value)
        return compact(value)

    def get_transform(self, name: str) -> Any:
        # No lookups by key (``data__chapter=2``): an event's data is never queried inside in
        # SQL, and PostgreSQL's json has no operators to compare it with.
        return models.Field.get_transform(self, name)

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if isinstance(value, bytes):
            value = value.decode()
        if isinstance(value, str):
            return super().from_db_value(value, expression, connection)
        return value


class KindField(models.PositiveSmallIntegerField):
    """An event's kind and version, stored as one 2-byte code (eventstore/kinds.py) and read as
    a ``KindName``: the name, with the version it was stored with. Lookups take names
    (``exact``, ``in``), whatever the version."""

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> KindName | None:
        return None if value is None else kinds.named(value)

    def to_python(self, value: Any) -> Any:
        return value

    def get_db_prep_save(self, value: Any, connection: Any) -> Any:
        # only a row written is given its code (the first of its pair assigns one)
        if value is None or isinstance(value, int):
            return value
        return kinds.code(value, getattr(value, "version", None))

    def get_prep_value(self, value: Any) -> Any:
        if value is None or isinstance(value, int):
            return value
        raise TypeError(f"event kinds are compared by name with exact or in, not as {value!r}")

    # what the ORM gives and takes (django-stubs' names): a name (a KindName), not the code
    _pyi_private_set_type: str | int
    _pyi_private_get_type: str  # type: ignore[assignment]

    def value_to_string(self, obj: models.Model) -> str:
        return str(self.value_from_object(obj))


@KindField.register_lookup
class KindExact(Lookup):
    """``kind="confirmed"``: the rows of that kind, at any version."""

    lookup_name = "exact"
    prepare_rhs = False

    def as_sql(self, compiler: Any, connection: Any) -> tuple[str, list[Any]]:
        lhs, params = self.process_lhs(compiler, connection)
        return kinds.codes_sql(lhs, 1), [*params, str(self.rhs)]


@KindField.register_lookup
class KindIn(Lookup):
    """``kind__in=[...]``: the rows of those kinds, at any version."""

    lookup_name = "in"
    prepare_rhs = False

    def as_sql(self, compiler: Any, connection: Any) -> tuple[str, list[Any]]:
        lhs, params = self.process_lhs(compiler, connection)
        names = [str(name) for name in self.rhs]
        if not names:
            return "1 = 0", []
        return kinds.codes_sql(lhs, len(names)), [*params, *names]


class EventKind(models.Model):
    """A code event rows store for a kind and version (eventstore/kinds.py): assigned on the
    first event of the pair, never changed nor deleted (append-only, as the events)."""

    code = models.SmallAutoField(primary_key=True)
    kind = models.CharField(max_length=64)
    # the version of the kind's schema; 0 for events stored before versions existed
    version = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "version"], name="event_kind_unique")]

    def __str__(self) -> str:
        return f"{self.code}: {self.kind} v{self.version}"


def compact(value: Any) -> str:
    """``value`` as the compact JSON text an event's data is stored as."""
    return _COMPACT.encode(value)


# json.dumps with options makes an encoder for each call: every event written and handed on
# is written with this one
_COMPACT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


class StoredEvent(models.Model):
    """An event row. Its primary key is (stream, seq), declared by each stream's subclass: no
    surrogate id, nor the index it would need (everything reads events by stream and seq). On
    PostgreSQL the columns are laid out widest first (``eventstore/event_storage.py``), so that
    no alignment padding is stored between them."""

    # The name of the foreign key to the stream the event belongs to ("game", "campaign").
    STREAM: ClassVar[str]
    # Columns a stream's events carry beyond the common ones, all chained (a game's: "turn").
    OWN_FIELDS: ClassVar[tuple[str, ...]] = ()

    seq = models.PositiveIntegerField()
    # the seat whose command caused the event; null for what the stream does by itself
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # The kind, with the version of its schema the data was stored with (``version``; None for
    # game events stored before versions existed: version 1), as one 2-byte code of the
    # database's (eventstore/kinds.py). Old versions are upcast on read, never rewritten.
    kind = KindField()
    data = CompactJSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    # No index of its own: nothing reads events by their actor (a user's deletion, which
    # PROTECT checks here, is rare enough to scan for).
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        db_index=False,
    )
    # The hash chain (eventstore/chain.py): this event's hash, the 32 bytes of its sha256,
    # computed in the transaction that appends it. The previous event's hash (``prev_hash`` in
    # an export) is the one stored on the event before it, so it is not stored twice.
    hash = models.BinaryField(max_length=32)

    class Meta:
        abstract = True

    @property
    def version(self) -> int | None:
        """The version of the kind's schema the event was stored with (None: before versions)."""
        return kinds.version_of(self.kind)

    @version.setter
    def version(self, value: int | None) -> None:
        self.kind = KindName(self.kind, value)

    @classmethod
    def chained_fields(cls) -> tuple[str, ...]:
        """The columns the hash covers, in the order an export lists them."""
        return ("seq", *cls.OWN_FIELDS, "seat", "kind", "data")

    @classmethod
    def content(cls, seq: int, event: Stored) -> dict[str, Any]:
        """What the hash of ``event`` stored at ``seq`` covers."""
        own = {name: event.get(name) or 0 for name in cls.OWN_FIELDS}
        return {
            "seq": seq,
            **own,
            "seat": event.get("seat"),
            "kind": event["kind"],
            "data": event.get("data") or {},
        }

    def as_stored(self) -> dict[str, Any]:
        """The event as the stream's rules know it."""
        own = {name: getattr(self, name) for name in self.OWN_FIELDS}
        return stored_form(kind=self.kind, version=self.version, seat=self.seat, data=self.data, **own)


def stored_form(*, kind: str, version: int | None, seat: int | None, data: Any, **own: Any) -> dict[str, Any]:
    """An event as its stream's rules know it, from its columns (``own``: the stream's own
    fields, a game's ``turn``): one shape for a model row and a row read with plain SQL."""
    return {"kind": str(kind), "v": version or 1, "seat": seat, **own, "data": data}


class IdempotencyRecord(models.Model):
    """The first answer to a command sent with an Idempotency-Key, replayed to retries."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    method = models.CharField(max_length=10)
    # No length limit: the path is the request's, as long as the web server let it be (a path
    # behind a long SCRIPT_NAME prefix went past the 512 characters this column once had).
    path = models.TextField()
    # sha256 of the request's JSON body, canonical (sorted keys): a key sent again with another
    # body is refused. Empty for records written before bodies were compared.
    body_hash = models.CharField(max_length=64, default="", blank=True)
    # 0 while the command runs (its transaction holds the record), then the answer's status
    status_code = models.PositiveSmallIntegerField()
    response = models.JSONField(null=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "games_idempotencyrecord"
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_unique_key"),
        ]

    def __str__(self) -> str:
        return f"{self.method} {self.path} [{self.key}]"


class FollowUp(models.Model):
    """The outbox: work that follows committed events (eventstore/followups.py), written in the
    transaction that appends them and deleted by the task that did it. A row still here is work
    not known to be done: a sweeper sends it again from ``retry_at`` on."""

    # The stream ("game", "campaign") and its id, and what set the work off: an event kind, or
    # what the stream's state leaves to workers (``followups.ASTRA_DUE``...).
    stream = models.CharField(max_length=32)
    stream_id = models.BigIntegerField()
    kind = models.CharField(max_length=64)
    # the stream's log version once the events were in
    version = models.PositiveIntegerField()
    # when the work is due (the commit, or a later time such as a deadline)
    due_at = models.DateTimeField()
    # when the sweeper sends it (again) unless it is done by then
    retry_at = models.DateTimeField()
    # how often the sweeper sent it
    attempts = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            models.Index(fields=["retry_at"], name="followup_retry_at"),
            models.Index(fields=["due_at"], name="followup_due_at"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} of {self.stream} {self.stream_id} at {self.version}"


class Seal(models.Model):
    """The signature over a finished stream's history (eventstore/seals.py): its last event's
    seq and hash, signed with the key ``key_id`` names. Never updated or deleted (triggers, and
    the application's database role may only insert and read it)."""

    # the stream as its events name it ("game", "campaign"), and its id
    stream = models.CharField(max_length=32)
    stream_id = models.BigIntegerField()
    seq = models.PositiveIntegerField()
    hash = models.CharField(max_length=64)
    key_id = models.CharField(max_length=16)
    # base64 of the raw 32-byte Ed25519 public key, and of the 64-byte signature
    public_key = models.CharField(max_length=44)
    signature = models.CharField(max_length=88)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["stream", "stream_id"], name="seal_unique_stream"),
        ]

    def __str__(self) -> str:
        return f"{self.stream} {self.stream_id} sealed at {self.seq} by {self.key_id}"
