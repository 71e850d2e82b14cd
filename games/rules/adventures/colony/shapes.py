"""What adventure 3's rules give a reader beside the marks: a score and what a sheet draws."""

from typing import TypedDict


class ColonyScore(TypedDict):
    """Adventure 3's score by area, then ``total``."""

    missions: int
    plants: int
    water: int
    antennas: int
    quarters: int
    astronauts: int
    planning: int
    system_errors: int
    campaign: int
    total: int


class ColonyDerived(TypedDict):
    tunnels: list[str]
    connected_buildings: list[str]
    observatory_connected: bool
    buildable_tunnels: list[str]
    complete_quarters: list[str]
    plants: int
    astronauts: int
    multipliers: dict[str, int]  # by multiplier track
    planning_penalty: int
