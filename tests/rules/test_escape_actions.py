"""The Escape, rule by rule: writing in accessible blocks, each action with a legal and a
refused case, robot spaces and System Errors activating airlocks, wild actions, the x2 race,
missions, end of game and what is derived for a front end."""

from collections.abc import Mapping
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import engine
from games.rules.core.sheet import Marks
from tests.rules import playing
from tests.rules.escape_helpers import (
    LAYOUT,
    RULES,
    activate,
    boxes,
    circled,
    crossed,
    derived,
    escape,
    game,
    move,
    phase_5,
    plants,
    reactors,
    refused,
    reveal,
    score,
    write,
)
from tests.rules.playing import confirm, confirm_all, options, set_sheet, skip, system_error


def pending(state: engine.GameState, seat: int = 0) -> list[list[str]]:
    return state.seats[seat].pending


# --- writing the number --------------------------------------------------------------------


def test_numbers_go_only_in_accessible_blocks_at_first_the_two_bottom_modules() -> None:
    state = game()
    reveal(state, (5, "water"), (9, "plant"), (12, "energy"))
    spaces = {o["space"] for o in options(state, 0)}
    assert spaces == {f"ship1.s{k}" for k in (1, 2, 3, 4, 6, 7, 8, 9)}
    assert refused(state, 0, action="write", combination=0, space="ship2.s1", number=5) == (
        "block_not_accessible"
    )


def test_a_ship_is_one_ascending_zone_accessible_or_not() -> None:
    state = game(sheet=escape(numbers={"ship1.s5": 9}, airlocks=("1A-1G",)))
    reveal(state, (10, "water"), (8, "plant"), (9, "energy"))
    assert refused(state, 0, action="write", combination=0, space="ship1.s4", number=10) == (
        "space_not_ascending"
    )
    assert refused(state, 0, action="write", combination=2, space="ship1.s9", number=9) == (
        "number_already_in_zone"
    )
    assert refused(state, 0, action="write", combination=0, space="ship1.s5", number=10) == (
        "space_not_empty"
    )
    assert refused(state, 0, action="write", combination=0, space="ship7.s1", number=10) == (
        "unknown_space"
    )
    assert refused(state, 0, action="write", combination=0, space="ship1.s6", number=11) == (
        "number_not_in_combination"
    )
    write(state, 0, 0, "ship1.s6")
    assert state.sheets[0].marks["ship1.s6"] == 10


def test_an_x_is_ignored_by_the_order_and_ships_are_separate_zones() -> None:
    state = game(sheet=escape(numbers={"ship1.s1": 12, "ship1.s2": "X"}, airlocks=("1A-2A",)))
    reveal(state, (3, "water"), (9, "plant"), (14, "energy"))
    assert {(o["space"], o["number"]) for o in options(state, 0) if o["space"] == "ship1.s3"} == {
        ("ship1.s3", 14)
    }
    write(state, 0, 0, "ship2.s1")
    assert state.sheets[0].marks["ship2.s1"] == 3


# --- robot: the action, robot spaces, System Errors -----------------------------------------


def test_robot_activates_an_airlock_touching_an_accessible_block() -> None:
    state = game()
    reveal(state, (5, "robot"), (9, "plant"), (12, "energy"))
    write(state, 0, 0, "ship1.s2")
    airlocks = {o["airlock"] for o in options(state, 0) if o["action"] == "robot"}
    assert airlocks == {"airlock.1A-1G", "airlock.1G-1B", "airlock.1A-2A", "airlock.1A-2B", "airlock.1B-2C"}
    assert refused(state, 0, action="robot", effect="action.robot", airlock="airlock.2A-3A") == (
        "airlock_not_reachable"
    )
    assert refused(state, 0, action="robot", effect="action.robot", airlock="airlock.9Z") == (
        "unknown_airlock"
    )
    activate(state, 0, "action.robot", "1A-2B")
    assert state.sheets[0].marks["airlock.1A-2B"] == "line"
    assert "ship2.modB" in derived(state)["accessible_blocks"]


def test_robot_may_activate_an_airlock_between_two_open_blocks_which_opens_nothing() -> None:
    state = game(sheet=escape(airlocks=("1A-1G",)))
    reveal(state, (5, "robot"), (9, "plant"), (12, "energy"))
    write(state, 0, 0, "ship1.s2")
    before = derived(state)["accessible_blocks"]
    activate(state, 0, "action.robot", "1G-1B")
    assert state.sheets[0].marks["airlock.1G-1B"] == "line"
    assert derived(state)["accessible_blocks"] == before == ["ship1.modA", "ship1.gh", "ship1.modB"]


def test_robot_refuses_an_active_airlock_and_may_be_skipped() -> None:
    state = game(sheet=escape(airlocks=("1A-2A",)))
    reveal(state, (5, "robot"), (9, "plant"), (12, "energy"))
    write(state, 0, 0, "ship1.s2")
    assert refused(state, 0, action="robot", effect="action.robot", airlock="airlock.1A-2A") == (
        "airlock_already_active"
    )
    move(state, 0, **skip("action.robot"))
    assert engine.options(state, 0).kind == "confirm"


def test_a_robot_space_gives_an_airlock_before_the_action_and_cannot_be_skipped() -> None:
    state = game()
    reveal(state, (5, "robot"), (9, "plant"), (12, "energy"))
    write(state, 0, 0, "ship1.s1")
    assert pending(state) == [["action.robot"], ["robot.ship1.s1"]]
    assert refused(state, 0, **skip("robot.ship1.s1")) == "effect_not_optional"
    assert refused(state, 0, action="robot", effect="action.robot", airlock="airlock.1A-1G") == (
        "effect_not_pending"
    )
    activate(state, 0, "robot.ship1.s1", "1A-2A")
    # The action may use the block the bonus just opened.
    activate(state, 0, "action.robot", "2A-3A")
    assert derived(state)["accessible_blocks"][-2:] == ["ship2.modA", "ship3.modA"]


def every_airlock_active() -> engine.GameState:
    return game(sheet=escape(airlocks=[code.removeprefix("airlock.") for code in LAYOUT.airlocks]))


def resolved(events: list[engine.Event]) -> list[Mapping[str, object]]:
    return [event["data"] for event in events if event["kind"] == "effect_resolved"]


def test_a_robot_space_is_lost_when_no_airlock_can_be_activated() -> None:
    state = every_airlock_active()
    reveal(state, (5, "water"), (9, "plant"), (12, "energy"))
    events = write(state, 0, 0, "ship1.s8")
    assert {"effect": "robot.ship1.s8", "outcome": "no_effect", "target": None} in resolved(events)
    assert engine.options(state, 0).kind == "confirm"


def test_the_first_two_system_errors_activate_an_airlock_the_third_ends_the_game() -> None:
    # ship1 full of high numbers: nothing below 17 fits once ship1.s9 holds 17.
    state = game(sheet=escape({"ship1": range(1, 9)}, numbers={"ship1.s9": 17}))
    reveal(state, (3, "water"), (9, "plant"), (12, "energy"))
    assert options(state, 0) == [system_error("error.1")]
    move(state, 0, **system_error("error.1"))
    assert refused(state, 0, **skip("error.1")) == "effect_not_optional"
    activate(state, 0, "error.1", "1A-2A")
    confirm(state, 0)
    reveal(state, (3, "water"), (9, "plant"), (12, "energy"))
    write(state, 0, 0, "ship2.s1")
    confirm(state, 0)
    state = game(sheet=escape({"ship1": range(1, 9)}, numbers={"ship1.s9": 17},
                              marks=boxes("error.", 2, "circle")))  # fmt: skip
    reveal(state, (3, "water"), (9, "plant"), (12, "energy"))
    move(state, 0, **system_error("error.3"))
    assert pending(state) == []
    confirm(state, 0)
    assert state.status == "ended"
    assert state.end == {"reasons": [{"reason": "all_system_errors", "seats": [0]}]}
    assert score(state)["system_errors"] == -15


def test_the_second_system_error_activates_an_airlock_too() -> None:
    stuck = escape({"ship1": range(1, 9)}, numbers={"ship1.s9": 17}, marks=boxes("error.", 1, "circle"))
    state = game(sheet=stuck)
    reveal(state, (3, "water"), (9, "plant"), (12, "energy"))
    move(state, 0, **system_error("error.2"))
    assert pending(state) == [["error.2"]]
    activate(state, 0, "error.2", "1B-2C")
    assert "ship2.modC" in derived(state)["accessible_blocks"]
    assert score(state)["system_errors"] == -10


def test_the_robot_action_does_nothing_once_every_airlock_is_active() -> None:
    state = every_airlock_active()
    reveal(state, (5, "robot"), (9, "plant"), (12, "energy"))
    events = write(state, 0, 0, "ship1.s2")
    assert {"effect": "action.robot", "outcome": "no_effect", "target": None} in resolved(events)
    assert engine.options(state, 0).kind == "confirm"


# --- energy, plant, water --------------------------------------------------------------------


def test_energy_circles_a_reactor_of_the_ship_of_the_number() -> None:
    state = game(sheet=escape(airlocks=("1A-2A",)))
    reveal(state, (5, "energy"), (9, "plant"), (12, "robot"))
    write(state, 0, 0, "ship2.s1")
    assert options(state, 0) == [
        {"action": "energy", "effect": "action.energy", "reactor": "reactor.2.1"},
        skip("action.energy"),
    ]
    assert refused(state, 0, action="energy", effect="action.energy", reactor="reactor.1.1") == (
        "reactor_not_in_ship"
    )
    assert refused(state, 0, action="energy", effect="action.energy", reactor="plant.2.1") == (
        "unknown_reactor"
    )
    move(state, 0, action="energy", effect="action.energy", reactor="reactor.2.3")
    assert state.sheets[0].marks["reactor.2.3"] == "circle"


def test_energy_refuses_a_circled_reactor_and_does_nothing_on_a_full_ship() -> None:
    state = game(sheet=escape(marks=reactors(1, 1)))
    reveal(state, (5, "energy"), (9, "plant"), (12, "robot"))
    write(state, 0, 0, "ship1.s2")
    assert refused(state, 0, action="energy", effect="action.energy", reactor="reactor.1.1") == (
        "reactor_already_circled"
    )
    state = game(sheet=escape(marks=reactors(1, 3)))
    reveal(state, (5, "energy"), (9, "plant"), (12, "robot"))
    write(state, 0, 0, "ship1.s2")
    assert engine.options(state, 0).kind == "confirm"


def test_plant_circles_a_plant_of_the_ships_greenhouse_accessible_or_not() -> None:
    state = game(sheet=escape(airlocks=("1A-2A", "2A-3A")))
    reveal(state, (5, "plant"), (9, "water"), (12, "robot"))
    write(state, 0, 0, "ship3.s3")
    assert options(state, 0)[0] == {"action": "plant", "effect": "action.plant", "plant": "plant.3.2"}
    assert refused(state, 0, action="plant", effect="action.plant", plant="plant.2.1") == (
        "plant_not_in_ship"
    )
    assert refused(state, 0, action="plant", effect="action.plant", plant="plant.3.1") == (
        "plant_already_circled"
    )
    move(state, 0, action="plant", effect="action.plant", plant="plant.3.2")
    assert RULES.plants(state.sheets[0].marks, "ship3") == 2


def test_plant_does_nothing_when_the_ships_three_plants_are_circled() -> None:
    # ship6 prints two plants circled; the third one circled leaves nothing for Plant.
    state = game(sheet=escape(airlocks=("1A-2A", "2A-3A", "3A-4A", "4A-5A", "5A-6A"), marks=plants(6, 3)))
    reveal(state, (5, "plant"), (9, "water"), (12, "robot"))
    write(state, 0, 0, "ship6.s1")
    assert engine.options(state, 0).kind == "confirm"
    assert RULES.plants(state.sheets[0].marks, "ship6") == 3


def test_water_circles_the_tank_printed_on_the_numbers_space_only() -> None:
    state = game()
    reveal(state, (5, "water"), (9, "plant"), (12, "robot"))
    write(state, 0, 0, "ship1.s7")
    assert options(state, 0) == [
        {"action": "water", "effect": "action.water", "tank": "water.1B"}, skip("action.water")
    ]
    assert refused(state, 0, action="water", effect="action.water", tank="water.1A") == (
        "tank_not_on_space"
    )
    move(state, 0, action="water", effect="action.water", tank="water.1B")
    assert state.sheets[0].marks["water.1B"] == "circle"
    state = game()
    reveal(state, (5, "water"), (9, "plant"), (12, "robot"))
    write(state, 0, 0, "ship1.s6")
    assert engine.options(state, 0).kind == "confirm"


# --- astronaut and wild actions -----------------------------------------------------------------


def test_astronaut_changes_the_number_and_every_second_symbol_circles_a_wild() -> None:
    state = game(sheet=escape(marks=crossed("astro.1")))
    reveal(state, (1, "astronaut"), (9, "plant"), (12, "robot"))
    numbers = {o["number"] for o in options(state, 0) if o["combination"] == 0}
    assert numbers == {0, 1, 2, 3}
    assert refused(state, 0, action="write", combination=0, space="ship1.s1", number=4) == (
        "astronaut_modifier_out_of_range"
    )
    write(state, 0, 0, "ship1.s2", 0)
    marks = state.sheets[0].marks
    assert (marks["astro.2"], marks["wild.1"]) == ("cross", "circle")
    assert state.seats[0].turn_choice["modifier"] == -1
    assert engine.options(state, 0).kind == "confirm"


def test_astronaut_without_a_change_is_an_optional_step() -> None:
    state = game()
    reveal(state, (6, "astronaut"), (9, "plant"), (12, "robot"))
    write(state, 0, 0, "ship1.s2", 6)
    assert options(state, 0) == [
        {"action": "astronaut", "effect": "action.astronaut"}, skip("action.astronaut")
    ]
    move(state, 0, action="astronaut", effect="action.astronaut")
    assert state.sheets[0].marks["astro.1"] == "cross"


def test_past_the_sixth_astronaut_the_modifier_still_works_and_nothing_is_crossed() -> None:
    spent = escape(marks=crossed(*(f"astro.{k}" for k in range(1, 7)), "wild.1", "wild.2", "wild.3"))
    state = game(sheet=spent)
    reveal(state, (6, "astronaut"), (9, "plant"), (12, "robot"))
    assert {o["number"] for o in options(state, 0) if o["combination"] == 0} == {4, 5, 6, 7, 8}
    write(state, 0, 0, "ship1.s2", 8)
    assert engine.options(state, 0).kind == "confirm"
    assert state.sheets[0].marks == {**spent, "ship1.s2": 8}


def test_a_wild_action_replaces_the_combinations_action_once() -> None:
    state = game(sheet=escape(marks={**crossed("astro.1", "astro.2"), **circled("wild.1")}))
    reveal(state, (5, "water"), (9, "plant"), (12, "robot"))
    wild_actions = {o["wild_action"] for o in options(state, 0) if o.get("combination") == 0 and "wild" in o}
    assert wild_actions == {"robot", "energy", "plant", "astronaut", "planning"}
    write(state, 0, 0, "ship1.s2", 7, wild="wild.1", wild_action="astronaut")
    marks = state.sheets[0].marks
    assert (marks["ship1.s2"], marks["wild.1"], marks["astro.3"]) == (7, "cross", "cross")
    assert state.seats[0].turn_choice["action"] == "astronaut"


def test_wild_refusals() -> None:
    state = game(sheet=escape(marks={**crossed("astro.1", "astro.2"), **circled("wild.1")}))
    reveal(state, (5, "water"), (9, "plant"), (12, "robot"))
    assert refused(state, 0, action="write", combination=0, space="ship1.s2", number=5,
                   wild="wild.2", wild_action="robot") == "wild_not_available"  # fmt: skip
    assert refused(state, 0, action="write", combination=0, space="ship1.s2", number=5,
                   wild="wild.1", wild_action="teleport") == "unknown_action"  # fmt: skip
    assert refused(state, 0, action="write", combination=0, space="ship1.s2", number=8,
                   wild="wild.1", wild_action="robot") == "number_not_in_combination"  # fmt: skip
    state = game()
    reveal(state, (5, "water"), (9, "plant"), (12, "robot"))
    assert all("wild" not in o for o in options(state, 0))
    assert refused(state, 0, action="write", combination=0, space="ship1.s2", number=5,
                   wild_action="robot") == "wild_not_available"  # fmt: skip


# --- planning ------------------------------------------------------------------------------


def test_planning_writes_an_x_in_an_accessible_space_and_crosses_the_next_box() -> None:
    state = game()
    reveal(state, (5, "planning"), (9, "plant"), (12, "robot"))
    write(state, 0, 0, "ship1.s2")
    spaces = {o["space"] for o in options(state, 0) if o["action"] == "planning"}
    assert spaces == {f"ship1.s{k}" for k in (1, 3, 4, 6, 7, 8, 9)}
    assert refused(state, 0, action="planning", effect="action.planning", space="ship1.s2") == (
        "space_not_empty"
    )
    assert refused(state, 0, action="planning", effect="action.planning", space="ship2.s1") == (
        "block_not_accessible"
    )
    move(state, 0, action="planning", effect="action.planning", space="ship1.s1")
    marks = state.sheets[0].marks
    assert (marks["ship1.s1"], marks["plan.b1"]) == ("X", "cross")
    assert pending(state) == [["robot.ship1.s1"]]
    assert score(state)["planning"] == -1


def test_planning_declined_crosses_nothing_and_past_the_last_box_costs_28() -> None:
    state = game()
    reveal(state, (5, "planning"), (9, "plant"), (12, "robot"))
    write(state, 0, 0, "ship1.s2")
    move(state, 0, **skip("action.planning"))
    assert score(state)["planning"] == 0
    state = game(sheet=escape(marks=boxes("plan.b", 9)))
    reveal(state, (5, "planning"), (9, "plant"), (12, "robot"))
    write(state, 0, 0, "ship1.s2")
    move(state, 0, action="planning", effect="action.planning", space="ship1.s3")
    assert state.sheets[0].marks["ship1.s3"] == "X"
    assert score(state)["planning"] == -28


def test_an_x_in_a_greenhouse_circles_its_x2_and_counts_as_numbered() -> None:
    state = game(sheet=escape(airlocks=("1A-1G",), marks=plants(1, 1)))
    reveal(state, (5, "planning"), (9, "plant"), (12, "robot"))
    write(state, 0, 0, "ship1.s2")
    move(state, 0, action="planning", effect="action.planning", space="ship1.s5")
    assert state.sheets[0].marks["x2.1"] == "circle"
    assert score(state)["greenhouses"] == 4


def test_a_planning_x_may_go_where_the_numbers_robot_just_opened_and_fire_its_own_robot() -> None:
    # Two activations in one turn: the number's robot space, then the X's robot space.
    state = game()
    reveal(state, (5, "planning"), (9, "plant"), (12, "robot"))
    write(state, 0, 0, "ship1.s1")
    activate(state, 0, "robot.ship1.s1", "1A-2A")
    assert "ship2.s3" in {o["space"] for o in options(state, 0) if o["action"] == "planning"}
    move(state, 0, action="planning", effect="action.planning", space="ship2.s3")
    assert pending(state) == [["robot.ship2.s3"]]
    activate(state, 0, "robot.ship2.s3", "2A-3A")
    assert engine.options(state, 0).kind == "confirm"
    marks = state.sheets[0].marks
    assert (marks["ship2.s3"], marks["plan.b1"]) == ("X", "cross")
    assert derived(state)["active_airlocks"] == ["airlock.1A-2A", "airlock.2A-3A"]


# --- the x2 race -------------------------------------------------------------------------------


def test_x2_goes_to_every_player_numbering_the_greenhouse_in_the_same_turn() -> None:
    state = game(3, sheet=escape(airlocks=("1A-1G",)))
    reveal(state, (5, "water"), (9, "plant"), (12, "robot"))
    for seat in (0, 1):
        write(state, seat, 0, "ship1.s5")
    write(state, 2, 0, "ship1.s4")
    after = phase_5(state)
    assert [after.sheets[seat].marks.get("x2.1") for seat in range(3)] == ["circle", "circle", "cross"]
    assert [after.sheets[seat].marks.get("x2.2") for seat in range(3)] == [None, None, None]


def test_x2_is_lost_even_by_a_player_whose_greenhouse_is_still_closed() -> None:
    state = game(2, sheet=escape(airlocks=("1A-1G",)))
    set_sheet(state, 1, escape())
    reveal(state, (5, "water"), (9, "plant"), (12, "robot"))
    write(state, 0, 0, "ship1.s5")
    write(state, 1, 0, "ship1.s4")
    after = phase_5(state)
    assert [after.sheets[seat].marks.get("x2.1") for seat in range(2)] == ["circle", "cross"]


def test_x2_already_crossed_stays_crossed_and_a_solo_player_races_nobody() -> None:
    state = game(sheet=escape(airlocks=("1A-1G",), marks={**crossed("x2.1"), **plants(1, 2)}))
    reveal(state, (5, "water"), (9, "plant"), (12, "robot"))
    write(state, 0, 0, "ship1.s5")
    assert state.sheets[0].marks["x2.1"] == "cross"
    assert score(state)["greenhouses"] == 4
    state = game(sheet=escape(airlocks=("1A-1G",)))
    reveal(state, (5, "water"), (9, "plant"), (12, "robot"))
    write(state, 0, 0, "ship1.s5")
    confirm(state, 0)
    assert state.sheets[0].marks["x2.1"] == "circle"
    assert all(x2 not in state.sheets[0].marks for x2 in ("x2.2", "x2.3"))


# --- missions ----------------------------------------------------------------------------------


def full_greenhouses(*ships: int) -> Marks:
    marks: Marks = {}
    for ship in ships:
        marks.update(plants(ship, 3))
        marks[LAYOUT.greenhouses[f"ship{ship}"].space] = "X"
    return marks


@pytest.mark.parametrize(
    ("card", "meets", "misses"),
    [
        (100, full_greenhouses(1, 3, 6), {**full_greenhouses(1, 3), **plants(6, 3)}),
        (101, full_greenhouses(6), {"ship6.s5": "X"}),
        (102, escape({"ship1": range(1, 10), "ship2": (1, 2, 3, 4, 5, 6, 8, 9, 10), "ship3": range(2, 8)}),
         escape({"ship1": range(1, 10), "ship2": (1, 2, 3, 4, 5, 6, 8, 9, 10), "ship3": range(2, 7)})),
        (103, escape({"ship4": range(1, 7), "ship5": range(1, 7), "ship6": range(1, 6)}),
         escape({"ship4": range(1, 7), "ship5": range(1, 7), "ship6": range(1, 5)})),
        (104, {**reactors(4, 3), **reactors(5, 3), **reactors(6, 3)},
         {**reactors(4, 3), **reactors(5, 3), **reactors(6, 2)}),
        (105, circled("water.1A", "water.1B", "water.2A", "water.2B", "water.2C", "water.6A", "water.6B"),
         circled("water.1A", "water.1B", "water.2A", "water.2B", "water.6A", "water.6B", "water.5A")),
    ],
)  # fmt: skip
def test_mission_conditions(card: int, meets: Marks, misses: Marks) -> None:
    state = game(sheet={**LAYOUT.printed_marks, **meets})
    assert RULES.mission_holds_on(state.sheets[0], card)
    state = game(sheet={**LAYOUT.printed_marks, **misses})
    assert not RULES.mission_holds_on(state.sheets[0], card)


def play_first_options(state: engine.GameState, seat: int) -> None:
    """Play the first listed option until the seat's turn is played."""
    while engine.options(state, seat).kind in ("choose", "effect"):
        move(state, seat, **options(state, seat)[0])


def test_a_mission_scores_its_first_value_in_the_first_turn_and_the_later_one_after() -> None:
    # Ships 1 and 3 complete (4 modules), ship2 all but s10: 2 modules more; the 7th is ship2.modC.
    nearly = escape({"ship1": range(1, 10), "ship2": range(1, 10), "ship3": range(1, 8)}, airlocks=("1B-2C",))
    state = game(2, missions={"A": 101, "B": 102, "C": 104}, sheet=nearly)
    lagging = {**nearly, "airlock.1A-2A": "line"}
    del lagging["ship2.s1"]
    set_sheet(state, 1, lagging)
    reveal(state, (15, "water"), (5, "plant"), (12, "robot"))
    for seat in (0, 1):
        write(state, seat, 0, "ship2.s10")
        play_first_options(state, seat)
    confirm_all(state)
    assert state.sheets[0].marks["mission.B"] == 9
    assert "mission.B" not in state.sheets[1].marks
    reveal(state, (15, "water"), (5, "plant"), (12, "robot"))
    write(state, 1, 1, "ship2.s1")
    play_first_options(state, 1)
    play_first_options(state, 0)
    confirm_all(state)
    assert state.sheets[1].marks["mission.B"] == 4
    assert state.sheets[0].marks["mission.B"] == 9


# --- end of game, standings, what a front end sees ------------------------------------------


def test_the_game_ends_when_a_sheet_is_full() -> None:
    every = [code.removeprefix("airlock.") for code in LAYOUT.airlocks]
    full = escape({ship: range(1, len(spaces) + 1) for ship, spaces in LAYOUT.ships.items()}, airlocks=every)
    del full["ship1.s9"]
    state = game(2, missions={"A": 101, "B": 103, "C": 104}, sheet=full)
    reveal(state, (15, "water"), (5, "plant"), (12, "energy"))
    write(state, 0, 0, "ship1.s9")
    write(state, 1, 0, "ship1.s9")
    confirm_all(state)
    reasons = {reason["reason"] for reason in state.end["reasons"]}  # type: ignore[index]
    assert "sheet_full" in reasons


def test_the_game_ends_when_a_player_has_all_three_missions() -> None:
    sheet = escape(
        {"ship4": range(1, 7), "ship5": range(1, 7), "ship6": range(1, 5)},
        airlocks=("1A-2A", "2A-3A", "3A-4A", "4A-5A", "5A-6A", "6A-6B", "6B-6G"),
        marks={
            **plants(6, 3), **reactors(4, 3), **reactors(5, 3), **reactors(6, 3),
            "mission.A": 7, "mission.C": 10,
        },
    )
    state = game(missions={"A": 101, "B": 103, "C": 104}, sheet=sheet)
    reveal(state, (15, "water"), (5, "plant"), (12, "energy"))
    write(state, 0, 0, "ship6.s5")
    confirm(state, 0)
    assert state.status == "ended"
    assert state.end == {"reasons": [{"reason": "all_missions", "seats": [0]}]}
    assert state.sheets[0].marks["mission.B"] == 10


def test_ties_go_to_fewer_system_errors_then_are_shared() -> None:
    one_error = escape(marks={**boxes("error.", 1, "circle"), "mission.A": 5})
    state = game(3, sheet=one_error)
    state.sheets[2].marks = escape()
    state.status = "ended"
    standings = RULES.standings(state)
    assert [s["total"] for s in standings["scores"]] == [0, 0, 0]
    assert [s["rank"] for s in standings["scores"]] == [2, 2, 1]
    assert standings["winners"] == [2]
    state.sheets[2].marks = one_error
    assert RULES.standings(state)["winners"] == [0, 1, 2]


def test_derived_shows_access_greenhouses_reactors_and_tanks() -> None:
    state = game(sheet=escape(
        {"ship1": (1, 2, 3, 4, 5)}, airlocks=("1A-1G",),
        marks={**circled("x2.1", "water.1A"), **reactors(1, 2), **plants(1, 1), **crossed("x2.2")},
    ))  # fmt: skip
    view = derived(state)
    assert view["accessible_blocks"] == ["ship1.modA", "ship1.gh", "ship1.modB"]
    assert view["active_airlocks"] == ["airlock.1A-1G"]
    assert view["activatable_airlocks"] == [
        "airlock.1G-1B", "airlock.1A-2A", "airlock.1A-2B", "airlock.1B-2C"
    ]  # fmt: skip
    ship1 = view["ships"]["ship1"]
    assert ship1["greenhouse"] == {"numbered": True, "plants": 1, "x2": "won", "multiplier": 2, "points": 4}
    assert (ship1["reactors"], ship1["module_value"], ship1["module_points"]) == (2, 4, 8)
    assert ship1["water_tanks"] == {"water.1A": True, "water.1B": False}
    assert ship1["complete_modules"] == ["ship1.modA"]
    assert view["ships"]["ship2"]["greenhouse"]["x2"] == "lost"
    assert view["ships"]["ship3"]["greenhouse"]["x2"] == "open"
    assert view["ships"]["ship6"]["reactors"] == 2
    sheet_view = engine.sheet_view(state, 0, viewer=0)
    assert sheet_view["derived"] == view
    assert sheet_view["score"]["total"] == 12


# --- properties ----------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(sorted(LAYOUT.airlocks)), max_size=24))
def test_accessible_blocks_are_those_reached_from_the_start(wanted: list[str]) -> None:
    """Activating what may be activated, in any order, opens exactly the blocks joined to the
    two starting modules through active airlocks; every listed write lies in such a block."""
    marks: Marks = dict(LAYOUT.printed_marks)
    for airlock in wanted:
        if RULES.airlock_problem(marks, airlock) is None:
            assert airlock in RULES.activatable_airlocks(marks)
            marks[airlock] = "line"
        else:
            assert airlock not in RULES.activatable_airlocks(marks)
    reached = set(LAYOUT.start_blocks)
    grew = True
    while grew:
        grew = False
        for airlock, ends in LAYOUT.airlocks.items():
            if airlock in marks and any(end in reached for end in ends) and not reached >= set(ends):
                reached.update(ends)
                grew = True
    assert LAYOUT.access(marks).blocks == reached
    state = game(sheet=marks)
    reveal(state, (5, "water"), (9, "plant"), (12, "robot"))
    assert {LAYOUT.block_of[o["space"]] for o in options(state, 0)} == reached


SCORED_SYMBOLS = ("reactor.", "water.", "plant.", "x2.")


@settings(max_examples=40, deadline=None)
@given(
    st.sets(st.sampled_from(sorted(LAYOUT.spaces))),
    st.sets(st.sampled_from(sorted(e for e in LAYOUT.elements if e.startswith(SCORED_SYMBOLS)))),
)
def test_a_module_scores_only_complete_and_by_its_ships_reactors(filled: set[str], marked: set[str]) -> None:
    marks: Marks = {**LAYOUT.printed_marks, **{space: "X" for space in filled}, **circled(*marked)}
    for module in LAYOUT.modules:
        points = RULES.module_points(marks, module)
        if not all(space in marks for space in module.spaces):
            assert points == 0
        else:
            base = [0, 2, 4, 7][RULES.reactors(marks, module.ship)]
            assert points == base * (2 if module.water_tank in marks else 1)
    total = score(game(sheet=marks))
    assert total["modules"] == sum(total["modules_by_ship"].values())
    assert total["greenhouses"] == sum(total["greenhouse_by_ship"].values())


def test_a_setup_modifier_may_activate_an_airlock_and_only_an_airlock_takes_a_line() -> None:
    def start_marks(*marks: tuple[str, str]) -> dict:
        return {0: [{"kind": "start_marks", "marks": [{"element": e, "mark": m} for e, m in marks]}]}

    events = engine.new_game(adventure=7, players=1, seed=3, modifiers=start_marks(("airlock.1A-2A", "line")))
    state = engine.replay(events)
    assert "ship2.modA" in derived(state)["accessible_blocks"]
    for element, mark in (("airlock.1A-2A", "circle"), ("plant.1.1", "line")):
        with pytest.raises(engine.RuleViolation) as refusal:
            engine.new_game(adventure=7, players=1, seed=3, modifiers=start_marks((element, mark)))
        assert refusal.value.code == "invalid_modifier"


@settings(max_examples=15, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(min_value=0, max_value=10_000))
def test_whatever_is_played_numbers_lie_in_opened_blocks_and_ascend(rng: Random, seed: int) -> None:
    """Any legal play keeps every mark where the rules allow it: filled spaces in accessible
    blocks, each ship ascending, an x2 circled only on a numbered greenhouse, a tank circled
    only on a space holding a number."""
    state = game(seed=seed)
    while state.status == "playing" and state.turn <= 12:
        decision = engine.options(state, 0)
        command = {"type": "move", "choice": rng.choice(decision.options)} if decision.options else {
            "type": "confirm"
        }
        playing.send(state, 0, command)
    marks = state.sheets[0].marks
    opened = LAYOUT.access(marks).spaces
    assert all(space in opened for space in LAYOUT.spaces if space in marks)
    for spaces in LAYOUT.ships.values():
        numbers = [marks[space] for space in spaces if isinstance(marks.get(space), int)]
        assert numbers == sorted(set(numbers))
    for greenhouse in LAYOUT.greenhouses.values():
        assert marks.get(greenhouse.x2) != "circle" or greenhouse.space in marks
    for space, tank in LAYOUT.tank_on.items():
        assert tank not in marks or isinstance(marks.get(space), int)
