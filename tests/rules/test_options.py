"""Options listed by groups behave as the list of every option, in order, and make an option
only when it is read."""

import random
from typing import cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rules.common.options import Options


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
