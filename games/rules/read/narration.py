"""Events told in words, one line each, as a reviewer reads a game's history:
"turn 7, seat 2 wrote 11 in f3.s4".

The line says what the event records and nothing more: it names the seat that caused it (or
"turn N:" for what the end of a turn does), and the sheet it marks when that is not the seat's
own. Elements are named by their ids, as the sheet views and the API name them.
"""

from collections.abc import Callable, Mapping
from typing import Any

from games.rules.core import events
from games.rules.core.cards import CARDS
from games.rules.core.events import (
    AstraPlayed,
    Event,
    GameEnded,
    GameStarted,
    InsigniaDrawn,
    MarkMade,
    MissionsOffered,
    NumberWritten,
    Result,
    TurnStarted,
)
from games.rules.core.kinds import D, Kind

# How a mark word reads after the seat: "<seat> circled energy.e01".
MARK_VERBS = {
    "X": "wrote X in",
    "circle": "circled",
    "cross": "crossed",
    "line": "drew a line on",
    "fill": "filled",
    "used": "used",
    "triggered": "triggered",
    "trace": "traced",
    "complete": "completed",
}
INFECTED = "infected."


def describe(event: Event) -> str:
    """One line telling what ``event`` (of the current version of its kind) records."""
    kind, data, seat = event["kind"], event["data"], event["seat"]
    who = f"turn {event['turn']}, seat {seat}" if seat is not None else f"turn {event['turn']}:"
    telling = TELLERS.get(kind)
    what = telling(data) if telling is not None else f"{kind} {_compact(data)}"
    return f"{who} {what}{_on_sheet(data, seat)}"


def _on_sheet(data: Mapping[str, Any], seat: int | None) -> str:
    sheet = data.get("sheet")
    return "" if sheet is None or sheet == seat else f" on sheet {sheet}"


def _mark(data: MarkMade) -> str:
    mark, element = data["mark"], data["element"]
    if isinstance(mark, int) and not isinstance(mark, bool):
        return f"wrote {mark} in {element}"
    if isinstance(mark, str) and mark.startswith(INFECTED):
        return f"infected {element} ({mark[len(INFECTED):]} virus)"
    verb = MARK_VERBS.get(mark) if isinstance(mark, str) else None
    return f"{verb} {element}" if verb else f"marked {element} {mark!r}"


def _written(data: NumberWritten) -> str:
    line = f"wrote {data['number']} in {data['space']} (combination {data['combination']}"
    if "action" in data:
        line += f", {data['action']}"
    if data.get("modifier"):
        line += f", modified by {data['modifier']:+d}"
    if "wild" in data:
        line += f", wild {data['wild']}"
    return line + ")"


def _insignia(data: InsigniaDrawn) -> str:
    line = (
        f"drew insignia {data['side']} in {data['space']} of {data['planet']} "
        f"(combination {data['combination']}, {data['number']}, {data['action']}"
    )
    if data.get("modifier"):
        line += f", modified by {data['modifier']:+d}"
    return line + ")"


def _astra_played(data: AstraPlayed) -> str:
    line = f"ASTRA played {_card(data['card'])}"
    if data["space"] is None:
        return line + ": no planet had room"
    return line + f": insignia N in {data['space']} of {data['planet']}"


def _started(data: GameStarted) -> str:
    missions = ", ".join(f"{letter} card {card}" for letter, card in sorted(data["missions"].items()))
    players = data["players"]
    return f"the game started: adventure {data['adventure']}, {players} player(s), missions {missions}"


def _turn(data: TurnStarted) -> str:
    combinations = "; ".join(f"{c['number']} {c['action']}" for c in data["combinations"])
    reshuffled = f" (stacks {data['reshuffled']} reshuffled)" if data.get("reshuffled") else ""
    return f"flipped {combinations}{reshuffled}"


def _offered(data: MissionsOffered) -> str:
    offers = "; ".join(
        f"seat {seat}: {', '.join(letters)}" for seat, letters in sorted(data["offers"].items()) if letters
    )
    return f"missions offered ({offers or 'none'})"


def _ended(data: GameEnded) -> str:
    reasons = "; ".join(_compact(reason) for reason in data["reasons"])
    return f"the game ended ({reasons})"


def _result(data: Result) -> str:
    scores = [f"seat {score['seat']} {score['total']}" for score in data["scores"]]
    if data.get("astra"):
        scores.append(f"ASTRA {data['astra']['total']}")
    winners = ", ".join(_winner(winner) for winner in data["winners"])
    return f"result: {', '.join(scores)}; winner(s): {winners}"


def _winner(winner: Any) -> str:
    return "ASTRA" if winner == "astra" else f"seat {winner}"


def _card(card: int) -> str:
    """A card by its id, with its number and action when it is a starship card."""
    known = CARDS.get(card)
    return f"card {card} ({known.number} {known.action})" if known else f"card {card}"


def _compact(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{key} {_compact(item)}" for key, item in value.items())
    if isinstance(value, list):
        return "[" + ", ".join(_compact(item) for item in value) + "]"
    return str(value)


def _teller(kind: Kind[Any, Event, D], tell: Callable[[D], str]) -> tuple[str, Callable[[Any], str]]:
    """How events of ``kind`` are told, their data read as the kind's schema."""
    return kind.name, tell


TELLERS: dict[str, Callable[[Any], str]] = dict(
    [
        _teller(events.GAME_STARTED, _started),
        _teller(events.TURN_STARTED, _turn),
        _teller(events.NUMBER_WRITTEN, _written),
        _teller(events.INSIGNIA_DRAWN, _insignia),
        _teller(
            events.SYSTEM_ERROR,
            lambda d: (
                f"circled System Error box {d['box']} ({d['cause'].replace('_', ' ')})"
                if d["box"] is not None
                else f"had a System Error with no box left to circle ({d['cause'].replace('_', ' ')})"
            ),
        ),
        _teller(events.MARK, _mark),
        _teller(
            events.EFFECTS_PENDING, lambda d: f"has to resolve {', '.join(d['effects'])} (from {d['source']})"
        ),
        _teller(
            events.EFFECT_RESOLVED,
            lambda d: (
                f"resolved {d['effect']}: {d['outcome'].replace('_', ' ')}"
                + (f" ({_compact(d['target'])})" if d.get("target") is not None else "")
            ),
        ),
        _teller(events.UNDO, lambda d: "undid the turn"),
        _teller(events.CONFIRMED, lambda d: "confirmed"),
        _teller(events.MISSIONS_OFFERED, _offered),
        _teller(events.MISSION_CLAIMED, lambda d: f"claimed mission {d['letter']}"),
        _teller(
            events.MISSION_ACCOMPLISHED,
            lambda d: f"accomplished mission {d['letter']} (card {d['card']}) for {d['value']}",
        ),
        _teller(events.MISSION_FLIPPED, lambda d: f"mission {d['letter']} (card {d['card']}) flipped"),
        _teller(
            events.CHOICES_AWAITED,
            lambda d: f"{d['phase']}: seat(s) {', '.join(map(str, d['seats']))} to choose",
        ),
        _teller(events.CARD_DRAWN, lambda d: f"drew {_card(d['card'])} from the solo deck"),
        _teller(events.DECK_RESHUFFLED, lambda d: f"the solo deck was reshuffled (pass {d['deck_pass']})"),
        _teller(
            events.ASTRA_EFFECT,
            lambda d: (
                f"ASTRA effect card {d['letter']} (card {d['card']}, pass {d['deck_pass']})"
                + (f" on {d['target']}" if d.get("target") is not None else "")
            ),
        ),
        _teller(events.ASTRA_PLAYED, _astra_played),
        _teller(
            events.CARD_GIVEN,
            lambda d: (
                f"removed {_card(d['card'])} with an ASTRA bonus"
                if d["removed"]
                else f"gave {_card(d['card'])} to ASTRA"
            ),
        ),
        _teller(events.ASTRA_BONUS, lambda d: f"earned {d['count']} ASTRA bonus(es) with {d['element']}"),
        _teller(
            events.ASTRA_TOOK,
            lambda d: (
                f"{_card(d['card'])} left the game" if d["removed"] else f"ASTRA took {_card(d['card'])}"
            ),
        ),
        _teller(
            events.AUTOPILOT,
            lambda d: f"was played for: its {d['phase']} deadline passed ({d['in_a_row']} in a row)",
        ),
        _teller(
            events.SEAT_RESIGNED,
            lambda d: "resigned: a bot plays the seat"
            if d["reason"] == "resigned"
            else "was handed to a bot after deadlines passed in a row",
        ),
        _teller(events.GAME_ENDED, _ended),
        _teller(events.RESULT, _result),
    ]
)
