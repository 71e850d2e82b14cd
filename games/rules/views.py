"""What a viewer may see: the one place that filters state and events per viewer.

The seed (and so the deck order) is never shown; while a turn is being played, a seat's
marks of that turn are shown only to that seat.
"""

from typing import Any

from games.rules import missions
from games.rules.adventures import rules_for
from games.rules.events import Event
from games.rules.state import GameState

# Events of a seat in the current turn that reveal nothing of its sheet.
ALWAYS_VISIBLE = {"confirmed"}


def game_view(state: GameState, *, viewer: int | None) -> dict[str, Any]:
    """The game as ``viewer`` sees it (``None``: someone without a seat)."""
    return {
        "adventure": state.adventure,
        "players": state.players,
        "turn": state.turn,
        "combinations": [c.as_dict() for c in state.combinations],
        "missions": [
            {
                "letter": letter,
                "card": card,
                "text": missions.MISSIONS[card]["text"],
                "first": missions.MISSIONS[card]["first"],
                "later": missions.MISSIONS[card]["later"],
                "flipped": letter in state.flipped_missions,
            }
            for letter, card in state.missions.items()
        ],
        "seats": [
            {"seat": index, "confirmed": seat.confirmed} for index, seat in enumerate(state.seats)
        ],
        "end": state.end,
        "result": state.result,
    }


def sheet_view(state: GameState, seat: int, *, viewer: int | None) -> dict[str, Any]:
    """Every mark on a seat's sheet by element id, the live score and what is derived."""
    rules = rules_for(state.adventure)
    sheet = state.seats[seat]
    marks = sheet.marks if _sees_current_turn(state, seat, viewer) else sheet.turn_start_marks
    return {
        "seat": seat,
        "marks": dict(marks),
        "error_boxes": list(sheet.error_boxes),
        "score": rules.seat_score(state, seat, marks=marks),
        "derived": rules.derived(state, seat, marks=marks),
    }


def redact(event: Event, state: GameState, *, viewer: int | None) -> Event | None:
    """The event as ``viewer`` may read it in the feed, or None when it is hidden."""
    if event["kind"] == "game_started":
        data = {key: value for key, value in event["data"].items() if key != "seed"}
        return {**event, "data": data}
    seat = event["seat"]
    if (
        seat is not None
        and event["turn"] == state.turn
        and event["kind"] not in ALWAYS_VISIBLE
        and not _sees_current_turn(state, seat, viewer)
    ):
        return None
    return event


def _sees_current_turn(state: GameState, seat: int, viewer: int | None) -> bool:
    return viewer == seat or state.status != "playing"
