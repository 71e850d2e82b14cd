"""Adventure 5, The Dome (adventure-5-dome.md): four skyscrapers grown level by level from the
lunar surface, the plant and water research tower beside them, a dome of eight sections to build
(and to split by Planning), and four scoring tracks upgraded by Energy, the missions one among
them.

The rules are the spec's: skyscrapers and their bonuses §2.2-2.3, the research tower §2.4,
the dome §2.5, the turn §3, reactions §4, races §5, System Errors §6, missions §7, end and
scoring §8, solo §9. Element ids are the data file's (§2.1, §10).

Readings taken where the sources disagree (§11), and choices of this module:

- 1: the dome penalty per unbuilt element is the top-most uncrossed box of the dome track
  (6 before any upgrade), as for every track;
- 2: ASTRA circles 2 bonuses per high skyscraper bonus the player takes; in solo an Effect
  card (A, B or C, both passes) crosses a high bonus still available, the player's choice, and
  the player leads the astronauts with at least as many crossed as ASTRA holds Astronaut cards
  (none crossed: nothing); a single seat playing without ASTRA is alone in every race and the
  leader of the astronaut count as soon as it crosses one;
- 3: two end circles are even sections, one circle odd ones (0 is even);
- 4: the Astronaut action is optional: a changed number uses it and crosses the next symbol at
  once; an unchanged number leaves it as an optional step (crossing or skipping);
- 5: missions A are cards 88-89, B 90-91, C 92-93;
- 6: the cards carry no points: the mission box of a letter holds 0 (the common mission
  index gives no value) and the star circled beside it scores at the missions track's value
  at the end; a claim circles the five-pointed star in the first turn anyone accomplishes the
  mission, the eight-pointed one afterwards;
- the two plants of a tower level are interchangeable: a Plant action is offered the first
  uncircled one (either is accepted when named);
- a Robot builds an element at an end of the chain or beside a built one (the first and the
  last unbuilt elements when every build kept to this rule);
- a step that can change nothing (a Plant action on an unconnected level, no element of the
  right parity to build, nothing left to split...) resolves by itself as ``no_effect``;
- mission 93 counts every X on the skyscrapers (only Planning writes an X on this sheet);
- the System Error boxes are marked top to bottom through the common ``system_error`` event.
"""

from collections.abc import Iterable
from typing import Any, cast

from games.rules.adventures.dome import shapes
from games.rules.adventures.dome.layout import Layout
from games.rules.common.base import Adventure, Condition, Step, number_changed
from games.rules.common.missions import MISSION_BOX
from games.rules.common.options import Choice, Option, StepOption, WriteOption
from games.rules.core.errors import N_, RuleViolation, Text, shown
from games.rules.core.events import Recorder
from games.rules.core.sheet import (
    CIRCLE,
    CROSS,
    LINE,
    MAX_NUMBER,
    MIN_NUMBER,
    Marks,
    X,
    all_filled,
    first_unmarked,
)
from games.rules.core.state import GameState, Sheet

# The mark of a built dome element (traced over) and the step a Planning X leaves.
BUILT = "trace"
SPLIT = "split"

# Mission conditions, by card (the card texts are in the common mission index).
MISSION_FULL_SKYSCRAPER = 88
MISSION_TOPS = 89
TOPS_NEEDED = 2
MISSION_TOWER_PAIRS = 90
PAIR = 2
PAIR_LEVELS_NEEDED = 3
MISSION_FULL_TOWER_LEVELS = 91
FULL_LEVELS_NEEDED = 2
MISSION_WHOLE_DOME = 92
MISSION_XS = 93
XS_NEEDED = 4

# Track columns read by the scoring.
FIRST, LATER, OTHER, PER_UNBUILT = "first", "later", "other", "per_unbuilt"


class DomeRules(Adventure[Layout]):
    """The rules of adventure 5 (see the module docstring)."""

    score_shape = shapes.DomeScore
    derived_shape = shapes.DomeDerived

    layout_class = Layout
    space_word = N_("a level")
    start_mark_words = (CIRCLE, CROSS, BUILT, LINE)

    def step_table(self) -> dict[str, Step]:
        tower = Step(uses=self._tower_uses, use=self._circle_tower_symbol)
        return {
            "robot": Step(uses=self._robot_uses, use=self._build),
            "energy": Step(uses=self.each_of("energy", "track", self.upgradable_tracks), use=self._upgrade),
            "plant": tower,
            "water": tower,
            "astronaut": self.astronaut_step(self._astronaut),
            "planning": Step(
                uses=self.each_of("planning", "space", self.reachable_levels), use=self._planning
            ),
            SPLIT: Step(uses=self.each_of(SPLIT, "section", self.splittable), use=self._split),
        }

    def mission_table(self) -> dict[int, Condition]:
        zones = [frozenset(zone) for zone in self.layout.skyscrapers.values()]
        tops = self.layout.top_levels
        return {
            MISSION_FULL_SKYSCRAPER: lambda sheet: any(all_filled(sheet.marks, zone) for zone in zones),
            MISSION_TOPS: lambda sheet: sum(map(sheet.marks.__contains__, tops)) >= TOPS_NEEDED,
            MISSION_TOWER_PAIRS: lambda sheet: sum(
                1 for count in self.tower_counts(sheet.marks) if count >= PAIR
            )
            >= PAIR_LEVELS_NEEDED,
            MISSION_FULL_TOWER_LEVELS: lambda sheet: sum(
                1 for symbols in self.layout.tower_levels.values() if all_filled(sheet.marks, symbols)
            )
            >= FULL_LEVELS_NEEDED,
            MISSION_WHOLE_DOME: lambda sheet: self.unbuilt(sheet.marks) == 0,
            MISSION_XS: lambda sheet: sum(
                1 for space in self.layout.spaces if sheet.marks.get(space) == X
            )
            >= XS_NEEDED,
        }

    # --- phases 2-3: the placement rule ----------------------------------------------------

    def zone_name(self, zone: Any) -> str:
        return f"skyscraper {self.layout.zone_labels[zone[0]]}"

    def reachable(self, marks: Marks, space: str) -> bool:
        """A level may be marked when it is a starting level or lies directly above or below
        a marked level of its skyscraper."""
        return space in self.layout.start_levels or any(
            map(marks.__contains__, self.layout.neighbours[space])
        )

    def reachable_levels(self, marks: Marks) -> list[str]:
        """Every empty level the placement rule allows now (where a Planning X may go)."""
        return [
            space
            for zone in self.layout.skyscrapers.values()
            for space in zone
            if space not in marks and self.reachable(marks, space)
        ]

    def open_spaces(
        self, marks: Marks, zones: list[tuple[str, ...]]
    ) -> list[tuple[str, int, int]]:
        """The levels a number may go on: reachable ones, with their open range (above the
        last number below the level, below the first number above it)."""
        found: list[tuple[str, int, int]] = []
        starts = self.layout.start_levels
        for zone in zones:
            values = [marks.get(space) for space in zone]
            last = len(zone) - 1
            low = MIN_NUMBER - 1
            waiting: list[tuple[str, int]] = []  # reachable levels still without a number above
            for index, value in enumerate(values):
                if value is None:
                    if (
                        zone[index] in starts
                        or (index > 0 and values[index - 1] is not None)
                        or (index < last and values[index + 1] is not None)
                    ):
                        waiting.append((zone[index], low))
                elif type(value) is int:
                    found += [(space, below, value) for space, below in waiting]
                    waiting = []
                    low = value
            found += [(space, below, MAX_NUMBER + 1) for space, below in waiting]
        return found

    def placement_problem(self, marks: Marks, space: str, number: int) -> RuleViolation | None:
        return self.reach_problem(marks, space) or super().placement_problem(marks, space, number)

    def reach_problem(self, marks: Marks, space: str) -> RuleViolation | None:
        """Why an empty ``space`` cannot be marked under the placement rule, or None."""
        if self.reachable(marks, space):
            return None
        return RuleViolation(
            "level_not_reachable",
            "%(space)s is neither a starting level nor directly above or below a marked level of %(value)s.",
            space=space,
            value=self.zone_name(self.layout.skyscrapers[self.layout.spaces[space]['zone']]),
        )

    def after_fill(self, rec: Recorder, seat: int, space: str) -> None:
        """Marking a top or bottom level claims its bonus: the high value while it is unmarked
        on this sheet, else the low one once the high one is crossed."""
        bonus = self.layout.end_bonuses.get(space)
        if bonus is None:
            return
        marks = rec.sheet(seat).marks
        if bonus.high not in marks:
            rec.mark(seat, element=bonus.high, mark=CIRCLE)
        elif marks[bonus.high] == CROSS and bonus.low not in marks:
            rec.mark(seat, element=bonus.low, mark=CIRCLE)

    @property
    def astronaut_track(self) -> tuple[str, ...]:
        return self.layout.astronaut_symbols

    def score_effect(self, state: GameState, seat: int, option: Option) -> Any:
        """Marking a level scores only on a top or bottom level (its bonus), and a write also
        by an Astronaut action used with it; every build, and every split, scores alike."""
        action = option["action"]
        if action == "write":
            write = cast(WriteOption, option)
            end = write["space"] if write["space"] in self.layout.end_bonuses else None
            return ("write", end, number_changed(state, write))
        if action == "planning":
            space = cast(StepOption, option)["space"]
            return ("planning", space if space in self.layout.end_bonuses else None)
        if action in ("robot", SPLIT):
            return action
        return None

    # --- phase 4: the actions ----------------------------------------------------------------

    def _tower_uses(self, state: GameState, seat: int, step: str) -> Iterable[StepOption]:
        action = self.step_action(step)
        level = self.layout.tower_level_of.get(state.seats[seat].turn_choice["space"])
        if level is None:
            return ()
        symbol = first_unmarked(state.sheet_of(seat).marks, self.layout.tower_symbols[level][action])
        if symbol is None:
            return ()
        return ({"action": action, "effect": step, "symbol": symbol},)

    def tower_symbol_problem(
        self, marks: Marks, action: str, space: str, symbol: Any
    ) -> RuleViolation | None:
        """Why a Plant/Water action with a number on ``space`` cannot circle ``symbol``."""
        found = self.layout.symbol_level.get(symbol) if isinstance(symbol, str) else None
        if found is None:
            return RuleViolation(
                "unknown_symbol",
                "%(symbol)s is not a symbol of the tower.",
                symbol=shown(symbol),
            )
        level, kind = found
        if kind != action:
            return RuleViolation(
                "wrong_symbol_kind",
                "%(symbol)s is a %(kind)s symbol; a %(action)s action circles a %(action)s.",
                symbol=symbol,
                kind=Text(kind),
                action=Text(action),
            )
        if self.layout.tower_level_of.get(space) != level:
            return RuleViolation(
                "symbol_not_reachable",
                "%(symbol)s is on %(level)s, not on the tower level connected to %(space)s.",
                symbol=symbol,
                level=level,
                space=space,
            )
        if symbol in marks:
            return RuleViolation(
                "symbol_already_marked",
                "%(symbol)s is already circled.",
                symbol=symbol,
            )
        return None

    def _circle_tower_symbol(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        symbol = choice.get("symbol")
        space = rec.seat(seat).turn_choice["space"]
        problem = self.tower_symbol_problem(rec.sheet(seat).marks, self.step_action(step), space, symbol)
        self.use_on(rec, seat, step, symbol, problem, outcome="circled", mark=CIRCLE)

    def buildable(self, marks: Marks) -> list[str]:
        """The unbuilt elements of the chain at one of its ends or beside a built element."""
        chain = self.layout.chain(marks)
        last = len(chain) - 1
        return [
            element
            for index, element in enumerate(chain)
            if element not in marks
            and (index in (0, last) or chain[index - 1] in marks or chain[index + 1] in marks)
        ]

    def _robot_uses(self, state: GameState, seat: int, step: str) -> Iterable[StepOption]:
        parity = state.seats[seat].turn_choice["number"] % 2
        return (
            {"action": "robot", "effect": step, "element": element}
            for element in self.buildable(state.sheet_of(seat).marks)
            if self.layout.parity[element] == parity
        )

    def build_problem(self, marks: Marks, number: int, element: Any) -> RuleViolation | None:
        """Why a Robot action with ``number`` written cannot build ``element``, or None."""
        if not isinstance(element, str) or element not in self.layout.chain(marks):
            return RuleViolation(
                "unknown_dome_element",
                "%(element)s is not a section or a half of the dome as it is split now.",
                element=shown(element),
            )
        if element in marks:
            return RuleViolation(
                "element_already_built",
                "%(element)s is already built.",
                element=element,
            )
        if element not in self.buildable(marks):
            return RuleViolation(
                "element_not_buildable",
                "%(element)s is neither at an end of the dome nor beside a built element.",
                element=element,
            )
        if self.layout.parity[element] != number % 2:
            parity = _parity_word(self.layout.parity[element])
            return RuleViolation(
                "wrong_parity",
                "%(element)s takes %(parity)s numbers, not %(number)s.",
                element=element,
                parity=parity,
                number=number,
            )
        return None

    def _build(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        element = choice.get("element")
        number = rec.seat(seat).turn_choice["number"]
        _raise(self.build_problem(rec.sheet(seat).marks, number, element))
        self.resolve_step(rec, seat, step, outcome="built", target=element)
        assert isinstance(element, str)  # checked above
        rec.mark(seat, element=element, mark=BUILT)

    def upgradable_tracks(self, marks: Marks) -> list[str]:
        """The tracks with a row left to cross."""
        return [track.id for track in self.layout.tracks.values() if track.next_row(marks) is not None]

    def _upgrade(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        name = choice.get("track")
        track = self.layout.tracks.get(name) if isinstance(name, str) else None
        if track is None:
            raise RuleViolation(
                "unknown_track",
                "%(name)s is not a track: upgrade one of %(tracks)s.",
                name=shown(name),
                tracks=shown(sorted(self.layout.tracks)),
            )
        row = track.next_row(rec.sheet(seat).marks)
        if row is None:
            raise RuleViolation(
                "track_complete",
                "Every row of the %(name)s track is crossed.",
                name=name,
            )
        self.resolve_step(rec, seat, step, outcome="crossed", target=row)
        rec.mark(seat, element=row, mark=CROSS)

    def _astronaut(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        self.resolve_step(rec, seat, step, outcome="crossed", target=None)
        self.cross_next(rec, seat, self.layout.astronaut_symbols)

    def _planning(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        space = choice.get("space")
        marks = rec.sheet(seat).marks
        _raise(self.space_problem(marks, space))
        assert isinstance(space, str)
        _raise(self.reach_problem(marks, space))
        self.write_x(rec, seat, step, choice)
        rec.effects_pending(seat, source="planning", effects=[SPLIT])

    def splittable(self, marks: Marks) -> list[str]:
        """The sections a Planning X may split: unbuilt and never split."""
        return [
            section
            for section in self.layout.sections
            if section not in marks and self.layout.split_lines[section] not in marks
        ]

    def _split(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        section = choice.get("section")
        marks = rec.sheet(seat).marks
        if not isinstance(section, str) or section not in self.layout.split_lines:
            raise RuleViolation(
                "unknown_section",
                "%(section)s is not a section of the dome.",
                section=shown(section),
            )
        if self.layout.split_lines[section] in marks:
            raise RuleViolation(
                "section_already_split",
                "%(section)s is already split.",
                section=section,
            )
        if section in marks:
            raise RuleViolation(
                "section_built",
                "%(section)s is built: only an unbuilt section splits.",
                section=section,
            )
        self.resolve_step(rec, seat, step, outcome="split", target=section)
        rec.mark(seat, element=self.layout.split_lines[section], mark=LINE)

    def skip_refusal(self, step: str) -> RuleViolation:
        return RuleViolation(
            "effect_not_optional", "A Planning X splits a dome section whenever one can be split."
        )

    # --- phase 5: the races for the high skyscraper bonuses ------------------------------

    def race_elements(self) -> tuple[str, ...]:
        return self.layout.high_bonuses

    # --- phase 6: missions circle a star ------------------------------------------------

    def mission_worth(self, state: GameState, sheet: Sheet | None, letter: str) -> dict[str, int]:
        """A mission is worth the missions track's current values on the sheet (read again at
        the end of the game: an upgrade after the claim still raises it); with no sheet named,
        the track's values before any upgrade."""
        marks = sheet.marks if sheet is not None else {}
        values = self.layout.tracks["missions"].value(marks)
        return {FIRST: values[FIRST], LATER: values[LATER]}

    def reward_mission(self, rec: Recorder, seat: int, value: int) -> None:
        """Circle the star of the mission just accomplished (the only one without a star):
        five-pointed while its card is not flipped, eight-pointed once it is."""
        marks = rec.sheet(seat).marks
        for letter, stars in self.layout.mission_stars.items():
            if MISSION_BOX[letter] in marks and not any(map(marks.__contains__, stars.values())):
                column = LATER if letter in rec.state.flipped_missions else FIRST
                rec.mark(seat, element=stars[column], mark=CIRCLE)

    # --- scoring ---------------------------------------------------------------------------

    def tower_counts(self, marks: Marks) -> list[int]:
        """The circled symbols of each tower level (0 to 3)."""
        return [sum(map(marks.__contains__, symbols)) for symbols in self.layout.tower_levels.values()]

    def unbuilt(self, marks: Marks) -> int:
        """The elements of the dome chain still to build."""
        return sum(1 for element in self.layout.chain(marks) if element not in marks)

    def astronauts(self, marks: Marks) -> int:
        """The astronaut symbols crossed."""
        return sum(map(marks.__contains__, self.layout.astronaut_symbols))

    # The base reads fixed values in the mission boxes; here the stars need the sheet's track.
    def missions_points(self, marks: Marks) -> int:  # type: ignore[override]
        """Each circled star at the current value of its column of the missions track."""
        values = self.layout.tracks["missions"].value(marks)
        return sum(
            values[column]
            for stars in self.layout.mission_stars.values()
            for column, star in stars.items()
            if star in marks
        )

    def tower_points(self, marks: Marks) -> int:
        """Each tower level with circled symbols at the tower track's value for that many."""
        track = self.layout.tracks["tower"]
        values = track.value(marks)
        return sum(values[track.columns[count - 1]] for count in self.tower_counts(marks) if count)

    def astronaut_points(self, state: GameState, sheet: Sheet, marks: Marks) -> int:
        """The leaders (ties included) score the first column, the others with at least one
        astronaut the other column, nobody scores without one."""
        crossed = self.astronauts(marks)
        if crossed == 0:
            return 0
        others = [
            self.astronauts(self.seen_marks(state, other)) for other in state.sheets if other.id != sheet.id
        ]
        if state.astra is not None:
            others.append(state.astra.pile.get("astronaut", 0))
        values = self.layout.tracks["astronauts"].value(marks)
        return values[FIRST] if crossed >= max(others, default=0) else values[OTHER]

    def areas(self, state: GameState, sheet: Sheet, marks: Marks) -> dict[str, int]:
        per_unbuilt = self.layout.tracks["dome"].value(marks)[PER_UNBUILT]
        return {
            "tower": self.tower_points(marks),
            "skyscrapers": sum(
                value for bonus, value in self.layout.bonus_values.items() if marks.get(bonus) == CIRCLE
            ),
            "astronauts": self.astronaut_points(state, sheet, marks),
            "dome": -self.unbuilt(marks) * per_unbuilt,
        }

    def details(self, state: GameState, sheet: Sheet, marks: Marks) -> dict[str, Any]:
        counts = self.tower_counts(marks)
        columns = self.layout.tracks["tower"].columns
        return {
            "tower_levels_by_symbols": {
                column: counts.count(index + 1) for index, column in enumerate(columns)
            },
            "dome_unbuilt": self.unbuilt(marks),
            "astronauts_crossed": self.astronauts(marks),
        }

    def derived(self, state: GameState, sheet: Sheet, *, marks: Marks) -> dict[str, Any]:
        layout = self.layout
        return {
            "skyscrapers": {
                zone: {
                    "marked": [space for space in spaces if space in marks],
                    "reachable": [
                        space for space in spaces if space not in marks and self.reachable(marks, space)
                    ],
                    "bonuses": {
                        bonus.location: _bonus_state(marks, bonus.high, bonus.low)
                        for bonus in layout.end_bonuses.values()
                        if bonus.space in spaces
                    },
                }
                for zone, spaces in layout.skyscrapers.items()
            },
            "tower": {
                level: [symbol for symbol in symbols if symbol in marks]
                for level, symbols in layout.tower_levels.items()
            },
            "dome": {
                "splits": [s for s in layout.sections if layout.split_lines[s] in marks],
                "chain": layout.chain(marks),
                "built": [element for element in layout.chain(marks) if element in marks],
                "buildable": self.buildable(marks),
                "unbuilt": self.unbuilt(marks),
            },
            "tracks": {name: track.value(marks) for name, track in layout.tracks.items()},
        }


def _bonus_state(marks: Marks, high: str, low: str) -> str:
    """What a skyscraper end's bonus pair shows: won high or low, high lost, or open."""
    if marks.get(high) == CIRCLE:
        return "high"
    if marks.get(low) == CIRCLE:
        return "low"
    return "high_lost" if high in marks else "open"


def _parity_word(parity: int) -> str:
    return "odd" if parity else "even"


def _raise(problem: RuleViolation | None) -> None:
    if problem is not None:
        raise problem
