"""Malformed choices are refused with a rule code, never crash the engine."""

from typing import cast

import pytest

from games.rules import engine


@pytest.fixture
def state() -> engine.GameState:
    return engine.replay(engine.new_game(adventure=1, players=2, seed=11))


@pytest.mark.parametrize(
    "choice",
    [
        {"action": "write", "combination": 0, "space": {"nested": 1}},
        {"action": "write", "combination": True, "space": "f1.s1"},
        {"action": ["write"]},
        {"action": "write", "combination": 0.5, "space": "f1.s1"},
    ],
)
def test_a_choice_with_non_option_values_is_refused(state: engine.GameState, choice: dict) -> None:
    with pytest.raises(engine.RuleViolation) as refused:
        engine.decide(state, 0, {"type": "move", "choice": choice})
    assert refused.value.code == "invalid_choice"
    assert engine.options(state, 0).kind == "choose"


def test_a_number_other_than_the_combination_is_refused(state: engine.GameState) -> None:
    option = cast(engine.WriteOption, engine.options(state, 0).options[0])
    wrong = {**option, "number": option["number"] + 1}
    with pytest.raises(engine.RuleViolation) as refused:
        engine.decide(state, 0, {"type": "move", "choice": wrong})
    assert refused.value.code == "number_not_in_combination"
