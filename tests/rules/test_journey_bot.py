"""The greedy bot on the Journey weighs the room left to write (``JourneyRules.prospects``)."""

import random

import pytest

from games.rules.engine import GameState
from games.rules.play import bots
from tests.rules.journey_helpers import (
    RULES,
    fill,
    move,
    reveal,
    set_sheet,
    start,
    trajectory,
    use,
    write,
)

# s03 and s04 lie between 2 and 3: no number fits them while they share a zone. A wall just
# before, between or just after them lets them take numbers again; any other wall frees none.
FREEING_WALLS = {"wall.02", "wall.03", "wall.04"}


def _wall_due() -> GameState:
    """One seat owing a wall, its trajectory stuck: s01 and s36 empty (no cut completes a
    zone, so every wall scores alike), s02=2, s05=3, Xs from s06 to s34, then it writes 10 in s35."""
    state = start(1)
    set_sheet(state, 0, trajectory(s02=2, s05=3), fill(*range(6, 35)))
    reveal(state, (10, "energy"), (11, "robot"), (12, "robot"))
    move(state, 0, write(0, "traj.s35", 10))
    move(state, 0, use("action.energy"))
    return state


def test_a_wall_that_frees_stuck_spaces_leaves_more_room() -> None:
    state = _wall_due()
    sheet = state.sheets[0]
    stuck = RULES.prospects(state, sheet, sheet.marks)
    assert RULES.prospects(state, sheet, {**sheet.marks, "wall.03": "line"}) > stuck
    assert RULES.prospects(state, sheet, {**sheet.marks, "wall.20": "line"}) == stuck


@pytest.mark.parametrize("seed", range(5))
def test_the_greedy_bot_draws_the_wall_that_frees_stuck_spaces(seed: int) -> None:
    command = bots.greedy_bot(random.Random(seed))(_wall_due(), 0)
    assert command["choice"]["action"] == "wall"
    assert command["choice"]["wall"] in FREEING_WALLS
