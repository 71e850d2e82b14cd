"""The worked examples of the Mine spec (adventure-4-mine.md section 10), one test each."""

from typing import cast

import pytest

from games.rules import engine
from games.rules.core.sheet import Marks
from tests.rules.mine_helpers import (
    LAYOUT,
    RULES,
    circled,
    crossed,
    game,
    mine,
    move,
    phase_5,
    refused,
    reveal,
    score,
    send,
    set_sheet,
)

# --- scoring examples ----------------------------------------------------------------------


def s1_sheet() -> Marks:
    return {
        **mine(
            {
                "level1": {"c01": 1, "c02": 2, "c03": "X", "c04": 4, "c05": 5, "c06": 6,
                           "c08": 9, "c10": 12},
                "level2": {"c01": 3, "c02": 4, "c03": 6, "c04": 7, "c05": "X", "c06": 8,
                           "c09": 11},
                "level3": {"c01": 2, "c02": 5, "c03": 7, "c04": 8, "c05": 9, "c06": 10,
                           "c07": "X", "c12": 15},
            }
        ),
        **circled(
            "plant.g12.c01", "plant.g23.c01", "water.g12.c02", "plant.g23.c02", "plant.g12.c03",
            "water.g12.c04", "plant.g23.c04", "water.g23.c05", "plant.g12.c06", "plant.g12.c09",
            "plant.g12.c10",
        ),
        **crossed(
            "main.water.energy1", "main.water.robot1", "main.water.robot2",
            "main.water.value_base", "centre.astronaut.energy1",
            "astronaut.s1", "astronaut.s2", "planning.s1", "planning.s2", "planning.s3",
            "main.rubies.filling_bonus",
        ),
        "error.1": "circle",
        "mission.A": 9,
        "mission.C": 3,
    }


def test_example_s1_mid_game_end_by_an_opponents_third_mission() -> None:
    state = game(2, missions={"A": 83, "B": 84, "C": 86})
    set_sheet(state, 0, s1_sheet())
    state = phase_5(state)
    derived = RULES.derived(state, state.sheets[0], marks=state.sheets[0].marks)
    assert derived["extracted_columns"] == ["col01", "col02", "col03", "col04", "col05", "col06"]
    assert derived["factories"]["main.pearls"]["filled"] == 5
    assert derived["factories"]["main.rubies"]["filled"] == 8
    assert derived["factories"]["main.plants"]["filled"] == 6
    assert derived["factories"]["main.water"]["filled"] == 3
    assert derived["factories"]["main.water"]["upgraded"] is True
    assert derived["factories"]["main.rubies"]["filling_bonus"] == "lost"
    # the circled plants of col09 and col10 stay in the mine
    assert state.sheets[0].marks["plant.g12.c09"] == "circle"
    assert RULES.mission_holds(state, 0, 83) and RULES.mission_holds(state, 0, 86)
    assert not RULES.mission_holds(state, 0, 84)
    assert score(state) == {
        "missions": 12, "plants": 12, "water": 15, "pearls": 10, "rubies": 16,
        "astronaut": 0, "planning": -9, "system_errors": -5, "campaign": 0, "total": 51,
    }


def s2_sheet() -> Marks:
    return {
        **mine(
            {
                "level1": {"c01": 1, "c02": 3, "c03": 4, "c04": 5, "c08": 8, "c09": 10,
                           "c10": 11, "c11": 13, "c12": 14},
                "level2": {"c01": 2, "c03": "X", "c08": 7, "c09": 9, "c10": 10, "c11": 12,
                           "c12": 15},
                "level3": {"c01": 3, "c02": 4, "c04": 6, "c08": 8, "c09": 9, "c10": 11,
                           "c11": 12, "c12": 13},
            }
        ),
        **circled(
            "water.g12.c08", "water.g23.c10", "water.g12.c11", "plant.g12.c12", "plant.g23.c12",
            # the two pearls of the activated pearl secondary factory
            "pearls.r01", "pearls.r02",
        ),
        **crossed(
            "sec.robots.energy1", "sec.robots.energy2", "sec.robots.bonus1", "sec.robots.bonus2",
            "sec.robots.bonus3", "sec.pearls.energy1", "sec.pearls.robot1", "sec.pearls.robot2",
            "sec.pearls.bonus1", "sec.pearls.bonus2", "main.pearls.energy1",
            "main.pearls.energy2", "main.pearls.robot1", "main.pearls.value_base",
            "main.rubies.energy1", "main.rubies.energy2", "main.rubies.robot1",
            "main.rubies.robot2", "main.rubies.value_base", "centre.astronaut.energy1",
            "centre.astronaut.robot1", "centre.astronaut.value_base", "centre.planning.energy1",
            "centre.planning.robot1", "centre.planning.value_base",
            "astronaut.s1", "astronaut.s2", "astronaut.s3", "planning.s1",
        ),
        "mission.A": 9,
        "mission.B": 4,
    }


def test_example_s2_factory_engine_with_a_won_filling_bonus() -> None:
    state = game(2, missions={"A": 83, "B": 85, "C": 87})
    set_sheet(state, 0, s2_sheet())
    state = phase_5(state)
    derived = RULES.derived(state, state.sheets[0], marks=state.sheets[0].marks)
    assert derived["extracted_columns"] == ["col01", "col08", "col09", "col10", "col11", "col12"]
    # col03 holds a circled pearl (circled by the X) but is incomplete: not extracted
    assert state.sheets[0].marks["mineral.level2.c03"] == "circle"
    assert derived["factories"]["main.pearls"] == {
        "symbols_left": [], "upgraded": True, "value": 3, "filled": 11, "capacity": 14,
        "filling_bonus": "won",
    }
    assert derived["factories"]["sec.robots"]["activated"] is True
    assert RULES.mission_holds(state, 0, 83) and RULES.mission_holds(state, 0, 85)
    assert not RULES.mission_holds(state, 0, 87)
    assert score(state) == {
        "missions": 13, "plants": 4, "water": 9, "pearls": 41, "rubies": 15,
        "astronaut": 9, "planning": 0, "system_errors": 0, "campaign": 0, "total": 91,
    }
    # the opponent did not reach 10 pearls in that turn: the race crosses their bonus
    assert state.sheets[1].marks["main.pearls.filling_bonus"] == "cross"


def test_example_s3_early_end_by_system_errors_negative_total() -> None:
    state = game()
    set_sheet(
        state,
        0,
        {
            **mine(
                {
                    "level1": {"c01": 2, "c02": 3, "c05": "X", "c06": 7, "c07": 9},
                    "level2": {"c05": 5, "c06": 6, "c07": 10},
                    "level3": {"c05": 4, "c06": "X", "c07": 8, "c12": 15},
                }
            ),
            **circled("water.g23.c05", "plant.g12.c06", "plant.g12.c01", "error.1", "error.2",
                      "error.3"),
            **crossed("main.plants.energy1", "astronaut.s1", "astronaut.s2", "astronaut.s3",
                      "astronaut.s4", "planning.s1", "planning.s2", "main.rubies.filling_bonus"),
        },
    )
    state = phase_5(state)
    marks = state.sheets[0].marks
    derived = RULES.derived(state, state.sheets[0], marks=marks)
    assert derived["extracted_columns"] == ["col05", "col06", "col07"]
    assert "water.g23.c07" not in marks  # never circled: lost with its column
    assert marks["mineral.level1.c01"] == "circle"  # unextracted, worth nothing
    assert score(state) == {
        "missions": 0, "plants": 2, "water": 3, "pearls": 2, "rubies": 10,
        "astronaut": 0, "planning": -6, "system_errors": -15, "campaign": 0, "total": -4,
    }
    assert RULES.end_reasons(state) == [{"reason": "all_system_errors", "seats": [0]}]


# --- turn examples -------------------------------------------------------------------------


def t1_state() -> engine.GameState:
    state = game()
    set_sheet(state, 0, mine({"level1": {"c03": 6}, "level2": {"c02": 4, "c06": 9}}))
    reveal(state, (7, "water"), (12, "robot"), (3, "plant"))
    return state


def test_example_t1_numbering_and_a_water_action() -> None:
    state = t1_state()
    options = cast("list[engine.WriteOption]", engine.options(state, 0).options)
    assert {"action": "write", "combination": 0, "space": "level2.c04", "number": 7} in options
    assert {"action": "write", "combination": 0, "space": "level1.c04", "number": 7} in options
    assert not any(o["space"] == "level2.c07" and o["number"] == 7 for o in options)

    move(state, 0, action="write", combination=0, space="level2.c04", number=7)
    decision = engine.options(state, 0)
    assert decision.kind == "effect"
    assert decision.options == [
        {"action": "water", "effect": "action.water", "symbol": "water.g12.c04"},
        {"action": "skip", "effect": "action.water"},
    ]
    assert refused(state, 0, action="water", effect="action.water",
                   symbol="water.g12.c02") == "symbol_not_reachable"
    assert refused(state, 0, action="water", effect="action.water",
                   symbol="plant.g23.c04") == "wrong_symbol_kind"
    move(state, 0, action="water", effect="action.water", symbol="water.g12.c04")
    assert state.sheets[0].marks["water.g12.c04"] == "circle"
    assert engine.options(state, 0).kind == "confirm"
    assert RULES.extractable_columns(state.sheets[0].marks) == []


def test_example_t1_seven_on_level_1_circles_the_ruby() -> None:
    state = t1_state()
    move(state, 0, action="write", combination=0, space="level1.c04", number=7)
    assert state.sheets[0].marks["mineral.level1.c04"] == "circle"
    assert {"action": "water", "effect": "action.water", "symbol": "water.g12.c04"} in (
        engine.options(state, 0).options
    )


def test_example_t1_illegal_placements() -> None:
    state = t1_state()
    assert refused(state, 0, action="write", combination=0, space="level2.c07",
                   number=7) == "space_not_ascending"
    problem = RULES.placement_problem(state.sheets[0].marks, "level2.c04", 9)
    assert problem is not None and problem.code == "number_already_in_zone"


def t2_sheet() -> Marks:
    return {
        **mine({"level1": {"c11": 5}, "level2": {"c11": 9}, "level3": {"c10": 8}}),
        **circled("water.g12.c11", *(f"pearls.r0{n}" for n in range(1, 8)), "water.r01",
                  "water.r02"),
        **crossed("sec.robots.energy1", "main.pearls.energy1", "main.pearls.energy2",
                  "sec.pearls.energy1", "sec.pearls.robot1"),
    }


def test_example_t2_energy_chain_extraction_and_filling_bonus_race() -> None:
    state = game(3, missions={"A": 82, "B": 84, "C": 86})
    for seat in range(3):
        set_sheet(state, seat, t2_sheet())
    reveal(state, (10, "energy"), (3, "plant"), (14, "robot"))
    turn = state.turn

    for seat in (0, 1):
        move(state, seat, action="write", combination=0, space="level3.c11", number=10)
        marks = state.sheets[seat].marks
        assert marks["mineral.level3.c11"] == "circle"
        if seat == 0:
            assert refused(state, 0, action="energy", effect="action.energy",
                           symbol="main.pearls.robot1") == "wrong_symbol_kind"
            assert refused(state, 0, action="plant", effect="action.energy",
                           symbol="plant.g23.c11") == "illegal_choice"
        move(state, seat, action="energy", effect="action.energy", symbol="sec.robots.energy2")
        assert [marks.get(f"sec.robots.bonus{n}") for n in (1, 2, 3)] == ["cross"] * 3
        decision = engine.options(state, seat)
        assert decision.kind == "effect"
        assert all(o["action"] == "robot" for o in decision.options)  # no skip: use them now
        if seat == 0:
            assert refused(state, 0, action="skip", effect="sec.robots.bonus1") == (
                "effect_not_optional"
            )
            with pytest.raises(engine.OutOfTurn) as early:
                engine.decide(state, 0, {"type": "confirm"})
            assert early.value.code == "effects_pending"
        move(state, seat, action="robot", effect="sec.robots.bonus1", symbol="main.pearls.robot1")
        assert marks["main.pearls.value_base"] == "cross"
        move(state, seat, action="robot", effect="sec.robots.bonus2", symbol="sec.pearls.robot2")
        assert marks["pearls.r08"] == marks["pearls.r09"] == "circle"
        assert "pearls.r10" not in marks
        move(state, seat, action="robot", effect="sec.robots.bonus3",
             symbol="centre.astronaut.robot1")
        assert engine.options(state, seat).kind == "confirm"
    # seat 2 numbers elsewhere and uses nothing
    move(state, 2, action="write", combination=1, space="level1.c01", number=3)
    move(state, 2, action="skip", effect="action.plant")
    for seat in range(3):
        send(state, seat, {"type": "confirm"})

    assert state.turn == turn + 1
    for seat in (0, 1):
        marks = state.sheets[seat].marks
        assert [box for box in LAYOUT.track_of("main.pearls") if box in marks] == [
            f"pearls.r{n:02}" for n in range(1, 12)
        ]
        assert marks["main.pearls.filling_bonus"] == "circle"  # both keep it
        assert marks["water.r03"] == "circle" and "water.r04" not in marks
        assert marks["mineral.level1.c11"] == marks["mineral.level3.c11"] == "cross"
        assert "plant.g23.c11" not in marks  # never circled: lost for good
        assert marks["pump.c11"] == "circle" and "pump.c10" not in marks
        assert score(state, seat)["pearls"] == 11 * 3 + 8
    assert state.sheets[2].marks["main.pearls.filling_bonus"] == "cross"


def test_example_t3a_planning_x_completes_a_column() -> None:
    state = game()
    before = {"level1": {"c07": 9}, "level2": {"c06": 12, "c08": 13}, "level3": {"c07": 10}}
    set_sheet(state, 0, mine(before))
    reveal(state, (5, "planning"), (3, "plant"), (14, "robot"))
    marks = state.sheets[0].marks
    assert all(
        RULES.placement_problem(marks, "level2.c07", number) is not None for number in range(18)
    )
    move(state, 0, action="write", combination=0, space="level1.c01", number=5)
    assert refused(state, 0, action="planning", effect="action.planning",
                   space="level1.c07") == "space_not_empty"
    events = move(state, 0, action="planning", effect="action.planning", space="level2.c07")
    assert [(e["data"].get("element"), e["data"].get("mark")) for e in events[1:]] == [
        ("level2.c07", "X"), ("mineral.level2.c07", "circle"), ("planning.s1", "cross"),
    ]
    send(state, 0, {"type": "confirm"})
    marks = state.sheets[0].marks
    assert marks["pump.c07"] == "circle"
    assert [box for box in LAYOUT.track_of("main.rubies") if box in marks] == [
        "rubies.r01", "rubies.r02",
    ]
    assert [box for box in LAYOUT.track_of("main.water") if box in marks] == []


def t3b_sheet() -> Marks:
    empty = {"level1.c12", "level2.c04", "level3.c09"}
    numbers = {"level1.c11": 15, "level2.c03": 5, "level2.c05": 6, "level3.c08": 11,
               "level3.c10": 12}
    levels: dict[str, dict[str, int | str]] = {"level1": {}, "level2": {}, "level3": {}}
    for space in LAYOUT.spaces:
        if space not in empty:
            level, column = space.split(".")
            levels[level][column] = numbers.get(space, "X")
    return mine(levels)


def test_example_t3b_forced_system_error() -> None:
    state = game()
    set_sheet(state, 0, t3b_sheet())
    reveal(state, (3, "robot"), (9, "plant"), (13, "water"))
    assert engine.options(state, 0).options == [{"action": "system_error", "box": "error.1"}]
    assert refused(state, 0, action="write", combination=2, space="level1.c12",
                   number=13) == "space_not_ascending"
    move(state, 0, action="system_error", box="error.1")
    assert state.sheets[0].marks["error.1"] == "circle"
    assert engine.options(state, 0).kind == "confirm"  # no action, nothing pending
    send(state, 0, {"type": "confirm"})
    assert state.sheets[0].marks.get("pump.c12") is None


def test_example_t3b_an_astronaut_combination_must_be_taken() -> None:
    state = game()
    set_sheet(state, 0, t3b_sheet())
    reveal(state, (3, "robot"), (9, "plant"), (14, "astronaut"))
    assert engine.options(state, 0).options == [
        {"action": "write", "combination": 2, "space": "level1.c12", "number": 16}
    ]
    assert refused(state, 0, action="system_error", box="error.1") == "number_must_be_written"
    move(state, 0, action="write", combination=2, space="level1.c12", number=16)
    assert state.sheets[0].marks["astronaut.s1"] == "cross"  # the modifier used the action
    assert state.seats[0].turn_choice["modifier"] == 2
