"""The Colony, rule by rule: each action legal and refused, reactions and chains, the quarter
race, missions first and later, end conditions, live scores and standings."""

import pytest

from games.rules import engine
from games.rules.core.state import GameState
from tests.rules.colony_helpers import (
    LAYOUT,
    RULES,
    astronauts,
    boxes,
    circled,
    confirm,
    confirm_all,
    diagonal_sheet,
    errors,
    everything_x,
    grid,
    marks_of,
    move,
    options,
    refused,
    reveal,
    score,
    set_sheet,
    skip,
    start,
    tunnels,
    write,
)

MISSIONS = {"A": 76, "B": 78, "C": 80}


def game(players: int = 1) -> GameState:
    return start(players, missions=MISSIONS)


# --- numbering -------------------------------------------------------------------------------


def test_a_number_goes_in_an_empty_space_keeping_row_and_column_ascending() -> None:
    state = game()
    set_sheet(state, 0, grid({2: "3 . . . . .", 3: ". . . (X) . 12"}))
    reveal(state, (7, "robot"), (2, "energy"), (14, "plant"))
    assert refused(state, 0, action="write", combination=0, space="bld.r1c1", number=7) == (
        "space_prenumbered"
    )
    assert refused(state, 0, action="write", combination=0, space="bld.r9c9", number=7) == (
        "unknown_space"
    )
    assert refused(state, 0, action="write", combination=0, space="bld.r2c1", number=7) == (
        "space_not_empty"
    )
    assert refused(state, 0, action="write", combination=2, space="bld.r3c5", number=14) == (
        "space_not_ascending"
    )
    assert refused(state, 0, action="write", combination=1, space="bld.r3c1", number=2) == (
        "space_not_ascending"
    )
    assert refused(state, 0, action="write", combination=0, space="bld.r3c1", number=8) == (
        "number_not_in_combination"
    )
    assert refused(state, 0, action="write", combination=5, space="bld.r3c1", number=7) == (
        "unknown_combination"
    )
    write(state, 0, 0, "bld.r3c5", 7)
    assert marks_of(state, 0)["bld.r3c5"] == 7
    assert state.seats[0].pending == [["action.robot"]]


def test_every_listed_write_keeps_both_zones_ascending() -> None:
    state = game()
    set_sheet(state, 0, grid({4: "5 . (X) 9 . .", 2: ". 6 . . . ."}))
    reveal(state, (7, "robot"), (6, "energy"), (3, "plant"))
    spaces = {(o["space"], o["number"]) for o in options(state, 0)}
    assert ("bld.r4c2", 7) in spaces  # row 5 < 7 < 9 past the printed X
    assert ("bld.r4c2", 6) not in spaces  # column 2 already holds a 6
    assert ("bld.r3c2", 7) in spaces and ("bld.r3c2", 3) not in spaces


def test_no_writable_combination_means_the_next_system_error_and_nothing_else() -> None:
    state = game()
    set_sheet(state, 0, everything_x(but=("bld.r6c5",)) | {"bld.r6c4": 15} | errors(1))
    reveal(state, (5, "robot"), (8, "plant"), (13, "water"))
    assert options(state, 0) == [{"action": "system_error", "box": "error.2"}]
    assert refused(state, 0, action="system_error", box="error.3") == "error_box_not_next"
    move(state, 0, action="system_error", box="error.2")
    assert engine.options(state, 0).kind == "confirm"
    assert score(state, 0)["system_errors"] == -10


# --- water -----------------------------------------------------------------------------------


def test_water_circles_the_tank_of_the_building_just_numbered() -> None:
    state = game()
    reveal(state, (7, "water"), (8, "plant"), (13, "energy"))
    write(state, 0, 0, "bld.r3c2", 7)
    assert options(state, 0) == [
        {"action": "water", "effect": "action.water", "tank": "water.r3c2"},
        {"action": "skip", "effect": "action.water"},
    ]
    assert refused(state, 0, action="water", effect="action.water", tank="water.r6c1") == (
        "tank_not_on_space"
    )
    assert refused(state, 0, action="plant", effect="action.water", greenhouse="x") == (
        "illegal_choice"
    )
    move(state, 0, action="water", effect="action.water", tank="water.r3c2")
    assert marks_of(state, 0)["water.r3c2"] == "circle"
    assert engine.options(state, 0).kind == "confirm"


def test_water_may_be_declined_and_does_nothing_without_a_tank() -> None:
    state = game()
    reveal(state, (7, "water"), (8, "plant"), (13, "energy"))
    write(state, 0, 0, "bld.r3c2", 7)
    skip(state, 0, "action.water")
    assert "water.r3c2" not in marks_of(state, 0)
    state = game()
    reveal(state, (7, "water"), (8, "plant"), (13, "energy"))
    write(state, 0, 0, "bld.r3c3", 7)
    assert state.seats[0].pending == []


# --- plant -----------------------------------------------------------------------------------


def test_plant_circles_the_next_greenhouse_of_the_quarter_of_the_number() -> None:
    state = game()
    set_sheet(state, 0, circled("greenhouse.BR.1"))
    reveal(state, (7, "plant"), (8, "water"), (13, "energy"))
    write(state, 0, 0, "bld.r2c5", 7)
    assert refused(
        state, 0, action="plant", effect="action.plant", greenhouse="greenhouse.BR.3"
    ) == "greenhouse_not_next"
    assert refused(
        state, 0, action="plant", effect="action.plant", greenhouse="greenhouse.BL.1"
    ) == "greenhouse_wrong_quarter"
    move(state, 0, action="plant", effect="action.plant", greenhouse="greenhouse.BR.2")
    assert marks_of(state, 0)["greenhouse.BR.2"] == "circle"


# --- robot -----------------------------------------------------------------------------------


def test_robot_draws_a_tunnel_touching_the_network() -> None:
    state = game()
    reveal(state, (7, "robot"), (8, "water"), (13, "energy"))
    write(state, 0, 0, "bld.r4c4", 7)
    assert refused(
        state, 0, action="robot", effect="action.robot", tunnel="tunnel.r1c1-r1c2"
    ) == "tunnel_already_drawn"
    assert refused(
        state, 0, action="robot", effect="action.robot", tunnel="tunnel.r4c4-r4c5"
    ) == "tunnel_not_connected"
    assert refused(state, 0, action="robot", effect="action.robot", tunnel="tunnel.zz") == (
        "unknown_tunnel"
    )
    move(state, 0, action="robot", effect="action.robot", tunnel="tunnel.r1c2-r2c2")
    assert marks_of(state, 0)["tunnel.r1c2-r2c2"] == "line"
    derived = engine.sheet_view(state, 0, viewer=0)["derived"]
    assert "bld.r2c2" in derived["connected_buildings"]
    assert "tunnel.r1c2-r2c2" in derived["tunnels"]


def test_connecting_the_observatory_circles_its_three_antennas_and_meets_card_78() -> None:
    state = game()
    path = tunnels(
        "r2c1-r3c1", "r3c1-r4c1", "r4c1-r5c1", "r5c1-r6c1",
        "r6c1-r6c2", "r6c2-r6c3", "r6c3-r6c4", "r6c4-r6c5",
    )
    set_sheet(state, 0, path)
    reveal(state, (7, "robot"), (8, "water"), (13, "energy"))
    write(state, 0, 0, "bld.r3c3", 7)
    assert not RULES.mission_holds(state, 0, 78)
    move(state, 0, action="robot", effect="action.robot", tunnel="tunnel.r6c5-r6c6")
    assert [marks_of(state, 0).get(f"antenna.obs.{n}") for n in (1, 2, 3)] == ["circle"] * 3
    assert RULES.mission_holds(state, 0, 78)
    confirm(state, 0)
    assert marks_of(state, 0)["mission.B"] == 9


# --- energy ----------------------------------------------------------------------------------


def test_energy_crosses_the_next_box_of_a_track_that_is_not_full() -> None:
    state = game()
    set_sheet(state, 0, boxes("track.plants", 4) | boxes("track.antennas", 1))
    reveal(state, (7, "energy"), (8, "water"), (13, "robot"))
    write(state, 0, 0, "bld.r3c3", 7)
    assert [o.get("box") for o in options(state, 0)] == [
        "track.water.1",
        "track.antennas.2",
        None,
    ]
    assert refused(state, 0, action="energy", effect="action.energy", box="track.plants.4") == (
        "box_already_crossed"
    )
    assert refused(state, 0, action="energy", effect="action.energy", box="track.planning.1") == (
        "unknown_box"
    )
    move(state, 0, action="energy", effect="action.energy", box="track.antennas.2")
    assert LAYOUT.tracks["track.antennas"].value(marks_of(state, 0)) == 2


# --- astronaut -------------------------------------------------------------------------------


def test_astronaut_changing_the_number_crosses_a_symbol_at_once() -> None:
    state = game()
    reveal(state, (7, "astronaut"), (8, "water"), (13, "robot"))
    assert refused(state, 0, action="write", combination=0, space="bld.r3c3", number=10) == (
        "astronaut_modifier_out_of_range"
    )
    write(state, 0, 0, "bld.r3c3", 9)
    assert marks_of(state, 0)["astro.1"] == "cross"
    assert engine.options(state, 0).kind == "confirm"


def test_astronaut_keeping_the_number_may_still_cross_or_skip_the_symbol() -> None:
    state = game()
    reveal(state, (7, "astronaut"), (8, "water"), (13, "robot"))
    write(state, 0, 0, "bld.r3c3", 7)
    assert options(state, 0) == [
        {"action": "astronaut", "effect": "action.astronaut"},
        {"action": "skip", "effect": "action.astronaut"},
    ]
    move(state, 0, action="astronaut", effect="action.astronaut")
    assert marks_of(state, 0)["astro.1"] == "cross"


def test_past_the_ninth_astronaut_the_change_still_works_and_crosses_nothing() -> None:
    state = game()
    set_sheet(state, 0, astronauts(9))
    reveal(state, (7, "astronaut"), (8, "water"), (13, "robot"))
    write(state, 0, 0, "bld.r3c3", 5)
    assert marks_of(state, 0)["bld.r3c3"] == 5
    assert RULES.astronauts(marks_of(state, 0)) == 9


# --- planning --------------------------------------------------------------------------------


def test_planning_writes_an_x_anywhere_empty_and_crosses_the_next_box() -> None:
    state = game()
    set_sheet(state, 0, grid({1: "(R) 4 . . . ."}))
    reveal(state, (7, "planning"), (8, "water"), (13, "robot"))
    write(state, 0, 0, "bld.r3c3", 7)
    assert refused(state, 0, action="planning", effect="action.planning", space="bld.r1c2") == (
        "space_not_empty"
    )
    assert refused(state, 0, action="planning", effect="action.planning", space="bld.r4c3") == (
        "space_prenumbered"
    )
    # The X in r2c1 (connected by its pre-built tunnel) circles its antenna at once.
    move(state, 0, action="planning", effect="action.planning", space="bld.r2c1")
    marks = marks_of(state, 0)
    assert (marks["bld.r2c1"], marks["antenna.r2c1"], marks["track.planning.1"]) == (
        "X",
        "circle",
        "cross",
    )
    assert score(state, 0)["planning"] == -1  # the lowest value still visible


def test_declining_planning_crosses_no_planning_box() -> None:
    state = game()
    reveal(state, (7, "planning"), (8, "water"), (13, "robot"))
    write(state, 0, 0, "bld.r3c3", 7)
    skip(state, 0, "action.planning")
    assert "track.planning.1" not in marks_of(state, 0)


def test_the_planning_penalty_stops_at_28() -> None:
    state = game()
    set_sheet(state, 0, boxes("track.planning", 9))
    reveal(state, (7, "planning"), (8, "water"), (13, "robot"))
    write(state, 0, 0, "bld.r3c3", 7)
    move(state, 0, action="planning", effect="action.planning", space="bld.r5c5")
    assert score(state, 0)["planning"] == -28


# --- undo ------------------------------------------------------------------------------------


def test_undo_restores_the_sheet_after_a_chain() -> None:
    state = game()
    reveal(state, (7, "robot"), (8, "water"), (13, "energy"))
    before = dict(marks_of(state, 0))
    write(state, 0, 0, "bld.r2c2", 7)
    move(state, 0, action="robot", effect="action.robot", tunnel="tunnel.r1c2-r2c2")
    for event in engine.decide(state, 0, {"type": "undo"}):
        engine.evolve(state, event)
    assert marks_of(state, 0) == before
    assert engine.options(state, 0).kind == "choose"


# --- the quarter race ------------------------------------------------------------------------


def test_a_quarter_won_by_nobody_this_turn_stays_open_for_everyone() -> None:
    state = game(2)
    reveal(state, (7, "robot"), (8, "water"), (13, "energy"))
    for seat in (0, 1):
        write(state, seat, 0, "bld.r3c3", 7)
        skip(state, seat, "action.robot")
    confirm_all(state)
    assert not any(k.startswith("qbonus") for s in range(2) for k in marks_of(state, s))


def test_two_quarters_completed_in_one_turn_are_each_handled() -> None:
    state = game(2)
    tl = [s for s in LAYOUT.quarter_spaces("quarter.TL") if s != "bld.r4c2"]
    br = [s for s in LAYOUT.quarter_spaces("quarter.BR") if s != "bld.r2c5"]
    set_sheet(state, 0, {space: "X" for space in tl + br})
    reveal(state, (7, "planning"), (8, "water"), (13, "energy"))
    write(state, 0, 0, "bld.r4c2", 7)
    move(state, 0, action="planning", effect="action.planning", space="bld.r2c5")
    write(state, 1, 0, "bld.r3c3", 7)
    skip(state, 1, "action.planning")
    confirm_all(state)
    assert [marks_of(state, 0)[f"qbonus.{q}.15"] for q in ("TL", "BR")] == ["circle"] * 2
    assert [marks_of(state, 1)[f"qbonus.{q}.15"] for q in ("TL", "BR")] == ["cross"] * 2
    assert "qbonus.BL.15" not in marks_of(state, 1)


# --- missions --------------------------------------------------------------------------------


def test_mission_predicates_of_the_six_cards() -> None:
    state = game()
    full = diagonal_sheet()
    set_sheet(state, 0, {s: v for s, v in full.items() if LAYOUT.spaces[s]["col"] <= 3})
    assert RULES.mission_holds(state, 0, 76)
    assert not RULES.mission_holds(state, 0, 77)
    set_sheet(state, 0, {s: v for s, v in full.items() if LAYOUT.spaces[s]["row"] >= 4})
    assert RULES.mission_holds(state, 0, 77)
    assert not RULES.mission_holds(state, 0, 76)

    set_sheet(state, 0, circled("antenna.r1c2", "antenna.r2c1", "antenna.r3c2"))
    assert not RULES.mission_holds(state, 0, 79)
    set_sheet(
        state,
        0,
        circled("antenna.r1c2", "antenna.r2c1", "antenna.r3c2")
        | circled("antenna.r4c1", "antenna.r5c3", "antenna.r6c2"),
    )
    assert RULES.mission_holds(state, 0, 79)

    set_sheet(state, 0, circled(*(f"greenhouse.TL.{n}" for n in range(1, 5)), "greenhouse.TR.1"))
    assert not RULES.mission_holds(state, 0, 80)  # 6 plants
    set_sheet(
        state,
        0,
        circled(*(f"greenhouse.{q}.{n}" for q in ("TL", "BR") for n in range(1, 5))),
    )
    assert RULES.mission_holds(state, 0, 80)  # 10 plants

    set_sheet(state, 0, circled("water.r6c1", "water.r5c3", "water.r5c5"))
    assert not RULES.mission_holds(state, 0, 81)
    set_sheet(state, 0, circled("water.r6c1", "water.r5c3", "water.r5c5", "water.r4c6"))
    assert RULES.mission_holds(state, 0, 81)


def test_a_mission_met_by_two_players_in_the_same_turn_gives_both_the_first_value() -> None:
    state = game(3)
    almost = circled(*(f"greenhouse.{q}.{n}" for q in ("TL", "BR") for n in range(1, 4)))
    almost |= circled("greenhouse.TL.4")
    for seat in range(3):
        set_sheet(state, seat, almost)
    reveal(state, (7, "plant"), (8, "water"), (13, "energy"))
    for seat in (0, 1):
        write(state, seat, 0, "bld.r2c5", 7)
        move(state, seat, action="plant", effect="action.plant", greenhouse="greenhouse.BR.4")
    write(state, 2, 0, "bld.r3c3", 7)
    skip(state, 2, "action.plant")
    confirm_all(state)
    assert [marks_of(state, seat).get("mission.C") for seat in range(3)] == [8, 8, None]

    reveal(state, (7, "plant"), (8, "water"), (13, "energy"))
    for seat in (0, 1):
        write(state, seat, 2, "bld.r5c5", 13)
        move(state, seat, action="energy", effect="action.energy", box="track.plants.1")
    write(state, 2, 0, "bld.r2c5", 7)
    move(state, 2, action="plant", effect="action.plant", greenhouse="greenhouse.BR.4")
    confirm_all(state)
    assert marks_of(state, 2)["mission.C"] == 4


# --- end of game -----------------------------------------------------------------------------


def test_the_game_ends_after_the_turn_that_fills_the_32nd_space() -> None:
    state = game(2)
    full = diagonal_sheet()
    set_sheet(state, 0, {s: v for s, v in full.items() if s != "bld.r6c5"})
    reveal(state, (11, "robot"), (8, "water"), (13, "energy"))
    write(state, 0, 0, "bld.r6c5", 11)
    skip(state, 0, "action.robot")
    write(state, 1, 0, "bld.r3c3", 11)
    skip(state, 1, "action.robot")
    confirm(state, 0)
    assert state.status == "playing"
    confirm(state, 1)
    assert state.status == "ended"
    assert {"reason": "sheet_full", "seats": [0]} in (state.end or {})["reasons"]


def test_the_game_ends_after_a_third_system_error() -> None:
    state = game()
    set_sheet(state, 0, everything_x(but=("bld.r6c5",)) | {"bld.r6c4": 15} | errors(2))
    reveal(state, (5, "robot"), (8, "plant"), (13, "water"))
    move(state, 0, action="system_error", box="error.3")
    confirm(state, 0)
    assert state.status == "ended"
    assert (state.end or {})["reasons"] == [{"reason": "all_system_errors", "seats": [0]}]


def test_the_game_ends_when_a_player_has_all_three_missions() -> None:
    state = game()
    set_sheet(state, 0, {"mission.A": 12, "mission.B": 9})
    state.sheets[0].marks["mission.C"] = 8
    reveal(state, (5, "robot"), (8, "plant"), (13, "water"))
    write(state, 0, 0, "bld.r3c3", 5)
    skip(state, 0, "action.robot")
    confirm(state, 0)
    assert (state.end or {})["reasons"] == [{"reason": "all_missions", "seats": [0]}]


# --- scores and standings --------------------------------------------------------------------


def test_the_live_astronaut_ranking_reads_other_sheets_as_they_began_the_turn() -> None:
    state = game(2)
    set_sheet(state, 0, astronauts(2))
    set_sheet(state, 1, astronauts(2))
    reveal(state, (7, "astronaut"), (8, "water"), (13, "robot"))
    write(state, 1, 0, "bld.r3c3", 9)  # seat 1 now has 3, not yet visible to seat 0
    assert score(state, 0)["astronauts"] == 20
    assert score(state, 1)["astronauts"] == 20
    write(state, 0, 1, "bld.r3c3", 8)
    confirm_all(state)
    assert [score(state, seat)["astronauts"] for seat in (0, 1)] == [10, 20]


def test_astronaut_ranking_is_dense_and_ignores_players_without_symbols() -> None:
    state = game(4)
    for seat, count in enumerate((5, 5, 3, 0)):
        set_sheet(state, seat, astronauts(count))
    assert [score(state, seat)["astronauts"] for seat in range(4)] == [20, 20, 10, 0]
    assert RULES.solo_astronauts(4, astra_astronaut_cards=4) == 20
    assert RULES.solo_astronauts(0, astra_astronaut_cards=0) == 0


def test_standings_break_ties_by_fewer_system_errors_then_share() -> None:
    state = game(3)
    set_sheet(state, 0, {"mission.A": 12} | errors(1) | {"mission.B": 5})
    set_sheet(state, 1, {"mission.A": 12})
    set_sheet(state, 2, {"mission.A": 12})
    state.status = "ended"
    standings = RULES.standings(state)
    assert [s["total"] for s in standings["scores"]] == [12, 12, 12]
    assert [s["rank"] for s in standings["scores"]] == [2, 1, 1]
    assert standings["winners"] == [1, 2]


# --- what a front end draws ------------------------------------------------------------------


def test_derived_shows_the_network_and_the_buildings_it_connects() -> None:
    state = game()
    set_sheet(state, 0, tunnels("r2c1-r3c1", "r3c1-r3c2") | diagonal_sheet())
    derived = engine.sheet_view(state, 0, viewer=0)["derived"]
    assert sorted(derived["tunnels"]) == [
        "tunnel.r1c1-r1c2",
        "tunnel.r1c1-r2c1",
        "tunnel.r2c1-r3c1",
        "tunnel.r3c1-r3c2",
    ]
    assert sorted(derived["connected_buildings"]) == sorted(
        ["bld.r1c1", "bld.r1c2", "bld.r2c1", "bld.r3c1", "bld.r3c2"]
    )
    assert derived["observatory_connected"] is False
    assert derived["complete_quarters"] == ["quarter.TL", "quarter.TR", "quarter.BL", "quarter.BR"]
    assert "tunnel.r3c2-r4c2" in derived["buildable_tunnels"]
    assert "tunnel.r5c5-r6c5" not in derived["buildable_tunnels"]


def test_setup_modifiers_are_checked_against_the_sheet() -> None:
    good = [{"kind": "start_marks", "marks": [{"element": "bld.r2c2", "mark": "X"}]}]
    events = engine.new_game(adventure=3, players=1, seed=1, modifiers={0: good})
    assert engine.replay(events).sheets[0].marks == {"bld.r2c2": "X"}
    for bad in (
        [{"kind": "start_marks", "marks": [{"element": "bld.r1c1", "mark": "X"}]}],
        [{"kind": "start_marks", "marks": [{"element": "bld.r2c2", "mark": 4}]}],
        [{"kind": "system_errors", "delta": -3}],
    ):
        with pytest.raises(engine.RuleViolation) as error:
            engine.new_game(adventure=3, players=1, seed=1, modifiers={0: bad})
        assert error.value.code == "invalid_modifier"
