"""The sheet of adventure 4, The Mine, read from its data file."""

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from games.rules.core.layout import SheetLayout


@dataclass(frozen=True)
class Layout(SheetLayout):
    """The sheet of adventure 4, read from its data file."""

    adventure = 4

    @cached_property
    def levels(self) -> dict[str, tuple[str, ...]]:
        return self.zone_spaces_by_id

    @cached_property
    def columns(self) -> tuple[dict[str, Any], ...]:
        """The 12 columns, left to right (the extraction order)."""
        return tuple(sorted(self.raw["columns"], key=lambda column: column["index"]))

    @cached_property
    def pumps(self) -> tuple[str, ...]:
        return tuple(column["pump"] for column in self.columns)

    def elements_of_kind(self, kind: str) -> tuple[str, ...]:
        return self.elements_by_kind.get(kind, ())

    @cached_property
    def gap_symbols(self) -> tuple[str, ...]:
        """The plant and water symbols drawn between the levels."""
        return self.elements_of_kind("mine_plant") + self.elements_of_kind("mine_water")

    @cached_property
    def factories(self) -> dict[str, dict[str, Any]]:
        return {factory["id"]: factory for factory in self.raw["factories"]}

    @cached_property
    def resource_factories(self) -> tuple[str, ...]:
        return tuple(f for f, raw in self.factories.items() if raw["type"] == "main_resource")

    @cached_property
    def secondary_factories(self) -> tuple[str, ...]:
        return tuple(f for f, raw in self.factories.items() if raw["type"] == "secondary")

    @cached_property
    def factory_of_symbol(self) -> dict[str, str]:
        """The factory each energy or robot symbol belongs to."""
        return {
            symbol: factory
            for factory, raw in self.factories.items()
            for symbol in raw["upgrade_symbols"]
        }

    @cached_property
    def factory_symbols(self) -> tuple[str, ...]:
        """Every energy and robot symbol, factory by factory."""
        return tuple(self.factory_of_symbol)

    @cached_property
    def gap_symbols_by_space(self) -> dict[str, tuple[str, ...]]:
        """The plant and water symbols directly above or below each cavity."""
        found: dict[str, list[str]] = {}
        for symbol in self.gap_symbols:
            for space in self.elements[symbol]["links"]:
                found.setdefault(space, []).append(symbol)
        return {space: tuple(symbols) for space, symbols in found.items()}

    @cached_property
    def factory_symbols_of_kind(self) -> dict[str, tuple[str, ...]]:
        """The robot symbols and the energy symbols of every factory, factory by factory."""
        return {
            kind: tuple(s for s in self.factory_symbols if self.elements[s]["kind"] == f"{kind}_symbol")
            for kind in ("robot", "energy")
        }

    @cached_property
    def factory_for_resource(self) -> dict[str, str]:
        return dict(self.raw["extraction"]["resource_to_factory"])

    @cached_property
    def robot_bonus_steps(self) -> frozenset[str]:
        """The bonus icons of the robot factory: each stands for one bonus robot to use."""
        return frozenset(
            icon
            for raw in self.factories.values()
            if raw["type"] == "secondary" and raw["bonus"]["type"] == "robots"
            for icon in raw["bonus_icons"]
        )

    @cached_property
    def tracks(self) -> dict[str, tuple[str, ...]]:
        return {track["id"]: tuple(track["boxes"]) for track in self.raw["tracks"]}

    def track_of(self, factory: str) -> tuple[str, ...]:
        return self._track_of_factory[factory]

    @cached_property
    def _track_of_factory(self) -> dict[str, tuple[str, ...]]:
        """The track each factory that has one fills (read by every score)."""
        factories = self.factories.items()
        named = {factory: raw.get("resource_track") or raw.get("symbol_track") for factory, raw in factories}
        return {factory: self.tracks[track] for factory, track in named.items() if track is not None}

    @cached_property
    def astronaut_symbols(self) -> tuple[str, ...]:
        return self.track_of("centre.astronaut")

    @cached_property
    def planning_symbols(self) -> tuple[str, ...]:
        return self.track_of("centre.planning")

    @cached_property
    def error_boxes(self) -> tuple[str, ...]:
        return self.tracks[self.raw["system_errors"]["track"]]

    @cached_property
    def error_penalty(self) -> dict[int, int]:
        """The penalty by number of marked System Error boxes."""
        table = self.raw["system_errors"]["penalty_by_crossed"]
        return {int(count): int(value) for count, value in table.items()}

    @cached_property
    def markable(self) -> frozenset[str]:
        """Every id of the sheet that is not a numbering space."""
        boxes = {box for track in self.tracks.values() for box in track}
        return frozenset(self.elements) | boxes

    def level_of(self, space: str) -> str:
        return str(self.spaces[space]["zone"])
