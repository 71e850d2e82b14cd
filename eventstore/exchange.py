"""A stream's history as JSON Lines, out and back in: the part every stream shares.

An export is sections, each a header line (an object with ``format``) followed by one line per
event of one stream in seq order: ``seq``, the stream's own columns (a game's ``turn``),
``seat``, ``kind``, ``v`` (the version of the kind's schema the event was stored with),
``data``, ``created_at``, ``prev_hash`` and ``hash``. A game's export is one section; a
campaign's is the campaign's section, then one per chapter game. Line numbers count from 1
over the whole file, and an import refused names the first line at fault (``ImportRefused``).

A finished stream's header carries its seal (``"seal"``: eventstore/seals.py, the signature over
its last hash). An import checks it: a seal that does not sign the section's history as it ends
is refused, whatever key made it; a seal by a key this server does not trust, or no seal (an
export made before histories were signed, or of a stream not finished), is imported with a
warning. The importing server then seals what it stored with its own key.
"""

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from eventstore import chain, seals
from eventstore.kinds import KindName, version_of
from eventstore.models import Seal, StoredEvent

SEAL = "seal"


class ImportRefused(Exception):
    """An export that cannot be imported: ``line`` (from 1) is the first line at fault."""

    def __init__(self, line: int, detail: str) -> None:
        super().__init__(f"line {line}: {detail}")
        self.line = line
        self.detail = detail


@dataclass
class Section:
    """A header and the events after it, each event with the number of its line."""

    line: int
    header: dict[str, Any]
    events: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    def stored(self, model: type[StoredEvent]) -> list[dict[str, Any]]:
        """The section's events as the stream's rules know them."""
        own = model.OWN_FIELDS
        return [
            {"kind": e["kind"], "v": e["v"], "seat": e["seat"], **{n: e[n] for n in own}, "data": e["data"]}
            for _, e in self.events
        ]


def event_fields(model: type[StoredEvent]) -> tuple[str, ...]:
    """The fields of an event line, in order."""
    return ("seq", *model.OWN_FIELDS, "seat", "kind", "v", "data", "created_at", "prev_hash", "hash")


def event_lines(model: type[StoredEvent], stream_id: int) -> Iterator[str]:
    """The stream's events as lines of an export, read as they are sent."""
    columns = ("seq", *model.OWN_FIELDS, "seat", "kind", "data", "created_at", "hash")
    rows = model._default_manager.filter(**{f"{model.STREAM}_id": stream_id}).order_by("seq")
    prev_hash = chain.GENESIS
    for values in rows.values_list(*columns).iterator(chunk_size=500):
        line = dict(zip(columns[:-1], values[:-1], strict=True))
        kind = line["kind"]
        line["kind"], line["v"] = str(kind), version_of(kind) or 1
        line = {name: line[name] for name in event_fields(model)[:-2]}
        line["created_at"] = line["created_at"].isoformat()
        # the previous event's hash is the one stored on the row before (eventstore/chain.py)
        line["prev_hash"], line["hash"] = prev_hash, chain.hexed(values[-1])
        prev_hash = line["hash"]
        yield to_line(line)


# No line of an export nests deeper than this (an event's data is a few levels deep): a deeper
# line is refused as it is read, before anything recurses through it.
MAX_DEPTH = 32


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether ``value`` nests lists and objects more than ``limit`` levels deep (walked without
    recursion)."""
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        if depth > limit:
            return True
        pending.extend((child, depth + 1) for child in children)
    return False


def to_line(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n"


def sections(lines: Iterable[str | bytes]) -> list[Section]:
    """The export's sections, every line a JSON object; a header has ``format``, and the first
    line is one."""
    found: list[Section] = []
    blank_at: int | None = None
    for number, raw in enumerate(lines, start=1):
        try:
            text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        except UnicodeDecodeError as error:
            raise ImportRefused(number, "not UTF-8 text.") from error
        if not text.strip():
            blank_at = blank_at or number
            continue
        if blank_at is not None:
            raise ImportRefused(blank_at, "an empty line inside the export.")
        try:
            value = json.loads(text)
        except json.JSONDecodeError as error:
            raise ImportRefused(number, f"not a JSON object ({error.msg}).") from error
        except RecursionError as error:
            raise ImportRefused(number, f"nested deeper than {MAX_DEPTH} levels.") from error
        if _deeper_than(value, MAX_DEPTH):
            raise ImportRefused(number, f"nested deeper than {MAX_DEPTH} levels.")
        if not found or (isinstance(value, dict) and "format" in value):
            found.append(Section(number, value))
        else:
            found[-1].events.append((number, value))
    if not found:
        raise ImportRefused(1, "the export is empty: its first line is the header.")
    return found


def check_events(model: type[StoredEvent], section: Section) -> None:
    """Each event line of ``section`` has exactly the fields of ``model``'s events, of their
    types, and the events form an unbroken hash chain."""
    if not section.events:
        raise ImportRefused(section.line + 1, "the export holds no event.")
    names = event_fields(model)
    for number, value in section.events:
        _check_event(value, number, names)
    chained = model.chained_fields()
    broken = chain.first_break(
        chain.Link({name: event[name] for name in chained}, event["prev_hash"], event["hash"])
        for _, event in section.events
    )
    if broken is not None:
        raise ImportRefused(section.events[broken.index][0], broken.reason)


def refuse_if_stored(model: type[StoredEvent], section: Section, *, command: str) -> None:
    """ImportRefused when a stream stored here has the section's chain head (its last event's
    hash at that ``seq``): the same history imported before, named by its id, to be imported
    again only as a copy (``command --copy``). Called once the section's events are checked."""
    line, last = section.events[-1]
    found = model._default_manager.filter(seq=last["seq"], hash=chain.stored(last["hash"]))
    stored = found.values_list(f"{model.STREAM}_id", flat=True).first()
    if stored is not None:
        what = model.STREAM
        raise ImportRefused(
            line,
            f"this {what} is already stored here as {what} {stored} (the same chain head); "
            f"import it again only as a copy ({command} --copy).",
        )


def store_events(model: type[StoredEvent], stream: Any, section: Section) -> int:
    """Store the section's events, as they were exported, in the stream ``stream``."""
    own = model.OWN_FIELDS
    model._default_manager.bulk_create(
        model(
            **{model.STREAM: stream},
            seq=event["seq"],
            **{name: event[name] for name in own},
            seat=event["seat"],
            kind=KindName(event["kind"], event["v"]),
            data=event["data"],
            hash=chain.stored(event["hash"]),
        )
        for _, event in section.events
    )
    return len(section.events)


# The most each whole number of an event line can be stored as: seq an integer column; turn,
# seat and the kind's version smallints (the version in eventstore_eventkind).
LARGEST = {"seq": 2**31 - 1, "turn": 2**15 - 1, "seat": 2**15 - 1, "v": 2**15 - 1}


def _check_event(value: Any, number: int, names: tuple[str, ...]) -> None:
    if not isinstance(value, dict) or set(value) != set(names):
        raise ImportRefused(number, f"an event line is an object with exactly {', '.join(names)}.")
    whole = {name: value[name] for name in names if name in ("seq", "turn", "v")}
    if value["seat"] is not None:
        whole["seat"] = value["seat"]
    for name, item in whole.items():
        if not isinstance(item, int) or isinstance(item, bool) or not 0 <= item <= LARGEST[name]:
            raise ImportRefused(number, f"{name} is a whole number from 0 to {LARGEST[name]}, not {item!r}.")
    for name in ("kind", "created_at", "prev_hash", "hash"):
        if not isinstance(value[name], str):
            raise ImportRefused(number, f"{name} is a string, not {value[name]!r}.")
    if not isinstance(value["data"], dict):
        raise ImportRefused(number, "data is an object.")


def seal_of(model: type[StoredEvent], stream_id: int) -> dict[str, Any]:
    """The header field of the stream's seal (``{"seal": ...}``), or nothing when unsealed."""
    stored = Seal.objects.filter(stream=model.STREAM, stream_id=stream_id).first()
    return {} if stored is None else {SEAL: seals.record(stored)}


def header_fields_hold(header: Any, names: tuple[str, ...]) -> bool:
    """Whether a header has exactly the fields ``names``, and maybe a seal."""
    return isinstance(header, dict) and set(header) - {SEAL} == set(names)


def check_seal(model: type[StoredEvent], section: Section) -> str | None:
    """Check the section's seal against its events (checked already): ImportRefused when it
    does not sign them; a warning (a sentence) when there is none, or its key is not trusted
    here; None when a trusted key signed them."""
    what = f"the {model.STREAM} of line {section.line}"
    if SEAL not in section.header:
        return f"{what} is not signed (exported before histories were signed, or unfinished)."
    _, last = section.events[-1]
    verdict = seals.check(section.header[SEAL], stream=model.STREAM, seq=last["seq"], hash=last["hash"])
    if verdict.problem is not None:
        raise ImportRefused(section.line, f"its signature is refused: {verdict.problem}")
    if not verdict.trusted:
        key_id = section.header[SEAL]["key_id"]
        return f"{what} is signed by key {key_id}, which this server does not trust (HISTORY_VERIFY_KEYS)."
    return None
