"""Adventure 4 shorthands on top of ``tests.rules.playing``: moves by keyword, and sheets."""

from collections.abc import Mapping
from typing import Any

from games.rules.adventures.mine.rules import MineRules
from games.rules.core.events import Recorder
from games.rules.core.sheet import Mark, Marks
from games.rules.engine import Event, GameState
from tests.rules import playing
from tests.rules.playing import circled, crossed, reveal, send, set_sheet, start_game

RULES = MineRules()
LAYOUT = RULES.layout


def game(
    players: int = 1,
    *,
    seed: int = 4,
    missions: Mapping[str, int] | None = None,
    sheet: Mapping[str, Mark] | None = None,
) -> GameState:
    """A freshly started Adventure 4 game, every seat given ``sheet`` when one is named."""
    return start_game(4, players, seed=seed, missions=missions, sheet=sheet)


def mine(levels: Mapping[str, Mapping[str, int | str]]) -> Marks:
    """Marks of filled cavities (``{"level1": {"c01": 1, "c03": "X"}}``), minerals circled."""
    marks: Marks = {}
    for level, spaces in levels.items():
        for column, value in spaces.items():
            space = f"{level}.{column}"
            marks[space] = value
            mineral = LAYOUT.spaces[space]["mineral_element"]
            if mineral is not None:
                marks[mineral] = "circle"
    return marks


def move(state: GameState, seat: int, **choice: Any) -> list[Event]:
    return playing.move(state, seat, choice)


def refused(state: GameState, seat: int, **choice: Any) -> str:
    return playing.refused(state, seat, choice)


def phase_5(state: GameState) -> GameState:
    """Run the extraction and the races as the end of a turn does."""
    rec = Recorder(state)
    RULES.incidents(rec)
    return rec.state


def score(state: GameState, seat: int = 0) -> dict[str, Any]:
    return playing.score(state, seat)


__all__ = [
    "LAYOUT", "RULES", "circled", "crossed", "game", "mine", "move", "phase_5", "refused",
    "reveal", "score", "send", "set_sheet",
]  # fmt: skip
