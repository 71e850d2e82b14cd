"""Adventure 2 rules one by one: each action legal and refused, placement, System Errors,
wild actions, races, missions, end of game, standings, setup and what is derived."""

import pytest

from games.rules import engine
from games.rules.core.sheet import X
from tests.rules.journey_helpers import (
    LAYOUT,
    RULES,
    circled,
    confirm_all,
    crossed,
    draw_wall,
    energies,
    errors,
    fill,
    missions,
    move,
    options,
    refused,
    reveal,
    s,
    score,
    set_sheet,
    skip,
    start,
    station,
    system_error,
    trajectory,
    use,
    walls,
    write,
)


def _one_seat(*parts: dict[str, int | str]) -> engine.GameState:
    state = start(1)
    set_sheet(state, 0, *parts)
    return state


# --- setup ---------------------------------------------------------------------------------


def test_a_new_sheet_has_energy_e01_circled_and_three_error_boxes() -> None:
    state = start(2)
    assert state.sheets[0].marks == {"energy.e01": "circle"}
    assert state.sheets[1].error_boxes == ("error.1", "error.2", "error.3")


def test_setup_energies_must_be_a_prefix_with_one_wall_per_completed_pair() -> None:
    good = [{"kind": "start_marks", "marks": [
        {"element": "energy.e02", "mark": "circle"}, {"element": "wall.06", "mark": "line"}
    ]}]
    state = engine.replay(engine.new_game(adventure=2, players=1, seed=3, modifiers={0: good}))
    assert state.sheets[0].marks["energy.w1"] == "cross"
    assert state.sheets[0].marks["wall.06"] == "line"
    for marks in (
        [{"element": "energy.e02", "mark": "circle"}],
        [{"element": "energy.e03", "mark": "circle"}],
        [{"element": "traj.s01", "mark": 4}],
        [{"element": "score.total", "mark": "circle"}],
    ):
        with pytest.raises(engine.RuleViolation) as caught:
            engine.new_game(
                adventure=2, players=1, seed=3,
                modifiers={0: [{"kind": "start_marks", "marks": marks}]},
            )
        assert caught.value.code == "invalid_modifier"


# --- writing a number ------------------------------------------------------------------------


def test_numbers_ascend_inside_each_playing_zone_only() -> None:
    state = _one_seat(walls(10), trajectory(s05=9))
    reveal(state, (9, "water"), (3, "water"), (5, "water"))

    assert refused(state, 0, write(0, "traj.s07", 9)) == "number_already_in_zone"
    assert refused(state, 0, write(1, "traj.s07", 3)) == "space_not_ascending"
    assert refused(state, 0, write(0, "traj.s05", 9)) == "space_not_empty"
    assert refused(state, 0, write(0, "traj.s37", 9)) == "unknown_space"
    assert refused(state, 0, write(0, "traj.s12", 10)) == "number_not_in_combination"
    assert refused(state, 0, write(0, "traj.s12", 11, modifier=2)) == "modifier_not_allowed"
    move(state, 0, write(0, "traj.s11", 9))  # the same 9, in another zone
    assert state.sheets[0].marks["traj.s11"] == 9


def test_x_marks_are_ignored_by_the_order() -> None:
    state = _one_seat(trajectory(s01=2, s02=4, s03="X"))
    reveal(state, (5, "water"), (3, "water"), (1, "water"))
    assert refused(state, 0, write(1, "traj.s04", 3)) == "space_not_ascending"
    move(state, 0, write(0, "traj.s04", 5))
    assert state.sheets[0].marks["traj.s04"] == 5


# --- System Errors -----------------------------------------------------------------------------


def test_system_error_refused_while_a_number_can_be_written() -> None:
    state = _one_seat()
    reveal(state, (5, "robot"), (6, "robot"), (7, "robot"))
    assert refused(state, 0, system_error("error.1")) == "number_must_be_written"


def _full_but_two() -> list[dict[str, int | str]]:
    """s15 between 6 and 7, s30 between 12 and 13 are the only empty spaces."""
    return [
        walls(9, 24),
        trajectory(**{f"s{order:02d}": order for order in range(1, 10)}),
        trajectory(s10=1, s11=2, s12=3, s13=4, s14=6, s16=7, s17=8, s18=9, s19=10, s20=11),
        trajectory(s21=12, s22=13, s23=14, s24=15),
        trajectory(s25=1, s26=2, s27=3, s28=4, s29=12, s31=13, s32=14, s33=15, s34=16, s35=17),
        trajectory(s36="X"),
    ]


def test_second_system_error_gives_an_energy_third_gives_none_and_ends_the_game() -> None:
    state = _one_seat(*_full_but_two(), energies(6), walls(3), errors(1))
    reveal(state, (3, "water"), (9, "robot"), (14, "astronaut"))
    assert refused(state, 0, system_error("error.3")) == "error_box_not_next"
    move(state, 0, system_error("error.2"))
    assert state.sheets[0].marks["energy.e07"] == "circle"
    confirm_all(state)
    assert state.status == "playing"

    reveal(state, (3, "water"), (9, "robot"), (14, "astronaut"))
    move(state, 0, system_error("error.3"))
    assert "energy.e08" not in state.sheets[0].marks
    confirm_all(state)
    assert state.status == "ended"
    assert state.end == {"reasons": [{"reason": "all_system_errors", "seats": [0]}]}
    assert score(state, 0)["system_errors"] == -15


def test_a_wild_astronaut_may_escape_a_system_error_but_is_never_forced() -> None:
    state = _one_seat(
        *_full_but_two(),
        trajectory(s16=9, s17=10, s18=11, s19=12, s20=13, s21=14, s22=15, s23=16, s24=17),
        energies(5),
        circled("plan.wild1"),
    )  # s15 now takes a 7 or an 8
    reveal(state, (5, "water"), (10, "robot"), (12, "plant"))

    offered = options(state, 0)
    assert system_error("error.1") in offered
    assert {(o["number"], o["space"]) for o in offered if o["action"] == "write"} == {
        (7, "traj.s15"),
        (8, "traj.s15"),
    }
    assert refused(state, 0, write(1, "traj.s15", 10)) == "no_legal_placement"
    escape = write(0, "traj.s15", 7, modifier=2, wild="plan.wild1", wild_action="astronaut")
    assert escape in offered
    move(state, 0, escape)
    marks = state.sheets[0].marks
    assert marks["traj.s15"] == 7
    assert marks["plan.wild1"] == "cross"
    assert marks["astro.a1"] == "cross"  # a wild used as Astronaut crosses an astronaut symbol


# --- Energy and walls --------------------------------------------------------------------------


def test_energy_completing_a_pair_forces_a_wall() -> None:
    state = _one_seat()
    reveal(state, (5, "energy"), (6, "robot"), (7, "robot"))
    move(state, 0, write(0, "traj.s01", 5))
    assert options(state, 0) == [use("action.energy"), skip("action.energy")]
    assert refused(state, 0, use("action.robot", robot="station1.robot1")) == (
        "effect_not_pending"
    )
    move(state, 0, use("action.energy"))
    assert state.sheets[0].marks["energy.e02"] == "circle"
    assert state.sheets[0].marks["energy.w1"] == "cross"
    assert refused(state, 0, skip("energy.w1")) == "wall_required"
    assert refused(state, 0, draw_wall("energy.w1", "wall.36")) == "unknown_wall"
    move(state, 0, draw_wall("energy.w1", "wall.07"))
    derived = RULES.derived(state, state.sheets[0], marks=state.sheets[0].marks)
    assert [zone["id"] for zone in derived["zones"]] == [
        "zone.s01-s07",
        "zone.s08-s36",
    ]


def test_energy_starting_a_pair_draws_nothing_and_energy_past_the_twelfth_is_lost() -> None:
    state = _one_seat(energies(2), walls(1))
    reveal(state, (5, "energy"), (6, "robot"), (7, "robot"))
    move(state, 0, write(0, "traj.s05", 5))
    move(state, 0, use("action.energy"))
    assert state.sheets[0].marks["energy.e03"] == "circle"
    assert engine.options(state, 0).kind == "confirm"

    full = _one_seat(energies(12), walls(1, 2, 3, 4, 5, 6))
    reveal(full, (5, "energy"), (6, "robot"), (7, "robot"))
    move(full, 0, write(0, "traj.s10", 5))
    assert engine.options(full, 0).kind == "confirm"  # the Energy step had no effect


def test_energy_can_be_skipped() -> None:
    state = _one_seat()
    reveal(state, (5, "energy"), (6, "robot"), (7, "robot"))
    move(state, 0, write(0, "traj.s01", 5))
    move(state, 0, skip("action.energy"))
    assert "energy.e02" not in state.sheets[0].marks


# --- Robot -------------------------------------------------------------------------------------


def test_robot_circles_any_robot_and_the_last_one_its_big_multiplier() -> None:
    state = _one_seat(station(1, robots=1))
    reveal(state, (5, "robot"), (6, "plant"), (7, "plant"))
    move(state, 0, write(0, "traj.s30", 5))
    robots = {o["robot"] for o in options(state, 0) if o["action"] == "robot"}
    assert robots == set(LAYOUT.robots) - {"station1.robot1"}
    assert refused(state, 0, use("action.robot", robot="station1.robot1")) == (
        "robot_already_circled"
    )
    assert refused(state, 0, use("action.robot", robot="station1.plant1")) == "unknown_robot"
    assert refused(
        state, 0, use("action.robot", robot="station2.robot1", multiplier="station2.mult_big")
    ) == "wrong_multiplier"
    move(state, 0, use("action.robot", robot="station1.robot2"))
    marks = state.sheets[0].marks
    assert marks["station1.robot2"] == "circle"
    assert marks["station1.mult_big"] == "circle"


def test_robot_can_be_skipped() -> None:
    state = _one_seat()
    reveal(state, (5, "robot"), (6, "plant"), (7, "plant"))
    move(state, 0, write(0, "traj.s30", 5))
    move(state, 0, skip("action.robot"))
    assert not any(robot in state.sheets[0].marks for robot in LAYOUT.robots)


def test_race_crosses_the_big_multiplier_of_every_other_seat_even_without_robots() -> None:
    state = start(3)
    set_sheet(state, 0, station(1, robots=1))
    set_sheet(state, 1)
    set_sheet(state, 2, station(1, robots=1))
    reveal(state, (5, "robot"), (6, "plant"), (7, "plant"))
    move(state, 0, write(0, "traj.s01", 5))
    move(state, 0, use("action.robot", robot="station1.robot2"))
    for seat in (1, 2):
        move(state, seat, write(1, "traj.s01", 6))
        move(state, seat, skip("action.plant"))
    # Before the end of the turn, the others still see nothing of seat 0's turn.
    assert engine.sheet_view(state, 0, viewer=1)["marks"].get("station1.mult_big") is None
    confirm_all(state)
    assert [state.sheets[seat].marks.get("station1.mult_big") for seat in range(3)] == [
        "circle",
        "cross",
        "cross",
    ]


# --- Plant -------------------------------------------------------------------------------------


def test_plant_circles_a_plant_of_a_connected_station_only() -> None:
    state = _one_seat(walls(10), station(1, plants=1))
    reveal(state, (5, "plant"), (6, "robot"), (7, "robot"))
    move(state, 0, write(0, "traj.s03", 5))
    assert refused(state, 0, use("action.plant", plant="station1.plant1")) == (
        "plant_already_circled"
    )
    assert refused(state, 0, use("action.plant", plant="station4.plant1")) == (
        "station_not_connected"
    )
    assert refused(state, 0, use("action.plant", plant="station1.robot1")) == "unknown_plant"
    move(state, 0, use("action.plant", plant="station1.plant2"))
    assert state.sheets[0].marks["station1.plant2"] == "circle"
    assert score(state, 0)["plants"] == 0  # no multiplier without every robot


def test_plant_in_a_zone_reaching_no_station_has_no_effect() -> None:
    state = _one_seat(walls(3, 4))
    reveal(state, (5, "plant"), (6, "robot"), (7, "robot"))
    move(state, 0, write(0, "traj.s04", 5))
    assert engine.options(state, 0).kind == "confirm"


# --- Water -------------------------------------------------------------------------------------


def test_water_circles_the_tank_of_the_space_of_the_number() -> None:
    state = _one_seat()
    reveal(state, (5, "water"), (6, "robot"), (7, "robot"))
    move(state, 0, write(0, "traj.s07", 5))
    assert options(state, 0) == [use("action.water", tank="water.t03"), skip("action.water")]
    assert refused(state, 0, use("action.water", tank="water.t04")) == "tank_not_on_space"
    move(state, 0, use("action.water", tank="water.t03"))
    assert state.sheets[0].marks["water.t03"] == "circle"
    assert score(state, 0)["water"] == 5


def test_water_without_tank_has_no_effect_and_another_action_loses_the_tank() -> None:
    state = _one_seat()
    reveal(state, (5, "water"), (6, "robot"), (7, "robot"))
    move(state, 0, write(0, "traj.s08", 5))
    assert engine.options(state, 0).kind == "confirm"

    state = _one_seat()
    reveal(state, (5, "water"), (6, "robot"), (7, "robot"))
    move(state, 0, write(1, "traj.s07", 6))
    move(state, 0, skip("action.robot"))
    assert "water.t03" not in state.sheets[0].marks


# --- Astronaut ---------------------------------------------------------------------------------


def test_astronaut_used_crosses_a_symbol_declined_crosses_nothing() -> None:
    state = _one_seat()
    reveal(state, (8, "astronaut"), (6, "robot"), (7, "robot"))
    assert refused(state, 0, write(0, "traj.s01", 5, modifier=-3)) == "modifier_out_of_range"
    move(state, 0, write(0, "traj.s01", 8, modifier=0))
    assert state.sheets[0].marks["astro.a1"] == "cross"

    declined = _one_seat()
    reveal(declined, (8, "astronaut"), (6, "robot"), (7, "robot"))
    move(declined, 0, write(0, "traj.s01", 8))
    assert "astro.a1" not in declined.sheets[0].marks
    assert engine.options(declined, 0).kind == "confirm"


def test_astronaut_modifier_still_works_with_the_track_full() -> None:
    state = _one_seat(crossed(*LAYOUT.astronaut_track), circled("astro.wild1"))
    reveal(state, (8, "astronaut"), (6, "robot"), (7, "robot"))
    move(state, 0, write(0, "traj.s01", 10, modifier=2))
    assert state.sheets[0].marks["traj.s01"] == 10


# --- Planning ----------------------------------------------------------------------------------


def test_planning_writes_an_x_anywhere_and_every_second_symbol_gives_a_wild() -> None:
    state = _one_seat(trajectory(s10=9), crossed("plan.p1"))
    reveal(state, (5, "planning"), (6, "robot"), (7, "robot"))
    move(state, 0, write(0, "traj.s01", 5))
    assert refused(state, 0, use("action.planning", space="traj.s10")) == "space_not_empty"
    assert refused(state, 0, use("action.planning", space="wall.01")) == "unknown_space"
    move(state, 0, use("action.planning", space="traj.s36"))
    marks = state.sheets[0].marks
    assert marks["traj.s36"] == X
    assert marks["plan.p2"] == "cross"
    assert marks["plan.wild1"] == "circle"


def test_planning_can_be_skipped_and_a_full_trajectory_leaves_no_x() -> None:
    state = _one_seat()
    reveal(state, (5, "planning"), (6, "robot"), (7, "robot"))
    move(state, 0, write(0, "traj.s01", 5))
    move(state, 0, skip("action.planning"))
    assert "plan.p1" not in state.sheets[0].marks

    almost = _one_seat(fill(*range(2, 37)))
    reveal(almost, (5, "planning"), (6, "robot"), (7, "robot"))
    move(almost, 0, write(0, "traj.s01", 5))
    assert engine.options(almost, 0).kind == "confirm"
    assert "plan.p1" not in almost.sheets[0].marks


# --- wild actions ------------------------------------------------------------------------------


def test_wild_action_replaces_the_action_of_the_combination() -> None:
    state = _one_seat(circled("astro.wild1", "plan.wild1"))
    reveal(state, (5, "robot"), (6, "robot"), (7, "robot"))
    move(state, 0, write(0, "traj.s07", 5, wild="plan.wild1", wild_action="water"))
    move(state, 0, use("action.water", tank="water.t03"))
    marks = state.sheets[0].marks
    assert marks["plan.wild1"] == "cross"
    assert marks["astro.wild1"] == "circle"
    assert marks["water.t03"] == "circle"


def test_wild_action_refused_when_not_available_or_not_an_action() -> None:
    state = _one_seat(circled("astro.wild1"), crossed("plan.wild1"))
    reveal(state, (5, "robot"), (6, "robot"), (7, "robot"))
    assert refused(state, 0, write(0, "traj.s07", 5, wild="plan.wild1", wild_action="water")) == (
        "wild_not_available"
    )
    assert refused(state, 0, write(0, "traj.s07", 5, wild="astro.wild1", wild_action="fly")) == (
        "unknown_action"
    )
    offered = [o for o in options(state, 0) if "wild" in o]
    assert offered and {o["wild"] for o in offered} == {"astro.wild1"}
    assert "robot" not in {o["wild_action"] for o in offered}


# --- missions ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "parts", "holds"),
    [
        (70, [circled("station1.mult_big", "station2.mult_small", "station4.mult_big")], True),
        (70, [circled("station1.mult_big", "station2.mult_small"), crossed("station3.mult_big")],
         False),
        (71, [station(2, plants=3), station(3, plants=4)], True),
        (71, [station(2, plants=3), station(3, plants=3)], False),
        (72, [walls(6, 12), fill(*range(1, 13))], True),
        (72, [walls(7, 13), fill(*range(1, 14))], False),  # complete zones of 7 and 6
        (72, [walls(6, 12), fill(*range(1, 12))], False),  # one zone of 6 not complete
        (73, [walls(6, 10, 12), fill(*range(1, 13))], True),
        (73, [walls(6, 10, 13), fill(*range(1, 14))], False),
        (74, [circled(*LAYOUT.tanks[::2])], True),
        (74, [circled(*LAYOUT.tanks[:5])], False),
        (75, [walls(8, 9, 10), circled("water.t03", "water.t04", "water.t05", "water.t06")], True),
        (75, [circled("water.t01", "water.t02", "water.t03", "water.t05")], False),
    ],
)
def test_mission_conditions(card: int, parts: list[dict[str, int | str]], holds: bool) -> None:
    state = _one_seat(*parts)
    assert RULES.mission_holds(state, 0, card) is holds


def test_zone_mission_accomplished_first_by_all_seats_of_the_turn_and_kept_after_a_split() -> None:
    state = start(3, missions={"A": 70, "B": 72, "C": 74})
    for seat in range(3):
        set_sheet(state, seat, walls(6, 12), energies(5), fill(*range(1, 12)))
    reveal(state, (5, "energy"), (6, "robot"), (7, "robot"))
    for seat in range(3):
        move(state, seat, write(1, "traj.s30" if seat == 2 else "traj.s12", 6))
        move(state, seat, skip("action.robot"))
    confirm_all(state)
    assert [state.sheets[seat].marks.get("mission.B") for seat in range(3)] == [11, 11, None]

    reveal(state, (5, "energy"), (6, "robot"), (7, "robot"))
    move(state, 0, write(0, "traj.s13", 5))
    move(state, 0, use("action.energy"))
    move(state, 0, draw_wall("energy.w3", "wall.03"))  # splits the zone s01-s06 in two
    for seat in (1, 2):
        move(state, seat, write(1, "traj.s12" if seat == 2 else "traj.s20", 6))
        move(state, seat, skip("action.robot"))
    confirm_all(state)
    assert not RULES.mission_holds(state, 0, 72)
    assert [state.sheets[seat].marks.get("mission.B") for seat in range(3)] == [11, 11, 6]


# --- end of game and standings -------------------------------------------------------------


def test_a_full_trajectory_ends_the_game() -> None:
    state = _one_seat(fill(*range(2, 37)))
    reveal(state, (5, "robot"), (6, "robot"), (7, "robot"))
    move(state, 0, write(0, "traj.s01", 5))
    move(state, 0, skip("action.robot"))
    confirm_all(state)
    assert state.end == {"reasons": [{"reason": "sheet_full", "seats": [0]}]}
    assert score(state, 0)["longest_zone"] == 36


def test_three_missions_end_the_game() -> None:
    state = start(2)
    set_sheet(state, 0, missions(A=9, B=11, C=9))
    set_sheet(state, 1)
    reveal(state, (5, "robot"), (6, "robot"), (7, "robot"))
    for seat in range(2):
        move(state, seat, write(0, "traj.s01", 5))
        move(state, seat, skip("action.robot"))
    confirm_all(state)
    assert state.end == {"reasons": [{"reason": "all_missions", "seats": [0]}]}


def test_standings_tie_broken_by_fewer_system_errors_then_shared() -> None:
    state = start(3)
    set_sheet(state, 0, circled("water.t01"))  # 4, no System Error
    set_sheet(state, 1, circled("water.t01", "water.t03"), errors(1))  # 9 - 5 = 4
    set_sheet(state, 2)
    state.status = "ended"
    standings = RULES.standings(state)
    assert [row["total"] for row in standings["scores"]] == [4, 4, 0]
    assert [row["rank"] for row in standings["scores"]] == [1, 2, 3]
    assert standings["winners"] == [0]

    set_sheet(state, 2, circled("water.t02"))  # 4, no System Error: shares the win
    standings = RULES.standings(state)
    assert [row["rank"] for row in standings["scores"]] == [1, 2, 1]
    assert standings["winners"] == [0, 2]


def test_live_zone_ranking_reads_the_others_as_they_began_the_turn() -> None:
    state = start(2)
    set_sheet(state, 0, walls(1), fill(1))
    set_sheet(state, 1, walls(1, 2), fill(1))
    reveal(state, (5, "robot"), (6, "robot"), (7, "robot"))
    assert score(state, 0)["most_zones"] == 20
    move(state, 1, write(0, "traj.s02", 5))  # seat 1 completes a second zone this turn
    assert score(state, 1)["most_zones"] == 20
    assert score(state, 0)["most_zones"] == 20  # seat 0 cannot see it yet
    move(state, 1, skip("action.robot"))
    move(state, 0, write(0, "traj.s05", 5))
    move(state, 0, skip("action.robot"))
    confirm_all(state)
    assert score(state, 0)["most_zones"] == 10


def test_derived_zones_and_the_stations_they_reach() -> None:
    state = _one_seat(walls(10, 25), fill(*range(1, 11)), circled("astro.wild2"))
    derived = engine.sheet_view(state, 0, viewer=0)["derived"]
    assert derived["zones"] == [
        {"id": "zone.s01-s10", "spaces": [s(o) for o in range(1, 11)], "length": 10,
         "complete": True, "stations": ["station1"]},
        {"id": "zone.s11-s25", "spaces": [s(o) for o in range(11, 26)], "length": 15,
         "complete": False, "stations": ["station2", "station3"]},
        {"id": "zone.s26-s36", "spaces": [s(o) for o in range(26, 37)], "length": 11,
         "complete": False, "stations": ["station4"]},
    ]
    assert derived["station_zones"] == {
        "station1": "zone.s01-s10",
        "station2": "zone.s11-s25",
        "station3": "zone.s11-s25",
        "station4": "zone.s26-s36",
    }
    assert derived["walls"] == ["wall.10", "wall.25"]
    assert derived["available_wilds"] == ["astro.wild2"]
