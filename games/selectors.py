"""Reads: what a viewer may see of a game, built by replaying its events.

Every view goes through the engine's own per-viewer functions (`game_view`, `sheet_view`,
`redact`), so what is hidden is decided in one place: the rules engine.
"""

from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet

from games.errors import Conflict, Forbidden, Invalid, NotFound
from games.models import Event, Game, Seat
from games.rules import engine
from games.rules.engine import Event as EngineEvent
from games.rules.engine import GameState

MAX_PAGE = 500
WAIT = {"kind": "wait", "options": [], "can_undo": False, "can_confirm": False}


def games_of(*, user: User) -> QuerySet[Game]:
    """The games the user has a seat in, newest first."""
    return Game.objects.filter(seats__user_id=user.pk).select_related("creator").order_by("-id")


def get_game(*, game_id: int) -> Game:
    game = Game.objects.select_related("creator").filter(pk=game_id).first()
    if game is None:
        raise NotFound("not_found", f"There is no game {game_id}.")
    return game


def seat_of(*, game: Game, user: User) -> int | None:
    return (
        Seat.objects.filter(game=game, user_id=user.pk).values_list("index", flat=True).first()
    )


def game_summary(*, game: Game) -> dict[str, Any]:
    """The lobby facts of a game, known without replaying it."""
    seats = list(game.seats.select_related("user").order_by("index"))
    return {
        "id": game.pk,
        "adventure": game.adventure,
        "max_players": game.max_players,
        "status": game.status,
        "creator": game.creator.get_username(),
        "created_at": game.created_at,
        "seats": [{"seat": seat.index, "username": seat.user.get_username()} for seat in seats],
    }


def game_view(*, game: Game, viewer: User) -> dict[str, Any]:
    """The game as the viewer may see it. Anyone signed in may look at a game in the lobby."""
    seat = seat_of(game=game, user=viewer)
    if seat is None and game.status != Game.Status.LOBBY:
        raise Forbidden("not_seated", "You have no seat in this game.")
    rows = _rows(game)
    view: dict[str, Any] = {"turn": None, "combinations": [], "missions": [], "result": None}
    if rows:
        state = _replay(rows)
        view.update(engine.game_view(state, viewer=seat))
    view.pop("seed", None)
    engine_seats = {entry.get("seat"): entry for entry in view.get("seats", [])}
    view.update(game_summary(game=game))
    view["seats"] = [{**engine_seats.get(entry["seat"], {}), **entry} for entry in view["seats"]]
    view["seat"] = seat
    view["version"] = rows[-1].seq if rows else 0
    return view


def decision_view(*, game: Game, viewer: User) -> dict[str, Any]:
    """What the viewer's seat must or may do now; `wait` when nothing."""
    seat = _require_seat(game, viewer)
    if game.status != Game.Status.PLAYING:
        return dict(WAIT)
    state = _replay(_rows(game))
    return dict(engine.options(state, seat).as_dict())


def decision_after(*, state: GameState, seat: int) -> dict[str, Any]:
    """The next decision of a seat, from a state a command just produced."""
    if getattr(state, "status", None) != "playing":
        return dict(WAIT)
    return dict(engine.options(state, seat).as_dict())


def sheet_view(*, game: Game, viewer: User, sheet: int) -> dict[str, Any]:
    """One sheet (in adventures 1-7, sheet n is seat n's); this turn's marks on it are shown
    only to the seat playing it until the turn resolves."""
    viewer_seat = _require_seat(game, viewer)
    rows = _rows(game)
    if not rows:
        raise Conflict("game_not_started", "The game has not started: there are no sheets yet.")
    state = _replay(rows)
    if not 0 <= sheet < len(state.sheets):
        raise NotFound("sheet_not_found", f"There is no sheet {sheet} in this game.")
    return engine.sheet_view(state, sheet, viewer=viewer_seat)


def events_page(
    *, game: Game, viewer: User, after: int = 0, limit: int = 100
) -> dict[str, Any]:
    """Events after `after`, ascending, filtered for the viewer.

    `next` is the `after` to send for the following page, or None when this page reached the end
    of the log (then `version` is where to poll from).
    """
    viewer_seat = _require_seat(game, viewer)
    if after < 0:
        raise Invalid("invalid_request", "after must be 0 or more.")
    if limit < 1:
        raise Invalid("invalid_request", "limit must be 1 or more.")
    limit = min(limit, MAX_PAGE)
    rows = _rows(game)
    if not rows:
        return {"events": [], "next": None, "version": 0}
    version = rows[-1].seq
    state = _replay(rows)
    page = [row for row in rows if row.seq > after][:limit]
    events = []
    for row in page:
        redacted = engine.redact(engine.upcast(row.as_engine_event()), state, viewer=viewer_seat)
        if redacted is not None:
            events.append(_event_json(row, redacted))
    more = bool(page) and page[-1].seq < version
    return {"events": events, "next": page[-1].seq if more else None, "version": version}


def redacted_events(*, rows: list[Event], state: GameState, seat: int) -> list[dict[str, Any]]:
    """The events a command appended, as its author may see them."""
    out = []
    for row in rows:
        redacted = engine.redact(engine.upcast(row.as_engine_event()), state, viewer=seat)
        if redacted is not None:
            out.append(_event_json(row, redacted))
    return out


def replay_view(*, game: Game, viewer: User, seq: int) -> dict[str, Any]:
    """The game and every sheet as they were right after event `seq` of a finished game."""
    viewer_seat = _require_seat(game, viewer)
    if game.status != Game.Status.FINISHED:
        raise Conflict("game_not_finished", "A game can be replayed once it is finished.")
    rows = _rows(game)
    version = rows[-1].seq if rows else 0
    if not 1 <= seq <= version:
        raise Invalid("invalid_request", f"seq must be between 1 and {version}.")
    state = _replay(rows[:seq])
    view = dict(engine.game_view(state, viewer=viewer_seat))
    view.pop("seed", None)
    sheets = [engine.sheet_view(state, sheet.id, viewer=viewer_seat) for sheet in state.sheets]
    return {"seq": seq, "version": version, "game": view, "sheets": sheets}


# --- internals ---------------------------------------------------------------------------------


def _require_seat(game: Game, viewer: User) -> int:
    seat = seat_of(game=game, user=viewer)
    if seat is None:
        raise Forbidden("not_seated", "You have no seat in this game.")
    return seat


def _rows(game: Game) -> list[Event]:
    return list(Event.objects.filter(game=game).order_by("seq"))


def _replay(rows: list[Event]) -> GameState:
    return engine.replay(row.as_engine_event() for row in rows)


def _event_json(row: Event, event: EngineEvent) -> dict[str, Any]:
    return {
        "seq": row.seq,
        "turn": event.get("turn", row.turn),
        "seat": event.get("seat", row.seat),
        "kind": event.get("kind", row.kind),
        "v": event.get("v", 1),
        "data": event.get("data", {}),
        "created_at": row.created_at,
    }
