"""Adventure 3, The Colony (adventure-3-colony.md): a 6 x 6 grid of buildings numbered along its
rows and columns at once, water tanks, greenhouses per quarter, the tunnel network grown from
the rocket with its antennas, three multipliers raised by Energy, the quarter race (15 / 5), the
astronaut ranking (20 / 10 / 5) and the planning penalty.

The rules are the spec's: the grid, its spaces and zones §2.2-2.4, quarters §2.5, tanks,
antennas, tunnels and greenhouses §2.6-2.9, the turn §3, reactions §4, the quarter race §5,
System Errors §6, missions §7, end and scoring §8, solo §9. Element ids are the data file's
(§11).

Readings taken where the sources disagree (§10), and choices of this module:

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
- solo against ASTRA, the astronaut ranking is ``ColonyRules.solo_astronauts``: the
  comparison with ASTRA's Astronaut cards, a tie going to the player (8); an equal solo total
  is a draw through ``astra.solo_winner`` (9); a single seat playing without ASTRA is alone
  in the ranking.
"""

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import Any, cast

from games.rules.adventures.colony import shapes
from games.rules.adventures.colony.layout import Layout
from games.rules.common import astra
from games.rules.common.base import (
    ASTRONAUT,
    Adventure,
    AreaPart,
    Condition,
    Step,
    number_changed,
    plain_marks,
    rank_awards,
)
from games.rules.common.options import Choice, Option, StepOption, Target, WriteOption
from games.rules.core.errors import N_, RuleViolation, shown
from games.rules.core.events import Recorder
from games.rules.core.sheet import CIRCLE, CROSS, LINE, Marks, X, first_unmarked
from games.rules.core.state import GameState, Sheet

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

# The element a step's option names and the mark it makes there, by its action.
STEP_TARGETS = {"water": ("tank", CIRCLE), "plant": ("greenhouse", CIRCLE), "energy": ("box", CROSS)}
# Where the astronauts' part stands among ``area_parts``.
ASTRONAUTS_PART = 4


def _zone_name(zone: str) -> str:
    kind, index = zone.split(".")
    return f"{'row' if kind == 'row' else 'column'} {index}"


class ColonyRules(Adventure[Layout]):
    """The rules of adventure 3 (see the module docstring)."""

    score_shape = shapes.ColonyScore
    derived_shape = shapes.ColonyDerived

    layout_class = Layout
    space_word = N_("a building")
    start_mark_words = (CIRCLE, CROSS, LINE)
    frame_steps_alike = True

    def __init__(self) -> None:
        super().__init__()
        self._zone_ids = {zone: zone_id for zone_id, zone in self.layout.zones.items()}

    def step_table(self) -> dict[str, Step]:
        return {
            "water": Step(uses=self._water_uses, use=self._circle("tank", self.tank_problem)),
            "plant": Step(uses=self._plant_uses, use=self._circle("greenhouse", self.greenhouse_problem)),
            "robot": Step(
                uses=self.each_of("robot", "tunnel", self.buildable_tunnels), use=self._draw_tunnel
            ),
            "energy": Step(uses=self._energy_uses, use=self._cross_energy),
            "astronaut": self.astronaut_step(),
            "planning": self.planning_step(self._planning),
        }

    def mission_table(self) -> dict[int, Condition]:
        return {
            MISSION_COLUMNS: lambda sheet: self.full_lines(sheet.marks, self.layout.columns)
            >= FULL_LINES_NEEDED,
            MISSION_ROWS: lambda sheet: self.full_lines(sheet.marks, self.layout.rows) >= FULL_LINES_NEEDED,
            MISSION_OBSERVATORY: lambda sheet: self.layout.observatory in self.layout.connected(sheet.marks),
            MISSION_ANTENNA_QUARTERS: lambda sheet: self.quarters_all_circled(sheet.marks, "antennas")
            >= QUARTERS_NEEDED,
            MISSION_PLANTS: lambda sheet: self.plants(sheet.marks) >= PLANTS_NEEDED,
            MISSION_TANK_QUARTERS: lambda sheet: self.quarters_all_circled(sheet.marks, "water_tanks")
            >= QUARTERS_NEEDED,
        }

    # --- phases 2-3: rows and columns at once --------------------------------------------

    def zones_of(self, marks: Marks, space: str) -> list[tuple[str, ...]]:
        return [self.layout.zones[zone] for zone in self.layout.zones_of(space)]

    def zone_name(self, zone: Any) -> str:
        return _zone_name(self._zone_ids[tuple(zone)])

    def space_problem(self, marks: Marks, space: Any) -> RuleViolation | None:
        """An empty building: not printed as numbered, not filled."""
        if isinstance(space, str) and space in self.layout.prenumbered:
            return RuleViolation(
                "space_prenumbered",
                "%(space)s is printed as already numbered on the sheet.",
                space=space,
            )
        return super().space_problem(marks, space)

    @property
    def astronaut_track(self) -> tuple[str, ...]:
        return self.layout.astronaut_symbols

    def score_effect(self, state: GameState, seat: int, option: Option) -> Any:
        """Filling a building scores through the quarter it completes and the antenna it
        circles; a write also through an Astronaut action used with it, and every Planning X
        through the planning box it crosses alike."""
        return self.score_effects(state, seat, [option])[0]

    def score_effects(self, state: GameState, seat: int, options: Sequence[Option]) -> list[Any]:
        """``score_effect`` of each option, what filling each space completes worked out once."""
        marks = state.sheet_of(seat).marks
        by_space: dict[str, tuple[str | None, tuple[str, ...]]] = {}
        effects: list[Any] = []
        for option in options:
            action = option["action"]
            if action not in ("write", "planning"):
                effects.append(None)
                continue
            space = cast("WriteOption | StepOption", option)["space"]
            filling = by_space.get(space)
            if filling is None:
                filling = by_space[space] = self._filling(marks, space)
            used = action == "write" and number_changed(state, cast(WriteOption, option))
            effects.append((action, *filling, used))
        return effects

    def _filling(self, marks: Marks, space: str) -> tuple[str | None, tuple[str, ...]]:
        """What filling ``space`` completes: its quarter (or None), and the antennas it circles."""
        filled = {**marks, space: X}
        quarter = self.layout.quarter_of(space)
        completes = not self.quarter_complete(marks, quarter) and self.quarter_complete(filled, quarter)
        antennas = tuple(self.antennas_to_circle(filled)) if space in self.layout.antenna_of else ()
        return (quarter if completes else None, antennas)

    # --- reactions: antennas and quarters ------------------------------------------------

    def after_fill(self, rec: Recorder, seat: int, space: str) -> None:
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
        for antenna in self.antennas_to_circle(rec.sheet(seat).marks):
            rec.mark(seat, element=antenna, mark=CIRCLE)

    def quarter_complete(self, marks: Marks, quarter: str) -> bool:
        return self.layout.all_filled(marks, self.layout.quarter_spaces(quarter))

    def _complete_quarter(self, rec: Recorder, seat: int, quarter: str) -> None:
        """A quarter just completed circles its 15 while unmarked, else its 5."""
        marks = rec.sheet(seat).marks
        raw = self.layout.quarters[quarter]
        first, later = raw["bonus_first"], raw["bonus_later"]
        if not self.quarter_complete(marks, quarter) or CIRCLE in (marks.get(first), marks.get(later)):
            return
        rec.mark(seat, element=first if first not in marks else later, mark=CIRCLE)

    # --- phase 4: the actions, each a step naming its target -------------------------------

    def tank_problem(self, marks: Marks, space: str, tank: Any) -> RuleViolation | None:
        """Why Water cannot circle ``tank`` after a number in ``space``, or None."""
        if tank not in self.layout.tanks:
            return RuleViolation(
                "unknown_tank",
                "%(tank)s is not a water tank of this sheet.",
                tank=shown(tank),
            )
        if self.layout.spaces[space]["water_tank"] != tank:
            return RuleViolation(
                "tank_not_on_space",
                "Water circles the tank of the building just numbered (%(space)s), not %(tank)s.",
                space=space,
                tank=tank,
            )
        if tank in marks:
            return RuleViolation(
                "tank_already_circled",
                "%(tank)s is already circled.",
                tank=tank,
            )
        return None

    def next_greenhouse(self, marks: Marks, quarter: str) -> str | None:
        """The topmost uncircled greenhouse of a quarter."""
        return first_unmarked(marks, self.layout.quarters[quarter]["greenhouses"])

    def greenhouse_problem(self, marks: Marks, space: str, greenhouse: Any) -> RuleViolation | None:
        """Why Plant cannot circle ``greenhouse`` after a number in ``space``, or None."""
        if greenhouse not in self.layout.greenhouses:
            return RuleViolation(
                "unknown_greenhouse",
                "%(greenhouse)s is not a greenhouse of this sheet.",
                greenhouse=shown(greenhouse),
            )
        quarter = self.layout.quarter_of(space)
        if self.layout.elements[greenhouse]["quarter"] != quarter:
            return RuleViolation(
                "greenhouse_wrong_quarter",
                "Plant circles a greenhouse of %(quarter)s, where the number was written.",
                quarter=quarter,
            )
        if greenhouse != self.next_greenhouse(marks, quarter):
            return RuleViolation(
                "greenhouse_not_next",
                "Greenhouses are circled top to bottom: %(greenhouse)s is not the next one.",
                greenhouse=greenhouse,
            )
        return None

    def tunnel_problem(
        self, marks: Marks, tunnel: Any, *, connected: frozenset[str] | None = None
    ) -> RuleViolation | None:
        """Why Robot cannot draw ``tunnel``, or None: it must be undrawn and touch the
        network at one end at least (``connected``: the network's buildings, if known)."""
        if tunnel not in self.layout.tunnels:
            return RuleViolation(
                "unknown_tunnel",
                "%(tunnel)s is not a tunnel of this sheet.",
                tunnel=shown(tunnel),
            )
        if self.layout.is_drawn(marks, tunnel):
            return RuleViolation(
                "tunnel_already_drawn",
                "%(tunnel)s is already drawn.",
                tunnel=tunnel,
            )
        if connected is None:
            connected = self.layout.connected(marks)
        if not any(end in connected for end in self.layout.tunnels[tunnel]):
            return RuleViolation(
                "tunnel_not_connected",
                "%(tunnel)s touches no building linked to the rocket: a new tunnel extends the network.",
                tunnel=tunnel,
            )
        return None

    def buildable_tunnels(self, marks: Marks) -> list[str]:
        """Undrawn tunnels touching the network at one end at least."""
        connected = self.layout.connected(marks)
        return [
            tunnel
            for tunnel, ends in self.layout.tunnels.items()
            if not self.layout.is_drawn(marks, tunnel) and (ends[0] in connected or ends[1] in connected)
        ]

    def energy_problem(self, marks: Marks, box: Any) -> RuleViolation | None:
        """Why Energy cannot cross ``box``, or None: the next box of a multiplier track."""
        track_id = self.layout.track_of_box.get(box) if isinstance(box, str) else None
        if track_id not in self.layout.multiplier_tracks:
            return RuleViolation(
                "unknown_box",
                "%(box)s is not a box of the plants, water or antennas track.",
                box=shown(box),
            )
        assert track_id is not None
        track = self.layout.tracks[track_id]
        if box in marks:
            return RuleViolation(
                "box_already_crossed",
                "%(box)s is already crossed.",
                box=box,
            )
        if box != track.next_box(marks):
            return RuleViolation(
                "box_not_next",
                "Boxes are crossed top to bottom: the next box of %(track_id)s is %(value)s.",
                track_id=track_id,
                value=track.next_box(marks),
            )
        return None

    def _water_uses(self, state: GameState, seat: int, step: str) -> Iterable[StepOption]:
        space = state.seats[seat].turn_choice["space"]
        tank = self.layout.spaces[space]["water_tank"]
        if tank is None or tank in state.sheet_of(seat).marks:
            return []
        return [{"action": "water", "effect": step, "tank": tank}]

    def _plant_uses(self, state: GameState, seat: int, step: str) -> Iterable[StepOption]:
        quarter = self.layout.quarter_of(state.seats[seat].turn_choice["space"])
        greenhouse = self.next_greenhouse(state.sheet_of(seat).marks, quarter)
        return [] if greenhouse is None else [{"action": "plant", "effect": step, "greenhouse": greenhouse}]

    def _circle(
        self, key: Target, problem: Callable[[Marks, str, Any], RuleViolation | None]
    ) -> Callable[[Recorder, int, str, Choice], None]:
        """Circle the element a choice names under ``key``, if ``problem`` allows it."""

        def use(rec: Recorder, seat: int, step: str, choice: Choice) -> None:
            target = choice.get(key)
            refusal = problem(rec.sheet(seat).marks, rec.seat(seat).turn_choice["space"], target)
            self.use_on(rec, seat, step, target, refusal, outcome="circled", mark=CIRCLE)

        return use

    def _draw_tunnel(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        tunnel = choice.get("tunnel")
        problem = self.tunnel_problem(rec.sheet(seat).marks, tunnel)
        self.use_on(rec, seat, step, tunnel, problem, outcome="drawn", mark=LINE)
        self._circle_antennas(rec, seat)

    def _energy_uses(self, state: GameState, seat: int, step: str) -> Iterable[StepOption]:
        marks = state.sheet_of(seat).marks
        boxes = [self.layout.tracks[t].next_box(marks) for t in self.layout.multiplier_tracks]
        return [{"action": "energy", "effect": step, "box": box} for box in boxes if box]

    def _cross_energy(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        box = choice.get("box")
        problem = self.energy_problem(rec.sheet(seat).marks, box)
        self.use_on(rec, seat, step, box, problem, outcome="crossed", mark=CROSS)

    def _planning(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        self.write_x(rec, seat, step, choice)
        self.cross_next(rec, seat, self.layout.planning.boxes)

    # --- phase 5: the quarter race ---------------------------------------------------------

    def race_elements(self) -> tuple[str, ...]:
        return tuple(raw["bonus_first"] for raw in self.layout.quarters.values())

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
            self.layout.greenhouse_value(g) for g in self.layout.greenhouses if marks.get(g) == CIRCLE
        )

    # --- end of game and scoring ---------------------------------------------------------

    def astronauts(self, marks: Marks) -> int:
        """Crossed astronaut symbols."""
        return sum(1 for symbol in self.layout.astronaut_symbols if symbol in marks)

    def solo_astronauts(self, symbols: int, astra_astronaut_cards: int) -> int:
        """Solo: 20 with at least as many symbols as ASTRA holds Astronaut cards, else 10;
        nothing without a symbol."""
        if symbols == 0:
            return 0
        return astra.solo_rank_award(symbols, astra_astronaut_cards, self.layout.astronaut_awards)

    def areas(self, state: GameState, sheet: Sheet, marks: Marks) -> dict[str, int]:
        layout = self.layout
        tanks = sum(1 for tank in layout.tanks if marks.get(tank) == CIRCLE)
        antennas = sum(1 for antenna in layout.antennas if marks.get(antenna) == CIRCLE)
        counts = [
            self.astronauts(marks if other is sheet else self.seen_marks(state, other))
            for other in state.sheets
        ]
        return {
            "plants": self.plants(marks) * layout.tracks["track.plants"].value(marks),
            "water": tanks * layout.tracks["track.water"].value(marks),
            "antennas": antennas * layout.tracks["track.antennas"].value(marks),
            "quarters": sum(
                points
                for bonus, points in layout.quarter_bonus_value.items()
                if marks.get(bonus) == CIRCLE
            ),
            "astronauts": (
                rank_awards(counts, layout.astronaut_awards, zero_scores=False)[sheet.id]
                if state.astra is None
                else self.solo_astronauts(self.astronauts(marks), state.astra.pile.get("astronaut", 0))
            ),
            "planning": -layout.planning.value(marks),
        }

    def area_parts(self) -> list[AreaPart]:
        """Each multiplier track with what it multiplies, the quarter bonuses, the astronauts
        (ranked against the other sheets': ``bound_parts``) and the planning penalty."""
        layout = self.layout
        tracks = layout.tracks
        return [
            ((*layout.greenhouses, *tracks["track.plants"].boxes), self._plants_part),
            ((*layout.tanks, *tracks["track.water"].boxes), self._water_part),
            ((*layout.antennas, *tracks["track.antennas"].boxes), self._antennas_part),
            (tuple(layout.quarter_bonus_value), self._quarters_part),
            # a sheet alone in the ranking (``bound_parts`` puts it among the others)
            (layout.astronaut_symbols, partial(self._astronauts_part, [0], 0)),
            (layout.planning.boxes, self._planning_part),
        ]

    def bound_parts(self, state: GameState, seat: int) -> list[AreaPart] | None:
        """The astronauts' part ranks the sheet's symbols among the other sheets' as they are
        seen in ``state`` (not bound against ASTRA, whose Astronaut cards count instead)."""
        if state.astra is not None:
            return None
        sheet = state.sheet_of(seat)
        counts = [
            0 if other is sheet else self.astronauts(self.seen_marks(state, other)) for other in state.sheets
        ]
        parts = list(self._area_parts)
        symbols, _ = parts[ASTRONAUTS_PART]
        parts[ASTRONAUTS_PART] = (symbols, partial(self._astronauts_part, counts, sheet.id))
        return parts

    def _plants_part(self, marks: Marks) -> int:
        return self.plants(marks) * self.layout.tracks["track.plants"].value(marks)

    def _water_part(self, marks: Marks) -> int:
        tanks = sum(1 for tank in self.layout.tanks if marks.get(tank) == CIRCLE)
        return tanks * self.layout.tracks["track.water"].value(marks) if tanks else 0

    def _antennas_part(self, marks: Marks) -> int:
        antennas = sum(1 for antenna in self.layout.antennas if marks.get(antenna) == CIRCLE)
        return antennas * self.layout.tracks["track.antennas"].value(marks) if antennas else 0

    def _quarters_part(self, marks: Marks) -> int:
        return sum(
            points for bonus, points in self.layout.quarter_bonus_value.items() if marks.get(bonus) == CIRCLE
        )

    def _astronauts_part(self, counts: list[int], index: int, marks: Marks) -> int:
        """The astronaut award of the sheet ``index`` of ``counts`` (the other sheets'
        symbols)."""
        counts = [self.astronauts(marks) if at == index else count for at, count in enumerate(counts)]
        return rank_awards(counts, self.layout.astronaut_awards, zero_scores=False)[index]

    def _planning_part(self, marks: Marks) -> int:
        return -self.layout.planning.value(marks)

    def listed_marks(self, state: GameState, seat: int, option: Option) -> Marks | None:
        """What an option marks: a write's number or a Planning X, with the antennas and the
        quarter bonus it circles (and the astronaut symbol an Astronaut write crosses, the
        planning box a Planning X crosses), a tunnel with the antennas it connects, a tank, a
        greenhouse, an Energy box, an astronaut symbol, nothing for a skip. The steps left
        waiting are read by neither the score nor the prospects. None for a System Error."""
        fields: Mapping[str, Any] = option
        action = fields["action"]
        if action == "skip":
            return {}
        if action in STEP_TARGETS:
            key, mark = STEP_TARGETS[action]
            return {fields[key]: mark}
        marks = state.sheet_of(seat).marks
        if action == ASTRONAUT:
            symbol = first_unmarked(marks, self.layout.astronaut_symbols)
            return {} if symbol is None else {symbol: CROSS}
        if action == "robot":
            made: Marks = {fields["tunnel"]: LINE}
            made.update(dict.fromkeys(self.antennas_to_circle(marks | made), CIRCLE))
            return made
        plain = plain_marks(fields)
        if plain is None:
            return None
        space = fields["space"]
        filled = marks | plain
        made = {**plain, **dict.fromkeys(self.antennas_to_circle(filled), CIRCLE)}
        quarter = self.layout.quarter_of(space)
        raw = self.layout.quarters[quarter]
        first, later = raw["bonus_first"], raw["bonus_later"]
        if self.quarter_complete(filled, quarter) and CIRCLE not in (marks.get(first), marks.get(later)):
            made[first if first not in marks else later] = CIRCLE
        track = self.layout.astronaut_symbols if action == "write" else self.layout.planning.boxes
        if action == "planning" or number_changed(state, cast(WriteOption, option)):
            box = first_unmarked(marks, track)
            if box is not None:
                made[box] = CROSS
        return made

    def derived(self, state: GameState, sheet: Sheet, *, marks: Marks) -> dict[str, Any]:
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
