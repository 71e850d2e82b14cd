"""The general end conditions (common rules): checked for every seat at the end of a turn."""

from collections.abc import Collection
from typing import Any

from games.rules.common.missions import MISSION_BOXES
from games.rules.core.sheet import Marks, all_filled
from games.rules.core.state import GameState

REASONS = ("all_missions", "all_system_errors", "sheet_full")


def standard_end_reasons(state: GameState, *, spaces: Collection[str]) -> list[dict[str, Any]]:
    """The general end conditions met now, each with the seats that met it.

    A seat ends the game when it has all three missions, has marked every usable System Error
    box, or has filled every numbering space in ``spaces``.
    """
    met: dict[str, list[int]] = {reason: [] for reason in REASONS}
    for seat in range(state.players):
        sheet = state.sheet_of(seat)
        marks: Marks = sheet.marks
        if all_filled(marks, MISSION_BOXES):
            met["all_missions"].append(seat)
        if all_filled(marks, sheet.error_boxes):
            met["all_system_errors"].append(seat)
        if all_filled(marks, spaces):  # a frozenset or the keys of the layout's spaces
            met["sheet_full"].append(seat)
    return [{"reason": reason, "seats": seats} for reason, seats in met.items() if seats]
