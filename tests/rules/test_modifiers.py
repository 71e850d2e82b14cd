"""Per-seat setup modifiers, as campaign cards will use them, on every playable adventure."""

from typing import Any

import pytest

from games.rules import engine
from games.rules.adventures import PLAYABLE


def start(adventure: int, modifiers: dict) -> engine.GameState:
    return engine.replay(
        engine.new_game(adventure=adventure, players=2, seed=3, modifiers=modifiers)
    )


@pytest.mark.parametrize("adventure", sorted(PLAYABLE))
def test_bonus_points_and_fewer_error_boxes_apply_to_their_seat_only(adventure: int) -> None:
    state = start(
        adventure,
        {1: [{"kind": "bonus_points", "points": 7}, {"kind": "system_errors", "delta": -1}]},
    )
    printed = len(state.sheets[0].error_boxes)
    assert len(state.sheets[1].error_boxes) == printed - 1
    assert state.sheets[1].bonus_points == 7
    assert state.sheets[0].bonus_points == 0
    mine = engine.sheet_view(state, 1, viewer=1)["score"]["total"]
    theirs = engine.sheet_view(state, 0, viewer=0)["score"]["total"]
    assert mine == theirs + 7


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
