"""The Colony played by bots: whole games end cleanly and replay to the same result; every
listed option is accepted, and an undo restores the sheet."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import bots, engine

GAMES = 300


def test_colony_bot_games_end_and_replay_to_the_same_result() -> None:
    for game in range(GAMES):
        rng = random.Random(f"colony/{game}")
        players = 1 + game % 6
        seats = [bots.random_bot(rng) for _ in range(players)]
        if game % 20 == 0:
            seats[0] = bots.greedy_bot(rng)
        state, events = bots.play_game(adventure=3, bots=seats, seed=game, max_turns=80)
        assert state.status == "ended"
        assert engine.result_event(engine.replay(events)) == engine.result_event(state)
        assert (state.end or {})["reasons"]


@settings(deadline=None, max_examples=40)
@given(
    seed=st.integers(min_value=0, max_value=10_000),
    players=st.integers(min_value=1, max_value=3),
    picks=st.lists(st.integers(min_value=0, max_value=1_000), min_size=10, max_size=60),
    undo_at=st.integers(min_value=0, max_value=59),
)
def test_colony_every_option_is_accepted_and_undo_restores_the_sheet(
    seed: int, players: int, picks: list[int], undo_at: int
) -> None:
    state = engine.replay(engine.new_game(adventure=3, players=players, seed=seed))
    for step, pick in enumerate(picks):
        if state.status != "playing":
            break
        seat = next(s for s in range(players) if engine.options(state, s).kind != "wait")
        decision = engine.options(state, seat)
        for option in decision.options:
            engine.decide(state, seat, {"type": "move", "choice": option})  # never refused
        if step == undo_at and decision.can_undo:
            sheet = state.seats[seat]
            for event in engine.decide(state, seat, {"type": "undo"}):
                engine.evolve(state, event)
            assert sheet.marks == sheet.turn_start_marks
            assert sheet.pending == [] and sheet.chosen is None
            assert engine.options(state, seat).kind == "choose"
            continue
        if decision.options:
            command = {"type": "move", "choice": decision.options[pick % len(decision.options)]}
        else:
            command = {"type": "confirm"}
        for event in engine.decide(state, seat, command):
            engine.evolve(state, event)
