"""Adventure 4, The Mine (adventure-4-mine.md): three mine levels numbered left to right, minerals
circled on numbering, plants and water circled beside the number, columns extracted in phase 5
into the four resource factories, the filling-bonus race, upgrades of the main factories and
control centres, and the five secondary factories with their immediate bonuses.

The rules are the spec's: the mine, its elements and columns §2.1-2.3, the factories §2.4-2.6,
numbering and actions §3.1-3.2, factory completion §3.3, extraction in phase 5 §3.4, the
filling-bonus race §3.5, System Errors §4, missions §5, end and scoring §6, solo §7. Element
ids are the data file's (§9).

Readings taken where the sources disagree (§8), and choices of this module:

- extraction happens in phase 5 (``incidents``), after every action of the turn;
- an X circles the mineral of its space, and circling a mineral is automatic;
- every action stays optional (an explicit ``skip``), but modifying the number with the
  Astronaut action uses the action: its symbol is then crossed at once; with a modifier of 0
  the player may still cross it (or skip). Past the 8th astronaut / 6th planning symbol the
  modifier and the X still work and nothing is crossed;
- the filling bonus goes to every player reaching the trigger box in the same turn;
- control centres are upgraded by their energy and robot symbols, like any main factory;
- the 3 robots of the robot factory are a bonus, not an action: they must be used, one at a
  time, while a robot symbol is left (there is no skip), and any surplus is lost;
- a pending step that can change nothing (a Plant action with no reachable plant, a Robot
  action with every robot symbol crossed...) resolves by itself as ``no_effect``;
- the System Error boxes are marked top to bottom through the common ``system_error`` event
  (its mark word is the common ``circle``; every marked box counts as crossed here).
"""

from collections.abc import Iterable
from functools import partial
from typing import Any, cast

from games.rules.adventures.mine import shapes
from games.rules.adventures.mine.layout import Layout
from games.rules.common.base import Adventure, AreaPart, Condition, Step, number_changed
from games.rules.common.options import Choice, Option, StepOption, WriteOption
from games.rules.core.errors import N_, RuleViolation, Text, shown
from games.rules.core.events import Recorder
from games.rules.core.sheet import CIRCLE, CROSS, Marks, all_filled, first_unmarked
from games.rules.core.state import GameState, Sheet

# Mission conditions, by card (the card texts are in the common mission index).
MISSION_PUMPS = 82
PUMPS_NEEDED = 5
MISSION_ADJACENT_PUMPS = 83
ADJACENT_PUMPS_NEEDED = 4
MISSION_ALL_SECONDARY = 84
MISSION_FACTORIES = 85
FACTORIES_NEEDED = 6
MISSION_PLANTS = 86
PLANTS_NEEDED = 8
MISSION_WATERS = 87
WATERS_NEEDED = 5

# Breakdown key of each resource factory's scoring area.
AREA_OF_FACTORY = {
    "main.plants": "plants",
    "main.water": "water",
    "main.pearls": "pearls",
    "main.rubies": "rubies",
}


def _level_name(level: str) -> str:
    return f"level {level.removeprefix('level')}"


class MineRules(Adventure[Layout]):
    """The rules of adventure 4 (see the module docstring)."""

    score_shape = shapes.MineScore
    derived_shape = shapes.MineDerived

    layout_class = Layout
    space_word = N_("a cavity")
    # The steps of a frame are alike (the 3 bonus robots): the first stands for all.
    frame_steps_alike = True

    def step_table(self) -> dict[str, Step]:
        gap = Step(uses=self._gap_uses, use=self._circle_gap_symbol)
        factory = Step(uses=self._factory_uses, use=self._cross_factory)
        return {
            "plant": gap,
            "water": gap,
            "robot": factory,
            "energy": factory,
            "astronaut": self.astronaut_step(self._astronaut),
            "planning": self.planning_step(self._planning),
        }

    def mission_table(self) -> dict[int, Condition]:
        return {
            MISSION_PUMPS: lambda sheet: sum(self._pumped(sheet.marks)) >= PUMPS_NEEDED,
            MISSION_ADJACENT_PUMPS: lambda sheet: _run_of(self._pumped(sheet.marks), ADJACENT_PUMPS_NEEDED),
            MISSION_ALL_SECONDARY: lambda sheet: all(
                self.factory_complete(sheet.marks, f) for f in self.layout.secondary_factories
            ),
            MISSION_FACTORIES: lambda sheet: sum(
                1 for f in self.layout.factories if self.factory_complete(sheet.marks, f)
            )
            >= FACTORIES_NEEDED,
            MISSION_PLANTS: lambda sheet: self._ever_circled(sheet.marks, "mine_plant") >= PLANTS_NEEDED,
            MISSION_WATERS: lambda sheet: self._ever_circled(sheet.marks, "mine_water") >= WATERS_NEEDED,
        }

    # --- phases 2-3 ------------------------------------------------------------------------

    def zone_name(self, zone: Any) -> str:
        return _level_name(self.layout.level_of(zone[0]))

    def after_fill(self, rec: Recorder, seat: int, space: str) -> None:
        """A cavity holding a mineral circles it as soon as it is filled (number or X)."""
        mineral = self.layout.spaces[space]["mineral_element"]
        if mineral is not None and mineral not in rec.sheet(seat).marks:
            rec.mark(seat, element=mineral, mark=CIRCLE)

    @property
    def astronaut_track(self) -> tuple[str, ...]:
        return self.layout.astronaut_symbols

    def score_effect(self, state: GameState, seat: int, option: Option) -> Any:
        """Filling a cavity scores nothing by itself (minerals score once extracted, in
        phase 5): a write changes the score only by an Astronaut action used with it, and
        every Planning X alike."""
        if option["action"] == "planning":
            return "planning"
        if option["action"] != "write":
            return None
        return number_changed(state, cast(WriteOption, option))

    # --- phase 4: the actions ------------------------------------------------------------

    def step_action(self, step: str) -> str:
        """The action a step is resolved with (a bonus robot is a robot)."""
        return "robot" if step in self.layout.robot_bonus_steps else step.removeprefix("action.")

    def skip_refusal(self, step: str) -> RuleViolation:
        return RuleViolation(
            "effect_not_optional",
            "The robots of the robot factory cannot be saved: cross a robot symbol with each of them.",
        )

    def gap_symbol_problem(
        self, marks: Marks, resource: str, space: str, symbol: Any
    ) -> RuleViolation | None:
        """Why a Plant/Water action on ``space`` cannot circle ``symbol``, or None."""
        element = self.layout.elements.get(symbol) if isinstance(symbol, str) else None
        if element is None or symbol not in self.layout.gap_symbols:
            return RuleViolation(
                "unknown_symbol",
                "%(symbol)s is not a symbol of the mine.",
                symbol=shown(symbol),
            )
        if element["value"] != resource:
            return RuleViolation(
                "wrong_symbol_kind",
                "%(symbol)s is a %(value)s symbol; a %(resource)s action circles a %(resource)s symbol.",
                symbol=symbol,
                value=element['value'],
                resource=resource,
            )
        if space not in element["links"]:
            return RuleViolation(
                "symbol_not_reachable",
                "%(symbol)s is not directly above or below %(space)s, where the number was written.",
                symbol=symbol,
                space=space,
            )
        if symbol in marks:
            return RuleViolation(
                "symbol_already_marked",
                "%(symbol)s is already circled.",
                symbol=symbol,
            )
        return None

    def factory_symbol_problem(self, marks: Marks, kind: str, symbol: Any) -> RuleViolation | None:
        """Why a Robot (or Energy) cannot cross ``symbol``, or None."""
        if not isinstance(symbol, str) or symbol not in self.layout.factory_of_symbol:
            return RuleViolation(
                "unknown_symbol",
                "%(symbol)s is not an energy or robot symbol of a factory.",
                symbol=shown(symbol),
            )
        if self.layout.elements[symbol]["kind"] != f"{kind}_symbol":
            return RuleViolation(
                "wrong_symbol_kind",
                "A %(kind)s crosses a %(kind)s symbol, and %(symbol)s is not one.",
                kind=Text(kind),
                symbol=symbol,
            )
        if symbol in marks:
            return RuleViolation(
                "symbol_already_crossed",
                "%(symbol)s is already crossed.",
                symbol=symbol,
            )
        return None

    def _gap_uses(self, state: GameState, seat: int, step: str) -> Iterable[StepOption]:
        action = self.step_action(step)
        marks = state.sheet_of(seat).marks
        space = state.seats[seat].turn_choice["space"]
        return (
            {"action": action, "effect": step, "symbol": symbol}
            for symbol in self.layout.gap_symbols_by_space.get(space, ())
            if symbol not in marks and self.layout.elements[symbol]["value"] == action
        )

    def _circle_gap_symbol(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        symbol = choice.get("symbol")
        space = rec.seat(seat).turn_choice["space"]
        problem = self.gap_symbol_problem(rec.sheet(seat).marks, self.step_action(step), space, symbol)
        self.use_on(rec, seat, step, symbol, problem, outcome="circled", mark=CIRCLE)

    def _factory_uses(self, state: GameState, seat: int, step: str) -> Iterable[StepOption]:
        action = self.step_action(step)
        marks = state.sheet_of(seat).marks
        return (
            {"action": action, "effect": step, "symbol": symbol}
            for symbol in self.layout.factory_symbols_of_kind[action]
            if symbol not in marks
        )

    def _cross_factory(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        symbol = choice.get("symbol")
        _raise(self.factory_symbol_problem(rec.sheet(seat).marks, self.step_action(step), symbol))
        assert isinstance(symbol, str)
        self.resolve_step(rec, seat, step, outcome="crossed", target=symbol)
        self._cross_factory_symbol(rec, seat, symbol)

    def _astronaut(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        self.resolve_step(rec, seat, step, outcome="crossed", target=None)
        self.cross_next(rec, seat, self.layout.astronaut_symbols)

    def _planning(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        self.write_x(rec, seat, step, choice)
        self.cross_next(rec, seat, self.layout.planning_symbols)

    # --- factories -------------------------------------------------------------------------

    def factory_complete(self, marks: Marks, factory: str) -> bool:
        """A factory is upgraded (main) or activated (secondary) once all its energy and
        robot symbols are crossed."""
        return all_filled(marks, self.layout.factories[factory]["upgrade_symbols"])

    def _cross_factory_symbol(self, rec: Recorder, seat: int, symbol: str) -> None:
        rec.mark(seat, element=symbol, mark=CROSS)
        factory = self.layout.factory_of_symbol[symbol]
        if self.factory_complete(rec.sheet(seat).marks, factory):
            self._complete_factory(rec, seat, factory)

    def _complete_factory(self, rec: Recorder, seat: int, factory: str) -> None:
        raw = self.layout.factories[factory]
        if raw["type"] != "secondary":
            rec.mark(seat, element=f"{factory}.value_base", mark=CROSS)
            return
        for icon in raw["bonus_icons"]:
            rec.mark(seat, element=icon, mark=CROSS)
        bonus = raw["bonus"]
        if bonus["type"] == "resources":
            for _ in range(bonus["amount"]):
                self._store(rec, seat, bonus["factory"])
        else:
            rec.effects_pending(seat, source=factory, effects=list(raw["bonus_icons"]))

    def _store(self, rec: Recorder, seat: int, factory: str) -> None:
        """Circle the next free box of a resource factory, then check its filling bonus."""
        box = first_unmarked(rec.sheet(seat).marks, self.layout.track_of(factory))
        if box is None:
            return
        rec.mark(seat, element=box, mark=CIRCLE)
        bonus = self.layout.factories[factory]["filling_bonus"]
        if box == bonus["trigger_box"] and bonus["element"] not in rec.sheet(seat).marks:
            rec.mark(seat, element=bonus["element"], mark=CIRCLE)

    # --- phase 5: extraction and the filling-bonus race -----------------------------------

    def incidents(self, rec: Recorder) -> None:
        for seat in range(rec.state.players):
            for column in self.extractable_columns(rec.sheet(seat).marks):
                self._extract(rec, seat, column)
        self.settle_races(rec)

    def race_elements(self) -> tuple[str, ...]:
        return tuple(
            self.layout.factories[factory]["filling_bonus"]["element"]
            for factory in self.layout.resource_factories
        )

    def extractable_columns(self, marks: Marks) -> list[dict[str, Any]]:
        """Complete columns (3 cavities filled) whose pump is not circled yet."""
        return [
            column
            for column in self.layout.columns
            if column["pump"] not in marks and all_filled(marks, column["spaces"])
        ]

    def _extract(self, rec: Recorder, seat: int, column: dict[str, Any]) -> None:
        for resource in column["resources_top_to_bottom"]:
            if rec.sheet(seat).marks.get(resource) == CIRCLE:
                rec.mark(seat, element=resource, mark=CROSS)
                kind = self.layout.elements[resource]["value"]
                self._store(rec, seat, self.layout.factory_for_resource[kind])
        rec.mark(seat, element=column["pump"], mark=CIRCLE)

    # --- phase 6: missions -----------------------------------------------------------------

    def _pumped(self, marks: Marks) -> list[bool]:
        return [pump in marks for pump in self.layout.pumps]

    def _ever_circled(self, marks: Marks, kind: str) -> int:
        """Mine symbols circled, extracted (crossed) since or not."""
        return sum(map(marks.__contains__, self.layout.elements_of_kind(kind)))

    # --- scoring ---------------------------------------------------------------------------

    def factory_value(self, marks: Marks, factory: str) -> int:
        """The value in force: the upgraded one once the factory is complete."""
        raw = self.layout.factories[factory]
        upgraded = self.factory_complete(marks, factory)
        return int(raw["value_upgraded"] if upgraded else raw["value_base"])

    def _factory_points(self, marks: Marks, factory: str) -> int:
        bonus = self.layout.factories[factory]["filling_bonus"]
        filled = sum(map(marks.__contains__, self.layout.track_of(factory)))
        won = bonus["value"] if marks.get(bonus["element"]) == CIRCLE else 0
        return filled * self.factory_value(marks, factory) + int(won)

    def _centre_points(self, marks: Marks, centre: str) -> int:
        crossed = sum(map(marks.__contains__, self.layout.track_of(centre)))
        return crossed * self.factory_value(marks, centre)

    def _planning_points(self, marks: Marks) -> int:
        return -self._centre_points(marks, "centre.planning")

    def areas(self, state: GameState, sheet: Sheet, marks: Marks) -> dict[str, int]:
        score = {area: self._factory_points(marks, f) for f, area in AREA_OF_FACTORY.items()}
        score["astronaut"] = self._centre_points(marks, "centre.astronaut")
        score["planning"] = self._planning_points(marks)
        return score

    def area_parts(self) -> list[AreaPart]:
        """Each resource factory's area (its track, its upgrade symbols, its filling bonus), the
        astronauts' and the planning's (their track and upgrade symbols)."""
        layout = self.layout

        def reads(factory: str) -> tuple[str, ...]:
            return (*layout.track_of(factory), *layout.factories[factory]["upgrade_symbols"])

        parts: list[AreaPart] = [
            (
                (*reads(factory), layout.factories[factory]["filling_bonus"]["element"]),
                partial(self._factory_points, factory=factory),
            )
            for factory in AREA_OF_FACTORY
        ]
        parts.append((reads("centre.astronaut"), partial(self._centre_points, centre="centre.astronaut")))
        parts.append((reads("centre.planning"), self._planning_points))
        return parts

    def derived(self, state: GameState, sheet: Sheet, *, marks: Marks) -> dict[str, Any]:
        factories: dict[str, dict[str, Any]] = {}
        for factory, raw in self.layout.factories.items():
            complete = self.factory_complete(marks, factory)
            entry: dict[str, Any] = {
                "symbols_left": [s for s in raw["upgrade_symbols"] if s not in marks],
            }
            if raw["type"] == "secondary":
                entry["activated"] = complete
            else:
                entry["upgraded"] = complete
                entry["value"] = self.factory_value(marks, factory)
                entry["filled"] = sum(1 for box in self.layout.track_of(factory) if box in marks)
            if raw["type"] == "main_resource":
                entry["capacity"] = raw["capacity"]
                mark = marks.get(raw["filling_bonus"]["element"])
                entry["filling_bonus"] = {CIRCLE: "won", CROSS: "lost"}.get(str(mark), "open")
            factories[factory] = entry
        return {
            "extracted_columns": [
                column["id"] for column in self.layout.columns if column["pump"] in marks
            ],
            "columns_to_extract": [column["id"] for column in self.extractable_columns(marks)],
            "factories": factories,
        }


def _run_of(flags: list[bool], length: int) -> bool:
    """Whether ``length`` consecutive flags are all set."""
    return any(all(flags[start : start + length]) for start in range(len(flags) - length + 1))


def _raise(problem: RuleViolation | None) -> None:
    if problem is not None:
        raise problem
