"""The admin, for the staff who review games: games with their result, seats and events
(read-only; the events paged in the event log, filtered to the game), the event log with its
filters, the replay viewer, exports. Adventures are named, not numbered.

No one adds, changes or deletes an event here, superusers included: the log is append-only
(the database refuses it too). The replay viewer (``/admin/games/game/<id>/history/?seq=n``)
is an admin view: the admin's login stands before it for anyone who is not staff.
"""

import io
import zipfile
from typing import Any
from urllib.parse import urlencode

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Count, Max, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.views.decorators.http import require_safe

from eventstore import chain
from eventstore.models import StoredEvent
from games import history, review, snapshots
from games.i18n import text
from games.models import Event, Game, Seat, TableSeat
from games.rules import engine
from games.rules.engine import PLAYABLE, narration

ADVENTURE_NAMES = {number: rules.name for number, rules in PLAYABLE.items()}


class ReadOnly:
    """Shown, never added, changed or deleted from the admin, whoever asks."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class TableSeatInline(ReadOnly, admin.TabularInline):
    """The seats of a table (a game's or a campaign's), each with who plays it."""

    extra = 0
    fields = ("index", "player")
    readonly_fields = fields

    @admin.display(description="player")
    def player(self, seat: TableSeat) -> str:
        """The username, or the bot that plays the seat ("greedy bot")."""
        return seat.player


class SeatInline(TableSeatInline):
    model = Seat


def _unbroken(text: str) -> str:
    """A short cell of the games list kept on one line (the players' names wrap instead)."""
    return format_html('<span style="white-space: nowrap">{}</span>', text)


class AdventureFilter(admin.SimpleListFilter):
    """The adventures by their names."""

    title = "adventure"
    parameter_name = "adventure"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [(str(number), f"{number}. {name}") for number, name in ADVENTURE_NAMES.items()]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> QuerySet[Game]:
        value = self.value()
        return queryset.filter(adventure=int(value)) if value and value.isdigit() else queryset


class EventLog:
    """A stream's events in the admin, read-only, a page at a time, filtered by kind, seat (and,
    for a game, turn), at ``<the stream's admin page>/events/``. The events have no admin pages
    of their own: their key is (stream, seq), and the admin's model pages take a one-column key.
    A mixin of the stream's ``ModelAdmin``, which names the event model and each row's cells."""

    events_model: type[StoredEvent]
    # the table's headings, in the order of ``event_cells``
    event_columns: tuple[str, ...]
    PER_PAGE = 100

    def event_cells(self, stream: Any, event: Any) -> tuple[Any, ...]:
        """The cells of an event's row, one per heading of ``event_columns``."""
        raise NotImplementedError

    def get_urls(self) -> list[URLPattern]:
        opts = self.model._meta  # type: ignore[attr-defined]
        # read-only: anything but GET and HEAD is refused (405)
        view = self.admin_site.admin_view(require_safe(self.event_log))  # type: ignore[attr-defined]
        name = f"{opts.app_label}_{opts.model_name}_events"
        return [path("<path:object_id>/events/", view, name=name), *super().get_urls()]  # type: ignore[misc]

    def events_url(self, stream: Any) -> str:
        """The address of the stream's event log."""
        opts = self.model._meta  # type: ignore[attr-defined]
        return reverse(f"admin:{opts.app_label}_{opts.model_name}_events", args=[stream.pk])

    def event_log(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """The stream's events in order, filtered by the query's ``kind``, ``seat`` (a number,
        or ``none`` for what the stream did by itself) and ``turn``; a value that is none of
        these filters nothing."""
        stream = self.get_object(request, object_id)  # type: ignore[attr-defined]
        opts = self.model._meta  # type: ignore[attr-defined]
        if stream is None:
            return self._get_obj_does_not_exist_redirect(request, opts, object_id)  # type: ignore[attr-defined]
        if not self.has_view_permission(request, stream):  # type: ignore[attr-defined]
            raise PermissionDenied
        model = self.events_model
        every = model._default_manager.filter(**{model.STREAM: stream})
        events = every.order_by("seq")
        chosen = {name: request.GET.get(name, "") for name in ("kind", "seat", "turn")}
        if chosen["kind"]:
            events = events.filter(kind=chosen["kind"])
        if chosen["seat"] == "none":
            events = events.filter(seat__isnull=True)
        elif _number(chosen["seat"]):
            events = events.filter(seat=int(chosen["seat"]))
        with_turn = "turn" in model.OWN_FIELDS
        if with_turn and _number(chosen["turn"]):
            events = events.filter(**{"turn": int(chosen["turn"])})
        page = Paginator(events, self.PER_PAGE).get_page(request.GET.get("p"))
        query = {name: value for name, value in chosen.items() if value}
        context = {
            **self.admin_site.each_context(request),  # type: ignore[attr-defined]
            "opts": opts,
            "title": f"{stream}: events",
            "stream": stream,
            "page": page,
            "columns": self.event_columns,
            "rows": [self.event_cells(stream, event) for event in page.object_list],
            "kinds": sorted(set(every.values_list("kind", flat=True))),
            "seats": sorted({seat for seat in every.values_list("seat", flat=True) if seat is not None}),
            "with_turn": with_turn,
            "chosen": chosen,
            "query": urlencode(query),
        }
        return TemplateResponse(request, "admin/event_log.html", context)


def _number(value: str) -> bool:
    return value.isascii() and value.isdigit()


@admin.register(Game)
class GameAdmin(EventLog, admin.ModelAdmin):
    # Narrow enough for a 1280 px window: the date it was opened and the visibility are in the
    # filters, the last activity in the list.
    list_display = ("id", "adventure_name", "status", "players", "turn", "last_activity", "replay")
    list_filter = (AdventureFilter, "status", "visibility", ("created_at", admin.DateFieldListFilter))
    search_fields = ("=id", "seats__user__username")
    search_help_text = "A game's id, or a player's username (part of it)."
    date_hierarchy = "created_at"
    # A game's page opens on its result and players; its events are paged in the event log
    # (a long game has hundreds: never inline), and stepped through in the viewer.
    inlines = [SeatInline]
    fields = (
        "result", "adventure_name", "status", "visibility", "turn_seconds", "resigned", "max_players",
        "creator", "created_at", "events", "history",
    )
    readonly_fields = fields
    actions = ["export_histories"]
    events_model = Event
    event_columns = ("seq", "turn", "seat", "kind", "what happened", "created", "hash", "replay")
    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return (
            super()
            .get_queryset(request)
            .select_related("creator")
            .prefetch_related("seats__user")
            .annotate(
                latest_turn=Max("events__turn"),
                latest_event=Max("events__created_at"),
                event_count=Count("events"),
            )
        )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # games are opened by players, through the API

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a game changes only through its events

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # its events are append-only: the database would refuse it every time

    @admin.display(description="result")
    def result(self, game: Game) -> str:
        """Each seat's player and total, the winners marked (ASTRA's total in a solo game);
        before the result, who plays each seat."""
        state, _ = snapshots.current(game=game)
        players = {seat.index: seat.player for seat in game.seats.all()}
        if state.result is None:
            listed = ", ".join(f"seat {index}: {name}" for index, name in players.items())
            return f"no result yet ({game.status}): {listed}" if listed else f"no result yet ({game.status})"
        winners = state.result["winners"]
        rows = [
            (seat, players.get(seat, "?"), score["total"], "winner" if seat in winners else "")
            for score in state.result["scores"]
            for seat in [score["seat"]]
        ]
        astra = state.result.get("astra")
        if astra is not None:
            rows.append(("\u2014", "ASTRA", astra["total"], "winner" if "astra" in winners else ""))
        body = format_html_join(
            "", "<tr><td>{}</td><td>{}</td><td>{}</td><td><strong>{}</strong></td></tr>", rows
        )
        return format_html(
            '<table id="game-result"><thead><tr><th>seat</th><th>player</th><th>total</th><th></th>'
            "</tr></thead><tbody>{}</tbody></table>",
            body,
        )

    @admin.display(description="resigned seats")
    def resigned(self, game: Game) -> str:
        """The seats handed to a bot for the rest of the game (their player resigned, or let
        too many turns time out), each with its player."""
        state, _ = snapshots.current(game=game)
        players = {seat.index: seat.player for seat in game.seats.all()}
        handed = [
            f"seat {index}: {players.get(index, '?')}"
            for index, seat in enumerate(state.seats)
            if seat.resigned
        ]
        return ", ".join(handed) + " (played by a bot)" if handed else "none"

    @admin.display(description="events")
    def events(self, game: Game) -> str:
        count = game.event_count  # type: ignore[attr-defined]
        if not count:
            return "no events yet"
        return format_html(
            '<span id="game-events"><a class="events-list" href="{}">all {} events, a page at a '
            "time</a> (filter them by kind, seat and turn there)</span>",
            self.events_url(game),
            count,
        )

    def get_actions(self, request: HttpRequest) -> Any:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # always refused: see has_delete_permission
        return actions

    @admin.display(description="adventure", ordering="adventure")
    def adventure_name(self, game: Game) -> str:
        name = ADVENTURE_NAMES.get(game.adventure)
        return _unbroken(f"{game.adventure}. {name}" if name else str(game.adventure))

    @admin.display(description="players")
    def players(self, game: Game) -> str:
        return ", ".join(seat.player for seat in game.seats.all())

    @admin.display(description="turn", ordering="latest_turn")
    def turn(self, game: Game) -> int | None:
        return game.latest_turn  # type: ignore[attr-defined]

    @admin.display(description="last activity", ordering="latest_event")
    def last_activity(self, game: Game) -> str:
        latest = game.latest_event  # type: ignore[attr-defined]
        if not latest:
            return "\u2014"
        local = timezone.localtime(latest)
        return format_html("{}<br>{}", local.strftime("%Y-%m-%d"), local.strftime("%H:%M"))

    @admin.display(description="history")
    def history(self, game: Game) -> str:
        count = game.event_count  # type: ignore[attr-defined]
        if not count:
            return "no events yet"
        url = reverse("admin:games_game_history", args=[game.pk])
        return format_html('<a href="{}">step through {} events</a>', url, count)

    @admin.display(description="replay")
    def replay(self, game: Game) -> str:
        """The games list's short link to the viewer."""
        count = game.event_count  # type: ignore[attr-defined]
        if not count:
            return "\u2014"
        url = reverse("admin:games_game_history", args=[game.pk])
        title = "step through its events in the replay viewer"
        return format_html('<a href="{}" title="{}">{}</a>', url, title, _unbroken(f"{count} events"))

    def history_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """The replay viewer, at the admin's history address of a game (a game is never changed
        in the admin, so there is no change log to show there): every sheet as it stood right
        after event ``seq``, for staff. The "History" button of the game's page leads here."""
        game = self.get_object(request, object_id)
        if game is None:
            return self._get_obj_does_not_exist_redirect(  # type: ignore[attr-defined]
                request, self.opts, object_id
            )
        if not self.has_view_permission(request, game):
            raise PermissionDenied
        at = review.position(game=game, seq=request.GET.get("seq"), turn=request.GET.get("turn"))
        context = {
            **self.admin_site.each_context(request),
            **review.history_view(game=game, at=at),
            "opts": self.opts,
            "title": f"Game {game.pk}: history",
            "adventure_name": self.adventure_name(game),
            # the sheets take the width: the admin's navigation sidebar is left out here
            "is_nav_sidebar_enabled": False,
            **(extra_context or {}),
        }
        return TemplateResponse(request, "admin/games/game/history.html", context)

    @admin.action(description="Export the selected games' histories (JSON Lines)")
    def export_histories(self, request: HttpRequest, queryset: QuerySet[Game]) -> HttpResponseBase:
        games = list(queryset.order_by("pk"))
        if len(games) == 1:
            (game,) = games
            response = StreamingHttpResponse(
                history.history_lines(game=game), content_type="application/x-ndjson; charset=utf-8"
            )
            response["Content-Disposition"] = f'attachment; filename="{history.export_filename(game)}"'
            return response
        archive = io.BytesIO()
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as bundle:
            for game in games:
                bundle.writestr(history.export_filename(game), "".join(history.history_lines(game=game)))
        bundled = HttpResponse(archive.getvalue(), content_type="application/zip")
        bundled["Content-Disposition"] = 'attachment; filename="moon-games.zip"'
        return bundled

    def event_cells(self, stream: Game, event: Event) -> tuple[Any, ...]:
        """An event's row in the game's event log: its seat with who plays it, what happened
        in words, its hash as an export spells it, and a link to the sheets right after it."""
        seated = {seat.index: seat.player for seat in stream.seats.all()}
        seat = "\u2014" if event.seat is None else (
            f"{event.seat} ({seated[event.seat]})" if event.seat in seated else str(event.seat)
        )
        told = text(narration.narrate(engine.upcast(event.as_engine_event())))
        url = reverse("admin:games_game_history", args=[event.game_id])
        replay = format_html('<a href="{}?seq={}">sheets after it</a>', url, event.seq)
        hashed = format_html("<code>{}</code>", chain.hexed(event.hash))
        return (event.seq, event.turn, seat, event.kind, told, event.created_at, hashed, replay)
