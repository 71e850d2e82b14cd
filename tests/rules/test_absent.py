"""Absent players in the rules: what a passed deadline plays for a seat, in every phase that
waits for seats (setup choices, a turn, phase 5 choices, phase 6 claims), and resigning."""

import pytest

from games.rules import engine
from games.rules.engine import MISSIONS_PHASE, SETUP_PHASE, GameState


def started(adventure: int, players: int, seed: int) -> GameState:
    return engine.replay(engine.new_game(adventure=adventure, players=players, seed=seed))


def test_a_setup_choice_is_made_for_an_absent_seat_and_nothing_after_it() -> None:
    state = started(6, 2, seed=3)  # The Virus: each seat places its grey virus first
    assert state.phase == SETUP_PHASE and engine.absent_seats(state) == [0, 1]
    events, state = engine.autopilot(state, 0, in_a_row=1)
    assert events[0]["kind"] == "autopilot" and events[0]["data"]["phase"] == SETUP_PHASE
    assert engine.options(state, 0).kind == "wait" and engine.absent_seats(state) == [1]
    events, state = engine.autopilot(state, 1, in_a_row=1)
    # the last choice starts turn 1: the autopilot stops there, the turn is the seats' own
    assert state.turn == 1 and engine.absent_seats(state) == [0, 1]
    assert not any(event["turn"] == 1 and event["seat"] is not None for event in events)


@pytest.mark.parametrize("seed", [1, 2])
def test_phase_6_claims_time_out_as_a_turn_does(seed: int) -> None:
    state = started(1, 3, seed=seed)
    for _ in range(200):
        if state.status != "playing":
            break
        if state.phase == MISSIONS_PHASE:
            absent = engine.absent_seats(state)
            events, state = engine.autopilot(state, absent[0], in_a_row=1)
            assert events[0]["data"]["phase"] == MISSIONS_PHASE
            # its claims are settled, and nothing of the next turn is played for it
            assert engine.options(state, absent[0]).kind == "wait" or state.phase != MISSIONS_PHASE
            assert "number_written" not in [event["kind"] for event in events]
            return
        for seat in engine.absent_seats(state):
            _, state = engine.bots.play_seat(state, seat, "greedy", phase_only=True)
    pytest.fail("no mission was offered")


def test_the_third_timeout_in_a_row_hands_the_seat_to_a_bot() -> None:
    state = started(1, 2, seed=5)
    events, state = engine.autopilot(state, 1, in_a_row=engine.TIMEOUTS_TO_RESIGN)
    assert events[-1]["kind"] == "seat_resigned" and events[-1]["data"] == {"reason": "timeouts"}
    assert state.seats[1].resigned and engine.absent_seats(state) == [0]
    with pytest.raises(engine.OutOfTurn) as refused:
        engine.resign(state, 1)
    assert refused.value.code == "seat_resigned"
    (resigned,), after = engine.resign(state, 0)
    assert resigned["data"] == {"reason": "resigned"} and after.seats[0].resigned
    assert not state.seats[0].resigned  # resigning leaves the state it was asked on as it was
