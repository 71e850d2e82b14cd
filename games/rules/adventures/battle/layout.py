"""The sheet of adventure 8, The Battle, read from its data file: seven planets with their moons,
flags and resource symbols, the asteroid field between the two ships, and the two side panels
(``S`` and ``N``) of identical tracks."""

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from games.rules.core.layout import SheetLayout, track_boxes
from games.rules.core.schematic import MARKS, ZONE, Area, Row, Schematic
from games.rules.core.sheet import Marks

SIDES = ("S", "N")
# The planet types, in the order of the side panels' multiplier columns.
TYPES = ("green", "blue", "grey")
# A side panel's tracks as drawn, top to bottom: name, label and how the track counts.
PANEL_TRACKS = (
    ("plant", "plants +"),
    ("water", "water +"),
    ("green", "green planets \u00d7"),
    ("blue", "blue planets \u00d7"),
    ("grey", "grey planets \u00d7"),
    ("planning", "planning \u2212"),
    ("error", "System Errors \u2212"),
)
# Where a planet's elements stand on its line: its spaces from column 0, then these.
MOON_COLUMN, FLAG_COLUMN, DONE_COLUMN, PLANT_COLUMN, WATER_COLUMN = 8, 11, 12, 14, 17


@dataclass(frozen=True)
class Planet:
    """One planet: its spaces in fill order, its two moon spaces, its flag and completion
    circle, and the plant and water symbols printed on it."""

    id: str
    type: str
    accepts: frozenset[int]
    spaces: tuple[str, ...]
    moon: tuple[str, ...]
    flag: str
    done: str
    plants: tuple[str, ...]
    waters: tuple[str, ...]

    @cached_property
    def low(self) -> int:
        """The lowest number the planet accepts."""
        return min(self.accepts)

    @cached_property
    def high(self) -> int:
        """The highest number the planet accepts."""
        return max(self.accepts)

    def next_space(self, marks: Marks) -> str | None:
        """The first empty space, where the next insignia goes."""
        for space in self.spaces:
            if space not in marks:
                return space
        return None

    @cached_property
    def insignia_places(self) -> tuple[str, ...]:
        """Where the planet's insignias are drawn: its spaces and its moon."""
        return (*self.spaces, *self.moon)

    def insignias(self, marks: Marks) -> dict[str, int]:
        """Each side's insignias on the spaces and the moon."""
        owners = list(map(marks.get, self.insignia_places))
        return {side: owners.count(side) for side in SIDES}


@dataclass(frozen=True)
class Asteroid:
    """One asteroid and its bonus symbols (element id and kind, in printed order)."""

    id: str
    bonuses: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Track:
    """A side panel's track: its boxes in crossing order and its value by boxes crossed."""

    id: str
    boxes: tuple[str, ...]
    values: tuple[int, ...]

    def crossed(self, marks: Marks) -> int:
        """Boxes crossed: the track is crossed strictly in order, so its first free box says."""
        for count, box in enumerate(self.boxes):
            if box not in marks:
                return count
        return len(self.boxes)

    def value(self, marks: Marks) -> int:
        """The lowest visible value: that of the first box not crossed, or the final one."""
        return self.values[self.crossed(marks)]


@dataclass(frozen=True)
class Layout(SheetLayout):
    """The sheet of adventure 8."""

    adventure = 8

    # --- planets --------------------------------------------------------------------------

    @cached_property
    def planets(self) -> dict[str, Planet]:
        return {
            raw["id"]: Planet(
                id=raw["id"],
                accepts=frozenset(raw["accepts"]),
                type=raw["type"],
                spaces=tuple(raw["spaces"]),
                moon=tuple(raw["moon"]),
                flag=raw["flag"],
                done=raw["done"],
                plants=tuple(raw["plant_symbols"]),
                waters=tuple(raw["water_symbols"]),
            )
            for raw in self.raw["planets"]
        }

    @cached_property
    def flags(self) -> frozenset[str]:
        """The planets' flags."""
        return frozenset(planet.flag for planet in self.planets.values())

    @cached_property
    def planet_of_moon(self) -> dict[str, str]:
        """The planet of each moon space."""
        return {moon: planet.id for planet in self.planets.values() for moon in planet.moon}

    @cached_property
    def space_bonus(self) -> dict[str, str]:
        """The bonus symbol printed in a space (plant, water or robot), by space."""
        return {space: raw["bonus"] for space, raw in self.spaces.items() if raw["bonus"]}

    @cached_property
    def number_to_planets(self) -> dict[int, tuple[str, ...]]:
        """The planets accepting each number 0-17, in planet order."""
        return {int(number): tuple(planets) for number, planets in self.raw["number_to_planets"].items()}

    @cached_property
    def astra_planet_order(self) -> tuple[str, ...]:
        """The order ASTRA walks the planets in, cyclically, when none accepting its number has
        room."""
        return tuple(self.raw["planet_order_for_astra"])

    @cached_property
    def astra_actions(self) -> dict[str, str]:
        """What ASTRA does for each action of its card (energy is played as robot, astronaut as
        planning)."""
        return dict(self.raw["astra"]["turn"]["action_substitution"])

    @cached_property
    def planet_spaces(self) -> frozenset[str]:
        """The 33 planet spaces: all filled on one sheet ends the game."""
        return frozenset(self.spaces)

    # --- the asteroid field ---------------------------------------------------------------

    @cached_property
    def asteroids(self) -> dict[str, Asteroid]:
        """The asteroids from the S end (``ast01``) to the N end (``ast13``)."""
        kinds = {e["id"]: e["kind"].removeprefix("asteroid_bonus_") for e in self.raw["elements"]}
        field = self.raw["asteroid_field"]
        by_id = {raw["id"]: raw for raw in field["asteroids"]}
        asteroids = {}
        for asteroid in field["order_from_S"]:
            raw = by_id[asteroid]
            ordered = _printed_order(raw["bonus_elements"], kinds, raw["bonuses"])
            asteroids[asteroid] = Asteroid(asteroid, tuple((e, kinds[e]) for e in ordered))
        return asteroids

    @cached_property
    def asteroid_bonus_kind(self) -> dict[str, str]:
        """The kind of each asteroid bonus symbol (plant, water, energy, planning), by id."""
        return {element: kind for a in self.asteroids.values() for element, kind in a.bonuses}

    @cached_property
    def asteroid_order(self) -> dict[str, tuple[str, ...]]:
        """The asteroids in the order each side claims them: from its own end."""
        from_s = tuple(self.asteroids)
        return {"S": from_s, "N": from_s[::-1]}

    def next_asteroid(self, marks: Marks, side: str) -> str | None:
        """The first free asteroid counted from the side's own end."""
        return next((a for a in self.asteroid_order[side] if a not in marks), None)

    # --- side panels ----------------------------------------------------------------------

    @cached_property
    def tracks(self) -> dict[str, Track]:
        """Every track of both panels by id (``S.plant``, ``N.grey``, ``S.error``...)."""
        return {
            raw["id"]: Track(raw["id"], track_boxes(raw), tuple(raw["value_by_crossed_count"]))
            for raw in self.raw["tracks"]
        }

    @cached_property
    def tracks_by_side(self) -> dict[str, dict[str, Track]]:
        """Each side's tracks by name."""
        return {
            side: {t.id.split(".", 1)[1]: t for t in self.tracks.values() if t.id.startswith(f"{side}.")}
            for side in SIDES
        }

    def track(self, side: str, name: str) -> Track:
        """A side's track: ``plant``, ``water``, ``green``, ``blue``, ``grey``, ``planning``,
        ``error``."""
        return self.tracks_by_side[side][name]

    @cached_property
    def astronauts(self) -> dict[str, tuple[str, ...]]:
        """Each side's six astronaut symbols, circled then crossed in any order."""
        return {
            side: tuple(
                e["id"]
                for e in self.raw["elements"]
                if e["kind"] == "astronaut_symbol" and e["side"] == side
            )
            for side in SIDES
        }

    @cached_property
    def side_error_boxes(self) -> dict[str, tuple[str, ...]]:
        """Each side's System Error boxes, in the order they are crossed."""
        return {side: self.track(side, "error").boxes for side in SIDES}

    @property
    def error_boxes(self) -> tuple[str, ...]:
        """A side's System Error boxes (side S's ids; side N's are alike)."""
        return self.side_error_boxes["S"]

    @property
    def error_penalty(self) -> tuple[int, ...]:
        return tuple(self.raw["system_errors"]["penalty_by_crossed"])

    @cached_property
    def mission_boxes(self) -> dict[str, str]:
        """The mission boxes of side S, by letter."""
        return {
            e["id"].rsplit(".", 1)[1]: e["id"] for e in self.raw["elements"] if e["kind"] == "mission_box"
        }

    @cached_property
    def ships(self) -> dict[str, str]:
        """Each side's ship, where its owner's insignia is drawn at setup."""
        return {e["side"]: e["id"] for e in self.raw["elements"] if e["kind"] == "ship_insignia"}

    @cached_property
    def side_elements(self) -> dict[str, frozenset[str]]:
        """The elements of each side's panel a setup modifier may mark (its tracks and
        astronaut symbols, not its ship or mission boxes)."""
        return {
            side: frozenset(
                e["id"]
                for e in self.raw["elements"]
                if e.get("side") == side and e["kind"] in ("track_box", "astronaut_symbol")
            )
            for side in SIDES
        }

    @cached_property
    def markable(self) -> frozenset[str]:
        """The elements a setup modifier may mark: those of both side panels."""
        return self.side_elements["S"] | self.side_elements["N"]

    # --- the sheet drawn --------------------------------------------------------------------

    def lay_out(self) -> Schematic:
        """The sheet as it lies on the table: side N's panel at the top (its owner sits at
        that edge), the planets and the asteroid field both owners share in the middle, side
        S's panel (the one with the mission boxes) at the bottom. A planet is one line: its
        spaces in fill order, its moon, its flag and completion circle, its plant and water
        symbols, each in the same column on every planet. The asteroid field runs from side
        S's end (``ast01``, left) to side N's (``ast13``, right), each asteroid's bonus symbols
        under it."""
        return Schematic(
            (self._panel("N"), self._planet_area(), self._asteroid_area(), self._panel("S"))
        )

    def _planet_area(self) -> Area:
        rows = []
        for planet in self.planets.values():
            tail = (
                *((MOON_COLUMN + index, moon, "moon") for index, moon in enumerate(planet.moon)),
                (FLAG_COLUMN, planet.flag, "flag"),
                (DONE_COLUMN, planet.done, "done"),
                *((PLANT_COLUMN + index, plant, "plant") for index, plant in enumerate(planet.plants)),
                *((WATER_COLUMN + index, water, "water") for index, water in enumerate(planet.waters)),
            )
            spaces = tuple(
                f"{space.rsplit('.', 1)[1]} {self.spaces[space]['bonus'] or ''}".strip()
                for space in planet.spaces
            )
            rows.append(
                Row(
                    f"{planet.id} \u00b7 {planet.type}\n{self.raw_planets[planet.id]['label']}",
                    (*planet.spaces, *(cell for _, cell, _ in tail)),
                    columns=(*range(len(planet.spaces)), *(column for column, _, _ in tail)),
                    captions=(*spaces, *(caption for _, _, caption in tail)),
                    kinds=(*(ZONE for _ in planet.spaces), *(MARKS for _ in tail)),
                )
            )
        return Area("Planets (shared)", tuple(rows))

    def _asteroid_area(self) -> Area:
        asteroids = list(self.asteroids.values())
        last = len(asteroids)
        ends = {1: " (S)", last: " (N)"}
        rows = [
            Row(
                f"asteroids\nS from 01, N from {last:02d}",
                tuple(asteroid.id for asteroid in asteroids),
                captions=tuple(f"{order:02d}{ends.get(order, '')}" for order in range(1, last + 1)),
            )
        ]
        for place in range(max(len(asteroid.bonuses) for asteroid in asteroids)):
            holding = [
                (column, a.bonuses[place]) for column, a in enumerate(asteroids) if len(a.bonuses) > place
            ]
            rows.append(
                Row(
                    f"bonus {place + 1}",
                    tuple(element for _, (element, _) in holding),
                    columns=tuple(column for column, _ in holding),
                    captions=tuple(kind for _, (_, kind) in holding),
                )
            )
        return Area("Asteroid field (shared)", tuple(rows))

    def _panel(self, side: str) -> Area:
        """A side's panel: its ship, its tracks with their printed values (and the value once
        every box is crossed), its astronaut symbols and, on side S, the mission boxes."""
        rows = [Row("ship", (self.ships[side],), captions=("insignia",))]
        for name, text in PANEL_TRACKS:
            track = self.track(side, name)
            rows.append(
                Row(
                    f"{text}\nall crossed: {track.values[-1]}",
                    track.boxes,
                    captions=tuple(str(value) for value in track.values[: len(track.boxes)]),
                )
            )
        rows.append(Row("astronauts", self.astronauts[side]))
        if side == "S":
            boxes = self.mission_boxes
            rows.append(Row("missions", tuple(boxes.values()), captions=tuple(boxes)))
        edge = "bottom edge, mission side" if side == "S" else "top edge"
        return Area(f"Side {side} ({edge})", tuple(rows), side=side)

    @cached_property
    def raw_planets(self) -> dict[str, dict[str, Any]]:
        """The planets as the data file lists them (their printed labels)."""
        return {raw["id"]: raw for raw in self.raw["planets"]}

    # --- seating --------------------------------------------------------------------------

    @cached_property
    def seating_tables(self) -> dict[int, list[dict[str, int]]]:
        """Sheet by sheet, the seat owning each side, for 2 to 6 players."""
        return {int(players): table for players, table in self.raw["seating"]["tables"].items()}


def _printed_order(elements: list[str], kinds: dict[str, str], printed: list[str]) -> list[str]:
    """An asteroid's bonus elements in the order its symbols are printed (the data lists the
    elements alphabetically)."""
    remaining = list(elements)
    ordered = []
    for kind in printed:
        element = next(e for e in remaining if kinds[e] == kind)
        remaining.remove(element)
        ordered.append(element)
    return ordered
