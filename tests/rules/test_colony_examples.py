"""The worked examples of the Colony spec (adventure-3-colony.md section 12), one test each."""

from games.rules import engine
from games.rules.common import astra
from games.rules.core.sheet import Marks
from games.rules.turn import solo
from tests.rules.colony_helpers import (
    LAYOUT,
    RULES,
    astronauts,
    boxes,
    circled,
    confirm,
    confirm_all,
    crossed,
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
    with_antennas,
    write,
)
from tests.rules.playing import against_astra

# --- 12.1 scoring examples -----------------------------------------------------------------

ANA_S1 = grid(
    {
        6: "10 12 14 . . (O)",
        5: "8 11 13 . . .",
        4: "6 X (X) . . .",
        3: "4 7 9 (X) 12 14",
        2: "2 5 8 10 11 13",
        1: "(R) 1 3 6 X 9",
    }
)
S1_TUNNELS = tunnels(
    "r2c1-r3c1", "r3c1-r3c2", "r3c1-r4c1", "r1c2-r1c3", "r1c3-r1c4", "r1c4-r1c5", "r1c4-r2c4"
)


def _ascends(marks: Marks) -> bool:
    """Every number of the sheet could have been written where it stands."""
    for space, value in marks.items():
        if space in LAYOUT.spaces and isinstance(value, int):
            others = {k: v for k, v in marks.items() if k != space}
            if RULES.placement_problem(others, space, value) is not None:
                return False
    return True


def test_example_s1_three_players_full_sheet_state_scores_ana_74() -> None:
    state = start(3, missions={"A": 76, "B": 79, "C": 81})
    network = {**ANA_S1, **S1_TUNNELS}
    assert _ascends(ANA_S1)
    assert sorted(RULES.antennas_to_circle(network)) == sorted(
        f"antenna.{b}" for b in ("r2c1", "r1c2", "r3c2", "r4c1", "r1c5", "r2c4")
    )
    ana = {
        **with_antennas(network),
        **circled("water.r6c1", "water.r3c2", "water.r2c3", "water.r1c4"),
        **circled("greenhouse.TL.1", "greenhouse.TL.2", "greenhouse.BL.1"),
        **boxes("track.plants", 1),
        **boxes("track.water", 2),
        **boxes("track.antennas", 1),
        **astronauts(2),
        **boxes("track.planning", 2),
        **errors(1),
        **circled("qbonus.TL.15", "qbonus.BL.5", "qbonus.BR.15"),
        **crossed("qbonus.BL.15"),
        "mission.A": 12,
    }
    set_sheet(state, 0, ana)
    set_sheet(state, 1, astronauts(4))
    set_sheet(state, 2, astronauts(2))

    assert RULES.mission_holds(state, 0, 76)
    assert not RULES.mission_holds(state, 0, 79)  # only BL has all its antennas
    assert not RULES.mission_holds(state, 0, 81)  # only BL has both tanks
    assert RULES.mission_holds(state, 0, 77)  # rows 1-3 full, card not in play
    assert score(state, 0) == {
        "missions": 12,
        "plants": 3,
        "water": 16,
        "antennas": 6,
        "quarters": 35,
        "astronauts": 10,
        "planning": -3,
        "system_errors": -5,
        "campaign": 0,
        "total": 74,
    }


def test_example_s2_zero_multipliers_and_maximum_planning_scores_bruno_58() -> None:
    state = start(2, missions={"A": 76, "B": 78, "C": 81})
    sheet = {**diagonal_sheet(xs=9), **tunnels("r2c1-r3c1", "r3c1-r4c1", "r3c1-r3c2")}
    assert _ascends(sheet)
    assert len(RULES.antennas_to_circle(sheet)) == 4
    bruno = {
        **with_antennas(sheet),
        **circled("greenhouse.TL.1", "greenhouse.TL.2", "greenhouse.TL.3", "greenhouse.TL.4"),
        **circled("greenhouse.TR.1"),
        **boxes("track.plants", 4),
        **circled("water.r6c1", "water.r3c2"),
        **circled("qbonus.TL.15", "qbonus.TR.15", "qbonus.BL.5", "qbonus.BR.15"),
        **crossed("qbonus.BL.15"),
        **boxes("track.planning", 9),
        "mission.A": 12,
    }
    set_sheet(state, 0, bruno)
    set_sheet(state, 1, astronauts(2))

    assert not RULES.mission_holds(state, 0, 78)
    assert not RULES.mission_holds(state, 0, 81)
    assert {"reason": "sheet_full", "seats": [0]} in RULES.end_reasons(state)
    assert score(state, 0) == {
        "missions": 12,
        "plants": 24,
        "water": 0,
        "antennas": 0,
        "quarters": 50,
        "astronauts": 0,
        "planning": -28,
        "system_errors": 0,
        "campaign": 0,
        "total": 58,
    }


def test_example_s3_solo_sam_107_against_astra_margaret_102() -> None:
    state = start(1, missions={"A": 77, "B": 79, "C": 81})
    sheet = {
        **diagonal_sheet(xs=3),
        **tunnels(
            "r2c1-r3c1", "r3c1-r4c1", "r4c1-r4c2", "r4c2-r5c2", "r5c2-r5c3", "r5c2-r6c2",
            "r3c1-r3c2",
        ),
    }
    assert sorted(RULES.antennas_to_circle(sheet)) == sorted(
        f"antenna.{b}" for b in ("r2c1", "r1c2", "r3c2", "r4c1", "r5c3", "r6c2")
    )
    sam = {
        **with_antennas(sheet),
        **circled(*(f"greenhouse.TL.{n}" for n in range(1, 5)), "greenhouse.TR.1"),
        **circled("greenhouse.TR.2"),
        **boxes("track.plants", 2),
        **circled("water.r6c1", "water.r5c3", "water.r2c5", "water.r1c4"),
        **boxes("track.water", 2),
        **boxes("track.antennas", 2),
        **circled("qbonus.TL.15", "qbonus.BL.15", "qbonus.BR.5", "qbonus.TR.5"),
        **crossed("qbonus.BR.15", "qbonus.TR.15"),
        **astronauts(3),
        **boxes("track.planning", 3),
        **errors(1),
        "mission.A": 12,
        "mission.B": 9,
        "mission.C": 5,
    }
    set_sheet(state, 0, sam)
    assert all(RULES.mission_holds(state, 0, card) for card in (77, 79, 81))
    pile = {"robot": 5, "energy": 5, "plant": 4, "water": 5, "astronaut": 4, "planning": 4}
    against_astra(state, 3, pile)

    breakdown = score(state, 0)
    solo_astronauts = RULES.solo_astronauts(3, astra_astronaut_cards=4)
    assert solo_astronauts == breakdown["astronauts"] == 10
    sheet_parts = {k: v for k, v in breakdown.items() if k not in ("astronauts", "total")}
    assert sheet_parts == {
        "missions": 26,
        "plants": 14,
        "water": 16,
        "antennas": 12,
        "quarters": 40,
        "planning": -6,
        "system_errors": -5,
        "campaign": 0,
    }
    sam_total = sum(sheet_parts.values()) + solo_astronauts
    astra_total = astra.astra_score(3, 3, pile).total
    assert (sam_total, astra_total) == (107, 102)
    assert astra.solo_winner(sam_total, astra_total) == "player"
    result = solo.standings(state)
    assert (result["scores"][0]["total"], result["astra"]["total"], result["winners"]) == (107, 102, [0])


# --- 12.2 turn examples --------------------------------------------------------------------


def test_example_t1_ordering_in_a_row_and_a_column_at_the_same_time() -> None:
    state = start(1)
    set_sheet(state, 0, grid({2: "3 . . 9 . .", 1: "(R) 2 . . . .", 4: ". 10 (X) . . ."}))
    reveal(state, (6, "robot"), (2, "plant"), (11, "water"))
    assert RULES.placement_problem(marks_of(state, 0), "bld.r2c2", 8) is None
    # 2 repeats column 2's 2 (and is below row 2's 3 on its left).
    assert refused(state, 0, action="write", combination=1, space="bld.r2c2", number=2) in (
        "number_already_in_zone",
        "space_not_ascending",
    )
    reveal(state, (9, "robot"), (2, "plant"), (11, "water"))
    assert refused(state, 0, action="write", combination=0, space="bld.r2c2", number=9) == (
        "number_already_in_zone"
    )
    assert refused(state, 0, action="write", combination=2, space="bld.r2c2", number=11) == (
        "space_not_ascending"
    )

    reveal(state, (6, "astronaut"), (2, "plant"), (11, "water"))
    offered = {
        o["number"] for o in options(state, 0) if o["combination"] == 0 and o["space"] == "bld.r2c2"
    }
    assert offered == {4, 5, 6, 7, 8}
    write(state, 0, 0, "bld.r2c2", 6)
    assert marks_of(state, 0)["bld.r2c2"] == 6


def test_example_t2_xs_and_prenumbered_buildings_are_transparent() -> None:
    state = start(1)
    set_sheet(state, 0, grid({6: ". . 12 . . (O)", 3: ". . 9 (X) . ."}))
    reveal(state, (8, "robot"), (9, "plant"), (10, "water"))
    assert refused(state, 0, action="write", combination=0, space="bld.r5c3", number=8) == (
        "space_not_ascending"
    )
    assert refused(state, 0, action="write", combination=1, space="bld.r5c3", number=9) == (
        "number_already_in_zone"
    )
    assert RULES.placement_problem(marks_of(state, 0), "bld.r5c3", 11) is None
    assert RULES.placement_problem(marks_of(state, 0), "bld.r5c3", 12) is not None
    write(state, 0, 2, "bld.r5c3", 10)

    # Near the rocket: 2 changed by -2 gives 0, legal in r1c2 (the rocket sets no bound).
    state = start(1)
    set_sheet(state, 0, grid({2: ". 3 . . . ."}))
    reveal(state, (2, "astronaut"), (9, "plant"), (10, "water"))
    assert {"action": "write", "combination": 0, "space": "bld.r1c2", "number": 0} in options(
        state, 0
    )
    write(state, 0, 0, "bld.r1c2", 0)
    assert marks_of(state, 0)["astro.1"] == "cross"

    # A Planning X goes in a space where no number could fit (between 9 and 10).
    state = start(1)
    set_sheet(state, 0, grid({6: ". . 10 . . (O)", 3: ". . 9 (X) . ."}))
    reveal(state, (1, "planning"), (9, "plant"), (10, "water"))
    write(state, 0, 0, "bld.r1c2", 1)
    move(state, 0, action="planning", effect="action.planning", space="bld.r5c3")
    assert marks_of(state, 0)["bld.r5c3"] == "X"
    assert marks_of(state, 0)["track.planning.1"] == "cross"


def test_example_t3_tunnels_and_both_ways_of_circling_an_antenna() -> None:
    state = start(1, missions={"A": 76, "B": 78, "C": 80})
    # Turn 1, 4/Water in r2c1: connected by a pre-built tunnel, its antenna is circled.
    reveal(state, (4, "water"), (13, "plant"), (14, "energy"))
    write(state, 0, 0, "bld.r2c1", 4)
    assert marks_of(state, 0)["antenna.r2c1"] == "circle"
    assert not state.seats[0].pending  # no tank on r2c1: the Water action has no effect
    confirm(state, 0)

    # Turn 2, 7/Water in r3c2: tank circled, antenna waits for a tunnel.
    reveal(state, (7, "water"), (13, "plant"), (14, "energy"))
    write(state, 0, 0, "bld.r3c2", 7)
    move(state, 0, action="water", effect="action.water", tank="water.r3c2")
    assert marks_of(state, 0)["water.r3c2"] == "circle"
    assert "antenna.r3c2" not in marks_of(state, 0)
    confirm(state, 0)

    # Turn 3, 5/Robot in r3c1: exactly four tunnels touch the network.
    reveal(state, (5, "robot"), (13, "plant"), (14, "energy"))
    write(state, 0, 0, "bld.r3c1", 5)
    drawable = {o["tunnel"] for o in options(state, 0) if o["action"] == "robot"}
    assert drawable == {
        "tunnel.r1c2-r1c3", "tunnel.r1c2-r2c2", "tunnel.r2c1-r2c2", "tunnel.r2c1-r3c1"
    }
    for tunnel in ("tunnel.r3c2-r3c3", "tunnel.r3c1-r3c2"):
        assert refused(state, 0, action="robot", effect="action.robot", tunnel=tunnel) == (
            "tunnel_not_connected"
        )
    move(state, 0, action="robot", effect="action.robot", tunnel="tunnel.r2c1-r3c1")
    confirm(state, 0)

    # Turn 4, 9/Robot in r4c1: its antenna waits; r3c1-r3c2 connects the numbered r3c2.
    reveal(state, (9, "robot"), (13, "plant"), (14, "energy"))
    write(state, 0, 0, "bld.r4c1", 9)
    assert "antenna.r4c1" not in marks_of(state, 0)
    robot = {"action": "robot", "effect": "action.robot", "tunnel": "tunnel.r3c1-r4c1"}
    other = engine.decide(state, 0, {"type": "move", "choice": robot})
    assert {"kind": "mark", "element": "antenna.r4c1"} in [
        {"kind": e["kind"], "element": e["data"].get("element")} for e in other
    ]
    move(state, 0, action="robot", effect="action.robot", tunnel="tunnel.r3c1-r3c2")
    assert marks_of(state, 0)["antenna.r3c2"] == "circle"
    assert "antenna.r4c1" not in marks_of(state, 0)
    confirm(state, 0)
    assert marks_of(state, 0)["antenna.r3c2"] == "circle"


def test_example_t4_greenhouses_and_energy() -> None:
    state = start(1, missions={"A": 76, "B": 78, "C": 81})
    sheet = {
        **circled("greenhouse.TL.1", "greenhouse.TL.2", "greenhouse.TL.3"),
        **boxes("track.plants", 1),
        **boxes("track.water", 2),
    }
    set_sheet(state, 0, sheet)
    reveal(state, (12, "plant"), (3, "plant"), (5, "energy"))
    write(state, 0, 0, "bld.r5c2", 12)
    assert options(state, 0) == [
        {"action": "plant", "effect": "action.plant", "greenhouse": "greenhouse.TL.4"},
        {"action": "skip", "effect": "action.plant"},
    ]
    assert refused(
        state, 0, action="plant", effect="action.plant", greenhouse="greenhouse.BR.1"
    ) == "greenhouse_wrong_quarter"
    move(state, 0, action="plant", effect="action.plant", greenhouse="greenhouse.TL.4")
    assert RULES.plants(marks_of(state, 0)) == 5
    confirm(state, 0)

    # Another Plant in TL does nothing; a Plant in BL circles BL's first greenhouse.
    reveal(state, (13, "plant"), (3, "plant"), (5, "energy"))
    write(state, 0, 0, "bld.r6c3", 13)
    assert not state.seats[0].pending
    confirm(state, 0)
    reveal(state, (13, "plant"), (3, "plant"), (5, "energy"))
    write(state, 0, 1, "bld.r1c3", 3)
    move(state, 0, action="plant", effect="action.plant", greenhouse="greenhouse.BL.1")
    assert marks_of(state, 0)["greenhouse.BL.1"] == "circle"
    confirm(state, 0)

    # Energy: the next box of each track, never one further down.
    reveal(state, (13, "plant"), (3, "plant"), (5, "energy"))
    write(state, 0, 2, "bld.r1c4", 5)
    assert {o.get("box") for o in options(state, 0)} == {
        "track.plants.2", "track.water.3", "track.antennas.1", None
    }
    assert refused(state, 0, action="energy", effect="action.energy", box="track.water.4") == (
        "box_not_next"
    )
    move(state, 0, action="energy", effect="action.energy", box="track.water.3")
    assert LAYOUT.tracks["track.water"].value(marks_of(state, 0)) == 6


def _bl_x(*, but: tuple[str, ...]) -> Marks:
    """Every space of the bottom-left quarter holding an X except those named."""
    return {space: "X" for space in LAYOUT.quarter_spaces("quarter.BL") if space not in but}


def test_example_t5_the_quarter_race() -> None:
    state = start(3, missions={"A": 76, "B": 78, "C": 80})
    set_sheet(state, 0, _bl_x(but=("bld.r3c3",)))
    set_sheet(state, 1, _bl_x(but=("bld.r3c2", "bld.r3c3")))
    set_sheet(state, 2, _bl_x(but=("bld.r3c2", "bld.r3c3", "bld.r2c3")))

    reveal(state, (5, "planning"), (9, "plant"), (10, "water"))
    write(state, 0, 0, "bld.r3c3", 5)  # Ana's number fills the last space of BL
    assert marks_of(state, 0)["qbonus.BL.15"] == "circle"
    skip(state, 0, "action.planning")
    write(state, 1, 0, "bld.r3c3", 5)  # Ben: a number, then the X that fills BL
    move(state, 1, action="planning", effect="action.planning", space="bld.r3c2")
    assert marks_of(state, 1)["qbonus.BL.15"] == "circle"
    write(state, 2, 0, "bld.r3c3", 5)  # Chloé has two empty spaces left in BL
    skip(state, 2, "action.planning")
    confirm_all(state)

    assert [marks_of(state, seat).get("qbonus.BL.15") for seat in range(3)] == [
        "circle",
        "circle",
        "cross",
    ]
    assert [score(state, seat)["quarters"] for seat in range(3)] == [15, 15, 0]

    # Later, Chloé completes BL: she circles its 5, and nobody's 15 changes.
    reveal(state, (4, "planning"), (9, "plant"), (10, "water"))
    write(state, 2, 0, "bld.r3c2", 4)
    move(state, 2, action="planning", effect="action.planning", space="bld.r2c3")
    assert marks_of(state, 2)["qbonus.BL.5"] == "circle"
    for seat in (0, 1):
        write(state, seat, 2, "bld.r6c1", 10)
        skip(state, seat, "action.water")
    confirm_all(state)
    assert [score(state, seat)["quarters"] for seat in range(3)] == [15, 15, 5]
    assert marks_of(state, 2)["qbonus.BL.15"] == "cross"


def test_example_t6_a_forced_system_error() -> None:
    late = everything_x(but=("bld.r6c5", "bld.r5c6", "bld.r6c4", "bld.r5c5", "bld.r4c6"))
    late |= {"bld.r6c4": 15, "bld.r5c5": 16, "bld.r4c6": 13}
    state = start(1)
    set_sheet(state, 0, late)
    reveal(state, (5, "robot"), (8, "plant"), (12, "astronaut"))
    assert options(state, 0) == [{"action": "system_error", "box": "error.1"}]
    assert refused(state, 0, action="write", combination=0, space="bld.r6c5", number=5) == (
        "space_not_ascending"
    )
    move(state, 0, action="system_error", box="error.1")
    assert not state.seats[0].pending
    assert score(state, 0)["system_errors"] == -5

    state = start(1)
    set_sheet(state, 0, late)
    reveal(state, (5, "robot"), (8, "plant"), (15, "astronaut"))
    assert {(o["space"], o["number"]) for o in options(state, 0)} == {
        ("bld.r6c5", 17), ("bld.r5c6", 17)
    }
    assert refused(state, 0, action="system_error", box="error.1") == "number_must_be_written"
