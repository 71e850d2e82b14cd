"""Upcasting: stored events of an older version read as the current version of their kind.

A stored event is never rewritten. Reading it, its kind's upcasters carry it from the version
it was stored with (``v``, absent before versions existed: 1) up to the current one, one step
at a time. Every step is kept forever, since logs of every version stay in the store.
"""

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict, cast

from games.rules.adventures import rules_for
from games.rules.common import missions
from games.rules.core import kinds
from games.rules.core.events import KINDS, Event, GameStarted
from games.rules.core.kinds import Upcaster


def upcast(event: Event) -> Event:
    """``event`` as the current version of its kind (the same object when it already is)."""
    return kinds.upcast(KINDS, UPCASTERS, event)


# --- version 1 -> 2: sheets apart from seats, and a self-describing setup -------------------


def _sheet_of_seat(event: Event) -> Mapping[str, Any]:
    """Version 1 marked the sheet of the event's seat: in adventures 1-4, sheet id = seat."""
    return {"sheet": event["seat"], **event["data"]}


class GameStartedV1(TypedDict):
    """The data of ``game_started`` at version 1."""

    adventure: int
    players: int
    seed: int
    missions: dict[str, int]
    modifiers: NotRequired[dict[str, list[Any]]]


def _setup_v1(event: Event) -> GameStarted:
    """Version 1 named the adventure, the seed, the missions and the modifiers only: its setup
    is rebuilt as the engine built it then, from the printed sheet of adventures 1-4."""
    data = cast(GameStartedV1, event["data"])
    rules = rules_for(data["adventure"])
    modifiers: dict[str, list[Any]] = data.get("modifiers", {})
    sheets = [rules.own_sheet(seat, modifiers.get(str(seat), [])) for seat in range(data["players"])]
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


def _unchanged(event: Event) -> Mapping[str, Any]:
    """A version that only widened what its data may hold: an older event reads as it was."""
    return dict(event["data"])


UPCASTERS: dict[tuple[str, int], Upcaster[Event]] = {
    ("game_started", 1): _setup_v1,
    ("game_started", 2): _unchanged,
    ("number_written", 1): _sheet_of_seat,
    ("system_error", 1): _sheet_of_seat,
    ("system_error", 2): _unchanged,
    ("mark", 1): _sheet_of_seat,
    ("mission_accomplished", 1): _sheet_of_seat,
}
