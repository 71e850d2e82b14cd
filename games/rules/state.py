"""The state of a game, as rebuilt by folding its events."""

from dataclasses import dataclass, field
from typing import Any

from games.rules.cards import Combination, Stack
from games.rules.sheet import Marks


@dataclass
class SeatState:
    """One player's sheet and where they are in the current turn."""

    marks: Marks
    error_boxes: tuple[str, ...]
    bonus_points: int = 0
    # The current turn: what was chosen ("write" or "system_error"), effects waiting for a
    # choice (a stack of frames, resolved depth-first), sabotages triggered, confirmation.
    chosen: str | None = None
    # The data of this turn's number_written event (combination, space, number, and what
    # else the adventure records with the pick), for the steps that follow it.
    turn_choice: dict[str, Any] = field(default_factory=dict)
    pending: list[list[str]] = field(default_factory=list)
    triggered: list[str] = field(default_factory=list)
    confirmed: bool = False
    # The sheet as it was when the turn began, restored by an undo.
    turn_start_marks: Marks = field(default_factory=dict)

    def copy(self) -> "SeatState":
        return SeatState(
            marks=dict(self.marks),
            error_boxes=self.error_boxes,
            bonus_points=self.bonus_points,
            chosen=self.chosen,
            turn_choice=self.turn_choice,
            pending=[list(frame) for frame in self.pending],
            triggered=list(self.triggered),
            confirmed=self.confirmed,
            turn_start_marks=self.turn_start_marks,
        )


@dataclass
class GameState:
    """Everything the rules need to know about a game after some events."""

    adventure: int = 0
    players: int = 0
    seed: int = 0
    missions: dict[str, int] = field(default_factory=dict)
    flipped_missions: set[str] = field(default_factory=set)
    turn: int = 0
    combinations: list[Combination] = field(default_factory=list)
    stacks: list[Stack] = field(default_factory=list)
    seats: list[SeatState] = field(default_factory=list)
    status: str = "new"  # new -> playing -> ended -> finished
    end: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    events_applied: int = 0

    def copy(self) -> "GameState":
        return GameState(
            adventure=self.adventure,
            players=self.players,
            seed=self.seed,
            missions=dict(self.missions),
            flipped_missions=set(self.flipped_missions),
            turn=self.turn,
            combinations=list(self.combinations),
            stacks=[stack.copy() for stack in self.stacks],
            seats=[seat.copy() for seat in self.seats],
            status=self.status,
            end=self.end,
            result=self.result,
            events_applied=self.events_applied,
        )
