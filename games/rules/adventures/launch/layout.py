"""The sheet of adventure 1, The Launch, read from its data file: floors, quarters and their
effects, the rocket column, System Error boxes and tie-break rockets."""

from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise
from typing import Any

from games.rules.core.layout import SheetLayout, track_boxes


@dataclass(frozen=True)
class Layout(SheetLayout):
    """The sheet of adventure 1, read from its data file."""

    adventure = 1
    zones_from_bottom = True  # floor 1 is the bottom floor of the sheet

    @cached_property
    def floors(self) -> dict[str, dict[str, Any]]:
        return {zone["id"]: zone for zone in self.raw["zones"]}

    @cached_property
    def quarters(self) -> dict[str, dict[str, Any]]:
        return {quarter["id"]: quarter for quarter in self.raw["quarters"]}

    @cached_property
    def floors_for_action(self) -> dict[str, tuple[str, ...]]:
        return {action: tuple(floors) for action, floors in self.raw["action_to_floors"].items()}

    @cached_property
    def inactive_rockets(self) -> tuple[dict[str, Any], ...]:
        return tuple(e for e in self.raw["elements"] if e["kind"] == "inactive_rocket")

    @cached_property
    def column_rockets(self) -> tuple[str, ...]:
        """The 31 rockets of the scoring column in crossing order (bottom line first)."""
        boxes = self.track_data["rocket_column"]["boxes"]
        return tuple(box["id"] for box in boxes if box["kind"] == "rocket")

    @cached_property
    def score_box_after(self) -> dict[str, str]:
        """The score box crossed with the last rocket of each line (the 150 box, after the
        135 box, ends no line and is never crossed)."""
        boxes = self.track_data["rocket_column"]["boxes"]
        ends = {}
        for before, box in pairwise(boxes):
            if box["kind"] == "score_box" and before["kind"] == "rocket":
                ends[before["id"]] = box["id"]
        return ends

    @cached_property
    def value_by_rockets(self) -> tuple[tuple[int, int], ...]:
        steps = self.raw["scoring"]["value_by_rockets"]
        return tuple((step["rockets_at_least"], step["value"]) for step in steps)

    @cached_property
    def error_boxes(self) -> tuple[str, ...]:
        return track_boxes(self.track_data["error_row"])

    @cached_property
    def tiebreak_rockets(self) -> tuple[str, ...]:
        return track_boxes(self.track_data["tiebreak_rockets"])

    @property
    def error_penalty(self) -> int:
        """Points lost per circled System Error not crossed off."""
        return int(self.raw["system_errors"]["penalty_each"])

    @cached_property
    def floor_spaces_for_action(self) -> dict[str, list[tuple[str, ...]]]:
        """The spaces of each floor an action's numbers go on, floor by floor."""
        return {
            action: [tuple(self.floors[floor]["spaces"]) for floor in floors]
            for action, floors in self.floors_for_action.items()
        }

    def quarter_of(self, space: str) -> str:
        return str(self.spaces[space]["quarter"])

    def floor_of(self, space: str) -> str:
        return str(self.spaces[space]["zone"])
