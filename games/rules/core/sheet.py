"""Marks on named sheet elements and the ordering rule of numbering zones.

A sheet is a mapping from element id to its mark: an ``int`` for a written number, ``"X"``
for an X, or a word for other marks (``"circle"``, ``"cross"``, ``"fill"``, ``"used"``,
``"triggered"``, ``"complete"``). Unmarked elements are absent.
"""

from collections.abc import Iterable, Sequence

from games.rules.core.errors import RuleViolation

Mark = int | str
Marks = dict[str, Mark]

X = "X"
CIRCLE = "circle"
CROSS = "cross"
LINE = "line"
MIN_NUMBER = 0
MAX_NUMBER = 17
# Collections of ids that compare as sets with the keys of a sheet's marks, at C speed.
SET_LIKE: tuple[type, ...] = (frozenset, set, type({}.keys()))


def is_filled(marks: Marks, space: str) -> bool:
    """A space is filled when it holds a number or an X."""
    return space in marks


def all_filled(marks: Marks, spaces: Iterable[str]) -> bool:
    """Every one of ``spaces`` holds a mark."""
    if isinstance(spaces, SET_LIKE):
        return marks.keys() >= spaces  # type: ignore[operator]
    return all(map(marks.__contains__, spaces))


def first_unmarked(marks: Marks, boxes: Iterable[str]) -> str | None:
    """The first of ``boxes`` (a track, in order) with no mark yet, or None when all are marked."""
    return next((box for box in boxes if box not in marks), None)


def placement_problem(
    marks: Marks, zone: Sequence[str], space: str, number: int, *, zone_name: str
) -> RuleViolation | None:
    """Why ``number`` cannot go in ``space`` of ``zone`` (spaces in ascending order), or None.

    A number goes in an empty space, never repeats a number of its zone, and keeps the
    zone strictly ascending; X marks are ignored by the ordering.
    """
    if space in marks:
        return RuleViolation(
            "space_not_empty",
            "Space %(space)s is already filled.",
            space=space,
        )
    if not MIN_NUMBER <= number <= MAX_NUMBER:
        return RuleViolation(
            "number_out_of_range",
            "%(number)s is not a number you can write.",
            number=number,
        )
    position = zone.index(space)
    for index, other in enumerate(zone):
        value = marks.get(other)
        if not isinstance(value, int):
            continue
        if value == number:
            return RuleViolation(
                "number_already_in_zone",
                "%(number)s is already written on %(zone_name)s.",
                number=number,
                zone_name=zone_name,
            )
        if (index < position and value > number) or (index > position and value < number):
            return RuleViolation(
                "space_not_ascending",
                "%(number)s in %(space)s would break the ascending order of %(zone_name)s (%(value)s is in "
                "%(other)s).",
                number=number,
                space=space,
                zone_name=zone_name,
                value=value,
                other=other,
            )
    return None


def open_runs(marks: Marks, zone: Sequence[str]) -> list[tuple[str, int, int]]:
    """Every empty space of ``zone`` with the open range (low, high) of the numbers it takes:
    above every number before it and below every number after it.

    One pass over the zone gives what ``placement_problem`` would answer for any number: a
    number fits an empty space exactly when ``low < number < high`` (and so repeats no number of
    the zone, every other number lying at or outside the range).
    """
    runs: list[tuple[str, int, int]] = []
    low = MIN_NUMBER - 1
    empties: list[str] = []
    for space in zone:
        value = marks.get(space)
        if value is None:
            empties.append(space)
        elif type(value) is int:
            if empties:
                runs += [(empty, low, value) for empty in empties]
                empties = []
            low = value
    if empties:
        runs += [(empty, low, MAX_NUMBER + 1) for empty in empties]
    return runs


def open_gaps(marks: Marks, zone: Sequence[str]) -> list[tuple[int, int, tuple[str, ...]]]:
    """The runs of empty spaces of ``zone`` between two numbers, each with the open range
    (low, high) of the numbers its spaces take (as ``open_runs`` gives it)."""
    gaps: dict[tuple[int, int], list[str]] = {}
    for space, low, high in open_runs(marks, zone):
        gaps.setdefault((low, high), []).append(space)
    return [(low, high, tuple(spaces)) for (low, high), spaces in gaps.items()]


def open_ranges(marks: Marks, zones: Iterable[Sequence[str]]) -> dict[str, tuple[int, int]]:
    """The open range of every empty space of ``zones`` (as ``open_runs`` gives it); a space
    in several zones takes the numbers all of them allow."""
    ranges: dict[str, tuple[int, int]] = {}
    for zone in zones:
        low = MIN_NUMBER - 1
        empties: list[str] = []
        for space in (*zone, None):
            value = MAX_NUMBER + 1 if space is None else marks.get(space)
            if value is None:
                empties.append(space)  # type: ignore[arg-type]
            elif type(value) is int:
                for empty in empties:
                    known = ranges.get(empty)
                    if known is None:
                        ranges[empty] = (low, value)
                    else:
                        ranges[empty] = (
                            low if low > known[0] else known[0],
                            value if value < known[1] else known[1],
                        )
                empties = []
                low = value
    return ranges
