"""A sheet as a schematic to draw: areas of rows, each row a line of named elements.

The schematic is laid out from an adventure's layout data (``SheetLayout.schematic``): its
numbering zones as rows of boxes that take numbers, its tracks and its other elements as rows
of marks. It says where each element goes, never what a mark means: a drawing puts each sheet's
marks on it by element id. An adventure whose sheet reads better another way overrides
``schematic`` on its layout: the Colony draws its grid, The Battle the two side panels of a
shared sheet apart (areas with a ``side``) around the planets and the asteroid field they share.
"""

from dataclasses import dataclass

# What a row holds: numbering spaces (a number or an X each) or other elements (marks).
ZONE = "zone"
MARKS = "marks"


@dataclass(frozen=True)
class Row:
    """One line of elements, in the order they stand on the sheet. ``columns``, when given,
    places each element in a column of a grid (rows of one area then line up); ``captions``,
    what is printed under each element (a track's values; by default what tells the ids
    apart); ``kinds``, each element's kind when the row holds numbering spaces and other
    elements both (a planet with its moon and flag). A label's second line, after a newline,
    says more about the row."""

    label: str
    cells: tuple[str, ...]
    kind: str = MARKS
    columns: tuple[int, ...] | None = None
    captions: tuple[str, ...] | None = None
    kinds: tuple[str, ...] | None = None

    def kind_of(self, index: int) -> str:
        """The kind of the row's element at ``index``."""
        return self.kind if self.kinds is None else self.kinds[index]


@dataclass(frozen=True)
class Area:
    """A titled group of rows; ``side`` names the side of a shared sheet whose panel it is
    (adventure 8: ``S`` or ``N``), drawn with its owner and its part of the score."""

    title: str
    rows: tuple[Row, ...]
    side: str | None = None


@dataclass(frozen=True)
class Schematic:
    areas: tuple[Area, ...]

    def ids(self) -> frozenset[str]:
        """Every element the schematic places."""
        return frozenset(cell for area in self.areas for row in area.rows for cell in row.cells)


def label(identifier: str) -> str:
    """How a data id reads as a row's name: ``active_rocket`` -> ``active rocket``."""
    return identifier.replace("_", " ")
