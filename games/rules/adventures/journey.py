"""Adventure 2, The Journey: one trajectory of 36 spaces cut into playing zones by the walls
energy pairs draw, water tanks, four space stations (robots, plants, the race for the big
multipliers), astronaut and planning tracks giving wild actions.

Readings taken where the sources disagree (spec section 10), and choices of this module:

- D1: a completed energy pair crosses its wall marker ``energy.wN`` and leaves the wall to
  draw as a pending effect of that id (compulsory: no skip);
- D2: 5 points per System Error box marked;
- D3: a wild action is chosen with the combination (``wild`` and ``wild_action`` in the
  pick), one per turn; a wild circled during this turn's action is not there yet at the pick;
- D4: writability is judged on the combinations as dealt (an Astronaut combination counts
  with its -2..+2 shifts); a player with nothing writable may take the System Error or use a
  wild action that makes a number writable;
- D5, D6, D7, D9: exact zone lengths, tank order for mission 75, stations follow s06, s16,
  s21 and s31, energy past the twelfth is lost;
- the Astronaut action is used or declined at the pick: a pick with a ``modifier`` (0
  included) uses it and crosses the next astronaut symbol at once; a pick without one writes
  the number unchanged and crosses nothing;
- the other actions are optional steps (``action.robot``...) with an explicit ``skip``; a step
  that can change nothing (no tank on the space, every energy circled...) resolves by itself
  as ``no_effect``;
- the last robot of a station circles its multiplier by itself (the option names it);
- the System Error boxes are marked top to bottom through the common ``system_error`` event
  (its mark word is the common ``circle``; every marked box counts as crossed here);
- a setup modifier may pre-mark energies only as a prefix of the track, with one wall given
  in the same modifier per pair it completes (the wall markers are then crossed);
- a pick naming no ``wild`` but a ``wild_action`` spends the first available wild action
  in the order of ``track.wild``;
- refusals of the ascending rule keep the engine's shared codes ``space_not_ascending`` and
  ``number_already_in_zone`` (turn example A of the spec writes ``space_not_ascending``);
- with a single seat (ASTRA is not played yet) the player is alone in the most-zones
  ranking; ``JourneyRules.solo_most_zones`` is the rule against ASTRA's Energy cards.
"""

from typing import Any

from games.rules import astra, cards, data, ranking, steps
from games.rules import modifiers as modifiers_rules
from games.rules.actions import ASTRONAUT_SHIFTS
from games.rules.adventures.base import Option
from games.rules.adventures.journey_layout import WALL_DRAWN, Layout, Station, Zone
from games.rules.cards import ACTIONS
from games.rules.ending import standard_end_reasons
from games.rules.errors import RuleViolation
from games.rules.events import Recorder
from games.rules.sheet import (
    MAX_NUMBER,
    MIN_NUMBER,
    Marks,
    X,
    first_unmarked,
    placement_problem,
    x_placement_problem,
)
from games.rules.state import GameState, SeatState

CIRCLE = "circle"
CROSS = "cross"
ASTRONAUT = "astronaut"

# The step each action leaves waiting for the player's choice (Astronaut is used at the pick).
STEP_OF_ACTION = {action: f"action.{action}" for action in ACTIONS if action != ASTRONAUT}
ACTION_OF_STEP = {step: action for action, step in STEP_OF_ACTION.items()}
WALL = "wall"

# Mission conditions, by card (the card texts are in the common mission index).
MISSION_MULTIPLIERS = 70
MULTIPLIER_STATIONS_NEEDED = 3
MISSION_FULL_STATIONS = 71
FULL_STATIONS_NEEDED = 2
MISSION_TWO_SIXES = 72
SIX_LONG = 6
SIXES_NEEDED = 2
MISSION_SIX_FOUR_TWO = 73
ZONE_LENGTHS_NEEDED = (6, 4, 2)
MISSION_TANKS = 74
TANKS_NEEDED = 6
MISSION_TANK_RUN = 75
TANK_RUN_NEEDED = 4

# Solo: ASTRA's count of complete zones is its Energy cards by pairs (spec section 9).
ENERGY_CARDS_PER_ASTRA_ZONE = 2

UNMARKABLE_KINDS = ("mission_box", "score_box", "rank_box", "campaign_area", "station")


class Placements:
    """Which empty spaces of a sheet take a number, asked many times while listing options.

    Each question goes to the ascending rule (``placement_problem``) with the space's playing
    zone reduced to its numbered spaces around the space: empty spaces and X marks play no
    part in the order, so the answer is the same, only quicker.
    """

    def __init__(self, layout: Layout, marks: Marks) -> None:
        self.marks = marks
        self.lines: list[tuple[str, list[str], str]] = []
        for zone in layout.zones(marks):
            numbered = [space for space in zone.spaces if isinstance(marks.get(space), int)]
            before = 0
            for space in zone.spaces:
                if space not in marks:
                    line = [*numbered[:before], space, *numbered[before:]]
                    self.lines.append((space, line, zone.id))
                elif isinstance(marks[space], int):
                    before += 1
        self.answers: dict[int, list[str]] = {}

    def spaces_for(self, number: int) -> list[str]:
        if number not in self.answers:
            self.answers[number] = [
                space
                for space, line, zone in self.lines
                if placement_problem(self.marks, line, space, number, zone_name=zone) is None
            ]
        return self.answers[number]


class JourneyRules:
    """The rules of adventure 2 (see the module docstring)."""

    number = 2
    key = "journey"
    name = "The Journey"

    def __init__(self) -> None:
        self.layout = Layout(data.adventure(2))

    # --- setup ---------------------------------------------------------------------------

    def validate_modifiers(self, modifiers: list[dict[str, Any]]) -> None:
        start = modifiers_rules.validate(
            modifiers, error_boxes=len(self.layout.error_boxes), mark_problem=self._mark_problem
        )
        marks: dict[str, Any] = {**self.layout.start_marks, **dict(start)}
        circled = [energy for energy in self.layout.energies if energy in marks]
        if circled != list(self.layout.energies[: len(circled)]):
            raise RuleViolation(
                "invalid_modifier", "Starting energies are circled in order from energy.e01."
            )
        walls = sum(1 for wall in self.layout.walls if wall in marks)
        pairs = sum(1 for energy in circled if energy in self.layout.marker_completed_by)
        if walls != pairs:
            raise RuleViolation(
                "invalid_modifier",
                f"{pairs} energy pair(s) complete at setup: give exactly {pairs} wall(s).",
            )

    def _mark_problem(self, element: Any, mark: Any) -> str | None:
        if isinstance(element, str) and element in self.layout.elements:
            raw = self.layout.elements[element]
            if raw["kind"] in UNMARKABLE_KINDS or mark not in raw["marks"]:
                return f"{mark!r} is not a mark for {element}."
            return None
        if isinstance(element, str) and element in self.layout.spaces:
            return None if mark == X else f"A starting mark in space {element} can only be X."
        return f"{element!r} is not an element of this sheet."

    def new_seat(self, modifiers: list[dict[str, Any]]) -> SeatState:
        seat = modifiers_rules.seat_from(
            modifiers, error_boxes=self.layout.error_boxes, marks=dict(self.layout.start_marks)
        )
        for energy, marker in self.layout.marker_completed_by.items():
            if energy in seat.marks:
                seat.marks[marker] = CROSS
        return seat

    # --- the rules of a pick -------------------------------------------------------------

    def placement_problem(self, marks: Marks, space: str, number: int) -> RuleViolation | None:
        """Why ``number`` cannot go in ``space``: the ascending rule of its playing zone."""
        zone = self.layout.zone_of(marks, space)
        return placement_problem(marks, zone.spaces, space, number, zone_name=zone.id)

    @staticmethod
    def modifier_problem(number: int, action: str, modifier: Any) -> RuleViolation | None:
        """Why ``modifier`` cannot change ``number`` with ``action`` (None: no modifier)."""
        if modifier is None:
            return None
        if action != ASTRONAUT:
            return RuleViolation(
                "modifier_not_allowed",
                f"Only an Astronaut action modifies the number, not {action}.",
            )
        if not isinstance(modifier, int) or modifier not in ASTRONAUT_SHIFTS:
            return RuleViolation(
                "modifier_out_of_range",
                f"The Astronaut modifier goes from -2 to +2, not {modifier}.",
            )
        if not MIN_NUMBER <= number + modifier <= MAX_NUMBER:
            return RuleViolation(
                "number_out_of_range",
                f"{number} {modifier:+d} = {number + modifier} is not a number you can write "
                f"({MIN_NUMBER} to {MAX_NUMBER}).",
            )
        return None

    def available_wilds(self, marks: Marks) -> list[str]:
        """Wild actions circled and not crossed yet."""
        return [wild for wild in self.layout.wilds if marks.get(wild) == CIRCLE]

    def wild_problem(self, marks: Marks, wild: Any, action: Any) -> RuleViolation | None:
        """Why ``wild`` cannot turn this turn's action into ``action``."""
        available = self.available_wilds(marks)
        chosen = wild if wild is not None else next(iter(available), None)
        if chosen is None or chosen not in available:
            return RuleViolation(
                "wild_not_available",
                f"{wild or 'A wild action'} is not circled and unused on your sheet at the "
                "start of this turn.",
            )
        if action not in ACTIONS:
            return RuleViolation(
                "unknown_action", f"A wild action becomes one of {list(ACTIONS)}, not {action!r}."
            )
        return None

    def _variants(self, number: int, action: str) -> list[int | None]:
        """The modifiers a pick may carry: none, and the Astronaut shifts that stay in range."""
        shifts: list[int | None] = [None]
        if action == ASTRONAUT:
            shifts.extend(
                d for d in ASTRONAUT_SHIFTS if self.modifier_problem(number, action, d) is None
            )
        return shifts

    def _writes(
        self, state: GameState, placements: Placements, *, wild: str | None
    ) -> list[Option]:
        """Every write of the dealt combinations, or with ``wild`` of every other action."""
        options: list[Option] = []
        for index, combination in enumerate(state.combinations):
            actions = [combination.action] if wild is None else [
                action for action in ACTIONS if action != combination.action
            ]
            for action in actions:
                for modifier in self._variants(combination.number, action):
                    number = combination.number + (modifier or 0)
                    options.extend(
                        _write_option(index, space, number, modifier, wild, action)
                        for space in placements.spaces_for(number)
                    )
        return options

    def choice_options(self, state: GameState, seat: int) -> list[Option]:
        sheet = state.seats[seat]
        placements = Placements(self.layout, sheet.marks)
        options = self._writes(state, placements, wild=None)
        if not options:
            box = first_unmarked(sheet.marks, sheet.error_boxes)
            options = [{"action": "system_error", "box": box}] if box is not None else []
        wilds = self.available_wilds(sheet.marks)
        if wilds:
            options.extend(self._writes(state, placements, wild=wilds[0]))
        return options

    def play_write(self, rec: Recorder, seat: int, choice: Option) -> None:
        state = rec.state
        marks = rec.seat(seat).marks
        index, combination = cards.chosen_combination(state.combinations, choice)
        space = choice.get("space")
        action = combination.action
        wild = choice.get("wild")
        if wild is not None or choice.get("wild_action") is not None:
            problem = self.wild_problem(marks, wild, choice.get("wild_action"))
            if problem is not None:
                raise problem
            wild = wild or self.available_wilds(marks)[0]
            action = choice["wild_action"]
        modifier = choice.get("modifier")
        problem = self.modifier_problem(combination.number, action, modifier)
        if problem is not None:
            raise problem
        number = combination.number + (modifier or 0)
        if choice.get("number", number) != number:
            raise RuleViolation(
                "number_not_in_combination",
                f"Combination {index} with this pick writes {number}, not {choice.get('number')}.",
            )
        if space not in self.layout.spaces:
            raise RuleViolation("unknown_space", f"{space!r} is not a space of this sheet.")
        problem = self.placement_problem(marks, space, number)
        if problem is not None:
            if wild is None and not self._writes(state, Placements(self.layout, marks), wild=None):
                raise RuleViolation(
                    "no_legal_placement",
                    "No combination can be written on your sheet: take a System Error (or use "
                    "a wild action that makes a number writable).",
                )
            raise problem
        extra: dict[str, Any] = {"action": action}
        if modifier is not None:
            extra["modifier"] = modifier
        if wild is not None:
            extra["wild"] = wild
        rec.emit("number_written", seat, combination=index, space=space, number=number, **extra)
        if wild is not None:
            rec.emit("mark", seat, element=wild, mark=CROSS)
        if action == ASTRONAUT:
            if modifier is not None:
                self._cross_next(rec, seat, self.layout.astronaut_track)
            return
        rec.emit("effects_pending", seat, source=action, effects=[STEP_OF_ACTION[action]])
        self._settle(rec, seat)

    def play_system_error(self, rec: Recorder, seat: int, choice: Option) -> None:
        sheet = rec.seat(seat)
        if self._writes(rec.state, Placements(self.layout, sheet.marks), wild=None):
            raise RuleViolation(
                "number_must_be_written",
                "At least one combination can be written: you must write one.",
            )
        box = first_unmarked(sheet.marks, sheet.error_boxes)
        if box is None or choice.get("box", box) != box:
            raise RuleViolation(
                "error_box_not_next",
                f"System Error boxes are crossed from the top: the next one is {box}.",
            )
        rec.emit("system_error", seat, box=box, cause="no_writable_number")
        if box in self.layout.error_gives_energy:
            self._gain_energy(rec, seat)
        self._settle(rec, seat)

    # --- reactions -------------------------------------------------------------------------

    def _gain_energy(self, rec: Recorder, seat: int) -> None:
        """Circle the next energy; a completed pair crosses its marker and owes a wall."""
        energy = first_unmarked(rec.seat(seat).marks, self.layout.energies)
        if energy is None:
            return
        rec.emit("mark", seat, element=energy, mark=CIRCLE)
        marker = self.layout.marker_completed_by.get(energy)
        if marker is not None:
            rec.emit("mark", seat, element=marker, mark=CROSS)
            rec.emit("effects_pending", seat, source=marker, effects=[marker])

    def _cross_next(self, rec: Recorder, seat: int, track: tuple[str, ...]) -> None:
        """Cross the next astronaut or planning symbol; every second one circles a wild."""
        symbol = first_unmarked(rec.seat(seat).marks, track)
        if symbol is None:
            return
        rec.emit("mark", seat, element=symbol, mark=CROSS)
        wild = self.layout.wild_reward.get(symbol)
        if wild is not None:
            rec.emit("mark", seat, element=wild, mark=CIRCLE)

    def deserved_multiplier(self, marks: Marks, robot: str) -> str | None:
        """The multiplier circling ``robot`` wins: the big one while it is unmarked, else the
        small one, when ``robot`` is the last uncircled robot of its station."""
        station = self.layout.station_of[robot]
        if any(other not in marks for other in station.robots if other != robot):
            return None
        return station.mult_big if station.mult_big not in marks else station.mult_small

    # --- the rules of each action ------------------------------------------------------------

    def wall_problem(self, marks: Marks, wall: Any) -> RuleViolation | None:
        if wall not in self.layout.walls:
            return RuleViolation(
                "unknown_wall", f"{wall!r} is not a wall position (wall.01 to wall.35)."
            )
        if wall in marks:
            return RuleViolation("wall_already_drawn", f"{wall} is already drawn.")
        return None

    def robot_problem(self, marks: Marks, robot: Any, multiplier: Any) -> RuleViolation | None:
        if robot not in self.layout.robots:
            return RuleViolation("unknown_robot", f"{robot!r} is not a robot of a station.")
        if robot in marks:
            return RuleViolation("robot_already_circled", f"{robot} is already circled.")
        deserved = self.deserved_multiplier(marks, robot)
        if multiplier is None or multiplier == deserved:
            return None
        station = self.layout.station_of[robot]
        if multiplier == station.mult_big and marks.get(station.mult_big) == CROSS:
            return RuleViolation(
                "multiplier_crossed",
                f"{station.mult_big} is crossed on your sheet: the last robot of {station.id} "
                f"circles {station.mult_small}.",
            )
        return RuleViolation(
            "wrong_multiplier",
            f"Circling {robot} wins {deserved or 'no multiplier'}, not {multiplier}.",
        )

    def plant_problem(self, marks: Marks, space: str, plant: Any) -> RuleViolation | None:
        if plant not in self.layout.plants:
            return RuleViolation("unknown_plant", f"{plant!r} is not a plant of a station.")
        station = self.layout.station_of[plant]
        if plant in marks:
            return RuleViolation("plant_already_circled", f"{plant} is already circled.")
        if station not in self.layout.stations_reached(marks, space):
            zone = self.layout.zone_of(marks, space)
            return RuleViolation(
                "station_not_connected",
                f"{station.id} follows {station.link_space}, which is not in {zone.id} where "
                "your number was written.",
            )
        return None

    def water_problem(self, marks: Marks, space: str, tank: Any) -> RuleViolation | None:
        on_space = self.layout.tank_on.get(space)
        if on_space is None:
            return RuleViolation("no_tank_on_space", f"{space} carries no water tank.")
        if tank is not None and tank != on_space:
            return RuleViolation(
                "tank_not_on_space", f"Your number is in {space}, which carries {on_space}."
            )
        if on_space in marks:
            return RuleViolation("tank_already_circled", f"{on_space} is already circled.")
        return None

    def x_problem(self, marks: Marks, space: Any) -> RuleViolation | None:
        """Why the Planning X cannot go in ``space``, or None."""
        return x_placement_problem(marks, space, spaces=self.layout.spaces)

    # --- pending steps -----------------------------------------------------------------------

    def _step_action(self, step: str) -> str:
        return ACTION_OF_STEP.get(step, WALL)

    def _uses_of(self, state: GameState, seat: int, step: str) -> list[Option]:
        sheet = state.seats[seat]
        marks = sheet.marks
        space = sheet.turn_choice.get("space", "")
        action = self._step_action(step)
        base: Option = {"action": action, "effect": step}
        if action == WALL:
            return [
                {**base, "wall": wall}
                for wall in self.layout.walls
                if self.wall_problem(marks, wall) is None
            ]
        if action == "energy":
            return [base] if first_unmarked(marks, self.layout.energies) is not None else []
        if action == "robot":
            uses = []
            for robot in self.layout.robots:
                if self.robot_problem(marks, robot, None) is None:
                    multiplier = self.deserved_multiplier(marks, robot)
                    extra = {"multiplier": multiplier} if multiplier else {}
                    uses.append({**base, "robot": robot, **extra})
            return uses
        if action == "plant":
            return [
                {**base, "plant": plant}
                for plant in self.layout.plants
                if self.plant_problem(marks, space, plant) is None
            ]
        if action == "water":
            if self.water_problem(marks, space, None) is not None:
                return []
            return [{**base, "tank": self.layout.tank_on[space]}]
        return [
            {**base, "space": target}
            for target in self.layout.trajectory
            if self.x_problem(marks, target) is None
        ]

    def effect_options(self, state: GameState, seat: int) -> list[Option]:
        pending = state.seats[seat].pending
        if not pending:
            return []
        options = []
        for step in pending[-1]:
            options.extend(self._uses_of(state, seat, step))
            if step in ACTION_OF_STEP:
                options.append({"action": "skip", "effect": step})
        return options

    def play_effect(self, rec: Recorder, seat: int, choice: Option) -> None:
        step = choice.get("effect")
        pending = rec.seat(seat).pending
        if not isinstance(step, str) or step not in pending[-1]:
            raise RuleViolation(
                "effect_not_pending",
                f"{step!r} is not waiting for your choice; resolve one of {pending[-1]} first.",
            )
        action = choice.get("action")
        if action == "skip":
            if step not in ACTION_OF_STEP:
                raise RuleViolation(
                    "wall_required",
                    f"Your energy pair is complete ({step} crossed): draw a wall now.",
                )
            steps.resolve(rec, seat, step, outcome="skipped", target=None)
        elif action != self._step_action(step):
            raise RuleViolation(
                "illegal_choice", f"{action!r} does not resolve {step}: see the options."
            )
        else:
            self._use(rec, seat, step, choice)
        self._settle(rec, seat)

    def _use(self, rec: Recorder, seat: int, step: str, choice: Option) -> None:
        marks = rec.seat(seat).marks
        space = rec.seat(seat).turn_choice.get("space", "")
        action = self._step_action(step)
        if action == "energy":
            steps.resolve(rec, seat, step, outcome="used", target=None)
            self._gain_energy(rec, seat)
            return
        target: Any
        if action == WALL:
            target = choice.get("wall")
            problem = self.wall_problem(marks, target)
            mark = WALL_DRAWN
        elif action == "robot":
            target = choice.get("robot")
            problem = self.robot_problem(marks, target, choice.get("multiplier"))
            mark = CIRCLE
        elif action == "plant":
            target = choice.get("plant")
            problem = self.plant_problem(marks, space, target)
            mark = CIRCLE
        elif action == "water":
            problem = self.water_problem(marks, space, choice.get("tank"))
            target, mark = self.layout.tank_on.get(space), CIRCLE
        else:
            target = choice.get("space")
            problem = self.x_problem(marks, target)
            mark = X
        if problem is not None:
            raise problem
        multiplier = self.deserved_multiplier(marks, target) if action == "robot" else None
        steps.resolve(rec, seat, step, outcome="used", target=target)
        rec.emit("mark", seat, element=target, mark=mark)
        if multiplier is not None:
            rec.emit("mark", seat, element=multiplier, mark=CIRCLE)
        if action == "planning":
            self._cross_next(rec, seat, self.layout.planning_track)

    def _settle(self, rec: Recorder, seat: int) -> None:
        steps.settle(rec, seat, uses_of=self._uses_of)

    # --- phase 5: the race for the big multipliers -----------------------------------------

    def incidents(self, rec: Recorder) -> None:
        """A big multiplier circled this turn by anyone is crossed on every sheet where it is
        still unmarked; all who circled it this turn keep it."""
        seats = rec.state.seats
        for station in self.layout.stations:
            big = station.mult_big
            if not any(
                seat.marks.get(big) == CIRCLE and seat.turn_start_marks.get(big) != CIRCLE
                for seat in seats
            ):
                continue
            for index, seat in enumerate(seats):
                if big not in seat.marks:
                    rec.emit("mark", index, element=big, mark=CROSS)

    # --- phase 6: missions -------------------------------------------------------------------

    def mission_holds(self, state: GameState, seat: int, card: int) -> bool:
        marks = state.seats[seat].marks
        stations = self.layout.stations
        if card == MISSION_MULTIPLIERS:
            won = [
                s for s in stations if CIRCLE in (marks.get(s.mult_big), marks.get(s.mult_small))
            ]
            return len(won) >= MULTIPLIER_STATIONS_NEEDED
        if card == MISSION_FULL_STATIONS:
            full = [s for s in stations if all(plant in marks for plant in s.plants)]
            return len(full) >= FULL_STATIONS_NEEDED
        lengths = [len(zone) for zone in self.complete_zones(marks)]
        if card == MISSION_TWO_SIXES:
            return lengths.count(SIX_LONG) >= SIXES_NEEDED
        if card == MISSION_SIX_FOUR_TWO:
            return all(length in lengths for length in ZONE_LENGTHS_NEEDED)
        tanks = [tank in marks for tank in self.layout.tanks]
        if card == MISSION_TANKS:
            return sum(tanks) >= TANKS_NEEDED
        if card == MISSION_TANK_RUN:
            return any(
                all(tanks[start : start + TANK_RUN_NEEDED])
                for start in range(len(tanks) - TANK_RUN_NEEDED + 1)
            )
        raise ValueError(f"card {card} is not an adventure 2 mission")

    def reward_mission(self, rec: Recorder, seat: int, value: int) -> None:
        """The points are written in the mission box; nothing else happens."""

    # --- end of game and scoring -------------------------------------------------------------

    def end_reasons(self, state: GameState) -> list[dict[str, Any]]:
        return standard_end_reasons(state, spaces=self.layout.trajectory)

    def complete_zones(self, marks: Marks) -> list[Zone]:
        return [zone for zone in self.layout.zones(marks) if zone.complete(marks)]

    def station_points(self, marks: Marks, station: Station) -> int:
        """Circled plants times the circled multiplier (0 without one)."""
        if marks.get(station.mult_big) == CIRCLE:
            value = station.big_value
        elif marks.get(station.mult_small) == CIRCLE:
            value = station.small_value
        else:
            return 0
        return value * sum(1 for plant in station.plants if plant in marks)

    @staticmethod
    def errors_crossed(sheet: SeatState, marks: Marks) -> int:
        return sum(1 for box in sheet.error_boxes if box in marks)

    def seat_score(self, state: GameState, seat: int, *, marks: Marks) -> dict[str, Any]:
        sheet = state.seats[seat]
        stations = {s.id: self.station_points(marks, s) for s in self.layout.stations}
        complete = self.complete_zones(marks)
        counts = [
            len(complete) if other == seat else len(self.complete_zones(self._seen(state, other)))
            for other in range(state.players)
        ]
        score: dict[str, Any] = {
            "missions": sum(
                value
                for letter in "ABC"
                if isinstance(value := marks.get(f"mission.{letter}"), int)
            ),
            "plants": sum(stations.values()),
            "water": sum(self.layout.tank_value[t] for t in self.layout.tanks if t in marks),
            "longest_zone": max((len(zone) for zone in complete), default=0),
            "most_zones": ranking.rank_awards(
                counts, self.layout.most_zones_awards, zero_scores=False
            )[seat],
            "system_errors": -self.layout.error_penalty[self.errors_crossed(sheet, marks)],
            "campaign": sheet.bonus_points,
        }
        total = sum(score.values())
        score.update(
            stations=stations,
            complete_zones=len(complete),
            errors_crossed=self.errors_crossed(sheet, marks),
            total=total,
        )
        return score

    def solo_most_zones(self, complete_zones: int, astra_energy_cards: int) -> int:
        """Solo: with at least one complete zone, 20 for no fewer zones than ASTRA's pairs of
        Energy cards, else 10; nothing with no complete zone."""
        if complete_zones == 0:
            return 0
        astra_zones = astra_energy_cards // ENERGY_CARDS_PER_ASTRA_ZONE
        return astra.solo_rank_award(complete_zones, astra_zones, self.layout.most_zones_awards)

    @staticmethod
    def _seen(state: GameState, seat: int) -> Marks:
        """Another seat's sheet as the others see it: as it began the turn while playing."""
        sheet = state.seats[seat]
        return sheet.turn_start_marks if state.status == "playing" else sheet.marks

    def standings(self, state: GameState) -> dict[str, Any]:
        """By score, then fewer System Errors, then shared positions."""
        scores = [
            self.seat_score(state, seat, marks=state.seats[seat].marks)
            for seat in range(state.players)
        ]
        ranks = ranking.final_ranks(
            [s["total"] for s in scores], [s["errors_crossed"] for s in scores]
        )
        return {
            "scores": [
                {"seat": seat, "total": s["total"], "rank": ranks[seat], "breakdown": s}
                for seat, s in enumerate(scores)
            ],
            "winners": [seat for seat, rank in enumerate(ranks) if rank == 1],
        }

    def numbering_zones(self, marks: Marks) -> list[tuple[str, ...]]:
        """The zones in which numbers must ascend now, each as its spaces in order."""
        return [tuple(zone.spaces) for zone in self.layout.zones(marks)]

    def derived(self, state: GameState, seat: int, *, marks: Marks) -> dict[str, Any]:
        zones = self.layout.zones(marks)
        return {
            "zones": [
                {
                    "id": zone.id,
                    "spaces": list(zone.spaces),
                    "length": len(zone),
                    "complete": zone.complete(marks),
                    "stations": [s.id for s in self.layout.stations if s.link_space in zone.spaces],
                }
                for zone in zones
            ],
            "station_zones": {
                s.id: next(zone.id for zone in zones if s.link_space in zone.spaces)
                for s in self.layout.stations
            },
            "walls": [wall for wall in self.layout.walls if wall in marks],
            "available_wilds": self.available_wilds(marks),
        }


def _write_option(
    index: int, space: str, number: int, modifier: int | None, wild: str | None, action: str
) -> Option:
    option: Option = {"action": "write", "combination": index, "space": space, "number": number}
    if modifier is not None:
        option["modifier"] = modifier
    if wild is not None:
        option["wild"] = wild
        option["wild_action"] = action
    return option

