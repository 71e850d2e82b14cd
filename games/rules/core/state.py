"""The state of a game, as rebuilt by folding its events.

Sheets are not seats. The state holds sheets by id; a seat plays on one sheet in adventures 1-7
(its sheet id is its seat number) and on the two sheets beside it in adventure 8, one a turn in
rotation: its left sheet (where it owns side S and its missions are written) in odd turns, its
right sheet (side N) in even turns. ASTRA, the solo opponent, is an actor with its own state and
no seat.

Copies for a command are cheap: ``GameState.shared_copy`` shares every sheet and seat with the
original, and whoever changes the copy first takes its own copy of the sheet or seat it changes
(see ``events.Recorder``).
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from games.rules.core.cards import Combination, Stack
from games.rules.core.sheet import Marks

T = TypeVar("T")


def _clone(original: T, **changes: Any) -> T:
    """A shallow copy of a state object with some fields replaced (``dataclasses.replace``
    without its checks: copies are made on every command)."""
    clone = object.__new__(type(original))
    clone.__dict__.update(original.__dict__, **changes)
    return clone


@dataclass
class Sheet:
    """One sheet: its marks, its System Error boxes and the seats that play on it."""

    id: int
    seats: tuple[int, ...]
    marks: Marks
    error_boxes: tuple[str, ...]
    bonus_points: int = 0
    # The seat owning each side of a shared sheet (adventure 8: "S", the mission side, and
    # "N"; in solo ASTRA, "astra", owns side N); empty for a sheet of one seat.
    sides: dict[str, int | str] = field(default_factory=dict)
    # The sheet as it was when the turn began: what other seats see while a turn is played,
    # and what an undo restores.
    turn_start_marks: Marks = field(default_factory=dict)

    def copy(self) -> "Sheet":
        return _clone(self, marks=dict(self.marks))

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> "Sheet":
        """A sheet from its data: as the opening event sets it up (its marks are then what the
        other seats see while the setup's choices are made) or as a snapshot keeps it."""
        return cls(
            id=data["id"],
            seats=tuple(data["seats"]),
            marks=dict(data["marks"]),
            error_boxes=tuple(data["error_boxes"]),
            bonus_points=data["bonus_points"],
            sides=dict(data.get("sides", {})),
            turn_start_marks=dict(data.get("turn_start_marks", data["marks"])),
        )


@dataclass
class SeatState:
    """One player: the sheets they play on and where they are in the current turn."""

    sheets: tuple[int, ...]
    # The sheet played this turn (adventure 8 alternates between the two).
    sheet: int = 0
    # The current turn: what was chosen ("write" or "system_error"), effects waiting for a
    # choice (a stack of frames, resolved depth-first), sabotages triggered, confirmation.
    chosen: str | None = None
    # The data of this turn's number_written event (combination, space, number, and what
    # else the adventure records with the pick), for the steps that follow it.
    turn_choice: dict[str, Any] = field(default_factory=dict)
    pending: list[list[str]] = field(default_factory=list)
    triggered: list[str] = field(default_factory=list)
    confirmed: bool = False
    # Phase 6: the missions this seat may claim now, and those it has claimed this turn.
    claimable: tuple[str, ...] = ()
    claimed: tuple[str, ...] = ()
    # Handed to a bot for the rest of the game (its player resigned, or was absent too long).
    resigned: bool = False

    def copy(self) -> "SeatState":
        return _clone(
            self, pending=[list(frame) for frame in self.pending], triggered=list(self.triggered)
        )


@dataclass
class AstraState:
    """ASTRA, the solo opponent: its opponent card (level, name, multipliers), its adventure
    card's points, its pile of cards by action, its bonuses, and the solo deck it draws from.

    The deck (top card first) is derived from the seed and never shown; ``hand`` holds the
    starship cards drawn for the turn, ``effect`` an Effect card drawn whose target the player
    is choosing, ``placed`` whether ASTRA played its own card of the round (adventure 8),
    ``given`` the card the player leaves over this turn (``removing`` when a circled bonus
    takes it out of the game instead).
    """

    level: int
    bonus_boxes: int
    name: str = ""
    multipliers: dict[str, int] = field(default_factory=dict)
    fixed_points: int | None = None
    points_per_level: int | None = None
    pile: dict[str, int] = field(default_factory=dict)
    bonuses_circled: int = 0
    bonuses_used: int = 0
    deck_pass: int = 1
    deck: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    hand: list[int] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    effect: int | None = None
    # Adventure 8: whether ASTRA has played its own card of the round on the sheets (it is the
    # first card of the hand, drawn before the two others).
    placed: bool = False
    given: int | None = None
    removing: bool = False
    # The bonuses circled when the turn began: what an undo returns to.
    turn_start_bonuses: int = 0

    def copy(self) -> "AstraState":
        return _clone(
            self,
            multipliers=dict(self.multipliers),
            pile=dict(self.pile),
            deck=list(self.deck),
            discard=list(self.discard),
            hand=list(self.hand),
            removed=list(self.removed),
        )


# Phases of a turn as the state records them: the seats play phases 2-4 ("actions"), then,
# when a mission can be claimed, the seats concerned choose whether to claim it ("missions").
# Some sheets ask for choices outside a seat's own turn: before the first turn ("setup", the
# Virus's grey virus) and in phase 5 ("incidents", where a Virus infects); the seats asked
# resolve their waiting steps while the others wait.
ACTIONS_PHASE = "actions"
MISSIONS_PHASE = "missions"
SETUP_PHASE = "setup"
INCIDENTS_PHASE = "incidents"
AWAITING_PHASES = frozenset({SETUP_PHASE, INCIDENTS_PHASE})


@dataclass
class GameState:
    """Everything the rules need to know about a game after some events."""

    adventure: int = 0
    players: int = 0
    seed: int = 0
    missions: dict[str, int] = field(default_factory=dict)
    mission_values: dict[str, dict[str, int]] = field(default_factory=dict)
    flipped_missions: set[str] = field(default_factory=set)
    # The turn each flipped mission flipped in: claims in a later phase 6 of that same turn
    # (Adventure 6 runs phases 5 and 6 again) still get the high value.
    flipped_on: dict[str, int] = field(default_factory=dict)
    turn: int = 0
    phase: str = ACTIONS_PHASE
    combinations: list[Combination] = field(default_factory=list)
    stacks: list[Stack] = field(default_factory=list)
    sheets: list[Sheet] = field(default_factory=list)
    seats: list[SeatState] = field(default_factory=list)
    astra: AstraState | None = None
    status: str = "new"  # new -> playing -> ended -> finished
    end: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    events_applied: int = 0
    # What ``turn.options`` worked out for each seat, with the ``events_applied`` it was
    # worked out at: a cache, never part of what the events decide.
    decisions: dict[int, tuple[int, Any]] = field(default_factory=dict, compare=False, repr=False)

    def sheet_of(self, seat: int) -> Sheet:
        """The sheet ``seat`` plays this turn."""
        return self.sheets[self.seats[seat].sheet]

    def playing_on(self, sheet: int) -> int | None:
        """The seat playing ``sheet`` this turn (adventure 8: one of its two owners), if any."""
        return next((index for index, seat in enumerate(self.seats) if seat.sheet == sheet), None)

    def home_sheet(self, seat: int) -> Sheet:
        """The sheet where ``seat``'s missions are written: its first (its only one in
        adventures 1-7, its left sheet in adventure 8)."""
        return self.sheets[self.seats[seat].sheets[0]]

    def copy(self) -> "GameState":
        """An independent copy: changing either never changes the other."""
        return _clone(
            self.shared_copy(),
            sheets=[sheet.copy() for sheet in self.sheets],
            seats=[seat.copy() for seat in self.seats],
            stacks=[stack.copy() for stack in self.stacks],
            astra=self.astra.copy() if self.astra is not None else None,
        )

    def shared_copy(self) -> "GameState":
        """A copy sharing its sheets, seats, stacks and ASTRA with this state: whoever changes
        it replaces what it changes first (``events.Recorder`` does)."""
        return _clone(
            self,
            flipped_missions=set(self.flipped_missions),
            flipped_on=dict(self.flipped_on),
            sheets=list(self.sheets),
            seats=list(self.seats),
            stacks=list(self.stacks),
            decisions={},
        )
