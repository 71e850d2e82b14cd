"""A whole log checked against the rules: every event in it must be one the engine appends.

``replay`` trusts a log (``evolve`` never validates: the events were checked once, by
``decide``, before they were stored). A log that comes from outside (an imported export) is
not trusted: ``reenact`` plays it again through ``decide``. Its opening events must be those
``new_game`` deals for the adventure, players, seed, missions and modifiers they name; every
later run of events must be exactly what one command of the seat of its first event causes
(a move among the options listed to that seat then, an undo or a confirm; in a solo game a run
of ASTRA's events, of no seat, may be what a choice the player makes for ASTRA causes), or in a
solo game, when ASTRA's part of the turn is due, exactly what ASTRA plays; and the last event must be the
result the engine gives for the ended game. The first event that fits none of these is named by
its position in the log.

A game recorded under earlier rules is dealt and played differently by today's engine, so
``reenact`` refuses it; ``replay_checked`` is the weaker check for such a log: every event fits
its kind's declared schema, the log begins with the game's opening and ends with the result the
replay gives.
"""

import json
from collections.abc import Callable, Sequence
from typing import Any, cast

from games.rules.core.errors import RuleViolation
from games.rules.core.events import GAME_STARTED, Event, evolve, schema_problem
from games.rules.core.state import GameState
from games.rules.read.upcasting import upcast
from games.rules.turn.solo import PLAYER, astra_due, astra_turn
from games.rules.turn.turn import advance, new_game, options, result_event

CONFIRM = {"type": "confirm"}
UNDO = {"type": "undo"}


class LogRefused(Exception):
    """A log that is not what the engine appends: ``index`` is the position (from 0) of the
    first event that is not, and ``detail`` says why."""

    def __init__(self, index: int, detail: str) -> None:
        super().__init__(f"event at position {index}: {detail}")
        self.index = index
        self.detail = detail


def reenact(log: Sequence[Event], *, progress: Callable[[int], None] | None = None) -> GameState:
    """The state of a finished game after its whole ``log`` (stored events of any version),
    once every event in it is found to be what the engine appends; LogRefused otherwise.
    ``progress`` is told how many events are checked as the check goes."""
    stored = [_plain(_upcast(event, index)) for index, event in enumerate(log)]
    if not stored or stored[0]["kind"] != "game_started":
        raise LogRefused(0, "a game's log begins with its game_started event.")
    opening = _opening(stored[0])
    index = _match(stored, 0, opening, "the opening of the game it names")
    state = GameState()
    for event in opening:
        evolve(state, event)
    while index < len(stored):
        event = stored[index]
        if event["kind"] == "result":
            return _finish(state, stored, index)
        if state.status != "playing":
            raise LogRefused(index, f"the game had ended: a {event['kind']} event cannot follow.")
        if astra_due(state):
            played = [_plain(event) for event in astra_turn(state)]
            index = _match(stored, index, played, "ASTRA's part of the turn")
            for event in played:
                evolve(state, event)
        else:
            index, state = _command(state, stored, index)
        if progress is not None:
            progress(index)
    raise LogRefused(len(stored) - 1, "the log ends before the game's result.")


def replay_checked(log: Sequence[Event], *, progress: Callable[[int], None] | None = None) -> GameState:
    """The state of a finished game after its whole ``log``, once every event in it fits its
    kind's schema, the log begins with a game_started event and ends with the result that the
    replay of the events before it gives; LogRefused otherwise. Weaker than ``reenact``: it does
    not check that each move was legal when it was made. ``progress`` as for ``reenact``."""
    stored = [_plain(_upcast(event, index)) for index, event in enumerate(log)]
    if not stored or stored[0]["kind"] != "game_started":
        raise LogRefused(0, "a game's log begins with its game_started event.")
    state = GameState()
    for index, event in enumerate(stored):
        problem = schema_problem(event)
        if problem is not None:
            raise LogRefused(index, f"{_named(event)} is off its kind's schema: {problem}.")
        if event["kind"] == "result":
            return _finish(state, stored, index)
        try:
            evolve(state, event)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
            raise LogRefused(index, f"{_named(event)} does not apply to the game ({error!r}).") from error
        if progress is not None:
            progress(index + 1)
    raise LogRefused(len(stored) - 1, "the log ends before the game's result.")


def _command(state: GameState, stored: list[Event], index: int) -> tuple[int, GameState]:
    """The position after the run of events one command caused, and the state it led to."""
    first = stored[index]
    seat = first["seat"]
    if seat is None and state.astra is not None:
        # what the player chooses for ASTRA (adventure 8: where its card goes, the moons of its
        # effect) is recorded as ASTRA's events, of no seat
        seat = PLAYER
    if not isinstance(seat, int) or not 0 <= seat < state.players:
        raise LogRefused(
            index, f"a {first['kind']} event of seat {seat!r} cannot begin a player's command."
        )
    for command in _commands(state, seat, first["kind"]):
        try:
            caused, after = advance(state, seat, command)
        except RuleViolation:
            continue
        caused = [_plain(event) for event in caused]
        if caused and caused == stored[index : index + len(caused)]:
            return index + len(caused), after
    raise LogRefused(
        index,
        f"{_named(first)} is not what any move, undo or confirm of seat {seat} causes at this "
        "point of the game.",
    )


def _commands(state: GameState, seat: int, kind: str) -> list[dict[str, Any]]:
    """The commands whose events may begin with an event of ``kind``."""
    if kind == "confirmed":
        return [CONFIRM]
    if kind == "undo":
        return [UNDO]
    return [{"type": "move", "choice": option} for option in options(state, seat).options]


def _finish(state: GameState, stored: list[Event], index: int) -> GameState:
    try:
        expected = _plain(result_event(state))
    except RuleViolation as error:
        raise LogRefused(index, f"a result while the game is not over: {error.detail}") from error
    if stored[index] != expected:
        raise LogRefused(
            index, f"the result differs from the replay, which gives {json.dumps(expected['data'])}."
        )
    if index != len(stored) - 1:
        raise LogRefused(index + 1, "nothing follows a game's result.")
    evolve(state, stored[index])
    return state


def _opening(first: Event) -> list[Event]:
    """The opening events ``new_game`` deals for the setup the first event names."""
    data = GAME_STARTED.data_of(first)
    assert data is not None, "a log opens with its game_started event (checked first)"
    try:
        modifiers = {int(seat): list(mods) for seat, mods in data["modifiers"].items()}
        solo = data.get("astra")
        opening = new_game(
            adventure=data["adventure"],
            players=data["players"],
            seed=data["seed"],
            missions=dict(data["missions"]),
            modifiers=modifiers,
            astra_level=solo["level"] if solo is not None else None,
        )
    except RuleViolation as error:
        raise LogRefused(0, f"the engine deals no such game: {error.detail}") from error
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise LogRefused(0, f"the game_started event names no setup the engine reads ({error!r}).") from error
    return [_plain(event) for event in opening]


def _match(stored: list[Event], index: int, expected: list[Event], what: str) -> int:
    for offset, event in enumerate(expected):
        position = index + offset
        if position >= len(stored) or stored[position] != event:
            found = _named(stored[position]) if position < len(stored) else "the end of the log"
            raise LogRefused(position, f"{found} is not {what}: the engine appends {_named(event)}.")
    return index + len(expected)


def _upcast(event: Any, index: int) -> Event:
    if not isinstance(event, dict) or not isinstance(event.get("kind"), str):
        raise LogRefused(index, "an event is an object with a kind.")
    try:
        return upcast(cast(Event, event))
    except (KeyError, TypeError, ValueError, RuleViolation) as error:
        raise LogRefused(index, f"the {event['kind']} event cannot be read ({error!r}).") from error


def _plain(event: Event) -> Event:
    """The event as JSON gives it back (lists for tuples), with exactly the fields compared."""
    fields = {key: event.get(key) for key in ("kind", "v", "seat", "turn", "data")}
    plain: Event = json.loads(json.dumps(fields))
    return plain


def _named(event: Event) -> str:
    return f"the {event['kind']} event of turn {event['turn']}" + (
        f", seat {event['seat']}" if event["seat"] is not None else ""
    )
