"""The sheet of adventure 8, The Battle, read from its data file: seven planets with their moons,
flags and resource symbols, the asteroid field between the two ships, and the two side panels
(``S`` and ``N``) of identical tracks."""

from dataclasses import dataclass
from functools import cached_property

from games.rules.layout import SheetLayout
from games.rules.sheet import Marks

SIDES = ("S", "N")
# The planet types, in the order of the side panels' multiplier columns.
TYPES = ("green", "blue", "grey")


@dataclass(frozen=True)
class Planet:
    """One planet: its spaces in fill order, its two moon spaces, its flag and completion
    circle, and the plant and water symbols printed on it."""

    id: str
    type: str
    accepts: frozenset[int]
    low: int
    high: int
    spaces: tuple[str, ...]
    moon: tuple[str, ...]
    flag: str
    done: str
    plants: tuple[str, ...]
    waters: tuple[str, ...]


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
                type=raw["type"],
                accepts=frozenset(raw["accepts"]),
                low=min(raw["accepts"]),
                high=max(raw["accepts"]),
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
    def planet_of_moon(self) -> dict[str, str]:
        """The planet of each moon space."""
        return {moon: planet.id for planet in self.planets.values() for moon in planet.moon}

    @cached_property
    def space_bonus(self) -> dict[str, str]:
        """The bonus symbol printed in a space (plant, water or robot), by space."""
        return {space: raw["bonus"] for space, raw in self.spaces.items() if raw["bonus"]}

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

    # --- side panels ----------------------------------------------------------------------

    @cached_property
    def tracks(self) -> dict[str, Track]:
        """Every track of both panels by id (``S.plant``, ``N.grey``, ``S.error``...)."""
        return {
            raw["id"]: Track(
                raw["id"],
                tuple(box["id"] for box in raw["boxes"]),
                tuple(raw["value_by_crossed_count"]),
            )
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
