"""What adventure 8's rules give a reader beside the marks: a score and what a sheet draws."""

from typing import Literal, NotRequired, TypedDict

from games.rules.core.sheet import Mark


class BattleScore(TypedDict):
    """A player's score in adventure 8: its missions, its side of each of its two sheets and
    its campaign points, then the sheets and its System Errors, then ``total``."""

    missions: int
    left: int
    right: int
    campaign: int
    left_sheet: int
    right_sheet: int
    system_errors_marked: int
    total: int


class BattleSideScore(TypedDict):
    """The points of one side of a shared sheet, the planets it controls by type and its
    multipliers."""

    seat: int | Literal["astra"]  # the seat owning the side ("astra": ASTRA's, solo)
    plants: int
    water: int
    green: int
    blue: int
    grey: int
    planning: int
    system_errors: int
    total: int
    controlled: dict[str, int]
    multipliers: dict[str, int]


class BattleSheetScore(TypedDict):
    """A shared sheet's score: each side's."""

    S: BattleSideScore
    N: BattleSideScore


class BattlePlanet(TypedDict):
    type: str
    accepts: list[int]
    filled: int
    spaces: int
    next_space: str | None
    insignias: dict[str, int]
    moon_open: bool
    complete: bool
    flag: str
    control: str
    leader: str
    plant_symbols_left: int
    water_symbols_left: int


class BattleAsteroids(TypedDict):
    claimed: dict[str, list[str]]
    next: dict[str, str | None]
    free: int


class BattleTrack(TypedDict):
    crossed: int
    value: int


class BattleErrors(TypedDict):
    crossed: int
    usable: int
    penalty: int


class BattleAstronauts(TypedDict):
    blank: int
    circled: int
    crossed: int


class BattlePanel(TypedDict):
    """A side's panel: its tracks, System Errors and astronauts (the S side: its missions and
    campaign points too)."""

    seat: int | Literal["astra"]  # the seat owning the side ("astra": ASTRA's, solo)
    plant: BattleTrack
    water: BattleTrack
    green: BattleTrack
    blue: BattleTrack
    grey: BattleTrack
    planning: BattleTrack
    system_errors: BattleErrors
    astronauts: BattleAstronauts
    missions: NotRequired[dict[str, Mark | None]]
    campaign: NotRequired[int]


class BattlePanels(TypedDict):
    S: BattlePanel
    N: BattlePanel


class BattleDerived(TypedDict):
    planets: dict[str, BattlePlanet]
    asteroids: BattleAsteroids
    panels: BattlePanels
