"""Signatures over finished histories, with a key the database never holds.

The hash chain (eventstore/chain.py) shows a row changed behind the code's back, but whoever
can write the table can also recompute every hash after it. So when a game or a campaign
finishes, its last hash is signed with an Ed25519 key kept outside the database (settings
``HISTORY_SIGNING_KEY``): a seal, stored beside the events (``Seal``, append-only like them),
given in the export's header, checked by ``manage.py verify_events`` and by the imports. A
history changed and chained again no longer ends in the signed hash, and nobody without the key
can sign the new one.

The signed message is the canonical JSON (chain.canonical) of ``format`` (``moon-seal/1``),
``stream`` (``game``, ``campaign``), ``id`` (the stream's id where it was signed), ``seq`` and
``hash`` (its last event's) and ``key_id``. A key's id is the first 16 hex digits of the sha256
of its raw public key. The public key is served at ``GET /api/v1/history-key``.

Rotation: set the new ``HISTORY_SIGNING_KEY`` and keep the old public key in
``HISTORY_VERIFY_KEYS``: what it signed is still checked, what is finished from then on is
signed with the new key.
"""

import base64
import binascii
import functools
import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connection

from eventstore import chain
from eventstore.models import Seal, StoredEvent

FORMAT = "moon-seal/1"
ALGORITHM = "Ed25519"
# The fields of a seal as an export gives it.
RECORD_FIELDS = ("stream", "id", "seq", "hash", "key_id", "public_key", "signature")


@dataclass(frozen=True)
class Keys:
    """The key that signs, and every public key trusted when checking (the signing one's
    first), by key id."""

    signing: Ed25519PrivateKey
    key_id: str
    trusted: dict[str, Ed25519PublicKey]


def raw_public(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_id_of(key: Ed25519PublicKey) -> str:
    """A public key's id: the first 16 hex digits of the sha256 of its raw bytes."""
    return hashlib.sha256(raw_public(key)).hexdigest()[:16]


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def keys() -> Keys:
    """The keys settings give (read once per value of the settings)."""
    return _keys(
        settings.HISTORY_SIGNING_KEY, settings.HISTORY_SIGNING_KEY_FILE, tuple(settings.HISTORY_VERIFY_KEYS)
    )


@functools.cache
def _keys(signing_text: str, key_file: str, verify: tuple[str, ...]) -> Keys:
    signing = _private_key(signing_text or _key_from_file(Path(key_file)), "HISTORY_SIGNING_KEY")
    public = signing.public_key()
    trusted = {key_id_of(public): public}
    for text in verify:
        key = _public_key(text, "HISTORY_VERIFY_KEYS")
        trusted.setdefault(key_id_of(key), key)
    return Keys(signing=signing, key_id=key_id_of(public), trusted=trusted)


def _private_key(text: str, name: str) -> Ed25519PrivateKey:
    text = text.strip()
    if text.startswith("-----BEGIN"):
        key = serialization.load_pem_private_key(text.encode(), password=None)
        if not isinstance(key, Ed25519PrivateKey):
            raise ImproperlyConfigured(f"{name} is a PEM key, but not an Ed25519 one.")
        return key
    return Ed25519PrivateKey.from_private_bytes(_raw32(text, name))


def _public_key(text: str, name: str) -> Ed25519PublicKey:
    return Ed25519PublicKey.from_public_bytes(_raw32(text, name))


def _raw32(text: str, name: str) -> bytes:
    try:
        raw = base64.b64decode(text.strip().replace("-", "+").replace("_", "/"), validate=True)
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != 32:
        raise ImproperlyConfigured(f"{name}: a key is the base64 of 32 bytes (or, signing, a PEM).")
    return raw


def _key_from_file(path: Path) -> str:
    """The embedded mode's key: read from ``path``, made there on first use. Two processes
    making it at once agree: the file appears whole (a link), and the second reads the first's."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=path.parent, delete=False) as made:
            made.write(b64(os.urandom(32)) + "\n")
        os.chmod(made.name, 0o600)
        try:
            os.link(made.name, path)
        except FileExistsError:
            pass
        finally:
            os.unlink(made.name)
    return path.read_text()


# --- signing and checking -------------------------------------------------------------------------


def message(*, stream: str, stream_id: int, seq: int, hash: str, key_id: str) -> bytes:
    """The bytes a seal signs."""
    return chain.canonical(
        {"format": FORMAT, "stream": stream, "id": stream_id, "seq": seq, "hash": hash, "key_id": key_id}
    )


def seal(model: type[StoredEvent], stream_id: int) -> Seal:
    """Sign the stream's history as it ends now (its last event), in the caller's transaction;
    a stream signed already keeps its seal."""
    existing = Seal.objects.filter(stream=model.STREAM, stream_id=stream_id).first()
    if existing is not None:
        return existing
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT seq, hash FROM {model._meta.db_table} WHERE {model.STREAM}_id = %s "
            "ORDER BY seq DESC LIMIT 1",
            [stream_id],
        )
        last = cursor.fetchone()
    if last is None:
        raise ValueError(f"{model.STREAM} {stream_id} has no event to sign")
    seq, last_hash = int(last[0]), chain.hexed(last[1])
    current = keys()
    signed = message(stream=model.STREAM, stream_id=stream_id, seq=seq, hash=last_hash, key_id=current.key_id)
    return Seal.objects.create(
        stream=model.STREAM,
        stream_id=stream_id,
        seq=seq,
        hash=last_hash,
        key_id=current.key_id,
        public_key=b64(raw_public(current.signing.public_key())),
        signature=b64(current.signing.sign(signed)),
    )


def record(stored: Seal) -> dict[str, Any]:
    """A seal as an export's header gives it."""
    return {
        "stream": stored.stream,
        "id": stored.stream_id,
        "seq": stored.seq,
        "hash": stored.hash,
        "key_id": stored.key_id,
        "public_key": stored.public_key,
        "signature": stored.signature,
    }


@dataclass(frozen=True)
class Verdict:
    """What checking a seal found: ``problem`` (a sentence) when it does not hold; else
    ``trusted``, whether its key is one this server trusts."""

    problem: str | None
    trusted: bool


def check(value: Any, *, stream: str, seq: int, hash: str) -> Verdict:
    """Whether the seal ``value`` (an export's record) signs the history of a ``stream`` whose
    last event is ``seq`` with ``hash``: its signature must hold under the public key it names,
    whatever that key; ``trusted`` says whether this server trusts the key."""
    if not isinstance(value, dict) or set(value) != set(RECORD_FIELDS):
        return Verdict(f"the seal is an object with exactly {', '.join(RECORD_FIELDS)}.", False)
    if value["stream"] != stream or not isinstance(value["id"], int) or isinstance(value["id"], bool):
        return Verdict(f"the seal is not a {stream}'s.", False)
    try:
        public = _public_key(str(value["public_key"]), "the seal's public_key")
        signature = base64.b64decode(str(value["signature"]), validate=True)
    except (ImproperlyConfigured, binascii.Error, ValueError):
        return Verdict("the seal's public_key or signature is not the base64 of an Ed25519 one.", False)
    if value["key_id"] != key_id_of(public):
        return Verdict("the seal's key_id is not the id of its public_key.", False)
    if (value["seq"], value["hash"]) != (seq, hash):
        return Verdict(
            f"the history is not the one signed: the seal signs event {value['seq']!r} with hash "
            f"{value['hash']!r}, the history ends at event {seq} with hash {hash}.",
            False,
        )
    signed = message(stream=stream, stream_id=value["id"], seq=seq, hash=hash, key_id=value["key_id"])
    try:
        public.verify(signature, signed)
    except InvalidSignature:
        return Verdict("the seal's signature does not hold: its key did not sign this history.", False)
    return Verdict(None, value["key_id"] in keys().trusted)


def problem_of(stored: Seal, *, seq: int, hash: str) -> str | None:
    """Why a stored seal does not sign a stream ending at event ``seq`` with ``hash`` with a
    key this server trusts, or None when it does."""
    verdict = check(record(stored), stream=stored.stream, seq=seq, hash=hash)
    if verdict.problem is not None:
        return verdict.problem
    if not verdict.trusted:
        return f"the seal is signed by key {stored.key_id}, which this server does not trust."
    return None


def public_keys() -> list[dict[str, Any]]:
    """Every public key trusted here, the signing one first: ``key_id``, ``public_key`` (base64
    of the raw 32 bytes), ``current`` (whether it signs what finishes now)."""
    current = keys()
    return [
        {"key_id": key_id, "public_key": b64(raw_public(key)), "current": key_id == current.key_id}
        for key_id, key in current.trusted.items()
    ]
