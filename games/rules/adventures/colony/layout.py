"""The sheet of adventure 3, The Colony, read from its data file: the 6 x 6 building grid,
its row and column zones, quarters, tanks, antennas, tunnels, greenhouses and tracks."""

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from games.rules.core.layout import SheetLayout, track_boxes
from games.rules.core.schematic import Schematic
from games.rules.core.sheet import Marks, first_unmarked

# How many sets of drawn tunnels keep their network worked out (a bound on memory).
CONNECTED_CACHE_SIZE = 4096


@dataclass(frozen=True)
class Track:
    """A track crossed box by box; its current value is the first uncrossed box's."""

    id: str
    boxes: tuple[str, ...]
    values: tuple[int, ...]  # by number of boxes crossed, the printed final value last

    def crossed(self, marks: Marks) -> int:
        return sum(1 for box in self.boxes if box in marks)

    def next_box(self, marks: Marks) -> str | None:
        return first_unmarked(marks, self.boxes)

    def value(self, marks: Marks) -> int:
        """The lowest value still visible (spec section 10, reading 1)."""
        return self.values[self.crossed(marks)]


@dataclass(frozen=True)
class Layout(SheetLayout):
    """The sheet of adventure 3, read from its data file."""

    adventure = 3

    def lay_out(self) -> Schematic:
        """The numbering rows drawn as the grid stands on the sheet: row 6 at the top, each
        building in its column, so the pre-numbered buildings leave their gaps."""
        plan = super().lay_out()
        numbering, *others = plan.areas
        rows = sorted(numbering.rows, key=lambda row: -self.spaces[row.cells[0]]["row"])
        grid = tuple(
            replace(row, columns=tuple(self.spaces[cell]["col"] - 1 for cell in row.cells))
            for row in rows
        )
        return Schematic((replace(numbering, rows=grid), *others))

    # --- the building grid ---------------------------------------------------------------

    @cached_property
    def buildings(self) -> tuple[str, ...]:
        """All 36 grid positions."""
        return tuple(position["id"] for position in self.raw["grid"]["positions"])

    @cached_property
    def prenumbered(self) -> frozenset[str]:
        """The rocket, the observatory and the two printed X buildings."""
        return frozenset(
            e["id"] for e in self.raw["elements"] if e["kind"] == "prenumbered_building"
        )

    @cached_property
    def rocket(self) -> str:
        return str(self.raw["network"]["root"])

    @cached_property
    def observatory(self) -> str:
        return str(
            next(
                e["id"]
                for e in self.raw["elements"]
                if e["kind"] == "prenumbered_building" and e["subtype"] == "observatory"
            )
        )

    def is_filled(self, marks: Marks, building: str) -> bool:
        """A building holds a number or an X, or is printed as numbered."""
        return building in self.prenumbered or building in marks

    def all_filled(self, marks: Marks, buildings: Iterable[str]) -> bool:
        """Every one of ``buildings`` is filled (the printed ones always are)."""
        return all(map(marks.__contains__, self._to_fill(tuple(buildings))))

    def _to_fill(self, buildings: tuple[str, ...]) -> tuple[str, ...]:
        """The buildings of a group that are not printed as numbered (worked out once)."""
        found = self._fillable.get(buildings)
        if found is None:
            found = self._fillable[buildings] = tuple(
                building for building in buildings if building not in self.prenumbered
            )
        return found

    @cached_property
    def _fillable(self) -> dict[tuple[str, ...], tuple[str, ...]]:
        return {}

    @cached_property
    def zones(self) -> dict[str, tuple[str, ...]]:
        """The 12 zones (rows, then columns), spaces in ascending order."""
        return self.zone_spaces_by_id

    def zones_of(self, space: str) -> tuple[str, ...]:
        """The row zone and the column zone of a space."""
        return tuple(self.spaces[space]["zone"])

    @cached_property
    def rows(self) -> dict[int, tuple[str, ...]]:
        """Every grid position of each row (1 = bottom), the printed ones included."""
        return self._lines("row")

    @cached_property
    def columns(self) -> dict[int, tuple[str, ...]]:
        """Every grid position of each column (1 = left), the printed ones included."""
        return self._lines("col")

    def _lines(self, axis: str) -> dict[int, tuple[str, ...]]:
        lines: dict[int, list[str]] = {}
        for position in self.raw["grid"]["positions"]:
            lines.setdefault(int(position[axis]), []).append(position["id"])
        return {index: tuple(ids) for index, ids in sorted(lines.items())}

    # --- quarters ------------------------------------------------------------------------

    @cached_property
    def quarters(self) -> dict[str, dict[str, Any]]:
        return {quarter["id"]: quarter for quarter in self.raw["quarters"]}

    def quarter_of(self, space: str) -> str:
        return str(self.spaces[space]["quarter"])

    def quarter_spaces(self, quarter: str) -> tuple[str, ...]:
        return tuple(self.quarters[quarter]["spaces"])

    def greenhouse_value(self, greenhouse: str) -> int:
        return int(self.elements[greenhouse]["value"])

    @cached_property
    def greenhouses(self) -> tuple[str, ...]:
        return tuple(e["id"] for e in self.raw["elements"] if e["kind"] == "greenhouse")

    @cached_property
    def tanks(self) -> tuple[str, ...]:
        return tuple(e["id"] for e in self.raw["elements"] if e["kind"] == "water_tank")

    @cached_property
    def antennas(self) -> dict[str, str]:
        """Each antenna and the building it stands on."""
        return {
            e["id"]: e["links"][0] for e in self.raw["elements"] if e["kind"] == "antenna"
        }

    @cached_property
    def antenna_of(self) -> dict[str, str]:
        """The antenna standing on each building that has one."""
        return {building: antenna for antenna, building in self.antennas.items()}

    @cached_property
    def quarter_bonus_value(self) -> dict[str, int]:
        return {
            e["id"]: int(e["value"]) for e in self.raw["elements"] if e["kind"] == "quarter_bonus"
        }

    # --- tunnels -------------------------------------------------------------------------

    @cached_property
    def tunnels(self) -> dict[str, tuple[str, str]]:
        """Each of the 60 tunnel segments and the two buildings it joins."""
        return self.joins("tunnel")

    @cached_property
    def prebuilt_tunnels(self) -> frozenset[str]:
        return frozenset(self.raw["network"]["prebuilt_tunnels"])

    def is_drawn(self, marks: Marks, tunnel: str) -> bool:
        return tunnel in self.prebuilt_tunnels or tunnel in marks

    def drawn_tunnels(self, marks: Marks) -> list[str]:
        return [tunnel for tunnel in self.tunnels if self.is_drawn(marks, tunnel)]

    @cached_property
    def tunnels_at(self) -> dict[str, tuple[tuple[str, str], ...]]:
        """For each building, its tunnels and the building at their other end."""
        ends: dict[str, list[tuple[str, str]]] = {building: [] for building in self.buildings}
        for tunnel, (one, other) in self.tunnels.items():
            ends[one].append((tunnel, other))
            ends[other].append((tunnel, one))
        return {building: tuple(links) for building, links in ends.items()}

    @cached_property
    def tunnel_set(self) -> frozenset[str]:
        return frozenset(self.tunnels)

    def connected(self, marks: Marks) -> frozenset[str]:
        """The buildings a chain of drawn tunnels links to the rocket."""
        drawn = self.tunnel_set.intersection(marks)
        found = self._connected_by_tunnels.get(drawn)
        if found is None:
            if len(self._connected_by_tunnels) >= CONNECTED_CACHE_SIZE:
                self._connected_by_tunnels.clear()
            found = self._connected_by_tunnels[drawn] = frozenset(self._reached(marks))
        return found

    @cached_property
    def _connected_by_tunnels(self) -> dict[frozenset[str], frozenset[str]]:
        """The buildings each set of drawn tunnels links to the rocket, once worked out (a bot
        reads the network of one sheet option after option)."""
        return {}

    def _reached(self, marks: Marks) -> set[str]:
        reached = {self.rocket}
        frontier = [self.rocket]
        while frontier:
            building = frontier.pop()
            for tunnel, other in self.tunnels_at[building]:
                if other not in reached and self.is_drawn(marks, tunnel):
                    reached.add(other)
                    frontier.append(other)
        return reached

    # --- tracks --------------------------------------------------------------------------

    @cached_property
    def tracks(self) -> dict[str, Track]:
        """The crossable tracks with a value: plants, water, antennas, planning."""
        return {
            raw["id"]: Track(raw["id"], track_boxes(raw), tuple(map(int, raw["values_by_boxes_crossed"])))
            for raw in self.raw["tracks"]
            if "values_by_boxes_crossed" in raw
        }

    @cached_property
    def multiplier_tracks(self) -> tuple[str, ...]:
        """The three tracks Energy raises."""
        return tuple(
            raw["id"] for raw in self.raw["tracks"] if raw["kind"] == "multiplier"
        )

    @cached_property
    def track_of_box(self) -> dict[str, str]:
        return {box: track.id for track in self.tracks.values() for box in track.boxes}

    @cached_property
    def planning(self) -> Track:
        return self.tracks["track.planning"]

    @cached_property
    def astronaut_symbols(self) -> tuple[str, ...]:
        raw = next(t for t in self.raw["tracks"] if t["id"] == "track.astronauts")
        return track_boxes(raw)

    @cached_property
    def astronaut_awards(self) -> tuple[int, ...]:
        raw = next(t for t in self.raw["tracks"] if t["id"] == "track.astronauts")
        return tuple(int(points) for points in raw["rank_points"])

    @cached_property
    def error_boxes(self) -> tuple[str, ...]:
        return tuple(box["id"] for box in self.raw["system_errors"]["boxes"])

    @cached_property
    def error_penalty(self) -> tuple[int, ...]:
        """The penalty by number of System Error boxes marked."""
        return tuple(int(v) for v in self.raw["system_errors"]["penalty_by_crossed"])

    @cached_property
    def markable(self) -> frozenset[str]:
        """Every id of the sheet that is not a numbering space nor a printed building."""
        boxes = {box for track in self.tracks.values() for box in track.boxes}
        return (
            frozenset(self.elements) - self.prenumbered
            | boxes
            | set(self.astronaut_symbols)
            | set(self.error_boxes)
        )
