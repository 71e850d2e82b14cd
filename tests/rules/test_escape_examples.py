"""The worked examples of the Escape's rules (spec section 14), with the numbers they give:
three scoring examples, then two turn examples played move by move."""

from games.rules import engine
from tests.rules.escape_helpers import (
    RULES,
    activate,
    boxes,
    circled,
    crossed,
    derived,
    escape,
    game,
    move,
    plants,
    reactors,
    refused,
    reveal,
    score,
    score_of,
    set_sheet,
    write,
)
from tests.rules.playing import confirm, confirm_all, options, skip, system_error

# --- 14.1 to 14.3: scoring --------------------------------------------------------------


def example_1() -> dict:
    return escape(
        {"ship1": range(1, 10), "ship2": range(1, 8), "ship3": (2, 3)},
        airlocks=("1A-1G", "1G-1B", "1A-2A", "2A-2B", "2B-2G", "2A-3A"),
        marks={
            **reactors(1, 2), **plants(1, 2), **circled("x2.1", "water.1A"),
            **plants(2, 3), **crossed("x2.2"), **circled("water.2A"),
            **reactors(3, 1), **crossed("x2.3"), **circled("water.3A"),
            **boxes("plan.b", 3), **boxes("error.", 1, "circle"),
        },
    )  # fmt: skip


def test_scoring_example_1_a_short_game() -> None:
    result = score_of(example_1())
    assert result["greenhouse_by_ship"] == {
        "ship1": 8, "ship2": 7, "ship3": 0, "ship4": 0, "ship5": 0, "ship6": 0
    }  # fmt: skip
    assert result["modules_by_ship"] == {
        "ship1": 12, "ship2": 0, "ship3": 0, "ship4": 0, "ship5": 0, "ship6": 0
    }  # fmt: skip
    assert (result["greenhouses"], result["modules"]) == (15, 12)
    assert (result["missions"], result["planning"], result["system_errors"]) == (0, -6, -5)
    assert result["total"] == 16


def _columns(by_ship: dict[str, int]) -> list[int]:
    """The sheet's column sums: ship6 + ship5, ship4 + ship3, ship2 + ship1."""
    return [by_ship[f"ship{top}"] + by_ship[f"ship{top - 1}"] for top in (6, 4, 2)]


def test_scoring_example_1_columns() -> None:
    result = score_of(example_1())
    assert _columns(result["greenhouse_by_ship"]) == [0, 0, 15]
    assert _columns(result["modules_by_ship"]) == [0, 0, 12]


def example_2() -> dict:
    return escape(
        {
            "ship1": range(1, 10), "ship2": range(1, 11), "ship3": range(1, 7),
            "ship4": (1, 2, 4, 5, 6), "ship5": range(1, 7), "ship6": range(1, 6),
        },
        marks={
            **reactors(1, 3), **plants(1, 1), **crossed("x2.1"), **circled("water.1A", "water.1B"),
            **reactors(2, 1), **plants(2, 2), **circled("x2.2", "water.2A", "water.2B", "water.2C"),
            **reactors(3, 2), **circled("x2.3"),
            **reactors(4, 2), **crossed("x2.4"), **circled("water.4A"),
            **plants(5, 3), **crossed("x2.5"), **circled("water.5B"),
            **reactors(6, 3), **plants(6, 3), **circled("x2.6", "water.6A", "water.6B"),
            "mission.A": 7, "mission.B": 4, "mission.C": 10,
            **boxes("plan.b", 5), **boxes("error.", 2, "circle"),
        },
    )  # fmt: skip


def test_scoring_example_2_three_missions_accomplished() -> None:
    result = score_of(example_2())
    assert result["greenhouse_by_ship"] == {
        "ship1": 2, "ship2": 8, "ship3": 4, "ship4": 0, "ship5": 7, "ship6": 14
    }  # fmt: skip
    assert result["modules_by_ship"] == {
        "ship1": 28, "ship2": 12, "ship3": 4, "ship4": 12, "ship5": 6, "ship6": 28
    }  # fmt: skip
    assert (result["missions"], result["greenhouses"], result["modules"]) == (21, 35, 90)
    assert (result["planning"], result["system_errors"]) == (-12, -10)
    assert result["total"] == 124
    assert _columns(result["greenhouse_by_ship"]) == [21, 4, 10]
    assert _columns(result["modules_by_ship"]) == [34, 16, 40]


def test_scoring_example_2_mission_checks() -> None:
    state = game(sheet=example_2())
    sheet = state.sheets[0]
    assert RULES.mission_holds_on(sheet, 101)
    assert RULES.mission_holds_on(sheet, 102)
    assert len(RULES.complete_modules(sheet.marks)) == 12
    assert RULES.mission_holds_on(sheet, 105)


def test_scoring_example_3_pitfalls_and_maximum_penalties() -> None:
    result = score_of(
        escape(
            {"ship1": range(1, 10), "ship2": (1, 2, 3, 4, 5, 7, 8, 9, 10), "ship3": (1,),
             "ship4": (1, 2, 4, 5, 6)},
            marks={
                **plants(1, 3), **crossed("x2.1"),
                **reactors(2, 3), **circled("x2.2", "water.2A", "water.2B"),
                **reactors(3, 1), **plants(3, 2), **crossed("x2.3"),
                **circled("water.4A", "water.4B"),
                **boxes("plan.b", 9), **boxes("error.", 3, "circle"),
            },
        )
    )  # fmt: skip
    assert result["greenhouse_by_ship"] == {
        "ship1": 7, "ship2": 0, "ship3": 4, "ship4": 0, "ship5": 0, "ship6": 0
    }  # fmt: skip
    assert result["modules_by_ship"] == {
        "ship1": 0, "ship2": 21, "ship3": 0, "ship4": 8, "ship5": 0, "ship6": 0
    }  # fmt: skip
    assert (result["greenhouses"], result["modules"]) == (11, 29)
    assert (result["planning"], result["system_errors"]) == (-28, -15)
    assert result["total"] == -3


# --- 14.4: turn example A, the opening turns ------------------------------------------------


def test_turn_example_a_opening_turns() -> None:
    # Seat 0 is the player, seat 1 Ben, seat 2 Clara.
    state = game(3, missions={"A": 101, "B": 103, "C": 104})

    # Turn 1: 6/Robot in ship1.s1; its robot first opens ship2.modA, then the action ship1.gh.
    reveal(state, (6, "robot"), (9, "water"), (12, "energy"))
    assert refused(state, 0, action="write", combination=1, space="ship1.s5", number=9) == (
        "block_not_accessible"
    )
    for seat in range(3):
        write(state, seat, 0, "ship1.s1")
        assert state.seats[seat].pending == [["action.robot"], ["robot.ship1.s1"]]
        assert refused(state, seat, action="robot", effect="robot.ship1.s1",
                       airlock="airlock.2A-3A") == "airlock_not_reachable"  # fmt: skip
        activate(state, seat, "robot.ship1.s1", "1A-2A")
        assert "airlock.2A-3A" in {o.get("airlock") for o in options(state, seat)}
        activate(state, seat, "action.robot", "1A-1G")
    assert derived(state)["accessible_blocks"] == ["ship1.modA", "ship1.gh", "ship1.modB", "ship2.modA"]
    confirm_all(state)

    # Turn 2: 4 cannot go in ship1 (right of the 6) but fits ship2.s1; the player writes 7/Water
    # in ship1.s3 and circles water.1A.
    reveal(state, (4, "plant"), (7, "water"), (13, "astronaut"))
    assert refused(state, 0, action="write", combination=0, space="ship1.s2", number=4) == (
        "space_not_ascending"
    )
    assert {"action": "write", "combination": 0, "space": "ship2.s1", "number": 4} in options(state, 0)
    aside = state.copy()
    write(aside, 0, 0, "ship2.s1")
    assert options(aside, 0)[0] == {"action": "plant", "effect": "action.plant", "plant": "plant.2.1"}
    aside = state.copy()
    write(aside, 0, 1, "ship1.s4")
    assert engine.options(aside, 0).kind == "confirm"  # no tank on ship1.s4: Water does nothing
    for seat in range(3):
        write(state, seat, 1, "ship1.s3")
        move(state, seat, action="water", effect="action.water", tank="water.1A")
        assert state.sheets[seat].marks["water.1A"] == "circle"
    confirm_all(state)

    # Turn 3: 8/Planning in the greenhouse circles x2.1; the X in ship1.s8 opens 1B-2C by its
    # robot, and plan.b1 is crossed (penalty 1). Ben does the same; Clara writes in ship1.s4.
    reveal(state, (8, "planning"), (2, "energy"), (10, "plant"))
    assert refused(state, 0, action="write", combination=1, space="ship1.s2", number=2) == (
        "space_not_ascending"
    )
    for seat in (0, 1):
        write(state, seat, 0, "ship1.s5")
        assert state.sheets[seat].marks["x2.1"] == "circle"
        assert refused(state, seat, action="planning", effect="action.planning",
                       space="ship3.s2") == "block_not_accessible"  # fmt: skip
        move(state, seat, action="planning", effect="action.planning", space="ship1.s8")
        assert state.sheets[seat].marks["plan.b1"] == "cross"
        activate(state, seat, "robot.ship1.s8", "1B-2C")
        assert score(state, seat)["planning"] == -1
    write(state, 2, 0, "ship1.s4")
    move(state, 2, **skip("action.planning"))
    confirm_all(state)
    assert [state.sheets[seat].marks["x2.1"] for seat in range(3)] == ["circle", "circle", "cross"]

    # Turn 4: Clara numbers her greenhouse now, too late for its x2.
    reveal(state, (9, "water"), (11, "energy"), (12, "plant"))
    write(state, 2, 0, "ship1.s5")
    assert state.sheets[2].marks["x2.1"] == "cross"


# --- 14.5: turn example B, a System Error, a wild action, Energy ---------------------------


def late_sheet() -> dict:
    """Every block of ships 1-5 open and filled but ship4.s2 (between 5 and 7) and ship5.s6
    (after 14); ship6 closed; wild.1 earned."""
    every_airlock = {code.removeprefix("airlock.") for code in RULES.layout.airlocks}
    closed = {"5A-6A", "5B-6B", "6A-6B", "6B-6G"}
    return escape(
        {"ship1": range(1, 10), "ship2": range(1, 11), "ship3": range(1, 8),
         "ship4": (4, 5, 6), "ship5": range(1, 5)},
        numbers={"ship4.s1": 5, "ship4.s3": 7, "ship5.s5": 14},
        airlocks=sorted(every_airlock - closed),
        marks={**crossed("astro.1", "astro.2"), **circled("wild.1")},
    )  # fmt: skip


def test_turn_example_b_system_error_then_a_wild_energy() -> None:
    state = game(missions={"A": 101, "B": 103, "C": 104}, sheet=late_sheet())
    reveal(state, (3, "water"), (9, "plant"), (12, "energy"))
    # Not even a wild Astronaut helps: 3+2, 9-2 and 12+2 all miss 6 and 15-17.
    assert options(state, 0) == [system_error("error.1")]
    move(state, 0, **system_error("error.1"))
    assert {o["airlock"] for o in options(state, 0)} == {"airlock.5A-6A", "airlock.5B-6B"}
    activate(state, 0, "error.1", "5B-6B")
    assert "ship6.modB" in derived(state)["accessible_blocks"]
    assert score(state)["system_errors"] == -5
    confirm(state, 0)

    reveal(state, (15, "water"), (4, "robot"), (8, "plant"))
    write(state, 0, 0, "ship5.s6", wild="wild.1", wild_action="energy")
    assert state.sheets[0].marks["wild.1"] == "cross"
    assert state.seats[0].pending == [["action.energy"], ["robot.ship5.s6"]]
    activate(state, 0, "robot.ship5.s6", "5A-6A")
    assert refused(state, 0, action="energy", effect="action.energy", reactor="reactor.6.3") == (
        "reactor_not_in_ship"
    )
    assert options(state, 0)[0] == {"action": "energy", "effect": "action.energy", "reactor": "reactor.5.2"}
    move(state, 0, action="energy", effect="action.energy", reactor="reactor.5.2")
    marks = state.sheets[0].marks
    assert marks["ship5.s6"] == 15 and marks["reactor.5.2"] == "circle"
    assert "water.5B" not in marks
    assert engine.options(state, 0).kind == "confirm"


def test_turn_example_b_a_wild_that_makes_a_number_fit_is_offered_beside_the_system_error() -> None:
    state = game(sheet=late_sheet())
    reveal(state, (3, "water"), (8, "plant"), (12, "energy"))
    writes = [o for o in options(state, 0) if o["action"] == "write"]
    assert {(o["space"], o["number"], o["wild_action"]) for o in writes} == {("ship4.s2", 6, "astronaut")}
    assert system_error("error.1") in options(state, 0)
    set_sheet(state, 0, {**late_sheet(), "wild.1": "cross"})
    assert options(state, 0) == [system_error("error.1")]
