"""Players that only ever choose among the listed options: used by tests, simulation and
load tests. They know no rule of their own; whatever they play, the engine allowed."""

import random
from collections.abc import Callable
from typing import Any

from games.rules.adventures import rules_for
from games.rules.events import Event, evolve
from games.rules.sheet import MAX_NUMBER, MIN_NUMBER, Marks
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
    """A player taking the option that most raises its live score; among equal scores it
    writes each number where it best fits the numbers around it (so that later numbers still
    find a place), prefers using an optional effect to skipping it, and breaks the remaining
    ties at random."""

    def play(state: GameState, seat: int) -> Command:
        decision = options(state, seat)
        if not decision.options:
            return {"type": "confirm"}
        rules = rules_for(state.adventure)
        marks = state.seats[seat].marks
        zones = _zones_by_space(rules.numbering_zones(marks))
        best: list[dict[str, Any]] = []
        best_value: tuple[int, float, int] | None = None
        for option in decision.options:
            after = state.copy()
            for event in decide(state, seat, {"type": "move", "choice": option}):
                evolve(after, event)
            score = rules.seat_score(after, seat, marks=after.seats[seat].marks)
            value = (
                score["total"],
                -_misfit(option, marks, zones),
                0 if option.get("action") == "skip" else 1,
            )
            if best_value is None or value > best_value:
                best, best_value = [option], value
            elif value == best_value:
                best.append(option)
        return {"type": "move", "choice": rng.choice(best)}

    return play


def _zones_by_space(zones: list[tuple[str, ...]]) -> dict[str, list[tuple[str, ...]]]:
    """The numbering zones each space belongs to."""
    by_space: dict[str, list[tuple[str, ...]]] = {}
    for zone in zones:
        for space in zone:
            by_space.setdefault(space, []).append(zone)
    return by_space


def _misfit(option: dict[str, Any], marks: Marks, zones: dict[str, list[tuple[str, ...]]]) -> float:
    """How far a written number lies from where the numbers around it say it belongs: the
    value interpolated between its nearest numbered neighbours (or the ends of the range)."""
    space, number = option.get("space"), option.get("number")
    if not isinstance(space, str) or not isinstance(number, int):
        return 0.0
    misfit = 0.0
    for zone in zones.get(space, []):
        index = zone.index(space)
        low, low_at = MIN_NUMBER - 1, -1
        high, high_at = MAX_NUMBER + 1, len(zone)
        for at, other in enumerate(zone):
            value = marks.get(other)
            if isinstance(value, int):
                if at < index:
                    low, low_at = value, at
                elif at > index and high_at == len(zone):
                    high, high_at = value, at
        ideal = low + (high - low) * (index - low_at) / (high_at - low_at)
        misfit += abs(number - ideal)
    return misfit


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
