"""General actions shared by several adventures."""

from games.rules.core.sheet import MAX_NUMBER, MIN_NUMBER

ASTRONAUT = "astronaut"
ASTRONAUT_SHIFTS = (-2, -1, 0, 1, 2)


def astronaut_numbers(number: int) -> list[int]:
    """The numbers an Astronaut action can make of ``number``: -2 to +2, within 0-17."""
    return [
        number + shift
        for shift in ASTRONAUT_SHIFTS
        if MIN_NUMBER <= number + shift <= MAX_NUMBER
    ]

