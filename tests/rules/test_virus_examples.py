"""The worked examples of the Adventure 6 specification (section 14; the ASTRA examples are not
played yet), each asserting the numbers the spec gives."""

import pytest

from games.rules import engine
from games.rules.core.events import Recorder
from games.rules.core.sheet import Marks
from games.rules.engine import GameState
from tests.rules.playing import choose_incidents, confirm, options, send, skip, system_error
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
    propagate,
    quarter,
    refused,
    reveal,
    score,
    set_sheet,
    write,
)


def sheet_of(quarters: dict[str, tuple[int, int, int]], *, xs: dict[str, int] | None = None) -> Marks:
    """A sheet from (numbered, infected, energies) per quarter, complete quarters evacuated."""
    marks = blank()
    for name, (numbered, infections, energies) in quarters.items():
        q = LAYOUT.quarters[name]
        x_count = (xs or {}).get(name, 0)
        for index, space in enumerate(q.spaces[:numbered]):
            marks[space] = "X" if index < x_count else int(space.rsplit("s", 1)[1])
        for space in q.spaces[numbered : numbered + infections]:
            marks[space] = "infected.grey"
        marks.update(circled(*q.energies[:energies]))
    return evacuated(marks)


def scored(marks: Marks, players: int = 1) -> dict[str, int]:
    state = game(players, sheet=marks)
    return score(state)


def track(prefix: str, symbols: int, boxes: int) -> Marks:
    return crossed(
        *(f"{prefix}.t{n:02d}" for n in range(1, symbols + 1)),
        *(f"{prefix}.box{n}" for n in range(1, boxes + 1)),
    )


def test_scoring_example_1_an_ordinary_game_ended_by_another_player() -> None:
    marks = sheet_of(
        {
            "q1L": (3, 2, 2), "q1M": (5, 0, 3), "q2M": (2, 3, 1), "q2R": (4, 1, 2),
            "q3L": (3, 0, 2), "q3M": (1, 4, 1), "q3R": (4, 0, 3), "q4L": (0, 5, 1),
            "q4M": (2, 1, 2), "q5M": (3, 2, 1), "q5R": (2, 0, 1),
        },
        xs={"q1M": 1},
    )
    marks.update({"mission.A": 8, "mission.C": 4, **circled("error.1")})
    marks.update(track("plant", 8, 3) | track("water", 5, 2))
    breakdown = scored(marks)
    assert breakdown["quarter_scores"] == {
        "q1L": 6, "q1M": 15, "q2M": 2, "q2R": 8, "q3L": 6, "q3M": 1, "q3R": 12, "q4L": 0,
        "q4M": 4, "q5M": 3, "q5R": 2,
    }  # fmt: skip
    assert (breakdown["missions"], breakdown["plants"], breakdown["water"]) == (12, 20, 20)
    assert (breakdown["quarters"], breakdown["infected"], breakdown["system_errors"]) == (59, -18, -5)
    assert breakdown["total"] == 88


def test_scoring_example_2_a_full_sheet_and_three_system_errors() -> None:
    marks = sheet_of(
        {
            "q1L": (5, 0, 3), "q1M": (4, 1, 3), "q2M": (3, 2, 2), "q2R": (5, 0, 2),
            "q3L": (2, 3, 1), "q3M": (2, 3, 1), "q3R": (5, 0, 3), "q4L": (4, 1, 2),
            "q4M": (3, 2, 2), "q5M": (3, 2, 3), "q5R": (4, 1, 3),
        }
    )
    marks.update({"mission.B": 12, "mission.C": 10, **circled("error.1", "error.2", "error.3")})
    marks.update(track("plant", 16, 6) | track("water", 1, 0))
    breakdown = scored(marks)
    assert RULES.mission_holds_on(game(sheet=marks).sheets[0], 98)  # floors 1 and 5
    assert all(q.evacuated in marks for q in LAYOUT.quarters.values())
    assert (breakdown["missions"], breakdown["plants"], breakdown["water"]) == (22, 80, 0)
    assert (breakdown["quarters"], breakdown["infected"], breakdown["system_errors"]) == (97, -15, -15)
    assert breakdown["total"] == 169


def test_scoring_example_3_many_quarters_evacuated_by_force_at_the_end() -> None:
    marks = sheet_of(
        {
            "q1L": (2, 1, 1), "q1M": (5, 0, 2), "q2M": (4, 0, 3), "q2R": (3, 2, 1),
            "q3L": (0, 2, 2), "q3M": (5, 0, 1), "q3R": (2, 0, 1), "q4L": (1, 3, 1),
            "q4M": (5, 0, 3), "q5M": (0, 0, 1), "q5R": (3, 0, 2),
        },
        xs={"q2M": 1},
    )
    marks.update({"mission.A": 3, "mission.B": 4})
    marks.update(track("plant", 3, 1) | track("water", 7, 3))
    breakdown = scored(marks)
    assert sum(1 for space in LAYOUT.spaces if space not in marks) == 17
    assert (breakdown["missions"], breakdown["plants"], breakdown["water"]) == (7, 5, 35)
    assert (breakdown["quarters"], breakdown["infected"], breakdown["system_errors"]) == (56, -8, 0)
    assert breakdown["total"] == 95


# --- 14.4: numbering --------------------------------------------------------------------


def floor_three() -> GameState:
    state = game(
        sheet=blank() | floors({"floor3": [2, "X", INF, None, 6, None, 9]}),
    )
    reveal(state, (7, "energy"), (6, "astronaut"), (6, "robot"))
    return state


def test_numbering_example_seven_between_six_and_nine_then_its_energy() -> None:
    state = floor_three()
    write(state, 0, 0, "floor3.s6", 7)
    move(state, 0, action="energy", effect="action.energy")
    assert state.sheets[0].marks["q3M.e2"] == "circle"


@pytest.mark.parametrize("space", ["floor3.s4", "floor3.s8"])
def test_numbering_example_seven_out_of_order_is_refused(space: str) -> None:
    assert refused(floor_three(), 0, action="write", combination=0, space=space, number=7) == (
        "space_not_ascending"
    )


def test_numbering_example_six_made_five_by_the_astronaut_and_six_beside_six() -> None:
    state = floor_three()
    assert refused(state, 0, action="write", combination=2, space="floor3.s6", number=6) == (
        "number_already_in_zone"
    )
    write(state, 0, 1, "floor3.s4", 5, modifier=-1)
    assert state.sheets[0].marks["floor3.s4"] == 5
    assert state.sheets[0].marks["astro.1"] == "cross"


# --- 14.5: actions, legal and useless -----------------------------------------------------


def test_action_example_water_on_the_tank_of_q2m_activates_blue_for_everyone() -> None:
    water = crossed("water.t01", "water.t02", "water.box1", "water.bonus1")
    state = game(3, sheet=blank() | active("q1L") | water)
    reveal(state, (8, "water"), (3, "robot"), (12, "robot"))
    write(state, 0, 0, "floor2.s3", 8)
    move(state, 0, action="water", effect="action.water")
    marks = state.sheets[0].marks
    assert marks["q2M.tank"] == "circle" and marks["water.t03"] == "cross"
    assert marks["act.blue"] == "cross" and marks["q4M.target"] == "circle"
    for seat in (1, 2):
        write(state, seat, 1, "floor5.s1", 3)
        move(state, seat, **skip("action.robot"))
    for seat in range(3):
        confirm(state, seat)
    for seat in range(3):
        marks = state.sheets[seat].marks
        assert marks["act.blue"] == "cross" and marks["q4M.target"] == "circle"
        # one propagation: grey and blue each infect their own quarter
        assert {LAYOUT.quarter_of[space].id for space in infected(marks)} == {"q1L", "q4M"}
        assert len(infected(marks)) == 2


def test_action_example_water_off_a_tank_and_a_plant_with_no_plant_left_do_nothing() -> None:
    state = game(sheet=blank() | circled("q1L.p1"))
    reveal(state, (8, "water"), (4, "plant"), (12, "robot"))
    write(state, 0, 0, "floor2.s4", 8)
    assert state.seats[0].pending == []
    assert "water.t01" not in state.sheets[0].marks
    state = game(sheet=blank() | circled("q1L.p1"))
    reveal(state, (8, "water"), (4, "plant"), (12, "robot"))
    write(state, 0, 1, "floor1.s4", 4)
    assert state.seats[0].pending == []
    assert "plant.t01" not in state.sheets[0].marks


def test_action_example_a_water_row_gives_an_energy_never_in_the_quarter_just_completed() -> None:
    marks = blank() | floors({"floor4": [None] * 5 + [1, 2, None, 9, 10]})
    marks |= crossed("water.t01", "water.t02", "water.t03", "water.box1", "water.bonus1")
    state = game(sheet=marks)
    reveal(state, (8, "water"), (3, "robot"), (12, "robot"))
    write(state, 0, 0, "floor4.s8", 8)
    move(state, 0, action="water", effect="action.water")
    sheet = state.sheets[0].marks
    assert sheet["water.box2"] == "cross" and sheet["water.bonus2"] == "cross"
    quarters = {option["quarter"] for option in options(state, 0)}
    assert "q4M" not in quarters and "q4L" in quarters
    assert refused(state, 0, action="bonus_energy", effect="water.bonus2", quarter="q4M") == (
        "quarter_not_eligible"
    )
    move(state, 0, action="bonus_energy", effect="water.bonus2", quarter="q4L")
    assert state.sheets[0].marks["q4L.e2"] == "circle"
    assert state.sheets[0].marks["score.q4M"] == 5  # evacuated after the bonus, 5 x 1


def test_action_example_closing_w13_cuts_q2m_from_q3r() -> None:
    state = game(sheet=blank())
    reveal(state, (8, "robot"), (3, "robot"), (12, "robot"))
    write(state, 0, 0, "floor1.s8", 8)
    move(state, 0, action="robot", effect="action.robot", walkway="w13")
    marks = state.sheets[0].marks | floors({"floor2": [1, 2, 3, 4, 5]}) | active("q2M")
    set_sheet(state, 0, marks)
    after = propagate(state).sheets[0].marks
    spilled = {LAYOUT.quarter_of[space].id for space in infected(after)} - {"q1L"}
    assert spilled == {"q2R", "q1M", "q3M"}  # w02, w09, w12 open; w13 closed


# --- 14.6: one propagation, in order, with chains -------------------------------------------


def propagation_sheet(closed: str) -> Marks:
    marks = blank() | active("q1L", "q1M", "q2M") | crossed(closed)
    marks |= floors(
        {
            "floor1": [2, INF, 4, INF, 7, 8, 9, None, 12, 14],
            "floor2": [3, INF, 5, None, None, 10, 11, 12, 13, 14],
            "floor3": [1, 2, 3, None, None, None, None, None, None, 10, 11, 12, 13, 14, 15],
            "floor4": [None] * 5 + [6, 7, 8, 9, 10],
            "floor5": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
        }
    )
    marks |= circled("q1M.e2")
    return evacuated(marks)


def test_propagation_example_grey_fills_q1m_red_spills_green_completes_q2m() -> None:
    marks = propagation_sheet("w07")
    assert "q1L.evacuated" in marks and "q1M.evacuated" not in marks
    before = set(infected(marks))
    after = propagate(game(sheet=marks)).sheets[0].marks
    new = sorted(set(infected(after)) - before)
    assert len(new) == 6
    assert after["floor1.s8"] == "infected.grey" and after["floor2.s4"] == "infected.red"
    assert after["floor2.s5"] == "infected.green"
    assert {LAYOUT.quarter_of[s].id for s in new} == {"q1M", "q4L", "q2M", "q3L", "q3M"}
    assert after["score.q1M"] == 8 and after["score.q2M"] == 2


def test_propagation_example_with_w01_closed_instead() -> None:
    marks = propagation_sheet("w01")
    before = set(infected(marks))
    after = propagate(game(sheet=marks)).sheets[0].marks
    new = sorted(set(infected(after)) - before)
    by_quarter = sorted(LAYOUT.quarter_of[s].id for s in new)
    assert by_quarter == ["q1M", "q2M", "q3L", "q4L"]
    assert after["floor1.s8"] == "infected.red" and after["score.q1M"] == 8
    assert "q2M.evacuated" not in after


# --- 14.7: counting the propagations of phase 5, and the phase-6 loops ---------------------


def test_phase_5_counts_and_the_phase_6_loops(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    original = RULES.propagate

    def counted(rec: Recorder, seat: int, *, times: int = 1) -> None:
        calls.extend([seat] * times)
        original(rec, seat, times=times)

    monkeypatch.setattr(RULES, "propagate", counted)
    state = game(3, missions={"A": 94, "B": 96, "C": 98})
    base = blank() | active("q1L", "q2M") | floors({"floor1": [None, INF]})
    alice = base | crossed(*(f"plant.t0{n}" for n in range(1, 8)))
    alice |= crossed(*(f"plant.{box}{n}" for box in ("box", "bonus") for n in (1, 2, 3)))
    alice |= evacuated(quarter("q2R", numbered=5)) | floors({"floor5": [1, 2, 3, 4]})
    bob = base | crossed("water.t01", "water.t02", "water.box1", "water.bonus1")
    bob |= circled(*(f"{q}.e{n}" for q in ("q1L", "q1M", "q2M", "q2R") for n in (2, 3)))
    carol = base | circled("error.1") | floors(
        {floor: [8] for floor in ("floor1", "floor2", "floor3", "floor4", "floor5")}
    )
    carol |= circled(*(f"{q}.e{n}" for q in ("q4L", "q4M", "q5M", "q5R") for n in (2, 3)))
    for seat, marks in enumerate((alice, bob, carol)):
        set_sheet(state, seat, marks)
    reveal(state, (5, "plant"), (6, "water"), (7, "robot"))
    write(state, 0, 0, "floor3.s5", 5)
    move(state, 0, action="plant", effect="action.plant")
    assert state.sheets[0].marks["plant.t08"] == "cross"
    assert state.sheets[0].marks["prop.plant1"] == "cross"
    write(state, 1, 1, "floor4.s8", 6)
    move(state, 1, action="water", effect="action.water")
    assert state.sheets[1].marks["act.blue"] == "cross"
    move(state, 2, **system_error("error.2"))
    confirm(state, 0)
    confirm(state, 1)
    confirm(state, 2, claim=False)
    assert sorted(calls) == [0, 1, 1, 2, 2, 2]
    for seat in range(3):
        assert {"prop.plant1", "act.blue"} <= state.sheets[seat].marks.keys()
    # Phase 6: Bob and Carol meet mission C (two floors of energies); Carol declines for now.
    assert options(state, 1) == [{"action": "claim_mission", "letter": "C"}]
    move(state, 1, action="claim_mission", letter="C")
    end_phase_6(state)
    assert state.sheets[1].marks["mission.C"] == 10
    for seat in range(3):
        marks = state.sheets[seat].marks
        assert marks["act.yellow"] == "cross" and marks["q5M.target"] == "circle"
    assert sorted(calls[6:]) == [0, 1, 2]
    # Phase 6 again: yellow completed Alice's q5M, her second evacuated quarter.
    assert state.sheets[0].marks["q5M.evacuated"] == "circle"
    assert options(state, 0) == [{"action": "claim_mission", "letter": "A"}]
    move(state, 0, action="claim_mission", letter="A")
    assert {"action": "claim_mission", "letter": "C"} in options(state, 2)
    move(state, 2, action="claim_mission", letter="C")
    end_phase_6(state)
    assert state.sheets[0].marks["mission.A"] == 8  # still the first value, same turn
    assert state.sheets[2].marks["mission.C"] == 10  # C flipped this turn: still first
    assert all(sheet.marks["act.red"] == "cross" for sheet in state.sheets)
    assert sorted(calls[9:]) == [0, 1, 2]
    end_phase_6(state)  # Carol, with two evacuated quarters too, declines mission A
    assert len(calls) == 12
    assert state.phase == "actions" and state.turn == 2


def end_phase_6(state: GameState) -> None:
    """Every seat still deciding in phase 6 claims no more (the choices of a phase 5 this sets
    off are made with their first options)."""
    for seat in range(state.players):
        if engine.options(state, seat).kind == "mission":
            send(state, seat, {"type": "confirm"})
    choose_incidents(state)
