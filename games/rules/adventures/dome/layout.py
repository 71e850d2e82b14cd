"""The sheet of adventure 5, The Dome, read from its data file: four skyscrapers, the plant
and water research tower, the dome of eight sections and the four upgradable scoring tracks."""

from dataclasses import dataclass
from functools import cached_property

from games.rules.common.missions import LETTERS
from games.rules.core.layout import SheetLayout
from games.rules.core.sheet import Marks

ODD, EVEN = 1, 0


@dataclass(frozen=True)
class Track:
    """A scoring track upgraded by Energy: its rows, crossed top to bottom, and the values of
    its columns by number of rows crossed (the unboxed final values last)."""

    id: str
    columns: tuple[str, ...]
    rows: tuple[str, ...]
    values: tuple[dict[str, int], ...]

    def crossed(self, marks: Marks) -> int:
        return sum(1 for row in self.rows if row in marks)

    def next_row(self, marks: Marks) -> str | None:
        return next((row for row in self.rows if row not in marks), None)

    def value(self, marks: Marks) -> dict[str, int]:
        """The value of each column in the top-most uncrossed row (spec 8.2, reading 1)."""
        return self.values[self.crossed(marks)]


@dataclass(frozen=True)
class EndBonus:
    """The pair of bonus values printed beside a skyscraper's top or bottom level."""

    location: str
    space: str
    high: str
    low: str


@dataclass(frozen=True)
class Layout(SheetLayout):
    """The sheet of adventure 5, read from its data file."""

    adventure = 5

    # --- the skyscrapers -----------------------------------------------------------------

    @cached_property
    def skyscrapers(self) -> dict[str, tuple[str, ...]]:
        """Each skyscraper's levels, bottom to top (the ascending direction)."""
        return self.zone_spaces_by_id

    @cached_property
    def start_levels(self) -> frozenset[str]:
        """The levels touching the surface, where a skyscraper may start."""
        return frozenset(space for space, raw in self.spaces.items() if raw["start_level"])

    @cached_property
    def neighbours(self) -> dict[str, tuple[str, ...]]:
        """The levels directly above and below each level, in the same skyscraper."""
        return {space: tuple(raw["neighbours"]) for space, raw in self.spaces.items()}

    @cached_property
    def end_bonuses(self) -> dict[str, EndBonus]:
        """The bonus pair claimed by marking each top or bottom level, by that level."""
        bonuses: dict[str, EndBonus] = {}
        for zone in self.raw["zones"]:
            for end in ("top", "bottom"):
                pair = zone[f"{end}_bonus"]
                space = zone[f"{end}_space"]
                bonuses[space] = EndBonus(f"{zone['id']}.{end}", space, pair["high"], pair["low"])
        return bonuses

    @cached_property
    def bonus_values(self) -> dict[str, int]:
        """The printed value of each skyscraper bonus."""
        return {
            element["id"]: int(element["value"])
            for element in self.raw["elements"]
            if element["kind"] == "skyscraper_bonus"
        }

    @cached_property
    def high_bonuses(self) -> tuple[str, ...]:
        """The high values, raced for by the first players to reach their end."""
        return tuple(bonus.high for bonus in self.end_bonuses.values())

    @cached_property
    def zone_labels(self) -> dict[str, str]:
        """The label printed on each skyscraper's spire, by its first (bottom) level."""
        return {zone["spaces"][0]: str(zone["label"]) for zone in self.raw["zones"]}

    @cached_property
    def top_levels(self) -> tuple[str, ...]:
        return tuple(zone["top_space"] for zone in self.raw["zones"])

    # --- the research tower --------------------------------------------------------------

    @cached_property
    def tower_levels(self) -> dict[str, tuple[str, ...]]:
        """The symbols of each tower level (two plants, then the water)."""
        return {level["id"]: tuple(level["symbols"]) for level in self.raw["tower_levels"]}

    @cached_property
    def tower_symbols(self) -> dict[str, dict[str, tuple[str, ...]]]:
        """Each tower level's symbols by action: ``plant`` (two) and ``water`` (one)."""
        found: dict[str, dict[str, list[str]]] = {
            level: {"plant": [], "water": []} for level in self.tower_levels
        }
        for element in self.raw["elements"]:
            if element["kind"] in ("tower_plant", "tower_water"):
                action = element["kind"].removeprefix("tower_")
                found[element["tower_level"]][action].append(element["id"])
        return {
            level: {action: tuple(ids) for action, ids in by_action.items()}
            for level, by_action in found.items()
        }

    @cached_property
    def tower_level_of(self) -> dict[str, str]:
        """The tower level each connected skyscraper level is linked to."""
        return {
            space: raw["tower_level"] for space, raw in self.spaces.items() if raw["tower_level"]
        }

    @cached_property
    def symbol_level(self) -> dict[str, tuple[str, str]]:
        """Each tower symbol's level and the action that circles it."""
        return {
            symbol: (level, action)
            for level, by_action in self.tower_symbols.items()
            for action, symbols in by_action.items()
            for symbol in symbols
        }

    # --- the dome ----------------------------------------------------------------------------

    @cached_property
    def sections(self) -> tuple[str, ...]:
        """The 8 sections in chain order, from the left surface to the right one."""
        return tuple(self.raw["dome"]["chain"])

    @cached_property
    def halves(self) -> dict[str, tuple[str, str]]:
        """Each section's two halves once split, toward ``dome.1`` first."""
        halves = {}
        for section in self.sections:
            toward_first, toward_last = self.elements[section]["halves"]
            halves[section] = (str(toward_first), str(toward_last))
        return halves

    @cached_property
    def split_lines(self) -> dict[str, str]:
        """The split line drawn across each section."""
        return {
            element["links"][0]: element["id"]
            for element in self.raw["elements"]
            if element["kind"] == "dome_split"
        }

    @cached_property
    def parity(self) -> dict[str, int]:
        """Whether each section and half takes odd (1) or even (0) numbers."""
        return {
            element["id"]: ODD if element["parity"] == "odd" else EVEN
            for element in self.raw["elements"]
            if element["kind"] in ("dome_section", "dome_half")
        }

    def chain(self, marks: Marks) -> list[str]:
        """The elements to build now: the sections in order, each split one as its halves."""
        chain: list[str] = []
        for section in self.sections:
            if self.split_lines[section] in marks:
                chain.extend(self.halves[section])
            else:
                chain.append(section)
        return chain

    # --- the scoring area ----------------------------------------------------------------

    @cached_property
    def tracks(self) -> dict[str, Track]:
        """The four Energy-upgradable tracks: missions, tower, astronauts, dome."""
        tracks = {}
        for raw in self.raw["tracks"]:
            values = [dict(row["values"]) for row in raw["boxes"]] + [dict(raw["final"])]
            rows = tuple(row["id"] for row in raw["boxes"])
            tracks[raw["id"]] = Track(raw["id"], tuple(raw["columns"]), rows, tuple(values))
        return tracks

    @cached_property
    def astronaut_symbols(self) -> tuple[str, ...]:
        symbols = [e for e in self.raw["elements"] if e["kind"] == "astronaut_symbol"]
        return tuple(e["id"] for e in sorted(symbols, key=lambda e: e["order"]))

    @cached_property
    def mission_stars(self) -> dict[str, dict[str, str]]:
        """Each mission letter's stars by the column they score with (``first``/``later``)."""
        stars: dict[str, dict[str, str]] = {letter: {} for letter in LETTERS}
        for element in self.raw["elements"]:
            if element["kind"] == "mission_mark":
                letter = element["id"].split(".")[1]
                stars[letter][element["scores_with_column"]] = element["id"]
        return stars

    @cached_property
    def markable(self) -> frozenset[str]:
        """Every id of the sheet that is not a numbering space: elements and track rows."""
        rows = {row for track in self.tracks.values() for row in track.rows}
        return frozenset(self.elements) | rows

    @cached_property
    def error_boxes(self) -> tuple[str, ...]:
        return tuple(self.raw["system_errors"]["boxes"])

    @cached_property
    def error_penalty(self) -> dict[int, int]:
        """The penalty by number of marked System Error boxes."""
        table = self.raw["system_errors"]["penalty_by_count"]
        return {int(count): int(value) for count, value in table.items()}
