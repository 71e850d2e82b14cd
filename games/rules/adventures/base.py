"""What an adventure module provides to the common turn."""

from typing import Any, Protocol

from games.rules.events import Recorder
from games.rules.state import GameState, SeatState

Option = dict[str, Any]


class AdventureRules(Protocol):
    number: int
    key: str
    name: str

    def new_seat(self, modifiers: list[dict[str, Any]]) -> SeatState:
        """A blank sheet with the seat's setup modifiers applied."""

    def validate_modifiers(self, modifiers: list[dict[str, Any]]) -> None:
        """Raise RuleViolation for a modifier this adventure cannot apply."""

    def choice_options(self, state: GameState, seat: int) -> list[Option]:
        """Phases 2-3: every legal pick of a combination and where its number goes."""

    def play_write(self, rec: Recorder, seat: int, choice: Option) -> None:
        """Check and record a pick: a combination and where its number goes."""

    def play_system_error(self, rec: Recorder, seat: int, choice: Option) -> None:
        """Check and record a System Error taken because no number can be written."""

    def effect_options(self, state: GameState, seat: int) -> list[Option]:
        """Every legal choice for the effect(s) waiting on top of the seat's stack."""

    def play_effect(self, rec: Recorder, seat: int, choice: Option) -> None:
        """Check and record the resolution of a waiting effect."""

    def incidents(self, rec: Recorder) -> None:
        """Phase 5, for all seats at once."""

    def mission_holds(self, state: GameState, seat: int, card: int) -> bool:
        """Whether the seat's sheet meets the mission's condition now."""

    def reward_mission(self, rec: Recorder, seat: int, value: int) -> None:
        """Give the mission reward beyond writing it in the mission box."""

    def end_reasons(self, state: GameState) -> list[dict[str, Any]]:
        """The end conditions met at the end of this turn (empty: the game goes on)."""

    def seat_score(self, state: GameState, seat: int, *, marks: dict[str, Any]) -> dict[str, Any]:
        """The live score breakdown of one sheet, with ``total``."""

    def standings(self, state: GameState) -> dict[str, Any]:
        """Final scores with breakdowns and ranks, and the winning seats."""

    def numbering_zones(self, marks: dict[str, Any]) -> list[tuple[str, ...]]:
        """The zones in which numbers must ascend now, each as its spaces in order."""

    def derived(self, state: GameState, seat: int, *, marks: dict[str, Any]) -> dict[str, Any]:
        """What a front end needs to draw that is not a mark (complete zones, ...)."""
