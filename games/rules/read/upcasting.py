"""Upcasting: stored events of an older version read as the current version of their kind.

A stored event is never rewritten. Reading it, its kind's upcasters carry it from the version
it was stored with (``v``, absent before versions existed: 1) up to the current one, one step
at a time. Every step is kept forever, since logs of every version stay in the store.
"""

from collections.abc import Callable
from typing import Any

from games.rules.adventures import rules_for
from games.rules.common import missions
from games.rules.core import events
from games.rules.core.events import Event

Upcaster = Callable[[Event], dict[str, Any]]


def upcast(event: Event) -> Event:
    """``event`` as the current version of its kind (the same object when it already is)."""
    kind = events.KINDS.get(event["kind"])
    version = event.get("v", 1)
    if kind is None or version == kind.version:
        return event if "v" in event else {**event, "v": version}
    data = event["data"]
    while version < kind.version:
        data = UPCASTERS[event["kind"], version]({**event, "data": data})
        version += 1
    return {"kind": event["kind"], "v": version, "seat": event["seat"], "turn": event["turn"], "data": data}


# --- version 1 -> 2: sheets apart from seats, and a self-describing setup -------------------


def _sheet_of_seat(event: Event) -> dict[str, Any]:
    """Version 1 marked the sheet of the event's seat: in adventures 1-4, sheet id = seat."""
    return {"sheet": event["seat"], **event["data"]}


def _setup_v1(event: Event) -> dict[str, Any]:
    """Version 1 named the adventure, the seed, the missions and the modifiers only: its setup
    is rebuilt as the engine built it then, from the printed sheet of adventures 1-4."""
    data = event["data"]
    rules = rules_for(data["adventure"])
    modifiers: dict[str, list[Any]] = data.get("modifiers", {})
    sheets = [
        {"id": seat, "seats": [seat], **rules.sheet_setup(modifiers.get(str(seat), []))}
        for seat in range(data["players"])
    ]
    return {
        "adventure": data["adventure"],
        "players": data["players"],
        "seed": data["seed"],
        "missions": dict(data["missions"]),
        "mission_values": missions.values_of(data["missions"]),
        "sheets": sheets,
        "seats": [{"sheets": [seat]} for seat in range(data["players"])],
        "astra": None,
        "modifiers": modifiers,
    }


# --- versions 2 -> 3 that only widened a field ------------------------------------------------
# system_error: a box may be None (none left to mark); game_started: a sheet's side may be
# owned by ASTRA ("astra"), in the solo Battle.


def _unchanged(event: Event) -> dict[str, Any]:
    """A version that only widened what its data may hold: an older event reads as it was."""
    return dict(event["data"])


UPCASTERS: dict[tuple[str, int], Upcaster] = {
    ("game_started", 1): _setup_v1,
    ("game_started", 2): _unchanged,
    ("number_written", 1): _sheet_of_seat,
    ("system_error", 1): _sheet_of_seat,
    ("system_error", 2): _unchanged,
    ("mark", 1): _sheet_of_seat,
    ("mission_accomplished", 1): _sheet_of_seat,
}
