"""What every sheet layout read from its data file has: numbering spaces and other elements."""

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

from games.rules.core.schematic import MARKS, ZONE, Area, Row, Schematic, label
from games.rules.core.sheet import Marks


@dataclass(frozen=True)
class SheetLayout:
    """A sheet read from its data file; each adventure adds its own areas."""

    # The adventure whose data file holds this sheet.
    adventure: ClassVar[int] = 0
    # Whether the data file lists the numbering zones from the bottom of the printed sheet up
    # (they are drawn top first, as the sheet reads).
    zones_from_bottom: ClassVar[bool] = False
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
    def elements_by_kind(self) -> dict[str, tuple[str, ...]]:
        """The ids of the elements of each kind, in the data file's order."""
        found: dict[str, list[str]] = {}
        for element in self.raw["elements"]:
            found.setdefault(element["kind"], []).append(element["id"])
        return {kind: tuple(ids) for kind, ids in found.items()}

    @cached_property
    def zone_spaces(self) -> list[tuple[str, ...]]:
        """The numbering zones of the data file, each as its spaces in ascending order."""
        return [tuple(zone["spaces"]) for zone in self.raw["zones"]]

    def joins(self, kind: str) -> dict[str, tuple[str, str]]:
        """The elements of ``kind`` that join two others (tunnels, airlocks), each with the two
        it joins."""
        return {e["id"]: (e["links"][0], e["links"][1]) for e in self.raw["elements"] if e["kind"] == kind}

    @cached_property
    def zone_spaces_by_id(self) -> dict[str, tuple[str, ...]]:
        """The numbering zones of the data file by id, each as its spaces in ascending order."""
        return {zone["id"]: tuple(zone["spaces"]) for zone in self.raw["zones"]}

    @cached_property
    def track_data(self) -> dict[str, dict[str, Any]]:
        """The tracks of the data file by id, as it gives them."""
        return {track["id"]: track for track in self.raw.get("tracks", [])}

    @cached_property
    def markable(self) -> frozenset[str]:
        """The ids a setup modifier may mark besides the numbering spaces."""
        return frozenset(self.elements)

    @cached_property
    def printed_marks(self) -> Marks:
        """What the sheet prints already marked (none on most sheets)."""
        return {}

    @cached_property
    def schematic(self) -> Schematic:
        """The sheet as rows to draw (see ``lay_out``), worked out once."""
        return self.lay_out()

    def lay_out(self) -> Schematic:
        """The sheet as rows to draw, laid out from its data: the numbering zones, the top one
        of the printed sheet first (a zone all of whose spaces another zone already shows is
        left out), the tracks, the System Error boxes, then every other element grouped by
        kind, in the order of the data file. A sheet that reads better otherwise overrides
        this, starting from it."""
        placed: set[str] = set()

        def fresh(label_text: str, ids: Iterable[str], kind: str = MARKS) -> list[Row]:
            cells = [cell for cell in dict.fromkeys(ids) if cell not in placed]
            placed.update(cells)
            return [Row(label_text, tuple(cells), kind)] if cells else []

        zones = [row for zone in self.raw["zones"] for row in fresh(zone["id"], zone["spaces"], ZONE)]
        if self.zones_from_bottom:
            zones.reverse()
        tracks = [
            row
            for track in self.raw.get("tracks", [])
            for row in fresh(track["id"], list(track_boxes(track)))
        ]
        tracks += fresh("system errors", list(self.error_boxes))
        symbols = [row for kind, ids in self.elements_by_kind.items() for row in fresh(label(kind), ids)]
        areas = [
            Area("Numbering", tuple(zones)), Area("Tracks", tuple(tracks)), Area("Symbols", tuple(symbols))
        ]
        return Schematic(tuple(area for area in areas if area.rows))

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

    @property
    def wild_reward(self) -> dict[str, str]:
        """The wild action that crossing a track symbol circles, by symbol (when it circles one)."""
        raise NotImplementedError


def track_boxes(track: dict[str, Any]) -> tuple[str, ...]:
    """A track's boxes in the order its data lists them, by id (the data gives a box as its id,
    or as an object with its id)."""
    return tuple(str(box["id"]) if isinstance(box, dict) else str(box) for box in track.get("boxes", ()))
