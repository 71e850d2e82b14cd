"""Adventure 4, The Mine: three mine levels numbered left to right, minerals circled on
numbering, plants and water circled beside the number, columns extracted in phase 5 into the
four resource factories, the filling-bonus race, upgrades of the main factories and control
centres, and the five secondary factories with their immediate bonuses.

Readings taken where the sources disagree (spec section 8), and choices of this module:

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

from typing import Any

from games.rules import cards, data, ranking, steps
from games.rules import modifiers as modifiers_rules
from games.rules.actions import astronaut_numbers
from games.rules.adventures.base import Option
from games.rules.adventures.mine_layout import Layout
from games.rules.cards import Combination
from games.rules.ending import standard_end_reasons
from games.rules.errors import RuleViolation
from games.rules.events import Recorder
from games.rules.sheet import (
    MAX_NUMBER,
    MIN_NUMBER,
    Marks,
    X,
    all_filled,
    first_unmarked,
    placement_problem,
    x_placement_problem,
)
from games.rules.state import GameState, SeatState

CIRCLE = "circle"
CROSS = "cross"

# The step each action leaves waiting for the player's choice (all optional).
ACTION_STEPS = {
    action: f"action.{action}"
    for action in ("robot", "energy", "plant", "water", "astronaut", "planning")
}
ASTRONAUT_STEP = ACTION_STEPS["astronaut"]
PLANNING_STEP = ACTION_STEPS["planning"]
OPTIONAL_STEPS = frozenset(ACTION_STEPS.values())

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

START_MARK_WORDS = (CIRCLE, CROSS)


def _level_name(level: str) -> str:
    return f"level {level.removeprefix('level')}"


class MineRules:
    """The rules of adventure 4 (see the module docstring)."""

    number = 4
    key = "mine"
    name = "The Mine"

    def __init__(self) -> None:
        self.layout = Layout(data.adventure(4))
        self._mark_problem = modifiers_rules.mark_problem_on(
            spaces=self.layout.spaces, markable=self.layout.markable, words=START_MARK_WORDS
        )

    # --- setup ---------------------------------------------------------------------------

    def validate_modifiers(self, modifiers: list[dict[str, Any]]) -> None:
        modifiers_rules.validate(
            modifiers, error_boxes=len(self.layout.error_boxes), mark_problem=self._mark_problem
        )

    def new_seat(self, modifiers: list[dict[str, Any]]) -> SeatState:
        return modifiers_rules.seat_from(modifiers, error_boxes=self.layout.error_boxes)

    # --- phases 2-3: pick a combination and write its number -----------------------------

    def placement_problem(self, marks: Marks, space: str, number: int) -> RuleViolation | None:
        """Why ``number`` cannot go in ``space`` (its level stays strictly ascending), or None."""
        level = self.layout.level_of(space)
        return placement_problem(
            marks, self.layout.levels[level], space, number, zone_name=_level_name(level)
        )

    @staticmethod
    def numbers_of(combination: Combination) -> list[int]:
        """The numbers a combination can write: an Astronaut one may be changed by -2 to +2."""
        if combination.action == "astronaut":
            return astronaut_numbers(combination.number)
        return [combination.number]

    def choice_options(self, state: GameState, seat: int) -> list[Option]:
        sheet = state.seats[seat]
        writes = self._write_options(state, sheet.marks)
        if writes:
            return writes
        box = first_unmarked(sheet.marks, sheet.error_boxes)
        return [{"action": "system_error", "box": box}] if box is not None else []

    def _write_options(self, state: GameState, marks: Marks) -> list[Option]:
        options = []
        empty = [space for space in self.layout.spaces if space not in marks]
        for index, combination in enumerate(state.combinations):
            for number in self.numbers_of(combination):
                for space in empty:
                    if self.placement_problem(marks, space, number) is None:
                        options.append(
                            {
                                "action": "write",
                                "combination": index,
                                "space": space,
                                "number": number,
                            }
                        )
        return options

    def play_write(self, rec: Recorder, seat: int, choice: Option) -> None:
        state = rec.state
        index, combination = cards.chosen_combination(state.combinations, choice)
        space = choice.get("space")
        if space not in self.layout.spaces:
            raise RuleViolation("unknown_space", f"{space!r} is not a cavity of this sheet.")
        number = choice.get("number", combination.number)
        if not isinstance(number, int) or number not in self.numbers_of(combination):
            if combination.action == "astronaut":
                raise RuleViolation(
                    "astronaut_modifier_out_of_range",
                    f"The Astronaut action changes {combination.number} by -2 to +2 within "
                    f"{MIN_NUMBER}-{MAX_NUMBER}: {number!r} is out of reach.",
                )
            raise RuleViolation(
                "number_not_in_combination",
                f"Combination {index} shows {combination.number}, not {number!r}; only an "
                "Astronaut combination changes its number.",
            )
        problem = self.placement_problem(state.seats[seat].marks, space, number)
        if problem is not None:
            raise problem
        written: dict[str, Any] = {"combination": index, "space": space, "number": number}
        if combination.action == "astronaut":
            written["modifier"] = number - combination.number
        rec.emit("number_written", seat, **written)
        self._circle_mineral(rec, seat, space)
        self._start_action(rec, seat, combination.action, written.get("modifier", 0))
        self._settle(rec, seat)

    def play_system_error(self, rec: Recorder, seat: int, choice: Option) -> None:
        sheet = rec.seat(seat)
        if self._write_options(rec.state, sheet.marks):
            raise RuleViolation(
                "number_must_be_written",
                "At least one combination can be written (an Astronaut one changed by up to "
                "2): you must write one.",
            )
        box = first_unmarked(sheet.marks, sheet.error_boxes)
        if box is None or choice.get("box", box) != box:
            raise RuleViolation(
                "error_box_not_next",
                f"System Error boxes are crossed top to bottom: the next one is {box}.",
            )
        rec.emit("system_error", seat, box=box, cause="no_writable_number")

    def _circle_mineral(self, rec: Recorder, seat: int, space: str) -> None:
        """A cavity holding a mineral circles it as soon as it is filled (number or X)."""
        mineral = self.layout.spaces[space]["mineral_element"]
        if mineral is not None and mineral not in rec.seat(seat).marks:
            rec.emit("mark", seat, element=mineral, mark=CIRCLE)

    # --- phase 4: the actions ------------------------------------------------------------

    def _start_action(self, rec: Recorder, seat: int, action: str, modifier: int) -> None:
        if action == "astronaut" and modifier != 0:
            self._cross_next(rec, seat, self.layout.astronaut_symbols)
            return
        rec.emit("effects_pending", seat, source=action, effects=[ACTION_STEPS[action]])

    def gap_symbol_problem(
        self, marks: Marks, resource: str, space: str, symbol: Any
    ) -> RuleViolation | None:
        """Why a Plant/Water action on ``space`` cannot circle ``symbol``, or None."""
        element = self.layout.elements.get(symbol) if isinstance(symbol, str) else None
        if element is None or symbol not in self.layout.gap_symbols:
            return RuleViolation("unknown_symbol", f"{symbol!r} is not a symbol of the mine.")
        if element["value"] != resource:
            return RuleViolation(
                "wrong_symbol_kind",
                f"{symbol} is a {element['value']} symbol; a {resource} action circles a "
                f"{resource} symbol.",
            )
        if space not in element["links"]:
            return RuleViolation(
                "symbol_not_reachable",
                f"{symbol} is not directly above or below {space}, where the number was "
                "written.",
            )
        if symbol in marks:
            return RuleViolation("symbol_already_marked", f"{symbol} is already circled.")
        return None

    def factory_symbol_problem(self, marks: Marks, kind: str, symbol: Any) -> RuleViolation | None:
        """Why a Robot (or Energy) cannot cross ``symbol``, or None."""
        if not isinstance(symbol, str) or symbol not in self.layout.factory_of_symbol:
            return RuleViolation(
                "unknown_symbol", f"{symbol!r} is not an energy or robot symbol of a factory."
            )
        if self.layout.elements[symbol]["kind"] != f"{kind}_symbol":
            return RuleViolation(
                "wrong_symbol_kind", f"A {kind} crosses a {kind} symbol, and {symbol} is not one."
            )
        if symbol in marks:
            return RuleViolation("symbol_already_crossed", f"{symbol} is already crossed.")
        return None

    def x_problem(self, marks: Marks, space: Any) -> RuleViolation | None:
        """Why the Planning X cannot go in ``space``, or None."""
        return x_placement_problem(marks, space, spaces=self.layout.spaces)

    def _uses_of(self, state: GameState, seat: int, step: str) -> list[Option]:
        """Every way to resolve a waiting step (empty: the step can change nothing)."""
        sheet = state.seats[seat]
        marks = sheet.marks
        action = self._step_action(step)
        if action in ("plant", "water"):
            space = sheet.turn_choice["space"]
            return [
                {"action": action, "effect": step, "symbol": symbol}
                for symbol in self.layout.gap_symbols
                if self.gap_symbol_problem(marks, action, space, symbol) is None
            ]
        if action in ("robot", "energy"):
            return [
                {"action": action, "effect": step, "symbol": symbol}
                for symbol in self.layout.factory_symbols
                if self.factory_symbol_problem(marks, action, symbol) is None
            ]
        if step == ASTRONAUT_STEP:
            if first_unmarked(marks, self.layout.astronaut_symbols) is None:
                return []
            return [{"action": "astronaut", "effect": step}]
        if step == PLANNING_STEP:
            return [
                {"action": "planning", "effect": step, "space": space}
                for space in self.layout.spaces
                if self.x_problem(marks, space) is None
            ]
        raise ValueError(f"{step} is not a step of adventure 4")

    def _step_action(self, step: str) -> str:
        """The action a step is resolved with (a bonus robot is a robot)."""
        return "robot" if step in self.layout.robot_bonus_steps else step.removeprefix("action.")

    def effect_options(self, state: GameState, seat: int) -> list[Option]:
        pending = state.seats[seat].pending
        if not pending:
            return []
        # The steps of one frame are alike (the 3 bonus robots): the first stands for all.
        step = pending[-1][0]
        options = self._uses_of(state, seat, step)
        if step in OPTIONAL_STEPS:
            options.append({"action": "skip", "effect": step})
        return options

    def play_effect(self, rec: Recorder, seat: int, choice: Option) -> None:
        step = choice.get("effect")
        pending = rec.seat(seat).pending
        if not isinstance(step, str) or step not in pending[-1]:
            raise RuleViolation(
                "effect_not_pending",
                f"{step!r} is not a step waiting for your choice; resolve one of "
                f"{pending[-1]} first.",
            )
        action = choice.get("action")
        if action == "skip":
            if step not in OPTIONAL_STEPS:
                raise RuleViolation(
                    "effect_not_optional",
                    "The robots of the robot factory cannot be saved: cross a robot symbol "
                    "with each of them.",
                )
            steps.resolve(rec, seat, step, outcome="skipped", target=None)
        else:
            expected = self._step_action(step)
            if action != expected:
                raise RuleViolation(
                    "illegal_choice", f"{step} is resolved with {expected!r}, not {action!r}."
                )
            self._use(rec, seat, step, choice)
        self._settle(rec, seat)

    def _use(self, rec: Recorder, seat: int, step: str, choice: Option) -> None:
        sheet = rec.seat(seat)
        action = self._step_action(step)
        if action in ("plant", "water"):
            symbol = choice.get("symbol")
            space = sheet.turn_choice["space"]
            problem = self.gap_symbol_problem(sheet.marks, action, space, symbol)
            if problem is not None:
                raise problem
            steps.resolve(rec, seat, step, outcome="circled", target=symbol)
            rec.emit("mark", seat, element=symbol, mark=CIRCLE)
        elif action in ("robot", "energy"):
            symbol = choice.get("symbol")
            problem = self.factory_symbol_problem(sheet.marks, action, symbol)
            if problem is not None:
                raise problem
            assert isinstance(symbol, str)
            steps.resolve(rec, seat, step, outcome="crossed", target=symbol)
            self._cross_factory_symbol(rec, seat, symbol)
        elif action == "astronaut":
            steps.resolve(rec, seat, step, outcome="crossed", target=None)
            self._cross_next(rec, seat, self.layout.astronaut_symbols)
        else:
            space = choice.get("space")
            problem = self.x_problem(sheet.marks, space)
            if problem is not None:
                raise problem
            assert isinstance(space, str)
            steps.resolve(rec, seat, step, outcome="x_written", target=space)
            rec.emit("mark", seat, element=space, mark=X)
            self._circle_mineral(rec, seat, space)
            self._cross_next(rec, seat, self.layout.planning_symbols)

    def _settle(self, rec: Recorder, seat: int) -> None:
        steps.settle(rec, seat, uses_of=self._uses_of)

    @staticmethod
    def _cross_next(rec: Recorder, seat: int, symbols: tuple[str, ...]) -> None:
        """Cross the next symbol of an astronaut/planning track; past the last, nothing."""
        symbol = first_unmarked(rec.seat(seat).marks, symbols)
        if symbol is not None:
            rec.emit("mark", seat, element=symbol, mark=CROSS)

    # --- factories -------------------------------------------------------------------------

    def factory_complete(self, marks: Marks, factory: str) -> bool:
        """A factory is upgraded (main) or activated (secondary) once all its energy and
        robot symbols are crossed."""
        return all_filled(marks, self.layout.factories[factory]["upgrade_symbols"])

    def _cross_factory_symbol(self, rec: Recorder, seat: int, symbol: str) -> None:
        rec.emit("mark", seat, element=symbol, mark=CROSS)
        factory = self.layout.factory_of_symbol[symbol]
        if self.factory_complete(rec.seat(seat).marks, factory):
            self._complete_factory(rec, seat, factory)

    def _complete_factory(self, rec: Recorder, seat: int, factory: str) -> None:
        raw = self.layout.factories[factory]
        if raw["type"] != "secondary":
            rec.emit("mark", seat, element=f"{factory}.value_base", mark=CROSS)
            return
        for icon in raw["bonus_icons"]:
            rec.emit("mark", seat, element=icon, mark=CROSS)
        bonus = raw["bonus"]
        if bonus["type"] == "resources":
            for _ in range(bonus["amount"]):
                self._store(rec, seat, bonus["factory"])
        else:
            rec.emit("effects_pending", seat, source=factory, effects=list(raw["bonus_icons"]))

    def _store(self, rec: Recorder, seat: int, factory: str) -> None:
        """Circle the next free box of a resource factory, then check its filling bonus."""
        box = first_unmarked(rec.seat(seat).marks, self.layout.track_of(factory))
        if box is None:
            return
        rec.emit("mark", seat, element=box, mark=CIRCLE)
        bonus = self.layout.factories[factory]["filling_bonus"]
        if box == bonus["trigger_box"] and bonus["element"] not in rec.seat(seat).marks:
            rec.emit("mark", seat, element=bonus["element"], mark=CIRCLE)

    # --- phase 5: extraction and the filling-bonus race -----------------------------------

    def incidents(self, rec: Recorder) -> None:
        for seat in range(rec.state.players):
            for column in self.extractable_columns(rec.seat(seat).marks):
                self._extract(rec, seat, column)
        self._resolve_races(rec)

    def extractable_columns(self, marks: Marks) -> list[dict[str, Any]]:
        """Complete columns (3 cavities filled) whose pump is not circled yet."""
        return [
            column
            for column in self.layout.columns
            if column["pump"] not in marks and all_filled(marks, column["spaces"])
        ]

    def _extract(self, rec: Recorder, seat: int, column: dict[str, Any]) -> None:
        for resource in column["resources_top_to_bottom"]:
            if rec.seat(seat).marks.get(resource) == CIRCLE:
                rec.emit("mark", seat, element=resource, mark=CROSS)
                kind = self.layout.elements[resource]["value"]
                self._store(rec, seat, self.layout.factory_for_resource[kind])
        rec.emit("mark", seat, element=column["pump"], mark=CIRCLE)

    def _resolve_races(self, rec: Recorder) -> None:
        """A filling bonus circled this turn by anyone is crossed on every sheet where it is
        still unmarked; all who circled it this turn keep it."""
        seats = rec.state.seats
        for factory in self.layout.resource_factories:
            bonus = self.layout.factories[factory]["filling_bonus"]["element"]
            won = [
                s for s in seats if s.marks.get(bonus) == CIRCLE and bonus not in s.turn_start_marks
            ]
            if not won:
                continue
            for index, sheet in enumerate(seats):
                if bonus not in sheet.marks:
                    rec.emit("mark", index, element=bonus, mark=CROSS)

    # --- phase 6: missions -----------------------------------------------------------------

    def mission_holds(self, state: GameState, seat: int, card: int) -> bool:
        marks = state.seats[seat].marks
        pumped = [pump in marks for pump in self.layout.pumps]
        if card == MISSION_PUMPS:
            return sum(pumped) >= PUMPS_NEEDED
        if card == MISSION_ADJACENT_PUMPS:
            return any(
                all(pumped[start : start + ADJACENT_PUMPS_NEEDED])
                for start in range(len(pumped) - ADJACENT_PUMPS_NEEDED + 1)
            )
        if card == MISSION_ALL_SECONDARY:
            return all(self.factory_complete(marks, f) for f in self.layout.secondary_factories)
        if card == MISSION_FACTORIES:
            complete = [f for f in self.layout.factories if self.factory_complete(marks, f)]
            return len(complete) >= FACTORIES_NEEDED
        if card == MISSION_PLANTS:
            return self._ever_circled(marks, "mine_plant") >= PLANTS_NEEDED
        if card == MISSION_WATERS:
            return self._ever_circled(marks, "mine_water") >= WATERS_NEEDED
        raise ValueError(f"card {card} is not an adventure 4 mission")

    def _ever_circled(self, marks: Marks, kind: str) -> int:
        """Mine symbols circled, extracted (crossed) since or not."""
        return sum(1 for symbol in self.layout.elements_of_kind(kind) if symbol in marks)

    def reward_mission(self, rec: Recorder, seat: int, value: int) -> None:
        """The mission box holds the points: nothing more to give."""

    # --- end of game and scoring -----------------------------------------------------------

    def end_reasons(self, state: GameState) -> list[dict[str, Any]]:
        return standard_end_reasons(state, spaces=self.layout.spaces)

    def factory_value(self, marks: Marks, factory: str) -> int:
        """The value in force: the upgraded one once the factory is complete."""
        raw = self.layout.factories[factory]
        upgraded = self.factory_complete(marks, factory)
        return int(raw["value_upgraded"] if upgraded else raw["value_base"])

    def _factory_points(self, marks: Marks, factory: str) -> int:
        bonus = self.layout.factories[factory]["filling_bonus"]
        filled = sum(1 for box in self.layout.track_of(factory) if box in marks)
        won = bonus["value"] if marks.get(bonus["element"]) == CIRCLE else 0
        return filled * self.factory_value(marks, factory) + int(won)

    def _centre_count(self, marks: Marks, centre: str) -> int:
        return sum(1 for symbol in self.layout.track_of(centre) if symbol in marks)

    @staticmethod
    def errors_marked(sheet: SeatState, marks: Marks) -> int:
        return sum(1 for box in sheet.error_boxes if box in marks)

    def seat_score(self, state: GameState, seat: int, *, marks: Marks) -> dict[str, Any]:
        sheet = state.seats[seat]
        missions = [marks.get(f"mission.{letter}") for letter in "ABC"]
        score: dict[str, Any] = {
            "missions": sum(value for value in missions if isinstance(value, int))
        }
        for factory, area in AREA_OF_FACTORY.items():
            score[area] = self._factory_points(marks, factory)
        score["astronaut"] = self._centre_count(marks, "centre.astronaut") * self.factory_value(
            marks, "centre.astronaut"
        )
        score["planning"] = -self._centre_count(marks, "centre.planning") * self.factory_value(
            marks, "centre.planning"
        )
        score["system_errors"] = -self.layout.error_penalty[self.errors_marked(sheet, marks)]
        score["campaign"] = sheet.bonus_points
        score["total"] = sum(score.values())
        return score

    def standings(self, state: GameState) -> dict[str, Any]:
        """By score, then fewer System Errors, then shared positions."""
        scores = [
            self.seat_score(state, seat, marks=state.seats[seat].marks)
            for seat in range(state.players)
        ]
        keys = [
            (-s["total"], self.errors_marked(state.seats[seat], state.seats[seat].marks))
            for seat, s in enumerate(scores)
        ]
        ranks = ranking.dense_ranks(keys)
        return {
            "scores": [
                {"seat": seat, "total": s["total"], "rank": ranks[seat], "breakdown": s}
                for seat, s in enumerate(scores)
            ],
            "winners": [seat for seat, rank in enumerate(ranks) if rank == 1],
        }

    def numbering_zones(self, marks: Marks) -> list[tuple[str, ...]]:
        """The zones in which numbers must ascend now, each as its spaces in order."""
        return list(self.layout.levels.values())

    def derived(self, state: GameState, seat: int, *, marks: Marks) -> dict[str, Any]:
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
