"""Adventure 3 shorthands on top of ``tests.rules.playing``: moves by keyword, and sheets."""

from collections.abc import Mapping
from typing import Any

from games.rules.adventures.colony.rules import ColonyRules
from games.rules.core.sheet import Marks, X
from games.rules.engine import Event, GameState
from tests.rules import playing
from tests.rules.playing import (
    circled,
    confirm,
    confirm_all,
    crossed,
    marks_of,
    options,
    reveal,
    score,
    set_sheet,
    start_game,
)

RULES = ColonyRules()
LAYOUT = RULES.layout

PRINTED = ("(R)", "(O)", "(X)")


def start(players: int, *, seed: int = 3, missions: Mapping[str, int] | None = None) -> GameState:
    """A freshly started Adventure 3 game (turn 1 flipped)."""
    return start_game(3, players, seed=seed, missions=missions)


def move(state: GameState, seat: int, **choice: Any) -> list[Event]:
    """Send one move, as a player would, and apply its events."""
    return playing.move(state, seat, choice)


def refused(state: GameState, seat: int, **choice: Any) -> str:
    """The error code of a move the rules refuse (the state is left unchanged)."""
    return playing.refused(state, seat, choice)


def write(state: GameState, seat: int, combination: int, space: str, number: int) -> list[Event]:
    return move(
        state, seat, action="write", combination=combination, space=space, number=number
    )


def skip(state: GameState, seat: int, step: str) -> list[Event]:
    return move(state, seat, action="skip", effect=step)


# --- sheets ------------------------------------------------------------------------------


def grid(rows: Mapping[int, str]) -> Marks:
    """Numbers by row, left to right: ``{6: "10 12 14 . . (O)"}``. ``.`` is empty, ``X`` a
    player's X, ``(R)``, ``(O)``, ``(X)`` the printed buildings (never marks)."""
    marks: Marks = {}
    for row, line in rows.items():
        cells = line.split()
        assert len(cells) == LAYOUT.raw["grid"]["cols"], line
        for col, cell in enumerate(cells, start=1):
            building = f"bld.r{row}c{col}"
            if cell in PRINTED:
                assert building in LAYOUT.prenumbered, building
            elif cell == X:
                marks[building] = X
            elif cell != ".":
                marks[building] = int(cell)
    return marks


def diagonal_sheet(xs: int = 0) -> Marks:
    """Every space numbered row + column (ascending both ways), the first ``xs`` spaces
    (in data order) holding an X instead."""
    marks: Marks = {}
    for index, (space, raw) in enumerate(LAYOUT.spaces.items()):
        marks[space] = X if index < xs else raw["row"] + raw["col"]
    return marks


def everything_x(*, but: tuple[str, ...] = ()) -> Marks:
    """Every space holding an X except those named."""
    return {space: X for space in LAYOUT.spaces if space not in but}


def tunnels(*segments: str) -> Marks:
    """Drawn tunnels, named without the prefix: ``tunnels("r2c1-r3c1")``."""
    return {f"tunnel.{segment}": "line" for segment in segments}


def boxes(track: str, count: int) -> Marks:
    """The first ``count`` boxes of a track crossed."""
    return {box: "cross" for box in LAYOUT.tracks[track].boxes[:count]}


def astronauts(count: int) -> Marks:
    return {symbol: "cross" for symbol in LAYOUT.astronaut_symbols[:count]}


def errors(count: int) -> Marks:
    """System Error boxes marked as the engine marks them."""
    return {box: "circle" for box in LAYOUT.error_boxes[:count]}


def with_antennas(marks: Marks) -> Marks:
    """The sheet with every antenna its network reaches circled, as the reactions leave it."""
    return {**marks, **circled(*RULES.antennas_to_circle(marks))}




__all__ = [
    "LAYOUT", "PRINTED", "RULES", "astronauts", "boxes", "circled", "confirm", "confirm_all",
    "crossed", "diagonal_sheet", "errors", "everything_x", "grid", "marks_of", "move", "options",
    "refused", "reveal", "score", "set_sheet", "skip", "start", "tunnels", "with_antennas",
    "write",
]  # fmt: skip
