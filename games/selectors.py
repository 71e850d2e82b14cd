"""Reads: what a viewer may see of a game, built by replaying its events.

Every view goes through the engine's own per-viewer functions (`game_view`, `sheet_view`,
`redact`), so what is hidden is decided in one place: the rules engine.
"""

import threading
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from django.contrib.auth.models import User
from django.db.models import Prefetch

from eventstore import store
from eventstore.errors import Conflict, Invalid, NotFound
from games import hot_queries, lobby, quotas, snapshots
from games.models import Event, Game, Seat, Table, TableSeat
from games.rules import engine
from games.rules.engine import Event as EngineEvent
from games.rules.engine import GameState
from games.sheet_svg import drawn_sheet

MAX_PAGE = 500
# The events that ask the seats to decide: a turn begins, a sheet asks for choices outside the
# turn (at setup, in phase 5), or phase 6 asks whether to claim. Each starts a deadline.
ASKING = frozenset({"turn_started", "choices_awaited", "missions_offered"})
WAIT: dict[str, Any] = {"kind": "wait", "sheet": None, "options": [], "can_undo": False, "can_confirm": False}


def games_of(
    *, user: User, status: str | None = None, adventure: int | None = None, start: int, size: int
) -> tuple[int, list[dict[str, Any]]]:
    """How many games the user has a seat in (of that ``status`` and ``adventure`` when given),
    not those whose lobby expired, and the summaries (``game_summary``) of ``size`` of them from
    ``start`` on, newest first: one query, however many games a page holds."""
    count, rows = hot_queries.games_of(
        user.pk, status=status, adventure=adventure, cutoff=quotas.lobby_cutoff(), start=start, size=size
    )
    fields = ("id", "adventure", "max_players", "astra_level", "status", "visibility", "turn_seconds")
    return count, [
        {
            **dict(zip(fields, row[:7], strict=True)),
            "creator": row[7],
            "created_at": row[8],
            "seats": [
                {"seat": index, "username": username, "bot": bot or None} for index, username, bot in row[9]
            ],
        }
        for row in rows
    ]


def seats_with_players(model: type[TableSeat]) -> Prefetch:
    """The seats of tables, in order, with their players: one query for a page of tables."""
    return Prefetch("seats", queryset=model._default_manager.select_related("user").order_by("index"))


def get_game(*, game_id: int) -> Game:
    game = store.row(Game, game_id)
    if game is None:
        raise NotFound(
            "not_found",
            "There is no game %(game_id)s.",
            game_id=game_id,
        )
    return game


def seat_of(*, game: Game, user: User) -> int | None:
    return store.seat_index(Seat, "game", game.pk, user.pk)


def game_summary(*, game: Game) -> dict[str, Any]:
    """The lobby facts of a game, known without replaying it: a bot seat has no username and
    names its kind of bot; a solo game names its ASTRA level. Its seats are read as
    ``games_of`` prefetched them, or in one query."""
    return {
        "id": game.pk,
        "adventure": game.adventure,
        "max_players": game.max_players,
        "astra_level": game.astra_level,
        "status": game.status,
        "visibility": game.visibility,
        "turn_seconds": game.turn_seconds,
        "creator": game.creator.get_username(),
        "created_at": game.created_at,
        "seats": [seat_summary(seat) for seat in seats_of(game)],
    }


def seats_of(table: Table) -> list[TableSeat]:
    """A table's seats in order with their players: as prefetched, or in one query."""
    seats: Any = cast(Any, table).seats  # each kind of table names its own seats' model
    if "seats" in getattr(table, "_prefetched_objects_cache", {}):
        return list(seats.all())
    return list(seats.select_related("user").order_by("index"))


def seat_summary(seat: TableSeat) -> dict[str, Any]:
    """A seat of a game or a campaign in the lobby: a bot's has no username and names its kind."""
    return {
        "seat": seat.index,
        "username": seat.user.get_username() if seat.user is not None else None,
        "bot": seat.bot or None,
    }


def game_view(*, game: Game, viewer: User, invite: str | None = None) -> dict[str, Any]:
    """The game as the viewer may see it. Anyone signed in may look at a public game in the
    lobby, and at a private one with its ``invite``; its seated players read its invite (to
    pass on) and, in a game with ``turn_seconds``, the ``deadline`` of the phase in play."""
    seat = seat_of(game=game, user=viewer)
    if seat is None and not (game.status == Game.Status.LOBBY and lobby.invited(game, invite)):
        raise lobby.outsider(game, invite)
    state, last = snapshots.current(game=game)
    view: dict[str, Any] = {
        "turn": None,
        "combinations": [],
        "missions": [],
        "end": None,
        "result": None,
        "astra": None,
        "hand": None,
    }
    if last:
        view.update(engine.game_view(state, viewer=seat))
    view.pop("seed", None)
    engine_seats = {entry.get("seat"): entry for entry in view.get("seats", [])}
    view.update(game_summary(game=game))
    view["seats"] = [{**engine_seats.get(entry["seat"], {}), **entry} for entry in view["seats"]]
    view["seat"] = seat
    view["invite"] = game.invite if seat is not None else None
    view["deadline"] = deadline_of(game=game)
    view["version"] = version_for(game=game, state=state, last=last, seat=seat)
    return view


def version_for(*, game: Game, state: GameState, last: int, seat: int | None) -> int:
    """How many events the seat may read: its position at the end of its feed. Another seat's
    events of the turn in play are not counted until the turn resolves, so the version moves
    with nothing hidden from this seat."""
    before, window = hot_queries.window(game.pk, from_turn=state.turn, last=last)
    return before + len(engine.feed(window, viewer=seat))


def last_asked(game_id: int) -> tuple[int, datetime] | None:
    """The seq and time of the event that asked the seats for the phase in play."""
    asking = Event.objects.filter(game_id=game_id, kind__in=ASKING).order_by("-seq")
    return asking.values_list("seq", "created_at").first()


def deadline_of(*, game: Game) -> datetime | None:
    """When the phase in play stops waiting for its seats: ``turn_seconds`` after the event
    that asked them (None without a deadline, or out of play)."""
    if game.turn_seconds is None or game.status != Game.Status.PLAYING:
        return None
    asked = last_asked(game.pk)
    return None if asked is None else asked[1] + timedelta(seconds=game.turn_seconds)


def final_standings(*, game_id: int) -> dict[str, Any] | None:
    """A finished game's result as a campaign reads its stars from it: each seat's total and
    rank, the letters of the missions it accomplished and the System Error boxes it marked (as
    its adventure defines them: ``engine.accomplished``), the winners, and in solo ASTRA's
    total (``astra_total``, what a version 2 campaign keeps ASTRA's tally from). None while the
    game has no result."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).first()
    if game is None:
        return None
    state, _ = snapshots.current(game=game)
    return standings_of(state=state)


def standings_of(*, state: GameState) -> dict[str, Any] | None:
    """``final_standings`` of a game's state (None while it has no result)."""
    if state.result is None:
        return None
    scores = [
        {
            "seat": score["seat"],
            "total": score["total"],
            "rank": score["rank"],
            **engine.accomplished(state, score["seat"]),
        }
        for score in state.result["scores"]
    ]
    standings: dict[str, Any] = {"scores": scores, "winners": list(state.result["winners"])}
    astra = state.result.get("astra")
    if astra is not None:
        standings["astra_total"] = astra["total"]
    return standings


def decision_view(*, game: Game, viewer: User) -> dict[str, Any]:
    """What the viewer's seat must or may do now; `wait` when nothing (also for a seat handed
    to a bot)."""
    seat = require_seat(game=game, viewer=viewer)
    if game.status != Game.Status.PLAYING:
        return dict(WAIT)
    state, seq = snapshots.current(game=game)
    return decision_of(game=game, state=state, seat=seat, seq=seq)


def decision_of(*, game: Game, state: GameState, seat: int, seq: int) -> dict[str, Any]:
    """``decision_view`` of a seat from the game's row and its state as already read (the
    state after event ``seq``)."""
    if game.status != Game.Status.PLAYING:
        return dict(WAIT)
    return decision_after(state=state, seat=seat, at=(game.pk, game.invite, seq))


# The decisions worked out lately in this process: (game id, its invite, seq, seat) -> decision.
# The state after an event never changes (the log is append-only), and after a command its
# author's answer, the game's stream hub (api/streams.py) and the seats' clients (/decision)
# each ask for the same decisions: the options are worked out once. The invite, random, tells
# apart two games that had the same id (a database restored, the tests' rolled back).
_decisions: dict[tuple[int, str, int, int], dict[str, Any]] = {}
_decisions_lock = threading.Lock()
DECISIONS_KEPT = 1000


def decision_after(*, state: GameState, seat: int, at: tuple[int, str, int] | None) -> dict[str, Any]:
    """The next decision of a seat, from a state a command just produced; ``at``, the game (id,
    invite) and the seq of the last event folded into ``state``, lets it be worked out once
    (None: the state's last event is not known)."""
    if getattr(state, "status", None) != "playing" or state.seats[seat].resigned:
        return dict(WAIT)
    if at is None:
        return dict(engine.options(state, seat).as_dict())
    key = (*at, seat)
    with _decisions_lock:
        known = _decisions.get(key)
    if known is None:
        known = dict(engine.options(state, seat).as_dict())
        with _decisions_lock:
            _decisions[key] = known
            while len(_decisions) > DECISIONS_KEPT:
                del _decisions[next(iter(_decisions))]
    return dict(known)


def sheet_view(*, game: Game, viewer: User, sheet: int) -> dict[str, Any]:
    """One sheet (in adventures 1-7, sheet n is seat n's; in adventure 8 two seats share each
    sheet); this turn's marks on it are shown only to the seat playing it until the turn
    resolves."""
    state, viewer_seat = _current_with_sheet(game=game, viewer=viewer, sheet=sheet)
    return engine.sheet_view(state, sheet, viewer=viewer_seat)


def sheet_drawing(*, game: Game, viewer: User, sheet: int, seq: int | None = None) -> str:
    """One sheet drawn as SVG by the admin viewer's drawing code, with what ``sheet_view``
    shows the viewer (this turn's marks of another seat stay hidden); each element carries
    its id as ``data-element`` for a front end to make it clickable. With ``seq``, in a
    finished game: the sheet as ``replay_view`` shows it at that position of the feed."""
    if seq is None:
        state, viewer_seat = _current_with_sheet(game=game, viewer=viewer, sheet=sheet)
    else:
        state, viewer_seat, _ = _replayed(game=game, viewer=viewer, seq=seq)
        _require_sheet(state, sheet)
    view = engine.sheet_view(state, sheet, viewer=viewer_seat)
    return drawn_sheet(
        sheet=sheet,
        view=view,
        schematic=engine.sheet_schematic(state, sheet),
        seats=state.sheets[sheet].seats,
        players={seat.index: seat.player for seat in game.seats.select_related("user")},
    )


def events_page(*, game: Game, viewer: User, after: int = 0, limit: int = 100) -> dict[str, Any]:
    """The viewer's feed after position `after`, in the order its events became readable to
    the viewer (see ``engine.feed``). An event's `seq` is its position in that feed.

    `next` is the `after` to send for the following page, or None when this page reached the end
    of the feed (then `version` is where to poll from).
    """
    viewer_seat = require_seat(game=game, viewer=viewer)
    if after < 0:
        raise Invalid("invalid_request", "after must be 0 or more.")
    if limit < 1:
        raise Invalid("invalid_request", "limit must be 1 or more.")
    limit = min(limit, MAX_PAGE)
    order = _feed(game, viewer_seat)
    state, _ = snapshots.current(game=game)
    page = order[after : after + limit]
    rows = {row.seq: row for row in Event.objects.filter(game_id=game.pk, seq__in=page)}
    events = []
    for position, seq in enumerate(page, start=after + 1):
        row = rows[seq]
        redacted = engine.redact(engine.upcast(row.as_engine_event()), state, viewer=viewer_seat)
        if redacted is not None:
            events.append(_event_json(position, row, redacted))
    more = after + len(page) < len(order)
    return {"events": events, "next": after + len(page) if more else None, "version": len(order)}


@dataclass(frozen=True)
class Catchup:
    """What a follower of a feed gets from one look at the log: its new events (as ``/events``
    shows them, each at its position in the viewer's feed), its decision when the events may
    have changed it (None otherwise), its position after them, and whether the game (the
    campaign) has finished. An event that several followers read alike is one object in
    their answers (rendered once for them)."""

    events: list[dict[str, Any]]
    decision: dict[str, Any] | None
    after: int
    ended: bool


# A follower's (seat, position in its feed); None for a follower behind what a tail holds.
Followers = Collection[tuple[int, int]]
Catchups = dict[tuple[int, int], Catchup | None]
# What a commit of this process handed to a tail (``eventstore.notify.following``): the stream's
# row as it committed, and the events after the tail's position as ``store.stream_and_events_after``
# reads them.
Handed = tuple[Any, list[tuple[Any, ...]]]


class FeedTail:
    """The end of a game's log as every follower of the game in one process shares it: each
    look reads the game's row and the events appended since the last look, in full, in one
    query (``hot_queries.tail``), whatever the number of followers, and works out from them
    each follower's new events as ``events_page`` would (``engine.feed``). The tail keeps the
    game's state after the last event read, folding each event once (the first look reads the
    snapshot with the events), and the turn in play's events: a revealed move is rendered
    from what an earlier look read. The decisions are read once for all followers, and only
    for those whose feed grew.

    It holds the turn in play only (every event of an earlier turn is readable by every seat),
    so a follower whose position lies before it is answered None: read its feed in full.
    Once it holds a state, a look may be given what commits of this process appended right
    after its position (``handed``, by api/streams.py): it reads nothing then."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        self.position = -1  # the last seq read; -1 before the first look
        self.before = 0  # how many events come before the window: readable by every seat
        self.window: list[tuple[int, int, int | None, str]] = []
        # the window's events as read and as the engine reads them (upcast once)
        self.rows: dict[int, tuple[hot_queries.TailRow, EngineEvent]] = {}
        # the state after event ``position`` (None: read it with the snapshot at the next look)
        self.state: GameState | None = None

    def catch_up(self, followers: Followers, handed: Handed | None = None) -> Catchups:
        """Look at the log once more (or take what was ``handed``, the events that follow the
        position) and answer each follower (seat, position)."""
        if self.position < 0:
            before, rows = hot_queries.turn_in_play(self.game_id)
            self.before, self.window, self.rows = before, [], {}
            self._keep(rows)
            self.position = rows[-1].seq if rows else before
        game, rows = self._read(handed)
        self._keep(row for row in rows if row.seq > self.position)
        if rows:
            self.position = max(self.position, rows[-1].seq)
        news = {follower: self._news(*follower) for follower in followers}
        answers: Catchups = {}
        if any(news.values()):
            answers = self._answers(game, news)
        for follower, seqs in news.items():
            if follower not in answers:
                answers[follower] = None if seqs is None else Catchup([], None, follower[1], False)
        self._trim()
        return answers

    def _read(self, handed: Handed | None) -> tuple[Game, list[hot_queries.TailRow]]:
        """The game's row and the events after the last look (read, or as ``handed``), the
        state folded up to them."""
        stored = None
        if handed is not None:
            assert self.state is not None, "handed to a tail holding no state"
            game, rows = handed[0], [hot_queries.TailRow(*row) for row in handed[1]]
        else:
            version = snapshots.ENGINE_VERSION if self.state is None else None
            found, stored, rows = hot_queries.tail(self.game_id, after=self.position, engine_version=version)
            if found is None:
                raise NotFound("not_found", "There is no game %(game_id)s.", game_id=self.game_id)
            game = found
        state, seq = snapshots.loaded(stored) if self.state is None else (self.state, self.position)
        self.state = None  # until it is folded whole: a fold that fails starts again from the snapshot
        self.state, _ = snapshots.fold(state, (row[:6] for row in rows if row.seq > seq), seq)
        return game, rows

    def _keep(self, rows: Iterable[hot_queries.TailRow]) -> None:
        for row in rows:
            self.window.append((row.seq, row.turn, row.seat, row.kind))
            self.rows[row.seq] = (row, engine.upcast(cast(EngineEvent, row.as_engine_event())))

    def _answers(self, game: Game, news: dict[tuple[int, int], list[int] | None]) -> Catchups:
        state = self.state
        assert state is not None
        decisions: dict[int, dict[str, Any]] = {}
        answers: Catchups = {}
        ended = game.status == Game.Status.FINISHED
        # an event every seat reads as it is, at one position of their feeds, is one object for
        # all of them: rendered once (api/streams.py)
        shared: dict[tuple[int, int], dict[str, Any]] = {}
        for (seat, after), seqs in news.items():
            if not seqs:
                continue
            events = []
            for position, seq in enumerate(seqs, start=after + 1):
                row, event = self.rows[seq]
                redacted = engine.redact(event, state, viewer=seat)
                if redacted is event:
                    if (seq, position) not in shared:
                        shared[(seq, position)] = _event_json(position, row, event)
                    events.append(shared[(seq, position)])
                elif redacted is not None:
                    events.append(_event_json(position, row, redacted))
            if seat not in decisions:
                decisions[seat] = decision_of(game=game, state=state, seat=seat, seq=self.position)
            answers[(seat, after)] = Catchup(events, decisions[seat], after + len(seqs), ended)
        return answers

    def _news(self, seat: int, after: int) -> list[int] | None:
        """The seqs of the seat's feed after its position ``after``, in feed order."""
        if after < self.before:
            return None
        return engine.feed(self.window, viewer=seat)[after - self.before :]

    def _trim(self) -> None:
        """Keep the turn in play only: every follower has read the earlier ones now."""
        if self.window and self.window[0][1] != self.window[-1][1]:
            turn = self.window[-1][1]
            kept = [row for row in self.window if row[1] >= turn]
            for seq, *_ in self.window[: len(self.window) - len(kept)]:
                del self.rows[seq]
            self.before += len(self.window) - len(kept)
            self.window = kept


def command_answer(
    *,
    game: Game,
    rows: list[Event],
    state: GameState,
    seat: int,
    turn_in_play: hot_queries.Window | None = None,
) -> dict[str, Any]:
    """What a command's author reads back once the command has committed: the events it
    appended that the author may read, each at its position in the author's feed, the author's
    next decision, the game's status and the author's version. When the command made ASTRA's
    part of the turn due, the answer shows the game after that part if it has been played (in
    the embedded mode it runs on the commit, before this answer is read). ``turn_in_play``:
    the window of the turn the command began in, when the command read it with its head (the
    feed positions follow from it without reading the events again)."""
    if rows and engine.astra_due(state):
        game, rows, state = _after_astra(game, rows, state)
    events = []
    version = 0
    if rows:
        before, window = _window(game, rows, known=turn_in_play)
        order = engine.feed(window, viewer=seat)
        version = before + len(order)
        positions = {seq: before + index for index, seq in enumerate(order, start=1)}
        for row in rows:
            redacted = engine.redact(engine.upcast(row.as_engine_event()), state, viewer=seat)
            if row.seq in positions and redacted is not None:
                events.append(_event_json(positions[row.seq], row, redacted))
    return {
        "events": events,
        "decision": decision_after(
            state=state, seat=seat, at=(game.pk, game.invite, rows[-1].seq) if rows else None
        ),
        "status": game.status,
        "version": version,
    }


def _after_astra(game: Game, rows: list[Event], state: GameState) -> tuple[Game, list[Event], GameState]:
    """The game, the command's rows with those appended after them, and the state, as they are
    now: unchanged when nothing followed the command yet (workers)."""
    now, seq = snapshots.current(game=game)
    last = rows[-1].seq
    if seq == last:
        return game, rows, state
    game.refresh_from_db(fields=["status"])
    later = list(Event.objects.filter(game=game, seq__gt=last, seq__lte=seq).order_by("seq"))
    return game, [*rows, *later], now


def replay_view(*, game: Game, viewer: User, seq: int) -> dict[str, Any]:
    """The game and every sheet as they were when the viewer could read the event at position
    `seq` of their feed, in a finished game."""
    state, viewer_seat, version = _replayed(game=game, viewer=viewer, seq=seq)
    view = dict(engine.game_view(state, viewer=viewer_seat))
    view.pop("seed", None)
    sheets = [engine.sheet_view(state, sheet.id, viewer=viewer_seat) for sheet in state.sheets]
    return {"seq": seq, "version": version, "game": view, "sheets": sheets}


# --- internals ---------------------------------------------------------------------------------


def _current_with_sheet(*, game: Game, viewer: User, sheet: int) -> tuple[GameState, int]:
    """The game's state now, once it has started and has that sheet, and the viewer's seat."""
    viewer_seat = require_seat(game=game, viewer=viewer)
    state, last = snapshots.current(game=game)
    if not last:
        raise Conflict("game_not_started", "The game has not started: there are no sheets yet.")
    _require_sheet(state, sheet)
    return state, viewer_seat


def _require_sheet(state: GameState, sheet: int) -> None:
    if not 0 <= sheet < len(state.sheets):
        raise NotFound("sheet_not_found", "There is no sheet %(sheet)s in this game.", sheet=sheet)


def _replayed(*, game: Game, viewer: User, seq: int) -> tuple[GameState, int, int]:
    """A finished game's state when the viewer could read the event at position `seq` of
    their feed, the viewer's seat and the length of their feed."""
    viewer_seat = require_seat(game=game, viewer=viewer)
    if game.status != Game.Status.FINISHED:
        raise Conflict("game_not_finished", "A game can be replayed once it is finished.")
    order = _feed(game, viewer_seat)
    version = len(order)
    if not 1 <= seq <= version:
        raise Invalid(
            "invalid_request",
            "seq must be between 1 and %(version)s.",
            version=version,
        )
    return snapshots.at(game=game, seq=max(order[:seq])), viewer_seat, version


def require_seat(*, game: Game, viewer: User) -> int:
    """The viewer's seat in the game; the outsider's refusal when they have none."""
    seat = seat_of(game=game, user=viewer)
    if seat is None:
        raise lobby.outsider(game)
    return seat


def _window(game: Game, rows: list[Event], *, known: hot_queries.Window | None) -> hot_queries.Window:
    """The events from the turn of the first of ``rows`` on, up to the last of them, as
    ``engine.feed`` reads them, and how many events come before them: every event of an earlier
    turn is readable by every seat once a later turn has begun, so only the window needs
    folding. ``known``: the window of the turn in play right before ``rows`` (turns only grow,
    so ``rows`` join it, or begin a later turn after all of it); read from the log otherwise."""
    from_turn = min(row.turn for row in rows)
    if known is not None:
        before, earlier = known
        if rows[0].seq == before + len(earlier) + 1:
            kept = [row for row in earlier if row[1] >= from_turn]
            added = [(row.seq, row.turn, row.seat, str(row.kind)) for row in rows]
            return before + len(earlier) - len(kept), kept + added
    return hot_queries.window(game.pk, from_turn=from_turn, last=rows[-1].seq)


def _feed(game: Game, seat: int) -> list[int]:
    """The seqs of the seat's feed, in its order."""
    rows = Event.objects.filter(game_id=game.pk).order_by("seq")
    return engine.feed(rows.values_list("seq", "turn", "seat", "kind"), viewer=seat)


def _event_json(position: int, row: Event | hot_queries.TailRow, event: EngineEvent) -> dict[str, Any]:
    return {
        "seq": position,
        "turn": event.get("turn", row.turn),
        "seat": event.get("seat", row.seat),
        "kind": event.get("kind", row.kind),
        "v": event.get("v", 1),
        "data": event.get("data", {}),
        "created_at": row.created_at,
    }
