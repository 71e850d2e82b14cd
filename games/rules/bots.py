"""Players that only ever choose among the listed options: used by tests, simulation and
load tests. They know no rule of their own; whatever they play, the engine allowed."""

import random
from collections.abc import Callable
from typing import Any

from games.rules.adventures import rules_for
from games.rules.events import Event, evolve
from games.rules.state import GameState
from games.rules.turn import decide, new_game, options

Command = dict[str, Any]
Bot = Callable[[GameState, int], Command]


def random_bot(rng: random.Random) -> Bot:
    """A player picking uniformly among the legal options, confirming when done."""

    def play(state: GameState, seat: int) -> Command:
        decision = options(state, seat)
        if decision.options:
            return {"type": "move", "choice": rng.choice(decision.options)}
        return {"type": "confirm"}

    return play


def greedy_bot(rng: random.Random) -> Bot:
    """A player taking the option that most raises its live score (ties broken at random),
    preferring to use an optional effect rather than skip it when the score is equal."""

    def play(state: GameState, seat: int) -> Command:
        decision = options(state, seat)
        if not decision.options:
            return {"type": "confirm"}
        rules = rules_for(state.adventure)
        best: list[dict[str, Any]] = []
        best_value: tuple[int, int] | None = None
        for option in decision.options:
            after = state.copy()
            for event in decide(state, seat, {"type": "move", "choice": option}):
                evolve(after, event)
            score = rules.seat_score(after, seat, marks=after.seats[seat].marks)
            value = (score["total"] * 100 + sum(_progress(score)), 0 if option.get("action") == "skip" else 1)
            if best_value is None or value > best_value:
                best, best_value = [option], value
            elif value == best_value:
                best.append(option)
        return {"type": "move", "choice": rng.choice(best)}

    return play


def _progress(score: dict[str, Any]) -> list[int]:
    """Secondary measures of progress a breakdown offers (e.g. rockets below the next box)."""
    return [value for key, value in score.items() if key == "rockets" and isinstance(value, int)]


def play_game(
    *, adventure: int, bots: list[Bot], seed: int, max_turns: int = 200
) -> tuple[GameState, list[Event]]:
    """Play a whole game with one bot per seat; return the final state and every event."""
    events = new_game(adventure=adventure, players=len(bots), seed=seed)
    state = GameState()
    for event in events:
        evolve(state, event)
    while state.status == "playing":
        if state.turn > max_turns:
            raise RuntimeError(f"game with seed {seed} did not end in {max_turns} turns")
        for seat, bot in enumerate(bots):
            while options(state, seat).kind != "wait":
                new = decide(state, seat, bot(state, seat))
                for event in new:
                    evolve(state, event)
                events.extend(new)
    return state, events
