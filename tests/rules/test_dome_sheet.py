"""The Adventure 5 sheet as the engine reads it matches the geometry of the spec (§2): the
skyscrapers and their bonuses, the tower's links, the dome's parities and the four tracks."""

from collections import Counter

from tests.rules.dome_helpers import LAYOUT

LEVELS_BELOW_AND_ABOVE = {"sk1": (6, 3), "sk2": (4, 6), "sk3": (3, 7), "sk4": (5, 4)}


def test_each_skyscraper_runs_from_its_deepest_foundation_to_its_spire() -> None:
    for zone, (below, above) in LEVELS_BELOW_AND_ABOVE.items():
        levels = [f"{zone}.d{k}" for k in range(below, 0, -1)] + [f"{zone}.u{k}" for k in range(1, above + 1)]
        assert list(LAYOUT.skyscrapers[zone]) == levels
    assert len(LAYOUT.spaces) == 38
    assert sum(space.split(".")[1].startswith("u") for space in LAYOUT.spaces) == 20
    assert LAYOUT.top_levels == ("sk1.u3", "sk2.u6", "sk3.u7", "sk4.u4")


def test_a_skyscraper_starts_at_the_surface_and_its_levels_touch_only_above_and_below() -> None:
    assert LAYOUT.start_levels == {f"sk{n}.{level}" for n in range(1, 5) for level in ("d1", "u1")}
    for spaces in LAYOUT.skyscrapers.values():
        for index, space in enumerate(spaces):
            assert set(LAYOUT.neighbours[space]) == set(spaces[max(index - 1, 0) : index + 2]) - {space}


def test_top_and_bottom_bonuses_by_skyscraper() -> None:
    pairs = {
        bonus.location: (bonus.space, LAYOUT.bonus_values[bonus.high], LAYOUT.bonus_values[bonus.low])
        for bonus in LAYOUT.end_bonuses.values()
    }
    assert pairs == {
        "sk1.top": ("sk1.u3", 6, 3), "sk1.bottom": ("sk1.d6", 20, 10),
        "sk2.top": ("sk2.u6", 20, 10), "sk2.bottom": ("sk2.d4", 10, 5),
        "sk3.top": ("sk3.u7", 25, 12), "sk3.bottom": ("sk3.d3", 6, 3),
        "sk4.top": ("sk4.u4", 10, 5), "sk4.bottom": ("sk4.d5", 15, 7),
    }  # fmt: skip
    assert sum(LAYOUT.bonus_values[bonus.high] for bonus in LAYOUT.end_bonuses.values()) == 112
    assert sum(LAYOUT.bonus_values[bonus.low] for bonus in LAYOUT.end_bonuses.values()) == 55


def test_a_level_feeds_the_tower_level_of_its_row_and_eight_levels_feed_none() -> None:
    for space, level in LAYOUT.tower_level_of.items():
        assert level == f"tower.{space.split('.')[1]}"
    assert set(LAYOUT.spaces) - set(LAYOUT.tower_level_of) == {
        "sk1.d6", "sk1.d5", "sk2.u5", "sk2.u6", "sk3.u5", "sk3.u6", "sk3.u7", "sk4.d5",
    }  # fmt: skip
    assert Counter(LAYOUT.tower_level_of.values()) == {
        "tower.u4": 3, "tower.u3": 4, "tower.u2": 4, "tower.u1": 4,
        "tower.d1": 4, "tower.d2": 4, "tower.d3": 4, "tower.d4": 3,
    }  # fmt: skip
    assert all(
        (len(symbols["plant"]), len(symbols["water"])) == (2, 1) for symbols in LAYOUT.tower_symbols.values()
    )


def test_dome_sections_alternate_odd_and_even_and_halves_keep_their_sections_parity() -> None:
    assert LAYOUT.sections == tuple(f"dome.{k}" for k in range(1, 9))
    for k in range(1, 9):
        parity = k % 2  # one end circle (odd) on dome.1, two (even) on dome.8
        assert LAYOUT.halves[f"dome.{k}"] == (f"dome.{k}a", f"dome.{k}b")
        parities = {LAYOUT.parity[f"dome.{k}{half}"] for half in ("", "a", "b")}
        assert parities == {parity}
    assert LAYOUT.chain({}) == list(LAYOUT.sections)
    assert len(LAYOUT.chain({line: "line" for line in LAYOUT.split_lines.values()})) == 16


def test_tracks_read_top_down_then_their_unboxed_final_values() -> None:
    by_track = {name: [track.values[row] for row in range(5)] for name, track in LAYOUT.tracks.items()}
    assert by_track == {
        "missions": [{"first": f, "later": later} for f, later in
                     [(8, 4), (10, 6), (12, 8), (15, 9), (18, 10)]],
        "tower": [{"one": one, "two": two, "three": three} for one, two, three in
                  [(2, 5, 9), (2, 6, 10), (3, 7, 12), (3, 8, 15), (4, 10, 18)]],
        "astronauts": [{"first": f, "other": other} for f, other in
                       [(-10, 0), (0, 2), (10, 4), (20, 7), (30, 10)]],
        "dome": [{"per_unbuilt": value} for value in (6, 5, 4, 3, 2)],
    }  # fmt: skip
    assert [len(track.rows) for track in LAYOUT.tracks.values()] == [4, 4, 4, 4]


def test_eight_astronauts_three_error_boxes_and_six_mission_stars() -> None:
    assert LAYOUT.astronaut_symbols == tuple(f"astro.{n}" for n in range(1, 9))
    assert LAYOUT.error_boxes == ("error.1", "error.2", "error.3")
    assert LAYOUT.error_penalty == {0: 0, 1: 5, 2: 10, 3: 15}
    assert LAYOUT.mission_stars == {
        letter: {"first": f"mission.{letter}.first", "later": f"mission.{letter}.later"} for letter in "ABC"
    }
