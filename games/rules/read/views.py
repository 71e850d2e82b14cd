"""What a viewer may see: the one place that filters state and events per viewer.

The seed (and so the deck order, the solo deck's included: a solo game shows ASTRA's pile,
bonuses and pass, and each card only as it is drawn) is never shown; while a turn is being
played, a seat's marks of that turn, on the sheet it plays, are shown only to that seat, and so
are its mission claims and what it was offered in phase 6. On a sheet shared by two seats
(adventure 8) that holds for the other owner too: until the turn resolves it sees the sheet as
the turn began.

A referee (the staff who review games) is the one viewer who sees everything at once: every
sheet with the turn in play, where every seat stands in it, and in a solo game ASTRA's card
with the card left over this turn (``referee_sheet_view``, ``referee_seats``,
``referee_astra``).
"""

from collections.abc import Iterable
from typing import Any, TypedDict, cast

from games.rules.adventures import rules_for
from games.rules.common import astra, missions
from games.rules.core.cards import ACTIONS, CARDS
from games.rules.core.events import MISSIONS_OFFERED, AstraTrackBreakdown, Event, MissionsOffered
from games.rules.core.schematic import Area, Row, Schematic
from games.rules.core.sheet import CIRCLE, CROSS, Marks
from games.rules.core.state import AstraState, GameState, Sheet
from games.rules.turn.solo import astra_score

# Events of a seat in the current turn that reveal nothing of its sheet.
ALWAYS_VISIBLE = {"confirmed", "autopilot", "seat_resigned"}
# Fields of an event's data no player ever reads (the deck's seed would tell every card to come).
HIDDEN_FIELDS = {"game_started": frozenset({"seed"})}
# Events that end the turn in play without starting another: what was private is revealed.
REVEALING = {"game_ended"}


def game_view(state: GameState, *, viewer: int | None) -> dict[str, Any]:
    """The game as ``viewer`` sees it (``None``: someone without a seat). A mission's values
    are what it is worth on the viewer's sheet (the same on every sheet but The Dome's, where
    they are the sheet's missions track)."""
    rules = rules_for(state.adventure)
    seated = viewer is not None and 0 <= viewer < len(state.seats)
    own = state.sheet_of(viewer) if seated and viewer is not None else None
    worth = {letter: rules.mission_worth(state, own, letter) for letter in state.missions}
    return {
        "adventure": state.adventure,
        "players": state.players,
        "turn": state.turn,
        "phase": state.phase,
        "combinations": [c.as_dict() for c in state.combinations],
        "missions": [
            {
                "letter": letter,
                "card": card,
                "text": missions.MISSIONS[card]["text"],
                "first": worth[letter]["first"],
                "later": worth[letter]["later"],
                "flipped": letter in state.flipped_missions,
            }
            for letter, card in state.missions.items()
        ],
        "sheets": [_sheet_ref(sheet) for sheet in state.sheets],
        "seats": [
            {
                "seat": index,
                "confirmed": seat.confirmed,
                "sheets": list(seat.sheets),
                "sheet": seat.sheet,
                "resigned": seat.resigned,
            }
            for index, seat in enumerate(state.seats)
        ],
        "end": state.end,
        "result": _result(state),
        # Solo: ASTRA (never its deck) and the hand the combinations are paired from.
        "astra": astra_view(state) if state.astra is not None else None,
        "hand": hand_view(state) if state.astra is not None else None,
    }


class Winning(TypedDict):
    """Who won, typed for a reader: ``winners`` (kept as stored) mixes seats and ``"astra"``."""

    seats: list[int]  # the winning seats
    astra: bool  # whether ASTRA won, alone or sharing the victory


def winning(winners: Iterable[int | str]) -> Winning:
    """The winning seats and whether ASTRA is among the winners, from a result's ``winners``."""
    winners = list(winners)
    return {"seats": [seat for seat in winners if isinstance(seat, int)], "astra": "astra" in winners}


def _result(state: GameState) -> dict[str, Any] | None:
    """The final scores, with the seats a bot played to the end (``resigned``) and the winners
    typed (``winning``)."""
    if state.result is None:
        return None
    return {
        **state.result,
        "resigned": [index for index, seat in enumerate(state.seats) if seat.resigned],
        "winning": winning(state.result["winners"]),
    }


def sheet_view(state: GameState, sheet_id: int, *, viewer: int | None) -> dict[str, Any]:
    """Every mark on a sheet by element id, the live score and what is derived."""
    sheet = state.sheets[sheet_id]
    marks = sheet.marks if _sees_current_turn(state, sheet, viewer) else sheet.turn_start_marks
    return _sheet(state, sheet, marks)


def referee_sheet_view(state: GameState, sheet_id: int) -> dict[str, Any]:
    """A sheet as ``sheet_view`` gives it, with every mark made so far, this turn's included."""
    sheet = state.sheets[sheet_id]
    return _sheet(state, sheet, sheet.marks)


def referee_seats(state: GameState) -> list[dict[str, Any]]:
    """Where each seat stands in the turn in play, hidden from the other seats or not: what
    it chose and wrote, the effects waiting for its choice, the missions it may claim and
    those it claimed, and whether it confirmed."""
    return [
        {
            "seat": index,
            "sheet": seat.sheet,
            "chosen": seat.chosen,
            "choice": dict(seat.turn_choice),
            "pending": [list(frame) for frame in seat.pending],
            "claimable": list(seat.claimable),
            "claimed": list(seat.claimed),
            "confirmed": seat.confirmed,
        }
        for index, seat in enumerate(state.seats)
    ]


def referee_astra(state: GameState) -> dict[str, Any] | None:
    """ASTRA as the staff who review a solo game see it (None in other games): what a player
    sees of it (``game_view``'s ``astra``, and ``hand``), its score line by line, the card the
    player leaves over this turn and the Effect card waiting for a target, and its Adventure
    card to draw (``schematic`` and ``marks``: bonus boxes, adventure 1's rocket track). Its
    deck stays hidden, as the seed does."""
    if state.astra is None:
        return None
    schematic, marks = astra_card(state)
    return {
        **astra_view(state),
        "hand": hand_view(state),
        "breakdown": astra_score(state)["breakdown"],
        "given": state.astra.given,
        "removing": state.astra.removing,
        "effect": state.astra.effect,
        "schematic": schematic,
        "marks": marks,
    }


def mission_claims(state: GameState) -> dict[str, list[dict[str, Any]]]:
    """Who accomplished each mission so far, as the sheets record it once a turn resolves:
    by letter, each sheet that holds it with the seats whose missions it records (on a shared
    sheet, the one whose home sheet it is) and the value it was given."""
    rules = rules_for(state.adventure)
    return {
        letter: [
            {
                "sheet": sheet.id,
                "seats": [seat for seat in sheet.seats if state.home_sheet(seat).id == sheet.id],
                "value": sheet.marks[box],
            }
            for sheet in state.sheets
            if box in sheet.marks
        ]
        for letter, box in ((letter, rules.mission_box(letter)) for letter in state.missions)
    }


def sheet_schematic(state: GameState, sheet_id: int) -> Schematic:
    """How a sheet of the game is laid out, to be drawn (see ``games.rules.core.schematic``)."""
    schematic: Schematic = rules_for(state.adventure).layout.schematic
    return schematic


def astra_view(state: GameState) -> dict[str, Any]:
    """ASTRA as a player sees it (never the deck): opponent, pile by action, bonuses, the pass
    through the deck and its live score."""
    solo = _astra(state)
    return {
        "level": solo.level,
        "name": solo.name,
        "pile": {action: solo.pile.get(action, 0) for action in ACTIONS},
        "bonuses": {
            "boxes": solo.bonus_boxes,
            "circled": solo.bonuses_circled,
            "used": solo.bonuses_used,
        },
        "pass": solo.deck_pass,
        "score": astra_score(state)["total"],
    }


def hand_view(state: GameState) -> list[dict[str, Any]]:
    """The player's hand: each card's number and action."""
    return [
        {"card": card, "number": CARDS[card].number, "action": CARDS[card].action}
        for card in _astra(state).hand
    ]


def astra_card(state: GameState) -> tuple[Schematic, Marks]:
    """ASTRA's Adventure card as a sheet to draw, and its marks: the bonus boxes (circled as
    the player earns them, crossed as they are used) and, in adventure 1, the rocket track as
    printed, top row first, its boxes crossed so far (a level box captioned with its blue
    number, a score box with its score)."""
    solo = _astra(state)
    boxes = tuple(f"astra.bonus{number}" for number in range(1, solo.bonus_boxes + 1))
    marks: Marks = {box: CIRCLE for box in boxes[: solo.bonuses_circled]}
    marks.update({box: CROSS for box in boxes[: solo.bonuses_used]})
    numbers = tuple(str(number) for number in range(1, len(boxes) + 1))
    areas = [Area("ASTRA bonuses", (Row("bonus boxes", boxes, captions=numbers),))]
    if state.adventure == astra.TRACK_ADVENTURE:
        printed = astra.track()
        crossed = cast(AstraTrackBreakdown, astra_score(state)["breakdown"])["boxes_crossed"]
        marks.update({box["id"]: CROSS for box in printed[:crossed]})
        lines: dict[int, list[dict[str, Any]]] = {}
        for box in printed:
            lines.setdefault(box["row"], []).append(box)
        rows = (
            Row(
                f"row {row}",
                tuple(box["id"] for box in line),
                captions=tuple(_track_caption(box) for box in line),
            )
            for row, line in sorted(lines.items())
        )
        areas.append(Area("Rocket track", tuple(rows)))
    return Schematic(tuple(areas)), marks


def _track_caption(box: dict[str, Any]) -> str:
    if box["kind"] == "level_box":
        return f"level {box['label']}"
    return str(box["value"]) if box["kind"] == "score_box" else ""


def _astra(state: GameState) -> AstraState:
    assert state.astra is not None, "a solo game against ASTRA"
    return state.astra


def _sheet(state: GameState, sheet: Sheet, marks: Marks) -> dict[str, Any]:
    rules = rules_for(state.adventure)
    view = _sheet_ref(sheet)
    if len(sheet.seats) == 1:
        view["seat"] = sheet.seats[0]
    if sheet.sides:
        view["active_seat"] = state.playing_on(sheet.id) if state.status == "playing" else None
    view.update(
        marks=dict(marks),
        error_boxes=list(sheet.error_boxes),
        score=rules.sheet_score(state, sheet, marks=marks),
        derived=rules.derived(state, sheet, marks=marks),
    )
    return view


def _sheet_ref(sheet: Sheet) -> dict[str, Any]:
    """A sheet's id and the seats that play on it (and, when it is shared, which side of it
    each seat owns)."""
    ref: dict[str, Any] = {"sheet": sheet.id, "seats": list(sheet.seats)}
    if sheet.sides:
        ref["sides"] = dict(sheet.sides)
    return ref


def redact(event: Event, state: GameState, *, viewer: int | None) -> Event | None:
    """The event as ``viewer`` may read it in the feed, or None when it is hidden."""
    kind = event["kind"]
    hidden = HIDDEN_FIELDS.get(kind)
    if hidden:
        data = {key: value for key, value in event["data"].items() if key not in hidden}
        return {**event, "data": data}
    current = event["turn"] == state.turn and state.status == "playing"
    offered = MISSIONS_OFFERED.data_of(event)
    if offered is not None and current:
        offers = offered["offers"]
        mine = {str(viewer): offers[str(viewer)]} if str(viewer) in offers else {}
        return {**event, "data": MissionsOffered(offers=mine)}
    owner = private_to(kind, event["seat"])
    if current and owner is not None and owner != viewer:
        return None
    return event


def private_to(kind: str, seat: int | None) -> int | None:
    """The seat an event belongs to while its turn is being played (no other seat may read it
    until the turn resolves), or None when every seat may read it at once."""
    if seat is None or kind in ALWAYS_VISIBLE or kind == "game_started":
        return None
    return seat


def feed(events: Iterable[tuple[int, int, int | None, str]], *, viewer: int | None) -> list[int]:
    """The seqs of ``events`` (``(seq, turn, seat, kind)`` in log order) that ``viewer`` may
    read now, in the order they became readable to it.

    Another seat's events of a turn become readable when the turn resolves, so they are placed
    right before the event that resolves it, and those of the turn in play are left out. New
    events only ever join the end of this list: a viewer's position in it moves with nothing
    that is hidden from them.
    """
    readable: list[int] = []
    held: list[int] = []
    held_turn = 0
    for seq, turn, seat, kind in events:
        if held and (turn != held_turn or kind in REVEALING):
            readable.extend(held)
            held.clear()
        owner = private_to(kind, seat)
        if owner is None or owner == viewer:
            readable.append(seq)
        else:
            held.append(seq)
            held_turn = turn
    return readable


def _sees_current_turn(state: GameState, sheet: Sheet, viewer: int | None) -> bool:
    """Whether ``viewer`` sees this turn's marks on ``sheet``: the seat playing it does."""
    if state.status != "playing":
        return True
    return viewer is not None and 0 <= viewer < state.players and state.seats[viewer].sheet == sheet.id
