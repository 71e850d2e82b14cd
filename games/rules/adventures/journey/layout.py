"""The sheet of adventure 2, The Journey, read from its data file: the trajectory and its wall
positions, the playing zones walls cut it into, water tanks, stations, and the tracks."""

from dataclasses import dataclass
from functools import cached_property

from games.rules.core.layout import WildLayout
from games.rules.core.sheet import Marks

WALL_DRAWN = "line"
# How many sets of drawn walls keep their zones worked out (a bound on memory, not a tuning).
ZONE_CACHE_SIZE = 4096


@dataclass(frozen=True)
class Station:
    """A space station: tied to the playing zone holding its link space."""

    id: str
    link_space: str
    robots: tuple[str, ...]
    plants: tuple[str, ...]
    mult_big: str
    mult_small: str
    big_value: int
    small_value: int


@dataclass(frozen=True)
class Zone:
    """A playing zone: a maximal run of trajectory spaces with no drawn wall inside."""

    spaces: tuple[str, ...]
    first: int
    last: int

    @property
    def id(self) -> str:
        return f"zone.s{self.first:02d}-s{self.last:02d}"

    def __len__(self) -> int:
        return len(self.spaces)

    def complete(self, marks: Marks) -> bool:
        return all(map(marks.__contains__, self.spaces))


@dataclass(frozen=True)
class Layout(WildLayout):
    """The sheet of adventure 2."""

    adventure = 2

    @cached_property
    def trajectory(self) -> tuple[str, ...]:
        """The 36 spaces from the Earth to the Moon (ascending order)."""
        return tuple(self.raw["zones"][0]["spaces"])

    @cached_property
    def walls(self) -> tuple[str, ...]:
        return tuple(e["id"] for e in self.raw["elements"] if e["kind"] == "wall")

    @cached_property
    def tank_on(self) -> dict[str, str]:
        """The water tank carried by each tank space."""
        return {s["id"]: s["water_tank"] for s in self.raw["spaces"] if s["water_tank"]}

    @cached_property
    def tanks(self) -> tuple[str, ...]:
        """The 12 tanks in their order along the trajectory."""
        return tuple(self.track_data["track.water"]["boxes"])

    @cached_property
    def tank_value(self) -> dict[str, int]:
        return {tank: int(self.elements[tank]["value"]) for tank in self.tanks}

    @cached_property
    def stations(self) -> tuple[Station, ...]:
        return tuple(
            Station(
                id=raw["id"],
                link_space=raw["link_space"],
                robots=tuple(raw["robots"]),
                plants=tuple(raw["plants"]),
                mult_big=raw["mult_big"]["id"],
                mult_small=raw["mult_small"]["id"],
                big_value=raw["mult_big"]["value"],
                small_value=raw["mult_small"]["value"],
            )
            for raw in self.raw["stations"]
        )

    @cached_property
    def robots(self) -> tuple[str, ...]:
        return tuple(robot for station in self.stations for robot in station.robots)

    @cached_property
    def plants(self) -> tuple[str, ...]:
        return tuple(plant for station in self.stations for plant in station.plants)

    @cached_property
    def station_of(self) -> dict[str, Station]:
        """The station of every robot and plant."""
        found = {}
        for station in self.stations:
            for element in (*station.robots, *station.plants):
                found[element] = station
        return found

    @cached_property
    def energies(self) -> tuple[str, ...]:
        return tuple(self.track_data["track.energy"]["boxes"])

    @cached_property
    def marker_completed_by(self) -> dict[str, str]:
        """The wall marker of each pair, by the pair's second (lower) energy."""
        return {lower: marker for _, lower, marker in self.track_data["track.energy"]["pairs"]}

    @cached_property
    def astronaut_track(self) -> tuple[str, ...]:
        return tuple(self.track_data["track.astronaut"]["boxes"])

    @cached_property
    def planning_track(self) -> tuple[str, ...]:
        return tuple(self.track_data["track.planning"]["boxes"])

    @cached_property
    def wild_reward(self) -> dict[str, str]:
        """The wild action circled by crossing each astronaut or planning symbol, if any."""
        return {
            **self.track_data["track.astronaut"]["rewards"],
            **self.track_data["track.planning"]["rewards"],
        }

    @cached_property
    def wilds(self) -> tuple[str, ...]:
        """The six wild actions, in the order they are spent."""
        return tuple(self.track_data["track.wild"]["boxes"])

    @cached_property
    def error_boxes(self) -> tuple[str, ...]:
        return tuple(self.raw["system_errors"]["boxes"])

    @cached_property
    def error_gives_energy(self) -> frozenset[str]:
        compensation = self.raw["system_errors"]["compensation"]
        return frozenset(box for box, gain in compensation.items() if gain == "gain_energy")

    @cached_property
    def error_penalty(self) -> tuple[int, ...]:
        """Points lost by the number of boxes crossed (D2: 5 per box)."""
        return tuple(self.raw["system_errors"]["penalty_by_crossed_count"])

    @cached_property
    def most_zones_awards(self) -> tuple[int, ...]:
        """Points of ranks 1, 2, 3 for the most complete zones."""
        return tuple(self.track_data["track.most_zones"]["values"])

    @cached_property
    def printed_marks(self) -> Marks:
        """What the sheet prints already marked (energy e01)."""
        return {
            element["id"]: element["prefilled"]
            for element in self.raw["elements"]
            if element.get("prefilled")
        }

    def zones(self, marks: Marks) -> tuple[Zone, ...]:
        """The playing zones, Earth end first, as the drawn walls cut the trajectory."""
        # A wall position is only ever marked as drawn (looked up one by one: a sheet's marks
        # outnumber its walls).
        drawn = frozenset(filter(marks.__contains__, self.walls))
        zones = self._zones_cut_by.get(drawn)
        if zones is None:
            if len(self._zones_cut_by) >= ZONE_CACHE_SIZE:
                self._zones_cut_by.clear()
            zones = self._zones_cut_by[drawn] = self._cut(drawn)
        return zones

    @cached_property
    def wall_set(self) -> frozenset[str]:
        return frozenset(self.walls)

    @cached_property
    def _zones_cut_by(self) -> dict[frozenset[str], tuple[Zone, ...]]:
        """The zones already worked out, by the walls drawn (a sheet has few wall sets)."""
        return {}

    def _cut(self, drawn: frozenset[str]) -> tuple[Zone, ...]:
        zones = []
        run: list[str] = []
        for space in self.trajectory:
            run.append(space)
            wall = self.spaces[space]["wall_after"]
            if wall is None or wall in drawn:
                zones.append(self._zone(run))
                run = []
        return tuple(zones)

    def _zone(self, spaces: list[str]) -> Zone:
        return Zone(
            tuple(spaces),
            self.spaces[spaces[0]]["order"],
            self.spaces[spaces[-1]]["order"],
        )

    def zone_named(self, spaces: tuple[str, ...]) -> Zone:
        """The zone made of these trajectory spaces."""
        return self._zone(list(spaces))

    def zone_of(self, marks: Marks, space: str) -> Zone:
        return next(zone for zone in self.zones(marks) if space in zone.spaces)

    def stations_reached(self, marks: Marks, space: str) -> list[Station]:
        """The stations tied to the playing zone holding ``space``."""
        zone = self.zone_of(marks, space)
        return [station for station in self.stations if station.link_space in zone.spaces]
