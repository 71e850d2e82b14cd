"""Adventure 2, The Journey (adventure-2-journey.md): one trajectory of 36 spaces cut into playing
zones by the walls energy pairs draw, water tanks, four space stations (robots, plants, the race
for the big multipliers), astronaut and planning tracks giving wild actions.

The rules are the spec's: the trajectory, walls and zones §2.1-2.3, energy §2.4, water tanks
§2.5, space stations §2.6, the astronaut and planning tracks with their wild actions §2.7, the
turn §4, races §5, System Errors §6, missions §7, end and scoring §8, solo §9. Element ids are
the data file's (§11).

Readings taken where the sources disagree (§10), and choices of this module:

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
- solo against ASTRA (spec section 9): the most-zones award compares the player's complete
  zones with ASTRA's Energy cards by pairs (``solo_most_zones``); a single seat playing
  without ASTRA is alone in the ranking.
"""

from collections.abc import Collection, Iterable, Mapping, Sequence
from functools import cached_property, partial
from typing import Any, cast

from games.rules.adventures.journey import shapes
from games.rules.adventures.journey.layout import WALL_DRAWN, Layout, Station, Zone
from games.rules.common import astra
from games.rules.common.base import (
    ASTRONAUT,
    ASTRONAUT_SHIFTS,
    AreaPart,
    Condition,
    Prospects,
    Step,
    not_a_mark_for,
    plain_marks,
    rank_awards,
)
from games.rules.common.modifiers import SheetSetup
from games.rules.common.options import Choice, Option, StepOption, WriteOption
from games.rules.common.wilds import WildActions
from games.rules.core import cards
from games.rules.core.cards import ACTIONS, CARD_NUMBERS
from games.rules.core.errors import N_, RuleViolation, shown
from games.rules.core.events import Recorder, Written
from games.rules.core.sheet import CIRCLE, CROSS, MAX_NUMBER, MIN_NUMBER, Marks, first_unmarked, open_gaps
from games.rules.core.state import GameState, Sheet

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

# The greedy bot's room to write (``prospects``): a number a card shows counts ROOM_SCALE,
# one only an Astronaut shift writes (0, 16, 17) RARE_ROOM.
ROOM_SCALE = 2
RARE_ROOM = 1
# How many zone fillings keep their room worked out (a bound on memory).
ROOM_CACHE_SIZE = 8192

UNMARKABLE_KINDS = ("mission_box", "score_box", "rank_box", "campaign_area", "station")


class JourneyRules(WildActions[Layout]):
    """The rules of adventure 2 (see the module docstring)."""

    score_shape = shapes.JourneyScore
    derived_shape = shapes.JourneyDerived

    layout_class = Layout

    def step_table(self) -> dict[str, Step]:
        return {
            WALL: Step(
                uses=self.each_unmarked(WALL, "wall", self.layout.walls),
                use=self._draw_wall,
            ),
            "energy": Step(uses=self.while_left("energy", self.layout.energies), use=self._energy),
            "robot": Step(uses=self._robot_uses, use=self._circle_robot),
            "plant": Step(uses=self._plant_uses, use=self._circle_plant),
            "water": Step(uses=self._water_uses, use=self._circle_tank),
            "planning": Step(
                uses=self.each_unmarked("planning", "space", self.layout.trajectory),
                use=self._planning,
            ),
        }

    def mission_table(self) -> dict[int, Condition]:
        tanks = self.layout.tanks
        return {
            MISSION_MULTIPLIERS: lambda sheet: sum(
                1
                for s in self.layout.stations
                if CIRCLE in (sheet.marks.get(s.mult_big), sheet.marks.get(s.mult_small))
            )
            >= MULTIPLIER_STATIONS_NEEDED,
            MISSION_FULL_STATIONS: lambda sheet: sum(
                1 for s in self.layout.stations if all(p in sheet.marks for p in s.plants)
            )
            >= FULL_STATIONS_NEEDED,
            MISSION_TWO_SIXES: lambda sheet: self._zone_lengths(sheet.marks).count(SIX_LONG)
            >= SIXES_NEEDED,
            MISSION_SIX_FOUR_TWO: lambda sheet: all(
                length in self._zone_lengths(sheet.marks) for length in ZONE_LENGTHS_NEEDED
            ),
            MISSION_TANKS: lambda sheet: sum(1 for t in tanks if t in sheet.marks) >= TANKS_NEEDED,
            MISSION_TANK_RUN: lambda sheet: any(
                all(t in sheet.marks for t in tanks[start : start + TANK_RUN_NEEDED])
                for start in range(len(tanks) - TANK_RUN_NEEDED + 1)
            ),
        }

    # --- setup ---------------------------------------------------------------------------

    def mark_problem(self, element: Any, mark: Any) -> RuleViolation | None:
        if isinstance(element, str) and element in self.layout.elements:
            raw = self.layout.elements[element]
            if raw["kind"] in UNMARKABLE_KINDS or mark not in raw["marks"]:
                return not_a_mark_for(element, mark)
            return None
        return super().mark_problem(element, mark)

    def validate_modifiers(self, modifiers: list[dict[str, Any]]) -> list[tuple[str, Any]]:
        """Energies are circled in order from the printed one, with one wall per pair."""
        start = super().validate_modifiers(modifiers)
        marks: dict[str, Any] = {**self.layout.printed_marks, **dict(start)}
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
                "%(pairs)s energy pair(s) complete at setup: give exactly %(pairs)s wall(s).",
                pairs=pairs,
            )
        return start

    def sheet_setup(self, modifiers: list[dict[str, Any]]) -> SheetSetup:
        """The pairs completed at setup have their wall markers crossed."""
        setup = super().sheet_setup(modifiers)
        for energy, marker in self.layout.marker_completed_by.items():
            if energy in setup["marks"]:
                setup["marks"][marker] = CROSS
        return setup

    # --- the rules of a pick -------------------------------------------------------------

    def numbering_zones(self, marks: Marks) -> list[tuple[str, ...]]:
        return [zone.spaces for zone in self.layout.zones(marks)]

    def zone_name(self, zone: Any) -> str:
        return self.layout.zone_named(tuple(zone)).id

    def _variants(self, number: int, action: str) -> list[int | None]:
        """The modifiers a pick may carry: none, and the Astronaut shifts that stay in range."""
        if action != ASTRONAUT:
            return [None]
        return [None, *(d for d in ASTRONAUT_SHIFTS if MIN_NUMBER <= number + d <= MAX_NUMBER)]

    def _writes(
        self, state: GameState, candidates: list[tuple[str, int, int]], *, wild: str | None
    ) -> list[WriteOption]:
        """Every write of the dealt combinations, or with ``wild`` of every other action."""
        options: list[WriteOption] = []
        for index, combination in enumerate(state.combinations):
            actions = [combination.action] if wild is None else [
                action for action in ACTIONS if action != combination.action
            ]
            for action in actions:
                for modifier in self._variants(combination.number, action):
                    number = combination.number + (modifier or 0)
                    options.extend(
                        _write_option(index, space, number, modifier, wild, action)
                        for space, low, high in candidates
                        if low < number < high
                    )
        return options

    def write_options(self, state: GameState, seat: int) -> list[WriteOption]:
        """D4: writability is judged on the combinations as dealt."""
        marks = state.sheet_of(seat).marks
        return self._writes(state, self.open_spaces(marks, self.numbering_zones(marks)), wild=None)

    def wild_writes(
        self, state: GameState, candidates: list[tuple[str, int, int]], wild: str
    ) -> list[WriteOption]:
        return self._writes(state, candidates, wild=wild)

    def check_write(self, state: GameState, seat: int, choice: Choice) -> Written:
        marks = state.sheet_of(seat).marks
        index, combination = cards.chosen_combination(state.combinations, choice)
        space = choice.get("space")
        wild, action = self.wild_and_action(marks, combination, choice)
        modifier, number = self.modified_number(index, combination, action, choice)
        _raise(self.space_problem(marks, space))
        assert isinstance(space, str)
        problem = self.placement_problem(marks, space, number)
        if problem is not None:
            if wild is None and not self.write_options(state, seat):
                raise RuleViolation(
                    "no_legal_placement",
                    "No combination can be written on your sheet: take a System Error (or use "
                    "a wild action that makes a number writable).",
                )
            raise problem
        return self.written(index, space, number, action, modifier=modifier, wild=wild)

    def score_effect(self, state: GameState, seat: int, option: Option) -> Any:
        """A write: the zone it completes (if any), whether the Astronaut action was used and
        the wild spent (the action a wild becomes only waits as a step)."""
        return self.score_effects(state, seat, [option])[0]

    def score_effects(self, state: GameState, seat: int, options: Sequence[Option]) -> list[Any]:
        """``score_effect`` of each option, the zone each space completes worked out once."""
        marks = state.sheet_of(seat).marks
        # the one empty space of each zone that has one left: a number there completes it
        completes: dict[str, str] = {}
        for zone in self.layout.zones(marks):
            empty = [space for space in zone.spaces if space not in marks]
            if len(empty) == 1:
                completes[empty[0]] = zone.id
        effects: list[Any] = []
        # each option read by its fields, whatever its shape
        for fields in cast("Sequence[Mapping[str, Any]]", options):
            if fields["action"] != "write":
                effects.append(None)
                continue
            effects.append((completes.get(fields["space"]), "modifier" in fields, fields.get("wild")))
        return effects

    def prospects(self, state: GameState, sheet: Sheet, marks: Marks) -> int:
        """The room left to write: how many more numbers the trajectory can still take. A
        gap of empty spaces between two numbers of a zone takes at most as many numbers as
        lie between them, so a number written in the middle of a long empty stretch, or a
        wall cut where the stretch is short of numbers, keeps the sheet writable; a sheet
        with no room left ends in System Errors."""
        return sum(self._zone_room(zone, marks) for zone in self.numbering_zones(marks))

    def _zone_room(self, zone: tuple[str, ...], marks: Marks) -> int:
        """The room one zone leaves (``prospects``), kept by what its spaces hold."""
        rooms = self._zone_rooms
        key = (zone, tuple(map(marks.get, zone)))
        found = rooms.get(key)
        if found is None:
            if len(rooms) >= ROOM_CACHE_SIZE:
                rooms.clear()
            found = rooms[key] = sum(
                min(len(run) * ROOM_SCALE, _room(low, high)) for low, high, run in open_gaps(marks, zone)
            )
        return found

    def prospects_change(self, state: GameState, seat: int) -> Prospects:
        """How much ``prospects`` change to the sheets a decision's options lead to: while an
        option draws no wall the zones stay, and only the rooms of those holding a space it
        marks are counted."""
        now = state.sheet_of(seat)
        before = now.marks
        zones = self.numbering_zones(before)
        zone_at = {space: index for index, zone in enumerate(zones) for space in zone}
        rooms: dict[int, int] = {}  # each zone's room now, by index, once needed
        played = self.played_prospects(state, seat)
        walls = self.layout.wall_set

        def change(
            after: GameState,
            sheet: Sheet,
            marks: Marks,
            elements: Collection[str] | None,
            option: Option | None,
        ) -> int:
            if elements is None or not walls.isdisjoint(elements):
                return played(after, sheet, marks)
            points = 0
            for index in {zone_at[element] for element in elements if element in zone_at}:
                room = rooms.get(index)
                if room is None:
                    room = rooms[index] = self._zone_room(zones[index], before)
                points += self._zone_room(zones[index], marks) - room
            return points

        return change

    @cached_property
    def _zone_rooms(self) -> dict[tuple[tuple[str, ...], tuple[Any, ...]], int]:
        """The room of each zone (``prospects``) by what its spaces hold: a zone's room depends
        on nothing else, and the bot weighs the same zones option after option."""
        return {}

    def after_system_error(self, rec: Recorder, seat: int, box: str) -> None:
        if box in self.layout.error_gives_energy:
            self._gain_energy(rec, seat)
        self.settle(rec, seat)

    # --- reactions -------------------------------------------------------------------------

    def _gain_energy(self, rec: Recorder, seat: int) -> None:
        """Circle the next energy; a completed pair crosses its marker and owes a wall."""
        energy = first_unmarked(rec.sheet(seat).marks, self.layout.energies)
        if energy is None:
            return
        rec.mark(seat, element=energy, mark=CIRCLE)
        marker = self.layout.marker_completed_by.get(energy)
        if marker is not None:
            rec.mark(seat, element=marker, mark=CROSS)
            rec.effects_pending(seat, source=marker, effects=[marker])

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
                "unknown_wall",
                "%(wall)s is not a wall position (wall.01 to wall.35).",
                wall=shown(wall),
            )
        if wall in marks:
            return RuleViolation(
                "wall_already_drawn",
                "%(wall)s is already drawn.",
                wall=wall,
            )
        return None

    def robot_problem(self, marks: Marks, robot: Any, multiplier: Any) -> RuleViolation | None:
        if robot not in self.layout.robots:
            return RuleViolation(
                "unknown_robot",
                "%(robot)s is not a robot of a station.",
                robot=shown(robot),
            )
        if robot in marks:
            return RuleViolation(
                "robot_already_circled",
                "%(robot)s is already circled.",
                robot=robot,
            )
        deserved = self.deserved_multiplier(marks, robot)
        if multiplier is None or multiplier == deserved:
            return None
        station = self.layout.station_of[robot]
        if multiplier == station.mult_big and marks.get(station.mult_big) == CROSS:
            return RuleViolation(
                "multiplier_crossed",
                "%(mult_big)s is crossed on your sheet: the last robot of %(id)s circles %(mult_small)s.",
                mult_big=station.mult_big,
                id=station.id,
                mult_small=station.mult_small,
            )
        return RuleViolation(
            "wrong_multiplier",
            N_("Circling %(robot)s wins no multiplier, not %(multiplier)s.")
            if deserved is None
            else N_("Circling %(robot)s wins %(deserved)s, not %(multiplier)s."),
            robot=robot,
            deserved=deserved,
            multiplier=multiplier,
        )

    def plant_problem(self, marks: Marks, space: str, plant: Any) -> RuleViolation | None:
        if plant not in self.layout.plants:
            return RuleViolation(
                "unknown_plant",
                "%(plant)s is not a plant of a station.",
                plant=shown(plant),
            )
        station = self.layout.station_of[plant]
        if plant in marks:
            return RuleViolation(
                "plant_already_circled",
                "%(plant)s is already circled.",
                plant=plant,
            )
        if station not in self.layout.stations_reached(marks, space):
            zone = self.layout.zone_of(marks, space)
            return RuleViolation(
                "station_not_connected",
                "%(id)s follows %(link_space)s, which is not in %(id2)s where your number was written.",
                id=station.id,
                link_space=station.link_space,
                id2=zone.id,
            )
        return None

    def water_problem(self, marks: Marks, space: str, tank: Any) -> RuleViolation | None:
        on_space = self.layout.tank_on.get(space)
        if on_space is None:
            return RuleViolation(
                "no_tank_on_space",
                "%(space)s carries no water tank.",
                space=space,
            )
        if tank is not None and tank != on_space:
            return RuleViolation(
                "tank_not_on_space",
                "Your number is in %(space)s, which carries %(on_space)s.",
                space=space,
                on_space=on_space,
            )
        if on_space in marks:
            return RuleViolation(
                "tank_already_circled",
                "%(on_space)s is already circled.",
                on_space=on_space,
            )
        return None

    # --- pending steps -----------------------------------------------------------------------

    def step_action(self, step: str) -> str:
        """An action's step, or the wall a completed energy pair owes (named by its marker)."""
        return step.removeprefix("action.") if step.startswith("action.") else WALL

    def skip_refusal(self, step: str) -> RuleViolation:
        return RuleViolation(
            "wall_required",
            "Your energy pair is complete (%(step)s crossed): draw a wall now.",
            step=step,
        )

    def _energy(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        self.resolve_step(rec, seat, step, outcome="used", target=None)
        self._gain_energy(rec, seat)

    def _robot_uses(self, state: GameState, seat: int, step: str) -> Iterable[StepOption]:
        marks = state.sheet_of(seat).marks
        for robot in self.layout.robots:
            if robot not in marks:
                multiplier = self.deserved_multiplier(marks, robot)
                use: StepOption = {"action": "robot", "effect": step, "robot": robot}
                if multiplier:
                    use["multiplier"] = multiplier
                yield use

    def _plant_uses(self, state: GameState, seat: int, step: str) -> Iterable[StepOption]:
        marks = state.sheet_of(seat).marks
        space = state.seats[seat].turn_choice.get("space", "")
        return (
            {"action": "plant", "effect": step, "plant": plant}
            for station in self.layout.stations_reached(marks, space)
            for plant in station.plants
            if plant not in marks
        )

    def _water_uses(self, state: GameState, seat: int, step: str) -> Iterable[StepOption]:
        space = state.seats[seat].turn_choice.get("space", "")
        tank = self.layout.tank_on.get(space)
        if tank is None or tank in state.sheet_of(seat).marks:
            return []
        return [{"action": "water", "effect": step, "tank": tank}]

    def _mark_used(self, rec: Recorder, seat: int, step: str, target: str, mark: str) -> None:
        self.resolve_step(rec, seat, step, outcome="used", target=target)
        rec.mark(seat, element=target, mark=mark)

    def _draw_wall(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        wall = choice.get("wall")
        _raise(self.wall_problem(rec.sheet(seat).marks, wall))
        assert isinstance(wall, str)
        self._mark_used(rec, seat, step, wall, WALL_DRAWN)

    def _circle_robot(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        """Circle a robot; the last one of its station circles the multiplier it wins."""
        marks = rec.sheet(seat).marks
        robot = choice.get("robot")
        _raise(self.robot_problem(marks, robot, choice.get("multiplier")))
        assert isinstance(robot, str)
        multiplier = self.deserved_multiplier(marks, robot)
        self._mark_used(rec, seat, step, robot, CIRCLE)
        if multiplier is not None:
            rec.mark(seat, element=multiplier, mark=CIRCLE)

    def _circle_plant(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        plant = choice.get("plant")
        space = rec.seat(seat).turn_choice.get("space", "")
        _raise(self.plant_problem(rec.sheet(seat).marks, space, plant))
        assert isinstance(plant, str)
        self._mark_used(rec, seat, step, plant, CIRCLE)

    def _circle_tank(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        """Circle the tank of the space the number was written in."""
        space = rec.seat(seat).turn_choice.get("space", "")
        _raise(self.water_problem(rec.sheet(seat).marks, space, choice.get("tank")))
        self._mark_used(rec, seat, step, self.layout.tank_on[space], CIRCLE)

    def _planning(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        self.write_x(rec, seat, step, choice, outcome="used")
        self.cross_next(rec, seat, self.layout.planning_track)

    # --- phase 5: the race for the big multipliers -----------------------------------------

    def race_elements(self) -> tuple[str, ...]:
        return tuple(station.mult_big for station in self.layout.stations)

    # --- missions, end of game and scoring -------------------------------------------------

    def complete_zones(self, marks: Marks) -> list[Zone]:
        """The playing zones whose every space is filled."""
        return [zone for zone in self.layout.zones(marks) if zone.complete(marks)]

    def _zone_lengths(self, marks: Marks) -> list[int]:
        return [len(zone) for zone in self.complete_zones(marks)]

    def station_points(self, marks: Marks, station: Station) -> int:
        """Circled plants times the circled multiplier (0 without one)."""
        if marks.get(station.mult_big) == CIRCLE:
            value = station.big_value
        elif marks.get(station.mult_small) == CIRCLE:
            value = station.small_value
        else:
            return 0
        return value * sum(1 for plant in station.plants if plant in marks)

    def areas(self, state: GameState, sheet: Sheet, marks: Marks) -> dict[str, int]:
        complete = self.complete_zones(marks)
        counts = [
            len(complete) if other is sheet else len(self.complete_zones(self.seen_marks(state, other)))
            for other in state.sheets
        ]
        return {
            "plants": sum(self.station_points(marks, s) for s in self.layout.stations),
            "water": sum(self.layout.tank_value[t] for t in self.layout.tanks if t in marks),
            "longest_zone": max((len(zone) for zone in complete), default=0),
            "most_zones": (
                rank_awards(counts, self.layout.most_zones_awards, zero_scores=False)[sheet.id]
                if state.astra is None
                else self.solo_most_zones(len(complete), state.astra.pile.get("energy", 0))
            ),
        }

    def area_parts(self) -> list[AreaPart]:
        """Each station, the water tanks, and the zones (the longest complete one and the award
        for the most, which compares them with the other sheets': ``bound_parts``)."""
        tanks = self.layout.tanks
        return [
            *(
                ((*s.plants, s.mult_big, s.mult_small), partial(self._station_part, s))
                for s in self.layout.stations
            ),
            (tanks, lambda marks: sum(self.layout.tank_value[tank] for tank in tanks if tank in marks)),
            # a sheet alone in the ranking (``bound_parts`` puts it among the others)
            ((*self.layout.trajectory, *self.layout.walls), partial(self._zones_part, [0], 0)),
        ]

    def bound_parts(self, state: GameState, seat: int) -> list[AreaPart] | None:
        """The zones' part compares the sheet's complete zones with the other sheets' as they
        are seen in ``state`` (not bound against ASTRA, whose Energy cards count instead)."""
        if state.astra is not None:
            return None
        sheet = state.sheet_of(seat)
        counts = [
            0 if other is sheet else len(self.complete_zones(self.seen_marks(state, other)))
            for other in state.sheets
        ]
        parts = self._area_parts
        zones, _ = parts[-1]
        return [*parts[:-1], (zones, partial(self._zones_part, counts, sheet.id))]

    def _station_part(self, station: Station, marks: Marks) -> int:
        return self.station_points(marks, station)

    def _zones_part(self, counts: list[int], index: int, marks: Marks) -> int:
        """The longest complete zone and the most-zones award of the sheet ``index`` of
        ``counts`` (the other sheets' complete zones)."""
        complete = self.complete_zones(marks)
        counts = [len(complete) if at == index else count for at, count in enumerate(counts)]
        longest = max((len(zone) for zone in complete), default=0)
        return longest + rank_awards(counts, self.layout.most_zones_awards, zero_scores=False)[index]

    def listed_marks(self, state: GameState, seat: int, option: Option) -> Marks | None:
        """What an option marks that the score or the prospects read, where nothing else it sets
        off is read by either: a write's number, a Planning X, a wall, a robot (with the
        multiplier it wins), a plant, a tank, the energy circled (with the marker of the pair it
        completes), nothing for a skip. Besides, a wild spent, the symbols crossed on the
        astronaut and planning tracks (and the wild they circle) and the steps left waiting are
        read by neither. None for a System Error (its energy may owe a wall)."""
        fields: Mapping[str, Any] = option
        plain = plain_marks(fields)
        if plain is not None:
            return plain
        action = fields["action"]
        if action == WALL:
            return {fields["wall"]: WALL_DRAWN}
        if action == "robot":
            robot: Marks = {fields["robot"]: CIRCLE}
            if "multiplier" in fields:
                robot[fields["multiplier"]] = CIRCLE
            return robot
        if action in ("plant", "water"):
            return {fields["plant" if action == "plant" else "tank"]: CIRCLE}
        if action == "energy":
            energy = first_unmarked(state.sheet_of(seat).marks, self.layout.energies)
            if energy is None:
                return {}
            marker = self.layout.marker_completed_by.get(energy)
            return {energy: CIRCLE} if marker is None else {energy: CIRCLE, marker: CROSS}
        return None

    def details(self, state: GameState, sheet: Sheet, marks: Marks) -> dict[str, Any]:
        return {
            "stations": {s.id: self.station_points(marks, s) for s in self.layout.stations},
            "complete_zones": len(self.complete_zones(marks)),
            "errors_crossed": self.errors_marked(sheet, marks),
        }

    def solo_most_zones(self, complete_zones: int, astra_energy_cards: int) -> int:
        """Solo: with at least one complete zone, 20 for no fewer zones than ASTRA's pairs of
        Energy cards, else 10; nothing with no complete zone."""
        if complete_zones == 0:
            return 0
        astra_zones = astra_energy_cards // ENERGY_CARDS_PER_ASTRA_ZONE
        return astra.solo_rank_award(complete_zones, astra_zones, self.layout.most_zones_awards)

    def derived(self, state: GameState, sheet: Sheet, *, marks: Marks) -> dict[str, Any]:
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


def _room(low: int, high: int) -> int:
    """How many numbers lie strictly between ``low`` and ``high``, in ROOM_SCALE units: the
    numbers no card shows (only an Astronaut shift writes them) count for less."""
    return sum(ROOM_SCALE if n in CARD_NUMBERS else RARE_ROOM for n in range(low + 1, high))


def _write_option(
    index: int, space: str, number: int, modifier: int | None, wild: str | None, action: str
) -> WriteOption:
    option: WriteOption = {"action": "write", "combination": index, "space": space, "number": number}
    if modifier is not None:
        option["modifier"] = modifier
    if wild is not None:
        option["wild"] = wild
        option["wild_action"] = action
    return option


def _raise(problem: RuleViolation | None) -> None:
    if problem is not None:
        raise problem
