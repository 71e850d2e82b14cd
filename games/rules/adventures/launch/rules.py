"""Adventure 1, The Launch (adventure-1-launch.md): rocket floors tied to actions, quarter effects,
sabotages, the rocket column and the launch.

The rules are the spec's: floors §2.1 and §3 (a combination's action picks the floors, the
bottom one wild; no Astronaut modifier), quarter effects §2.2 and §4 (with the rocket-crossing
procedure), the rocket column and scoring area §2.3, sabotages in phase 5 §5, System Errors §6,
missions §7 (rockets, not points), end and score §8, solo §9 (ASTRA's rocket track is scored by
``games.rules.turn.solo``). Element ids are the data file's (§10).

Choices of this module:

- an effect that can no longer be used is lost, and every effect is marked ``used`` once spent;
- solo: a sabotage the player triggers circles 1 ASTRA bonus and hits nobody; an Effect card
  circles the first free System Error box (which one never matters, D8), even with no sabotage
  left to cross (D7); two launches in one turn go to the player with a tie-break rocket, else
  a draw.
"""

from functools import cached_property
from typing import Any, cast

from games.rules.adventures.launch import shapes
from games.rules.adventures.launch.layout import Layout
from games.rules.common.base import Adventure, Condition, Step, standard_end_reasons
from games.rules.common.options import Choice, Option, StepOption, WriteOption
from games.rules.core.cards import Combination
from games.rules.core.errors import RuleViolation, shown
from games.rules.core.events import AstraResult, AstraTrackBreakdown, Recorder
from games.rules.core.sheet import CIRCLE, CROSS, Marks, X, all_filled, first_unmarked
from games.rules.core.state import GameState, Sheet

# Mission conditions, by card (the card texts are in the common mission index).
FLOORS_TO_FILL = {64: ("f7", "f8", "f9"), 65: ("f4", "f5", "f6"), 66: ("f3",), 67: ("f1", "f2")}
MISSION_ALL_BUILDINGS = 68
MISSION_UNCROSSED_ERRORS = 69
X_NEEDED = 10
UNCROSSED_ERRORS_NEEDED = 5

FILL = "fill"
USED = "used"
TRIGGERED = "triggered"
# The waiting effects of quarters, by element kind: the action each is used with.
ACTION_OF_EFFECT = {"rocket_activation": "activate", "building": "build"}


class LaunchRules(Adventure[Layout]):
    """The rules of adventure 1 (see the module docstring)."""

    score_shape = shapes.LaunchScore
    derived_shape = shapes.LaunchDerived

    layout_class = Layout
    start_mark_words = (CIRCLE, CROSS, FILL)
    astronaut_modifies = False
    # The action only chose the floor: what follows a number is its quarter's completion.
    action_steps = False
    settle_outcome = "lost"

    def step_table(self) -> dict[str, Step]:
        return {
            "activate": Step(uses=self.each_of("activate", "arrow", self.open_arrows), use=self._activate),
            "build": Step(
                uses=self.each_unmarked("build", "space", tuple(self.layout.spaces)), use=self._build
            ),
        }

    def mission_table(self) -> dict[int, Condition]:
        return {
            **{card: self._floors_filled(floors) for card, floors in FLOORS_TO_FILL.items()},
            # An X only ever goes in a numbering space.
            MISSION_ALL_BUILDINGS: lambda sheet: list(sheet.marks.values()).count(X) >= X_NEEDED,
            MISSION_UNCROSSED_ERRORS: lambda sheet: self.uncrossed_errors(sheet, sheet.marks)
            >= UNCROSSED_ERRORS_NEEDED,
        }

    # --- phases 2-3: numbers go on the floors of their action, as shown ----------------------

    def zone_name(self, zone: Any) -> str:
        return _floor_name(self.layout.floor_of(zone[0]))

    def zones_for(self, marks: Marks, action: str) -> list[tuple[str, ...]]:
        """The floors of the action, and the wild floor."""
        return self.layout.floor_spaces_for_action[action]

    def action_space_problem(self, action: str, space: str) -> RuleViolation | None:
        if self.layout.floor_of(space) in self.layout.floors_for_action[action]:
            return None
        return RuleViolation(
            "wrong_floor_for_action",
            "A %(action)s number goes on the %(action)s floor(s) or the wild floor, not on %(value)s.",
            action=action,
            value=_floor_name(self.layout.floor_of(space)),
        )

    def number_problem(self, index: int, combination: Combination, number: Any) -> RuleViolation | None:
        if number == combination.number:
            return None
        return RuleViolation(
            "number_not_in_combination",
            "Combination %(index)s shows %(number)s, not %(number2)s; in this adventure the number is "
            "written as shown.",
            index=index,
            number=combination.number,
            number2=number,
        )

    def score_effect(self, state: GameState, seat: int, option: Option) -> Any:
        """A number or an X scores only through the quarter it completes; filling an arrow
        scores nothing until its quarter is complete."""
        action = option["action"]
        if action == "activate":
            return action
        if action not in ("write", "build"):
            return None
        filling = cast("WriteOption | StepOption", option)
        return (action, self.quarter_completed_by(state.sheet_of(seat).marks, filling["space"]))

    def quarter_completed_by(self, marks: Marks, space: str) -> str | None:
        """The quarter that filling ``space`` completes, if any."""
        quarter = self.layout.quarter_of(space)
        empty = [other for other in self.layout.quarters[quarter]["spaces"] if other not in marks]
        return quarter if empty == [space] or not empty else None

    # --- System Errors: circled in any free box ----------------------------------------------

    def error_boxes_to_mark(self, sheet: Sheet) -> list[str]:
        return [box for box in sheet.error_boxes if box not in sheet.marks]

    def error_box_refusal(self, sheet: Sheet, box: Any) -> RuleViolation:
        return RuleViolation(
            "error_box_not_free",
            "%(box)s is not a free System Error box of your sheet.",
            box=shown(box),
        )

    # --- reactions: quarter effects ------------------------------------------------------------

    def after_fill(self, rec: Recorder, seat: int, space: str) -> None:
        """``space`` was just filled: a quarter it completes applies its effects (the pick or
        the effect that filled it settles what is left to use)."""
        quarter = self.quarter_completed_by(rec.sheet(seat).marks, space)
        if quarter is not None:
            self._complete_quarter(rec, seat, quarter)

    def _complete_quarter(self, rec: Recorder, seat: int, quarter: str) -> None:
        """Apply the automatic effects at once and stack the ones needing a choice."""
        choices = []
        for effect_id in self.layout.quarters[quarter]["effects"]:
            effect = self.layout.elements[effect_id]
            kind = effect["kind"]
            marks = rec.sheet(seat).marks
            if kind == "active_rocket" or (
                kind == "inactive_rocket" and marks.get(effect["requires"]) == FILL
            ):
                rec.mark(seat, element=effect_id, mark=USED)
                self.cross_rockets(rec, seat, effect["value"])
            elif kind == "sabotage":
                if effect_id not in marks:
                    rec.mark(seat, element=effect_id, mark=TRIGGERED)
            elif kind in ACTION_OF_EFFECT:
                choices.append(effect_id)
        rec.effects_pending(seat, source=quarter, effects=choices)

    def step_action(self, step: str) -> str:
        return ACTION_OF_EFFECT[self.layout.elements[step]["kind"]]

    def step_optional(self, step: str) -> bool:
        return self.step_action(step) == "build"

    def skip_refusal(self, step: str) -> RuleViolation:
        return RuleViolation(
            "effect_not_optional", "A rocket activation must be used while an arrow is open."
        )

    def resolve_step(self, rec: Recorder, seat: int, step: str, *, outcome: str, target: Any) -> None:
        """An effect waiting for a choice is spent, whatever became of it."""
        super().resolve_step(rec, seat, step, outcome=outcome, target=target)
        rec.mark(seat, element=step, mark=USED)

    def _activate(self, rec: Recorder, seat: int, effect: str, choice: Choice) -> None:
        arrow = choice.get("arrow")
        if arrow not in self.open_arrows(rec.sheet(seat).marks):
            raise RuleViolation(
                "arrow_not_available",
                "%(arrow)s is not the empty arrow of an inactive rocket in an incomplete quarter.",
                arrow=shown(arrow),
            )
        self.resolve_step(rec, seat, effect, outcome="activated", target=arrow)
        assert isinstance(arrow, str)  # checked above
        rec.mark(seat, element=arrow, mark=FILL)

    def _build(self, rec: Recorder, seat: int, effect: str, choice: Choice) -> None:
        self.write_x(rec, seat, effect, choice, outcome="built")

    def open_arrows(self, marks: Marks) -> list[str]:
        """Arrows of inactive rockets whose quarter is not complete and arrow still empty."""
        arrows = []
        for rocket in self.layout.inactive_rockets:
            quarter = self.layout.quarters[rocket["links"][0]]
            if rocket["requires"] not in marks and not all_filled(marks, quarter["spaces"]):
                arrows.append(rocket["requires"])
        return arrows

    # --- rockets ---------------------------------------------------------------------------

    def cross_rockets(self, rec: Recorder, seat: int, units: int) -> None:
        """Cross ``units`` rockets: the column first, then circled errors, then tie-breaks."""
        for _ in range(units):
            sheet = rec.sheet(seat)
            rocket = first_unmarked(sheet.marks, self.layout.column_rockets)
            if rocket is not None:
                rec.mark(seat, element=rocket, mark=CROSS)
                score_box = self.layout.score_box_after.get(rocket)
                if score_box is not None:
                    rec.mark(seat, element=score_box, mark=CROSS)
                continue
            error = next((b for b in sheet.error_boxes if sheet.marks.get(b) == CIRCLE), None)
            if error is not None:
                rec.mark(seat, element=error, mark=CROSS)
                continue
            self.cross_next(rec, seat, self.layout.tiebreak_rockets)

    # --- phase 5: sabotages ----------------------------------------------------------------

    def incidents(self, rec: Recorder) -> None:
        """Each sabotage triggered this turn circles an error for every seat that did not
        trigger it, then is crossed off on every sheet."""
        state = rec.state
        triggered: dict[str, set[int]] = {}
        for index, seat in enumerate(state.seats):
            for symbol in seat.triggered:
                triggered.setdefault(symbol, set()).add(index)
        for symbol in sorted(triggered):
            for index in range(state.players):
                if index in triggered[symbol]:
                    continue
                free = self.error_boxes_to_mark(state.sheet_of(index))
                if free:
                    rec.system_error(index, box=free[0], cause=symbol)
            for index in range(state.players):
                rec.mark(index, element=symbol, mark=CROSS)

    # --- phase 6: missions give rockets ------------------------------------------------------

    def _floors_filled(self, floors: tuple[str, ...]) -> Any:
        spaces = frozenset(space for floor in floors for space in self.layout.floors[floor]["spaces"])
        return lambda sheet: all_filled(sheet.marks, spaces)

    def reward_mission(self, rec: Recorder, seat: int, value: int) -> None:
        self.cross_rockets(rec, seat, value)

    # --- end of game and scoring -----------------------------------------------------------

    def end_reasons(self, state: GameState) -> list[dict[str, Any]]:
        launched = [seat for seat in range(state.players) if self.launched(state.sheet_of(seat))]
        reasons = [{"reason": "launch", "seats": launched}] if launched else []
        return reasons + standard_end_reasons(state, spaces=self.layout.spaces.keys())

    def launched(self, sheet: Sheet, marks: Marks | None = None) -> bool:
        marks = sheet.marks if marks is None else marks
        return all_filled(marks, self.layout.column_rockets) and self.uncrossed_errors(sheet, marks) == 0

    @staticmethod
    def uncrossed_errors(sheet: Sheet, marks: Marks) -> int:
        return sum(1 for box in sheet.error_boxes if marks.get(box) == CIRCLE)

    def sheet_score(self, state: GameState, sheet: Sheet, *, marks: Marks) -> dict[str, Any]:
        rockets = sum(map(marks.__contains__, self.layout.column_rockets))
        column_value = max(v for at_least, v in self.layout.value_by_rockets if rockets >= at_least)
        uncrossed = self.uncrossed_errors(sheet, marks)
        penalty = uncrossed * self.layout.error_penalty
        return {
            "rockets": rockets,
            "column_value": column_value,
            "errors_circled": self.errors_marked(sheet, marks),
            "errors_uncrossed": uncrossed,
            "error_penalty": -penalty,
            "tiebreak_rockets": sum(map(marks.__contains__, self.layout.tiebreak_rockets)),
            "launched": rockets == len(self.layout.column_rockets) and uncrossed == 0,
            "campaign": sheet.bonus_points,
            "total": column_value - penalty + sheet.bonus_points,
        }

    def rank_keys(self, state: GameState, scores: list[dict[str, Any]]) -> list[Any]:
        """Launchers first (more tie-break rockets ahead), then by score, then fewer errors
        circled (crossed off or not, see D3), then shared positions."""
        return [
            (
                0 if s["launched"] else 1,
                -s["tiebreak_rockets"] if s["launched"] else 0,
                -s["total"],
                s["errors_circled"],
            )
            for s in scores
        ]

    def derived(self, state: GameState, sheet: Sheet, *, marks: Marks) -> dict[str, Any]:
        return {
            "complete_quarters": [
                quarter
                for quarter, layout in self.layout.quarters.items()
                if all_filled(marks, layout["spaces"])
            ],
            "open_arrows": self.open_arrows(marks),
        }


    # --- solo: ASTRA -----------------------------------------------------------------------

    @cached_property
    def sabotages(self) -> tuple[str, ...]:
        return tuple(e for e, raw in self.layout.elements.items() if raw["kind"] == "sabotage")

    def astra_targets(self, state: GameState, sheet: Sheet, letter: str, deck_pass: int) -> list[str]:
        """The sabotages still available: neither triggered nor crossed off."""
        return [symbol for symbol in self.sabotages if symbol not in sheet.marks]

    def astra_effect(
        self, rec: Recorder, seat: int, letter: str, deck_pass: int, target: str | None
    ) -> None:
        """Cross the chosen sabotage off, and circle a System Error (with no sabotage left,
        the error all the same: D7)."""
        if target is not None:
            rec.mark(seat, element=target, mark=CROSS)
        free = self.error_boxes_to_mark(rec.sheet(seat))
        if free:
            rec.system_error(seat, box=free[0], cause="astra_effect")

    def astra_bonuses(self, element: str, mark: Any) -> int:
        """Each sabotage the player triggers circles one ASTRA bonus."""
        if mark == TRIGGERED and element in self.sabotages:
            return int(self.astra_card["bonuses_per_trigger"])
        return 0

    def solo_end_reasons(self, state: GameState, astra_score: AstraResult) -> list[dict[str, Any]]:
        """ASTRA launches once the last box of its track is crossed."""
        return [{"reason": "astra_launched", "seats": []}] if _astra_launched(astra_score) else []

    def solo_winner(
        self, state: GameState, player: dict[str, Any], astra_score: AstraResult
    ) -> str | None:
        """A launch beats none; two launches in one turn go to the player if they crossed a
        tie-break rocket, else it is a draw; with no launch the higher score wins."""
        player_launched = bool(player["launched"])
        astra_launched = _astra_launched(astra_score)
        if player_launched and astra_launched:
            return "player" if player["tiebreak_rockets"] >= 1 else None
        if player_launched != astra_launched:
            return "player" if player_launched else "astra"
        return super().solo_winner(state, player, astra_score)


def _floor_name(floor: str) -> str:
    return f"floor {floor.removeprefix('f')}"


def _astra_launched(astra_score: AstraResult) -> bool:
    """Whether ASTRA launched (in adventure 1 its score is its rocket track's)."""
    return cast(AstraTrackBreakdown, astra_score["breakdown"])["launched"]
