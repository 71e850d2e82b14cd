"""A sheet as a schematic to draw: areas of rows, each row a line of named elements.

The schematic is laid out from an adventure's layout data (``SheetLayout.schematic``): its
numbering zones as rows of boxes that take numbers, its tracks and its other elements as rows
of marks. It says where each element goes, never what a mark means: a drawing puts each sheet's
marks on it by element id. An adventure whose sheet reads better another way overrides
``schematic`` on its layout (adventure 8 will draw the two sides of a shared sheet).
"""

from dataclasses import dataclass

# What a row holds: numbering spaces (a number or an X each) or other elements (marks).
ZONE = "zone"
MARKS = "marks"


@dataclass(frozen=True)
class Row:
    """One line of elements, in the order they stand on the sheet. ``columns``, when given,
    places each element in a column of a grid (rows of one area then line up)."""

    label: str
    cells: tuple[str, ...]
    kind: str = MARKS
    columns: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Area:
    title: str
    rows: tuple[Row, ...]


@dataclass(frozen=True)
class Schematic:
    areas: tuple[Area, ...]

    def ids(self) -> frozenset[str]:
        """Every element the schematic places."""
        return frozenset(cell for area in self.areas for row in area.rows for cell in row.cells)


def label(identifier: str) -> str:
    """How a data id reads as a row's name: ``active_rocket`` -> ``active rocket``."""
    return identifier.replace("_", " ")
