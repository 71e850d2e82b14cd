"""What adventure 5's rules give a reader beside the marks: a score and what a sheet draws."""

from typing import Literal, TypedDict


class DomeScore(TypedDict):
    """Adventure 5's score by area, then counts shown beside it, then ``total``."""

    missions: int
    tower: int
    skyscrapers: int
    astronauts: int
    dome: int
    system_errors: int
    campaign: int
    tower_levels_by_symbols: dict[str, int]
    dome_unbuilt: int
    astronauts_crossed: int
    total: int


class DomeSkyscraper(TypedDict):
    marked: list[str]
    reachable: list[str]
    # each end bonus pair by its location: won high or low, high lost, or open
    bonuses: dict[str, Literal["high", "low", "high_lost", "open"]]


class DomeDome(TypedDict):
    splits: list[str]
    chain: list[str]
    built: list[str]
    buildable: list[str]
    unbuilt: int


class DomeDerived(TypedDict):
    skyscrapers: dict[str, DomeSkyscraper]
    tower: dict[str, list[str]]  # the symbols marked on each level
    dome: DomeDome
    tracks: dict[str, dict[str, int]]  # each track's values now
