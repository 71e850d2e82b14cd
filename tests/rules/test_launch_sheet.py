"""The Adventure 1 sheet as the engine reads it matches the counts the spec gives (§2)."""

from collections import Counter

from tests.rules.launch_helpers import LAYOUT


def test_floors_spaces_and_quarters() -> None:
    assert len(LAYOUT.spaces) == 53
    assert len(LAYOUT.quarters) == 19
    per_floor = Counter(q["floor"] for q in LAYOUT.quarters.values())
    assert [per_floor[f"f{n}"] for n in range(1, 10)] == [4, 4, 3, 1, 1, 2, 2, 1, 1]
    assert LAYOUT.floors_for_action["astronaut"] == ("f8", "f9", "f1")


def test_quarter_effects_totals() -> None:
    effects = [LAYOUT.elements[e] for q in LAYOUT.quarters.values() for e in q["effects"]]
    kinds = Counter(e["kind"] for e in effects)
    assert len(effects) == 46
    assert kinds == {
        "active_rocket": 16, "inactive_rocket": 7, "rocket_activation": 5, "building": 10,
        "sabotage": 8,
    }
    assert sum(e["value"] for e in effects if e["kind"] == "active_rocket") == 41
    assert sum(e["value"] for e in effects if e["kind"] == "inactive_rocket") == 20


def test_scoring_column_error_row_and_tiebreak_rockets() -> None:
    assert len(LAYOUT.column_rockets) == 31
    assert len(LAYOUT.score_box_after) == 10
    assert len(LAYOUT.error_boxes) == 8 and len(LAYOUT.tiebreak_rockets) == 8
    assert dict(LAYOUT.value_by_rockets)[31] == 150
