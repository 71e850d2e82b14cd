"""Adventure 6, The Virus (adventure-6-virus.md): a housing block of five floors cut into eleven
quarters joined by walkways; viruses infect their quarter and, once it is full, spill through
the open walkways; full quarters are evacuated for their numbered spaces times their energies.

The rules are the spec's: floors and quarters §3.2-3.3, walkways §3.4, viruses §3.5, the
plant and water tracks §3.6-3.7, setup §4, the turn §5, evacuation §6.1, phase 5 and
propagation §6.2-6.4, races §7, System Errors §8, missions §9 (a first claim activates a virus
and runs phases 5 and 6 again), end and scoring §10, solo §11. Element ids are the data file's
(§2, §13).

Readings taken where the sources disagree (§12), and choices of this module:

- 12.1: quarantine never prevents an activation; a closed-in virus still infects its own
  quarter and only its spill-over stops;
- 12.3: a water-row energy only goes in a quarter that still has an empty space, so never in
  the quarter the number of that Water action has just completed;
- 12.4: a quarter is evacuated as soon as the seat's action (and its X, its row bonus) is
  resolved, so an Energy action of the completing number counts; in phase 5 right after the
  virus that completed it has spread; a quarter never evacuated during play is scored by the
  same formula at the end (the live score always shows that formula);
- solo (spec section 11): an ASTRA bonus for each virus the player activates (a Plant or
  Water symbol, a first claim) and each propagation symbol they trigger, and none for what a
  System Error or ASTRA sets off (12.2); the first-pass Effect card activates green or blue,
  the player's choice when both are asleep, else crosses a propagation symbol of their
  choice, then one propagation follows at once, even with nothing left to cross (12.6); the
  second-pass one wakes the virus of its mission with one propagation, or does nothing when
  that virus is already active (12.6);
- an infection mark names the virus that made it (``infected.<colour>``), so each virus's
  spread can be shown; the player chooses which empty space of a quarter a virus infects
  (spec 6.4): a propagation runs virus by virus in the fixed order and stops where a quarter
  offers more than one empty space, leaving the step ``infect.<quarter>.<colour>`` to the seat
  in phase 5 (the game's phase ``incidents``; a quarter with one empty space is infected at
  once), then goes on from the next virus (``spread.<quarter>``) once the seat has chosen; the
  propagations due wait as ``propagation`` steps, so the log shows how many each seat suffered;
- the grey virus is placed at setup, by each seat (phase ``setup``, before the first cards
  flip): one empty target among the four and one empty space of its quarter; a seat's
  ``start_marks`` may place it instead (a campaign card), and that seat is not asked;
- the greedy bot infects the empty space that takes the fewest numbers now (the room left to
  write is its second criterion after the score), one without a water tank first, then the
  leftmost; it weighs a mission's virus at the propagation that choice would make;
- a wild action is chosen with the combination (``wild`` and ``wild_action`` in the pick),
  one per turn, the first circled one when the pick names none; a wild made Astronaut carries
  its modifier; a wild circled during this turn's action is not there yet at the pick, and
  writability is judged on the combinations as dealt (common D4);
- the Astronaut action is used or declined at the pick: a pick with a ``modifier`` (0
  included) uses it and crosses the next astronaut symbol at once (nothing past ``astro.6``);
- Energy, Plant and Water take no choice but stay optional steps with a ``skip`` (a Plant
  or Water symbol may activate a virus); a step that can change nothing resolves by itself
  as ``no_effect``; the row bonuses are compulsory while they have a target;
- all players claiming a mission in the same turn, in any loop of its phase 6, get the high
  value; the virus of a mission is activated once, by its first claims; a claim stays the
  player's choice, and the greedy bot declines one worth less than the propagation its virus
  would cause on its sheet (``claim_cost``).
"""

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from functools import cached_property, partial
from itertools import islice
from typing import Any, cast

from games.rules.adventures.virus import shapes
from games.rules.adventures.virus.layout import Layout, Quarter, Track
from games.rules.common.base import (
    ASTRONAUT,
    ASTRONAUT_SHIFTS,
    AreaPart,
    Condition,
    Prospects,
    Step,
    Uses,
    error_choices,
    plain_marks,
)
from games.rules.common.missions import MISSION_BOX
from games.rules.common.options import Choice, Group, Option, Options, StepOption, WriteOption
from games.rules.common.wilds import WildActions
from games.rules.core import cards
from games.rules.core.cards import ACTIONS
from games.rules.core.errors import RuleViolation, shown
from games.rules.core.events import Recorder, Written
from games.rules.core.sheet import CIRCLE, CROSS, LINE, MAX_NUMBER, MIN_NUMBER, Marks, X, open_runs
from games.rules.core.state import GameState, Sheet

GREY = "grey"
INFECTED = "infected"
# The mark of a space infected by each virus.
INFECTED_BY = {
    colour: f"{INFECTED}.{colour}" for colour in (GREY, "red", "green", "purple", "blue", "yellow")
}
INFECTIONS = frozenset(INFECTED_BY.values())
BONUS_ENERGY = "bonus_energy"
# The steps of the setup and of phase 5: the grey virus placed, a space infected, and the
# steps that run a propagation without a choice (one due; one going on from a quarter's virus).
GREY_STEP = "grey"
INFECT = "infect"
PROPAGATION = "propagation"
SPREAD = "spread."
# How many fillings of a floor keep their open runs worked out (a bound on memory).
FLOOR_CACHE_SIZE = 8192
# A floor's empty spaces each number fits (in the floor's order), and the room they leave.
FloorRuns = tuple[dict[int, tuple[str, ...]], int]
ROBOT = "robot"
ENERGY = "energy"
PLANT = "plant"

# Mission conditions, by card (the card texts are in the common mission index).
MISSION_TWO_EVACUATED, EVACUATED_NEEDED = 94, 2
MISSION_FLOOR_EVACUATED = 95
MISSION_THREE_QUARANTINED, QUARANTINED_NEEDED = 96, 3
MISSION_GREEN_BLUE_QUARANTINED = 97
MISSION_ENERGY_FLOORS = 98
MISSION_PLANT_WATER_FLOORS = 99
FLOORS_NEEDED = 2  # missions 98 and 99


class VirusRules(WildActions[Layout]):
    """The rules of adventure 6 (see the module docstring)."""

    score_shape = shapes.VirusScore
    derived_shape = shapes.VirusDerived

    layout_class = Layout
    start_mark_words = (CIRCLE, CROSS, LINE)

    def __init__(self) -> None:
        super().__init__()
        # By floor: its empty spaces each number fits, and the room they leave
        # (``prospects``), by what the floor's spaces hold.
        self._floor_runs: list[dict[tuple[Any, ...], FloorRuns]] = [{} for _ in self.layout.zone_spaces]
        # By floor: where each space of its runs lies (``_runs_by_space``), by the same.
        self._floor_places: list[dict[tuple[Any, ...], dict[str, tuple[int, int, int, int]]]] = [
            {} for _ in self.layout.zone_spaces
        ]
        # The effect of a write in each space, by the modifier and the wild it uses.
        self._write_effect_tables: dict[tuple[bool, str | None], dict[str, str]] = {}
        # What ``evacuate`` reads of each quarter, after every move that settles.
        self._evacuations = tuple((q.evacuated, q.space_set, q) for q in self.layout.quarters.values())

    def step_table(self) -> dict[str, Step]:
        return {
            ENERGY: Step(uses=self._circle_uses(ENERGY), use=self._energy),
            PLANT: Step(uses=self._circle_uses(PLANT), use=self._plant),
            "water": Step(uses=self._water_uses, use=self._water),
            ROBOT: Step(uses=self.each_unmarked(ROBOT, "walkway", self.layout.walkways), use=self._close),
            "planning": Step(
                uses=self.each_unmarked("planning", "space", tuple(self.layout.spaces)),
                use=self._planning,
            ),
            BONUS_ENERGY: Step(uses=self._bonus_energy_uses, use=self._bonus_energy),
            GREY_STEP: Step(uses=self._grey_uses, use=self._place_grey),
            INFECT: Step(uses=self._infect_uses, use=self._infect),
        }

    def mission_table(self) -> dict[int, Condition]:
        quarters = tuple(self.layout.quarters.values())
        walkway_sets = tuple(q.walkways for q in quarters)
        floors = tuple(self.layout.floors.values())
        evacuated = [frozenset(q.evacuated for q in floor) for floor in floors]
        all_evacuated = frozenset(q.evacuated for q in quarters)
        energies = [frozenset().union(*(q.energy_set for q in floor)) for floor in floors]
        resources = [frozenset().union(*(q.plants_and_tank for q in floor)) for floor in floors]
        green_blue = frozenset().union(
            *(q.walkways for q in quarters if q.colour in ("green", "blue"))
        )
        return {
            MISSION_TWO_EVACUATED: lambda sheet: len(sheet.marks.keys() & all_evacuated)
            >= EVACUATED_NEEDED,
            MISSION_FLOOR_EVACUATED: lambda sheet: any(
                sheet.marks.keys() >= floor for floor in evacuated
            ),
            MISSION_THREE_QUARANTINED: lambda sheet: sum(map(sheet.marks.keys().__ge__, walkway_sets))
            >= QUARANTINED_NEEDED,  # ``quarantined`` for every quarter, at C speed
            MISSION_GREEN_BLUE_QUARANTINED: lambda sheet: sheet.marks.keys() >= green_blue,
            MISSION_ENERGY_FLOORS: lambda sheet: sum(
                1 for floor in energies if sheet.marks.keys() >= floor
            )
            >= FLOORS_NEEDED,
            MISSION_PLANT_WATER_FLOORS: lambda sheet: sum(
                1 for floor in resources if sheet.marks.keys() >= floor
            )
            >= FLOORS_NEEDED,
        }

    # --- setup: the grey virus -------------------------------------------------------------

    def mark_problem(self, element: Any, mark: Any) -> RuleViolation | None:
        if isinstance(element, str) and element in self.layout.spaces:
            return None if mark in (X, INFECTED_BY[GREY]) else RuleViolation(
                "invalid_modifier",
                "A starting mark in space %(space)s is X or %(grey)s.",
                space=element,
                grey=INFECTED_BY[GREY],
            )
        return super().mark_problem(element, mark)

    def validate_modifiers(self, modifiers: list[dict[str, Any]]) -> list[tuple[str, Any]]:
        """A seat placing its grey virus circles one empty target and infects one space of
        that quarter."""
        start = super().validate_modifiers(modifiers)
        targets = {self.layout.quarters[q].target: q for q in self.layout.grey_candidates}
        greys = [targets[element] for element, mark in start if element in targets and mark == CIRCLE]
        infected = [element for element, mark in start if mark == INFECTED_BY[GREY]]
        if not greys and not infected:
            return start
        if len(greys) != 1 or len(infected) != 1 or self.layout.quarter_of[infected[0]].id != greys[0]:
            raise RuleViolation(
                "invalid_modifier",
                "The grey virus circles one target of %(targets)s and infects one space of its quarter.",
                targets=shown(list(targets)),
            )
        return start

    def begin_setup(self, rec: Recorder, seat: int) -> None:
        """A seat whose grey virus no setup modifier placed places it before the first turn."""
        marks = rec.sheet(seat).marks
        if not any(marks.get(self._grey_target(q)) == CIRCLE for q in self.layout.grey_candidates):
            rec.effects_pending(seat, source="setup", effects=[GREY_STEP])

    def _grey_target(self, quarter: str) -> str:
        target = self.layout.quarters[quarter].target
        assert target is not None  # every grey candidate has an empty target
        return target

    def _grey_uses(self, state: GameState, seat: int, step: str) -> Iterable[StepOption]:
        marks = state.sheet_of(seat).marks
        return (
            {"action": GREY_STEP, "effect": step, "quarter": quarter, "space": space}
            for quarter in self.layout.grey_candidates
            for space in self.layout.quarters[quarter].spaces
            if space not in marks
        )

    def _place_grey(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        """Draw the grey virus in the chosen quarter's target and infect the chosen space."""
        marks = rec.sheet(seat).marks
        name, space = choice.get("quarter"), choice.get("space")
        if name not in self.layout.grey_candidates:
            raise RuleViolation(
                "quarter_not_eligible",
                "The grey virus goes in one of %(grey_candidates)s, not %(name)s.",
                grey_candidates=shown(list(self.layout.grey_candidates)),
                name=shown(name),
            )
        assert isinstance(name, str)
        quarter = self.layout.quarters[name]
        if space not in quarter.spaces:
            raise RuleViolation(
                "space_not_in_quarter",
                "The grey virus infects a space of %(name)s: one of %(spaces)s.",
                name=name,
                spaces=shown(list(quarter.spaces)),
            )
        _raise(self.space_problem(marks, space))
        self.resolve_step(rec, seat, step, outcome="placed", target=space)
        rec.mark(seat, element=self._grey_target(name), mark=CIRCLE)
        assert isinstance(space, str)  # checked above
        rec.mark(seat, element=space, mark=INFECTED_BY[GREY])

    # --- phases 2-3: a pick, with a wild action or the Astronaut modifier -----------------

    def zone_name(self, zone: Any) -> str:
        return f"floor {zone[0].removeprefix('floor').split('.')[0]}"

    def write_options(self, state: GameState, seat: int) -> Sequence[Option]:
        """Every write of the combinations as dealt (common D4)."""
        return Options(self._writes(state, self._fits(state.sheet_of(seat).marks), wild=None))

    def choice_options(self, state: GameState, seat: int) -> Sequence[Option]:
        """The writes as dealt (or the System Error), and the writes a wild action allows."""
        sheet = state.sheet_of(seat)
        fits = self._fits(sheet.marks)
        groups = self._writes(state, fits, wild=None)
        if not groups:
            errors = self.error_boxes_to_mark(sheet)
            groups = [(lambda box: {"action": "system_error", "box": box}, error_choices(errors))]
        wilds = self.available_wilds(sheet.marks)
        if wilds:
            groups += self._writes(state, fits, wild=wilds[0])
        return Options(groups)

    def _writes(self, state: GameState, fits: Callable[[int], list[str]], *, wild: str | None) -> list[Group]:
        """Every write of the dealt combinations, or with ``wild`` of every other action (an
        Astronaut made by a wild always carries a modifier, 0 included: without one the wild
        would be spent for nothing); a group of options per number and what goes with it, none
        empty."""
        groups: list[Group] = []
        for index, combination in enumerate(state.combinations):
            number = combination.number
            if wild is None:
                if combination.action != ASTRONAUT:  # the commonest case: one number
                    spaces = fits(number)
                    if spaces:
                        groups.append(_write_group(index, spaces, number, None, None, combination.action))
                    continue
                actions: Iterable[str] = (ASTRONAUT,)
            else:
                actions = [action for action in ACTIONS if action != combination.action]
            # the dealt number, the same for every action but the Astronaut
            spaces = fits(number)
            for action in actions:
                if action != ASTRONAUT:
                    if spaces:
                        groups.append(_write_group(index, spaces, number, None, wild, action))
                    continue
                for modifier in _modifiers(number, action, wild is None):
                    written = number + (modifier or 0)
                    shifted = fits(written)
                    if shifted:
                        groups.append(_write_group(index, shifted, written, modifier, wild, action))
        return groups

    def _fits(self, marks: Marks) -> Callable[[int], list[str]]:
        """The empty spaces of the sheet a number fits, by number (worked out once a number,
        from each floor's table of them: ``_floor_runs``)."""
        tables = []
        for zone, cache in zip(self.layout.zone_spaces, self._floor_runs, strict=True):
            filling = tuple(map(marks.get, zone))
            tables.append((cache.get(filling) or _floor_runs(cache, zone, filling))[0])
        fitting: dict[int, list[str]] = {}

        def fits(number: int) -> list[str]:
            spaces = fitting.get(number)
            if spaces is None:
                spaces = fitting[number] = []
                for table in tables:
                    run = table.get(number)
                    if run is not None:
                        spaces += run
            return spaces

        return fits

    def check_write(self, state: GameState, seat: int, choice: Choice) -> Written:
        marks = state.sheet_of(seat).marks
        index, combination = cards.chosen_combination(state.combinations, choice)
        wild, action = self.wild_and_action(marks, combination, choice)
        if wild is not None and action == ASTRONAUT and choice.get("modifier") is None:
            raise RuleViolation(
                "modifier_required", "A wild action used as Astronaut changes the number: give a modifier."
            )
        modifier, number = self.modified_number(index, combination, action, choice)
        space = choice.get("space")
        _raise(self.space_problem(marks, space))
        assert isinstance(space, str)
        _raise(self.placement_problem(marks, space, number))
        return self.written(index, space, number, action, modifier=modifier, wild=wild)

    def score_effect(self, state: GameState, seat: int, option: Option) -> Any:
        """A number or an X adds a numbered space to its quarter (worth its energies): its
        effect is that quarter, with the Astronaut action and the wild it uses; a bonus energy
        is its quarter; every walkway closed is alike (the score does not see walkways)."""
        return self.score_effects(state, seat, [option])[0]

    def score_effects(self, state: GameState, seat: int, options: Sequence[Option]) -> list[Any]:
        """``score_effect`` of each option, in one loop (a decision lists a hundred writes); the
        options of a write group (``_write_group``: they differ in their space alone) read
        without making them. A write's effect is named by a string made once (``_write_effects``):
        a decision's effects are hashed and compared option by option."""
        if isinstance(options, Options):
            effects: list[Any] = []
            for make, values in options.groups():
                first = make(values[0])
                if first["action"] == "write" and first["space"] == values[0]:
                    write = cast(WriteOption, first)
                    table = self._write_effects("modifier" in write, write.get("wild"))
                    effects += map(table.__getitem__, values)
                else:
                    effects += self.score_effects(state, seat, [make(value) for value in values])
            return effects
        quarter_id = self._quarter_id
        effects = []
        # each option read by its fields, whatever its shape
        for fields in cast("Sequence[Mapping[str, Any]]", options):
            action = fields["action"]
            if action == "write":
                effects.append(self._write_effects("modifier" in fields, fields.get("wild"))[fields["space"]])
            elif action == "planning":
                effects.append(quarter_id[fields["space"]])
            elif action == BONUS_ENERGY:
                effects.append(fields["quarter"])
            else:
                effects.append(ROBOT if action == ROBOT else None)
        return effects

    def _write_effects(self, modifier: bool, wild: str | None) -> dict[str, str]:
        """The effect of a write in each space, with an Astronaut modifier or not and the wild
        it spends: its quarter with them, named once."""
        table = self._write_effect_tables.get((modifier, wild))
        if table is None:
            suffix = (" modified" if modifier else "") + ("" if wild is None else f" with {wild}")
            named = {quarter: f"write in {quarter}{suffix}" for quarter in self.layout.quarters}
            table = self._write_effect_tables[(modifier, wild)] = {
                space: named[quarter] for space, quarter in self._quarter_id.items()
            }
        return table

    @cached_property
    def _quarter_id(self) -> dict[str, str]:
        """The quarter of each space, by id."""
        return {space: quarter.id for space, quarter in self.layout.quarter_of.items()}

    # --- phase 4: the actions and their steps ------------------------------------------------

    def step_action(self, step: str) -> str:
        """An action's step, a row bonus (a plant row closes a walkway, a water row circles
        an energy), the grey virus of the setup, or an infection of phase 5."""
        if step.startswith("action."):
            return step.removeprefix("action.")
        if step == GREY_STEP or step.startswith(f"{INFECT}."):
            return step.split(".", 1)[0]
        return ROBOT if step.startswith("plant.") else BONUS_ENERGY

    def skip_refusal(self, step: str) -> RuleViolation:
        return RuleViolation(
            "effect_not_optional",
            "The row bonus %(step)s is used at once while it has a target.",
            step=step,
        )

    def _number_quarter(self, state: GameState, seat: int) -> Quarter:
        return self.layout.quarter_of[state.seats[seat].turn_choice["space"]]

    def _quarter_symbols(self, state: GameState, seat: int, action: str) -> tuple[str, ...]:
        """The energies or the plants (``action``) of the quarter of this turn's number."""
        quarter = self._number_quarter(state, seat)
        return quarter.energies if action == ENERGY else quarter.plants

    def _circle_uses(self, action: str) -> Uses:
        """An Energy or Plant action circles the next free symbol of the number's quarter: it
        waits while there is one."""

        def uses(state: GameState, seat: int, step: str) -> Iterable[StepOption]:
            if _first_free(state.sheet_of(seat).marks, self._quarter_symbols(state, seat, action)) is None:
                return ()
            return ({"action": action, "effect": step},)

        return uses

    def _circle_next(self, rec: Recorder, seat: int, step: str, action: str) -> None:
        symbol = _first_free(rec.sheet(seat).marks, self._quarter_symbols(rec.state, seat, action))
        assert symbol is not None  # a step that can change nothing never waits (settle)
        self.resolve_step(rec, seat, step, outcome="used", target=symbol)
        rec.mark(seat, element=symbol, mark=CIRCLE)

    def _energy(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        self._circle_next(rec, seat, step, ENERGY)

    def _plant(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        self._circle_next(rec, seat, step, PLANT)
        self._advance(rec, seat, self.layout.plant_track)

    def _water_uses(self, state: GameState, seat: int, step: str) -> Iterable[StepOption]:
        tank = self.layout.tank_on.get(state.seats[seat].turn_choice["space"])
        if tank is None or tank in state.sheet_of(seat).marks:
            return ()
        return ({"action": "water", "effect": step},)

    def _water(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        space = rec.seat(seat).turn_choice["space"]
        tank = self.layout.tank_on.get(space)
        assert tank is not None  # a step that can change nothing never waits (settle)
        self.resolve_step(rec, seat, step, outcome="used", target=tank)
        rec.mark(seat, element=tank, mark=CIRCLE)
        self._advance(rec, seat, self.layout.water_track)

    def walkway_problem(self, marks: Marks, walkway: Any) -> RuleViolation | None:
        """Why ``walkway`` cannot be closed now, or None."""
        if walkway not in self.layout.walkway_ends:
            return RuleViolation(
                "unknown_walkway",
                "%(walkway)s is not a walkway (w01 to w22).",
                walkway=shown(walkway),
            )
        if walkway in marks:
            return RuleViolation(
                "walkway_closed",
                "%(walkway)s is already closed.",
                walkway=walkway,
            )
        return None

    def _close(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        walkway = choice.get("walkway")
        problem = self.walkway_problem(rec.sheet(seat).marks, walkway)
        self.use_on(rec, seat, step, walkway, problem, outcome="used", mark=LINE)

    def _planning(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        self.write_x(rec, seat, step, choice, outcome="used")
        self.cross_next(rec, seat, self.layout.planning_track)

    def energy_quarters(self, marks: Marks) -> list[Quarter]:
        """The quarters a water-row energy may go in: an empty space and an energy left."""
        return [
            q
            for q in self.layout.quarters.values()
            if not all_marked(marks, q.space_set) and not all_marked(marks, q.energy_set)
        ]

    def _bonus_energy_uses(self, state: GameState, seat: int, step: str) -> Iterable[StepOption]:
        return (
            {"action": BONUS_ENERGY, "effect": step, "quarter": q.id}
            for q in self.energy_quarters(state.sheet_of(seat).marks)
        )

    def _bonus_energy(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        marks = rec.sheet(seat).marks
        name = choice.get("quarter")
        quarter = self.layout.quarters.get(name) if isinstance(name, str) else None
        if quarter is None or quarter not in self.energy_quarters(marks):
            raise RuleViolation(
                "quarter_not_eligible",
                "A row's energy goes in a quarter with an empty space and an energy left: %(value)s, not "
                "%(value2)s.",
                value=shown([q.id for q in self.energy_quarters(marks)]),
                value2=shown(choice.get('quarter')),
            )
        energy = _first_free(marks, quarter.energies)
        assert energy is not None  # an eligible quarter has an energy left
        self.resolve_step(rec, seat, step, outcome="used", target=energy)
        rec.mark(seat, element=energy, mark=CIRCLE)

    def _advance(self, rec: Recorder, seat: int, track: Track) -> None:
        """Cross the next symbol of a resource track with its side effects, in order: the row
        and its bonus, the virus it activates, the propagation symbol it triggers."""
        symbol = self.cross_next(rec, seat, track.symbols)
        if symbol is None:
            return
        row = track.rows.get(symbol)
        if row is not None:
            rec.mark(seat, element=row.box, mark=CROSS)
            rec.mark(seat, element=row.bonus, mark=CROSS)
            rec.effects_pending(seat, source=row.bonus, effects=[row.bonus])
        activation = track.activations.get(symbol)
        if activation is not None and activation not in rec.sheet(seat).marks:
            self._activate(rec, seat, activation)
        propagation = track.propagations.get(symbol)
        if propagation is not None and propagation not in rec.sheet(seat).marks:
            rec.mark(seat, element=propagation, mark=CROSS)

    def _activate(self, rec: Recorder, seat: int, activation: str) -> None:
        rec.mark(seat, element=activation, mark=CROSS)
        rec.mark(seat, element=self.layout.activation_target[activation], mark=CIRCLE)

    def usable(self, state: GameState, seat: int, step: str) -> bool:
        """The steps that run a propagation always have work left (``settle`` runs them)."""
        return _runs_propagation(step) or super().usable(state, seat, step)

    def settle(self, rec: Recorder, seat: int) -> None:
        """Run the propagations waiting for the seat as far as they go without its choice,
        evacuating the quarters each virus completed before the next one spreads; once nothing
        waits for the seat, its complete quarters are evacuated."""
        super().settle(rec, seat)
        pending = rec.seat(seat).pending
        while pending and _runs_propagation(pending[-1][0]):
            self.evacuate(rec, seat)
            self._spread(rec, seat, pending[-1][0])
            super().settle(rec, seat)
            pending = rec.seat(seat).pending
        if not pending:
            self.evacuate(rec, seat)

    def evacuate(self, rec: Recorder, seat: int) -> None:
        """Score and circle every complete quarter not evacuated yet."""
        marks = rec.sheet(seat).marks
        spaces = marks.keys()
        for evacuated, space_set, quarter in self._evacuations:
            if evacuated not in marks and spaces >= space_set:
                rec.mark(seat, element=quarter.score_box, mark=quarter_points(marks, quarter))
                rec.mark(seat, element=evacuated, mark=CIRCLE)
                marks = rec.sheet(seat).marks
                spaces = marks.keys()

    # --- phase 5: activations, propagation symbols, propagations ---------------------------

    def incidents(self, rec: Recorder) -> None:
        """Share this turn's activations and propagation symbols, then give every seat its
        propagations (spec 6.2, 6.3)."""
        seats = range(rec.state.players)
        new = [_marked_this_turn(rec.sheet(seat)) for seat in seats]
        activated = sorted(set().union(*(marked & self.layout.activation_target.keys() for marked in new)))
        triggered = {
            symbol: {seat for seat in seats if symbol in new[seat]}
            for symbol in self.layout.propagation_symbols
            if any(symbol in marked for marked in new)
        }
        for seat in seats:
            for act in activated:
                if act not in rec.sheet(seat).marks:
                    self._activate(rec, seat, act)
            for symbol in triggered:
                if symbol not in rec.sheet(seat).marks:
                    rec.mark(seat, element=symbol, mark=CROSS)
        for seat in seats:
            due = self.propagations_due(rec.sheet(seat), seat, len(activated), triggered)
            self.propagate(rec, seat, times=due)

    def propagations_due(
        self, sheet: Sheet, seat: int, activated: int, triggered: dict[str, set[int]]
    ) -> int:
        """Spec 6.3: one per virus activated this turn, one per propagation symbol triggered
        this turn by others and not by this seat, one for ``error.2`` / ``error.3`` crossed
        this turn."""
        by_others = sum(1 for by in triggered.values() if seat not in by)
        errors = any(_new_mark(sheet, box) for box in self.layout.self_propagating_errors)
        return activated + by_others + int(errors)

    def propagate(self, rec: Recorder, seat: int, *, times: int = 1) -> None:
        """Leave ``times`` propagations (spec 6.4) waiting for the seat, and run them as far as
        they go without its choice."""
        if times > 0:
            rec.effects_pending(seat, source="phase_5", effects=[PROPAGATION] * times)
            self.settle(rec, seat)

    def _spread(self, rec: Recorder, seat: int, step: str) -> None:
        """Run a propagation (``propagation``), or go on with one (``spread.<quarter>``): each
        active virus in the fixed order infects its own quarter, or once it is complete one
        space of each neighbour behind an open walkway. Where a quarter offers more than one
        empty space the seat chooses: the infections waiting for that choice are left on top,
        with the rest of the propagation under them."""
        quarters = list(self.layout.quarters.values())
        start = 0 if step == PROPAGATION else self.layout.quarter_rank[step.removeprefix(SPREAD)]
        self.resolve_step(rec, seat, step, outcome="spread", target=None)
        active = [q for q in quarters[start:] if _active(rec.sheet(seat).marks, q)]
        for index, quarter in enumerate(active):
            choices = self._infect_or_spill(rec, seat, quarter)
            if choices:
                if index + 1 < len(active):
                    rec.effects_pending(seat, source=PROPAGATION,
                        effects=[f"{SPREAD}{active[index + 1].id}"],
                    )  # fmt: skip
                rec.effects_pending(seat, source=f"virus.{_colour(quarter)}", effects=choices)
                return
            self.evacuate(rec, seat)

    def _infect_or_spill(self, rec: Recorder, seat: int, quarter: Quarter) -> list[str]:
        """One virus spreads: into its own quarter while it has an empty space, else into each
        neighbour behind an open walkway. A quarter with one empty space is infected at once;
        the infections of quarters with more are returned, as steps for the seat to choose."""
        colour = _colour(quarter)
        marks = rec.sheet(seat).marks
        if not all_marked(marks, quarter.space_set):
            targets = [quarter]
        else:
            targets = [
                self.layout.quarters[neighbour]
                for walkway, neighbour in quarter.neighbours
                if walkway not in marks
            ]
        choices = []
        for target in targets:
            room = [space for space in target.spaces if space not in marks]
            if len(room) == 1:
                rec.mark(seat, element=room[0], mark=INFECTED_BY[colour])
                marks = rec.sheet(seat).marks
            elif room:
                choices.append(f"{INFECT}.{target.id}.{colour}")
        return choices

    def _infected_quarter(self, step: str) -> tuple[Quarter, str]:
        """The quarter an ``infect.<quarter>.<colour>`` step infects, and the virus's colour."""
        _, name, colour = step.split(".")
        return self.layout.quarters[name], colour

    def _infect_uses(self, state: GameState, seat: int, step: str) -> Iterable[StepOption]:
        quarter, _ = self._infected_quarter(step)
        marks = state.sheet_of(seat).marks
        return (
            {"action": INFECT, "effect": step, "space": space}
            for space in quarter.spaces
            if space not in marks
        )

    def _infect(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        quarter, colour = self._infected_quarter(step)
        space = choice.get("space")
        if space not in quarter.spaces:
            raise RuleViolation(
                "space_not_in_quarter",
                "The %(colour)s virus infects a space of %(id)s: one of %(spaces)s.",
                colour=colour,
                id=quarter.id,
                spaces=shown(list(quarter.spaces)),
            )
        _raise(self.space_problem(rec.sheet(seat).marks, space))
        self.resolve_step(rec, seat, step, outcome="infected", target=space)
        assert isinstance(space, str)  # checked above
        rec.mark(seat, element=space, mark=INFECTED_BY[colour])

    def infection_space(self, marks: Marks, quarter: Quarter) -> str | None:
        """The empty space of ``quarter`` the greedy bot infects: the one taking the fewest
        numbers now, one without a water tank first, then the leftmost; None when it is
        complete."""
        best: str | None = None
        best_key: tuple[int, bool] | None = None
        spaces = quarter.spaces
        for space, low, high in open_runs(marks, self.layout.zone_of[spaces[0]]):
            if space not in spaces:
                continue
            key = (high - low, space in self.layout.tank_on)
            if best_key is None or key < best_key:
                best, best_key = space, key
        return best

    def prospects(self, state: GameState, sheet: Sheet, marks: Marks) -> int:
        """The room left to write: how many numbers each empty space still takes, summed (what
        an infection or a badly placed number takes away)."""
        room = 0
        for zone, cache in zip(self.layout.zone_spaces, self._floor_runs, strict=True):
            filling = tuple(map(marks.get, zone))
            room += (cache.get(filling) or _floor_runs(cache, zone, filling))[1]
        return room

    # --- phase 6: a first claim wakes its virus ----------------------------------------------

    def mission_activations(self, state: GameState) -> list[str]:
        """The activation symbols of missions flipped, their virus not activated yet."""
        return [
            self.layout.mission_activation[MISSION_BOX[letter]]
            for letter in sorted(state.flipped_missions)
            if any(
                self.layout.mission_activation[MISSION_BOX[letter]] not in sheet.marks
                for sheet in state.sheets
            )
        ]

    def after_missions(self, rec: Recorder) -> bool:
        """The viruses of missions claimed for the first time are activated on every sheet,
        and every seat suffers one propagation per such virus (phase 5 again)."""
        woken = self.mission_activations(rec.state)
        for seat in range(rec.state.players):
            for act in woken:
                if act not in rec.sheet(seat).marks:
                    self._activate(rec, seat, act)
        for seat in range(rec.state.players):
            self.propagate(rec, seat, times=len(woken))
        return bool(woken)

    def claim_cost(self, state: GameState, seat: int, letter: str) -> int:
        """What a first claim's virus would cost this sheet: the score lost to one propagation
        of every active virus, the woken one included (none once it is active), with the
        infections placed as the greedy bot places them."""
        act = self.layout.mission_activation[MISSION_BOX[letter]]
        if act in state.sheet_of(seat).marks:
            return 0
        rec = Recorder(state)
        before = self.sheet_total(state, rec.sheet(seat), marks=rec.sheet(seat).marks)
        self._activate(rec, seat, act)
        self.propagate(rec, seat)
        while rec.seat(seat).pending:
            step = rec.seat(seat).pending[-1][0]
            quarter, _ = self._infected_quarter(step)
            space = self.infection_space(rec.sheet(seat).marks, quarter)
            self.play_effect(rec, seat, {"action": INFECT, "effect": step, "space": space})
        sheet = rec.sheet(seat)
        return before - self.sheet_total(rec.state, sheet, marks=sheet.marks)

    # --- scoring ---------------------------------------------------------------------------

    def areas(self, state: GameState, sheet: Sheet, marks: Marks) -> dict[str, int]:
        quarters = self.layout.quarters.values()
        return {
            "plants": self.layout.plant_track.value(marks),
            "water": self.layout.water_track.value(marks),
            "quarters": sum(quarter_points(marks, q) for q in quarters),
            "infected": -sum(infected_spaces(marks, q) for q in quarters),
        }

    def area_parts(self) -> list[AreaPart]:
        """The tracks, and each quarter with its infected spaces (every space is in a quarter)."""
        plants, water = self.layout.plant_track, self.layout.water_track
        return [
            (plants.boxes, plants.value),
            (water.boxes, water.value),
            *(
                ((*q.spaces, *q.energies), partial(_quarter_net, q))
                for q in self.layout.quarters.values()
            ),
        ]

    def marks_change(self, state: GameState, seat: int) -> Callable[[Marks, Collection[str]], int] | None:
        """How much ``seat_total`` changes with the marks given: a mark in one empty space (a
        number or an X, an infection) changes its quarter's points alone, by the quarter's
        circled energies or by a point (``_quarter_net``); any other marks, by the parts."""
        parts: list[Callable[[Marks, Collection[str]], int]] = []  # once an option needs them

        def by_parts(marks: Marks, elements: Collection[str]) -> int:
            if not parts:
                found = super(VirusRules, self).marks_change(state, seat)
                assert found is not None  # the areas are split into parts (``area_parts``)
                parts.append(found)
            return parts[0](marks, elements)

        before = state.sheet_of(seat).marks
        quarter_of = self.layout.quarter_of
        energies: dict[str, int] = {}  # the circled energies of each quarter now, once needed

        def change(marks: Marks, elements: Collection[str]) -> int:
            if len(elements) != 1:
                return by_parts(marks, elements)
            (space,) = elements
            quarter = quarter_of.get(space)
            if quarter is None or space in before:
                return by_parts(marks, elements)
            value = marks[space]
            if type(value) is int or value == X:
                circled = energies.get(quarter.id)
                if circled is None:
                    circled = energies[quarter.id] = len(quarter.energy_set & before.keys())
                return circled
            return -1 if value in INFECTIONS else by_parts(marks, elements)

        return change

    def listed_marks(self, state: GameState, seat: int, option: Option) -> Marks | None:
        """What an option marks that the score or the prospects read, where nothing else it sets
        off is read by either: a write's number, a Planning X, an energy circled (by the Energy
        action or a water row), a walkway closed, the grey virus placed, an infection after which
        no propagation goes on, nothing for a skip. Besides, a wild spent, the symbols crossed on
        the astronaut and planning tracks (and the wild they circle), the steps left waiting and
        a quarter evacuated (its score box and marker) are read by neither. None for the options
        that advance a track (Plant, Water) or leave a propagation to go on: only playing them
        tells."""
        fields: Mapping[str, Any] = option
        plain = plain_marks(fields)
        if plain is not None:
            return plain
        action = fields["action"]
        if action == ROBOT:
            return {fields["walkway"]: LINE}
        if action == GREY_STEP:
            return {self._grey_target(fields["quarter"]): CIRCLE, fields["space"]: INFECTED_BY[GREY]}
        if action == INFECT:
            # the last infection of what phase 5 runs: under it no propagation goes on
            below = state.seats[seat].pending[:-1]
            if any(_runs_propagation(step) for frame in below for step in frame):
                return None
            _, colour = self._infected_quarter(fields["effect"])
            return {fields["space"]: INFECTED_BY[colour]}
        marks = state.sheet_of(seat).marks
        if action == ENERGY:
            symbols = self._quarter_symbols(state, seat, ENERGY)
        elif action == BONUS_ENERGY:
            symbols = self.layout.quarters[fields["quarter"]].energies
        else:
            return None
        energy = _first_free(marks, symbols)
        return None if energy is None else {energy: CIRCLE}

    def prospects_change(self, state: GameState, seat: int) -> Prospects:
        """How much ``prospects`` change to the sheets a decision's options lead to: an option
        that fills one empty space of a floor (or none) changes the room of the run holding it
        alone, worked out from the floor's runs now (``_runs_by_space``); any other, by its
        floors' parts."""
        parts: list[Prospects] = []  # ``Adventure.prospects_change``, once an option needs it
        before = state.sheet_of(seat).marks

        def by_parts(
            after: GameState,
            sheet: Sheet,
            marks: Marks,
            elements: Collection[str] | None,
            option: Option | None,
        ) -> int:
            if not parts:
                parts.append(super(VirusRules, self).prospects_change(state, seat))
            return parts[0](after, sheet, marks, elements, option)

        floor_of = self._floor_of
        found: dict[int, dict[str, tuple[int, int, int, int]]] = {}  # runs now, once needed

        def change(
            after: GameState,
            sheet: Sheet,
            marks: Marks,
            elements: Collection[str] | None,
            option: Option | None,
        ) -> int:
            if elements is None:
                return by_parts(after, sheet, marks, elements, option)
            if len(elements) == 1:
                (space,) = elements
                if space not in floor_of:
                    return 0
            else:
                touched = [element for element in elements if element in floor_of]
                if len(touched) != 1:
                    return 0 if not touched else by_parts(after, sheet, marks, elements, option)
                space = touched[0]
            floor = floor_of[space]
            runs = found.get(floor)
            if runs is None:
                runs = found[floor] = self._runs_by_space(floor, before)
            where = runs.get(space)
            if where is None:  # a space in no run that takes a number
                return by_parts(after, sheet, marks, elements, option)
            low, high, at, length = where
            room = -(high - low - 1) * length
            number = marks[space]
            if type(number) is not int:  # an X or an infection: one space less in the run
                return room + (high - low - 1) * (length - 1)
            # a number splits the run: the spaces before it take the numbers below it
            if number - low > 1:
                room += (number - low - 1) * at
            if high - number > 1:
                room += (high - number - 1) * (length - at - 1)
            return room

        return change

    def _runs_by_space(self, floor: int, marks: Marks) -> dict[str, tuple[int, int, int, int]]:
        """Where each space of a floor's runs that take a number lies: its run's open range,
        its place in the run and the run's length (``number_runs``), kept by what the floor's
        spaces hold (a floor holds the same, decision after decision, until it is written)."""
        zone = self.layout.zone_spaces[floor]
        filling = tuple(map(marks.get, zone))
        places = self._floor_places[floor]
        found = places.get(filling)
        if found is None:
            if len(places) >= FLOOR_CACHE_SIZE:
                places.clear()
            found = places[filling] = {
                space: (low, high, at, len(run))
                for low, high, run in number_runs(zone, filling)
                for at, space in enumerate(run)
            }
        return found

    @cached_property
    def _floor_of(self) -> dict[str, int]:
        """The floor of each space, by its index."""
        return {space: index for index, zone in enumerate(self.layout.zone_spaces) for space in zone}

    def prospect_parts(self) -> list[AreaPart]:
        """``prospects`` by floor: the room its empty spaces leave."""
        return [
            (zone, partial(_floor_room, cache, zone))
            for zone, cache in zip(self.layout.zone_spaces, self._floor_runs, strict=True)
        ]

    def details(self, state: GameState, sheet: Sheet, marks: Marks) -> dict[str, Any]:
        return {
            "quarter_scores": {q.id: quarter_points(marks, q) for q in self.layout.quarters.values()},
            "errors_crossed": self.errors_marked(sheet, marks),
        }

    def derived(self, state: GameState, sheet: Sheet, *, marks: Marks) -> dict[str, Any]:
        quarters = self.layout.quarters.values()
        return {
            "quarters": {
                q.id: {
                    "evacuated": q.evacuated in marks,
                    "complete": all_marked(marks, q.space_set),
                    "quarantined": quarantined(marks, q),
                    "energies": sum(1 for e in q.energies if e in marks),
                    "points": quarter_points(marks, q),
                    "infected": [s for s in q.spaces if marks.get(s) in INFECTIONS],
                }
                for q in quarters
            },
            "walkways": {
                w: "closed" if w in marks else "open" for w in self.layout.walkways
            },
            "viruses": [
                {
                    "colour": _colour(q),
                    "quarter": q.id,
                    "spread": [
                        space for space in self.layout.spaces if marks.get(space) == INFECTED_BY[_colour(q)]
                    ],
                    "spills": all_marked(marks, q.space_set),
                }
                for q in quarters
                if q.target is not None and marks.get(q.target) == CIRCLE
            ],
            "plant_track": self.layout.plant_track.value(marks),
            "water_track": self.layout.water_track.value(marks),
            "available_wilds": self.available_wilds(marks),
        }


    # --- solo: ASTRA -----------------------------------------------------------------------

    def astra_targets(self, state: GameState, sheet: Sheet, letter: str, deck_pass: int) -> list[str]:
        """First pass: green or blue while asleep, else a propagation symbol not crossed;
        second pass: nothing to choose (the mission's own virus)."""
        if deck_pass > 1:
            return []
        marks = sheet.marks
        asleep = [act for act in self.layout.track_activations if act not in marks]
        return asleep or [symbol for symbol in self.layout.propagation_symbols if symbol not in marks]

    def astra_effect(
        self, rec: Recorder, seat: int, letter: str, deck_pass: int, target: str | None
    ) -> None:
        """Wake or cross the target (first pass) or the virus of mission ``letter`` (second
        pass, unless already active), then one propagation at once."""
        if deck_pass > 1:
            activation = self.layout.mission_activation[MISSION_BOX[letter]]
            if activation in rec.sheet(seat).marks:
                return
            self._activate(rec, seat, activation)
        elif target in self.layout.activation_target:
            self._activate(rec, seat, target)
        elif target is not None:
            rec.mark(seat, element=target, mark=CROSS)
        self.propagate(rec, seat)

    def astra_bonuses(self, element: str, mark: Any) -> int:
        """A virus woken or a propagation symbol triggered by the player's own turn."""
        if mark == CROSS and (
            element in self.layout.activation_target or element in self.layout.propagation_symbols
        ):
            return int(self.astra_card["bonuses_per_trigger"])
        return 0


def _floor_runs(
    cache: dict[tuple[Any, ...], FloorRuns], zone: tuple[str, ...], filling: tuple[Any, ...]
) -> FloorRuns:
    """A floor's empty spaces each number fits and the room they leave, kept in ``cache`` by
    what the floor's spaces hold (``filling``: they depend on nothing else, so each filling met is
    worked out once). A number's spaces are those of every run taking it (``number_runs``), in
    the floor's order (a pick reads them by number, several numbers a pick)."""
    if len(cache) >= FLOOR_CACHE_SIZE:
        cache.clear()
    fits: dict[int, tuple[str, ...]] = {}
    room = 0
    top = MIN_NUMBER  # above every number the runs so far take
    for low, high, run in number_runs(zone, filling):
        room += (high - low - 1) * len(run)
        if low + 1 >= top:  # above the runs before it (a floor's numbers ascend): at C speed
            fits.update(dict.fromkeys(range(low + 1, high), run))
        else:
            for number in range(low + 1, high):
                known = fits.get(number)
                fits[number] = run if known is None else known + run
        top = max(top, high)
    found = cache[filling] = (fits, room)
    return found


def number_runs(zone: tuple[str, ...], filling: tuple[Any, ...]) -> list[tuple[int, int, tuple[str, ...]]]:
    """A floor's runs that take a number, ``open_gaps``'s found in one pass over ``filling``:
    (the number below, the number above, the run's empty spaces). The empty spaces between two
    numbers take the numbers between them; a run between two numbers in a row takes none."""
    gaps: dict[tuple[int, int], list[str]] = {}
    low = MIN_NUMBER - 1
    empties: list[str] = []
    for space, value in zip(zone, filling, strict=True):
        if value is None:
            empties.append(space)
        elif type(value) is int:
            if empties:
                gaps.setdefault((low, value), []).extend(empties)
                empties = []
            low = value
    if empties:
        gaps.setdefault((low, MAX_NUMBER + 1), []).extend(empties)
    return [(low, high, tuple(spaces)) for (low, high), spaces in gaps.items() if high - low > 1]


def _floor_room(cache: dict[tuple[Any, ...], FloorRuns], zone: tuple[str, ...], marks: Marks) -> int:
    """The room a floor's empty spaces leave (``prospects``: one floor's part)."""
    filling = tuple(map(marks.get, zone))
    return (cache.get(filling) or _floor_runs(cache, zone, filling))[1]


def quarantined(marks: Marks, quarter: Quarter) -> bool:
    """Every walkway of the quarter is closed."""
    return marks.keys() >= quarter.walkways


def quarter_points(marks: Marks, quarter: Quarter) -> int:
    """Numbered spaces (X included) times circled energies."""
    # the bots score every option: counted with no call a space, and not at all with no energy
    energies = len(quarter.energy_set & marks.keys())
    if not energies:
        return 0
    numbered = 0
    for space in quarter.spaces:
        value = marks.get(space)
        if type(value) is int or value == X:
            numbered += 1
    return numbered * energies


def infected_spaces(marks: Marks, quarter: Quarter) -> int:
    """The spaces of the quarter a virus infected."""
    return sum(1 for space in quarter.spaces if marks.get(space) in INFECTIONS)


def _quarter_net(quarter: Quarter, marks: Marks) -> int:
    """A quarter's points less a point a space infected (``quarter_points`` less
    ``infected_spaces``, its spaces read once: a bot weighs it option after option)."""
    numbered = infected = 0
    for space in quarter.spaces:
        value = marks.get(space)
        if type(value) is int or value == X:
            numbered += 1
        elif value in INFECTIONS:
            infected += 1
    if not numbered:
        return -infected
    return numbered * sum(1 for energy in quarter.energies if energy in marks) - infected


def all_marked(marks: Marks, elements: frozenset[str]) -> bool:
    """Every one of ``elements`` is marked (compared as sets, at C speed)."""
    return marks.keys() >= elements


def _colour(quarter: Quarter) -> str:
    """The virus of a quarter's target: a printed colour, or grey in an empty target."""
    return GREY if quarter.colour == "empty" else str(quarter.colour)


def _active(marks: Marks, quarter: Quarter) -> bool:
    """Whether the quarter's virus is active on the sheet (its target circled)."""
    return quarter.target is not None and marks.get(quarter.target) == CIRCLE


def _runs_propagation(step: str) -> bool:
    """Whether a waiting step runs (or goes on with) a propagation, with no choice of its own."""
    return step == PROPAGATION or step.startswith(SPREAD)


def _first_free(marks: Marks, elements: Iterable[str]) -> str | None:
    return next((element for element in elements if element not in marks), None)


def _marked_this_turn(sheet: Sheet) -> set[str]:
    """The elements marked on the sheet during this turn."""
    marks, start = sheet.marks, sheet.turn_start_marks
    # A turn only adds marks, and a dict keeps its keys in the order they came: its keys past
    # the turn start's count are this turn's when none of them was marked then (a few, read
    # without going through every mark of the sheet); else they are told apart one by one.
    new = set(islice(marks, len(start), None))
    if start.keys().isdisjoint(new):
        return new
    return marks.keys() - start.keys()


def _new_mark(sheet: Sheet, element: str) -> bool:
    """Whether ``element`` was marked on the sheet during this turn."""
    return element in sheet.marks and element not in sheet.turn_start_marks


def _modifiers(number: int, action: str, unchanged: bool) -> list[int | None]:
    """The modifiers a pick may carry: none (when ``unchanged`` is allowed), and the Astronaut
    shifts that stay in range."""
    if action != ASTRONAUT:
        return [None]
    shifts: list[int | None] = [d for d in ASTRONAUT_SHIFTS if MIN_NUMBER <= number + d <= MAX_NUMBER]
    return [None, *shifts] if unchanged else shifts


def _write_group(
    index: int, spaces: list[str], number: int, modifier: int | None, wild: str | None, action: str
) -> Group:
    """The write options of one number in each of ``spaces``."""
    if wild is None:
        if modifier is None:
            return (
                lambda space: {"action": "write", "combination": index, "space": space, "number": number},
                spaces,
            )
        return (
            lambda space: {"action": "write", "combination": index, "space": space, "number": number,
                           "modifier": modifier},
            spaces,
        )  # fmt: skip
    if modifier is None:
        return (
            lambda space: {"action": "write", "combination": index, "space": space, "number": number,
                           "wild": wild, "wild_action": action},
            spaces,
        )  # fmt: skip
    return (
        lambda space: {"action": "write", "combination": index, "space": space, "number": number,
                       "modifier": modifier, "wild": wild, "wild_action": action},
        spaces,
    )  # fmt: skip


def _raise(problem: RuleViolation | None) -> None:
    if problem is not None:
        raise problem

