"""The worked examples of the Journey spec (adventure-2-journey.md section 12), one test each.

The spec names the ascending-order refusal ``space_not_ascending``; the engine's shared
ordering rule (``sheet.placement_problem``) calls it ``space_not_ascending`` for every
adventure, and that stable code is what these tests expect.
"""

import pytest

from games.rules import engine
from games.rules.common import astra
from games.rules.core.sheet import Marks, X
from games.rules.turn import solo
from tests.rules.journey_helpers import (
    LAYOUT,
    RULES,
    circled,
    confirm,
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
    undo,
    use,
    walls,
    write,
)
from tests.rules.playing import against_astra


def _zone_ids(marks: Marks) -> list[str]:
    return [zone.id for zone in RULES.complete_zones(marks)]


# --- scoring examples ----------------------------------------------------------------------


def test_example_1_three_players_ana_ranked_first_on_zones() -> None:
    ana, ben, chloe = range(3)
    state = start(3, missions={"A": 70, "B": 72, "C": 74})
    set_sheet(
        state,
        ana,
        walls(6, 12, 16, 20),
        energies(8),
        trajectory(s01=1, s02=3, s03=4, s04=6, s05=8, s06=9),
        trajectory(s07=2, s08=5, s09="X", s10=7, s11=10, s12=13),
        trajectory(s13=6, s14=8, s16=12),
        trajectory(s17=4, s18=7, s19=9, s20=11),
        trajectory(s21=3, s22=5, s23=6, s25=9, s26=10, s30=14),
        circled("water.t01", "water.t02", "water.t03", "water.t05"),
        station(1, robots=2, plants=4),
        circled("station1.mult_big"),
        station(2, robots=3, plants=3),
        crossed("station2.mult_big"),
        circled("station2.mult_small"),
        station(3, robots=2, plants=2),
        station(4, plants=1),
        crossed("station4.mult_big"),
        missions(B=11),
        errors(1),
    )
    set_sheet(state, ben, walls(1, 2, 3), fill(1, 2, 3))
    set_sheet(state, chloe, walls(1), fill(1))
    marks = state.sheets[ana].marks

    assert _zone_ids(marks) == ["zone.s01-s06", "zone.s07-s12", "zone.s17-s20"]
    assert RULES.mission_holds(state, ana, 72)
    assert not RULES.mission_holds(state, ana, 70)  # multipliers at 2 stations only
    assert not RULES.mission_holds(state, ana, 74)  # 4 tanks
    breakdown = score(state, ana)
    assert breakdown["stations"] == {"station1": 24, "station2": 21, "station3": 0, "station4": 0}
    assert {
        area: breakdown[area]
        for area in ("missions", "plants", "water", "longest_zone", "most_zones", "system_errors")
    } == {
        "missions": 11,
        "plants": 45,
        "water": 20,
        "longest_zone": 6,
        "most_zones": 20,
        "system_errors": -5,
    }
    assert breakdown["total"] == 97
    assert score(state, ben)["most_zones"] == 20  # tied with Ana
    assert score(state, chloe)["most_zones"] == 10


def test_example_2_four_players_bruno_second_on_zones_plants_without_robots() -> None:
    bruno, five, three, none = range(4)
    state = start(4, missions={"A": 71, "B": 73, "C": 75})
    set_sheet(
        state,
        bruno,
        walls(5, 15, 30),
        energies(6),
        trajectory(s01=2, s02=4, s03="X", s04=7, s05=11),
        trajectory(s06=1, s07=3, s08=4, s09=6, s10=7, s11=8, s12="X", s13=10, s14=12, s15=14),
        trajectory(s16=2, s18=5, s20=8, s23=9, s26=13, s30=16),
        trajectory(s31=3, s32=5, s33=8, s34="X", s35=12, s36=15),
        circled("water.t01", "water.t02", "water.t10", "water.t11", "water.t12"),
        station(1, robots=1, plants=5),
        station(2, robots=3),
        crossed("station2.mult_big"),
        circled("station2.mult_small"),
        station(4, robots=4, plants=4),
        circled("station4.mult_big"),
        missions(A=5),
        errors(2),
    )
    set_sheet(state, five, walls(1, 2, 3, 4, 5), fill(1, 2, 3, 4, 5))
    set_sheet(state, three, walls(1, 2, 3), fill(1, 2, 3))
    set_sheet(state, none)

    assert _zone_ids(state.sheets[bruno].marks) == ["zone.s01-s05", "zone.s06-s15", "zone.s31-s36"]
    assert RULES.mission_holds(state, bruno, 71)
    assert not RULES.mission_holds(state, bruno, 73)  # complete zones of 5, 10 and 6
    assert not RULES.mission_holds(state, bruno, 75)  # runs t01-t02 and t10-t12 only
    breakdown = score(state, bruno)
    assert breakdown["stations"] == {"station1": 0, "station2": 0, "station3": 0, "station4": 40}
    assert [
        breakdown[area]
        for area in ("missions", "plants", "water", "longest_zone", "most_zones", "system_errors")
    ] == [5, 40, 21, 10, 10, -10]
    assert breakdown["total"] == 76
    assert [score(state, seat)["most_zones"] for seat in range(4)] == [10, 20, 10, 0]


def test_example_3_solo_chiara_beats_franklin() -> None:
    """Against ASTRA (Franklin, level 4): the zones area compares Chiara's complete zones with
    ASTRA's Energy cards by pairs."""
    state = start(1, missions={"A": 70, "B": 73, "C": 74})
    pile = {"robot": 6, "energy": 7, "plant": 5, "water": 3, "astronaut": 2, "planning": 2}
    against_astra(state, 4, pile)
    set_sheet(
        state,
        0,
        walls(4, 10, 12, 18, 28),
        energies(10),
        trajectory(s01=1, s02=3, s03=5, s04=8),
        trajectory(s05=2, s06=4, s07=6, s08="X", s09=9, s10=12),
        trajectory(s11=7, s12=10),
        trajectory(s13=3, s14=5, s15=8, s16=11, s17=13, s18=14),
        trajectory(s19=1, s21=6, s24=9, s27=13),
        trajectory(s31=5, s33=9),
        circled("water.t02", "water.t03", "water.t04", "water.t06"),
        station(1, robots=2, plants=5),
        circled("station1.mult_big"),
        station(2, robots=3, plants=2),
        crossed("station2.mult_big"),
        circled("station2.mult_small"),
        station(3, robots=3, plants=1),
        circled("station3.mult_big"),
        station(4, robots=2),
        missions(A=9, B=6),
    )
    marks = state.sheets[0].marks

    assert _zone_ids(marks) == ["zone.s01-s04", "zone.s05-s10", "zone.s11-s12", "zone.s13-s18"]
    assert RULES.mission_holds(state, 0, 70)
    assert RULES.mission_holds(state, 0, 73)
    assert not RULES.mission_holds(state, 0, 74)
    assert RULES.solo_most_zones(complete_zones=4, astra_energy_cards=pile["energy"]) == 20
    breakdown = score(state, 0)
    assert [
        breakdown[area]
        for area in ("missions", "plants", "water", "longest_zone", "most_zones", "system_errors")
    ] == [15, 52, 23, 6, 20, 0]
    assert breakdown["total"] == 116
    franklin = astra.astra_score(2, 4, pile)
    assert franklin.total == 102
    result = solo.standings(state)
    assert (result["scores"][0]["total"], result["astra"]["total"], result["winners"]) == (116, 102, [0])
    assert state.astra is not None
    state.astra.pile["energy"] = 10  # 5 pairs: Chiara's 4 zones come second
    assert score(state, 0)["most_zones"] == 10


def test_example_3_variant_solo_zones_below_astra_and_without_zone() -> None:
    assert RULES.solo_most_zones(complete_zones=2, astra_energy_cards=7) == 10
    assert RULES.solo_most_zones(complete_zones=0, astra_energy_cards=0) == 0


# --- turn examples -------------------------------------------------------------------------


def test_turn_example_a_legal_spaces_for_8() -> None:
    state = start(1)
    set_sheet(state, 0, walls(10, 20), energies(4), trajectory(s03=4, s08=9, s12=2, s18=12, s22=7))
    reveal(state, (8, "plant"), (15, "robot"), (1, "energy"))

    offered = {o["space"] for o in options(state, 0) if o["combination"] == 0}
    legal = [*range(4, 8), *range(13, 18), *range(23, 37)]
    assert offered == {s(order) for order in legal}
    for order in (1, 2, 9, 10, 11, 19, 20, 21):
        assert refused(state, 0, write(0, s(order), 8)) == "space_not_ascending"


def test_turn_example_a_plant_from_s06_reaches_station1_only() -> None:
    state = start(1)
    set_sheet(state, 0, walls(10, 20), energies(4), trajectory(s03=4, s08=9, s12=2, s18=12, s22=7))
    reveal(state, (8, "plant"), (15, "robot"), (1, "energy"))

    move(state, 0, write(0, "traj.s06", 8))

    plants = {o["plant"] for o in options(state, 0) if o["action"] == "plant"}
    assert plants == set(LAYOUT.stations[0].plants)
    assert skip("action.plant") in options(state, 0)
    move(state, 0, use("action.plant", plant="station1.plant3"))
    assert state.sheets[0].marks["station1.plant3"] == "circle"


def test_turn_example_a_plant_from_s23_reaches_station3_or_station4() -> None:
    state = start(1)
    set_sheet(state, 0, walls(10, 20), energies(4), trajectory(s03=4, s08=9, s12=2, s18=12, s22=7))
    reveal(state, (8, "plant"), (15, "robot"), (1, "energy"))

    move(state, 0, write(0, "traj.s23", 8))

    stations = {o["plant"].split(".")[0] for o in options(state, 0) if o["action"] == "plant"}
    assert stations == {"station3", "station4"}


def test_turn_example_a_plant_from_s14_cannot_reach_station3() -> None:
    state = start(1)
    set_sheet(state, 0, walls(10, 20), energies(4), trajectory(s03=4, s08=9, s12=2, s18=12, s22=7))
    reveal(state, (8, "plant"), (15, "robot"), (1, "energy"))

    move(state, 0, write(0, "traj.s14", 8))

    assert refused(state, 0, use("action.plant", plant="station3.plant1")) == (
        "station_not_connected"
    )
    stations = {o["plant"].split(".")[0] for o in options(state, 0) if o["action"] == "plant"}
    assert stations == {"station2"}


def _turn_b_sheet() -> list[dict[str, int | str]]:
    """Only s15 (between 6 and 7) and s30 (between 12 and 13) are empty."""
    return [
        walls(9, 24),
        trajectory(**{f"s{order:02d}": order for order in range(1, 10)}),
        trajectory(s10=1, s11=2, s12=3, s13=4, s14=6, s16=7, s17=8, s18=9, s19=10, s20=11),
        trajectory(s21=12, s22=13, s23=14, s24=15),
        trajectory(s25=1, s26=2, s27=3, s28=4, s29=12, s31=13, s32=14, s33=15, s34=16, s35=17),
        trajectory(s36="X"),
    ]


def test_turn_example_b_forced_system_error_gives_an_energy_and_a_compulsory_wall() -> None:
    state = start(1)
    set_sheet(state, 0, *_turn_b_sheet(), energies(5))
    reveal(state, (3, "water"), (9, "robot"), (14, "astronaut"))

    assert options(state, 0) == [system_error("error.1")]
    assert refused(state, 0, write(0, "traj.s15", 3)) == "no_legal_placement"
    assert refused(state, 0, write(2, "traj.s30", 12, modifier=-2)) == "no_legal_placement"

    move(state, 0, system_error("error.1"))

    marks = state.sheets[0].marks
    assert marks["error.1"] == "circle"  # the common System Error mark: a box is marked
    assert marks["energy.e06"] == "circle"
    assert marks["energy.w3"] == "cross"
    decision = engine.options(state, 0)
    assert decision.kind == "effect"
    assert {o["wall"] for o in options(state, 0)} == set(LAYOUT.walls) - {"wall.09", "wall.24"}
    assert refused(state, 0, skip("energy.w3")) == "wall_required"
    assert refused(state, 0, draw_wall("energy.w3", "wall.09")) == "wall_already_drawn"

    move(state, 0, draw_wall("energy.w3", "wall.15"))

    assert state.sheets[0].marks["wall.15"] == "line"
    assert engine.options(state, 0).kind == "confirm"
    # s15 now ends its zone: only the 6 in s14 precedes it.
    assert all(RULES.placement_problem(marks, "traj.s15", v) is None for v in range(7, 18))
    assert RULES.placement_problem(marks, "traj.s15", 6) is not None


def test_turn_example_b_variant_energy_starting_a_pair_draws_no_wall() -> None:
    state = start(1)
    set_sheet(state, 0, *_turn_b_sheet(), walls(3), energies(6))
    reveal(state, (3, "water"), (9, "robot"), (14, "astronaut"))

    move(state, 0, system_error("error.1"))

    assert state.sheets[0].marks["energy.e07"] == "circle"
    assert "energy.w4" not in state.sheets[0].marks
    assert engine.options(state, 0).kind == "confirm"


def test_turn_example_c_race_for_a_big_multiplier() -> None:
    ana, ben, chloe = range(3)
    state = start(3)
    set_sheet(state, ana, station(3, robots=2))
    set_sheet(state, ben, station(3, robots=2))
    set_sheet(state, chloe, station(3, robots=1))
    reveal(state, (5, "robot"), (6, "robot"), (7, "robot"))
    for seat in (ana, ben):
        move(state, seat, write(0, "traj.s01", 5))
        last = use("action.robot", robot="station3.robot3", multiplier="station3.mult_big")
        assert last in options(state, seat)
        move(state, seat, last)
        assert state.sheets[seat].marks["station3.mult_big"] == "circle"
    move(state, chloe, write(0, "traj.s01", 5))
    move(state, chloe, use("action.robot", robot="station3.robot2"))
    confirm_all(state)

    assert [state.sheets[seat].marks.get("station3.mult_big") for seat in range(3)] == [
        "circle",
        "circle",
        "cross",
    ]

    reveal(state, (8, "water"), (9, "water"), (10, "water"))
    for seat in range(3):
        move(state, seat, write(0, "traj.s03", 8))  # no tank: the Water step ends by itself
    confirm_all(state)

    reveal(state, (10, "robot"), (11, "robot"), (12, "robot"))
    for seat in range(3):
        move(state, seat, write(0, "traj.s05", 10))
    last = use("action.robot", robot="station3.robot3", multiplier="station3.mult_small")
    assert last in options(state, chloe)
    assert refused(state, chloe, {**last, "multiplier": "station3.mult_big"}) == (
        "multiplier_crossed"
    )
    move(state, chloe, last)
    assert state.sheets[chloe].marks["station3.mult_small"] == "circle"
    assert state.sheets[chloe].marks["station3.mult_big"] == "cross"


def test_turn_example_d_astronaut_shift_wild_action_and_planning_x() -> None:
    state = start(1)
    set_sheet(state, 0, trajectory(s08=9, s20=10, s22=14), crossed("astro.a1"))
    reveal(state, (13, "astronaut"), (1, "robot"), (2, "plant"))

    shifted = {
        (o["number"], o["space"])
        for o in options(state, 0)
        if o["combination"] == 0 and "modifier" in o
    }
    assert {space for number, space in shifted if number in (11, 12, 13)} == {"traj.s21"}
    assert not any(number == 14 for number, _ in shifted)
    assert {space for number, space in shifted if number == 15} == {s(o) for o in range(23, 37)}
    assert refused(state, 0, write(0, "traj.s23", 16, modifier=3)) == "modifier_out_of_range"
    start_of_turn = state.copy()

    move(state, 0, write(0, "traj.s21", 11, modifier=-2))

    marks = state.sheets[0].marks
    assert marks["traj.s21"] == 11
    assert marks["astro.a2"] == "cross"
    assert marks["astro.wild1"] == "circle"
    # The wild action could only be used at the pick, which is made: it waits for next turn.
    assert engine.options(state, 0).kind == "confirm"
    with pytest.raises(engine.OutOfTurn):
        engine.decide(state, 0, {"type": "move", "choice": write(1, "traj.s01", 1)})
    wild_now = write(0, "traj.s21", 13, wild="astro.wild1", wild_action="planning")
    assert refused(start_of_turn, 0, wild_now) == "wild_not_available"
    undo(state, 0)
    assert refused(state, 0, wild_now) == "wild_not_available"
    move(state, 0, write(0, "traj.s21", 11, modifier=-2))
    confirm(state, 0)

    reveal(state, (4, "water"), (1, "robot"), (2, "plant"))
    as_planning = write(0, "traj.s05", 4, wild="astro.wild1", wild_action="planning")
    assert as_planning in options(state, 0)
    move(state, 0, as_planning)
    assert state.sheets[0].marks["astro.wild1"] == "cross"
    assert "water.t02" not in state.sheets[0].marks
    move(state, 0, use("action.planning", space="traj.s02"))

    marks = state.sheets[0].marks
    assert marks["traj.s02"] == X
    assert marks["plan.p1"] == "cross"
    assert "plan.wild1" not in marks
    assert "water.t01" not in marks and "water.t02" not in marks


def test_turn_example_d_astronaut_on_a_1_cannot_go_below_0() -> None:
    state = start(1)
    set_sheet(state, 0)
    reveal(state, (1, "astronaut"), (5, "robot"), (6, "plant"))

    assert refused(state, 0, write(0, "traj.s01", -1, modifier=-2)) == "number_out_of_range"
    assert {o.get("modifier") for o in options(state, 0) if o["combination"] == 0} == {
        None,
        -1,
        0,
        1,
        2,
    }
