"""Events, and how each one changes the state (``evolve``).

``evolve`` never validates and never fails on a stored event: validation happened once, in
``decide``, before the event was stored.
"""

from collections.abc import Iterable
from typing import Any, TypedDict

from games.rules import cards
from games.rules.state import GameState, SeatState


class Event(TypedDict):
    kind: str
    seat: int | None
    turn: int
    data: dict[str, Any]


def evolve(state: GameState, event: Event) -> GameState:
    """Apply one event to ``state`` in place and return it.

    Callers that need the state as it was before take a ``state.copy()`` first.
    """
    handler = _HANDLERS.get(event["kind"])
    if handler is not None:
        handler(state, event)
    state.events_applied += 1
    return state


def replay(events: Iterable[Event]) -> GameState:
    """Rebuild a game's state from its events: a fold of ``evolve`` over them."""
    state = GameState()
    for event in events:
        evolve(state, event)
    return state


class Recorder:
    """Collects the events a command causes, applying each to a private copy of the state
    so that later rules see the effect of earlier ones."""

    def __init__(self, state: GameState) -> None:
        self.state = state.copy()
        self.events: list[Event] = []

    def emit(self, kind: str, seat: int | None = None, **data: Any) -> None:
        turn = data["turn"] if kind == "turn_started" else self.state.turn
        event: Event = {"kind": kind, "seat": seat, "turn": turn, "data": data}
        self.events.append(event)
        evolve(self.state, event)

    def seat(self, seat: int) -> SeatState:
        return self.state.seats[seat]


def _game_started(state: GameState, event: Event) -> None:
    # Imported here: the adventure modules import this one for Event and Recorder.
    from games.rules.adventures import rules_for

    data = event["data"]
    rules = rules_for(data["adventure"])
    state.adventure = data["adventure"]
    state.players = data["players"]
    state.seed = data["seed"]
    state.missions = dict(data["missions"])
    state.stacks = cards.deal(data["seed"])
    modifiers = data.get("modifiers", {})
    state.seats = [rules.new_seat(modifiers.get(str(seat), [])) for seat in range(state.players)]
    state.status = "playing"


def _turn_started(state: GameState, event: Event) -> None:
    state.turn = event["data"]["turn"]
    state.combinations, _ = cards.flip(state.stacks, seed=state.seed, turn=state.turn)
    for seat in state.seats:
        seat.turn_start_marks = dict(seat.marks)
        seat.chosen = None
        seat.turn_choice = {}
        seat.pending = []
        seat.triggered = []
        seat.confirmed = False


def _number_written(state: GameState, event: Event) -> None:
    seat = state.seats[_seat(event)]
    seat.marks[event["data"]["space"]] = event["data"]["number"]
    seat.chosen = "write"
    seat.turn_choice = dict(event["data"])


def _system_error(state: GameState, event: Event) -> None:
    seat = state.seats[_seat(event)]
    seat.marks[event["data"]["box"]] = "circle"
    if event["data"]["cause"] == "no_writable_number":
        seat.chosen = "system_error"


def _mark(state: GameState, event: Event) -> None:
    seat = state.seats[_seat(event)]
    element, mark = event["data"]["element"], event["data"]["mark"]
    seat.marks[element] = mark
    if mark == "triggered":
        seat.triggered.append(element)


def _effects_pending(state: GameState, event: Event) -> None:
    effects = event["data"]["effects"]
    if effects:
        state.seats[_seat(event)].pending.append(list(effects))


def _effect_resolved(state: GameState, event: Event) -> None:
    seat = state.seats[_seat(event)]
    effect = event["data"]["effect"]
    top = seat.pending[-1]
    top.remove(effect)
    if not top:
        seat.pending.pop()


def _undo(state: GameState, event: Event) -> None:
    seat = state.seats[_seat(event)]
    seat.marks = dict(seat.turn_start_marks)
    seat.chosen = None
    seat.turn_choice = {}
    seat.pending = []
    seat.triggered = []


def _confirmed(state: GameState, event: Event) -> None:
    state.seats[_seat(event)].confirmed = True


def _mission_accomplished(state: GameState, event: Event) -> None:
    data = event["data"]
    state.seats[_seat(event)].marks[f"mission.{data['letter']}"] = data["value"]


def _mission_flipped(state: GameState, event: Event) -> None:
    state.flipped_missions.add(event["data"]["letter"])


def _game_ended(state: GameState, event: Event) -> None:
    state.status = "ended"
    state.end = dict(event["data"])


def _result(state: GameState, event: Event) -> None:
    state.status = "finished"
    state.result = dict(event["data"])


def _seat(event: Event) -> int:
    seat = event["seat"]
    assert seat is not None, f"{event['kind']} events belong to a seat"
    return seat


_HANDLERS = {
    "game_started": _game_started,
    "turn_started": _turn_started,
    "number_written": _number_written,
    "system_error": _system_error,
    "mark": _mark,
    "effects_pending": _effects_pending,
    "effect_resolved": _effect_resolved,
    "undo": _undo,
    "confirmed": _confirmed,
    "mission_accomplished": _mission_accomplished,
    "mission_flipped": _mission_flipped,
    "game_ended": _game_ended,
    "result": _result,
}
