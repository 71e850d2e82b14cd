"""What adventure 6's rules give a reader beside the marks: a score and what a sheet draws."""

from typing import Literal, TypedDict


class VirusScore(TypedDict):
    """Adventure 6's score by area, then counts shown beside it, then ``total``."""

    missions: int
    plants: int
    water: int
    quarters: int
    infected: int
    system_errors: int
    campaign: int
    quarter_scores: dict[str, int]
    errors_crossed: int
    total: int


class VirusQuarter(TypedDict):
    evacuated: bool
    complete: bool
    quarantined: bool
    energies: int
    points: int
    infected: list[str]


class VirusVirus(TypedDict):
    """A virus released: its colour, its quarter, the spaces it infected, whether it spills."""

    colour: str
    quarter: str
    spread: list[str]
    spills: bool


class VirusDerived(TypedDict):
    quarters: dict[str, VirusQuarter]
    walkways: dict[str, Literal["open", "closed"]]
    viruses: list[VirusVirus]
    plant_track: int
    water_track: int
    available_wilds: list[str]
