"""Adventure 7, The Escape (adventure-7-escape.md): six ships of modules and greenhouses opened
through airlocks from the two bottom modules, reactors and water tanks raising the modules'
points, plants in the greenhouses, the race for each greenhouse's x2, and wild actions earned by
astronauts.

The rules are the spec's: ships, blocks and spaces §3.1-3.2, airlocks §3.3, greenhouses §3.4,
reactors §3.5, tanks §3.6, robots §3.7, astronauts and wild actions §3.8, accessibility §4, the
turn §5, reactions §6, the x2 race §7, System Errors §8, missions §9, end and scoring §10, solo
§11. Element ids are the data file's (§2, §13).

Readings taken where the sources disagree (§12), and choices of this module:

- D1: cards 100-105 and their first/later values follow the reference implementation (the
  common mission index); D2: ASTRA's card (15 fixed, 1 per level, 6 bonus boxes) is read
  from the common data; D8: an equal solo total is a draw (``astra.solo_winner``);
- D3: an X triggers the robot of its space and the x2 of its greenhouse, and counts as numbered
  for scoring and missions;
- D4, D5: penalties by boxes crossed, 0/1/3/6/9/12/16/20/24/28 and 0/5/10/15 (read from the
  data file);
- D6: every action is an optional step with an explicit ``skip`` (a Planning X may be
  declined); an airlock activation from a robot space or a System Error is a step without a
  skip (activating never hurts); a step that can change nothing resolves by itself as
  ``no_effect``;
- D7: a wild action is chosen with the combination (``wild`` and ``wild_action`` in the pick),
  one per turn; a wild circled by this turn's Astronaut is not there yet at the pick; whether a
  number can be written is judged on the combinations as dealt, and a wild that makes one
  writable may be used instead of the System Error (common D4: never forced);
- an activated airlock is marked ``line``; one joining two blocks already accessible may still
  be activated (it opens nothing), as the spec allows;
- the Astronaut action is used by changing the number: a pick whose number differs from the
  card's crosses the next symbol at once; a pick of the card's own number leaves the symbol to
  cross (or skip) as a step; past the sixth symbol the modifier still works;
- the x2 of a greenhouse is circled at once when its space is filled, while the robot of the
  space waits as a step above the action: the order of the two cannot change an outcome;
- a Planning X crosses its planning box at once; the robot of its space then waits as a step;
- Energy and Plant name the reactor or plant they circle (any empty one of the ship); the
  options list the first empty one, the others being the same;
- the System Error boxes are marked top to bottom through the common ``system_error`` event
  (its mark word is the common ``circle``; every marked box counts as crossed here);
- D9: ships are counted from the bottom (``ship1`` starts, ``ship6`` is the highest);
- solo (spec section 11): an x2 circled earns 1 ASTRA bonus, and each Effect card (A, B or C,
  both passes) crosses an x2 still available, the player's choice: the only threat to them; a
  single seat playing without ASTRA is raced by nobody.
"""

from collections.abc import Collection, Iterable, Mapping, Sequence
from functools import partial
from typing import Any, cast

from games.rules.adventures.escape import shapes
from games.rules.adventures.escape.layout import Block, Layout
from games.rules.common.base import ASTRONAUT, AreaPart, Condition, Prospects, Step
from games.rules.common.options import Choice, Option, StepOption, WriteOption
from games.rules.common.wilds import WildActions
from games.rules.core import cards
from games.rules.core.cards import ACTIONS, Combination
from games.rules.core.errors import N_, RuleViolation, Text, shown
from games.rules.core.events import Recorder, Written
from games.rules.core.sheet import CIRCLE, CROSS, LINE, Marks, X, all_filled, first_unmarked
from games.rules.core.state import GameState, Sheet

ROBOT = "robot"
# The element a circling step's option names, by its action.
SYMBOL_KEYS = {"energy": "reactor", "plant": "plant", "water": "tank"}

# Mission conditions, by card (the card texts are in the common mission index).
MISSION_FULL_GREENHOUSES, FULL_GREENHOUSES_NEEDED = 100, 3
MISSION_HIGHEST_GREENHOUSE, HIGHEST_SHIP = 101, "ship6"
MISSION_MODULES, MODULES_NEEDED = 102, 7
MISSION_SHIPS, SHIPS_NEEDED = 103, 3
MISSION_REACTORS, REACTOR_SHIPS_NEEDED = 104, 3
MISSION_TANKS, TANK_SHIPS_NEEDED = 105, 3


class EscapeRules(WildActions[Layout]):
    """The rules of adventure 7 (see the module docstring)."""

    score_shape = shapes.EscapeScore
    derived_shape = shapes.EscapeDerived

    layout_class = Layout
    start_mark_words = (CIRCLE, CROSS, LINE)

    def step_table(self) -> dict[str, Step]:
        return {
            ROBOT: Step(uses=self.each_of(ROBOT, "airlock", self.activatable_airlocks), use=self._activate),
            "energy": Step(uses=self._energy_uses, use=self._circle_reactor),
            "plant": Step(uses=self._plant_uses, use=self._circle_plant),
            "water": Step(uses=self._water_uses, use=self._circle_tank),
            "astronaut": self.astronaut_step(),
            "planning": Step(uses=self.each_of("planning", "space", self.open_x_spaces), use=self._planning),
        }

    def mission_table(self) -> dict[int, Condition]:
        return {
            MISSION_FULL_GREENHOUSES: lambda sheet: sum(
                1 for ship in self.layout.ships if self.greenhouse_full(sheet.marks, ship)
            )
            >= FULL_GREENHOUSES_NEEDED,
            MISSION_HIGHEST_GREENHOUSE: lambda sheet: self.greenhouse_full(sheet.marks, HIGHEST_SHIP),
            MISSION_MODULES: lambda sheet: len(self.complete_modules(sheet.marks)) >= MODULES_NEEDED,
            MISSION_SHIPS: lambda sheet: sum(
                1 for spaces in self.layout.ships.values() if all_filled(sheet.marks, spaces)
            )
            >= SHIPS_NEEDED,
            MISSION_REACTORS: lambda sheet: sum(
                1 for reactors in self.layout.reactors.values() if all_filled(sheet.marks, reactors)
            )
            >= REACTOR_SHIPS_NEEDED,
            MISSION_TANKS: lambda sheet: sum(
                1 for tanks in self.layout.tanks_of.values() if all_filled(sheet.marks, tanks)
            )
            >= TANK_SHIPS_NEEDED,
        }

    # --- setup ---------------------------------------------------------------------------

    def mark_problem(self, element: Any, mark: Any) -> RuleViolation | None:
        """An airlock starts activated (``line``); the other elements circled or crossed."""
        if isinstance(element, str) and element in self.layout.airlocks:
            return None if mark == LINE else RuleViolation(
                "invalid_modifier",
                "An airlock is activated with %(line)s, not %(mark)s.",
                line=shown(LINE),
                mark=shown(mark),
            )
        if isinstance(element, str) and element in self.layout.markable and mark == LINE:
            return RuleViolation(
                "invalid_modifier",
                "%(line)s is a mark for airlocks, not for %(element)s.",
                line=shown(LINE),
                element=element,
            )
        return super().mark_problem(element, mark)

    # --- phases 2-3: accessible spaces, wild actions --------------------------------------

    def zone_name(self, zone: Any) -> str:
        return self.layout.ship_of[zone[0]]

    def open_spaces(self, marks: Marks, zones: list[tuple[str, ...]]) -> list[tuple[str, int, int]]:
        """The empty spaces of accessible blocks, with the numbers their ship lets them take."""
        reachable = self.layout.access(marks).spaces
        return [run for run in super().open_spaces(marks, zones) if run[0] in reachable]

    def space_problem(self, marks: Marks, space: Any) -> RuleViolation | None:
        """An empty space of an accessible block."""
        problem = super().space_problem(marks, space)
        if problem is None and space not in self.layout.access(marks).spaces:
            return RuleViolation(
                "block_not_accessible",
                "%(space)s lies in %(block)s, which no activated airlock reaches yet.",
                space=space,
                block=self.layout.block_of[space],
            )
        return problem

    def open_x_spaces(self, marks: Marks) -> list[str]:
        """The empty spaces of accessible blocks, where a Planning X may go."""
        reachable = self.layout.access(marks).spaces
        return [space for space in self.layout.spaces if space in reachable and space not in marks]

    def wild_writes(
        self, state: GameState, candidates: list[tuple[str, int, int]], wild: str
    ) -> list[WriteOption]:
        options: list[WriteOption] = []
        for index, combination in enumerate(state.combinations):
            for action in ACTIONS:
                if action == combination.action:
                    continue
                for number in self.numbers_of(combination._replace(action=action)):
                    options += [
                        {
                            "action": "write", "combination": index, "space": space,
                            "number": number, "wild": wild, "wild_action": action,
                        }
                        for space, low, high in candidates
                        if low < number < high
                    ]  # fmt: skip
        return options

    def check_write(self, state: GameState, seat: int, choice: Choice) -> Written:
        index, combination = cards.chosen_combination(state.combinations, choice)
        marks = state.sheet_of(seat).marks
        wild = None
        if "wild" in choice or "wild_action" in choice:
            named, action = choice.get("wild"), choice.get("wild_action")
            _raise(self.wild_problem(marks, named, action))
            assert isinstance(action, str) and (named is None or isinstance(named, str))
            wild = named or self.available_wilds(marks)[0]
            combination = combination._replace(action=action)
        number = choice.get("number", combination.number)
        space = choice.get("space")
        _raise(self.number_problem(index, combination, number) or self.space_problem(marks, space))
        assert isinstance(space, str) and isinstance(number, int)
        _raise(self.placement_problem(marks, space, number))
        return _written(index, combination, space, number, wild)

    def listed_write(self, state: GameState, option: WriteOption) -> Written:
        combination = state.combinations[option["combination"]]
        if "wild" in option:
            combination = combination._replace(action=option["wild_action"])
        return _written(
            option["combination"], combination, option["space"], option["number"], option.get("wild")
        )

    def after_write(
        self, rec: Recorder, seat: int, written: Written, combination: Combination
    ) -> None:
        """A wild used is crossed; the action waits as its step (an Astronaut used by changing
        the number crosses its symbol at once); then the reactions of the space, above it."""
        if "wild" in written:
            rec.mark(seat, element=written["wild"], mark=CROSS)
        action = written["action"]
        if action == ASTRONAUT and written["modifier"] != 0:
            self.cross_next(rec, seat, self.astronaut_track)
        else:
            rec.effects_pending(seat, source=action, effects=[f"action.{action}"])
        self.after_fill(rec, seat, written["space"])

    def after_fill(self, rec: Recorder, seat: int, space: str) -> None:
        """A greenhouse filled circles its x2 unless crossed; a robot space filled gives an
        airlock to activate at once (D3: by a number or an X)."""
        x2 = self.layout.x2_of_space.get(space)
        if x2 is not None and x2 not in rec.sheet(seat).marks:
            rec.mark(seat, element=x2, mark=CIRCLE)
        robot = self.layout.robot_of_space.get(space)
        if robot is not None:
            rec.effects_pending(seat, source=robot, effects=[robot])

    def after_system_error(self, rec: Recorder, seat: int, box: str) -> None:
        """The first two boxes each give an airlock to activate."""
        if box in self.layout.compensated_errors:
            rec.effects_pending(seat, source=box, effects=[box])
            self.settle(rec, seat)

    @property
    def astronaut_track(self) -> tuple[str, ...]:
        return self.layout.astronaut_track

    def score_effect(self, state: GameState, seat: int, option: Option) -> Any:
        """A number or an X scores only through the block it completes (a module, or a
        greenhouse: one space); an airlock never changes the score,
        so each is weighed on its own by its prospects."""
        return self.score_effects(state, seat, [option])[0]

    def score_effects(self, state: GameState, seat: int, options: Sequence[Option]) -> list[Any]:
        """``score_effect`` of each option, the block each space completes worked out once."""
        marks = state.sheet_of(seat).marks
        layout = self.layout
        completed: dict[str, str] = {}  # the block filling a space completes ("": none), by space
        effects: list[Any] = []
        # each option read by its fields, whatever its shape
        for fields in cast("Sequence[Mapping[str, Any]]", options):
            action = fields["action"]
            if action != "write" and action != "planning":
                effects.append(None)  # an airlock opens its own room (``prospects``)
                continue
            space = fields["space"]
            block = completed.get(space)
            if block is None:
                found = layout.blocks[layout.block_of[space]]
                completes = all(other in marks or other == space for other in found.spaces)
                block = completed[space] = found.id if completes else ""
            effects.append((action, block))
        return effects

    def prospects(self, state: GameState, sheet: Sheet, marks: Marks) -> int:
        """The room left to write: empty spaces in accessible blocks. Opening airlocks scores
        nothing by itself, but a sheet with no room left ends in System Errors."""
        reachable = self.layout.access(marks).spaces
        return sum(1 for space in reachable if space not in marks)

    def prospects_change(self, state: GameState, seat: int) -> Prospects:
        """How much ``prospects`` change to the sheets a decision's options lead to: while an
        option activates no airlock the accessible spaces stay, and only the ones it fills are
        taken away."""
        now = state.sheet_of(seat)
        before = now.marks
        airlocks = self.layout.airlock_set
        played = self.played_prospects(state, seat)

        def change(
            after: GameState,
            sheet: Sheet,
            marks: Marks,
            elements: Collection[str] | None,
            option: Option | None,
        ) -> int:
            if elements is None or not airlocks.isdisjoint(elements):
                return played(after, sheet, marks)
            reachable = self.layout.access(before).spaces
            return -sum(1 for element in elements if element in reachable and element not in before)

        return change

    # --- phase 4: the actions and the airlocks ---------------------------------------------

    def step_action(self, step: str) -> str:
        """An action's step, or an airlock to activate (a robot space, a System Error box)."""
        return step.removeprefix("action.") if step.startswith("action.") else ROBOT

    def skip_refusal(self, step: str) -> RuleViolation:
        return RuleViolation(
            "effect_not_optional",
            "%(step)s activates an airlock at once: choose one to activate.",
            step=step,
        )

    def activatable_airlocks(self, marks: Marks) -> list[str]:
        """Inactive airlocks with an end in an accessible block."""
        opened = self.layout.access(marks).blocks
        return [
            airlock
            for airlock, (one, other) in self.layout.airlocks.items()
            if airlock not in marks and (one in opened or other in opened)
        ]

    def airlock_problem(self, marks: Marks, airlock: Any) -> RuleViolation | None:
        """Why ``airlock`` cannot be activated now, or None."""
        if not isinstance(airlock, str) or airlock not in self.layout.airlocks:
            return RuleViolation(
                "unknown_airlock",
                "%(airlock)s is not an airlock of this sheet.",
                airlock=shown(airlock),
            )
        if airlock in marks:
            return RuleViolation(
                "airlock_already_active",
                "%(airlock)s is already activated.",
                airlock=airlock,
            )
        opened = self.layout.access(marks).blocks
        if not any(block in opened for block in self.layout.airlocks[airlock]):
            one, other = self.layout.airlocks[airlock]
            return RuleViolation(
                "airlock_not_reachable",
                "Neither %(one)s nor %(other)s is accessible: an airlock is activated from an accessible "
                "block.",
                one=one,
                other=other,
            )
        return None

    def _activate(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        airlock = choice.get("airlock")
        problem = self.airlock_problem(rec.sheet(seat).marks, airlock)
        self.use_on(rec, seat, step, airlock, problem, outcome="activated", mark=LINE)

    def _number_ship(self, state: GameState, seat: int) -> str:
        """The ship where this turn's number was written."""
        return self.layout.ship_of[state.seats[seat].turn_choice["space"]]

    def _energy_uses(self, state: GameState, seat: int, step: str) -> Iterable[StepOption]:
        reactors = self.layout.reactors[self._number_ship(state, seat)]
        reactor = first_unmarked(state.sheet_of(seat).marks, reactors)
        return [] if reactor is None else [{"action": "energy", "effect": step, "reactor": reactor}]

    def _plant_uses(self, state: GameState, seat: int, step: str) -> Iterable[StepOption]:
        plants = self.layout.greenhouses[self._number_ship(state, seat)].plants
        plant = first_unmarked(state.sheet_of(seat).marks, plants)
        return [] if plant is None else [{"action": "plant", "effect": step, "plant": plant}]

    def _water_uses(self, state: GameState, seat: int, step: str) -> Iterable[StepOption]:
        tank = self.layout.tank_on.get(state.seats[seat].turn_choice["space"])
        if tank is None or tank in state.sheet_of(seat).marks:
            return []
        return [{"action": "water", "effect": step, "tank": tank}]

    def ship_symbol_problem(
        self, marks: Marks, kind: str, ship: str, symbol: Any, symbols: tuple[str, ...]
    ) -> RuleViolation | None:
        """Why a ``kind`` (reactor, plant) action after a number in ``ship`` cannot circle
        ``symbol`` (``symbols``: those of that ship), or None."""
        if not isinstance(symbol, str) or self.layout.elements.get(symbol, {}).get("kind") != kind:
            return RuleViolation(
                f"unknown_{kind}",
                "%(symbol)s is not a %(kind)s of this sheet.",
                symbol=shown(symbol),
                kind=Text(kind),
            )
        if symbol not in symbols:
            return RuleViolation(
                f"{kind}_not_in_ship",
                "%(symbol)s is not a %(kind)s of %(ship)s, where your number was written.",
                symbol=symbol,
                kind=Text(kind),
                ship=ship,
            )
        if symbol in marks:
            return RuleViolation(
                f"{kind}_already_circled",
                "%(symbol)s is already circled.",
                symbol=symbol,
            )
        return None

    def _circle_reactor(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        ship = self._number_ship(rec.state, seat)
        reactors = self.layout.reactors[ship]
        marks = rec.sheet(seat).marks
        reactor = choice.get("reactor", first_unmarked(marks, reactors))
        _raise(self.ship_symbol_problem(marks, "reactor", ship, reactor, reactors))
        self._circle(rec, seat, step, reactor)

    def _circle_plant(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        ship = self._number_ship(rec.state, seat)
        plants = self.layout.greenhouses[ship].plants
        marks = rec.sheet(seat).marks
        plant = choice.get("plant", first_unmarked(marks, plants))
        _raise(self.ship_symbol_problem(marks, "plant", ship, plant, plants))
        self._circle(rec, seat, step, plant)

    def water_problem(self, marks: Marks, space: str, tank: Any) -> RuleViolation | None:
        """Why Water after a number in ``space`` cannot circle ``tank``, or None."""
        on_space = self.layout.tank_on.get(space)
        if tank != on_space:
            return RuleViolation(
                "tank_not_on_space",
                N_(
                    "Water circles the tank printed on %(space)s, where your number was written "
                    "(none), not %(tank)s."
                )
                if on_space is None
                else N_(
                    "Water circles the tank printed on %(space)s, where your number was written "
                    "(%(printed)s), not %(tank)s."
                ),
                space=space,
                printed=on_space,
                tank=shown(tank),
            )
        if tank in marks:
            return RuleViolation(
                "tank_already_circled",
                "%(tank)s is already circled.",
                tank=tank,
            )
        return None

    def _circle_tank(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        space = rec.seat(seat).turn_choice["space"]
        tank = choice.get("tank", self.layout.tank_on.get(space))
        _raise(self.water_problem(rec.sheet(seat).marks, space, tank))
        self._circle(rec, seat, step, tank)

    def _circle(self, rec: Recorder, seat: int, step: str, element: Any) -> None:
        self.resolve_step(rec, seat, step, outcome="circled", target=element)
        rec.mark(seat, element=element, mark=CIRCLE)

    def _planning(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        self.write_x(rec, seat, step, choice)
        self.cross_next(rec, seat, self.layout.planning_boxes)

    # --- phase 5: the x2 race ----------------------------------------------------------------

    def race_elements(self) -> tuple[str, ...]:
        return self.layout.x2_bonuses

    # --- missions and scoring ------------------------------------------------------------

    def plants(self, marks: Marks, ship: str) -> int:
        """Circled plants of a ship's greenhouse, the printed ones included."""
        return sum(1 for plant in self.layout.greenhouses[ship].plants if plant in marks)

    def reactors(self, marks: Marks, ship: str) -> int:
        """Circled reactors of a ship, the printed ones included."""
        return sum(1 for reactor in self.layout.reactors[ship] if reactor in marks)

    def greenhouse_full(self, marks: Marks, ship: str) -> bool:
        """A greenhouse numbered (or holding an X) with its three plants circled."""
        greenhouse = self.layout.greenhouses[ship]
        return greenhouse.space in marks and all_filled(marks, greenhouse.plants)

    def complete_modules(self, marks: Marks) -> list[Block]:
        return [module for module in self.layout.modules if all_filled(marks, module.spaces)]

    def greenhouse_points(self, marks: Marks, ship: str) -> int:
        """Points of a numbered greenhouse by its plants, doubled with its x2 circled."""
        greenhouse = self.layout.greenhouses[ship]
        if greenhouse.space not in marks:
            return 0
        points = self.layout.greenhouse_points[self.plants(marks, ship)]
        return points * self.layout.x2_multiplier if marks.get(greenhouse.x2) == CIRCLE else points

    def module_points(self, marks: Marks, module: Block) -> int:
        """Points of a complete module by its ship's reactors, doubled with its tank circled."""
        if not all_filled(marks, module.spaces):
            return 0
        points = self.layout.module_points[self.reactors(marks, module.ship)]
        return points * self.layout.water_multiplier if module.water_tank in marks else points

    def ship_module_points(self, marks: Marks, ship: str) -> int:
        return sum(self.module_points(marks, module) for module in self.layout.modules_of[ship])

    def planning_penalty(self, marks: Marks) -> int:
        crossed = sum(1 for box in self.layout.planning_boxes if box in marks)
        return self.layout.planning_penalty[crossed]

    def areas(self, state: GameState, sheet: Sheet, marks: Marks) -> dict[str, int]:
        ships = self.layout.ships
        return {
            "greenhouses": sum(self.greenhouse_points(marks, ship) for ship in ships),
            "modules": sum(self.ship_module_points(marks, ship) for ship in ships),
            "planning": -self.planning_penalty(marks),
        }

    def area_parts(self) -> list[AreaPart]:
        """Each ship's greenhouse, each module (with its ship's reactors), and the planning
        penalty."""
        layout = self.layout
        parts: list[AreaPart] = []
        for ship in layout.ships:
            greenhouse = layout.greenhouses[ship]
            parts.append(
                ((greenhouse.space, *greenhouse.plants, greenhouse.x2), partial(self._greenhouse_part, ship))
            )
            for module in layout.modules_of[ship]:
                tank = () if module.water_tank is None else (module.water_tank,)
                read = (*module.spaces, *layout.reactors[ship], *tank)
                parts.append((read, partial(self._module_part, module)))
        parts.append((layout.planning_boxes, self._planning_part))
        return parts

    def _greenhouse_part(self, ship: str, marks: Marks) -> int:
        return self.greenhouse_points(marks, ship)

    def _module_part(self, module: Block, marks: Marks) -> int:
        return self.module_points(marks, module)

    def _planning_part(self, marks: Marks) -> int:
        return -self.planning_penalty(marks)

    def listed_marks(self, state: GameState, seat: int, option: Option) -> Marks | None:
        """What an option marks that the score or the prospects read, where nothing else it sets
        off is read by either: a write's number, a Planning X with the planning box it crosses
        (each with the x2 its greenhouse circles), an airlock activated, a reactor, plant or
        tank circled, nothing for a skip. Besides, a wild spent, the astronaut symbols crossed
        (and the wild they circle) and the steps left waiting are read by neither. None for a
        System Error (its airlock waits) and the Astronaut step."""
        fields: Mapping[str, Any] = option
        action = fields["action"]
        if action == "skip":
            return {}
        if action == ROBOT:
            return {fields["airlock"]: LINE}
        if action in SYMBOL_KEYS:
            return {fields[SYMBOL_KEYS[action]]: CIRCLE}
        if action != "write" and action != "planning":
            return None
        marks = state.sheet_of(seat).marks
        space = fields["space"]
        made: Marks = {space: fields["number"] if action == "write" else X}
        if action == "planning":
            box = first_unmarked(marks, self.layout.planning_boxes)
            if box is not None:
                made[box] = CROSS
        x2 = self.layout.x2_of_space.get(space)
        if x2 is not None and x2 not in marks:
            made[x2] = CIRCLE
        return made

    def details(self, state: GameState, sheet: Sheet, marks: Marks) -> dict[str, Any]:
        """The points of each ship's greenhouse and modules (the sheet's score sub-boxes)."""
        return {
            "greenhouse_by_ship": {ship: self.greenhouse_points(marks, ship) for ship in self.layout.ships},
            "modules_by_ship": {ship: self.ship_module_points(marks, ship) for ship in self.layout.ships},
        }

    def derived(self, state: GameState, sheet: Sheet, *, marks: Marks) -> dict[str, Any]:
        """The blocks opened through the airlocks, the airlocks that may be activated, and each
        ship's greenhouse (plants, x2 race, multiplier), reactors, tanks and complete modules."""
        access = self.layout.access(marks)
        return {
            "accessible_blocks": [block for block in self.layout.blocks if block in access.blocks],
            "active_airlocks": [airlock for airlock in self.layout.airlocks if airlock in marks],
            "activatable_airlocks": self.activatable_airlocks(marks),
            "ships": {ship: self._ship_view(marks, ship) for ship in self.layout.ships},
            "available_wilds": self.available_wilds(marks),
            "planning_penalty": self.planning_penalty(marks),
        }

    def _ship_view(self, marks: Marks, ship: str) -> dict[str, Any]:
        greenhouse = self.layout.greenhouses[ship]
        x2 = marks.get(greenhouse.x2)
        reactors = self.reactors(marks, ship)
        return {
            "greenhouse": {
                "numbered": greenhouse.space in marks,
                "plants": self.plants(marks, ship),
                "x2": {CIRCLE: "won", CROSS: "lost"}.get(str(x2), "open"),
                "multiplier": self.layout.x2_multiplier if x2 == CIRCLE else 1,
                "points": self.greenhouse_points(marks, ship),
            },
            "reactors": reactors,
            "module_value": self.layout.module_points[reactors],
            "water_tanks": {tank: tank in marks for tank in self.layout.tanks_of[ship]},
            "complete_modules": [
                module.id for module in self.layout.modules_of[ship] if all_filled(marks, module.spaces)
            ],
            "module_points": self.ship_module_points(marks, ship),
        }


def _written(
    index: int, combination: Combination, space: str, number: int, wild: str | None
) -> Written:
    """The data of a number_written event: the action used (the wild's, if any), the
    Astronaut's modifier and the wild spent."""
    written: Written = {
        "combination": index, "space": space, "number": number, "action": combination.action
    }
    if combination.action == ASTRONAUT:
        written["modifier"] = number - combination.number
    if wild is not None:
        written["wild"] = wild
    return written


def _raise(problem: RuleViolation | None) -> None:
    if problem is not None:
        raise problem
