"""What adventure 2's rules give a reader beside the marks: a score and what a sheet draws."""

from typing import TypedDict


class JourneyScore(TypedDict):
    """Adventure 2's score by area, then counts shown beside it (stations' points, complete
    zones, System Errors crossed), then ``total``."""

    missions: int
    plants: int
    water: int
    longest_zone: int
    most_zones: int
    system_errors: int
    campaign: int
    stations: dict[str, int]
    complete_zones: int
    errors_crossed: int
    total: int


class JourneyZone(TypedDict):
    id: str
    spaces: list[str]
    length: int
    complete: bool
    stations: list[str]


class JourneyDerived(TypedDict):
    zones: list[JourneyZone]
    station_zones: dict[str, str]  # the zone each station's link space is in
    walls: list[str]
    available_wilds: list[str]
