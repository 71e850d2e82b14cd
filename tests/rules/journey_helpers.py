"""Adventure 2 shorthands on top of ``tests.rules.playing``: choices and sheets."""

from collections.abc import Mapping
from typing import Any

from games.rules.adventures.journey.rules import JourneyRules
from games.rules.core.sheet import Marks, X
from games.rules.engine import GameState
from tests.rules import playing
from tests.rules.playing import (
    Choice,
    circled,
    confirm,
    confirm_all,
    crossed,
    move,
    options,
    refused,
    reveal,
    score,
    skip,
    start_game,
    system_error,
    undo,
)

RULES = JourneyRules()
LAYOUT = RULES.layout


def start(players: int, *, seed: int = 1, missions: Mapping[str, int] | None = None) -> GameState:
    """A freshly started Adventure 2 game (turn 1 flipped)."""
    return start_game(2, players, seed=seed, missions=missions)


def set_sheet(state: GameState, seat: int, *parts: Marks) -> None:
    """Give a seat this sheet (over the printed e01), as it stands at the start of the turn."""
    marks: Marks = dict(LAYOUT.printed_marks)
    for part in parts:
        marks.update(part)
    playing.set_sheet(state, seat, marks)


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


__all__ = [
    "LAYOUT", "RULES", "circled", "confirm", "confirm_all", "crossed", "draw_wall", "energies",
    "errors", "fill", "missions", "move", "options", "refused", "reveal", "s", "score",
    "set_sheet", "skip", "start", "station", "system_error", "trajectory", "undo", "use",
    "walls", "write",
]  # fmt: skip
