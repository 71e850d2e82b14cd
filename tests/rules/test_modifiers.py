"""Per-seat setup modifiers, as campaign cards will use them, on every playable adventure."""

from typing import Any

import pytest

from games.rules import engine
from games.rules.adventures import PLAYABLE


def start(adventure: int, modifiers: dict) -> engine.GameState:
    return engine.replay(
        engine.new_game(adventure=adventure, players=2, seed=3, modifiers=modifiers)
    )


def own_error_boxes(state: engine.GameState, seat: int) -> list[str]:
    """The System Error boxes a seat may mark, over every sheet it plays (a shared sheet's
    boxes are named for the side they belong to: ``S.error.e1``)."""
    boxes = []
    for index in state.seats[seat].sheets:
        sheet = state.sheets[index]
        side = next((side for side, owner in sheet.sides.items() if owner == seat), "")
        boxes += [box for box in sheet.error_boxes if box.startswith(side)]
    return boxes


@pytest.mark.parametrize("adventure", sorted(PLAYABLE))
def test_bonus_points_and_fewer_error_boxes_apply_to_their_seat_only(adventure: int) -> None:
    state = start(
        adventure,
        {1: [{"kind": "bonus_points", "points": 7}, {"kind": "system_errors", "delta": -1}]},
    )
    sheets = len(state.seats[1].sheets)
    assert len(own_error_boxes(state, 1)) == len(own_error_boxes(state, 0)) - sheets
    assert state.home_sheet(1).bonus_points == 7
    assert state.home_sheet(0).bonus_points == 0
    rules = PLAYABLE[adventure]
    assert rules.seat_score(state, 1)["total"] == rules.seat_score(state, 0)["total"] + 7


@pytest.mark.parametrize("adventure", sorted(PLAYABLE))
@pytest.mark.parametrize(
    "modifier",
    [
        {"kind": "teleport"},
        {"kind": "bonus_points", "points": "many"},
        {"kind": "bonus_points", "points": True},
        {"kind": "system_errors", "delta": 1},
        {"kind": "start_marks", "marks": [{"element": "nowhere.at.all", "mark": "X"}]},
        {"kind": "start_marks", "marks": "X everywhere"},
        "not an object",
    ],
)
def test_a_modifier_the_sheet_cannot_take_is_refused(adventure: int, modifier: Any) -> None:
    with pytest.raises(engine.RuleViolation) as refused:
        engine.new_game(adventure=adventure, players=2, seed=3, modifiers={0: [modifier]})
    assert refused.value.code == "invalid_modifier"


def test_a_starting_x_counts_as_filled_and_is_no_number() -> None:
    state = start(1, {0: [{"kind": "start_marks", "marks": [{"element": "f9.s2", "mark": "X"}]}]})
    assert state.sheets[0].marks["f9.s2"] == "X"
    with pytest.raises(engine.RuleViolation) as refused:
        engine.new_game(
            adventure=1,
            players=1,
            seed=3,
            modifiers={0: [{"kind": "start_marks", "marks": [{"element": "f9.s2", "mark": 7}]}]},
        )
    assert refused.value.code == "invalid_modifier"


def test_modifiers_for_a_seat_outside_the_game_are_refused() -> None:
    with pytest.raises(engine.RuleViolation) as refused:
        engine.new_game(adventure=1, players=2, seed=3, modifiers={5: []})
    assert refused.value.code == "invalid_modifier"
