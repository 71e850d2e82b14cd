"""The Adventure 7 sheet as the engine reads it matches the printed sheet the spec describes
(section 3): the blocks of each ship, the airlocks and the blocks each one opens, the robot
spaces, the water tanks, the printed plants and reactors, and the tracks."""

from tests.rules.escape_helpers import LAYOUT

# Each ship's blocks left to right, as (block, first space, last space) by position.
SHIPS = {
    "ship1": [("modA", 1, 4), ("gh", 5, 5), ("modB", 6, 9)],
    "ship2": [("modA", 1, 3), ("modB", 4, 6), ("gh", 7, 7), ("modC", 8, 10)],
    "ship3": [("gh", 1, 1), ("modA", 2, 4), ("modB", 5, 7)],
    "ship4": [("modA", 1, 2), ("gh", 3, 3), ("modB", 4, 6)],
    "ship5": [("modA", 1, 3), ("gh", 4, 4), ("modB", 5, 6)],
    "ship6": [("modA", 1, 2), ("modB", 3, 4), ("gh", 5, 5)],
}

# The blocks one airlock away from each block (spec 3.3, the neighbours table).
NEIGHBOURS = {
    "ship1.modA": {"ship1.gh", "ship2.modA", "ship2.modB"},
    "ship1.gh": {"ship1.modA", "ship1.modB"},
    "ship1.modB": {"ship1.gh", "ship2.modC"},
    "ship2.modA": {"ship1.modA", "ship2.modB", "ship3.modA"},
    "ship2.modB": {"ship1.modA", "ship2.modA", "ship2.gh", "ship3.modB"},
    "ship2.gh": {"ship2.modB", "ship2.modC"},
    "ship2.modC": {"ship1.modB", "ship2.gh"},
    "ship3.gh": {"ship3.modA"},
    "ship3.modA": {"ship2.modA", "ship3.gh", "ship3.modB", "ship4.modA"},
    "ship3.modB": {"ship2.modB", "ship3.modA", "ship4.modB"},
    "ship4.modA": {"ship3.modA", "ship4.gh", "ship5.modA"},
    "ship4.gh": {"ship4.modA", "ship4.modB"},
    "ship4.modB": {"ship3.modB", "ship4.gh", "ship5.modB"},
    "ship5.modA": {"ship4.modA", "ship5.gh", "ship6.modA"},
    "ship5.gh": {"ship5.modA", "ship5.modB"},
    "ship5.modB": {"ship4.modB", "ship5.gh", "ship6.modB"},
    "ship6.modA": {"ship5.modA", "ship6.modB"},
    "ship6.modB": {"ship5.modB", "ship6.modA", "ship6.gh"},
    "ship6.gh": {"ship6.modB"},
}

TANKS = {
    "water.1A": "ship1.s3", "water.1B": "ship1.s7", "water.2A": "ship2.s2", "water.2B": "ship2.s5",
    "water.2C": "ship2.s9", "water.3A": "ship3.s3", "water.3B": "ship3.s7", "water.4A": "ship4.s1",
    "water.4B": "ship4.s5", "water.5A": "ship5.s2", "water.5B": "ship5.s5", "water.6A": "ship6.s1",
    "water.6B": "ship6.s3",
}  # fmt: skip


def test_each_ship_is_one_zone_of_its_blocks_left_to_right() -> None:
    for ship, blocks in SHIPS.items():
        last = blocks[-1][2]
        assert LAYOUT.ships[ship] == tuple(f"{ship}.s{k}" for k in range(1, last + 1))
        for name, first, end in blocks:
            block = LAYOUT.blocks[f"{ship}.{name}"]
            assert block.spaces == tuple(f"{ship}.s{k}" for k in range(first, end + 1))
            assert block.is_module == (name != "gh")
    assert len(LAYOUT.spaces) == 43 and len(LAYOUT.modules) == 13
    assert sum(len(m.spaces) for m in LAYOUT.modules) == 37


def test_only_the_two_bottom_modules_are_open_at_the_start() -> None:
    assert LAYOUT.start_blocks == {"ship1.modA", "ship1.modB"}
    assert LAYOUT.access({}).spaces == {f"ship1.s{k}" for k in (1, 2, 3, 4, 6, 7, 8, 9)}


def test_the_24_airlocks_join_the_blocks_the_sheet_shows_and_greenhouses_only_sideways() -> None:
    assert len(LAYOUT.airlocks) == 24
    found: dict[str, set[str]] = {}
    for one, other in LAYOUT.airlocks.values():
        found.setdefault(one, set()).add(other)
        found.setdefault(other, set()).add(one)
    assert found == NEIGHBOURS
    for one, other in LAYOUT.airlocks.values():
        if "gh" in one + other:
            assert LAYOUT.blocks[one].ship == LAYOUT.blocks[other].ship


def test_robot_spaces_tanks_and_printed_plants_and_reactors() -> None:
    assert set(LAYOUT.robot_of_space) == {
        "ship1.s1", "ship1.s8", "ship2.s3", "ship2.s10", "ship3.s5", "ship4.s2", "ship5.s6", "ship6.s2"
    }  # fmt: skip
    assert {tank: space for space, tank in LAYOUT.tank_on.items()} == TANKS
    assert all(LAYOUT.block_of[space] == f"ship{tank[6]}.mod{tank[7]}" for tank, space in TANKS.items())
    assert set(LAYOUT.printed_marks) == {
        "plant.3.1", "plant.4.1", "plant.5.1", "plant.6.1", "plant.6.2",
        "reactor.4.1", "reactor.5.1", "reactor.6.1", "reactor.6.2",
    }  # fmt: skip
    assert all(len(LAYOUT.reactors[ship]) == 3 for ship in LAYOUT.ships)
    assert all(len(gh.plants) == 3 for gh in LAYOUT.greenhouses.values())


def test_tracks_astronauts_wilds_planning_and_errors() -> None:
    assert LAYOUT.wild_reward == {"astro.2": "wild.1", "astro.4": "wild.2", "astro.6": "wild.3"}
    assert LAYOUT.planning_penalty == (0, 1, 3, 6, 9, 12, 16, 20, 24, 28)
    assert LAYOUT.error_penalty == (0, 5, 10, 15)
    assert LAYOUT.compensated_errors == {"error.1", "error.2"}
    assert (LAYOUT.greenhouse_points, LAYOUT.module_points) == ((0, 2, 4, 7), (0, 2, 4, 7))
