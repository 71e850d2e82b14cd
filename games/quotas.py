"""Quotas: how much one account may set the server to do, so that a few accounts cannot crowd
out everyone else (bot games fill the workers' queue and delay every ASTRA turn), leave lobbies
open forever, or grow a log without end (moving and undoing within one turn).

Each limit is a setting read from the environment (moon/settings.py, README "Configuration");
0 turns it off. Refused, a command changes nothing:

- 409 ``too_many_open_lobbies``: opening a game or a campaign past QUOTA_OPEN_LOBBIES lobbies
  (unexpired, not started) that the account opened;
- 429 ``games_per_hour_exceeded``: starting a game or a campaign past QUOTA_GAMES_PER_HOUR games
  started for the account in the last hour (a campaign's chapter games count, and are never
  refused: a campaign under way goes on);
- 429 ``bot_games_per_hour_exceeded``: the same for games with a bot seat
  (QUOTA_BOT_GAMES_PER_HOUR);
- 409 ``undo_limit_reached``: undoing past QUOTA_UNDOS_PER_TURN undos of one seat in one turn;
- 409 ``lobby_expired``: joining, filling or starting a table whose lobby is older than
  LOBBY_LIFETIME_HOURS.

Lobbies expire lazily, on read: nothing changes the stored table; once older than the lifetime,
a table still in the lobby is no longer listed, counted or joinable (``expired``,
``unexpired``), so no sweeper is needed.
"""

from datetime import datetime, timedelta
from typing import TypeVar

from django.apps import apps
from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Q, QuerySet
from django.utils import timezone

from eventstore.errors import Conflict, TooMany
from games.models import Event, Game, Table

LOBBY = "lobby"
GAME_STARTED = "game_started"
UNDO = "undo"

T = TypeVar("T", bound=Table)


def lobby_cutoff() -> datetime | None:
    """When a lobby opened before this has expired; None when lobbies never expire."""
    hours = settings.LOBBY_LIFETIME_HOURS
    return timezone.now() - timedelta(hours=hours) if hours else None


def expired(table: Table) -> bool:
    """Whether ``table`` is a lobby older than LOBBY_LIFETIME_HOURS."""
    cutoff = lobby_cutoff()
    if table.status != LOBBY or cutoff is None:
        return False
    return table.created_at < cutoff


def unexpired(tables: QuerySet[T]) -> QuerySet[T]:
    """``tables`` without the expired lobbies: what any listing of tables shows."""
    cutoff = lobby_cutoff()
    return tables if cutoff is None else tables.exclude(Q(status=LOBBY) & Q(created_at__lt=cutoff))


def refuse_expired(table: Table) -> None:
    """Refuse to seat anyone at, or start, an expired lobby."""
    if expired(table):
        what = table._meta.model_name
        raise Conflict(
            "lobby_expired",
            "This %(what)s was opened more than %(lobby_lifetime_hours)s h ago and never started: its "
            "lobby has expired. Open a new %(what)s.",
            what=what,
            lobby_lifetime_hours=settings.LOBBY_LIFETIME_HOURS,
        )


def check_open_lobbies(*, by: User) -> None:
    """Refuse a new lobby to an account that has QUOTA_OPEN_LOBBIES open (games and campaigns
    alike)."""
    limit = settings.QUOTA_OPEN_LOBBIES
    if not limit:
        return
    # every kind of table (a game, a campaign) counts, without this app knowing them all
    tables = [model for model in apps.get_models() if issubclass(model, Table)]
    count = sum(
        unexpired(model._default_manager.filter(creator=by, status=LOBBY)).count() for model in tables
    )
    if count >= limit:
        raise Conflict(
            "too_many_open_lobbies",
            "You have %(count)s lobbies open, the most an account may have: start one, or wait for one to "
            "expire (%(lobby_lifetime_hours)s h after it was opened).",
            count=count,
            lobby_lifetime_hours=settings.LOBBY_LIFETIME_HOURS,
        )


def check_starts(*, by: User, with_bots: bool) -> None:
    """Refuse to start a game (``with_bots``: one with a bot seat) for an account that started
    QUOTA_GAMES_PER_HOUR games (QUOTA_BOT_GAMES_PER_HOUR with a bot seat) in the last hour."""
    started = Event.objects.filter(
        kind=GAME_STARTED, actor_id=by.pk, created_at__gte=timezone.now() - timedelta(hours=1)
    )
    limit = settings.QUOTA_GAMES_PER_HOUR
    if limit and started.count() >= limit:
        raise TooMany(
            "games_per_hour_exceeded",
            "You started %(limit)s games in the last hour, the most an account may: try again later.",
            limit=limit,
        )
    bot_limit = settings.QUOTA_BOT_GAMES_PER_HOUR
    if with_bots and bot_limit:
        with_bot_seats = Game.objects.filter(
            pk__in=started.values("game_id"), seats__bot__gt=""
        ).distinct()
        if with_bot_seats.count() >= bot_limit:
            raise TooMany(
                "bot_games_per_hour_exceeded",
                "You started %(bot_limit)s games with bots in the last hour, the most an account may (bots "
                "play on the server's workers): try again later.",
                bot_limit=bot_limit,
            )


def check_undo(*, game_id: int, seat: int, turn: int) -> None:
    """Refuse an undo to a seat that undid QUOTA_UNDOS_PER_TURN times in this turn."""
    limit = settings.QUOTA_UNDOS_PER_TURN
    if not limit:
        return
    undone = Event.objects.filter(game_id=game_id, turn=turn, seat=seat, kind=UNDO).count()
    if undone >= limit:
        raise Conflict(
            "undo_limit_reached",
            "You undid your turn %(undone)s times, the most a seat may in one turn: play it and confirm.",
            undone=undone,
        )
