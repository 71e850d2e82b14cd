"""What every sheet layout read from its data file has: numbering spaces and other elements."""

from dataclasses import dataclass
from functools import cached_property
from typing import Any


@dataclass(frozen=True)
class SheetLayout:
    """A sheet read from its data file; each adventure adds its own areas."""

    raw: dict[str, Any]

    @cached_property
    def spaces(self) -> dict[str, dict[str, Any]]:
        """The numbering spaces by id."""
        return {space["id"]: space for space in self.raw["spaces"]}

    @cached_property
    def elements(self) -> dict[str, dict[str, Any]]:
        """Every other element of the sheet by id (boxes, symbols, tanks, ...)."""
        return {element["id"]: element for element in self.raw["elements"]}
