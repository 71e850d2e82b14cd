"""Per-seat setup modifiers: how campaign card effects change a sheet before turn 1.

Kinds: ``start_marks`` (marks already on the sheet), ``bonus_points`` (a separate campaign
line of the score) and ``system_errors`` (fewer usable System Error boxes: a delta of -N
strikes the last N boxes of the printed row).
"""

from collections.abc import Callable, Iterable
from typing import Any, TypedDict

from games.rules.core.errors import RuleViolation, shown
from games.rules.core.sheet import Marks


class SheetSetup(TypedDict):
    error_boxes: list[str]
    marks: Marks
    bonus_points: int

MarkProblem = Callable[[Any, Any], RuleViolation | None]


def validate(
    modifiers: Iterable[Any], *, error_boxes: int, mark_problem: MarkProblem
) -> list[tuple[str, Any]]:
    """Refuse a modifier the sheet cannot take; return every starting mark, in order.

    ``mark_problem(element, mark)`` says why a starting mark does not fit the sheet, or None.
    """
    start_marks: list[tuple[str, Any]] = []
    for modifier in modifiers:
        kind = modifier.get("kind") if isinstance(modifier, dict) else None
        if kind == "bonus_points":
            points = modifier.get("points")
            if not isinstance(points, int) or isinstance(points, bool):
                raise RuleViolation("invalid_modifier", "bonus_points needs whole points.")
        elif kind == "system_errors":
            delta = modifier.get("delta")
            if not isinstance(delta, int) or not -(error_boxes - 1) <= delta <= 0:
                raise RuleViolation(
                    "invalid_modifier",
                    "This sheet prints %(error_boxes)s System Error boxes: a delta goes from %(lowest)s "
                    "to 0.",
                    error_boxes=error_boxes,
                    lowest=-(error_boxes - 1),
                )
        elif kind == "start_marks":
            entries = modifier.get("marks")
            if not isinstance(entries, list):
                raise RuleViolation("invalid_modifier", "start_marks needs a list of marks.")
            for entry in entries:
                element = entry.get("element") if isinstance(entry, dict) else None
                mark = entry.get("mark") if isinstance(entry, dict) else None
                problem = mark_problem(element, mark)
                if problem is not None:
                    raise problem
                start_marks.append((str(element), mark))
        else:
            raise RuleViolation(
                "invalid_modifier",
                "Unknown modifier kind %(kind)s.",
                kind=shown(kind),
            )
    return start_marks


def sheet_from(
    modifiers: Iterable[dict[str, Any]], *, error_boxes: tuple[str, ...], marks: Marks | None = None
) -> SheetSetup:
    """The setup of a sheet: ``marks`` (what it prints marked) with the (already validated)
    modifiers applied, the System Error boxes it keeps and its campaign points."""
    sheet: Marks = dict(marks or {})
    boxes = error_boxes
    bonus = 0
    for modifier in modifiers:
        if modifier["kind"] == "start_marks":
            for entry in modifier["marks"]:
                sheet[entry["element"]] = entry["mark"]
        elif modifier["kind"] == "system_errors":
            boxes = boxes[: len(boxes) + modifier["delta"]]
        elif modifier["kind"] == "bonus_points":
            bonus += modifier["points"]
    return {"error_boxes": list(boxes), "marks": sheet, "bonus_points": bonus}
