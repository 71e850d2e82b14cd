"""What the staff who review a game read: its whole history, one event at a time.

``history_view`` folds the log up to the event asked for and describes the game as it stood
right after it, for a referee: every sheet with every mark made so far (the turn in play
included, which no player sees whole), drawn from its layout; where every seat stands in the
turn; the combinations, the missions and who accomplished them; the result once there is one;
and the whole event list told in words; in a solo game, ASTRA: its pile, bonuses, pass through
the deck, score (adventure 1: its rocket track) and the hand of the turn. Everything comes from
the engine (``replay``, ``referee_sheet_view``, ``referee_seats``, ``referee_astra``,
``mission_claims``, ``narration``); nothing here knows a rule.
"""

from dataclasses import dataclass
from typing import Any

from eventstore.kinds import version_of
from games import snapshots
from games.i18n import text
from games.models import Event, Game
from games.rules import engine
from games.rules.engine import narration
from games.sheet_svg import drawn_sheet, sheet_svg

TURN_STARTED = "turn_started"


@dataclass(frozen=True)
class Position:
    """The event a review stands at (its seq, 0 when the game has none) and what was asked
    for but could not be found, in a sentence (or "")."""

    seq: int
    last: int
    note: str


def position(*, game: Game, seq: str | None, turn: str | None) -> Position:
    """Where a review of ``game`` stands for the query it was asked with: ``turn`` (the flip
    that starts that turn) or ``seq``; by default, or past either end, the nearest event."""
    last = Event.objects.filter(game_id=game.pk).count()
    if not last:
        return Position(0, 0, "This game has no events yet.")
    if turn is not None:
        number = _whole(turn)
        found = (
            Event.objects.filter(game_id=game.pk, kind=TURN_STARTED, turn=number)
            .values_list("seq", flat=True)
            .first()
            if number is not None
            else None
        )
        if found is None:
            return Position(last, last, f"There is no turn {turn!r} in this game: showing its last event.")
        return Position(found, last, "")
    number = _whole(seq) if seq is not None else last
    if number is None:
        return Position(last, last, f"{seq!r} is not an event number: showing the last event.")
    if not 1 <= number <= last:
        shown = min(max(number, 1), last)
        return Position(shown, last, f"The events are numbered 1 to {last}: showing event {shown}.")
    return Position(number, last, "")


def history_view(*, game: Game, at: Position) -> dict[str, Any]:
    """The game as it stood right after event ``at.seq``, for a referee, and its whole history."""
    seats = {seat.index: seat.player for seat in game.seats.select_related("user")}
    rows = list(
        Event.objects.filter(game_id=game.pk)
        .order_by("seq")
        .values_list("seq", "turn", "seat", "kind", "data", "created_at")
    )
    events = [
        {
            "seq": seq,
            "turn": turn,
            "seat": seat,
            "kind": kind,
            # in the reader's language (Accept-Language, as the API answers)
            "line": text(
                narration.narrate(
                    engine.upcast(
                        {"kind": str(kind), "v": version_of(kind) or 1, "seat": seat, "turn": turn,
                         "data": data}
                    )
                )
            ),
            "created_at": created_at,
            "current": seq == at.seq,
        }
        for seq, turn, seat, kind, data, created_at in rows
    ]
    view: dict[str, Any] = {
        "game": game,
        "seats": seats,
        "at": at,
        "events": events,
        "event_kinds": sorted({event["kind"] for event in events}),
        "current": events[at.seq - 1] if at.seq else None,
        "turns": [(event["turn"], event["seq"]) for event in events if event["kind"] == TURN_STARTED],
        "navigation": _navigation(at, events),
    }
    if at.seq:
        flips = [row for row in rows[: at.seq] if row[3] == TURN_STARTED]
        dealt = _dealt(flips[-1]) if flips else []
        view.update(_state_at(game, at.seq, seats, dealt))
    return view


def _dealt(row: tuple[Any, ...]) -> list[dict[str, Any]]:
    """The combinations a turn's flip (a ``turn_started`` row) dealt, as its event records them."""
    _, turn, seat, kind, data, _ = row
    flip = engine.upcast(
        {"kind": str(kind), "v": version_of(kind) or 1, "seat": seat, "turn": turn, "data": data}
    )
    return list(flip["data"].get("combinations", []))


def _state_at(game: Game, seq: int, seats: dict[int, str], dealt: list[dict[str, Any]]) -> dict[str, Any]:
    state = snapshots.at(game=game, seq=seq)
    if state.status == "new":  # only events of no game are before the opening: nothing to draw
        return {}
    summary = engine.game_view(state, viewer=None)
    claims = engine.mission_claims(state)
    sheets = []
    for sheet in state.sheets:
        view = engine.referee_sheet_view(state, sheet.id)
        view["svg"] = drawn_sheet(
            sheet=sheet.id,
            view=view,
            schematic=engine.sheet_schematic(state, sheet.id),
            seats=sheet.seats,
            players=seats,
        )
        sheets.append(view)
    return {
        "astra": _astra(state, dealt),
        "state": {
            "turn": state.turn,
            "phase": state.phase,
            "status": state.status,
            "combinations": summary["combinations"],
            "missions": [
                {**mission, "claims": claims.get(mission["letter"], [])} for mission in summary["missions"]
            ],
            "seats": engine.referee_seats(state),
            "end": state.end,
            "result": state.result,
        },
        "sheets": sheets,
    }


def _astra(state: engine.GameState, combinations: list[dict[str, Any]]) -> dict[str, Any] | None:
    """ASTRA in a solo game (None otherwise), its Adventure card drawn, its pile by action
    with what each action scores, and the hand of the turn: the cards in hand, or once ASTRA
    has taken its card (its hand is empty until it draws the next one) the turn's cards as the
    pairs its flip dealt (``combinations``) name them."""
    astra = engine.referee_astra(state)
    if astra is None:
        return None
    breakdown = astra["breakdown"]
    return {
        **astra,
        "hand": astra["hand"] or _hand_of(combinations),
        "hand_played": not astra["hand"] and bool(combinations),
        "pile": [
            {"action": action, "cards": cards, "points": breakdown.get(action)}
            for action, cards in astra["pile"].items()
        ],
        "svg": sheet_svg(
            title=f"ASTRA: {astra['name']} (level {astra['level']})",
            schematic=astra["schematic"],
            marks=astra["marks"],
            score=breakdown,
        ),
    }


def _hand_of(combinations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cards of a solo turn's hand, each with its number and action, read from the turn's
    pairs (each names the card giving its number and the card giving its action)."""
    cards: dict[int, dict[str, Any]] = {}
    for pair in combinations:
        cards.setdefault(pair["number_card"], {"card": pair["number_card"]})["number"] = pair["number"]
        cards.setdefault(pair["action_card"], {"card": pair["action_card"]})["action"] = pair["action"]
    return list(cards.values())


def _navigation(at: Position, events: list[dict[str, Any]]) -> dict[str, int | None]:
    if not at.seq:
        return {"first": None, "previous": None, "next": None, "last": None,
                "previous_turn": None, "next_turn": None}
    flips = [event["seq"] for event in events if event["kind"] == TURN_STARTED]
    return {
        "first": 1,
        "previous": at.seq - 1 if at.seq > 1 else None,
        "next": at.seq + 1 if at.seq < at.last else None,
        "last": at.last,
        "previous_turn": max((flip for flip in flips if flip < at.seq), default=None),
        "next_turn": min((flip for flip in flips if flip > at.seq), default=None),
    }


def _whole(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else None
