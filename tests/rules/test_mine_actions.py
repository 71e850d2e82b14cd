"""The Mine, action by action: a legal and a refused case each, then factories, missions,
races, end of game, standings and what is derived for a front end."""

import pytest

from games.rules import engine
from games.rules.core.sheet import Marks
from tests.rules.mine_helpers import LAYOUT, RULES, game, mine, move, refused, reveal, send
from tests.rules.playing import claim_all, options


def write(state: engine.GameState, combination: int, space: str, number: int | None = None) -> None:
    if number is None:
        number = state.combinations[combination].number
    move(state, 0, action="write", combination=combination, space=space, number=number)


def pending(state: engine.GameState, seat: int = 0) -> list[list[str]]:
    return state.seats[seat].pending


# --- writing the number --------------------------------------------------------------------


def test_a_number_goes_anywhere_its_level_stays_ascending() -> None:
    state = game(sheet=mine({"level1": {"c03": 6}}))
    reveal(state, (7, "robot"), (5, "energy"), (9, "plant"))
    write(state, 0, "level1.c04")
    assert state.sheets[0].marks["level1.c04"] == 7
    assert state.sheets[0].marks["mineral.level1.c04"] == "circle"
    assert state.seats[0].chosen == "write"


def test_placement_refusals_name_the_rule() -> None:
    state = game(sheet=mine({"level1": {"c03": 6, "c04": "X"}}))
    reveal(state, (5, "robot"), (8, "energy"), (9, "plant"))
    assert refused(state, 0, action="write", combination=0, space="level1.c05",
                   number=5) == "space_not_ascending"
    assert refused(state, 0, action="write", combination=0, space="level1.c04",
                   number=5) == "space_not_empty"
    assert refused(state, 0, action="write", combination=0, space="level4.c01",
                   number=5) == "unknown_space"
    assert refused(state, 0, action="write", combination=3, space="level2.c01",
                   number=5) == "unknown_combination"
    assert refused(state, 0, action="write", combination=0, space="level2.c01",
                   number=6) == "number_not_in_combination"
    assert refused(state, 0, action="dig") == "illegal_choice"


def test_columns_impose_no_order() -> None:
    state = game(sheet=mine({"level1": {"c01": 14}}))
    reveal(state, (2, "robot"), (8, "energy"), (9, "plant"))
    write(state, 0, "level2.c01")
    assert state.sheets[0].marks["level2.c01"] == 2


# --- astronaut -----------------------------------------------------------------------------


def test_astronaut_modifier_crosses_the_next_astronaut_symbol() -> None:
    state = game()
    reveal(state, (1, "astronaut"), (8, "energy"), (9, "plant"))
    numbers = {o["number"] for o in options(state, 0) if o["combination"] == 0}
    assert numbers == {0, 1, 2, 3}
    write(state, 0, "level1.c01", 0)
    assert state.sheets[0].marks["astronaut.s1"] == "cross"
    assert state.seats[0].turn_choice["modifier"] == -1
    assert engine.options(state, 0).kind == "confirm"


def test_astronaut_without_modifier_is_optional() -> None:
    state = game()
    reveal(state, (6, "astronaut"), (8, "energy"), (9, "plant"))
    write(state, 0, "level1.c01", 6)
    assert engine.options(state, 0).options == [
        {"action": "astronaut", "effect": "action.astronaut"},
        {"action": "skip", "effect": "action.astronaut"},
    ]
    move(state, 0, action="astronaut", effect="action.astronaut")
    assert state.sheets[0].marks["astronaut.s1"] == "cross"


def test_astronaut_modifier_beyond_two_is_refused() -> None:
    state = game()
    reveal(state, (6, "astronaut"), (8, "energy"), (9, "plant"))
    assert refused(state, 0, action="write", combination=0, space="level1.c01",
                   number=9) == "astronaut_modifier_out_of_range"
    assert refused(state, 0, action="write", combination=1, space="level1.c01",
                   number=9) == "number_not_in_combination"


def test_astronaut_modifier_still_works_past_the_last_symbol() -> None:
    sheet = {symbol: "cross" for symbol in LAYOUT.astronaut_symbols}
    state = game(sheet=sheet)
    reveal(state, (15, "astronaut"), (8, "energy"), (9, "plant"))
    write(state, 0, "level1.c12", 17)
    assert state.sheets[0].marks["level1.c12"] == 17
    assert engine.options(state, 0).kind == "confirm"


# --- planning ------------------------------------------------------------------------------


def test_planning_writes_an_x_anywhere_and_crosses_a_planning_symbol() -> None:
    state = game(sheet=mine({"level1": {"c01": 3, "c03": 9}}))
    reveal(state, (4, "planning"), (8, "energy"), (9, "plant"))
    write(state, 0, "level1.c02")
    spaces = {o["space"] for o in engine.options(state, 0).options if o["action"] == "planning"}
    assert len(spaces) == 33 and "level1.c02" not in spaces
    move(state, 0, action="planning", effect="action.planning", space="level3.c02")
    marks = state.sheets[0].marks
    assert marks["level3.c02"] == "X"
    assert marks["mineral.level3.c02"] == "circle"
    assert marks["planning.s1"] == "cross"


def test_planning_refusals() -> None:
    state = game(sheet=mine({"level1": {"c01": 3}}))
    reveal(state, (4, "planning"), (8, "energy"), (9, "plant"))
    write(state, 0, "level1.c02")
    assert refused(state, 0, action="planning", effect="action.planning",
                   space="level1.c01") == "space_not_empty"
    assert refused(state, 0, action="planning", effect="action.planning",
                   space="surface") == "unknown_space"
    assert refused(state, 0, action="planning", effect="action.plant",
                   space="level2.c01") == "effect_not_pending"
    move(state, 0, action="skip", effect="action.planning")
    assert "planning.s1" not in state.sheets[0].marks


def test_planning_x_past_the_last_symbol_crosses_nothing() -> None:
    sheet = {symbol: "cross" for symbol in LAYOUT.planning_symbols}
    state = game(sheet=sheet)
    reveal(state, (4, "planning"), (8, "energy"), (9, "plant"))
    write(state, 0, "level1.c02")
    events = move(state, 0, action="planning", effect="action.planning", space="level1.c05")
    assert [e["data"]["element"] for e in events if e["kind"] == "mark"] == ["level1.c05"]


# --- plant and water -----------------------------------------------------------------------


def test_plant_on_a_middle_level_space_chooses_above_or_below() -> None:
    state = game()
    reveal(state, (5, "plant"), (8, "energy"), (9, "water"))
    write(state, 0, "level2.c01")
    assert engine.options(state, 0).options == [
        {"action": "plant", "effect": "action.plant", "symbol": "plant.g12.c01"},
        {"action": "plant", "effect": "action.plant", "symbol": "plant.g23.c01"},
        {"action": "skip", "effect": "action.plant"},
    ]
    move(state, 0, action="plant", effect="action.plant", symbol="plant.g23.c01")
    assert state.sheets[0].marks["plant.g23.c01"] == "circle"


def test_plant_refusals() -> None:
    state = game(sheet={"plant.g12.c01": "circle"})
    reveal(state, (5, "plant"), (8, "energy"), (9, "water"))
    write(state, 0, "level2.c01")
    assert refused(state, 0, action="plant", effect="action.plant",
                   symbol="plant.g12.c01") == "symbol_already_marked"
    assert refused(state, 0, action="plant", effect="action.plant",
                   symbol="plant.g12.c03") == "symbol_not_reachable"
    assert refused(state, 0, action="plant", effect="action.plant",
                   symbol="water.g12.c02") == "wrong_symbol_kind"
    assert refused(state, 0, action="plant", effect="action.plant",
                   symbol="pump.c01") == "unknown_symbol"
    assert refused(state, 0, action="water", effect="action.plant",
                   symbol="plant.g23.c01") == "illegal_choice"


def test_plant_with_nothing_reachable_has_no_effect() -> None:
    state = game()
    reveal(state, (5, "plant"), (8, "energy"), (9, "water"))
    events = engine.decide(state, 0, {"type": "move", "choice": {
        "action": "write", "combination": 0, "space": "level1.c05", "number": 5}})
    assert events[-1]["kind"] == "effect_resolved"
    assert events[-1]["data"]["outcome"] == "no_effect"
    for event in events:
        engine.evolve(state, event)
    assert engine.options(state, 0).kind == "confirm"


def test_water_circles_the_reachable_water_symbol() -> None:
    state = game()
    reveal(state, (5, "water"), (8, "energy"), (9, "plant"))
    write(state, 0, "level2.c08")
    symbols = [o.get("symbol") for o in engine.options(state, 0).options]
    assert symbols == ["water.g12.c08", "water.g23.c08", None]
    assert refused(state, 0, action="water", effect="action.water",
                   symbol="water.g23.c07") == "symbol_not_reachable"
    move(state, 0, action="water", effect="action.water", symbol="water.g23.c08")
    assert state.sheets[0].marks["water.g23.c08"] == "circle"


# --- robot and energy ----------------------------------------------------------------------


def test_robot_crosses_any_robot_symbol_and_completes_an_upgrade() -> None:
    sheet = {"main.water.energy1": "cross", "main.water.robot1": "cross"}
    state = game(sheet=sheet)
    reveal(state, (5, "robot"), (8, "energy"), (9, "plant"))
    write(state, 0, "level1.c05")
    options = engine.options(state, 0).options
    assert len(options) == 16 - 1 + 1  # every uncrossed robot symbol, and skip
    move(state, 0, action="robot", effect="action.robot", symbol="main.water.robot2")
    marks = state.sheets[0].marks
    assert marks["main.water.value_base"] == "cross"
    assert RULES.factory_value(marks, "main.water") == 5


def test_robot_refusals() -> None:
    state = game(sheet={"main.water.robot1": "cross"})
    reveal(state, (5, "robot"), (8, "energy"), (9, "plant"))
    write(state, 0, "level1.c05")
    assert refused(state, 0, action="robot", effect="action.robot",
                   symbol="main.water.energy1") == "wrong_symbol_kind"
    assert refused(state, 0, action="robot", effect="action.robot",
                   symbol="main.water.robot1") == "symbol_already_crossed"
    assert refused(state, 0, action="robot", effect="action.robot",
                   symbol="astronaut.s1") == "unknown_symbol"


def test_energy_activates_a_secondary_resource_factory() -> None:
    sheet = {"sec.rubies.robot1": "cross"}
    state = game(sheet=sheet)
    reveal(state, (5, "energy"), (8, "robot"), (9, "plant"))
    write(state, 0, "level1.c05")
    assert refused(state, 0, action="energy", effect="action.energy",
                   symbol="sec.rubies.robot1") == "wrong_symbol_kind"
    move(state, 0, action="energy", effect="action.energy", symbol="sec.rubies.energy1")
    marks = state.sheets[0].marks
    assert marks["sec.rubies.bonus1"] == marks["sec.rubies.bonus2"] == "cross"
    assert marks["rubies.r01"] == marks["rubies.r02"] == "circle"
    assert RULES.derived(state, state.sheets[0], marks=marks)["factories"]["sec.rubies"]["activated"] is True


def test_a_secondary_bonus_can_win_the_filling_bonus() -> None:
    sheet = {**{f"water.r0{n}": "circle" for n in range(1, 6)}, "sec.water.robot1": "cross",
             "sec.water.robot2": "cross"}
    state = game(2, sheet=sheet)
    reveal(state, (5, "energy"), (8, "robot"), (9, "plant"))
    write(state, 0, "level1.c05")
    move(state, 0, action="energy", effect="action.energy", symbol="sec.water.energy1")
    assert state.sheets[0].marks["main.water.filling_bonus"] == "circle"


def test_bonus_robots_beyond_the_last_robot_symbol_are_lost() -> None:
    robots = [s for s in LAYOUT.factory_symbols if LAYOUT.elements[s]["kind"] == "robot_symbol"]
    sheet = {symbol: "cross" for symbol in robots[1:]}
    sheet["sec.robots.energy1"] = "cross"
    state = game(sheet=sheet)
    reveal(state, (5, "energy"), (8, "robot"), (9, "plant"))
    write(state, 0, "level1.c05")
    move(state, 0, action="energy", effect="action.energy", symbol="sec.robots.energy2")
    assert engine.options(state, 0).options == [
        {"action": "robot", "effect": "sec.robots.bonus1", "symbol": robots[0]}
    ]
    events = move(state, 0, action="robot", effect="sec.robots.bonus1", symbol=robots[0])
    lost = [e["data"] for e in events if e["kind"] == "effect_resolved"][1:]
    assert [d["outcome"] for d in lost] == ["no_effect", "no_effect"]
    assert engine.options(state, 0).kind == "confirm"


# --- System Errors -------------------------------------------------------------------------


def full_but(*empty: str) -> Marks:
    return {space: "X" for space in LAYOUT.spaces if space not in empty}


def test_system_error_only_when_nothing_can_be_written() -> None:
    state = game(sheet={**full_but("level1.c05"), "level1.c04": 9, "error.1": "circle"})
    reveal(state, (5, "robot"), (8, "energy"), (9, "plant"))
    assert engine.options(state, 0).options == [{"action": "system_error", "box": "error.2"}]
    assert refused(state, 0, action="system_error", box="error.3") == "error_box_not_next"
    move(state, 0, action="system_error", box="error.2")
    assert state.seats[0].chosen == "system_error"

    state = game(sheet={**full_but("level1.c05"), "level1.c04": 9})
    reveal(state, (5, "robot"), (8, "energy"), (10, "plant"))
    assert refused(state, 0, action="system_error", box="error.1") == "number_must_be_written"


# --- undo ----------------------------------------------------------------------------------


def test_undo_restores_the_sheet_after_a_chain() -> None:
    sheet = {"sec.robots.energy1": "cross"}
    state = game(sheet=sheet)
    reveal(state, (5, "energy"), (8, "robot"), (9, "plant"))
    write(state, 0, "level1.c05")
    move(state, 0, action="energy", effect="action.energy", symbol="sec.robots.energy2")
    send(state, 0, {"type": "undo"})
    assert state.sheets[0].marks == sheet
    assert engine.options(state, 0).kind == "choose"


# --- phase 5: extraction and races ---------------------------------------------------------


def rubies_before_trigger() -> Marks:
    """Eleven rubies in the factory and a column one cavity away from two more."""
    return {
        **{f"rubies.r{n:02}": "circle" for n in range(1, 12)},
        **mine({"level1": {"c07": 9}, "level2": {"c07": 10}}),
    }


def test_filling_bonus_race_shared_by_all_first_players_and_lost_for_the_others() -> None:
    state = game(3, missions={"A": 82, "B": 84, "C": 86}, sheet=rubies_before_trigger())
    reveal(state, (12, "robot"), (2, "energy"), (3, "plant"))
    for seat in (0, 1):
        move(state, seat, action="write", combination=0, space="level3.c07", number=12)
        move(state, seat, action="skip", effect="action.robot")
    move(state, 2, action="write", combination=1, space="level3.c01", number=2)
    move(state, 2, action="skip", effect="action.energy")
    for seat in range(3):
        assert "main.rubies.filling_bonus" not in state.sheets[seat].marks  # phase 5 not yet
        send(state, seat, {"type": "confirm"})
    bonus = [seat.marks.get("main.rubies.filling_bonus") for seat in state.sheets]
    assert bonus == ["circle", "circle", "cross"]
    assert state.sheets[0].marks["rubies.r13"] == "circle"
    assert RULES.derived(state, state.sheets[2], marks=state.sheets[2].marks)["factories"]["main.rubies"][
        "filling_bonus"
    ] == "lost"


def test_a_crossed_filling_bonus_is_never_circled_later() -> None:
    sheet = {**rubies_before_trigger(), "main.rubies.filling_bonus": "cross"}
    state = game(sheet=sheet)
    reveal(state, (12, "robot"), (2, "energy"), (3, "plant"))
    write(state, 0, "level3.c07")
    move(state, 0, action="skip", effect="action.robot")
    send(state, 0, {"type": "confirm"})
    assert state.sheets[0].marks["main.rubies.filling_bonus"] == "cross"
    assert state.sheets[0].marks["rubies.r12"] == "circle"


def test_a_column_is_extracted_in_phase_5_with_this_turns_plant() -> None:
    state = game(sheet=mine({"level1": {"c01": 1}, "level3": {"c01": 3}}))
    reveal(state, (2, "plant"), (8, "robot"), (9, "energy"))
    write(state, 0, "level2.c01")
    move(state, 0, action="plant", effect="action.plant", symbol="plant.g23.c01")
    derived = RULES.derived(state, state.sheets[0], marks=state.sheets[0].marks)
    assert derived["columns_to_extract"] == ["col01"]
    send(state, 0, {"type": "confirm"})
    marks = state.sheets[0].marks
    assert marks["plant.g23.c01"] == "cross" and "plant.g12.c01" not in marks
    assert marks["plants.r01"] == "circle" and "plants.r02" not in marks
    assert [marks.get(f"pearls.r0{n}") for n in (1, 2, 3)] == ["circle", "circle", None]
    assert marks["rubies.r01"] == "circle"
    assert marks["pump.c01"] == "circle"
    assert RULES.derived(state, state.sheets[0], marks=marks)["extracted_columns"] == ["col01"]


# --- missions, end of game, standings ------------------------------------------------------


def pumps(*columns: int) -> Marks:
    return {f"pump.c{column:02}": "circle" for column in columns}


def complete(*factories: str) -> Marks:
    return {s: "cross" for f in factories for s in LAYOUT.factories[f]["upgrade_symbols"]}


@pytest.mark.parametrize(
    ("card", "sheet", "holds"),
    [
        (82, pumps(1, 3, 5, 7, 9), True),
        (82, pumps(1, 3, 5, 7), False),
        (83, pumps(2, 3, 4, 5), True),
        (83, pumps(1, 2, 3, 5, 6, 7), False),
        (84, complete("sec.plants", "sec.water", "sec.pearls", "sec.rubies", "sec.robots"), True),
        (84, complete("sec.plants", "sec.water", "sec.pearls", "sec.rubies", "main.water"), False),
        (85, complete("sec.plants", "sec.water", "main.water", "main.pearls", "centre.astronaut",
                      "centre.planning"), True),
        (85, complete("sec.plants", "sec.water", "main.water", "main.pearls", "centre.astronaut"),
         False),
        (86, {**{f"plant.g12.c{c:02}": "circle" for c in (1, 3, 6, 9, 10, 12)},
              "plant.g23.c01": "cross", "plant.g23.c02": "cross"}, True),
        (86, {f"plant.g12.c{c:02}": "circle" for c in (1, 3, 6, 9, 10, 12)}, False),
        (87, {"water.g12.c02": "cross", "water.g12.c04": "circle", "water.g12.c08": "circle",
              "water.g12.c11": "circle", "water.g23.c05": "circle"}, True),
        (87, {"water.g12.c02": "cross", "plants.r01": "circle", "water.r01": "circle",
              "water.r02": "circle", "water.r03": "circle"}, False),
    ],
)
def test_mission_conditions(card: int, sheet: Marks, holds: bool) -> None:
    assert RULES.mission_holds(game(sheet=sheet), 0, card) is holds


def test_missions_are_accomplished_in_phase_6_first_then_later() -> None:
    sheet = {**mine({"level1": {"c01": 1}, "level3": {"c01": 3}}), **pumps(2, 3, 4)}
    state = game(2, missions={"A": 83, "B": 84, "C": 86}, sheet=sheet)
    reveal(state, (2, "robot"), (8, "robot"), (9, "energy"))
    move(state, 0, action="write", combination=0, space="level2.c01", number=2)
    move(state, 1, action="write", combination=1, space="level1.c05", number=8)
    for seat in (0, 1):
        move(state, seat, action="skip", effect="action.robot")
        send(state, seat, {"type": "confirm"})
    assert engine.options(state, 0).options == [{"action": "claim_mission", "letter": "A"}]
    assert engine.options(state, 1).kind == "wait"
    claim_all(state)
    assert state.sheets[0].marks["mission.A"] == 9
    assert "mission.A" not in state.sheets[1].marks
    assert "A" in state.flipped_missions


def test_end_conditions() -> None:
    state = game(3)
    state.sheets[0].marks = full_but()
    state.sheets[1].marks = {"error.1": "circle", "error.2": "circle", "error.3": "circle"}
    state.sheets[2].marks = {"mission.A": 8, "mission.B": 6, "mission.C": 3}
    assert RULES.end_reasons(state) == [
        {"reason": "all_missions", "seats": [2]},
        {"reason": "all_system_errors", "seats": [1]},
        {"reason": "sheet_full", "seats": [0]},
    ]
    assert RULES.end_reasons(game(2)) == []


def test_standings_break_ties_by_fewer_system_errors_then_share() -> None:
    state = game(4)
    state.sheets[0].marks = {"mission.A": 9}
    state.sheets[1].marks = {"mission.A": 9, "mission.B": 5, "error.1": "circle"}
    state.sheets[2].marks = {"mission.A": 4}
    state.sheets[3].marks = {"mission.A": 4}
    standings = RULES.standings(state)
    assert [s["total"] for s in standings["scores"]] == [9, 9, 4, 4]
    assert [s["rank"] for s in standings["scores"]] == [1, 2, 3, 3]
    assert standings["winners"] == [0]


def test_live_score_of_another_seat_shows_the_sheet_as_the_turn_began() -> None:
    state = game(2, sheet={"sec.water.robot1": "cross", "sec.water.robot2": "cross"})
    reveal(state, (5, "energy"), (8, "robot"), (9, "plant"))
    write(state, 0, "level1.c05")
    move(state, 0, action="energy", effect="action.energy", symbol="sec.water.energy1")
    assert engine.sheet_view(state, 0, viewer=0)["score"]["water"] == 6
    assert engine.sheet_view(state, 0, viewer=1)["score"]["water"] == 0


def test_setup_modifiers() -> None:
    events = engine.new_game(
        adventure=4, players=2, seed=1,
        modifiers={1: [{"kind": "system_errors", "delta": -1}, {"kind": "bonus_points",
                                                                "points": 3}]},
    )
    state = engine.replay(events)
    assert state.sheets[1].error_boxes == ("error.1", "error.2")
    assert RULES.sheet_score(state, state.sheets[1], marks={})["total"] == 3
    with pytest.raises(engine.RuleViolation) as error:
        engine.new_game(adventure=4, players=1, seed=1,
                        modifiers={0: [{"kind": "start_marks", "marks": [
                            {"element": "level1.c01", "mark": 4}]}]})
    assert error.value.code == "invalid_modifier"
