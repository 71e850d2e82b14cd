"""General actions shared by several adventures."""

from collections.abc import Callable, Sequence
from typing import Protocol

from games.rules.core.sheet import MAX_NUMBER, MIN_NUMBER

ASTRONAUT = "astronaut"
ASTRONAUT_SHIFTS = (-2, -1, 0, 1, 2)


class NumberAndAction(Protocol):
    """A combination, or anything else pairing a number with an action (a solo pair)."""

    @property
    def number(self) -> int: ...

    @property
    def action(self) -> str: ...


def astronaut_numbers(number: int) -> list[int]:
    """The numbers an Astronaut action can make of ``number``: -2 to +2, within 0-17."""
    return [
        number + shift
        for shift in ASTRONAUT_SHIFTS
        if MIN_NUMBER <= number + shift <= MAX_NUMBER
    ]


def candidate_numbers(combination: NumberAndAction, *, astronaut_modifier: bool) -> list[int]:
    """The numbers a combination can write: its own, or with an Astronaut action (where the
    adventure gives it the ±2 modifier) every number the modifier reaches."""
    if astronaut_modifier and combination.action == ASTRONAUT:
        return astronaut_numbers(combination.number)
    return [combination.number]


def writable_numbers(
    combination: NumberAndAction,
    fits: Callable[[int, str], bool],
    *,
    astronaut_modifier: bool,
) -> list[int]:
    """The candidate numbers of ``combination`` that ``fits(number, action)`` accepts: a
    number fits when some empty space of the sheet legally takes it."""
    return [
        number
        for number in candidate_numbers(combination, astronaut_modifier=astronaut_modifier)
        if fits(number, combination.action)
    ]


def writable_combinations(
    combinations: Sequence[NumberAndAction],
    fits: Callable[[int, str], bool],
    *,
    astronaut_modifier: bool = True,
) -> list[int]:
    """Indexes of the combinations that can be written (compulsory-placement rule): a
    combination is writable when any of its candidate numbers fits a legal space. None
    writable means the player takes a System Error."""
    return [
        index
        for index, combination in enumerate(combinations)
        if writable_numbers(combination, fits, astronaut_modifier=astronaut_modifier)
    ]
