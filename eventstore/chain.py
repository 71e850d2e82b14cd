"""The hash chain that makes a stream's history tamper-evident.

Each stored event carries ``hash = sha256(prev_hash + canonical)``, hex digests both, where
``canonical`` is the UTF-8 JSON of the fields its stream chains (keys sorted, no spaces,
non-ASCII kept as is): ``seq``, ``seat``, ``kind``, ``data``, and for a game's events ``turn``
(``StoredEvent.CHAINED``). ``prev_hash`` is the hash of the event before it in the same stream
(64 zeros for the first). A row stores its own hash as 32 bytes (``stored``); its ``prev_hash``
is the hash stored on the row before it. Changing any chained byte of an event changes its hash, and so breaks
the link to every event after it: ``first_break`` names the first link that does not hold, in
the database (``manage.py verify_events``) or in an export.
"""

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

GENESIS = "0" * 64


def stored(digest: str) -> bytes:
    """A hash as a row stores it: the 32 bytes its hex digest spells."""
    return bytes.fromhex(digest)


def hexed(value: bytes | memoryview) -> str:
    """A stored hash as the chain and an export spell it: 64 hex digits."""
    return bytes(value).hex()


def canonical(content: Mapping[str, Any]) -> bytes:
    """The bytes an event's hash covers: its chained fields."""
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def link(prev_hash: str, content: Mapping[str, Any]) -> str:
    """The hash of an event with chained fields ``content`` that follows the event whose hash is
    ``prev_hash``."""
    digest = hashlib.sha256(prev_hash.encode())
    digest.update(canonical(content))
    return digest.hexdigest()


@dataclass(frozen=True)
class Link:
    """One event as the chain sees it: the fields its hash covers (``seq`` among them) and the
    two hashes it carries."""

    content: Mapping[str, Any]
    prev_hash: str | None
    hash: str | None

    @property
    def seq(self) -> Any:
        return self.content["seq"]


@dataclass(frozen=True)
class Break:
    """The first link of a chain that does not hold: the position of the event (0 is the
    first given) and why, in a sentence."""

    index: int
    seq: int
    reason: str


def first_break(links: Iterable[Link]) -> Break | None:
    """The first broken link of one stream's events given in their order, or None when every
    event follows the one before it (seq 1, 2, 3...) and carries the hash of its content."""
    prev_hash = GENESIS
    expected_seq = 1
    for index, item in enumerate(links):
        if item.seq != expected_seq:
            missing = f"event {expected_seq} is missing" if item.seq > expected_seq else "seq goes back"
            return Break(
                index, item.seq, f"event {item.seq} comes where event {expected_seq} should: {missing}."
            )
        if item.prev_hash != prev_hash:
            before = "the chain's start (64 zeros)" if item.seq == 1 else f"the hash of event {item.seq - 1}"
            return Break(index, item.seq, f"event {item.seq}'s prev_hash is not {before}.")
        computed = link(prev_hash, item.content)
        if item.hash != computed:
            return Break(
                index,
                item.seq,
                f"event {item.seq} ({item.content['kind']}) does not hash to its stored hash: its "
                "content, or the hash of the event before it, was changed after it was stored.",
            )
        prev_hash = computed
        expected_seq += 1
    return None
