"""What adventure 4's rules give a reader beside the marks: a score and what a sheet draws."""

from typing import Literal, TypedDict


class MineScore(TypedDict):
    """Adventure 4's score by area, then ``total``."""

    missions: int
    plants: int
    water: int
    pearls: int
    rubies: int
    astronaut: int
    planning: int
    system_errors: int
    campaign: int
    total: int


class MineSecondaryFactory(TypedDict):
    """A secondary factory: activated once its upgrade symbols are all marked."""

    symbols_left: list[str]
    activated: bool


class MineCentreFactory(TypedDict):
    """A factory of the centre: its track's value and how many of its boxes are filled."""

    symbols_left: list[str]
    upgraded: bool
    value: int
    filled: int


class MineResourceFactory(TypedDict):
    """A main resource factory: as a centre one, with its capacity and its filling bonus."""

    symbols_left: list[str]
    upgraded: bool
    value: int
    filled: int
    capacity: int
    filling_bonus: Literal["won", "lost", "open"]


class MineDerived(TypedDict):
    extracted_columns: list[str]
    columns_to_extract: list[str]
    factories: dict[str, MineSecondaryFactory | MineCentreFactory | MineResourceFactory]
