"""What every sheet layout read from its data file has: numbering spaces and other elements."""

from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

from games.rules.sheet import Marks


@dataclass(frozen=True)
class SheetLayout:
    """A sheet read from its data file; each adventure adds its own areas."""

    # The adventure whose data file holds this sheet.
    adventure: ClassVar[int] = 0
    raw: dict[str, Any]

    @cached_property
    def spaces(self) -> dict[str, dict[str, Any]]:
        """The numbering spaces by id."""
        return {space["id"]: space for space in self.raw["spaces"]}

    @cached_property
    def elements(self) -> dict[str, dict[str, Any]]:
        """Every other element of the sheet by id (boxes, symbols, tanks, ...)."""
        return {element["id"]: element for element in self.raw["elements"]}

    @cached_property
    def zone_spaces(self) -> list[tuple[str, ...]]:
        """The numbering zones of the data file, each as its spaces in ascending order."""
        return [tuple(zone["spaces"]) for zone in self.raw["zones"]]

    @cached_property
    def markable(self) -> frozenset[str]:
        """The ids a setup modifier may mark besides the numbering spaces."""
        return frozenset(self.elements)

    @cached_property
    def printed_marks(self) -> Marks:
        """What the sheet prints already marked (none on most sheets)."""
        return {}

    @property
    def error_boxes(self) -> tuple[str, ...]:
        """The System Error boxes, in the order they are marked."""
        raise NotImplementedError

    @property
    def error_penalty(self) -> Any:
        """Points lost by the number of System Error boxes marked."""
        raise NotImplementedError


class WildLayout(SheetLayout):
    """A sheet with wild actions (adventures 2, 6, 7): the symbols circled to use later, and
    the astronaut track whose use some of them follow."""

    @property
    def wilds(self) -> tuple[str, ...]:
        """The wild action boxes, in the order they are circled."""
        raise NotImplementedError

    @property
    def astronaut_track(self) -> tuple[str, ...]:
        """The astronaut symbols, in the order they are crossed."""
        raise NotImplementedError
