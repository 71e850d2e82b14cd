"""The general end conditions (common rules): checked for every seat at the end of a turn."""

from collections.abc import Callable, Collection
from typing import Any

from games.rules.missions import LETTERS
from games.rules.sheet import all_filled
from games.rules.state import GameState, Sheet


def standard_end_reasons(state: GameState, *, spaces: Collection[str]) -> list[dict[str, Any]]:
    """The general end conditions met now, each with the seats that met it.

    A seat ends the game when it has all three missions, has marked every usable System Error
    box, or has filled every numbering space in ``spaces``.
    """
    checks: dict[str, Callable[[Sheet], bool]] = {
        "all_missions": lambda s: all(f"mission.{letter}" in s.marks for letter in LETTERS),
        "all_system_errors": lambda s: all_filled(s.marks, s.error_boxes),
        "sheet_full": lambda s: all_filled(s.marks, spaces),
    }
    reasons = []
    for reason, holds in checks.items():
        seats = [seat for seat in range(state.players) if holds(state.sheet_of(seat))]
        if seats:
            reasons.append({"reason": reason, "seats": seats})
    return reasons
