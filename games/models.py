"""Games, seats and the append-only event log.

A game's truth is its events; everything else here (status, seats) is what the lobby and the
API need to find and lock a game quickly. Event rows are never updated or deleted: database
triggers refuse it, and each carries a hash chained to the one before it (the event store,
eventstore/models.py).
"""

import secrets
from typing import cast

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from eventstore.models import StoredEvent
from games.rules.engine import PLAYABLE
from games.rules.engine import Event as EngineEvent

MIN_TURN_SECONDS = 30
MAX_TURN_SECONDS = 86_400


class Visibility(models.TextChoices):
    PRIVATE = "private"
    PUBLIC = "public"


def new_invite() -> str:
    """A table's invite code: unguessable, sent to whoever is invited."""
    return secrets.token_urlsafe(16)


class Table(models.Model):
    """What a game and a campaign share as the lobby sees them: the seats they are for, who
    opened them, when; their status and seats are each their own."""

    # A 4-byte id, as the users' are: every event row and its key carry it (2^31 tables is far
    # beyond what one database holds of their events).
    id = models.AutoField(primary_key=True)
    max_players = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(6)]
    )
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_%(class)ss"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # "lobby" until it starts; each kind of table names its other statuses (its Status)
    status = models.CharField(max_length=16, default="lobby")
    # A public table is listed in the lobby and joined by anyone; a private one only with its
    # invite (ids are sequential: they are no secret).
    visibility = models.CharField(max_length=8, choices=Visibility.choices, default=Visibility.PRIVATE)
    invite = models.CharField(max_length=32, default=new_invite, editable=False)
    # The seconds each seat has for a turn (and for a phase 5 or phase 6 choice) before a worker
    # plays it for them; null: no deadline.
    turn_seconds = models.PositiveIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(MIN_TURN_SECONDS), MaxValueValidator(MAX_TURN_SECONDS)],
    )

    class Meta:
        abstract = True


def players_1_to_6(prefix: str) -> models.CheckConstraint:
    """The database's own check that a table is for 1 to 6 players."""
    return models.CheckConstraint(
        condition=models.Q(max_players__gte=1, max_players__lte=6), name=f"{prefix}_max_players_1_to_6"
    )


class TableSeat(models.Model):
    """A seat at a table: a user's, or a bot's (no user; ``bot`` names how it plays, and a
    worker plays its turns)."""

    class Bot(models.TextChoices):
        RANDOM = "random"
        GREEDY = "greedy"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    bot = models.CharField(max_length=16, choices=Bot.choices, blank=True, default="")
    index = models.PositiveSmallIntegerField()

    class Meta:
        abstract = True

    @property
    def player(self) -> str:
        """Who plays the seat, as a reader names them: the username, or the bot's kind."""
        return self.user.get_username() if self.user is not None else f"{self.bot} bot"

    @staticmethod
    def constraints(table: str, prefix: str) -> list[models.BaseConstraint]:
        """The database's own checks of a table's seats: one per index, one per user, and
        either a user's or a bot's."""
        return [
            models.UniqueConstraint(fields=[table, "index"], name=f"{prefix}_unique_index"),
            models.UniqueConstraint(fields=[table, "user"], name=f"{prefix}_unique_user"),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False, bot="")
                | models.Q(user__isnull=True, bot__in=TableSeat.Bot.values),
                name=f"{prefix}_user_or_bot",
            ),
        ]


class Game(Table):
    class Status(models.TextChoices):
        LOBBY = "lobby"
        PLAYING = "playing"
        SCORING = "scoring"
        FINISHED = "finished"

    adventure = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(8)]
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.LOBBY)
    seed = models.BigIntegerField(null=True, blank=True)
    # A solo game against ASTRA: the opponent's level (1 = easiest). Null for a multiplayer
    # game, and for one-player games created before ASTRA was played (multiplayer rules alone).
    astra_level = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            players_1_to_6("game"),
            models.CheckConstraint(
                condition=models.Q(astra_level__isnull=True)
                | models.Q(max_players=1, astra_level__gte=1, astra_level__lte=8),
                name="game_astra_level_1_to_8_solo_only",
            ),
        ]

    def __str__(self) -> str:
        named = PLAYABLE.get(self.adventure)
        adventure = named.name if named is not None else f"adventure {self.adventure}"
        return f"Game {self.pk} ({adventure}, {self.status})"


class Seat(TableSeat):
    """A seat of a game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")

    class Meta:
        ordering = ["game", "index"]
        constraints = TableSeat.constraints("game", "seat")

    def __str__(self) -> str:
        return f"Game {self.game_id} seat {self.index}" + (f" ({self.bot} bot)" if self.bot else "")


class Event(StoredEvent):
    """A game's event: the common stored event, with the turn it belongs to."""

    STREAM = "game"
    OWN_FIELDS = ("turn",)

    # The key: a game's events are numbered 1, 2, 3... (the last guard against a lost race).
    pk = models.CompositePrimaryKey("game", "seq")
    # indexed by the primary key, which leads with it
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events", db_index=False)
    turn = models.PositiveSmallIntegerField(default=0)

    class Meta:
        # No index on turn: a turn's events are found by the key (games/hot_queries.py, START).
        ordering = ["game", "seq"]

    def __str__(self) -> str:
        return f"Game {self.game_id} #{self.seq} {self.kind}"

    def as_engine_event(self) -> EngineEvent:
        """The event as the rules engine knows it."""
        return cast(EngineEvent, self.as_stored())


class GameSnapshot(models.Model):
    """A game's state folded up to event ``seq``, so that a request replays only the events
    after it. Written in the transaction that appends; the log stays the truth, and a snapshot
    written by another version of the engine is never read (see ``games/snapshots.py``)."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="snapshot"
    )
    seq = models.PositiveIntegerField()
    engine_version = models.CharField(max_length=64)
    state = models.JSONField()
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Game {self.game_id} at #{self.seq}"
