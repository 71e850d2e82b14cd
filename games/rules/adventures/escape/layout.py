"""The sheet of adventure 7, The Escape, read from its data file: six ships of modules and
greenhouses, the airlocks between them, reactors, plants, water tanks, robot spaces and tracks."""

from dataclasses import dataclass
from functools import cached_property

from games.rules.core.layout import WildLayout
from games.rules.core.sheet import CIRCLE, Marks

# How many sets of activated airlocks keep their open spaces worked out (a bound on memory).
ACCESS_CACHE_SIZE = 4096
# Element kinds no setup modifier may mark: they hold points or are printed, never drawn on.
UNMARKABLE_KINDS = frozenset({"mission_box", "score_box", "campaign_area", "robot_bonus"})


@dataclass(frozen=True)
class Block:
    """A module or a greenhouse: a row of spaces of one ship opened through airlocks."""

    id: str
    ship: str
    kind: str
    spaces: tuple[str, ...]
    water_tank: str | None

    @property
    def is_module(self) -> bool:
        return self.kind == "module"


@dataclass(frozen=True)
class Greenhouse:
    """A ship's greenhouse: its one space, its three plants and its x2 bonus (a race)."""

    space: str
    plants: tuple[str, ...]
    x2: str


@dataclass(frozen=True)
class Access:
    """What a set of activated airlocks opens: the accessible blocks and their spaces."""

    blocks: frozenset[str]
    spaces: frozenset[str]


@dataclass(frozen=True)
class Layout(WildLayout):
    """The sheet of adventure 7."""

    adventure = 7
    zones_from_bottom = True  # ship 1 is the bottom row of the sheet

    # --- ships, blocks and spaces ---------------------------------------------------------

    @cached_property
    def ships(self) -> dict[str, tuple[str, ...]]:
        """The six ships from the bottom, each its spaces left to right (one ascending zone)."""
        return self.zone_spaces_by_id

    @cached_property
    def blocks(self) -> dict[str, Block]:
        return {
            raw["id"]: Block(
                raw["id"], raw["ship"], raw["kind"], tuple(raw["spaces"]), raw.get("water_tank")
            )
            for raw in self.raw["blocks"]
        }

    @cached_property
    def block_of(self) -> dict[str, str]:
        """The block of each numbering space."""
        return {space: raw["block"] for space, raw in self.spaces.items()}

    @cached_property
    def ship_of(self) -> dict[str, str]:
        """The ship of each numbering space."""
        return {space: raw["zone"] for space, raw in self.spaces.items()}

    @cached_property
    def modules(self) -> tuple[Block, ...]:
        return tuple(block for block in self.blocks.values() if block.is_module)

    @cached_property
    def modules_of(self) -> dict[str, tuple[Block, ...]]:
        """The modules of each ship, left to right."""
        return {ship: tuple(m for m in self.modules if m.ship == ship) for ship in self.ships}

    @cached_property
    def greenhouses(self) -> dict[str, Greenhouse]:
        """The greenhouse of each ship."""
        return {
            raw["ship"]: Greenhouse(raw["spaces"][0], tuple(raw["plants"]), raw["x2"])
            for raw in self.raw["blocks"]
            if raw["kind"] == "greenhouse"
        }

    @cached_property
    def x2_of_space(self) -> dict[str, str]:
        """The x2 bonus circled by filling each greenhouse space."""
        return {gh.space: gh.x2 for gh in self.greenhouses.values()}

    @cached_property
    def x2_bonuses(self) -> tuple[str, ...]:
        return tuple(gh.x2 for gh in self.greenhouses.values())

    # --- airlocks and accessibility ------------------------------------------------------

    @cached_property
    def airlocks(self) -> dict[str, tuple[str, str]]:
        """Every airlock with the two blocks it joins."""
        return self.joins("airlock")

    @cached_property
    def airlock_set(self) -> frozenset[str]:
        return frozenset(self.airlocks)

    @cached_property
    def start_blocks(self) -> frozenset[str]:
        return frozenset(self.raw["rules"]["start_accessible_blocks"])

    def access(self, marks: Marks) -> Access:
        """The blocks (and their spaces) reached from the start through activated airlocks."""
        active = self.airlock_set.intersection(marks)
        found = self._access_by_airlocks.get(active)
        if found is None:
            if len(self._access_by_airlocks) >= ACCESS_CACHE_SIZE:
                self._access_by_airlocks.clear()
            found = self._access_by_airlocks[active] = self._open(active)
        return found

    @cached_property
    def _access_by_airlocks(self) -> dict[frozenset[str], Access]:
        """What each set of activated airlocks opens, once worked out (sheets share few sets)."""
        return {}

    def _open(self, active: frozenset[str]) -> Access:
        blocks = set(self.start_blocks)
        for airlock in active:
            blocks.update(self.airlocks[airlock])
        spaces = frozenset(space for block in blocks for space in self.blocks[block].spaces)
        return Access(frozenset(blocks), spaces)

    # --- reactors, plants, tanks, robots ---------------------------------------------------

    def _by_link(self, kind: str) -> dict[str, tuple[str, ...]]:
        found: dict[str, list[str]] = {}
        for e in self.raw["elements"]:
            if e["kind"] == kind:
                found.setdefault(e["links"][0], []).append(e["id"])
        return {link: tuple(ids) for link, ids in found.items()}

    @cached_property
    def reactors(self) -> dict[str, tuple[str, ...]]:
        """The three reactors of each ship."""
        return self._by_link("reactor")

    @cached_property
    def tank_on(self) -> dict[str, str]:
        """The water tank printed over a space, by space."""
        return {space: raw["water_tank"] for space, raw in self.spaces.items() if raw["water_tank"]}

    @cached_property
    def tanks_of(self) -> dict[str, tuple[str, ...]]:
        """The water tanks of each ship."""
        return {
            ship: tuple(m.water_tank for m in modules if m.water_tank is not None)
            for ship, modules in self.modules_of.items()
        }

    @cached_property
    def robot_of_space(self) -> dict[str, str]:
        """The robot symbol printed in a space, by space."""
        return {e["links"][0]: e["id"] for e in self.raw["elements"] if e["kind"] == "robot_bonus"}

    @cached_property
    def printed_marks(self) -> Marks:
        """The plants and reactors printed already circled."""
        return {
            e["id"]: CIRCLE
            for e in self.raw["elements"]
            if e["kind"] in ("plant", "reactor") and e.get("initial") == "circled"
        }

    # --- tracks -------------------------------------------------------------------------

    @cached_property
    def astronaut_track(self) -> tuple[str, ...]:
        return tuple(self.track_data["astronauts"]["boxes"])

    @cached_property
    def wild_reward(self) -> dict[str, str]:
        """The wild action circled by crossing an astronaut symbol."""
        return dict(self.track_data["astronauts"]["rewards"])

    @cached_property
    def wilds(self) -> tuple[str, ...]:
        return tuple(self.track_data["wild_actions"]["boxes"])

    @cached_property
    def planning_boxes(self) -> tuple[str, ...]:
        return tuple(self.track_data["planning"]["boxes"])

    @cached_property
    def planning_penalty(self) -> tuple[int, ...]:
        """Points lost by the number of planning boxes crossed."""
        return tuple(self.track_data["planning"]["penalty_by_crossed_count"])

    @cached_property
    def error_boxes(self) -> tuple[str, ...]:
        return tuple(self.raw["system_errors"]["elements"])

    @cached_property
    def error_penalty(self) -> tuple[int, ...]:
        """Points lost by the number of System Error boxes crossed."""
        return tuple(self.raw["system_errors"]["penalty_by_crossed_count"])

    @cached_property
    def compensated_errors(self) -> frozenset[str]:
        """The System Error boxes whose crossing activates an airlock."""
        compensation = self.raw["system_errors"]["compensation"]
        return frozenset(box for box, gain in compensation.items() if gain == "activate_one_airlock")

    # --- scoring -----------------------------------------------------------------------

    @cached_property
    def greenhouse_points(self) -> tuple[int, ...]:
        """Points of a numbered greenhouse by circled plants (0-3)."""
        return tuple(self.raw["scoring"]["greenhouse"]["points_by_circled_plants"])

    @cached_property
    def x2_multiplier(self) -> int:
        return int(self.raw["scoring"]["greenhouse"]["multiplier_if_x2_circled"])

    @cached_property
    def module_points(self) -> tuple[int, ...]:
        """Points of a complete module by circled reactors of its ship (0-3)."""
        return tuple(self.raw["scoring"]["modules"]["points_by_circled_reactors_of_ship"])

    @cached_property
    def water_multiplier(self) -> int:
        return int(self.raw["scoring"]["modules"]["multiplier_if_module_water_tank_circled"])

    @cached_property
    def markable(self) -> frozenset[str]:
        """The elements a setup modifier may mark (not the score areas or printed robots)."""
        return frozenset(e["id"] for e in self.raw["elements"] if e["kind"] not in UNMARKABLE_KINDS)
