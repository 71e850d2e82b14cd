"""Adventure 8, The Battle (adventure-8-battle.md): sheets shared by two neighbours, insignias
drawn on planets chosen by the number, planet control with flags, the asteroid field claimed
from both ends, and two side panels of tracks scored for each owner.

The rules are the spec's: sides, seating and the sheet of each round §2.1-2.3 (sheet k shared
by seat k on side ``S``, its home sheet, and seat k+1 on side ``N``; odd rounds on the left
sheet), planets §3.1-3.2, the asteroid field §3.3, the side panels §3.4, the turn §4 (drawing
an insignia §4.2, astronaut modifiers §4.3, control §4.4, bonuses §4.5, actions §4.6, their
order §4.7, System Errors §4.8), reactions §5, races §6, missions §7, end and scoring §8, solo
§2.4 and §9 (``games.rules.adventures.battle.solo``). Element ids are the data file's (§11).

Readings taken where the sources disagree (§10), and choices of this module:

- 10.1: the planning penalty after 3 boxes is 10, as printed (read from the data file);
- 10.2: turn 1 is played on the left sheet (side S);
- 10.3: control is resolved the moment the last space is filled, before the space's bonus and
  the action, and the moon of the just-completed planet is closed to them;
- 10.4-10.6 concern ASTRA: a one-player game is the solo mode against ASTRA, with the
  official rulebook's layout (10.6: ASTRA on side N of both sheets), both insignias of an ASTRA
  effect on one moon when it has room (10.4) and no ASTRA moon insignia on a planet it just
  completed (10.5); see ``games.rules.adventures.battle.solo``, which names its readings;
- 10.7: astronaut modifiers stack: with the Astronaut action (a = 1) and k circled symbols any
  number within 2(a + k) of the card's, inside 0-17, may be used; the pick spends the fewest
  symbols that reach the planet chosen, the Astronaut action counting first, and the number
  sent (by default the one of the planet's range nearest the card's) must be within that reach;
- 10.8: at the end a planet without a flag is resolved by majority, a 0-0 planet shared;
- 10.9: insignias from robot and planning bonuses count for missions 108 and 111;
- 10.10: Plant or Water with a full track still crosses the planet's symbol, and Planning with a
  full track still draws the moon insignia;
- 10.11: mission values come from the cards (the data file);
- an Astronaut pick whose number differs from the card's uses the action at once (its symbol
  circled); a pick of the card's own number leaves the action to use (or skip) as a step;
- the action waits as a step under the space's bonus, which is offered first (spec 4.7); either
  may be skipped; a step that can change nothing resolves by itself as ``no_effect`` (a lost
  bonus);
- a claimed asteroid's bonus symbols are crossed with it; its energies and plannings wait as
  steps one at a time, in printed order;
- Plant and Water name the symbol they cross (either of a planet's two plant symbols; the
  options list the first available), Planning and the planning bonus the moon space;
- the System Error boxes are marked through the common ``system_error`` event (its mark word is
  the common ``circle``; every marked box counts as crossed), the next of the seat's side;
- the live score counts the flags drawn; once the game has ended, planets without a flag count
  as the final resolution gives them (derived, never marked: those flags give no mission);
- setup modifiers are a seat's: its campaign points go on its left sheet, a System Error delta
  strikes boxes of its side on both its sheets, and a start mark names a panel element by side
  (``S.astro.a1`` goes on its left sheet, ``N.astro.a1`` on its right one);
- the other owner of a sheet sees the sheet as the turn began until the turn resolves; phase 6
  may still offer it a mission that this turn's hidden play completed, as spec 7 allows it to
  be claimed in that same round;
- the greedy bot weighs, among options of equal score, the planets it leads or ties (each at its
  type's multiplier, as the final resolution would count them), what the steps left waiting
  (the draw's action and bonus) would add at best, and its stored symbols (``prospects``).
"""

import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from functools import cache, partial
from typing import Any, Final, cast

from games.rules.adventures.battle import shapes
from games.rules.adventures.battle.layout import SIDES, TYPES, Layout, Planet
from games.rules.adventures.battle.solo import BattleSolo, is_solo
from games.rules.common import modifiers as modifiers_rules
from games.rules.common.base import (
    ASTRONAUT,
    Accomplished,
    AreaPart,
    Prospects,
    Step,
    error_choices,
    not_a_mark_for,
    parts_change,
    parts_index,
)
from games.rules.common.options import Choice, DrawOption, Option, StepOption
from games.rules.core import cards
from games.rules.core.cards import ACTIONS, Combination
from games.rules.core.errors import N_, RuleViolation, shown
from games.rules.core.events import Drawn, Event, Recorder, SeatSetup, SheetSetup, marked_elements
from games.rules.core.sheet import CIRCLE, CROSS, MAX_NUMBER, MIN_NUMBER, Marks, all_filled
from games.rules.core.state import GameState, Sheet

DRAW: Final = "draw"
SHARED = "SN"  # the flag of a planet whose control is shared
# The steps, by the action that uses them (``step_action``).
ROBOT, ENERGY, PLANT, WATER, PLANNING = "robot", "energy", "plant", "water", "planning"
BONUS_PLANT, BONUS_WATER, BONUS_ROBOT = "bonus_plant", "bonus_water", "bonus_robot"
ASTEROID_ENERGY, ASTEROID_PLANNING = "asteroid_energy", "asteroid_planning"
ASTEROID_STEPS = {"energy": ASTEROID_ENERGY, "planning": ASTEROID_PLANNING}

# Mission conditions, by card (the card texts are in the common mission index).
MISSION_FOUR_PLANETS, PLANETS_NEEDED = 106, 4
MISSION_EACH_TYPE = 107
MISSION_ASTEROIDS, ASTEROIDS_NEEDED = 108, 7
MISSION_IMPROVE_TYPES, IMPROVEMENTS_NEEDED = 109, 2
MISSION_PLANTS_AND_WATER, PLANTS_NEEDED, WATERS_NEEDED = 110, 6, 4
MISSION_MOONS, MOONS_NEEDED = 111, 4

SideCondition = Callable[[Marks, str], bool]
# A sheet of a seat as its total now reads it: its index and id, its marks, the parts of the
# seat's side of it, the parts reading each element, and each part's points once needed
# (``side_parts``).
SideNow = tuple[int, int, Marks, list[AreaPart], dict[str, list[int]], dict[int, int]]


def side_of(sheet: Sheet, seat: int) -> str:
    """The side of ``sheet`` that ``seat`` owns."""
    return "S" if sheet.sides["S"] == seat else "N"


class BattleRules(BattleSolo):
    """The rules of adventure 8 (see the module docstring)."""

    score_shape = shapes.BattleScore
    derived_shape = shapes.BattleDerived
    sheet_score_shape = shapes.BattleSheetScore

    layout_class = Layout
    min_players = 2  # one player plays against ASTRA
    astra_places_cards = True

    def __init__(self) -> None:
        super().__init__()
        self.side_missions = self.side_mission_table()
        self.reaches = self._reaches()
        self.within_reach = self._within_reach()
        self.step_actions = self._step_actions()
        self._side_parts: dict[tuple[str, bool, str], tuple[list[AreaPart], dict[str, list[int]]]] = {}
        self._lead_parts: dict[str, tuple[list[AreaPart], dict[str, list[int]]]] = {}
        # Each planet's id and spaces in fill order, as ``draw_options`` reads them every pick.
        self._planet_spaces = tuple((planet.id, planet.spaces) for planet in self.layout.planets.values())
        # The mission boxes, as a set a sheet's marks compare with at C speed (every turn's end).
        self._mission_box_set = frozenset(self.layout.mission_boxes.values())

    def step_table(self) -> dict[str, Step]:
        return {
            ROBOT: Step(uses=self._asteroid_uses, use=self._claim_asteroid),
            BONUS_ROBOT: Step(uses=self._asteroid_uses, use=self._claim_asteroid),
            ENERGY: Step(uses=self._column_uses, use=self._improve),
            ASTEROID_ENERGY: Step(uses=self._column_uses, use=self._improve),
            PLANT: Step(uses=self._symbol_uses, use=self._cross_symbol),
            WATER: Step(uses=self._symbol_uses, use=self._cross_symbol),
            BONUS_PLANT: Step(uses=self._track_uses, use=self._cross_track),
            BONUS_WATER: Step(uses=self._track_uses, use=self._cross_track),
            PLANNING: Step(uses=self._moon_uses, use=self._draw_on_moon),
            ASTEROID_PLANNING: Step(uses=self._moon_uses, use=self._draw_on_moon),
            ASTRONAUT: Step(uses=self._astronaut_uses, use=self._circle_astronaut),
        }

    def side_mission_table(self) -> dict[int, SideCondition]:
        """The condition of each mission card on one sheet, for the seat owning ``side``."""
        planets = self.layout.planets.values()
        flags = tuple(planet.flag for planet in planets)
        asteroids = tuple(self.layout.asteroids)
        moons = tuple(planet.moon for planet in planets)
        track = self.layout.track

        def first_boxes(side: str, needs: tuple[tuple[str, int], ...]) -> tuple[str, ...]:
            # A track has at least ``count`` boxes crossed when its first ``count`` are.
            return tuple(box for kind, count in needs for box in track(side, kind).boxes[:count])

        improved = {
            side: first_boxes(side, tuple((kind, IMPROVEMENTS_NEEDED) for kind in TYPES)) for side in SIDES
        }
        grown = {side: first_boxes(side, ((PLANT, PLANTS_NEEDED), (WATER, WATERS_NEEDED))) for side in SIDES}

        # Read at every turn's end for each seat's two sheets: plain loops that stop as soon as
        # they know (cheaper than sets or generators over seven planets).
        moon_spaces = tuple(space for moon in moons for space in moon)
        flags_by_type = tuple(
            tuple(planet.flag for planet in planets if planet.type == kind) for kind in TYPES
        )

        def four_planets(marks: Marks, side: str) -> bool:
            drawn = list(map(marks.get, flags))
            return drawn.count(side) + drawn.count(SHARED) >= PLANETS_NEEDED

        def each_type(marks: Marks, side: str) -> bool:
            held = (side, SHARED)
            get = marks.get
            for type_flags in flags_by_type:
                for flag in type_flags:
                    if get(flag) in held:
                        break
                else:
                    return False
            return True

        def seven_asteroids(marks: Marks, side: str) -> bool:
            return list(map(marks.get, asteroids)).count(side) >= ASTEROIDS_NEEDED

        def four_moons(marks: Marks, side: str) -> bool:
            get = marks.get
            # each planet counted holds one of the side's insignias on its moon at least
            if list(map(get, moon_spaces)).count(side) < MOONS_NEEDED:
                return False
            return sum(1 for one, two in moons if get(one) == side or get(two) == side) >= MOONS_NEEDED

        return {
            MISSION_FOUR_PLANETS: four_planets,
            MISSION_EACH_TYPE: each_type,
            MISSION_ASTEROIDS: seven_asteroids,
            MISSION_IMPROVE_TYPES: lambda marks, side: all(map(marks.__contains__, improved[side])),
            MISSION_PLANTS_AND_WATER: lambda marks, side: all(map(marks.__contains__, grown[side])),
            MISSION_MOONS: four_moons,
        }

    # --- setup -----------------------------------------------------------------------------

    def seating(
        self, players: int, modifiers: dict[int, list[dict[str, Any]]]
    ) -> tuple[list[SheetSetup], list[SeatSetup]]:
        """Sheet k shared by seat k (side S) and seat k+1 mod n (side N); each seat plays its
        left sheet (side S) and its right sheet (side N), in that order. Each side's owner's
        modifiers set up that side. One player plays against ASTRA (``solo_seating``)."""
        if players == 1:
            return self.solo_seating(modifiers.get(0, []))
        sheets: list[SheetSetup] = []
        left: dict[int, int] = {}
        right: dict[int, int] = {}
        for row in self.layout.seating_tables[players]:
            owners = {side: row[side] for side in SIDES}
            left[row["S"]], right[row["N"]] = row["sheet"], row["sheet"]
            marks: Marks = {ship: side for side, ship in self.layout.ships.items()}
            error_boxes: list[str] = []
            bonus = 0
            for side, owner in owners.items():
                setup = modifiers_rules.sheet_from(
                    modifiers.get(owner, []), error_boxes=self.layout.side_error_boxes[side]
                )
                error_boxes += setup["error_boxes"]
                marks.update(
                    {e: mark for e, mark in setup["marks"].items() if e.startswith(f"{side}.")}
                )
                if side == "S":
                    bonus = setup["bonus_points"]
            sheets.append(
                {
                    "id": row["sheet"],
                    "seats": [row["S"], row["N"]],
                    "sides": dict(owners),
                    "error_boxes": error_boxes,
                    "marks": marks,
                    "bonus_points": bonus,
                }
            )
        return sheets, [{"sheets": [left[seat], right[seat]]} for seat in range(players)]

    def mark_problem(self, element: Any, mark: Any) -> RuleViolation | None:
        """A start mark circles or crosses an element of a side panel, named with its side."""
        if not isinstance(element, str) or element not in self.layout.markable:
            return RuleViolation(
                "invalid_modifier",
                "%(element)s is not an element of a side panel of this sheet.",
                element=shown(element),
            )
        return None if mark in self.start_mark_words else not_a_mark_for(element, mark)

    # --- phases 2-3: draw an insignia --------------------------------------------------------

    def numbering_zones(self, marks: Marks) -> list[tuple[str, ...]]:
        """No number is written on this sheet: no zone asks for ascending numbers."""
        return []

    def stored_count(self, marks: Marks, side: str) -> int:
        """How many astronaut symbols the side holds circled, not spent yet."""
        return list(map(marks.get, self.layout.astronauts[side])).count(CIRCLE)

    def stored_astronauts(self, marks: Marks, side: str) -> list[str]:
        """The side's circled astronaut symbols, not spent yet."""
        return [symbol for symbol in self.layout.astronauts[side] if marks.get(symbol) == CIRCLE]

    def reach(self, combination: Combination, planet: Planet) -> tuple[int, int]:
        """The number of the planet's range nearest the combination's, and how many stored
        astronaut symbols reaching it spends (the Astronaut action counting first)."""
        return self.reaches[combination.number, combination.action == ASTRONAUT][planet.id]

    def _reaches(self) -> dict[tuple[int, bool], dict[str, tuple[int, int]]]:
        """``reach`` worked out once for every number, with and without the Astronaut action."""
        table: dict[tuple[int, bool], dict[str, tuple[int, int]]] = {}
        for card in range(MIN_NUMBER, MAX_NUMBER + 1):
            for astronaut in (False, True):
                row = table[card, astronaut] = {}
                for planet in self.layout.planets.values():
                    number = min(max(card, planet.low), planet.high)
                    steps = math.ceil(abs(number - card) / 2)
                    row[planet.id] = (number, max(0, steps - astronaut))
        return table

    def _within_reach(self) -> dict[tuple[int, bool, int], tuple[tuple[str, int], ...]]:
        """The planets a number reaches, with and without the Astronaut action, spending at most
        so many stored astronaut symbols (any the side can hold): each with the number drawn
        there (``reach``), in the layout's order."""
        most = max(len(symbols) for symbols in self.layout.astronauts.values())
        return {
            (card, astronaut, stored): tuple(
                (planet, number) for planet, (number, spent) in row.items() if spent <= stored
            )
            for (card, astronaut), row in self.reaches.items()
            for stored in range(most + 1)
        }

    def draw_options(self, state: GameState, seat: int) -> list[DrawOption]:
        """Every combination and planet the seat can draw its insignia on now."""
        sheet = state.sheet_of(seat)
        marks = sheet.marks
        stored = self.stored_count(marks, side_of(sheet, seat))
        room = {}  # each planet's next space (``Planet.next_space``, inline: read every pick)
        for planet, spaces in self._planet_spaces:
            for empty in spaces:
                if empty not in marks:
                    room[planet] = empty
                    break
        within = self.within_reach
        return [
            {"action": DRAW, "combination": index, "planet": planet, "space": space, "number": number}
            for index, combination in enumerate(state.combinations)
            for planet, number in within[combination.number, combination.action == ASTRONAUT, stored]
            if (space := room.get(planet)) is not None
        ]

    def choice_options(self, state: GameState, seat: int) -> Sequence[Option]:
        """Every legal draw, or the next System Error box of the seat's side when none."""
        draws = self.draw_options(state, seat)
        if draws:
            return draws
        sheet = state.sheet_of(seat)
        return [
            {"action": "system_error", "box": box}
            for box in error_choices(self.side_errors_to_mark(sheet, side_of(sheet, seat)))
        ]

    def play_pick(self, rec: Recorder, seat: int, choice: Choice, *, listed: bool) -> None:
        """A draw or a System Error, on the sheet the seat plays this turn (a pick may name it:
        ``sheet``)."""
        played = rec.state.seats[seat].sheet
        if "sheet" in choice and choice["sheet"] != played:
            side = side_of(rec.state.sheets[played], seat)
            raise RuleViolation(
                "sheet_not_played_this_turn",
                "In turn %(turn)s you play sheet %(played)s (side %(side)s): odd turns on your left sheet, "
                "even turns on your right one.",
                turn=rec.state.turn,
                played=played,
                side=side,
            )
        action = choice.get("action")
        if action == DRAW:
            self.play_draw(rec, seat, choice, listed=listed)
        elif action == "system_error":
            self.play_system_error(rec, seat, choice, listed=listed)
        else:
            raise RuleViolation(
                "illegal_choice",
                "Pick a combination and a planet to draw your insignia on ('draw'), or take a "
                "System Error when no insignia can be drawn.",
            )

    def check_draw(self, state: GameState, seat: int, choice: Choice) -> Drawn:
        """The data of the insignia_drawn event a pick makes, or the RuleViolation it breaks."""
        index, combination = cards.chosen_combination(state.combinations, choice)
        sheet = state.sheet_of(seat)
        side = side_of(sheet, seat)
        named = choice.get("planet")
        planet = self.layout.planets.get(named) if isinstance(named, str) else None
        if planet is None:
            raise RuleViolation(
                "unknown_planet",
                "%(named)s is not a planet of this sheet (pl1 to pl7).",
                named=shown(named),
            )
        space = planet.next_space(sheet.marks)
        if space is None:
            raise RuleViolation(
                "planet_full",
                "Every space of %(id)s holds an insignia.",
                id=planet.id,
            )
        if "space" in choice and choice["space"] != space:
            raise RuleViolation(
                "space_not_next",
                "Insignias fill %(id)s in order: its next space is %(space)s, not %(space2)s.",
                id=planet.id,
                space=space,
                space2=shown(choice['space']),
            )
        nearest, spent = self.reach(combination, planet)
        number = choice.get("number", nearest)
        if not isinstance(number, int) or number not in planet.accepts:
            raise RuleViolation(
                "number_not_on_planet",
                "%(id)s takes %(low)s to %(high)s: %(number)s is not one of them.",
                id=planet.id,
                low=planet.low,
                high=planet.high,
                number=shown(number),
            )
        stored = self.stored_count(sheet.marks, side)
        if spent > stored:
            raise RuleViolation(
                "planet_out_of_reach",
                "Reaching %(id)s from %(number)s takes %(spent)s circled astronaut symbol(s) on this "
                "sheet; you have %(stored)s.",
                id=planet.id,
                number=combination.number,
                spent=spent,
                stored=stored,
            )
        free = 1 if combination.action == ASTRONAUT else 0
        if abs(number - combination.number) > 2 * (free + spent):
            raise RuleViolation(
                "number_out_of_reach",
                N_(
                    "Reaching %(id)s from %(number)s spends %(spent)s circled astronaut symbol(s) "
                    "besides the Astronaut action: the number changes by %(reach)s at most, so "
                    "%(asked)s is out of reach (draw it as %(nearest)s)."
                )
                if free
                else N_(
                    "Reaching %(id)s from %(number)s spends %(spent)s circled astronaut "
                    "symbol(s): the number changes by %(reach)s at most, so %(asked)s is out of "
                    "reach (draw it as %(nearest)s)."
                ),
                id=planet.id,
                number=combination.number,
                spent=spent,
                reach=2 * (free + spent),
                asked=number,
                nearest=nearest,
            )
        return self._drawn(index, combination, side, planet.id, space, number)

    def listed_draw(self, state: GameState, seat: int, option: DrawOption) -> Drawn:
        """The data of the insignia_drawn event of a listed draw (known legal)."""
        index = option["combination"]
        side = side_of(state.sheet_of(seat), seat)
        combination = state.combinations[index]
        return self._drawn(index, combination, side, option["planet"], option["space"], option["number"])

    @staticmethod
    def _drawn(
        index: int, combination: Combination, side: str, planet: str, space: str, number: int
    ) -> Drawn:
        drawn: Drawn = {
            "side": side, "combination": index, "planet": planet, "space": space,
            "number": number, "action": combination.action,
        }  # fmt: skip
        if number != combination.number:
            drawn["modifier"] = number - combination.number
        return drawn

    def play_draw(self, rec: Recorder, seat: int, choice: Choice, *, listed: bool) -> None:
        """Spend the stored symbols the planet needs, draw the insignia, resolve the planet's
        control if it is now complete, then leave the action and the space's bonus to use."""
        state = rec.state
        if listed:
            drawn = self.listed_draw(state, seat, cast(DrawOption, choice))
        else:
            drawn = self.check_draw(state, seat, choice)
        side = drawn["side"]
        combination = state.combinations[drawn["combination"]]
        planet = self.layout.planets[drawn["planet"]]
        _, spent = self.reach(combination, planet)
        if spent:
            for symbol in self.stored_astronauts(rec.sheet(seat).marks, side)[:spent]:
                rec.mark(seat, element=symbol, mark=CROSS)
        rec.insignia_drawn(seat, drawn)
        self.resolve_control(rec, seat, planet)
        if combination.action == ASTRONAUT and "modifier" in drawn:
            blank = self.next_blank_astronaut(rec.sheet(seat).marks, side)
            if blank is not None:
                rec.mark(seat, element=blank, mark=CIRCLE)
        else:
            action = combination.action
            rec.effects_pending(seat, source=action, effects=[f"action.{action}"])
        bonus = self.layout.space_bonus.get(drawn["space"])
        if bonus is not None:
            rec.effects_pending(seat, source=drawn["space"], effects=[f"bonus.{bonus}"])
        self.settle(rec, seat)

    def majority(self, marks: Marks, planet: Planet, *, tie: str = SHARED) -> str:
        """Who controls the planet by its insignias: the side with strictly more, else ``tie``
        (both; against ASTRA only the player, side S)."""
        owners = list(map(marks.get, planet.insignia_places))
        lead = owners.count("S") - owners.count("N")
        if lead == 0:
            return tie
        return "S" if lead > 0 else "N"

    @staticmethod
    def tie_of(sheet: Sheet) -> str:
        """Who a tie for a planet of the sheet goes to: both sides, or against ASTRA only the
        player's (spec 9.4)."""
        return "S" if is_solo(sheet) else SHARED

    def resolve_control(
        self, rec: Recorder, seat: int | None, planet: Planet, *, sheet: int | None = None
    ) -> None:
        """A planet just completed: its flag goes to the majority, and it is circled (on the
        sheet the seat plays, or on ``sheet``: where ASTRA plays)."""
        index = rec.state.seats[seat].sheet if sheet is None and seat is not None else sheet
        assert index is not None
        played = rec.state.sheets[index]
        marks = played.marks
        # spaces fill in order: while the last is empty (most draws) the planet is not complete
        if planet.done in marks or planet.spaces[-1] not in marks or not all_filled(marks, planet.spaces):
            return
        flag = self.majority(marks, planet, tie=self.tie_of(played))
        rec.mark(seat, sheet=index, element=planet.flag, mark=flag)
        rec.mark(seat, sheet=index, element=planet.done, mark=CIRCLE)

    # --- System Errors ---------------------------------------------------------------------

    def side_errors_to_mark(self, sheet: Sheet, side: str) -> list[str]:
        """The next usable System Error box of ``side`` on the sheet, if any is left."""
        usable = self.usable_error_boxes(sheet.error_boxes)[side]
        return [box for box in usable if box not in sheet.marks][:1]

    def play_system_error(self, rec: Recorder, seat: int, choice: Choice, *, listed: bool) -> None:
        sheet = rec.sheet(seat)
        if not listed and self.draw_options(rec.state, seat):
            raise RuleViolation(
                "insignia_must_be_drawn",
                "At least one combination lets you draw your insignia on a planet (counting "
                "your circled astronaut symbols): you must draw it.",
            )
        free = self.side_errors_to_mark(sheet, side_of(sheet, seat))
        box = choice.get("box", free[0] if free else None)
        if box not in error_choices(free):
            raise RuleViolation(
                "error_box_not_next",
                "System Error boxes of your side are crossed in order: the next one is %(value)s.",
                value=free[0] if free else None,
            )
        assert box is None or isinstance(box, str)  # checked above
        rec.system_error(seat, box=box, cause="no_writable_number")

    # --- phase 4: the actions and the bonuses ------------------------------------------------

    def step_action(self, step: str) -> str:
        """An action's step, a space's bonus (``bonus.<kind>``) or an asteroid's bonus (its
        element id)."""
        return self.step_actions[step]

    def _step_actions(self) -> dict[str, str]:
        """``step_action`` of every step this sheet can leave waiting."""
        actions = {f"action.{action}": action for action in ACTIONS}
        actions.update({f"bonus.{kind}": f"bonus_{kind}" for kind in self.layout.space_bonus.values()})
        actions.update(
            {element: ASTEROID_STEPS[kind] for element, kind in self.layout.asteroid_bonus_kind.items()
             if kind in ASTEROID_STEPS}
        )  # fmt: skip
        return actions

    def step_optional(self, step: str) -> bool:
        return step.startswith(("action.", "bonus."))

    def skip_refusal(self, step: str) -> RuleViolation:
        return RuleViolation(
            "effect_not_optional",
            "%(step)s is a bonus of the asteroid you claimed: it applies at once.",
            step=step,
        )

    @staticmethod
    def _side(state: GameState, seat: int) -> str:
        return side_of(state.sheet_of(seat), seat)

    def _asteroid_uses(self, state: GameState, seat: int, step: str) -> Iterable[StepOption]:
        asteroid = self.layout.next_asteroid(state.sheet_of(seat).marks, self._side(state, seat))
        if asteroid is None:
            return []
        return [{"action": self.step_action(step), "effect": step, "asteroid": asteroid}]

    def _claim_asteroid(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        """Robot: the first free asteroid from the seat's end, and its bonuses applied at once."""
        side = self._side(rec.state, seat)
        next_one = self.layout.next_asteroid(rec.sheet(seat).marks, side)
        asteroid = choice.get("asteroid", next_one)
        if not isinstance(asteroid, str) or asteroid not in self.layout.asteroids:
            raise RuleViolation(
                "unknown_asteroid",
                "%(asteroid)s is not an asteroid of this sheet.",
                asteroid=shown(asteroid),
            )
        if asteroid != next_one:
            raise RuleViolation(
                "asteroid_not_next",
                "A robot claims the first free asteroid from your end of the field: %(next_one)s, not "
                "%(asteroid)s.",
                next_one=next_one,
                asteroid=asteroid,
            )
        self.resolve_step(rec, seat, step, outcome="claimed", target=asteroid)
        rec.mark(seat, element=asteroid, mark=side)
        waiting = []
        for element, kind in self.layout.asteroids[asteroid].bonuses:
            rec.mark(seat, element=element, mark=CROSS)
            if kind in (PLANT, WATER):
                self._cross_next_box(rec, seat, side, kind)
            else:
                waiting.append(element)
        for element in reversed(waiting):
            rec.effects_pending(seat, source=asteroid, effects=[element])

    def _cross_next_box(self, rec: Recorder, seat: int, side: str, track: str) -> str | None:
        """Cross the next box of one of the side's tracks; past the last, nothing."""
        boxes = self.layout.track(side, track).boxes
        box = next((b for b in boxes if b not in rec.sheet(seat).marks), None)
        if box is not None:
            rec.mark(seat, element=box, mark=CROSS)
        return box

    def _column_uses(self, state: GameState, seat: int, step: str) -> Iterable[StepOption]:
        marks, side = state.sheet_of(seat).marks, self._side(state, seat)
        return [
            {"action": self.step_action(step), "effect": step, "column": kind}
            for kind in TYPES
            if not all_filled(marks, self.layout.track(side, kind).boxes)
        ]

    def _improve(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        """Energy: the next box of a planet-type column of the seat's choice."""
        side = self._side(rec.state, seat)
        column = choice.get("column")
        if column not in TYPES:
            raise RuleViolation(
                "unknown_column",
                "Energy improves the green, blue or grey planets, not %(column)s.",
                column=shown(column),
            )
        boxes = self.layout.track(side, str(column)).boxes
        if all_filled(rec.sheet(seat).marks, boxes):
            raise RuleViolation(
                "column_full",
                "Every box of your %(column)s column is crossed.",
                column=column,
            )
        box = next(b for b in boxes if b not in rec.sheet(seat).marks)
        self.resolve_step(rec, seat, step, outcome="crossed", target=box)
        rec.mark(seat, element=box, mark=CROSS)

    def _drawn_planet(self, state: GameState, seat: int) -> Planet:
        """The planet where the seat drew its insignia this turn."""
        return self.layout.planets[state.seats[seat].turn_choice["planet"]]

    def _symbol_uses(self, state: GameState, seat: int, step: str) -> Iterable[StepOption]:
        kind = self.step_action(step)
        planet = self._drawn_planet(state, seat)
        symbols = planet.plants if kind == PLANT else planet.waters
        marks = state.sheet_of(seat).marks
        symbol = next((s for s in symbols if s not in marks), None)
        return [] if symbol is None else [{"action": kind, "effect": step, "symbol": symbol}]

    def _cross_symbol(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        """Plant or Water: a symbol of the planet drawn on, then the next box of the track
        (only the symbol when the track is full)."""
        kind = self.step_action(step)
        planet = self._drawn_planet(rec.state, seat)
        symbols = planet.plants if kind == PLANT else planet.waters
        marks = rec.sheet(seat).marks
        symbol = choice.get("symbol", next((s for s in symbols if s not in marks), None))
        if symbol not in symbols:
            raise RuleViolation(
                f"{kind}_symbol_not_on_planet",
                N_(
                    "Plant crosses a plant symbol of %(id)s, where you drew your insignia "
                    "(%(symbols)s), not %(symbol)s."
                )
                if kind == PLANT
                else N_(
                    "Water crosses a water symbol of %(id)s, where you drew your insignia "
                    "(%(symbols)s), not %(symbol)s."
                ),
                id=planet.id,
                symbols=shown(symbols),
                symbol=shown(symbol),
            )
        if symbol in marks:
            raise RuleViolation(
                f"{kind}_symbol_crossed",
                "%(symbol)s is already crossed.",
                symbol=symbol,
            )
        self.resolve_step(rec, seat, step, outcome="crossed", target=symbol)
        assert isinstance(symbol, str)  # checked above
        rec.mark(seat, element=symbol, mark=CROSS)
        self._cross_next_box(rec, seat, self._side(rec.state, seat), kind)

    def _track_uses(self, state: GameState, seat: int, step: str) -> Iterable[StepOption]:
        track = step.removeprefix("bonus.")
        boxes = self.layout.track(self._side(state, seat), track).boxes
        if all_filled(state.sheet_of(seat).marks, boxes):
            return []
        return [{"action": self.step_action(step), "effect": step}]

    def _cross_track(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        """A plant or water bonus: the next box of that track, no symbol."""
        track = step.removeprefix("bonus.")
        box = next(
            b for b in self.layout.track(self._side(rec.state, seat), track).boxes
            if b not in rec.sheet(seat).marks
        )  # fmt: skip
        self.resolve_step(rec, seat, step, outcome="crossed", target=box)
        rec.mark(seat, element=box, mark=CROSS)

    def open_moons(self, marks: Marks) -> list[str]:
        """The first free moon space of every planet not complete yet."""
        found = []
        for planet in self.layout.planets.values():
            if planet.done in marks:
                continue
            moon = next((m for m in planet.moon if m not in marks), None)
            if moon is not None:
                found.append(moon)
        return found

    def _moon_uses(self, state: GameState, seat: int, step: str) -> Iterable[StepOption]:
        action = self.step_action(step)
        return [
            {"action": action, "effect": step, "moon": moon}
            for moon in self.open_moons(state.sheet_of(seat).marks)
        ]

    def moon_problem(self, marks: Marks, moon: Any) -> RuleViolation | None:
        """Why an insignia cannot go on ``moon`` now, or None."""
        planet_id = self.layout.planet_of_moon.get(moon) if isinstance(moon, str) else None
        if planet_id is None:
            return RuleViolation(
                "unknown_moon",
                "%(moon)s is not a moon space of this sheet.",
                moon=shown(moon),
            )
        planet = self.layout.planets[planet_id]
        if planet.done in marks:
            return RuleViolation(
                "planet_complete",
                "%(id)s is complete: its moon takes no more insignias.",
                id=planet.id,
            )
        if moon in marks:
            return RuleViolation(
                "moon_space_taken",
                "%(moon)s already holds an insignia.",
                moon=moon,
            )
        return None

    def _draw_on_moon(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        """Planning (action or asteroid bonus): an insignia on a moon of an incomplete planet;
        the action also crosses the next planning box (a penalty)."""
        side = self._side(rec.state, seat)
        moon = choice.get("moon")
        problem = self.moon_problem(rec.sheet(seat).marks, moon)
        if problem is not None:
            raise problem
        self.resolve_step(rec, seat, step, outcome="drawn", target=moon)
        assert isinstance(moon, str)  # checked above
        rec.mark(seat, element=moon, mark=side)
        if self.step_action(step) == PLANNING:
            self._cross_next_box(rec, seat, side, PLANNING)

    def next_blank_astronaut(self, marks: Marks, side: str) -> str | None:
        """The side's next astronaut symbol neither circled nor crossed."""
        return next((s for s in self.layout.astronauts[side] if s not in marks), None)

    def _astronaut_uses(self, state: GameState, seat: int, step: str) -> Iterable[StepOption]:
        if self.next_blank_astronaut(state.sheet_of(seat).marks, self._side(state, seat)) is None:
            return []
        return [{"action": ASTRONAUT, "effect": step}]

    def _circle_astronaut(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        """Astronaut used with the card's own number: the next blank symbol circled, a
        modifier stored for a later turn on this sheet."""
        symbol = self.next_blank_astronaut(rec.sheet(seat).marks, self._side(rec.state, seat))
        self.resolve_step(rec, seat, step, outcome="circled", target=symbol)
        assert symbol is not None  # listed only while a blank symbol is left
        rec.mark(seat, element=symbol, mark=CIRCLE)

    # --- phase 6: missions on both sheets --------------------------------------------------

    def mission_holds(self, state: GameState, seat: int, card: int) -> bool:
        """Whether the mission holds on one of the seat's two sheets, read from its side."""
        condition = self.side_missions.get(card)
        if condition is None:
            raise ValueError(f"card {card} is not a mission of adventure {self.number}")
        sheets = state.sheets
        for index in state.seats[seat].sheets:
            sheet = sheets[index]
            if condition(sheet.marks, "S" if sheet.sides["S"] == seat else "N"):  # side_of, inline
                return True
        return False

    def mission_box(self, letter: str) -> str:
        return self.layout.mission_boxes[letter]

    # --- end of game and scoring -------------------------------------------------------------

    def end_reasons(self, state: GameState) -> list[dict[str, Any]]:
        """A seat with its three missions, or with both System Error boxes of its side of one
        sheet crossed; a sheet with its 33 planet spaces filled (both owners named)."""
        boxes = self._mission_box_set
        missions = [
            seat for seat in range(state.players) if all_filled(state.home_sheet(seat).marks, boxes)
        ]
        errors = sorted(
            {
                sheet.sides[side]
                for sheet in state.sheets
                for side, usable in self.usable_error_boxes(sheet.error_boxes).items()
                if all_filled(sheet.marks, usable)
            }
        )
        full = [sheet for sheet in state.sheets if all_filled(sheet.marks, self.layout.planet_spaces)]
        reasons: list[dict[str, Any]] = []
        if missions:
            reasons.append({"reason": "all_missions", "seats": missions})
        if errors:
            reasons.append({"reason": "all_system_errors", "seats": errors})
        if full:
            owners = sorted({seat for sheet in full for seat in sheet.seats})
            reasons.append({"reason": "sheet_full", "seats": owners, "sheets": [s.id for s in full]})
        return reasons

    @staticmethod
    @cache
    def usable_error_boxes(error_boxes: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
        """A sheet's usable System Error boxes, by the side they belong to."""
        return {side: tuple(box for box in error_boxes if box.startswith(f"{side}.")) for side in SIDES}

    def control(self, marks: Marks, planet: Planet, *, final: bool, tie: str = SHARED) -> str:
        """The sides whose insignia is on the planet's flag (``S``, ``N``, ``SN`` or none);
        once the game has ended, a planet without a flag is resolved by majority (a tie going
        to ``tie``)."""
        flag = marks.get(planet.flag)
        if flag is not None:
            return str(flag)
        return self.majority(marks, planet, tie=tie) if final else ""

    def errors_marked_on(self, sheet: Sheet, side: str, marks: Marks) -> int:
        return sum(1 for box in self.layout.side_error_boxes[side] if box in marks)

    def side_score(self, sheet: Sheet, side: str, marks: Marks, *, final: bool) -> dict[str, Any]:
        """The points of one side of a sheet (spec 8.3), with ``total``, the planets it
        controls by type and its multipliers."""
        track = self.layout.track
        controlled = dict.fromkeys(TYPES, 0)
        tie = self.tie_of(sheet)
        for planet in self.layout.planets.values():
            if side in self.control(marks, planet, final=final, tie=tie):
                controlled[planet.type] += 1
        multipliers = {kind: track(side, kind).value(marks) for kind in TYPES}
        lines = {
            "plants": track(side, PLANT).value(marks),
            "water": track(side, WATER).value(marks),
            **{kind: controlled[kind] * multipliers[kind] for kind in TYPES},
            "planning": -track(side, PLANNING).value(marks),
            "system_errors": -self.layout.error_penalty[self.errors_marked_on(sheet, side, marks)],
        }
        return {
            "seat": sheet.sides[side],
            **lines,
            "total": sum(lines.values()),
            "controlled": controlled,
            "multipliers": multipliers,
        }

    def side_parts(self, side: str, *, final: bool, tie: str) -> tuple[list[AreaPart], dict[str, list[int]]]:
        """The ``total`` of ``side_score`` as a sum of parts, each with the elements whose marks
        alone decide it (the panel's tracks; each planet type's multiplier with the control of
        its planets), and the indexes of the parts each element is read by (``parts_index``)."""
        key = (side, final, tie)
        known = self._side_parts.get(key)
        if known is None:
            track = partial(self.layout.track, side)
            errors = self.layout.side_error_boxes[side]
            parts: list[AreaPart] = [
                (track(PLANT).boxes, track(PLANT).value),
                (track(WATER).boxes, track(WATER).value),
                (track(PLANNING).boxes, lambda marks: -track(PLANNING).value(marks)),
                (errors, lambda marks: -self.layout.error_penalty[sum(1 for box in errors if box in marks)]),
            ]
            for kind in TYPES:
                planets = [planet for planet in self.layout.planets.values() if planet.type == kind]
                # Before the end only a flag says who controls a planet; after it, its insignias.
                read = [
                    (planet.flag, *planet.spaces, *planet.moon) if final else (planet.flag,)
                    for planet in planets
                ]
                parts.append(
                    (
                        (*track(kind).boxes, *(element for elements in read for element in elements)),
                        partial(self._type_points, side, tuple(planets), final=final, tie=tie),
                    )
                )
            known = self._side_parts[key] = (parts, parts_index(parts))
        return known

    def _type_points(
        self, side: str, planets: tuple[Planet, ...], marks: Marks, *, final: bool, tie: str
    ) -> int:
        """A side's points for one planet type: the planets it controls times its multiplier."""
        controlled = sum(1 for planet in planets if side in self.control(marks, planet, final=final, tie=tie))
        return controlled * self.layout.track(side, planets[0].type).value(marks) if controlled else 0

    def score_change(self, state: GameState, seat: int) -> Callable[[GameState, Sequence[Event]], int]:
        """How much ``seat_total`` changes from ``state`` to the states a decision's options
        lead to, counting only the parts of the seat's sides (``side_parts``) and the missions
        the events marked; the whole totals when the events change the sheets in another way
        or end the game."""
        final = state.status != "playing"
        home = state.home_sheet(seat).id  # where the seat's missions are written
        sides: list[SideNow] = []
        for index in state.seats[seat].sheets:
            sheet = state.sheets[index]
            parts, parts_of = self.side_parts(side_of(sheet, seat), final=final, tie=self.tie_of(sheet))
            sides.append((index, sheet.id, sheet.marks, parts, parts_of, {}))
        start: list[int] = []  # ``seat_total`` now, once an option needs it

        def change(after: GameState, events: Sequence[Event]) -> int:
            marked = marked_elements(events)
            if marked is None or after.status != state.status:
                if not start:
                    start.append(self.seat_total(state, seat))
                return self.seat_total(after, seat) - start[0]
            points = 0
            for index, sheet_id, before, parts, parts_of, known in sides:
                elements = marked.get(sheet_id)
                if not elements:
                    continue
                marks = after.sheets[index].marks
                points += parts_change(parts, parts_of, elements, before, marks, known)
                if sheet_id == home:
                    points += self.missions_of(marks) - self.missions_of(before)
            return points

        return change

    def marks_change(self, state: GameState, seat: int) -> Callable[[Marks, Collection[str]], int] | None:
        """How much ``seat_total`` changes once the sheet the seat plays holds the marks given
        (which differ from its marks now in the elements given alone): the parts of the seat's
        side of it reading them (``side_parts``), and the missions on its home sheet."""
        sheet = state.sheet_of(seat)
        parts, parts_of = self.side_parts(
            side_of(sheet, seat), final=state.status != "playing", tie=self.tie_of(sheet)
        )
        home = sheet.id == state.home_sheet(seat).id
        before = sheet.marks
        known: dict[int, int] = {}  # each part's points now, by index, once needed

        def change(marks: Marks, elements: Collection[str]) -> int:
            if not elements:
                return 0
            points = parts_change(parts, parts_of, elements, before, marks, known)
            if home:
                points += self.missions_of(marks) - self.missions_of(before)
            return points

        return change

    def sheet_score(self, state: GameState, sheet: Sheet, *, marks: Marks) -> dict[str, Any]:
        """The points of each side of the sheet (its owners' totals add their other sheet and
        their missions: ``seat_score``)."""
        final = state.status != "playing"
        return {side: self.side_score(sheet, side, marks, final=final) for side in SIDES}

    def missions_of(self, marks: Marks) -> int:
        """The values written in the S side's mission boxes."""
        return sum(
            value for box in self.layout.mission_boxes.values() if isinstance(value := marks.get(box), int)
        )

    def seat_score(self, state: GameState, seat: int) -> dict[str, Any]:
        """A player's total (spec 8.4): its missions, its S side on its left sheet, its N side
        on its right sheet, and its campaign points."""
        final = state.status != "playing"
        home = state.home_sheet(seat)
        sides = []
        for index in state.seats[seat].sheets:  # its left sheet, then its right one
            sheet = state.sheets[index]
            side = side_of(sheet, seat)
            sides.append((sheet, self.side_score(sheet, side, sheet.marks, final=final)))
        (left, left_score), (right, right_score) = sides
        score = {
            "missions": self.missions_of(home.marks),
            "left": left_score["total"],
            "right": right_score["total"],
            "campaign": home.bonus_points,
        }
        total = sum(score.values())
        return {
            **score,
            "left_sheet": left.id,
            "right_sheet": right.id,
            "system_errors_marked": self.own_errors(state, seat),
            "total": total,
        }

    def own_errors(self, state: GameState, seat: int) -> int:
        """The System Error boxes marked on the seat's own side of each of its sheets (§4.8),
        never on a neighbour's side."""
        return sum(
            self.errors_marked_on(sheet, side_of(sheet, seat), sheet.marks)
            for sheet in (state.sheets[index] for index in state.seats[seat].sheets)
        )

    def accomplished(self, state: GameState, seat: int) -> Accomplished:
        """The missions written on side S of the seat's left sheet (§7) and its own System
        Error boxes marked."""
        return {**super().accomplished(state, seat), "system_errors": self.own_errors(state, seat)}

    def rank_keys(self, state: GameState, scores: list[dict[str, Any]]) -> list[Any]:
        """By total, then fewer System Error boxes over both sheets."""
        return [(-score["total"], score["system_errors_marked"]) for score in scores]

    def prospects(self, state: GameState, sheet: Sheet, marks: Marks) -> int:
        """For the seat playing the sheet: the planets it leads or ties on (each worth its
        type's multiplier, as the final resolution would count them), what its waiting steps
        would add at best, and its stored astronaut symbols."""
        seat = state.playing_on(sheet.id)
        if seat is None:
            return 0
        steps = [step for frame in state.seats[seat].pending for step in frame]
        return self._prospects(state, seat, side_of(sheet, seat), marks, steps, None)

    def prospects_change(self, state: GameState, seat: int) -> Prospects:
        """How much ``prospects`` change to the sheets a decision's options lead to: of an
        option weighed unplayed, with the steps it leaves waiting (``_listed``), the planets it
        leads counted only for the types whose planets or column it marks (``lead_parts``)."""
        now = state.sheet_of(seat)
        side = side_of(now, seat)
        parts, parts_of = self.lead_parts(side)
        before = now.marks
        known: dict[int, int] = {}  # each part's points now, by index, once needed
        played = self.played_prospects(state, seat)
        waiting: list[int] = []  # what the steps waiting now add, once needed

        def change(
            after: GameState,
            sheet: Sheet,
            marks: Marks,
            elements: Collection[str] | None,
            option: Option | None,
        ) -> int:
            if option is None or elements is None:
                return played(after, sheet, marks)
            listed = self._listed(state, seat, option)
            assert listed is not None  # an option weighed unplayed is listed
            _, steps, planet = listed
            if not waiting:
                steps_now = [step for frame in state.seats[seat].pending for step in frame]
                waiting.append(self._waiting_worth(state, seat, side, before, steps_now, None))
            led = parts_change(parts, parts_of, elements, before, marks, known)
            return led + self._waiting_worth(state, seat, side, marks, steps, planet) - waiting[0]

        return change

    def _prospects(
        self, state: GameState, seat: int, side: str, marks: Marks, steps: list[str], planet: Planet | None
    ) -> int:
        """``prospects`` of the seat's side of its sheet holding ``marks`` with ``steps``
        waiting, ``planet`` the one drawn on this turn (None: read from the seat's choice)."""
        parts, _ = self.lead_parts(side)
        led = sum(value(marks) for _, value in parts)
        return led + self._waiting_worth(state, seat, side, marks, steps, planet)

    def _waiting_worth(
        self, state: GameState, seat: int, side: str, marks: Marks, steps: list[str], planet: Planet | None
    ) -> int:
        """What ``steps`` would add at best, and the side's stored astronaut symbols."""
        value = self.stored_count(marks, side)
        for step in steps:
            value += self._step_worth(state, seat, side, marks, step, planet)
        return value

    def lead_parts(self, side: str) -> tuple[list[AreaPart], dict[str, list[int]]]:
        """The planets a side leads or ties on without a flag (``prospects``) as a part by
        planet type (the planets led times the type's multiplier), each with the elements it
        reads, and the indexes of the parts each element is read by (``parts_index``)."""
        known = self._lead_parts.get(side)
        if known is None:
            parts: list[AreaPart] = []
            for kind in TYPES:
                planets = tuple(planet for planet in self.layout.planets.values() if planet.type == kind)
                read = [element for planet in planets for element in (planet.flag, *planet.insignia_places)]
                parts.append(
                    ((*self.layout.track(side, kind).boxes, *read), partial(self._led_points, side, planets))
                )
            known = self._lead_parts[side] = (parts, parts_index(parts))
        return known

    def _led_points(self, side: str, planets: tuple[Planet, ...], marks: Marks) -> int:
        """The planets of one type the side leads or ties on without a flag, times the type's
        multiplier."""
        majority = self.majority
        led = sum(1 for planet in planets if planet.flag not in marks and side in majority(marks, planet))
        return led * self.layout.track(side, planets[0].type).value(marks) if led else 0

    def _step_worth(
        self, state: GameState, seat: int, side: str, marks: Marks, step: str, planet: Planet | None
    ) -> int:
        """What a waiting step adds to the side's score at best, roughly (the greedy bot's
        weighing of the action that comes with a draw); nothing for a step that can change
        nothing, which settles by itself."""
        action = self.step_action(step)
        if action in (PLANT, WATER):
            drawn = self._drawn_planet(state, seat) if planet is None else planet
            if all_filled(marks, drawn.plants if action == PLANT else drawn.waters):
                return 0
        if action in (PLANT, WATER, BONUS_PLANT, BONUS_WATER):
            return self._bonus_worth(side, marks, action.removeprefix("bonus_"))
        if action in (ENERGY, ASTEROID_ENERGY):
            return self._bonus_worth(side, marks, ENERGY)
        if action in (ROBOT, BONUS_ROBOT):
            asteroid = self.layout.next_asteroid(marks, side)
            if asteroid is None:
                return 0
            return sum(
                self._bonus_worth(side, marks, kind) for _, kind in self.layout.asteroids[asteroid].bonuses
            )
        return 0

    def score_effects(self, state: GameState, seat: int, options: Sequence[Option]) -> list[Any]:
        """A draw's effect is its planet, its combination's action, the stored symbols it
        spends and whether it changes the number (against ASTRA none: the card a pick leaves
        over counts too); any other option is weighed on its own."""
        if state.astra is not None:
            return [None] * len(options)
        effects: list[Any] = []
        combinations = state.combinations
        # each option read by its fields, whatever its shape
        for fields in cast("Sequence[Mapping[str, Any]]", options):
            if fields["action"] != DRAW:
                effects.append(None)
                continue
            combination = combinations[fields["combination"]]
            planet = fields["planet"]
            _, spent = self.reaches[combination.number, combination.action == ASTRONAUT][planet]
            effects.append((planet, combination.action, spent, fields["number"] != combination.number))
        return effects

    def listed_marks(self, state: GameState, seat: int, option: Option) -> Marks | None:
        """What an option marks on the sheet the seat plays: a draw with the stored symbols it
        spends, the flag and circle of the planet it completes and the symbol an Astronaut
        circles; an asteroid claimed with its bonus symbols and the track boxes they cross; a
        column's box; a symbol of the planet and its track's box; a track's box; a moon (and
        the planning box of the action); an astronaut symbol circled; nothing for a skip. What
        it leaves waiting is read by the prospects (``prospects_change``). None for a System
        Error or a claim."""
        listed = self._listed(state, seat, option)
        return None if listed is None else listed[0]

    def _listed(
        self, state: GameState, seat: int, option: Option
    ) -> tuple[Marks, list[str], Planet | None] | None:
        """What playing a listed option makes of the seat's sheet (``listed_marks``), the steps
        left waiting after it, and the planet drawn on this turn (None: the seat's choice); None
        for a System Error or a claim."""
        fields: Mapping[str, Any] = option
        action = fields["action"]
        sheet = state.sheet_of(seat)
        marks = sheet.marks
        side = side_of(sheet, seat)
        steps = [step for frame in state.seats[seat].pending for step in frame]
        made: Marks = {}
        if action == DRAW:
            combination = state.combinations[fields["combination"]]
            planet = self.layout.planets[fields["planet"]]
            _, spent = self.reach(combination, planet)
            made.update(dict.fromkeys(self.stored_astronauts(marks, side)[:spent], CROSS))
            space = fields["space"]
            made[space] = side
            now = marks | made
            if planet.done not in marks and all_filled(now, planet.spaces):
                made[planet.flag] = self.majority(now, planet, tie=self.tie_of(sheet))
                made[planet.done] = CIRCLE
            if combination.action == ASTRONAUT and fields["number"] != combination.number:
                blank = self.next_blank_astronaut(marks | made, side)
                if blank is not None:
                    made[blank] = CIRCLE
            else:
                steps.append(f"action.{combination.action}")
            bonus = self.layout.space_bonus.get(space)
            if bonus is not None:
                steps.append(f"bonus.{bonus}")
            return made, steps, planet
        if action != "skip" and action not in self.steps:
            return None  # a System Error, a claim
        steps.remove(fields["effect"])
        if action in (ROBOT, BONUS_ROBOT):
            asteroid = fields["asteroid"]
            made[asteroid] = side
            waiting = []
            for element, kind in self.layout.asteroids[asteroid].bonuses:
                made[element] = CROSS
                if kind in (PLANT, WATER):
                    self._next_box(marks, made, side, kind)
                else:
                    waiting.append(element)
            steps += waiting
        elif action in (ENERGY, ASTEROID_ENERGY):
            self._next_box(marks, made, side, fields["column"])
        elif action in (PLANT, WATER):
            made[fields["symbol"]] = CROSS
            self._next_box(marks, made, side, action)
        elif action in (BONUS_PLANT, BONUS_WATER):
            self._next_box(marks, made, side, action.removeprefix("bonus_"))
        elif action in (PLANNING, ASTEROID_PLANNING):
            made[fields["moon"]] = side
            if action == PLANNING:
                self._next_box(marks, made, side, PLANNING)
        elif action == ASTRONAUT:
            blank = self.next_blank_astronaut(marks, side)
            if blank is not None:
                made[blank] = CIRCLE
        return made, steps, None

    def _next_box(self, marks: Marks, made: Marks, side: str, track: str) -> None:
        """The next box of one of the side's tracks crossed in ``made`` (over ``marks``), if
        one is left."""
        boxes = self.layout.track(side, track).boxes
        box = next((b for b in boxes if b not in marks and b not in made), None)
        if box is not None:
            made[box] = CROSS

    def _bonus_worth(self, side: str, marks: Marks, kind: str) -> int:
        """What one asteroid bonus adds to the side's score at best, roughly."""
        if kind in (PLANT, WATER):
            track = self.layout.track(side, kind)
            crossed = track.crossed(marks)
            return track.values[min(crossed + 1, len(track.boxes))] - track.values[crossed]
        if kind == ENERGY:
            return max(self._improvement(side, marks, column) for column in TYPES)
        return 0

    def _improvement(self, side: str, marks: Marks, kind: str) -> int:
        """Points one more box of a type's column would add over the planets the side holds or
        leads of that type."""
        track = self.layout.track(side, kind)
        crossed = track.crossed(marks)
        if crossed == len(track.boxes):
            return 0
        held = sum(
            1
            for planet in self.layout.planets.values()
            if planet.type == kind and side in str(marks.get(planet.flag) or self.majority(marks, planet))
        )
        return held * (track.values[crossed + 1] - track.values[crossed])

    def derived(self, state: GameState, sheet: Sheet, *, marks: Marks) -> dict[str, Any]:
        """What a front end draws: each planet (insignias by side, next space, moon, flag and
        who controls it), the asteroid field from both ends, and both side panels."""
        final = state.status != "playing"
        planets = self.layout.planets.values()
        asteroids = self.layout.asteroids
        return {
            "planets": {
                planet.id: self._planet_view(marks, planet, final=final, tie=self.tie_of(sheet))
                for planet in planets
            },
            "asteroids": {
                "claimed": {side: [a for a in asteroids if marks.get(a) == side] for side in SIDES},
                "next": {side: self.layout.next_asteroid(marks, side) for side in SIDES},
                "free": sum(1 for a in self.layout.asteroids if a not in marks),
            },
            "panels": {side: self._panel_view(sheet, side, marks) for side in SIDES},
        }  # fmt: skip

    def _planet_view(self, marks: Marks, planet: Planet, *, final: bool, tie: str) -> dict[str, Any]:
        complete = planet.done in marks
        return {
            "type": planet.type,
            "accepts": sorted(planet.accepts),
            "filled": sum(1 for space in planet.spaces if space in marks),
            "spaces": len(planet.spaces),
            "next_space": planet.next_space(marks),
            "insignias": planet.insignias(marks),
            "moon_open": not complete and any(moon not in marks for moon in planet.moon),
            "complete": complete,
            "flag": str(marks.get(planet.flag, "")),
            "control": self.control(marks, planet, final=final, tie=tie),
            "leader": self.majority(marks, planet, tie=tie),
            "plant_symbols_left": sum(1 for s in planet.plants if s not in marks),
            "water_symbols_left": sum(1 for s in planet.waters if s not in marks),
        }

    def _panel_view(self, sheet: Sheet, side: str, marks: Marks) -> dict[str, Any]:
        track = self.layout.track
        astronauts = [marks.get(symbol) for symbol in self.layout.astronauts[side]]
        panel: dict[str, Any] = {
            "seat": sheet.sides[side],
            **{
                name: {"crossed": track(side, name).crossed(marks), "value": track(side, name).value(marks)}
                for name in (PLANT, WATER, *TYPES, PLANNING)
            },
            "system_errors": {
                "crossed": self.errors_marked_on(sheet, side, marks),
                "usable": len(self.usable_error_boxes(sheet.error_boxes)[side]),
                "penalty": self.layout.error_penalty[self.errors_marked_on(sheet, side, marks)],
            },
            "astronauts": {
                "blank": astronauts.count(None),
                "circled": astronauts.count(CIRCLE),
                "crossed": astronauts.count(CROSS),
            },
        }  # fmt: skip
        if side == "S":
            panel["missions"] = {
                letter: marks.get(box) for letter, box in self.layout.mission_boxes.items()
            }
            panel["campaign"] = sheet.bonus_points
        return panel
