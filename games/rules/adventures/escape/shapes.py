"""What adventure 7's rules give a reader beside the marks: a score and what a sheet draws."""

from typing import Literal, TypedDict


class EscapeScore(TypedDict):
    """Adventure 7's score by area, then each ship's points, then ``total``."""

    missions: int
    greenhouses: int
    modules: int
    planning: int
    system_errors: int
    campaign: int
    greenhouse_by_ship: dict[str, int]
    modules_by_ship: dict[str, int]
    total: int


class EscapeGreenhouse(TypedDict):
    numbered: bool
    plants: int
    x2: Literal["won", "lost", "open"]
    multiplier: int
    points: int


class EscapeShip(TypedDict):
    greenhouse: EscapeGreenhouse
    reactors: int
    module_value: int
    water_tanks: dict[str, bool]
    complete_modules: list[str]
    module_points: int


class EscapeDerived(TypedDict):
    accessible_blocks: list[str]
    active_airlocks: list[str]
    activatable_airlocks: list[str]
    ships: dict[str, EscapeShip]
    available_wilds: list[str]
    planning_penalty: int
