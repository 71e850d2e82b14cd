"""The worked examples of Adventure 1, The Launch (adventure-1-launch.md §12), one test each."""

from collections.abc import Mapping
from typing import Any, cast

import pytest

from games.rules import engine
from games.rules.common import astra
from games.rules.core.sheet import Marks, X
from tests.rules.launch_helpers import (
    LAYOUT,
    activate,
    build,
    circled,
    column,
    column_rockets,
    confirm,
    errors,
    floor_spaces,
    move,
    numbers,
    play_turn,
    reveal,
    score,
    set_sheet,
    skip,
    start,
    system_error,
    write,
    xs,
)

# Missions whose conditions none of these sheets meets unless a test says so.
QUIET_MISSIONS = {"A": 64, "B": 66, "C": 69}


def _end_game(state: engine.GameState, reason: str, seats: list[int]) -> Mapping[str, Any]:
    """Record the end of the game (met by a seat not shown here) and return the result."""
    engine.evolve(
        state,
        {
            "kind": "game_ended",
            "seat": None,
            "turn": state.turn,
            "data": {"reasons": [{"reason": reason, "seats": seats}]},
        },
    )
    return engine.result_event(state)["data"]


def _options(state: engine.GameState, seat: int) -> list[dict[str, Any]]:
    return cast(list[dict[str, Any]], list(engine.options(state, seat).options))


def _refused(state: engine.GameState, seat: int, choice: dict[str, Any]) -> str:
    with pytest.raises(engine.RuleViolation) as refused:
        move(state, seat, choice)
    return refused.value.code


# --- scoring examples --------------------------------------------------------------------


def test_a1_s1_game_ended_by_another_players_missions_scores_column_minus_errors() -> None:
    """The sheet's history is played turn by turn on a one-seat game, with the three
    System Errors it suffered already circled."""
    state = start(1, missions={"A": 64, "B": 66, "C": 68})
    set_sheet(state, 0, circled(3))

    def turn(number: int, action: str, space: str, *effects: dict[str, Any]) -> None:
        reveal(state, (number, action), (15, "energy"), (15, "energy"))
        move(state, 0, write(0, space))
        for effect in effects:
            move(state, 0, effect)
        confirm(state, 0)

    turn(3, "astronaut", "f9.s1")
    turn(8, "astronaut", "f9.s2")
    turn(
        12, "astronaut", "f9.s3",
        activate("f9.q1.activation", "f5.q1.arrow"), build("f9.q1.building", "f3.s1"),
    )
    turn(4, "water", "f7.s1")
    turn(10, "water", "f7.s2")  # rocket 2 and a sabotage (no opponent here)
    turn(1, "plant", "f1.s1")
    turn(5, "plant", "f1.s2", build("f1.q1.building", "f3.s2"))
    turn(6, "plant", "f1.s3")
    turn(9, "plant", "f1.s4", build("f1.q2.building", "f3.s3"))
    turn(9, "energy", "f3.s6")
    turn(11, "energy", "f3.s7")
    turn(5, "robot", "f6.s3")
    turn(7, "robot", "f6.s4")
    turn(13, "robot", "f6.s5", build("f6.q2.building", "f3.s4"))
    turn(2, "plant", "f2.s1")
    turn(7, "plant", "f2.s2")  # f2.q1: its inactive rocket was never activated

    marks = state.sheets[0].marks
    assert [marks.get(space) for space in floor_spaces("f3")[:5]] == [X, X, X, X, None]
    assert marks["f5.q1.arrow"] == "fill"
    assert "f2.q1.inactive" not in marks
    breakdown = score(state, 0)
    assert (breakdown["rockets"], breakdown["column_value"]) == (17, 60)
    assert [box for box in ("score.0", "score.15", "score.30", "score.45", "score.60")
            if box in marks] == ["score.0", "score.15", "score.30", "score.45"]
    assert (breakdown["error_penalty"], breakdown["total"]) == (-15, 45)
    result = _end_game(state, "all_missions", [])
    assert result["scores"][0]["total"] == 45


def _player_a_before_the_last_turn() -> Marks:
    """A1-S2's player A: 29 rockets from eleven complete quarters, 3 errors circled,
    f4 = X, X, X, 3, 8, _ with its arrow filled."""
    complete = {
        **numbers("f9", 1, 2, 3), **numbers("f7", 1, 2, 3, 4, 5), **numbers("f1", 1, 2, 3, 4, 5, 6),
        **numbers("f2", 1, 2, 3, 4, 5, 6), **numbers("f6", None, None, 1, 2, 3),
        **numbers("f3", X, X, None, None, None, 1, 2),
    }
    used = {
        effect: "used"
        for quarter in ("f9.q1", "f7.q1", "f7.q2", "f1.q1", "f1.q2", "f1.q3", "f2.q1", "f2.q2",
                        "f3.q2", "f6.q2", "f2.q3")
        for effect in LAYOUT.quarters[quarter]["effects"]
        if LAYOUT.elements[effect]["kind"] != "sabotage"
    }
    del used["f2.q1.inactive"], used["f2.q3.inactive"]  # never activated: nothing
    return {
        **complete,
        **used,
        **numbers("f4", X, X, X, 3, 8),
        "f7.q1.sabotage": "cross",
        "f7.q2.arrow": "fill",
        "f4.q1.arrow": "fill",
        **column(29),
        **circled(3),
    }


def test_a1_s2_two_players_launch_in_the_same_turn_more_tiebreak_rockets_wins() -> None:
    """B launches too: B completes f4.q1 with the same planning combination, which also
    makes B immune to that sabotage (triggered by both in the same turn)."""
    a, b = 0, 1
    state = start(2, missions=QUIET_MISSIONS)
    set_sheet(state, a, _player_a_before_the_last_turn())
    set_sheet(state, b, {**column(28), **numbers("f4", 1, 2, 3, 4, 5), "f7.q1.sabotage": "cross"})
    assert score(state, a)["column_value"] == 135

    reveal(state, (11, "planning"), (15, "energy"), (15, "energy"))
    move(state, a, write(0, "f4.s6"))
    marks = state.sheets[a].marks
    # 8 units: 2 finish line 10, 3 cross the circled errors off, 3 tie-break rockets.
    assert column_rockets(state, a) == 31 and marks["score.135"] == "cross"
    assert errors(state, a, "cross") == ["err.1", "err.2", "err.3"]
    assert [t for t in LAYOUT.tiebreak_rockets if t in marks] == ["tb.1", "tb.2", "tb.3"]
    assert marks["f4.q1.sabotage"] == "triggered"
    move(state, a, build("f4.q1.building", "f3.s3"))
    move(state, b, write(0, "f4.s6"))  # 4 units: 3 to the column, 1 tie-break rocket
    move(state, b, skip("f4.q1.building"))
    confirm(state, a)
    confirm(state, b)

    assert state.status == "ended"
    assert state.end == {"reasons": [{"reason": "launch", "seats": [a, b]}]}
    result = engine.result_event(state)["data"]
    scores = {s["seat"]: s for s in result["scores"]}
    assert [scores[a]["total"], scores[b]["total"]] == [150, 150]
    assert [scores[a]["breakdown"]["tiebreak_rockets"], scores[b]["breakdown"]["tiebreak_rockets"]
            ] == [3, 1]
    assert [scores[a]["rank"], scores[b]["rank"]] == [1, 2]
    assert result["winners"] == [a]


def test_a1_s3_negative_score_after_a_later_mission() -> None:
    me, other = 0, 1
    state = start(2, missions=QUIET_MISSIONS)
    state.flipped_missions = {"C"}  # the other player accomplished mission 69 before
    mine = {
        **numbers("f7", 4, 10), "f7.q1.rocket": "used", "f7.q1.sabotage": "cross",
        **numbers("f1", 1, 5), "f1.q1.rocket": "used", "f1.q1.building": "used", "f5.s1": X,
        **column(4), **circled(6),
    }
    set_sheet(state, me, mine)
    set_sheet(state, other, {"mission.C": 3, "f7.q1.sabotage": "cross"})

    play_turn(state, [(2, "energy"), (3, "energy"), (4, "energy")],
              {me: [write(0, "f3.s1")], other: [write(1, "f3.s1")]})

    assert state.sheets[me].marks["mission.C"] == 2
    breakdown = score(state, me)
    assert (breakdown["rockets"], breakdown["column_value"]) == (6, 15)
    assert (breakdown["error_penalty"], breakdown["total"]) == (-30, -15)


def test_a1_s4_every_rocket_crossed_but_no_launch_ranks_below_the_launcher() -> None:
    me, other = 0, 1
    state = start(2, missions={"A": 64, "B": 66, "C": 68})
    state.flipped_missions = {"C"}  # the other player wrote their 10 X first
    ten_x = xs(*floor_spaces("f1"), "f2.s1", "f2.s2")
    set_sheet(state, me, {**column(31), **circled(3), **ten_x})
    set_sheet(state, other, {**column(30), "mission.C": 2, **numbers("f7", 4)})

    # Turn 1: mission 68, later value: 1 rocket, which crosses err.1 off.
    play_turn(state, [(3, "energy"), (5, "energy"), (6, "energy")],
              {me: [write(0, "f3.s1")], other: [write(0, "f3.s1")]})
    assert state.sheets[me].marks["mission.C"] == 1
    assert errors(state, me, "cross") == ["err.1"]
    assert state.status == "playing"  # 2 circled errors still uncrossed: no launch

    # Turn 2: the other player completes f7.q1: its sabotage circles a 4th error for me,
    # and its rockets finish their column and cross a tie-break rocket: they launch.
    play_turn(state, [(7, "energy"), (9, "water"), (8, "energy")],
              {me: [write(0, "f3.s2")], other: [write(1, "f7.s2")]})

    assert errors(state, me) == ["err.2", "err.3", "err.4"]
    assert state.end == {"reasons": [{"reason": "launch", "seats": [other]}]}
    result = engine.result_event(state)["data"]
    mine = result["scores"][me]
    assert (mine["breakdown"]["column_value"], mine["breakdown"]["error_penalty"]) == (150, -15)
    assert mine["total"] == 135 and not mine["breakdown"]["launched"]
    assert result["scores"][other]["rank"] == 1 and mine["rank"] == 2


# --- turn-by-turn examples ---------------------------------------------------------------


def test_a1_t1_where_a_number_may_go() -> None:
    state = start(1)
    set_sheet(state, 0, {
        **numbers("f9", 3, None, 9), **numbers("f8", 7), **numbers("f7", 1, None, None, None, 12),
        **numbers("f1", 2, None, X, 11),
    })
    reveal(state, (6, "astronaut"), (12, "water"), (1, "energy"))

    offered = {(o["combination"], o["space"]) for o in _options(state, 0)}

    assert {space for c, space in offered if c == 0} == {"f9.s2", "f1.s2"}
    assert {space for c, space in offered if c == 1} == {"f1.s5", "f1.s6", "f1.s7", "f1.s8"}
    assert {space for c, space in offered if c == 2} == set(floor_spaces("f3"))
    assert all(o["number"] == (6, 12, 1)[o["combination"]] for o in _options(state, 0))
    assert _refused(state, 0, write(0, "f8.s2")) == "space_not_ascending"
    assert _refused(state, 0, write(0, "f8.s3")) == "space_not_ascending"
    assert _refused(state, 0, write(0, "f7.s2")) == "wrong_floor_for_action"
    assert _refused(state, 0, write(0, "f1.s5")) == "space_not_ascending"
    assert _refused(state, 0, write(1, "f7.s2")) == "number_already_in_zone"
    assert _refused(state, 0, write(1, "f7.s4")) == "number_already_in_zone"
    assert _refused(state, 0, write(2, "f1.s2")) == "space_not_ascending"
    # No astronaut modifier in this adventure: 6 cannot become 7 or 5.
    for number in (5, 7):
        assert _refused(state, 0, {**write(0, "f9.s2"), "number": number}) == (
            "number_not_in_combination"
        )
    move(state, 0, write(0, "f9.s2"))
    assert state.sheets[0].marks["f9.s2"] == 6


def _a1_t2_state() -> engine.GameState:
    state = start(1)
    set_sheet(state, 0, {
        **numbers("f6", 4, None, 6, 9, 12), "f6.q2.rocket": "used", "f6.q2.building": "used",
        **numbers("f7", 3, 5, 8, None, 13), "f7.q1.rocket": "used", "f7.q1.sabotage": "cross",
        **column(10),
    })
    reveal(state, (5, "robot"), (15, "energy"), (15, "energy"))
    return state


def test_a1_t2_activation_before_building_earns_the_inactive_rocket() -> None:
    state = _a1_t2_state()
    assert _refused(state, 0, write(0, "f6.s4")) == "space_not_empty"
    assert _refused(state, 0, write(0, "f7.s4")) == "wrong_floor_for_action"

    move(state, 0, write(0, "f6.s2"))  # f6.q1 completes: activation and building

    assert activate("f6.q1.activation", "f7.q2.arrow") in _options(state, 0)
    move(state, 0, activate("f6.q1.activation", "f7.q2.arrow"))
    move(state, 0, build("f6.q1.building", "f7.s4"))
    assert column_rockets(state, 0) == 16
    assert score(state, 0)["column_value"] == 60
    assert state.sheets[0].marks["f7.q2.inactive"] == "used"


def test_a1_t2_building_before_activation_loses_the_inactive_rocket() -> None:
    state = _a1_t2_state()
    move(state, 0, write(0, "f6.s2"))

    move(state, 0, build("f6.q1.building", "f7.s4"))  # f7.q2 completes, arrow empty

    assert column_rockets(state, 0) == 13
    assert score(state, 0)["column_value"] == 45
    arrows = {o["arrow"] for o in _options(state, 0)}
    assert "f7.q2.arrow" not in arrows and "f4.q1.arrow" in arrows
    assert _refused(state, 0, activate("f6.q1.activation", "f7.q2.arrow")) == (
        "arrow_not_available"
    )
    move(state, 0, activate("f6.q1.activation", "f4.q1.arrow"))
    assert "f7.q2.inactive" not in state.sheets[0].marks
    assert engine.options(state, 0).kind == "confirm"


def test_a1_t3_sabotage_resolution_between_four_players() -> None:
    """Ben and Chloé both complete f3.q1 (sabotages 1 and 2). One write completes a single
    chain of quarters, and neither f3.q1 nor f7.q1 carries a Building, so no write completes
    both: Chloé's third sabotage here comes from f4.q1, whose Building X completes f3.q1."""
    ana, ben, chloe, dev = range(4)
    state = start(4, missions=QUIET_MISSIONS)
    set_sheet(state, ana, {
        **xs(*floor_spaces("f1")), **numbers("f3", *[None] * 9, 1), **numbers("f4", *[None] * 5, 1),
        **numbers("f2", *[None] * 7, 1), **circled(1),
    })
    set_sheet(state, ben, numbers("f3", 1, 2, 3, 4))
    set_sheet(state, chloe, {**numbers("f3", 1, 2, 3, 4), **numbers("f4", 1, 2, 3, 4, 5)})
    set_sheet(state, dev, {})
    reveal(state, (10, "energy"), (12, "planning"), (15, "plant"))
    assert {o["action"] for o in _options(state, ana)} == {"system_error"}

    move(state, ana, system_error("err.8"))
    move(state, ben, write(0, "f3.s5"))
    move(state, chloe, write(1, "f4.s6"))
    move(state, chloe, build("f4.q1.building", "f3.s5"))
    move(state, dev, write(2, "f2.s1"))
    assert sorted(state.seats[chloe].triggered) == [
        "f3.q1.sabotage1", "f3.q1.sabotage2", "f4.q1.sabotage"
    ]
    for seat in range(4):
        confirm(state, seat)

    circled_now = [len(errors(state, seat)) + len(errors(state, seat, "cross"))
                   for seat in range(4)]
    assert circled_now == [5, 1, 0, 3]  # Ana 1 before + 1 own + 3
    for seat in range(4):
        for symbol in ("f3.q1.sabotage1", "f3.q1.sabotage2", "f4.q1.sabotage"):
            assert state.sheets[seat].marks[symbol] == "cross"
    # Ana has 5 circled, uncrossed errors at phase 6: mission 69, first, 3 rockets.
    assert state.sheets[ana].marks["mission.C"] == 3
    assert column_rockets(state, ana) == 3
    assert "mission.C" not in state.sheets[dev].marks
    assert state.status == "playing"

    # Crossed-off symbols can no longer be triggered: Dev completing f3.q1 hits nobody.
    set_sheet(state, dev, {**state.sheets[dev].marks, **numbers("f3", 1, 2, 3, 4)})
    before = [len(errors(state, seat)) for seat in range(4)]
    play_turn(state, [(9, "energy"), (13, "energy"), (14, "energy")], {
        ana: [system_error("err.7")], ben: [write(1, "f3.s6")], chloe: [write(1, "f3.s6")],
        dev: [write(0, "f3.s5")],
    })
    assert "f3.q1.rocket" in state.sheets[dev].marks
    assert [len(errors(state, seat)) for seat in range(4)] == [before[0] + 1, *before[1:]]


def _one_turn_from_launch() -> engine.GameState:
    """A1-T4: 30 column rockets and 2 circled errors; writing in f9.s3 completes f9.q1
    (rocket 3) and its Building X completes f1.q1 (rocket 2): 5 rockets in the turn."""
    state = start(2, missions=QUIET_MISSIONS)
    set_sheet(state, 0, {
        **column(30), **circled(2), **numbers("f9", 1, 2), **numbers("f1", 1, None, X),
        **{arrow: "fill" for arrow in ("f8.q1.arrow", "f7.q2.arrow", "f5.q1.arrow",
                                       "f4.q1.arrow", "f3.q1.arrow", "f2.q1.arrow", "f2.q3.arrow")},
    })
    set_sheet(state, 1, numbers("f7", 1))
    reveal(state, (3, "astronaut"), (4, "water"), (5, "energy"))
    return state


def test_a1_t4_rockets_spill_into_errors_then_tiebreak_and_launch() -> None:
    state = _one_turn_from_launch()
    move(state, 0, write(0, "f9.s3"))
    marks = state.sheets[0].marks
    assert marks["rk.L10.2"] == "cross" and marks["score.135"] == "cross"
    assert errors(state, 0, "cross") == ["err.1", "err.2"]
    assert [o["action"] for o in _options(state, 0)].count("activate") == 0  # no open arrow
    move(state, 0, build("f9.q1.building", "f1.s2"))
    assert [t for t in LAYOUT.tiebreak_rockets if t in marks] == ["tb.1", "tb.2"]
    move(state, 0, skip("f1.q1.building"))
    move(state, 1, write(2, "f3.s1"))  # no sabotage this turn
    confirm(state, 0)
    confirm(state, 1)

    assert state.end == {"reasons": [{"reason": "launch", "seats": [0]}]}
    result = engine.result_event(state)["data"]
    assert result["winners"] == [0]
    assert result["scores"][0]["breakdown"]["tiebreak_rockets"] == 2
    assert result["scores"][0]["total"] == 150


def test_a1_t4_a_sabotage_in_phase_5_stops_the_launch_and_next_rockets_cross_it() -> None:
    state = _one_turn_from_launch()
    move(state, 0, write(0, "f9.s3"))
    move(state, 0, build("f9.q1.building", "f1.s2"))
    move(state, 0, skip("f1.q1.building"))
    move(state, 1, write(1, "f7.s2"))  # completes f7.q1: its sabotage hits seat 0
    confirm(state, 0)
    confirm(state, 1)

    assert state.status == "playing"
    assert errors(state, 0) == ["err.3"]
    assert not score(state, 0)["launched"]
    # Next turn: completing f1.q2 (rocket 2) crosses that error off first, then a
    # tie-break rocket; the seat launches at the end of that turn.
    play_turn(state, [(2, "robot"), (14, "energy"), (15, "energy")], {
        0: [write(0, "f1.s4"), skip("f1.q2.building")], 1: [write(1, "f3.s1")],
    })
    assert errors(state, 0) == []
    assert errors(state, 0, "cross") == ["err.1", "err.2", "err.3"]
    assert [t for t in LAYOUT.tiebreak_rockets if t in state.sheets[0].marks] == [
        "tb.1", "tb.2", "tb.3"
    ]
    assert state.end == {"reasons": [{"reason": "launch", "seats": [0]}]}


def test_a1_t5_astra_crossing_against_katherine() -> None:
    track = astra.RocketTrack.start(1)
    assert track.crossed_boxes == tuple(f"astra.b{i:02}" for i in range(1, 16))
    assert track.score == 10

    track = track.give("planning")  # Katherine: 4

    assert track.crossed_boxes[-4:] == ("astra.b16", "astra.b17", "astra.b18", "astra.b19")
    assert track.score == 20
    track = track.give("astronaut")  # 1
    assert track.crossed_boxes[-1] == "astra.b20" and track.score == 20
    track = track.give("water")  # 3
    assert track.crossed_boxes[-3:] == ("astra.b21", "astra.b22", "astra.b23")
    assert track.score == 30
    assert not track.launched


def test_a1_t5_astra_track_setup_by_level_and_launch_at_box_81() -> None:
    assert [astra.precrossed(level) for level in range(1, 9)] == [15, 12, 10, 8, 6, 4, 2, 0]
    assert len(astra.track_boxes()) == 81
    track = astra.RocketTrack(8, 76)
    assert track.score == 140
    track = track.give("plant")  # Peggy: 6, past box 81 stops there
    assert track.crossed == 81 and track.launched and track.score == 150
