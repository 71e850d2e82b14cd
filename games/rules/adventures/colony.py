"""Adventure 3, The Colony: a 6 x 6 grid of buildings numbered along its rows and columns at
once, water tanks, greenhouses per quarter, the tunnel network grown from the rocket with its
antennas, three multipliers raised by Energy, the quarter race (15 / 5), the astronaut ranking
(20 / 10 / 5) and the planning penalty.

Readings taken where the sources disagree (spec section 10), and choices of this module:

- (1) a multiplier track is worth its lowest visible value: the first uncrossed box, 0 on a
  track no Energy was spent on, the printed final value once every box is crossed;
- (2) Energy crosses a track top to bottom (the lowest box is the top one);
- (3) mission values are the printed cards' (common mission index);
- (4) the observatory's three antennas belong to the top-right quarter (card 79);
- (5) Xs and the four printed buildings count as numbered everywhere (quarters, full rows and
  columns, antennas, the full-sheet end);
- (6) the astronaut ranking is dense; a player with no symbol takes no place;
- (7) past the 9th astronaut symbol or planning box the action still works and crosses
  nothing (penalty capped at 28, count at 9);
- (10) every action is optional: it waits as a step (``action.robot``...) with an explicit
  ``skip``; a step that can change nothing (no tank under the number, every greenhouse of the
  quarter circled, every track full...) resolves by itself as ``no_effect``;
- the Astronaut action is used by changing the number: a pick whose number differs from the
  card's crosses the next astronaut symbol at once; a pick of the card's own number leaves the
  symbol to cross (or skip) as a step;
- the options of a step name their target (the tank, the next greenhouse, the tunnel, the
  Energy box, the X's space), and a choice naming another is refused with the rule it breaks;
- a quarter completed gives its 15 while that box is unmarked, else its 5, once; the race is
  settled in phase 5 among the seats that circled a 15 during the turn;
- the System Error boxes are marked top to bottom through the common ``system_error`` event
  (its mark word is the common ``circle``; every marked box counts as crossed here);
- the two pre-built tunnels and the four printed buildings are part of the layout, never marks;
  a drawn tunnel is marked ``line``;
- with a single seat (ASTRA is not played yet) the player is alone in the astronaut ranking;
  ``ColonyRules.solo_astronauts`` is the comparison with ASTRA's Astronaut cards, a tie going
  to the player (8); an equal solo total is a draw through ``astra.solo_winner`` (9).
"""

from typing import Any

from games.rules import astra, cards, data, ranking, steps
from games.rules import modifiers as modifiers_rules
from games.rules.actions import astronaut_numbers
from games.rules.adventures.base import Option
from games.rules.adventures.colony_layout import Layout
from games.rules.cards import ACTIONS, Combination
from games.rules.ending import standard_end_reasons
from games.rules.errors import RuleViolation
from games.rules.events import Recorder
from games.rules.sheet import MAX_NUMBER, MIN_NUMBER, Marks, X, first_unmarked, placement_problem
from games.rules.state import GameState, SeatState

CIRCLE = "circle"
CROSS = "cross"
LINE = "line"
ASTRONAUT = "astronaut"

# The step each action leaves waiting for the player's choice (all optional).
ACTION_STEPS = {action: f"action.{action}" for action in ACTIONS}
ACTION_OF_STEP = {step: action for action, step in ACTION_STEPS.items()}

# Mission conditions, by card (the card texts are in the common mission index).
MISSION_COLUMNS = 76
MISSION_ROWS = 77
FULL_LINES_NEEDED = 3
MISSION_OBSERVATORY = 78
MISSION_ANTENNA_QUARTERS = 79
MISSION_PLANTS = 80
PLANTS_NEEDED = 10
MISSION_TANK_QUARTERS = 81
QUARTERS_NEEDED = 2

START_MARK_WORDS = (CIRCLE, CROSS, LINE)


def _zone_name(zone: str) -> str:
    kind, index = zone.split(".")
    return f"{'row' if kind == 'row' else 'column'} {index}"


class ColonyRules:
    """The rules of adventure 3 (see the module docstring)."""

    number = 3
    key = "colony"
    name = "The Colony"

    def __init__(self) -> None:
        self.layout = Layout(data.adventure(3))
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

    def space_problem(self, marks: Marks, space: Any) -> RuleViolation | None:
        """Why ``space`` cannot take a number or an X, or None: it must be an empty space."""
        if isinstance(space, str) and space in self.layout.prenumbered:
            return RuleViolation(
                "space_prenumbered", f"{space} is printed as already numbered on the sheet."
            )
        if not isinstance(space, str) or space not in self.layout.spaces:
            return RuleViolation("unknown_space", f"{space!r} is not a building of this sheet.")
        if space in marks:
            return RuleViolation("space_not_empty", f"Space {space} is already filled.")
        return None

    def placement_problem(self, marks: Marks, space: Any, number: int) -> RuleViolation | None:
        """Why ``number`` cannot go in ``space``, or None: it must keep both its row and its
        column strictly ascending (Xs and printed buildings are skipped)."""
        problem = self.space_problem(marks, space)
        if problem is not None:
            return problem
        for zone in self.layout.zones_of(space):
            problem = placement_problem(
                marks, self.layout.zones[zone], space, number, zone_name=_zone_name(zone)
            )
            if problem is not None:
                return problem
        return None

    @staticmethod
    def numbers_of(combination: Combination) -> list[int]:
        """The numbers a combination can write: an Astronaut one may be changed by -2 to +2."""
        if combination.action == ASTRONAUT:
            return astronaut_numbers(combination.number)
        return [combination.number]

    def choice_options(self, state: GameState, seat: int) -> list[Option]:
        sheet = state.seats[seat]
        writes = self._write_options(state, sheet.marks)
        if writes:
            return writes
        box = self._next_error_box(sheet)
        return [{"action": "system_error", "box": box}] if box is not None else []

    def _write_options(self, state: GameState, marks: Marks) -> list[Option]:
        """Every legal write. Each empty space is checked against its two zones reduced to
        their numbered spaces (Xs and empty spaces play no part in the order): the same
        ascending rule as ``placement_problem``, asked of shorter lines."""
        numbered = {space for space, mark in marks.items() if isinstance(mark, int)}
        lines = {
            space: [
                ([s for s in self.layout.zones[zone] if s == space or s in numbered], zone)
                for zone in self.layout.zones_of(space)
            ]
            for space in self.layout.spaces
            if space not in marks
        }
        fits: dict[tuple[str, int], bool] = {}
        options = []
        for index, combination in enumerate(state.combinations):
            for number in self.numbers_of(combination):
                for space, zones in lines.items():
                    if (space, number) not in fits:
                        fits[space, number] = all(
                            placement_problem(
                                marks, line, space, number, zone_name=_zone_name(zone)
                            )
                            is None
                            for line, zone in zones
                        )
                    if fits[space, number]:
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
        number = choice.get("number", combination.number)
        if not isinstance(number, int) or number not in self.numbers_of(combination):
            if combination.action == ASTRONAUT:
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
        if combination.action == ASTRONAUT:
            written["modifier"] = number - combination.number
        rec.emit("number_written", seat, **written)
        assert isinstance(space, str)
        self._after_fill(rec, seat, space)
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
        box = self._next_error_box(sheet)
        if box is None or choice.get("box", box) != box:
            raise RuleViolation(
                "error_box_not_next",
                f"System Error boxes are crossed top to bottom: the next one is {box}.",
            )
        rec.emit("system_error", seat, box=box, cause="no_writable_number")

    @staticmethod
    def _next_error_box(sheet: SeatState) -> str | None:
        return first_unmarked(sheet.marks, sheet.error_boxes)

    # --- reactions: antennas and quarters ------------------------------------------------

    def _after_fill(self, rec: Recorder, seat: int, space: str) -> None:
        """A number or an X just filled ``space``: circle what it completes."""
        self._circle_antennas(rec, seat)
        self._complete_quarter(rec, seat, self.layout.quarter_of(space))

    def antennas_to_circle(self, marks: Marks) -> list[str]:
        """Uncircled antennas whose building is both filled and connected to the rocket."""
        connected = self.layout.connected(marks)
        return [
            antenna
            for antenna, building in self.layout.antennas.items()
            if antenna not in marks
            and building in connected
            and self.layout.is_filled(marks, building)
        ]

    def _circle_antennas(self, rec: Recorder, seat: int) -> None:
        for antenna in self.antennas_to_circle(rec.seat(seat).marks):
            rec.emit("mark", seat, element=antenna, mark=CIRCLE)

    def quarter_complete(self, marks: Marks, quarter: str) -> bool:
        return self.layout.all_filled(marks, self.layout.quarter_spaces(quarter))

    def _complete_quarter(self, rec: Recorder, seat: int, quarter: str) -> None:
        """A quarter just completed circles its 15 while unmarked, else its 5."""
        marks = rec.seat(seat).marks
        raw = self.layout.quarters[quarter]
        first, later = raw["bonus_first"], raw["bonus_later"]
        if not self.quarter_complete(marks, quarter) or CIRCLE in (
            marks.get(first),
            marks.get(later),
        ):
            return
        rec.emit("mark", seat, element=first if first not in marks else later, mark=CIRCLE)

    # --- phase 4: the actions ------------------------------------------------------------

    def _start_action(self, rec: Recorder, seat: int, action: str, modifier: int) -> None:
        if action == ASTRONAUT and modifier != 0:
            self._cross_next_astronaut(rec, seat)
            return
        rec.emit("effects_pending", seat, source=action, effects=[ACTION_STEPS[action]])

    def tank_problem(self, marks: Marks, space: str, tank: Any) -> RuleViolation | None:
        """Why Water cannot circle ``tank`` after a number in ``space``, or None."""
        if tank not in self.layout.tanks:
            return RuleViolation("unknown_tank", f"{tank!r} is not a water tank of this sheet.")
        if self.layout.spaces[space]["water_tank"] != tank:
            return RuleViolation(
                "tank_not_on_space",
                f"Water circles the tank of the building just numbered ({space}), not {tank}.",
            )
        if tank in marks:
            return RuleViolation("tank_already_circled", f"{tank} is already circled.")
        return None

    def next_greenhouse(self, marks: Marks, quarter: str) -> str | None:
        """The topmost uncircled greenhouse of a quarter."""
        greenhouses = self.layout.quarters[quarter]["greenhouses"]
        return next((g for g in greenhouses if g not in marks), None)

    def greenhouse_problem(
        self, marks: Marks, space: str, greenhouse: Any
    ) -> RuleViolation | None:
        """Why Plant cannot circle ``greenhouse`` after a number in ``space``, or None."""
        if greenhouse not in self.layout.greenhouses:
            return RuleViolation(
                "unknown_greenhouse", f"{greenhouse!r} is not a greenhouse of this sheet."
            )
        quarter = self.layout.quarter_of(space)
        if self.layout.elements[greenhouse]["quarter"] != quarter:
            return RuleViolation(
                "greenhouse_wrong_quarter",
                f"Plant circles a greenhouse of {quarter}, where the number was written.",
            )
        if greenhouse != self.next_greenhouse(marks, quarter):
            return RuleViolation(
                "greenhouse_not_next",
                f"Greenhouses are circled top to bottom: {greenhouse} is not the next one.",
            )
        return None

    def tunnel_problem(
        self, marks: Marks, tunnel: Any, *, connected: set[str] | None = None
    ) -> RuleViolation | None:
        """Why Robot cannot draw ``tunnel``, or None: it must be undrawn and touch the
        network at one end at least (``connected``: the network's buildings, if known)."""
        if tunnel not in self.layout.tunnels:
            return RuleViolation("unknown_tunnel", f"{tunnel!r} is not a tunnel of this sheet.")
        if self.layout.is_drawn(marks, tunnel):
            return RuleViolation("tunnel_already_drawn", f"{tunnel} is already drawn.")
        if connected is None:
            connected = self.layout.connected(marks)
        if not any(end in connected for end in self.layout.tunnels[tunnel]):
            return RuleViolation(
                "tunnel_not_connected",
                f"{tunnel} touches no building linked to the rocket: a new tunnel extends the "
                "network.",
            )
        return None

    def buildable_tunnels(self, marks: Marks) -> list[str]:
        connected = self.layout.connected(marks)
        return [
            tunnel
            for tunnel in self.layout.tunnels
            if self.tunnel_problem(marks, tunnel, connected=connected) is None
        ]

    def energy_problem(self, marks: Marks, box: Any) -> RuleViolation | None:
        """Why Energy cannot cross ``box``, or None: the next box of a multiplier track."""
        track_id = self.layout.track_of_box.get(box) if isinstance(box, str) else None
        if track_id not in self.layout.multiplier_tracks:
            return RuleViolation(
                "unknown_box", f"{box!r} is not a box of the plants, water or antennas track."
            )
        assert track_id is not None
        track = self.layout.tracks[track_id]
        if box in marks:
            return RuleViolation("box_already_crossed", f"{box} is already crossed.")
        if box != track.next_box(marks):
            return RuleViolation(
                "box_not_next",
                f"Boxes are crossed top to bottom: the next box of {track_id} is "
                f"{track.next_box(marks)}.",
            )
        return None

    def x_problem(self, marks: Marks, space: Any) -> RuleViolation | None:
        """Why the Planning X cannot go in ``space``, or None (an X ignores the order)."""
        return self.space_problem(marks, space)

    def _uses_of(self, state: GameState, seat: int, step: str) -> list[Option]:
        """Every way to use a waiting step (empty: the step can change nothing)."""
        sheet = state.seats[seat]
        marks = sheet.marks
        action = ACTION_OF_STEP[step]
        space = sheet.turn_choice["space"]
        if action == "water":
            tank = self.layout.spaces[space]["water_tank"]
            if tank is None or self.tank_problem(marks, space, tank) is not None:
                return []
            return [{"action": action, "effect": step, "tank": tank}]
        if action == "plant":
            greenhouse = self.next_greenhouse(marks, self.layout.quarter_of(space))
            if greenhouse is None:
                return []
            return [{"action": action, "effect": step, "greenhouse": greenhouse}]
        if action == "robot":
            return [
                {"action": action, "effect": step, "tunnel": tunnel}
                for tunnel in self.buildable_tunnels(marks)
            ]
        if action == "energy":
            boxes = [self.layout.tracks[t].next_box(marks) for t in self.layout.multiplier_tracks]
            return [{"action": action, "effect": step, "box": box} for box in boxes if box]
        if action == ASTRONAUT:
            if self._next_astronaut(marks) is None:
                return []
            return [{"action": action, "effect": step}]
        return [
            {"action": action, "effect": step, "space": empty}
            for empty in self.layout.spaces
            if self.x_problem(marks, empty) is None
        ]

    def effect_options(self, state: GameState, seat: int) -> list[Option]:
        pending = state.seats[seat].pending
        if not pending:
            return []
        step = pending[-1][0]
        return [*self._uses_of(state, seat, step), {"action": "skip", "effect": step}]

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
            steps.resolve(rec, seat, step, outcome="skipped", target=None)
        elif action == ACTION_OF_STEP[step]:
            self._use(rec, seat, step, choice)
        else:
            raise RuleViolation(
                "illegal_choice",
                f"{step} is resolved with {ACTION_OF_STEP[step]!r} or 'skip', not {action!r}.",
            )
        self._settle(rec, seat)

    def _use(self, rec: Recorder, seat: int, step: str, choice: Option) -> None:
        sheet = rec.seat(seat)
        marks = sheet.marks
        space = sheet.turn_choice["space"]
        action = ACTION_OF_STEP[step]
        if action == "water":
            tank = choice.get("tank")
            _raise(self.tank_problem(marks, space, tank))
            steps.resolve(rec, seat, step, outcome="circled", target=tank)
            rec.emit("mark", seat, element=tank, mark=CIRCLE)
        elif action == "plant":
            greenhouse = choice.get("greenhouse")
            _raise(self.greenhouse_problem(marks, space, greenhouse))
            steps.resolve(rec, seat, step, outcome="circled", target=greenhouse)
            rec.emit("mark", seat, element=greenhouse, mark=CIRCLE)
        elif action == "robot":
            tunnel = choice.get("tunnel")
            _raise(self.tunnel_problem(marks, tunnel))
            steps.resolve(rec, seat, step, outcome="drawn", target=tunnel)
            rec.emit("mark", seat, element=tunnel, mark=LINE)
            self._circle_antennas(rec, seat)
        elif action == "energy":
            box = choice.get("box")
            _raise(self.energy_problem(marks, box))
            steps.resolve(rec, seat, step, outcome="crossed", target=box)
            rec.emit("mark", seat, element=box, mark=CROSS)
        elif action == ASTRONAUT:
            steps.resolve(rec, seat, step, outcome="crossed", target=self._next_astronaut(marks))
            self._cross_next_astronaut(rec, seat)
        else:
            target = choice.get("space")
            _raise(self.x_problem(marks, target))
            assert isinstance(target, str)
            steps.resolve(rec, seat, step, outcome="x_written", target=target)
            rec.emit("mark", seat, element=target, mark=X)
            self._after_fill(rec, seat, target)
            box = self.layout.planning.next_box(rec.seat(seat).marks)
            if box is not None:
                rec.emit("mark", seat, element=box, mark=CROSS)

    def _next_astronaut(self, marks: Marks) -> str | None:
        return first_unmarked(marks, self.layout.astronaut_symbols)

    def _cross_next_astronaut(self, rec: Recorder, seat: int) -> None:
        """Cross the next astronaut symbol; past the 9th, nothing."""
        symbol = self._next_astronaut(rec.seat(seat).marks)
        if symbol is not None:
            rec.emit("mark", seat, element=symbol, mark=CROSS)

    def _settle(self, rec: Recorder, seat: int) -> None:
        steps.settle(rec, seat, uses_of=self._uses_of)

    # --- phase 5: the quarter race -------------------------------------------------------

    def incidents(self, rec: Recorder) -> None:
        """A quarter's 15 circled this turn by anyone is crossed off on every sheet where it
        is still unmarked; all who circled it this turn keep it."""
        seats = rec.state.seats
        for raw in self.layout.quarters.values():
            first = raw["bonus_first"]
            won = any(
                s.marks.get(first) == CIRCLE and first not in s.turn_start_marks for s in seats
            )
            if not won:
                continue
            for index, sheet in enumerate(seats):
                if first not in sheet.marks:
                    rec.emit("mark", index, element=first, mark=CROSS)

    # --- phase 6: missions ---------------------------------------------------------------

    def full_lines(self, marks: Marks, lines: dict[int, tuple[str, ...]]) -> int:
        return sum(1 for line in lines.values() if self.layout.all_filled(marks, line))

    def quarters_all_circled(self, marks: Marks, kind: str) -> int:
        """Quarters whose every element of ``kind`` ("antennas", "water_tanks") is circled."""
        return sum(
            1
            for raw in self.layout.quarters.values()
            if all(marks.get(element) == CIRCLE for element in raw[kind])
        )

    def plants(self, marks: Marks) -> int:
        """Plant symbols in the circled greenhouses."""
        return sum(
            self.layout.greenhouse_value(g)
            for g in self.layout.greenhouses
            if marks.get(g) == CIRCLE
        )

    def mission_holds(self, state: GameState, seat: int, card: int) -> bool:
        marks = state.seats[seat].marks
        if card == MISSION_COLUMNS:
            return self.full_lines(marks, self.layout.columns) >= FULL_LINES_NEEDED
        if card == MISSION_ROWS:
            return self.full_lines(marks, self.layout.rows) >= FULL_LINES_NEEDED
        if card == MISSION_OBSERVATORY:
            return self.layout.observatory in self.layout.connected(marks)
        if card == MISSION_ANTENNA_QUARTERS:
            return self.quarters_all_circled(marks, "antennas") >= QUARTERS_NEEDED
        if card == MISSION_PLANTS:
            return self.plants(marks) >= PLANTS_NEEDED
        if card == MISSION_TANK_QUARTERS:
            return self.quarters_all_circled(marks, "water_tanks") >= QUARTERS_NEEDED
        raise ValueError(f"card {card} is not an adventure 3 mission")

    def reward_mission(self, rec: Recorder, seat: int, value: int) -> None:
        """The mission box holds the points: nothing more to give."""

    # --- end of game and scoring ---------------------------------------------------------

    def end_reasons(self, state: GameState) -> list[dict[str, Any]]:
        return standard_end_reasons(state, spaces=self.layout.spaces)

    def astronauts(self, marks: Marks) -> int:
        """Crossed astronaut symbols."""
        return sum(1 for symbol in self.layout.astronaut_symbols if symbol in marks)

    def solo_astronauts(self, symbols: int, astra_astronaut_cards: int) -> int:
        """Solo: 20 with at least as many symbols as ASTRA holds Astronaut cards, else 10;
        nothing without a symbol."""
        if symbols == 0:
            return 0
        return astra.solo_rank_award(symbols, astra_astronaut_cards, self.layout.astronaut_awards)

    @staticmethod
    def _seen(state: GameState, seat: int) -> Marks:
        """Another seat's sheet as the others see it: as it began the turn while playing."""
        sheet = state.seats[seat]
        return sheet.turn_start_marks if state.status == "playing" else sheet.marks

    @staticmethod
    def errors_crossed(sheet: SeatState, marks: Marks) -> int:
        return sum(1 for box in sheet.error_boxes if box in marks)

    def seat_score(self, state: GameState, seat: int, *, marks: Marks) -> dict[str, Any]:
        sheet = state.seats[seat]
        layout = self.layout
        tanks = sum(1 for tank in layout.tanks if marks.get(tank) == CIRCLE)
        antennas = sum(1 for antenna in layout.antennas if marks.get(antenna) == CIRCLE)
        counts = [
            self.astronauts(marks if other == seat else self._seen(state, other))
            for other in range(state.players)
        ]
        score: dict[str, Any] = {
            "missions": sum(
                value
                for letter in "ABC"
                if isinstance(value := marks.get(f"mission.{letter}"), int)
            ),
            "plants": self.plants(marks) * layout.tracks["track.plants"].value(marks),
            "water": tanks * layout.tracks["track.water"].value(marks),
            "antennas": antennas * layout.tracks["track.antennas"].value(marks),
            "quarters": sum(
                points
                for bonus, points in layout.quarter_bonus_value.items()
                if marks.get(bonus) == CIRCLE
            ),
            "astronauts": ranking.rank_awards(
                counts, layout.astronaut_awards, zero_scores=False
            )[seat],
            "planning": -layout.planning.value(marks),
            "system_errors": -layout.error_penalty[self.errors_crossed(sheet, marks)],
            "campaign": sheet.bonus_points,
        }
        score["total"] = sum(score.values())
        return score

    def standings(self, state: GameState) -> dict[str, Any]:
        """By score, then fewer System Errors, then shared positions."""
        scores = [
            self.seat_score(state, seat, marks=state.seats[seat].marks)
            for seat in range(state.players)
        ]
        errors = [self.errors_crossed(sheet, sheet.marks) for sheet in state.seats]
        ranks = ranking.final_ranks([s["total"] for s in scores], errors)
        return {
            "scores": [
                {"seat": seat, "total": s["total"], "rank": ranks[seat], "breakdown": s}
                for seat, s in enumerate(scores)
            ],
            "winners": [seat for seat, rank in enumerate(ranks) if rank == 1],
        }

    def numbering_zones(self, marks: Marks) -> list[tuple[str, ...]]:
        """The zones in which numbers must ascend now, each as its spaces in order."""
        return list(self.layout.zones.values())

    def derived(self, state: GameState, seat: int, *, marks: Marks) -> dict[str, Any]:
        layout = self.layout
        connected = layout.connected(marks)
        return {
            "tunnels": layout.drawn_tunnels(marks),
            "connected_buildings": [b for b in layout.buildings if b in connected],
            "observatory_connected": layout.observatory in connected,
            "buildable_tunnels": self.buildable_tunnels(marks),
            "complete_quarters": [q for q in layout.quarters if self.quarter_complete(marks, q)],
            "plants": self.plants(marks),
            "astronauts": self.astronauts(marks),
            "multipliers": {
                track: layout.tracks[track].value(marks) for track in layout.multiplier_tracks
            },
            "planning_penalty": layout.planning.value(marks),
        }


def _raise(problem: RuleViolation | None) -> None:
    if problem is not None:
        raise problem
