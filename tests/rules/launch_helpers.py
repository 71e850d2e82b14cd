"""Adventure 1 shorthands on top of ``tests.rules.playing``: choices and sheets."""

from collections.abc import Iterable, Mapping

from games.rules.adventures.launch.rules import LaunchRules
from games.rules.core.sheet import Marks, X
from games.rules.engine import Event, GameState
from tests.rules import playing
from tests.rules.playing import (
    Choice,
    apply,
    confirm,
    marks_of,
    reveal,
    score,
    set_sheet,
    skip,
    start_game,
    system_error,
    undo,
)

LAUNCH = LaunchRules()
LAYOUT = LAUNCH.layout


def start(players: int, *, seed: int = 1, missions: Mapping[str, int] | None = None) -> GameState:
    """A freshly started Adventure 1 game (turn 1 flipped)."""
    return start_game(1, players, seed=seed, missions=missions)


def move(state: GameState, seat: int, choice: Choice) -> list[Event]:
    """Send one move, as a player would, and apply its events. A write naming no number
    sends the number its combination shows, as the listed option does."""
    if choice.get("action") == "write" and "number" not in choice:
        choice = {**choice, "number": state.combinations[choice["combination"]].number}
    return playing.move(state, seat, choice)


def play_turn(
    state: GameState,
    combinations: Iterable[tuple[int, str]],
    moves: Mapping[int, list[Choice]],
) -> list[Event]:
    """Reveal the combinations, play each seat's moves, then confirm every seat in seat
    order; the last confirmation runs phases 5 and 6, the end check and the next flip."""
    reveal(state, *combinations)
    events: list[Event] = []
    for seat in range(state.players):
        for choice in moves[seat]:
            events += move(state, seat, choice)
    for seat in range(state.players):
        events += confirm(state, seat)
    return events


# --- choices, as the options list them -----------------------------------------------------


def write(combination: int, space: str) -> Choice:
    """Write the number of a combination (filled in by ``move``) in a space."""
    return {"action": "write", "combination": combination, "space": space}


def build(effect: str, space: str) -> Choice:
    return {"action": "build", "effect": effect, "space": space}


def activate(effect: str, arrow: str) -> Choice:
    return {"action": "activate", "effect": effect, "arrow": arrow}


# --- sheets ------------------------------------------------------------------------------


def column(rockets: int) -> Marks:
    """The first ``rockets`` column rockets crossed, with the score box of each line done."""
    marks: Marks = {}
    for rocket in LAYOUT.column_rockets[:rockets]:
        marks[rocket] = "cross"
        if rocket in LAYOUT.score_box_after:
            marks[LAYOUT.score_box_after[rocket]] = "cross"
    return marks


def circled(count: int, *, crossed: int = 0) -> Marks:
    """``count`` System Error boxes circled, the first ``crossed`` of them crossed off."""
    return {
        box: "cross" if index < crossed else "circle"
        for index, box in enumerate(LAYOUT.error_boxes[:count])
    }


def xs(*spaces: str) -> Marks:
    return {space: X for space in spaces}


def floor_spaces(floor: str) -> list[str]:
    return list(LAYOUT.floors[floor]["spaces"])


def numbers(floor: str, *values: int | str | None) -> Marks:
    """A floor written left to right; None leaves a space empty, "X" writes an X."""
    return {
        space: value
        for space, value in zip(floor_spaces(floor), values, strict=False)
        if value is not None
    }


def column_rockets(state: GameState, seat: int) -> int:
    return sum(1 for rocket in LAYOUT.column_rockets if rocket in state.sheets[seat].marks)


def errors(state: GameState, seat: int, mark: str = "circle") -> list[str]:
    """The seat's System Error boxes holding ``mark`` ("circle": circled, not crossed)."""
    return [box for box in LAYOUT.error_boxes if state.sheets[seat].marks.get(box) == mark]


__all__ = [
    "LAUNCH", "LAYOUT", "activate", "apply", "build", "circled", "column", "column_rockets",
    "confirm", "errors", "floor_spaces", "marks_of", "move", "numbers", "play_turn", "reveal",
    "score", "set_sheet", "skip", "start", "system_error", "undo", "write", "xs",
]  # fmt: skip
