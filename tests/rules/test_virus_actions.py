"""Adventure 6 rules one by one: the printed sheet (walkways, quarters, tracks), each action
legal and refused, the reactions and chains of the tracks, propagation counts shared in phase 5,
setup, end conditions, what the sheet view derives, and how the greedy bot weighs a claim that
wakes a virus."""

import random
from collections import Counter

import pytest

from games.rules import engine
from games.rules.core.events import Recorder
from games.rules.core.sheet import Marks
from games.rules.engine import GameState
from games.rules.play import bots
from tests.rules.playing import confirm, confirm_all, options, send, skip, system_error
from tests.rules.virus_helpers import (
    INF,
    LAYOUT,
    RULES,
    active,
    blank,
    circled,
    crossed,
    evacuated,
    floors,
    game,
    infected,
    move,
    quarter,
    refused,
    reveal,
    score,
    set_sheet,
    write,
)


def one(marks: Marks | None = None, *combinations: tuple[int, str]) -> GameState:
    """A one-seat game with this sheet (grey in q1L, unless given) and these combinations."""
    state = game(sheet=marks if marks is not None else blank() | active("q1L"))
    reveal(state, *(combinations or ((8, "robot"), (3, "astronaut"), (12, "planning"))))
    return state


@pytest.fixture
def propagations(monkeypatch: pytest.MonkeyPatch) -> Counter[int]:
    """The propagations resolved, counted by seat."""
    calls: Counter[int] = Counter()
    original = RULES.propagate

    def counted(rec: Recorder, seat: int, *, times: int = 1) -> None:
        if times:
            calls[seat] += times
        original(rec, seat, times=times)

    monkeypatch.setattr(RULES, "propagate", counted)
    return calls


# --- the sheet (spec 3) ------------------------------------------------------------------

# Spec 3.4: each walkway and the two quarters it joins.
WALKWAYS = {
    "w01": "q1L q1M", "w02": "q2M q2R", "w03": "q3L q3M", "w04": "q3M q3R", "w05": "q4L q4M",
    "w06": "q5M q5R", "w07": "q1L q3L", "w08": "q1L q4L", "w09": "q1M q2M", "w10": "q1M q3L",
    "w11": "q1M q3M", "w12": "q2M q3M", "w13": "q2M q3R", "w14": "q2R q3R", "w15": "q2R q5R",
    "w16": "q3L q4L", "w17": "q3L q4M", "w18": "q3M q4M", "w19": "q3M q5M", "w20": "q3R q5M",
    "w21": "q3R q5R", "w22": "q4M q5M",
}  # fmt: skip
# Spec 3.3: each quarter's first space, plants, tank space and virus target.
QUARTERS = {
    "q1L": ("floor1.s1", 1, "floor1.s1", "empty"), "q1M": ("floor1.s6", 1, "floor1.s7", "red"),
    "q2M": ("floor2.s1", 2, "floor2.s3", "green"), "q2R": ("floor2.s6", 1, "floor2.s10", "empty"),
    "q3L": ("floor3.s1", 2, "floor3.s3", None), "q3M": ("floor3.s6", 2, None, "purple"),
    "q3R": ("floor3.s11", 2, "floor3.s14", None), "q4L": ("floor4.s1", 1, "floor4.s2", "empty"),
    "q4M": ("floor4.s6", 2, "floor4.s8", "blue"), "q5M": ("floor5.s1", 1, "floor5.s2", "yellow"),
    "q5R": ("floor5.s6", 1, "floor5.s8", "empty"),
}  # fmt: skip


def test_the_walkways_join_the_quarters_of_the_printed_sheet() -> None:
    joined = {(q.id, walkway, other) for q in LAYOUT.quarters.values() for walkway, other in q.neighbours}
    expected = set()
    for walkway, ends in WALKWAYS.items():
        one, two = ends.split()
        expected |= {(one, walkway, two), (two, walkway, one)}
    assert joined == expected


@pytest.mark.parametrize("name", QUARTERS)
def test_each_quarter_has_five_spaces_three_energies_its_plants_tank_and_virus(name: str) -> None:
    first, plants, tank, virus = QUARTERS[name]
    q = LAYOUT.quarters[name]
    floor = LAYOUT.zone_of[first]
    assert q.spaces == floor[floor.index(first) : floor.index(first) + 5]
    assert (len(q.energies), len(q.plants), q.colour) == (3, plants, virus)
    assert [space for space in q.spaces if space in LAYOUT.tank_on] == ([tank] if tank else [])
    assert blank().keys() & set(q.energies) == {q.energies[0]}  # the first energy printed circled


@pytest.mark.parametrize(
    ("track", "area", "values"),
    [
        ("plant", "plants", [0, 0, 5, 5, 10, 10, 10, 20, 20, 20, 35, 35, 35, 55, 55, 55, 80]),
        ("water", "water", [0, 0, 10, 10, 20, 20, 35, 35, 55, 55, 80]),
    ],
)
def test_a_track_scores_the_value_of_its_rows_completed(track: str, area: str, values: list[int]) -> None:
    symbols = getattr(LAYOUT, f"{track}_track").symbols
    rows = getattr(LAYOUT, f"{track}_track").rows
    for crossed_count, value in enumerate(values):
        marks = crossed(*symbols[:crossed_count])
        marks |= crossed(*(rows[s].box for s in symbols[:crossed_count] if s in rows))
        assert score(game(sheet=blank() | active("q1L") | marks))[area] == value


def test_the_track_symbols_that_wake_a_virus_or_trigger_a_propagation() -> None:
    assert LAYOUT.plant_track.activations == {"plant.t05": "act.green"}
    assert LAYOUT.water_track.activations == {"water.t03": "act.blue"}
    assert LAYOUT.plant_track.propagations == {"plant.t08": "prop.plant1", "plant.t11": "prop.plant2"}
    assert LAYOUT.water_track.propagations == {"water.t05": "prop.water1", "water.t07": "prop.water2"}
    assert LAYOUT.self_propagating_errors == {"error.2", "error.3"}


# --- phases 2-3 -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("choice", "code"),
    [
        ({"combination": 0, "space": "floor1.s2", "number": 8}, "space_not_empty"),
        ({"combination": 0, "space": "floor9.s1", "number": 8}, "unknown_space"),
        ({"combination": 0, "space": "floor1.s3", "number": 9}, "number_not_in_combination"),
        ({"combination": 0, "space": "floor1.s3", "number": 9, "modifier": 1}, "modifier_not_allowed"),
        ({"combination": 1, "space": "floor1.s3", "number": 6, "modifier": 3}, "modifier_out_of_range"),
        ({"combination": 0, "space": "floor1.s3", "number": 8, "wild": "wild.astro1",
          "wild_action": "water"}, "wild_not_available"),
        ({"combination": 0, "space": "floor1.s3", "number": 8, "wild": "wild.plan1",
          "wild_action": "astronaut"}, "modifier_required"),
    ],
)  # fmt: skip
def test_a_write_against_the_rules_is_refused(choice: dict, code: str) -> None:
    state = one(blank() | active("q1L") | floors({"floor1": [None, INF]}) | circled("wild.plan1"))
    assert refused(state, 0, action="write", **choice) == code


def test_the_astronaut_cannot_write_below_zero() -> None:
    state = one(None, (1, "astronaut"), (3, "robot"), (5, "robot"))
    assert refused(state, 0, action="write", combination=0, space="floor1.s3", number=-1, modifier=-2) == (
        "number_out_of_range"
    )


def test_a_system_error_is_refused_while_a_number_can_be_written() -> None:
    assert refused(one(), 0, **system_error("error.1")) == "number_must_be_written"


def test_nothing_writable_crosses_the_next_system_error() -> None:
    marks = blank() | active("q1L") | floors({f"floor{n}": [16] for n in range(1, 6)})
    state = one(marks, (3, "robot"), (5, "robot"), (8, "robot"))
    assert options(state, 0) == [system_error("error.1")]
    move(state, 0, **system_error("error.1"))
    assert state.sheets[0].marks["error.1"] == "circle"


# --- phase 4: the actions ---------------------------------------------------------------


def test_energy_circles_the_next_energy_of_the_number_quarter_before_its_evacuation() -> None:
    marks = blank() | active("q1L") | floors({"floor5": [None] * 5 + [1, 2, 3, 4]})
    state = one(marks, (9, "energy"), (3, "robot"), (12, "robot"))
    write(state, 0, 0, "floor5.s10", 9)
    assert "q5R.evacuated" not in state.sheets[0].marks  # the action comes first
    move(state, 0, action="energy", effect="action.energy")
    assert state.sheets[0].marks["q5R.e2"] == "circle"
    assert state.sheets[0].marks["score.q5R"] == 10 and state.sheets[0].marks["q5R.evacuated"] == "circle"


def test_energy_with_every_energy_of_the_quarter_circled_does_nothing() -> None:
    marks = blank() | active("q1L") | circled("q5R.e2", "q5R.e3")
    state = one(marks, (9, "energy"), (3, "robot"), (12, "robot"))
    write(state, 0, 0, "floor5.s9", 9)
    assert state.seats[0].pending == []
    assert refused(state, 0, action="energy", effect="action.energy") == "turn_complete"


def test_robot_closes_any_open_walkway_and_not_twice() -> None:
    state = one(blank() | active("q1L") | {"w05": "line"})
    write(state, 0, 0, "floor3.s8", 8)
    assert refused(state, 0, action="robot", effect="action.robot", walkway="w05") == "walkway_closed"
    assert refused(state, 0, action="robot", effect="action.robot", walkway="w99") == "unknown_walkway"
    assert refused(state, 0, action="energy", effect="action.robot") == "illegal_choice"
    move(state, 0, action="robot", effect="action.robot", walkway="w22")
    assert state.sheets[0].marks["w22"] == "line"


def test_plant_row_gives_a_walkway_closure_that_cannot_be_skipped() -> None:
    marks = blank() | active("q1L") | crossed("plant.t01")
    state = one(marks, (7, "plant"), (3, "robot"), (12, "robot"))
    write(state, 0, 0, "floor3.s3", 7)
    move(state, 0, action="plant", effect="action.plant")
    sheet = state.sheets[0].marks
    assert sheet["q3L.p1"] == "circle" and sheet["plant.t02"] == "cross"
    assert sheet["plant.box1"] == "cross" and sheet["plant.bonus1"] == "cross"
    assert score(state)["plants"] == 5
    assert refused(state, 0, **skip("plant.bonus1")) == "effect_not_optional"
    move(state, 0, action="robot", effect="plant.bonus1", walkway="w03")
    assert state.sheets[0].marks["w03"] == "line" and state.seats[0].pending == []


def test_plant_t05_activates_green_on_the_sheet_at_once_and_on_the_others_in_phase_5(
    propagations: Counter[int],
) -> None:
    marks = blank() | active("q1L") | crossed(*(f"plant.t0{n}" for n in range(1, 5)))
    marks |= crossed("plant.box1", "plant.box2", "plant.bonus1", "plant.bonus2")
    state = game(3, sheet=marks)
    reveal(state, (7, "plant"), (3, "robot"), (12, "robot"))
    for seat in (0, 1):
        write(state, seat, 0, "floor3.s3", 7)
        move(state, seat, action="plant", effect="action.plant")
        assert state.sheets[seat].marks["act.green"] == "cross"
        assert state.sheets[seat].marks["q2M.target"] == "circle"
    assert "act.green" not in state.sheets[2].marks
    write(state, 2, 1, "floor1.s3", 3)
    move(state, 2, **skip("action.robot"))
    confirm_all(state)
    assert all(sheet.marks["q2M.target"] == "circle" for sheet in state.sheets)
    assert propagations == {0: 1, 1: 1, 2: 1}  # green counts once, though two woke it


def test_a_propagation_symbol_spares_every_player_who_triggered_it(propagations: Counter[int]) -> None:
    marks = blank() | active("q1L") | crossed(*(f"water.t0{n}" for n in range(1, 5)))
    marks |= crossed("water.box1", "water.box2", "water.bonus1", "water.bonus2", "act.blue")
    marks |= circled("q4M.target")
    state = game(4, sheet=marks)
    reveal(state, (6, "water"), (3, "robot"), (12, "robot"))
    for seat in (0, 1):
        write(state, seat, 0, "floor1.s1", 6)
        move(state, seat, action="water", effect="action.water")
        assert state.sheets[seat].marks["prop.water1"] == "cross"
    for seat in (2, 3):
        write(state, seat, 1, "floor1.s3", 3)
        move(state, seat, **skip("action.robot"))
    confirm_all(state)
    assert propagations == {2: 1, 3: 1}
    assert all(sheet.marks["prop.water1"] == "cross" for sheet in state.sheets)


def test_a_symbol_already_crossed_triggers_nothing() -> None:
    marks = blank() | active("q1L") | crossed(*(f"water.t0{n}" for n in range(1, 5)), "prop.water1")
    marks |= crossed("water.box1", "water.box2", "water.bonus1", "water.bonus2", "act.blue")
    state = one(marks, (6, "water"), (3, "robot"), (12, "robot"))
    write(state, 0, 0, "floor1.s1", 6)
    move(state, 0, action="water", effect="action.water")
    sheet = state.sheets[0]
    marked_now = sheet.marks.keys() - sheet.turn_start_marks.keys()
    assert "water.t05" in marked_now  # the track moved on past the crossed symbol
    assert not marked_now & set(RULES.layout.propagation_symbols)


def test_water_needs_the_tank_of_the_space_and_circles_it() -> None:
    state = one(None, (6, "water"), (3, "robot"), (12, "robot"))
    write(state, 0, 0, "floor2.s10", 6)
    assert refused(state, 0, action="water", effect="action.robot") == "effect_not_pending"
    move(state, 0, action="water", effect="action.water")
    assert state.sheets[0].marks["q2R.tank"] == "circle" and state.sheets[0].marks["water.t01"] == "cross"
    assert score(state)["water"] == 0


def test_planning_writes_an_x_anywhere_empty_and_its_pairs_circle_wild_actions() -> None:
    state = one(blank() | active("q1L") | crossed("plan.1"))
    write(state, 0, 2, "floor3.s12", 12)
    assert refused(state, 0, action="planning", effect="action.planning", space="floor3.s12") == (
        "space_not_empty"
    )
    move(state, 0, action="planning", effect="action.planning", space="floor5.s1")
    marks = state.sheets[0].marks
    assert marks["floor5.s1"] == "X" and marks["plan.2"] == "cross" and marks["wild.plan1"] == "circle"
    # a wild circled during this turn is used from the next turn on
    assert "wild.plan1" not in state.sheets[0].turn_start_marks


def test_the_astronaut_crosses_its_symbol_with_a_modifier_and_nothing_without() -> None:
    state = one(blank() | active("q1L") | crossed("astro.1"))
    write(state, 0, 1, "floor1.s3", 3)
    assert "astro.2" not in state.sheets[0].marks and state.seats[0].pending == []
    state = one(blank() | active("q1L") | crossed("astro.1"))
    write(state, 0, 1, "floor1.s3", 3, modifier=0)
    assert state.sheets[0].marks["astro.2"] == "cross" and state.sheets[0].marks["wild.astro1"] == "circle"


def test_a_wild_action_replaces_the_combination_action_once() -> None:
    state = one(blank() | active("q1L") | circled("wild.astro1"))
    wild_writes = [o for o in options(state, 0) if o.get("wild") == "wild.astro1"]
    assert {o["wild_action"] for o in wild_writes} == {
        "energy", "plant", "water", "astronaut", "planning", "robot"
    }  # fmt: skip
    write(state, 0, 0, "floor1.s7", 10, wild="wild.astro1", wild_action="astronaut", modifier=2)
    marks = state.sheets[0].marks
    assert marks["floor1.s7"] == 10 and marks["wild.astro1"] == "cross" and marks["astro.1"] == "cross"
    state = one(blank() | active("q1L") | circled("wild.astro1"))
    write(state, 0, 0, "floor1.s7", 8, wild="wild.astro1", wild_action="water")
    move(state, 0, action="water", effect="action.water")
    assert state.sheets[0].marks["q1M.tank"] == "circle"
    assert refused(one(), 0, action="write", combination=0, space="floor1.s7", number=8,
                   wild_action="water") == "wild_not_available"  # fmt: skip


# --- phase 5: propagation ---------------------------------------------------------------


def test_a_quarantined_virus_still_infects_its_own_quarter_but_no_longer_spreads() -> None:
    walls = crossed("w01", "w07", "w08")
    state = one(blank() | active("q1L") | walls | floors({"floor1": [1, INF, 3, 4]}))
    rec = Recorder(state)
    RULES.propagate(rec, 0)
    assert rec.state.sheets[0].marks["floor1.s5"] == "infected.grey"
    assert rec.state.sheets[0].marks["score.q1L"] == 3
    RULES.propagate(rec, 0)
    assert infected(rec.state.sheets[0].marks) == ["floor1.s2", "floor1.s5"]


def test_an_activation_is_never_prevented_by_quarantine() -> None:
    walls = {walkway: "line" for walkway, _ in LAYOUT.quarters["q2M"].neighbours}
    marks = blank() | active("q1L") | walls | crossed(*(f"plant.t0{n}" for n in range(1, 5)))
    marks |= crossed("plant.box1", "plant.box2", "plant.bonus1", "plant.bonus2")
    state = one(marks, (7, "plant"), (3, "robot"), (12, "robot"))
    write(state, 0, 0, "floor3.s3", 7)
    move(state, 0, action="plant", effect="action.plant")
    assert state.sheets[0].marks["q2M.target"] == "circle"


def infections_due() -> GameState:
    """Two seats; seat 0's Water crosses a propagation symbol, so seat 1 suffers one propagation:
    its grey virus in q1L, which has four empty spaces (1, 2, 4, 5) around its 3, then blue."""
    marks = blank() | active("q1L") | crossed(*(f"water.t0{n}" for n in range(1, 5)))
    marks |= crossed("water.box1", "water.box2", "water.bonus1", "water.bonus2", "act.blue")
    marks |= circled("q4M.target")
    state = game(2, sheet=marks)
    set_sheet(state, 1, marks | floors({"floor1": [None] * 5 + [5]}))
    reveal(state, (6, "water"), (3, "robot"), (12, "robot"))
    write(state, 0, 0, "floor1.s1", 6)  # the tank of q1L
    move(state, 0, action="water", effect="action.water")
    write(state, 1, 1, "floor1.s3", 3)
    move(state, 1, **skip("action.robot"))
    for seat in (0, 1):
        send(state, seat, {"type": "confirm"})
    return state


def test_a_virus_infects_the_empty_space_its_player_chooses_in_phase_5() -> None:
    state = infections_due()
    assert state.phase == "incidents" and state.turn == 1
    assert engine.options(state, 0).kind == "wait"
    decision = engine.options(state, 1)
    assert (decision.kind, decision.can_undo, decision.can_confirm) == ("effect", False, False)
    assert decision.options == [
        {"action": "infect", "effect": "infect.q1L.grey", "space": space}
        for space in ("floor1.s1", "floor1.s2", "floor1.s4", "floor1.s5")
    ]
    assert refused(state, 1, action="infect", effect="infect.q1L.grey", space="floor2.s2") == (
        "space_not_in_quarter"
    )
    assert refused(state, 1, action="infect", effect="infect.q1L.grey", space="floor1.s3") == (
        "space_not_empty"
    )
    for command, code in (({"type": "undo"}, "nothing_to_undo"), ({"type": "confirm"}, "effects_pending")):
        with pytest.raises(engine.OutOfTurn) as caught:
            engine.decide(state, 1, command)
        assert caught.value.code == code
    with pytest.raises(engine.OutOfTurn) as caught:
        engine.decide(state, 0, {"type": "move", "choice": {"action": "infect"}})
    assert caught.value.code == "turn_already_confirmed"
    move(state, 1, action="infect", effect="infect.q1L.grey", space="floor1.s1")
    assert infected(state.sheets[1].marks) == ["floor1.s1"]
    # the propagation goes on with the next active virus, blue in q4M
    blue = LAYOUT.quarters["q4M"].spaces
    assert [option["space"] for option in options(state, 1)] == list(blue)
    move(state, 1, action="infect", effect="infect.q4M.blue", space=blue[2])
    assert infected(state.sheets[1].marks) == ["floor1.s1", blue[2]]
    assert state.phase == "actions" and state.turn == 2


def test_the_greedy_bot_infects_the_space_that_takes_the_fewest_numbers() -> None:
    state = infections_due()
    choice = bots.greedy_bot(random.Random(3))(state, 1)["choice"]
    assert choice["space"] in ("floor1.s4", "floor1.s5")  # between 3 and 5; s1, s2 take 0-2
    assert RULES.infection_space(state.sheets[1].marks, LAYOUT.quarters["q1L"]) == "floor1.s4"


def test_a_quarter_with_one_empty_space_is_infected_without_asking() -> None:
    marks = blank() | active("q1L") | floors({"floor1": [1, 2, None, 4, 5]})
    rec = Recorder(one(marks))
    RULES.propagate(rec, 0)
    assert infected(rec.state.sheets[0].marks) == ["floor1.s3"]
    assert rec.state.seats[0].pending == []


def test_error_2_gives_its_player_one_propagation_and_error_3_ends_the_game(
    propagations: Counter[int],
) -> None:
    marks = blank() | active("q1L") | circled("error.1", "error.2")
    marks |= floors({f"floor{n}": [16] for n in range(1, 6)})
    state = game(2, sheet=marks)
    set_sheet(state, 1, blank() | active("q1L"))
    reveal(state, (3, "robot"), (5, "robot"), (8, "robot"))
    move(state, 0, **system_error("error.3"))
    write(state, 1, 0, "floor1.s3", 3)
    move(state, 1, **skip("action.robot"))
    confirm_all(state)
    assert propagations == {0: 1}
    assert state.status == "ended"
    assert state.end == {"reasons": [{"reason": "all_system_errors", "seats": [0]}]}


def test_an_infection_filling_the_last_space_ends_the_game() -> None:
    spaces = {space: int(space.rsplit("s", 1)[1]) for space in LAYOUT.spaces}
    del spaces["floor5.s10"], spaces["floor5.s9"]
    marks = evacuated(blank() | active("q5R") | spaces | floors({"floor5": [None] * 8 + [INF]}))
    state = game(sheet=marks | circled("error.1"))
    reveal(state, (3, "robot"), (5, "robot"), (8, "robot"))
    move(state, 0, **system_error("error.2"))
    confirm(state, 0)
    assert state.status == "ended"
    assert {r["reason"] for r in state.end["reasons"]} == {"sheet_full"}  # type: ignore[index]
    assert state.sheets[0].marks["q5R.evacuated"] == "circle"


def test_three_missions_end_the_game() -> None:
    marks = blank() | active("q1L") | {"mission.A": 8, "mission.B": 11}
    marks |= {walkway: "line" for walkway in LAYOUT.walkways}
    state = game(missions={"A": 94, "B": 96, "C": 98}, sheet=marks | circled(
        *(f"{q}.e{n}" for q in ("q1L", "q1M", "q2M", "q2R") for n in (2, 3))
    ))  # fmt: skip
    reveal(state, (3, "robot"), (5, "robot"), (8, "robot"))
    write(state, 0, 0, "floor1.s3", 3)
    confirm(state, 0)
    assert state.sheets[0].marks["mission.C"] == 10
    assert {r["reason"] for r in state.end["reasons"]} == {"all_missions"}  # type: ignore[index]


# --- missions (spec 9) -----------------------------------------------------------------------


def closed(*quarters: str) -> Marks:
    """Every walkway of these quarters closed."""
    return {walkway: "line" for name in quarters for walkway, _ in LAYOUT.quarters[name].neighbours}


def full_floor(floor: int, *, but_one: bool = False) -> Marks:
    """Every quarter of a floor evacuated (one space left empty when ``but_one``)."""
    spaces = LAYOUT.zone_of[f"floor{floor}.s1"]
    return evacuated(blank() | {space: "X" for space in spaces[: len(spaces) - int(but_one)]})


def without(marks: Marks, element: str) -> Marks:
    return {key: mark for key, mark in marks.items() if key != element}


def resources(*floors: int) -> Marks:
    """Every plant and tank of these floors circled."""
    return circled(*(e for f in floors for q in LAYOUT.floors[f] for e in q.plants_and_tank))


@pytest.mark.parametrize(
    ("card", "met", "short"),
    [
        (94, quarter("q2R", numbered=3, infected=2) | quarter("q5R", numbered=5), quarter("q5R", numbered=5)),
        (95, full_floor(4), full_floor(4, but_one=True)),
        (96, closed("q1L", "q4L", "q5R"), closed("q1L", "q4L") | {"w06": "line", "w15": "line"}),
        # a group of three sealed off together (q1L, q3L, q4L) quarantines none of them
        (96, closed("q1L", "q4L", "q5R"), {w: "line" for w in ("w01", "w03", "w05", "w10", "w17")}),
        (97, closed("q2M", "q4M"), without(closed("q2M", "q4M"), "w22")),
        (98, circled("q1L.e2", "q1L.e3", "q1M.e2", "q1M.e3", "q5M.e2", "q5M.e3", "q5R.e2", "q5R.e3"),
         circled("q1L.e2", "q1L.e3", "q1M.e2", "q1M.e3", "q5M.e2", "q5M.e3", "q5R.e2")),
        (99, resources(1, 5), without(resources(1, 5), "q5R.tank")),
    ],
)  # fmt: skip
def test_each_mission_is_met_by_its_condition_and_not_one_short(card: int, met: Marks, short: Marks) -> None:
    def holds(marks: Marks) -> bool:
        return RULES.mission_holds_on(game(sheet=blank() | active("q1L") | evacuated(marks)).sheets[0], card)

    assert holds(met) and not holds(short)


@pytest.mark.parametrize(
    ("missions", "values"),
    [
        ({"A": 94, "B": 96, "C": 98}, ((8, 3), (11, 4), (10, 4))),
        ({"A": 95, "B": 97, "C": 99}, ((8, 3), (12, 5), (10, 4))),
    ],
)
def test_the_missions_are_worth_their_card_values(missions: dict[str, int], values: tuple) -> None:
    worth = game(missions=missions).mission_values
    assert tuple((worth[letter]["first"], worth[letter]["later"]) for letter in "ABC") == values


# --- setup -------------------------------------------------------------------------------


def test_each_seat_places_its_grey_virus_before_the_first_turn_unless_a_card_placed_it() -> None:
    placed = [{"kind": "start_marks", "marks": [
        {"element": "q5R.target", "mark": "circle"}, {"element": "floor5.s9", "mark": "infected.grey"},
    ]}]  # fmt: skip
    state = engine.replay(engine.new_game(adventure=6, players=2, seed=1, modifiers={1: placed}))
    assert (state.phase, state.turn, state.combinations) == ("setup", 0, [])
    assert engine.options(state, 1).kind == "wait"
    decision = engine.options(state, 0)
    assert decision.kind == "effect" and len(decision.options) == 4 * 5
    assert {option["quarter"] for option in options(state, 0)} == {"q1L", "q2R", "q4L", "q5R"}
    grey = {"action": "grey", "effect": "grey"}
    assert refused(state, 0, **grey, quarter="q3M", space="floor3.s6") == "quarter_not_eligible"
    assert refused(state, 0, **grey, quarter="q2R", space="floor1.s1") == "space_not_in_quarter"
    move(state, 0, **grey, quarter="q2R", space="floor2.s9")
    assert (state.phase, state.turn, len(state.combinations)) == ("actions", 1, 3)
    assert state.sheets[0].marks["q2R.target"] == "circle"
    assert infected(state.sheets[0].marks) == ["floor2.s9"]
    assert state.sheets[1].marks["q5R.target"] == "circle"
    assert infected(state.sheets[1].marks) == ["floor5.s9"]
    assert "q2R.target" not in state.sheets[1].marks


@pytest.mark.parametrize(
    "marks",
    [
        [{"element": "q5R.target", "mark": "circle"}],
        [{"element": "q5R.target", "mark": "circle"}, {"element": "floor1.s1", "mark": "infected.grey"}],
        [{"element": "q3M.target", "mark": "circle"}, {"element": "floor3.s6", "mark": "infected.grey"}],
        [{"element": "floor3.s6", "mark": "infected.red"}],
    ],
)
def test_a_grey_virus_placed_against_the_rules_is_refused(marks: list) -> None:
    with pytest.raises(engine.RuleViolation) as caught:
        modifiers = {0: [{"kind": "start_marks", "marks": marks}]}
        engine.new_game(adventure=6, players=1, seed=1, modifiers=modifiers)
    assert caught.value.code == "invalid_modifier"


# --- the sheet view and the bot ----------------------------------------------------------


def test_the_view_derives_quarters_walkways_viruses_and_tracks() -> None:
    marks = evacuated(blank() | active("q1L") | quarter("q1L", numbered=4, infected=1, energies=2))
    marks |= crossed("w01", "w07", "w08", "plant.t01", "plant.t02", "plant.box1")
    derived = engine.sheet_view(game(sheet=marks), 0, viewer=0)["derived"]
    assert derived["quarters"]["q1L"] == {
        "evacuated": True, "complete": True, "quarantined": True, "energies": 2, "points": 8,
        "infected": ["floor1.s5"],
    }  # fmt: skip
    assert derived["walkways"]["w01"] == "closed" and derived["walkways"]["w02"] == "open"
    grey = {"colour": "grey", "quarter": "q1L", "spread": ["floor1.s5"], "spills": True}
    assert derived["viruses"] == [grey]
    assert (derived["plant_track"], derived["water_track"]) == (5, 0)


def test_the_greedy_bot_declines_a_claim_whose_virus_costs_more_than_it_is_worth() -> None:
    # Three complete virus quarters spill into every neighbour: waking red costs 12 > 8.
    marks = blank() | active("q1L", "q2M", "q4M") | floors({"floor1": [1, INF, 3, 4, 5]})
    marks |= floors({"floor2": [1, 2, 3, 4, 5], "floor4": [None] * 5 + [6, 7, 8, 9, 10]})
    marks = evacuated(marks)
    state = game(missions={"A": 94, "B": 96, "C": 98}, sheet=marks)
    assert RULES.claim_cost(state, 0, "A") > 8
    reveal(state, (12, "robot"), (13, "robot"), (14, "robot"))
    write(state, 0, 0, "floor3.s15", 12)
    move(state, 0, **skip("action.robot"))
    confirm(state, 0, claim=False)
    assert options(state, 0) == [{"action": "claim_mission", "letter": "A"}]
    assert bots.greedy_bot(random.Random(1))(state, 0) == {"type": "confirm"}


def test_the_greedy_bot_claims_when_the_virus_costs_less() -> None:
    marks = evacuated(blank() | active("q1L") | quarter("q2R", numbered=5) | quarter("q5R", numbered=5))
    state = game(missions={"A": 94, "B": 96, "C": 98}, sheet=marks)
    assert RULES.claim_cost(state, 0, "A") == 2  # grey and red each infect one space
    reveal(state, (12, "robot"), (13, "robot"), (14, "robot"))
    write(state, 0, 0, "floor3.s15", 12)
    move(state, 0, **skip("action.robot"))
    confirm(state, 0, claim=False)
    claim = {"action": "claim_mission", "letter": "A"}
    assert bots.greedy_bot(random.Random(1))(state, 0) == {"type": "move", "choice": claim}


def test_a_mission_claimed_in_a_later_turn_gives_its_later_value_and_wakes_nothing(
    propagations: Counter[int],
) -> None:
    energies = circled(*(f"{q}.e{n}" for q in ("q1L", "q1M", "q2M", "q2R") for n in (2, 3)))
    state = game(2, missions={"A": 94, "B": 96, "C": 98}, sheet=blank() | active("q1L"))
    set_sheet(state, 0, blank() | active("q1L") | energies)
    reveal(state, (3, "robot"), (5, "robot"), (8, "robot"))
    for seat in (0, 1):
        write(state, seat, 0, "floor3.s3", 3)
        move(state, seat, **skip("action.robot"))
    confirm_all(state)  # seat 0 claims C first: 10, and yellow wakes (one propagation each)
    assert state.sheets[0].marks["mission.C"] == 10
    assert propagations == {0: 1, 1: 1}
    set_sheet(state, 1, state.sheets[1].marks | energies)
    reveal(state, (3, "robot"), (5, "robot"), (8, "robot"))
    for seat in (0, 1):
        write(state, seat, 1, "floor3.s5", 5)
        move(state, seat, **skip("action.robot"))
    confirm_all(state)
    assert state.sheets[1].marks["mission.C"] == 4
    assert propagations == {0: 1, 1: 1} and state.turn == 3
