"""Options listed by groups behave as the list of every option, in order, and make an option
only when it is read; every option listed has one of the shapes the engine declares."""

import random
from functools import cache
from types import UnionType
from typing import Any, Literal, cast, get_args, get_origin, get_type_hints

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rules import engine
from games.rules.common.options import Options
from games.rules.engine import PLAYABLE, GameState, bots


def spaces_of(number: int, spaces: list[str]) -> tuple:
    return (lambda space: {"action": "write", "number": number, "space": space}, spaces)


def made_counting(calls: list[str]) -> tuple:
    def make(space: str) -> dict:
        calls.append(space)
        return {"space": space}

    return make, ["a", "b", "c"]


def test_options_read_as_the_list_of_every_option_in_group_order() -> None:
    options = Options([spaces_of(3, ["s1", "s2"]), spaces_of(5, []), spaces_of(7, ["s9"])])
    expected = [
        {"action": "write", "number": 3, "space": "s1"},
        {"action": "write", "number": 3, "space": "s2"},
        {"action": "write", "number": 7, "space": "s9"},
    ]
    assert len(options) == 3 and list(options) == expected and options == expected
    assert expected == options
    assert options[2] == expected[2] and options[-1] == expected[2] and options[1:] == expected[1:]
    assert {"action": "write", "number": 3, "space": "s2"} in options
    assert {"action": "write", "number": 5, "space": "s2"} not in options
    more = Options([spaces_of(1, ["s4"])])
    assert options + more == [*expected, {"action": "write", "number": 1, "space": "s4"}]
    with pytest.raises(IndexError):
        options[3]
    assert not Options([spaces_of(4, [])]) and Options() == []


def test_an_option_is_made_when_read_and_once() -> None:
    calls: list[str] = []
    options = Options([made_counting(calls)])
    picked = cast(dict[str, str], random.Random(2).choice(options))
    assert calls == [picked["space"]]
    assert options[["a", "b", "c"].index(picked["space"])] is picked
    assert picked in options and calls == [picked["space"]]  # found by identity, nothing made
    everything = list(options)
    assert len(calls) == 3 and any(option is picked for option in everything)


@given(st.lists(st.lists(st.integers(0, 9), max_size=4), max_size=5), st.data())
def test_any_position_reads_what_the_whole_list_holds(groups: list[list[int]], data: st.DataObject) -> None:
    options = Options([spaces_of(number, [f"s{v}" for v in values]) for number, values in enumerate(groups)])
    whole = [
        {"action": "write", "number": n, "space": f"s{v}"} for n, values in enumerate(groups) for v in values
    ]
    assert len(options) == len(whole)
    if whole:
        index = data.draw(st.integers(-len(whole), len(whole) - 1))
        assert options[index] == whole[index]
    assert list(options) == whole


SHAPES: tuple[Any, ...] = get_args(engine.Option)


@cache
def _fields(shape: Any) -> tuple[frozenset[str], frozenset[str], dict[str, Any]]:
    """A shape's required keys, all its keys, and the type of each."""
    return shape.__required_keys__, shape.__required_keys__ | shape.__optional_keys__, get_type_hints(shape)


def _holds(value: object, hint: Any) -> bool:
    if get_origin(hint) is Literal:
        return value in get_args(hint)
    if isinstance(hint, UnionType):
        return any(_holds(value, member) for member in get_args(hint))
    return type(value) is hint


def _fits(option: dict[str, Any], shape: Any) -> bool:
    required, keys, hints = _fields(shape)
    return required <= option.keys() <= keys and all(_holds(v, hints[k]) for k, v in option.items())


def test_a_choice_names_every_field_an_option_has_and_a_step_names_its_target_by_one() -> None:
    fields = set().union(*(_fields(shape)[1] for shape in SHAPES))
    assert fields <= engine.Choice.__optional_keys__
    assert set(get_args(engine.Target)) <= _fields(engine.StepOption)[1]


@pytest.mark.parametrize("astra_level", [None, 3])
@pytest.mark.parametrize("adventure", sorted(PLAYABLE))
def test_every_option_listed_has_one_of_the_declared_shapes(adventure: int, astra_level: int | None) -> None:
    play = bots.random_bot(random.Random(adventure))

    def checking(state: GameState, seat: int) -> dict[str, Any]:
        for option in engine.options(state, seat).options:
            assert any(_fits(cast(dict[str, Any], option), shape) for shape in SHAPES), option
        return play(state, seat)

    players = 1 if astra_level else max(2, PLAYABLE[adventure].min_players)
    bots.play_game(adventure=adventure, bots=[checking] * players, seed=adventure, astra_level=astra_level)
