"""The sheet of adventure 6, The Virus, read from its data file: floors cut into quarters, the
walkways between quarters, the viruses and their targets, the plant and water tracks with their
rows, activation and propagation symbols, and the astronaut and planning pairs."""

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from games.rules.core.layout import WildLayout, track_boxes
from games.rules.core.sheet import CIRCLE, Marks


@dataclass(frozen=True)
class Quarter:
    """A quarter of 5 housing spaces: its energies, plants, tank, virus target and walkways."""

    id: str
    floor: int
    spaces: tuple[str, ...]
    energies: tuple[str, ...]
    plants: tuple[str, ...]
    tank: str | None
    # The virus drawn in the quarter (a colour, "empty" for a grey candidate), or None.
    target: str | None
    colour: str | None
    # Each walkway of the quarter with the quarter at its other end.
    neighbours: tuple[tuple[str, str], ...]
    evacuated: str
    score_box: str

    @cached_property
    def space_set(self) -> frozenset[str]:
        return frozenset(self.spaces)

    @cached_property
    def energy_set(self) -> frozenset[str]:
        return frozenset(self.energies)

    @cached_property
    def plant_set(self) -> frozenset[str]:
        return frozenset(self.plants)

    @cached_property
    def walkways(self) -> frozenset[str]:
        return frozenset(walkway for walkway, _ in self.neighbours)

    @cached_property
    def plants_and_tank(self) -> frozenset[str]:
        """The plants and the water tank of the quarter (mission 99)."""
        return self.plant_set | ({self.tank} if self.tank is not None else set())


@dataclass(frozen=True)
class Row:
    """A row of a resource track: its last symbol, the box and the bonus crossed with it."""

    last: str
    box: str
    bonus: str
    bonus_kind: str


@dataclass(frozen=True)
class Track:
    """The plant or water track: symbols in crossing order, rows, the virus a symbol activates
    and the propagation symbols it triggers, and the value by rows completed."""

    symbols: tuple[str, ...]
    rows: dict[str, Row]
    activations: dict[str, str]
    propagations: dict[str, str]
    boxes: tuple[str, ...]
    values: tuple[int, ...]

    def value(self, marks: Marks) -> int:
        """The first value of the column not covered by a crossed row box."""
        return self.values[sum(1 for box in self.boxes if box in marks)]


@dataclass(frozen=True)
class Layout(WildLayout):
    """The sheet of adventure 6."""

    adventure = 6

    @cached_property
    def quarters(self) -> dict[str, Quarter]:
        """The 11 quarters, in the propagation order."""
        raw = {quarter["id"]: quarter for quarter in self.raw["quarters"]}
        return {
            quarter_id: _quarter(raw[quarter_id])
            for quarter_id in self.raw["conventions"]["propagation_order"]
        }

    @cached_property
    def quarter_rank(self) -> dict[str, int]:
        """Each quarter's place in the propagation order."""
        return {quarter: rank for rank, quarter in enumerate(self.quarters)}

    @cached_property
    def quarter_of(self) -> dict[str, Quarter]:
        """The quarter each numbering space belongs to."""
        return {space: quarter for quarter in self.quarters.values() for space in quarter.spaces}

    @cached_property
    def zone_of(self) -> dict[str, tuple[str, ...]]:
        """The floor (numbering zone) of each space."""
        return {space: zone for zone in self.zone_spaces for space in zone}

    @cached_property
    def floors(self) -> dict[int, tuple[Quarter, ...]]:
        """The quarters of each floor, top floor first."""
        found: dict[int, list[Quarter]] = {}
        for quarter in self.quarters.values():
            found.setdefault(quarter.floor, []).append(quarter)
        return {floor: tuple(quarters) for floor, quarters in sorted(found.items())}

    @cached_property
    def walkways(self) -> tuple[str, ...]:
        return tuple(walkway["id"] for walkway in self.raw["walkways"])

    @cached_property
    def walkway_ends(self) -> dict[str, tuple[str, ...]]:
        return {walkway["id"]: tuple(walkway["quarters"]) for walkway in self.raw["walkways"]}

    @cached_property
    def tank_on(self) -> dict[str, str]:
        """The water tank carried by a space, for the spaces that carry one."""
        return {
            space: raw["water_tank"]
            for space, raw in self.spaces.items()
            if raw["water_tank"] is not None
        }

    @cached_property
    def grey_candidates(self) -> tuple[str, ...]:
        """The quarters whose empty target may take the grey virus at setup."""
        (grey,) = (virus for virus in self.raw["viruses"] if virus["color"] == "grey")
        return tuple(grey["candidate_quarters"])

    @cached_property
    def activation_target(self) -> dict[str, str]:
        """The virus target each activation symbol circles."""
        return {
            element["id"]: next(link for link in element["links"] if link.endswith(".target"))
            for element in self.raw["elements"]
            if element["kind"] == "virus_activation_symbol"
        }

    @cached_property
    def track_activations(self) -> tuple[str, ...]:
        """The activation symbols a plant or water track wakes (green, blue): the ones ASTRA's
        first-pass effect may wake."""
        missions = set(self.mission_activation.values())
        return tuple(act for act in self.activation_target if act not in missions)

    @cached_property
    def mission_activation(self) -> dict[str, str]:
        """The activation symbol beside each mission box (the virus its first claim wakes)."""
        return {
            element["id"]: element["links"][0]
            for element in self.raw["elements"]
            if element["kind"] == "mission_box"
        }

    @cached_property
    def propagation_symbols(self) -> tuple[str, ...]:
        return tuple(
            element["id"] for element in self.raw["elements"] if element["kind"] == "propagation_symbol"
        )

    @cached_property
    def plant_track(self) -> Track:
        return _track(self.track_data["plant_track"])

    @cached_property
    def water_track(self) -> Track:
        return _track(self.track_data["water_track"])

    @cached_property
    def astronaut_track(self) -> tuple[str, ...]:
        return tuple(self.track_data["astronaut_track"]["boxes"])

    @cached_property
    def planning_track(self) -> tuple[str, ...]:
        return tuple(self.track_data["planning_track"]["boxes"])

    @cached_property
    def wilds(self) -> tuple[str, ...]:
        """The six wild actions: the astronaut ones, then the planning ones."""
        return (
            *self.track_data["astronaut_track"]["wilds"],
            *self.track_data["planning_track"]["wilds"],
        )

    @cached_property
    def wild_reward(self) -> dict[str, str]:
        """The wild action circled by the symbol that completes its pair."""
        return {
            self.elements[wild]["links"][-1]: wild for wild in self.wilds
        }

    @cached_property
    def error_boxes(self) -> tuple[str, ...]:
        return tuple(self.track_data["system_errors"]["boxes"])

    @cached_property
    def error_penalty(self) -> tuple[int, ...]:
        """The penalty by number of System Error boxes marked."""
        return tuple(self.raw["system_errors"]["penalty_by_boxes_crossed"])

    @cached_property
    def self_propagating_errors(self) -> frozenset[str]:
        """The System Error boxes that give their player one propagation in phase 5."""
        return frozenset(
            element["id"]
            for element in self.raw["elements"]
            if element["kind"] == "system_error_box" and element["triggers_self_propagation"]
        )

    @cached_property
    def printed_marks(self) -> Marks:
        """The first energy of every quarter is printed circled."""
        return {
            element["id"]: CIRCLE for element in self.raw["elements"] if element.get("precircled")
        }


def _quarter(raw: dict[str, Any]) -> Quarter:
    return Quarter(
        id=raw["id"],
        floor=raw["floor"],
        spaces=tuple(raw["spaces"]),
        energies=tuple(raw["energies"]),
        plants=tuple(raw["plants"]),
        tank=raw["water_tank"],
        target=raw["virus_target"],
        colour=raw["virus_target_value"],
        neighbours=tuple(raw["neighbours"].items()),
        evacuated=raw["evacuation_marker"],
        score_box=raw["score_box"],
    )


def _track(raw: dict[str, Any]) -> Track:
    rows = {
        row["symbols"][-1]: Row(
            last=row["symbols"][-1], box=row["end_box"], bonus=row["bonus"], bonus_kind=row["bonus_kind"]
        )
        for row in raw["rows"]
    }
    return Track(
        symbols=track_boxes(raw),
        rows=rows,
        activations={box["id"]: box["virus_activation"] for box in raw["boxes"] if "virus_activation" in box},
        propagations={
            box["id"]: box["propagation_symbol"] for box in raw["boxes"] if "propagation_symbol" in box
        },
        boxes=tuple(row.box for row in rows.values()),
        values=tuple(raw["value_after_completed_rows"]),
    )
