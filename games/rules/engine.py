"""The rules engine's public surface, in the decider shape.

- ``new_game(...)`` -> the opening events of a game;
- ``decide(state, seat, command)`` -> the events a command causes, or a RuleViolation;
- ``evolve(state, event)`` -> the state after one event; ``replay(events)`` folds them;
- ``options(state, seat)`` -> what the seat must or may do, every choice listed;
- ``result_event(state)`` -> the final scores of an ended game, as an event;
- ``game_view`` / ``sheet_view`` / ``redact`` -> what one viewer may see.
"""

from typing import Any

from games.rules import turn
from games.rules.errors import OutOfTurn, RuleViolation
from games.rules.events import Event, evolve, replay
from games.rules.state import GameState
from games.rules.turn import Decision, decide, options, result_event
from games.rules.views import game_view, redact, sheet_view

__all__ = [
    "Decision",
    "Event",
    "GameState",
    "OutOfTurn",
    "RuleViolation",
    "decide",
    "evolve",
    "game_view",
    "new_game",
    "options",
    "redact",
    "replay",
    "result_event",
    "sheet_view",
]


def new_game(
    *,
    adventure: int,
    players: int,
    seed: int,
    missions: dict[str, int] | None = None,
    modifiers: dict[int, list[dict[str, Any]]] | None = None,
) -> list[Event]:
    """The opening events of a game (setup, then turn 1's flip).

    ``missions`` imposes a card per letter (default: drawn with the seed); ``modifiers``
    gives per-seat setup changes (``start_marks``, ``bonus_points``, ``system_errors``).
    """
    return turn.new_game(
        adventure=adventure,
        players=players,
        seed=seed,
        missions_chosen=missions,
        modifiers=modifiers,
    )
