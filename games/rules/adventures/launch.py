"""Adventure 1, The Launch: rocket floors tied to actions, quarter effects, sabotages,
the rocket column and the launch."""

from dataclasses import dataclass
from functools import cached_property
from itertools import pairwise
from typing import Any

from games.rules import cards, data, ranking, steps
from games.rules import modifiers as modifiers_rules
from games.rules.adventures.base import Option
from games.rules.ending import standard_end_reasons
from games.rules.errors import RuleViolation
from games.rules.events import Recorder
from games.rules.layout import SheetLayout
from games.rules.sheet import Marks, X, all_filled, placement_problem
from games.rules.state import GameState, SeatState

# Mission conditions, by card (the card texts are in the common mission index).
FLOORS_TO_FILL = {64: ("f7", "f8", "f9"), 65: ("f4", "f5", "f6"), 66: ("f3",), 67: ("f1", "f2")}
MISSION_ALL_BUILDINGS = 68
MISSION_UNCROSSED_ERRORS = 69
X_NEEDED = 10
UNCROSSED_ERRORS_NEEDED = 5

START_MARK_WORDS = ("circle", "cross", "fill")


@dataclass(frozen=True)
class Layout(SheetLayout):
    """The sheet of adventure 1, read from its data file."""

    @cached_property
    def floors(self) -> dict[str, dict[str, Any]]:
        return {zone["id"]: zone for zone in self.raw["zones"]}

    @cached_property
    def quarters(self) -> dict[str, dict[str, Any]]:
        return {quarter["id"]: quarter for quarter in self.raw["quarters"]}

    @cached_property
    def floors_for_action(self) -> dict[str, tuple[str, ...]]:
        return {action: tuple(floors) for action, floors in self.raw["action_to_floors"].items()}

    @cached_property
    def inactive_rockets(self) -> tuple[dict[str, Any], ...]:
        return tuple(e for e in self.raw["elements"] if e["kind"] == "inactive_rocket")

    def _track(self, track_id: str) -> dict[str, Any]:
        return next(track for track in self.raw["tracks"] if track["id"] == track_id)

    @cached_property
    def column_rockets(self) -> tuple[str, ...]:
        """The 31 rockets of the scoring column in crossing order (bottom line first)."""
        boxes = self._track("rocket_column")["boxes"]
        return tuple(box["id"] for box in boxes if box["kind"] == "rocket")

    @cached_property
    def score_box_after(self) -> dict[str, str]:
        """The score box crossed with the last rocket of each line (the 150 box, after the
        135 box, ends no line and is never crossed)."""
        boxes = self._track("rocket_column")["boxes"]
        ends = {}
        for before, box in pairwise(boxes):
            if box["kind"] == "score_box" and before["kind"] == "rocket":
                ends[before["id"]] = box["id"]
        return ends

    @cached_property
    def value_by_rockets(self) -> tuple[tuple[int, int], ...]:
        steps = self.raw["scoring"]["value_by_rockets"]
        return tuple((step["rockets_at_least"], step["value"]) for step in steps)

    @cached_property
    def error_boxes(self) -> tuple[str, ...]:
        return tuple(box["id"] for box in self._track("error_row")["boxes"])

    @cached_property
    def tiebreak_rockets(self) -> tuple[str, ...]:
        return tuple(box["id"] for box in self._track("tiebreak_rockets")["boxes"])

    @property
    def penalty_per_error(self) -> int:
        return int(self.raw["system_errors"]["penalty_each"])

    def quarter_of(self, space: str) -> str:
        return str(self.spaces[space]["quarter"])

    def floor_of(self, space: str) -> str:
        return str(self.spaces[space]["zone"])


class LaunchRules:
    """The rules of adventure 1 (see the module docstring)."""

    number = 1
    key = "launch"
    name = "The Launch"

    def __init__(self) -> None:
        self.layout = Layout(data.adventure(1))
        self._mark_problem = modifiers_rules.mark_problem_on(
            spaces=self.layout.spaces, markable=self.layout.elements, words=START_MARK_WORDS
        )

    # --- setup ---------------------------------------------------------------------------

    def validate_modifiers(self, modifiers: list[dict[str, Any]]) -> None:
        modifiers_rules.validate(
            modifiers, error_boxes=len(self.layout.error_boxes), mark_problem=self._mark_problem
        )

    def new_seat(self, modifiers: list[dict[str, Any]]) -> SeatState:
        return modifiers_rules.seat_from(modifiers, error_boxes=self.layout.error_boxes)

    # --- phases 2-3: pick a combination and write its number -----------------------------

    def choice_options(self, state: GameState, seat: int) -> list[Option]:
        writes = self._write_options(state, state.seats[seat].marks)
        if writes:
            return writes
        return [
            {"action": "system_error", "box": box} for box in self._free_error_boxes(state.seats[seat])
        ]

    def _write_options(self, state: GameState, marks: Marks) -> list[Option]:
        options = []
        for index, combination in enumerate(state.combinations):
            for floor in self.layout.floors_for_action[combination.action]:
                spaces = self.layout.floors[floor]["spaces"]
                for space in spaces:
                    problem = placement_problem(
                        marks, spaces, space, combination.number, zone_name=_floor_name(floor)
                    )
                    if problem is None:
                        options.append(
                            {
                                "action": "write",
                                "combination": index,
                                "space": space,
                                "number": combination.number,
                            }
                        )
        return options

    def play_write(self, rec: Recorder, seat: int, choice: Option) -> None:
        state = rec.state
        index, combination = cards.chosen_combination(state.combinations, choice)
        space = choice.get("space")
        if space not in self.layout.spaces:
            raise RuleViolation("unknown_space", f"{space!r} is not a space of this sheet.")
        number = choice.get("number", combination.number)
        if number != combination.number:
            raise RuleViolation(
                "number_not_in_combination",
                f"Combination {index} shows {combination.number}, not {number}; in this "
                "adventure the number is written as shown.",
            )
        floor = self.layout.floor_of(space)
        if floor not in self.layout.floors_for_action[combination.action]:
            raise RuleViolation(
                "wrong_floor_for_action",
                f"A {combination.action} number goes on the {combination.action} floor(s) or "
                f"the wild floor, not on {_floor_name(floor)}.",
            )
        marks = state.seats[seat].marks
        problem = placement_problem(
            marks, self.layout.floors[floor]["spaces"], space, number, zone_name=_floor_name(floor)
        )
        if problem is not None:
            raise problem
        rec.emit("number_written", seat, combination=index, space=space, number=number)
        self._after_fill(rec, seat, space)

    def play_system_error(self, rec: Recorder, seat: int, choice: Option) -> None:
        if self._write_options(rec.state, rec.seat(seat).marks):
            raise RuleViolation(
                "number_must_be_written",
                "At least one combination can be written: you must write one.",
            )
        box = choice.get("box")
        free = self._free_error_boxes(rec.seat(seat))
        if box not in free:
            raise RuleViolation(
                "error_box_not_free", f"{box!r} is not a free System Error box of your sheet."
            )
        rec.emit("system_error", seat, box=box, cause="no_writable_number")

    # --- reactions: quarter effects --------------------------------------------------------

    def _after_fill(self, rec: Recorder, seat: int, space: str) -> None:
        quarter = self.layout.quarter_of(space)
        marks = rec.seat(seat).marks
        if all_filled(marks, self.layout.quarters[quarter]["spaces"]):
            self._complete_quarter(rec, seat, quarter)
        self._settle(rec, seat)

    def _complete_quarter(self, rec: Recorder, seat: int, quarter: str) -> None:
        """Apply the automatic effects at once and stack the ones needing a choice."""
        choices = []
        for effect_id in self.layout.quarters[quarter]["effects"]:
            effect = self.layout.elements[effect_id]
            kind = effect["kind"]
            if kind == "active_rocket":
                rec.emit("mark", seat, element=effect_id, mark="used")
                self.cross_rockets(rec, seat, effect["value"])
            elif kind == "inactive_rocket":
                if rec.seat(seat).marks.get(effect["requires"]) == "fill":
                    rec.emit("mark", seat, element=effect_id, mark="used")
                    self.cross_rockets(rec, seat, effect["value"])
            elif kind == "sabotage":
                if effect_id not in rec.seat(seat).marks:
                    rec.emit("mark", seat, element=effect_id, mark="triggered")
            else:
                choices.append(effect_id)
        rec.emit("effects_pending", seat, source=quarter, effects=choices)

    def _settle(self, rec: Recorder, seat: int) -> None:
        """Effects on top of the stack that have no possible use are lost."""
        steps.settle(rec, seat, uses_of=self._uses_of, outcome="lost", resolve_step=self._resolve)

    @staticmethod
    def _resolve(rec: Recorder, seat: int, step: str, *, outcome: str, target: Any) -> None:
        """An effect waiting for a choice is spent, whatever became of it."""
        steps.resolve(rec, seat, step, outcome=outcome, target=target)
        rec.emit("mark", seat, element=step, mark="used")

    def _uses_of(self, state: GameState, seat: int, effect: str) -> list[Option]:
        marks = state.seats[seat].marks
        kind = self.layout.elements[effect]["kind"]
        if kind == "rocket_activation":
            return [
                {"action": "activate", "effect": effect, "arrow": arrow}
                for arrow in self._open_arrows(marks)
            ]
        return [
            {"action": "build", "effect": effect, "space": space}
            for space in self.layout.spaces
            if space not in marks
        ]

    def _open_arrows(self, marks: Marks) -> list[str]:
        """Arrows of inactive rockets whose quarter is not complete and arrow still empty."""
        arrows = []
        for rocket in self.layout.inactive_rockets:
            quarter = self.layout.quarters[rocket["links"][0]]
            if rocket["requires"] not in marks and not all_filled(marks, quarter["spaces"]):
                arrows.append(rocket["requires"])
        return arrows

    def effect_options(self, state: GameState, seat: int) -> list[Option]:
        pending = state.seats[seat].pending
        if not pending:
            return []
        options = []
        for effect in pending[-1]:
            options.extend(self._uses_of(state, seat, effect))
            if self.layout.elements[effect]["kind"] == "building":
                options.append({"action": "skip", "effect": effect})
        return options

    def play_effect(self, rec: Recorder, seat: int, choice: Option) -> None:
        effect = choice.get("effect")
        pending = rec.seat(seat).pending
        if not isinstance(effect, str) or effect not in pending[-1]:
            raise RuleViolation(
                "effect_not_pending",
                f"{effect!r} is not an effect waiting for your choice; resolve one of "
                f"{pending[-1]} first.",
            )
        kind = self.layout.elements[effect]["kind"]
        action = choice.get("action")
        if kind == "rocket_activation" and action == "activate":
            arrow = choice.get("arrow")
            if arrow not in self._open_arrows(rec.seat(seat).marks):
                raise RuleViolation(
                    "arrow_not_available",
                    f"{arrow!r} is not the empty arrow of an inactive rocket in an incomplete "
                    "quarter.",
                )
            self._resolve(rec, seat, effect, outcome="activated", target=arrow)
            rec.emit("mark", seat, element=arrow, mark="fill")
        elif kind == "building" and action == "build":
            space = choice.get("space")
            if space not in self.layout.spaces:
                raise RuleViolation("unknown_space", f"{space!r} is not a space of this sheet.")
            if space in rec.seat(seat).marks:
                raise RuleViolation("space_not_empty", f"Space {space} is already filled.")
            self._resolve(rec, seat, effect, outcome="built", target=space)
            rec.emit("mark", seat, element=space, mark=X)
            self._after_fill(rec, seat, space)
            return
        elif kind == "building" and action == "skip":
            self._resolve(rec, seat, effect, outcome="skipped", target=None)
        elif kind == "rocket_activation" and action == "skip":
            raise RuleViolation(
                "effect_not_optional", "A rocket activation must be used while an arrow is open."
            )
        else:
            raise RuleViolation(
                "illegal_choice", f"{action!r} does not resolve {effect}: see the options."
            )
        self._settle(rec, seat)

    # --- rockets ---------------------------------------------------------------------------

    def cross_rockets(self, rec: Recorder, seat: int, units: int) -> None:
        """Cross ``units`` rockets: the column first, then circled errors, then tie-breaks."""
        for _ in range(units):
            marks = rec.seat(seat).marks
            rocket = next((r for r in self.layout.column_rockets if r not in marks), None)
            if rocket is not None:
                rec.emit("mark", seat, element=rocket, mark="cross")
                score_box = self.layout.score_box_after.get(rocket)
                if score_box is not None:
                    rec.emit("mark", seat, element=score_box, mark="cross")
                continue
            error = next((b for b in rec.seat(seat).error_boxes if marks.get(b) == "circle"), None)
            if error is not None:
                rec.emit("mark", seat, element=error, mark="cross")
                continue
            tiebreak = next((t for t in self.layout.tiebreak_rockets if t not in marks), None)
            if tiebreak is not None:
                rec.emit("mark", seat, element=tiebreak, mark="cross")

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
                free = self._free_error_boxes(state.seats[index])
                if free:
                    rec.emit("system_error", index, box=free[0], cause=symbol)
            for index in range(state.players):
                rec.emit("mark", index, element=symbol, mark="cross")

    def _free_error_boxes(self, seat: SeatState) -> list[str]:
        return [box for box in seat.error_boxes if box not in seat.marks]

    # --- phase 6: missions -----------------------------------------------------------------

    def mission_holds(self, state: GameState, seat: int, card: int) -> bool:
        sheet = state.seats[seat]
        marks = sheet.marks
        if card in FLOORS_TO_FILL:
            return all(
                all_filled(marks, self.layout.floors[floor]["spaces"])
                for floor in FLOORS_TO_FILL[card]
            )
        if card == MISSION_ALL_BUILDINGS:
            return sum(1 for space in self.layout.spaces if marks.get(space) == X) >= X_NEEDED
        if card == MISSION_UNCROSSED_ERRORS:
            return self._uncrossed_errors(sheet.error_boxes, marks) >= UNCROSSED_ERRORS_NEEDED
        raise ValueError(f"card {card} is not an adventure 1 mission")

    def reward_mission(self, rec: Recorder, seat: int, value: int) -> None:
        self.cross_rockets(rec, seat, value)

    # --- end of game and scoring -----------------------------------------------------------

    def end_reasons(self, state: GameState) -> list[dict[str, Any]]:
        reasons = []
        launched = [i for i, seat in enumerate(state.seats) if self._launched(seat, seat.marks)]
        if launched:
            reasons.append({"reason": "launch", "seats": launched})
        return reasons + standard_end_reasons(state, spaces=self.layout.spaces)

    def _launched(self, seat: SeatState, marks: Marks) -> bool:
        return (
            all(rocket in marks for rocket in self.layout.column_rockets)
            and self._uncrossed_errors(seat.error_boxes, marks) == 0
        )

    @staticmethod
    def _uncrossed_errors(boxes: tuple[str, ...], marks: Marks) -> int:
        return sum(1 for box in boxes if marks.get(box) == "circle")

    def seat_score(self, state: GameState, seat: int, *, marks: Marks) -> dict[str, Any]:
        sheet = state.seats[seat]
        rockets = sum(1 for rocket in self.layout.column_rockets if rocket in marks)
        column_value = max(v for at_least, v in self.layout.value_by_rockets if rockets >= at_least)
        uncrossed = self._uncrossed_errors(sheet.error_boxes, marks)
        penalty = uncrossed * self.layout.penalty_per_error
        return {
            "rockets": rockets,
            "column_value": column_value,
            "errors_circled": sum(1 for box in sheet.error_boxes if box in marks),
            "errors_uncrossed": uncrossed,
            "error_penalty": -penalty,
            "tiebreak_rockets": sum(1 for t in self.layout.tiebreak_rockets if t in marks),
            "launched": self._launched(sheet, marks),
            "campaign": sheet.bonus_points,
            "total": column_value - penalty + sheet.bonus_points,
        }

    def standings(self, state: GameState) -> dict[str, Any]:
        """Launchers first (more tie-break rockets ahead), then by score, then fewer errors
        circled (crossed off or not, see D3), then shared positions."""
        scores = [
            self.seat_score(state, seat, marks=state.seats[seat].marks)
            for seat in range(state.players)
        ]
        keys = [
            (
                0 if s["launched"] else 1,
                -s["tiebreak_rockets"] if s["launched"] else 0,
                -s["total"],
                s["errors_circled"],
            )
            for s in scores
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
        return [tuple(floor["spaces"]) for floor in self.layout.floors.values()]

    def derived(self, state: GameState, seat: int, *, marks: Marks) -> dict[str, Any]:
        return {
            "complete_quarters": [
                quarter
                for quarter, layout in self.layout.quarters.items()
                if all_filled(marks, layout["spaces"])
            ],
            "open_arrows": self._open_arrows(marks),
        }


def _floor_name(floor: str) -> str:
    return f"floor {floor.removeprefix('f')}"
