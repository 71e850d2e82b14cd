"""Event kinds, declared alike by every event stream (a game's log, a campaign's).

A stream declares each kind it stores once, as a ``Kind``: its current version, the schema of
its data (a TypedDict) and how applying it changes the stream's state. The helpers below read
any stream's events through its table of kinds: ``evolve`` applies one, ``fold`` a whole log,
``upcast`` reads one stored at an older version as the current one (through the stream's
upcasters), and ``schema_problem`` checks one against its kind's schema before it is appended.
"""

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from operator import itemgetter
from typing import (
    Any,
    Generic,
    NotRequired,
    Protocol,
    TypedDict,
    TypeVar,
    Union,
    cast,
    get_args,
    get_origin,
    get_type_hints,
)


class StreamEvent(TypedDict):
    """What every stream's event holds: ``v`` is the version of its kind's schema (absent on
    events stored before versions existed: version 1), ``seat`` the seat that caused it."""

    kind: str
    v: NotRequired[int]
    seat: int | None
    data: Mapping[str, Any]


class Folded(Protocol):
    """A stream's state, counting the events folded into it."""

    events_applied: int


S = TypeVar("S", bound=Folded)
E = TypeVar("E", bound=StreamEvent)
D = TypeVar("D", bound=Mapping[str, Any])

# How an event of an older version reads as the next version: its data at that version.
Upcaster = Callable[[E], Mapping[str, Any]]


@dataclass(frozen=True)
class Kind(Generic[S, E, D]):
    """One event kind: its current version, the schema of its data, and how it is applied
    (``apply(state, data, event)``, ``data`` read as the schema).

    ``touches`` says what of a game's state applying it changes, so that a copy-on-write state
    knows what to copy first: ``seat`` (the event's seat), ``sheet`` (the sheet it names, or
    the seat's current sheet), ``astra`` (ASTRA's state, in solo), ``all`` (any of them).

    ``transient``: all that applying it changes, the stream's next event of a ``resets`` kind
    overwrites, and only events of transient kinds read it (a game's turn in play: whose turn
    is confirmed, the effects waiting...). A fold skips the events of transient kinds that such
    an event follows: their result is never read. ``lasting``: the part of its apply that
    outlasts the next event of a resets kind (a turn's start: the cards flipped; a number
    written: the number, not the seat's choice of the turn), all a fold applies of an event
    that such an event follows, unless an event of a ``rewinds`` kind (one that reads what a
    reset set up: an undo) comes before that one.
    """

    name: str
    version: int
    schema: type[D]
    apply: Callable[[S, D, E], None]
    touches: frozenset[str] = frozenset()
    transient: bool = False
    resets: bool = False
    lasting: Callable[[S, D, E], None] | None = None
    rewinds: bool = False

    def data_of(self, event: E) -> D | None:
        """The data of ``event`` read as this kind's schema, or None for another kind."""
        return cast(D, event["data"]) if event["kind"] == self.name else None


def evolve(kinds: Mapping[str, Kind[S, E, Any]], state: S, event: E) -> S:
    """Apply one event of the current version of its kind to ``state`` in place and return it
    (an event of a kind the table does not hold changes nothing but the count)."""
    kind = kinds.get(event["kind"])
    if kind is not None:
        kind.apply(state, event["data"], event)
    state.events_applied += 1
    return state


def fold(
    kinds: Mapping[str, Kind[S, E, Any]],
    upcasters: Mapping[tuple[str, int], Upcaster[E]],
    state: S,
    events: Iterable[E],
) -> S:
    """Apply stored ``events`` of any version to ``state`` in place, in order, and return it:
    the state ``evolve(upcast(event))`` for each gives, as the loop a replay runs. Each event is
    applied once, and only one stored at an older version than its kind's is upcast (a copy is
    made then). Of an event that an event of a ``resets`` kind follows, a transient one is not
    applied at all, and one of a kind with a ``lasting`` part only that part when no ``rewinds``
    event comes before: that later event overwrites the rest."""
    # The kinds' versions and applies read once, not once an event: the loop is the replay's cost.
    current: dict[str, tuple[int, Callable[[S, Any, E], None]] | None] = {
        name: (kind.version, kind.apply) for name, kind in kinds.items()
    }
    stored = events if isinstance(events, list) else list(events)
    last = _last_reset(kinds, stored)
    if last > 0:
        early = {name: None if kinds[name].transient else entry for name, entry in current.items()}
        before = stored[:last]
        rewinding = {name for name, kind in kinds.items() if kind.rewinds}
        if rewinding.isdisjoint(map(itemgetter("kind"), before)):
            early.update(
                (name, (kind.version, kind.lasting))
                for name, kind in kinds.items()
                if kind.lasting is not None
            )
        _apply_each(kinds, upcasters, early, state, before)
        _apply_each(kinds, upcasters, current, state, stored[last:])
    else:
        _apply_each(kinds, upcasters, current, state, stored)
    state.events_applied += len(stored)
    return state


def _last_reset(kinds: Mapping[str, Kind[S, E, Any]], stored: list[E]) -> int:
    """The index of the last of ``stored`` of a ``resets`` kind, 0 when there is none."""
    resetting = {name for name, kind in kinds.items() if kind.resets}
    if resetting:
        for index in range(len(stored) - 1, 0, -1):
            if stored[index]["kind"] in resetting:
                return index
    return 0


def _apply_each(
    kinds: Mapping[str, Kind[S, E, Any]],
    upcasters: Mapping[tuple[str, int], Upcaster[E]],
    table: Mapping[str, tuple[int, Callable[[S, Any, E], None]] | None],
    state: S,
    stored: list[E],
) -> None:
    """Apply ``stored`` through ``table``: a kind's version and apply, None to skip its events
    (as a kind the table does not hold)."""
    # An event's fields are read by subscript: a method call each would cost more.
    for event in stored:
        try:
            entry = table[event["kind"]]
        except KeyError:
            continue
        if entry is None:
            continue
        version, apply = entry
        try:
            stale = event["v"] != version
        except KeyError:  # stored before versions existed: version 1
            stale = version != 1
        if stale:
            event = upcast(kinds, upcasters, event)
        apply(state, event["data"], event)


def upcast(
    kinds: Mapping[str, Kind[S, E, Any]], upcasters: Mapping[tuple[str, int], Upcaster[E]], event: E
) -> E:
    """``event`` as the current version of its kind (the same object when it already is),
    through the upcaster of each version it is older than, one step at a time."""
    kind = kinds.get(event["kind"])
    stored: StreamEvent = event
    version = stored.get("v", 1)
    if kind is None or version == kind.version:
        return event if "v" in event else cast(E, {**event, "v": version})
    data = event["data"]
    while version < kind.version:
        data = upcasters[event["kind"], version](cast(E, {**event, "data": data}))
        version += 1
    return cast(E, {**event, "v": version, "data": data})


def schema_problem(
    kinds: Mapping[str, Kind[Any, Any, Any]], event: Mapping[str, Any], *, stream: str = ""
) -> str | None:
    """Why ``event`` does not fit the current schema of its kind, or None (``stream`` names
    the stream's events in the answer: "campaign ")."""
    kind = kinds.get(event.get("kind", ""))
    if kind is None:
        return f"unknown {stream}event kind {event.get('kind')!r}"
    if event.get("v") != kind.version:
        return f"{kind.name} is at version {kind.version}, not {event.get('v')!r}"
    return typed_dict_problem(kind.schema, event.get("data"), kind.name)


def typed_dict_problem(schema: Any, value: Any, where: str) -> str | None:
    """Why ``value`` does not fit the TypedDict ``schema`` (``where`` names it), or None:
    required keys, no unknown key, and every value of its declared type."""
    if not isinstance(value, dict):
        return f"{where} is not an object"
    hints = _hints(schema)
    missing = schema.__required_keys__ - value.keys()
    if missing:
        return f"{where} lacks {sorted(missing)}"
    unknown = value.keys() - hints.keys()
    if unknown:
        return f"{where} has unknown fields {sorted(unknown)}"
    for key, item in value.items():
        problem = _type_problem(hints[key], item, f"{where}.{key}")
        if problem is not None:
            return problem
    return None


@cache
def _hints(schema: Any) -> dict[str, Any]:
    return get_type_hints(schema)


def _type_problem(hint: Any, value: Any, where: str) -> str | None:
    origin = get_origin(hint)
    if hint is Any:
        return None
    if origin is NotRequired:
        return _type_problem(get_args(hint)[0], value, where)
    if origin is Union or type(hint).__name__ == "UnionType":
        options = get_args(hint)
        if any(_type_problem(option, value, where) is None for option in options):
            return None
        return f"{where} is {value!r}, not one of {options}"
    if hint is type(None):
        return None if value is None else f"{where} is not null"
    if isinstance(hint, type) and hasattr(hint, "__required_keys__"):
        return typed_dict_problem(hint, value, where)
    if origin is list:
        if not isinstance(value, list):
            return f"{where} is not a list"
        (item_hint,) = get_args(hint)
        for index, item in enumerate(value):
            problem = _type_problem(item_hint, item, f"{where}[{index}]")
            if problem is not None:
                return problem
        return None
    if origin is dict:
        if not isinstance(value, dict):
            return f"{where} is not an object"
        key_hint, item_hint = get_args(hint)
        for key, item in value.items():
            problem = _type_problem(key_hint, key, where) or _type_problem(
                item_hint, item, f"{where}.{key}"
            )
            if problem is not None:
                return problem
        return None
    if hint is int:
        whole = isinstance(value, int) and not isinstance(value, bool)
        return None if whole else f"{where} is not a whole number"
    if isinstance(hint, type):
        return None if isinstance(value, hint) else f"{where} is not a {hint.__name__}"
    return None
