"""Adventure 7 shorthands on top of ``tests.rules.playing``: moves by keyword, and sheets."""

from collections.abc import Iterable, Mapping
from typing import Any

from games.rules.adventures.escape.rules import EscapeRules
from games.rules.core.events import Recorder
from games.rules.core.sheet import Mark, Marks
from games.rules.engine import Event, GameState
from tests.rules import playing
from tests.rules.playing import circled, crossed, reveal, send, set_sheet, start_game

RULES = EscapeRules()
LAYOUT = RULES.layout


def game(
    players: int = 1,
    *,
    seed: int = 7,
    missions: Mapping[str, int] | None = None,
    sheet: Mapping[str, Mark] | None = None,
) -> GameState:
    """A freshly started Adventure 7 game, every seat given ``sheet`` when one is named."""
    return start_game(7, players, seed=seed, missions=missions, sheet=sheet)


def escape(
    filled: Mapping[str, Iterable[int]] | None = None,
    *,
    numbers: Mapping[str, Mark] | None = None,
    airlocks: Iterable[str] = (),
    marks: Mapping[str, Mark] | None = None,
) -> Marks:
    """A sheet: the printed plants and reactors, X's in the spaces ``filled`` names by ship and
    position (``{"ship1": range(1, 10)}``), ``numbers`` by space, airlocks activated by short
    code (``"1A-2A"``) and any other ``marks``."""
    sheet: Marks = dict(LAYOUT.printed_marks)
    for ship, positions in (filled or {}).items():
        sheet.update({f"{ship}.s{position}": "X" for position in positions})
    sheet.update(numbers or {})
    sheet.update({f"airlock.{code}": "line" for code in airlocks})
    sheet.update(marks or {})
    return sheet


def reactors(ship: int, count: int) -> Marks:
    """The first ``count`` reactors of a ship circled (the printed ones come first)."""
    return circled(*(f"reactor.{ship}.{k}" for k in range(1, count + 1)))


def plants(ship: int, count: int) -> Marks:
    """The first ``count`` plants of a ship's greenhouse circled (the printed ones first)."""
    return circled(*(f"plant.{ship}.{k}" for k in range(1, count + 1)))


def boxes(prefix: str, count: int, mark: str = "cross") -> Marks:
    """The first ``count`` boxes ``prefix``1, ``prefix``2... marked."""
    return {f"{prefix}{k}": mark for k in range(1, count + 1)}


def move(state: GameState, seat: int, **choice: Any) -> list[Event]:
    return playing.move(state, seat, choice)


def refused(state: GameState, seat: int, **choice: Any) -> str:
    return playing.refused(state, seat, choice)


def write(state: GameState, seat: int, combination: int, space: str, number: int | None = None,
          **extra: Any) -> list[Event]:  # fmt: skip
    """Write a combination's number (its own unless given) in ``space``."""
    if number is None:
        number = state.combinations[combination].number
    return move(state, seat, action="write", combination=combination, space=space, number=number, **extra)


def activate(state: GameState, seat: int, effect: str, airlock: str) -> list[Event]:
    return move(state, seat, action="robot", effect=effect, airlock=f"airlock.{airlock}")


def phase_5(state: GameState) -> GameState:
    """Run the race as the end of a turn does."""
    rec = Recorder(state)
    RULES.incidents(rec)
    return rec.state


def score(state: GameState, seat: int = 0) -> dict[str, Any]:
    return playing.score(state, seat)


def derived(state: GameState, seat: int = 0) -> dict[str, Any]:
    sheet = state.sheets[seat]
    return RULES.derived(state, sheet, marks=sheet.marks)


def score_of(marks: Marks, players: int = 1) -> dict[str, Any]:
    """The score of a sheet given whole (missions included), in a game of its own."""
    state = game(players, sheet=marks)
    return score(state)


__all__ = [
    "LAYOUT", "RULES", "activate", "boxes", "circled", "crossed", "derived", "escape", "game",
    "move", "phase_5", "plants", "reactors", "refused", "reveal", "score", "score_of", "send",
    "set_sheet", "write",
]  # fmt: skip
