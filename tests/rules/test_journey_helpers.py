"""Helpers to put an Adventure 2 game in a given position and play it as players would.

A game is started with the engine, then sheets and the revealed combinations are set
directly; from there every move goes through ``engine.decide`` and every event through
``engine.evolve``, and ending a turn means every seat confirming. (No test lives here.)
"""

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from games.rules import engine
from games.rules.adventures import rules_for
from games.rules.adventures.journey import JourneyRules
from games.rules.cards import Combination
from games.rules.engine import Event, GameState
from games.rules.sheet import Marks, X

_rules = rules_for(2)
assert isinstance(_rules, JourneyRules)
RULES: JourneyRules = _rules
LAYOUT = RULES.layout

Choice = dict[str, Any]


def start(
    players: int, *, seed: int = 1, missions: Mapping[str, int] | None = None
) -> GameState:
    """A freshly started Adventure 2 game (turn 1 flipped)."""
    events = engine.new_game(
        adventure=2, players=players, seed=seed, missions=dict(missions or {})
    )
    return engine.replay(events)


def set_sheet(state: GameState, seat: int, *parts: Marks) -> None:
    """Give a seat this sheet (over the printed e01), as it stands at the start of the turn."""
    marks: Marks = dict(LAYOUT.start_marks)
    for part in parts:
        marks.update(part)
    state.seats[seat].marks = dict(marks)
    state.seats[seat].turn_start_marks = dict(marks)


def reveal(state: GameState, *combinations: tuple[int, str]) -> None:
    """Make this turn's three combinations (number, action)."""
    state.combinations = [
        Combination(index, number, action) for index, (number, action) in enumerate(combinations)
    ]


def apply(state: GameState, events: Iterable[Event]) -> list[Event]:
    events = list(events)
    for event in events:
        engine.evolve(state, event)
    return events


def move(state: GameState, seat: int, choice: Choice) -> list[Event]:
    return apply(state, engine.decide(state, seat, {"type": "move", "choice": choice}))


def refused(state: GameState, seat: int, choice: Choice) -> str:
    """The error code of a move the rules refuse (the state is left as it was)."""
    with pytest.raises(engine.RuleViolation) as caught:
        engine.decide(state, seat, {"type": "move", "choice": choice})
    return caught.value.code


def undo(state: GameState, seat: int) -> list[Event]:
    return apply(state, engine.decide(state, seat, {"type": "undo"}))


def confirm(state: GameState, seat: int) -> list[Event]:
    return apply(state, engine.decide(state, seat, {"type": "confirm"}))


def confirm_all(state: GameState) -> list[Event]:
    events: list[Event] = []
    for seat in range(state.players):
        events += confirm(state, seat)
    return events


def options(state: GameState, seat: int) -> list[Choice]:
    return engine.options(state, seat).options


def score(state: GameState, seat: int) -> dict[str, Any]:
    """The live score breakdown of a seat, as its owner sees it."""
    return engine.sheet_view(state, seat, viewer=seat)["score"]


# --- choices, as the options list them -----------------------------------------------------


def write(combination: int, space: str, number: int, **extra: Any) -> Choice:
    return {
        "action": "write",
        "combination": combination,
        "space": space,
        "number": number,
        **extra,
    }


def use(step: str, **target: Any) -> Choice:
    """Use the action waiting as ``action.<name>`` (``robot=...``, ``plant=...``...)."""
    return {"action": step.removeprefix("action."), "effect": step, **target}


def draw_wall(marker: str, wall: str) -> Choice:
    return {"action": "wall", "effect": marker, "wall": wall}


def skip(step: str) -> Choice:
    return {"action": "skip", "effect": step}


def system_error(box: str) -> Choice:
    return {"action": "system_error", "box": box}


# --- sheets ------------------------------------------------------------------------------


def s(order: int) -> str:
    return f"traj.s{order:02d}"


def trajectory(**values: int | str) -> Marks:
    """Spaces by short name: ``trajectory(s01=1, s09="X")``."""
    return {f"traj.{name}": X if value == "X" else value for name, value in values.items()}


def walls(*positions: int) -> Marks:
    return {f"wall.{position:02d}": "line" for position in positions}


def energies(count: int) -> Marks:
    """The first ``count`` energies circled, the wall marker of each complete pair crossed."""
    marks: Marks = {}
    for energy in LAYOUT.energies[:count]:
        marks[energy] = "circle"
        if energy in LAYOUT.marker_completed_by:
            marks[LAYOUT.marker_completed_by[energy]] = "cross"
    return marks


def circled(*elements: str) -> Marks:
    return {element: "circle" for element in elements}


def crossed(*elements: str) -> Marks:
    return {element: "cross" for element in elements}


def station(number: int, *, robots: int = 0, plants: int = 0) -> Marks:
    """The first robots and plants of a station circled (no multiplier)."""
    raw = LAYOUT.stations[number - 1]
    return circled(*raw.robots[:robots], *raw.plants[:plants])


def errors(count: int) -> Marks:
    """The first ``count`` System Error boxes marked (the common system_error mark)."""
    return circled(*LAYOUT.error_boxes[:count])


def missions(**values: int) -> Marks:
    return {f"mission.{letter}": value for letter, value in values.items()}


def fill(*orders: int) -> Marks:
    """X in these spaces (complete a zone without caring for its numbers)."""
    return {s(order): X for order in orders}
