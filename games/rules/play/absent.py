"""Absent players: a seat whose deadline passed is played for it as the greedy bot plays
(``autopilot``), and a seat is handed to a bot for the rest of the game when its player resigns
or lets ``TIMEOUTS_TO_RESIGN`` deadlines pass in a row (``resign``). When a deadline passes is
the caller's business (a clock): the engine only records what follows."""

from games.rules.core.errors import OutOfTurn
from games.rules.core.events import Event, Recorder
from games.rules.core.state import GameState
from games.rules.play.bots import play_seat
from games.rules.turn.turn import options

TIMEOUT = "timeout"
RESIGNED = "resigned"
TIMEOUTS = "timeouts"
TIMEOUTS_TO_RESIGN = 3
# The bot that plays for an absent seat, and a resigned seat for the rest of the game.
STAND_IN = "greedy"


def absent_seats(state: GameState) -> list[int]:
    """The seats, played by their players, that have something left to decide in the phase in
    play: those a passed deadline plays for."""
    if state.status != "playing":
        return []
    return [
        index
        for index, seat in enumerate(state.seats)
        if not seat.resigned and options(state, index).kind != "wait"
    ]


def autopilot(state: GameState, seat: int, *, in_a_row: int) -> tuple[list[Event], GameState]:
    """``seat``'s deadline passed (the ``in_a_row``-th in a row): an ``autopilot`` event, then
    its part of the phase in play played and confirmed as the greedy bot plays it; at
    ``TIMEOUTS_TO_RESIGN`` in a row, the seat is handed to the bot for the rest of the game.
    Changes ``state`` in place; returns the events and the state after them."""
    rec = Recorder(state, in_place=True)
    rec.autopilot(seat, reason=TIMEOUT, phase=state.phase, in_a_row=in_a_row)
    played, state = play_seat(rec.state, seat, STAND_IN, phase_only=True)
    events = [*rec.events, *played]
    if in_a_row >= TIMEOUTS_TO_RESIGN and state.status == "playing":
        rec = Recorder(state, in_place=True)
        rec.seat_resigned(seat, reason=TIMEOUTS)
        events += rec.events
    return events, state


def resign(state: GameState, seat: int) -> tuple[list[Event], GameState]:
    """``seat``'s player hands it to the bot for the rest of the game (a ``seat_resigned``
    event; the bot plays on from where the seat stands). Refused once the game is over or the
    seat resigned."""
    if state.status != "playing":
        raise OutOfTurn("game_not_playing", "The game is over: there is nothing left to resign.")
    if state.seats[seat].resigned:
        raise OutOfTurn("seat_resigned", "This seat was handed to a bot already.")
    rec = Recorder(state)
    rec.seat_resigned(seat, reason=RESIGNED)
    return rec.events, rec.state
