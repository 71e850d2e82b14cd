"""Adventure 5 shorthands on top of ``tests.rules.playing``: moves by keyword, and sheets built
area by area."""

from collections.abc import Iterable, Mapping
from typing import Any

from games.rules.adventures.dome.rules import BUILT, DomeRules
from games.rules.core.events import Recorder
from games.rules.core.sheet import Mark, Marks
from games.rules.engine import Event, GameState
from tests.rules import playing
from tests.rules.playing import circled, crossed, reveal, send, set_sheet, start_game

RULES = DomeRules()
LAYOUT = RULES.layout


def game(
    players: int = 1,
    *,
    seed: int = 5,
    missions: Mapping[str, int] | None = None,
    sheet: Mapping[str, Mark] | None = None,
) -> GameState:
    """A freshly started Adventure 5 game, every seat given ``sheet`` when one is named."""
    return start_game(5, players, seed=seed, missions=missions, sheet=sheet)


def skyscrapers(levels: Mapping[str, Mapping[str, int | str]]) -> Marks:
    """Marked levels, by skyscraper then level: ``{"sk2": {"d1": 6, "u2": "X"}}``."""
    return {f"{zone}.{level}": mark for zone, marks in levels.items() for level, mark in marks.items()}


def tower(circled_by_level: Mapping[str, int]) -> Marks:
    """``n`` circled symbols on each named tower level (``{"u3": 2}``): plants first."""
    marks: Marks = {}
    for level, count in circled_by_level.items():
        marks.update(circled(*LAYOUT.tower_levels[f"tower.{level}"][:count]))
    return marks


def dome(*, split: Iterable[int] = (), built: Iterable[str] = ()) -> Marks:
    """Sections split (by number) and elements built (``"dome.3a"``)."""
    marks: Marks = {f"dome.{section}.split": "line" for section in split}
    marks.update({element: BUILT for element in built})
    return marks


def upgrades(**rows: int) -> Marks:
    """Rows crossed by Energy on each track: ``upgrades(missions=1, dome=2)``."""
    return crossed(*(row for track, count in rows.items() for row in LAYOUT.tracks[track].rows[:count]))


def astronauts(count: int) -> Marks:
    return crossed(*LAYOUT.astronaut_symbols[:count])


def errors(count: int) -> Marks:
    return circled(*LAYOUT.error_boxes[:count])


def stars(**columns: str) -> Marks:
    """Missions accomplished (``A="first"``): the box the common phase 6 fills, and the star."""
    marks: Marks = {f"mission.{letter}": 0 for letter in columns}
    marks.update(circled(*(f"mission.{letter}.{column}" for letter, column in columns.items())))
    return marks


def move(state: GameState, seat: int, **choice: Any) -> list[Event]:
    return playing.move(state, seat, choice)


def refused(state: GameState, seat: int, **choice: Any) -> str:
    return playing.refused(state, seat, choice)


def write(state: GameState, seat: int, combination: int, space: str, number: int | None = None) -> None:
    """Write a combination's number (its own unless given) on a level."""
    if number is None:
        number = state.combinations[combination].number
    move(state, seat, action="write", combination=combination, space=space, number=number)


def phase_5(state: GameState) -> GameState:
    """Run the races as the end of a turn does."""
    rec = Recorder(state)
    RULES.incidents(rec)
    return rec.state


def score(state: GameState, seat: int = 0) -> dict[str, Any]:
    return playing.score(state, seat)


__all__ = [
    "LAYOUT", "RULES", "astronauts", "circled", "crossed", "dome", "errors", "game", "move",
    "phase_5", "refused", "reveal", "score", "send", "set_sheet", "skyscrapers", "stars", "tower",
    "upgrades", "write",
]  # fmt: skip
