"""Campaigns, their seats, their append-only log, the games of their chapters, and the content
packs they were created with.

A campaign's truth is its events (and, through them, its chapters' results); the rows beside
them hold what the lobby and the API need to find and lock a campaign quickly. Event rows are
never updated or deleted, and are hash-chained, as game events are (eventstore/models.py).
"""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from eventstore.models import StoredEvent
from games.models import Game, Table, TableSeat, players_1_to_6


class Pack(models.Model):
    """One content pack as loaded: its id, version and content, kept by content hash so that a
    campaign plays the pack it was created with whatever later happens to the file."""

    key = models.CharField(max_length=64, help_text="The pack's id, e.g. open.")
    version = models.CharField(max_length=64)
    title = models.CharField(max_length=200)
    content_hash = models.CharField(max_length=64, unique=True)
    content = models.JSONField()
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["key", "-recorded_at"]

    def __str__(self) -> str:
        return f"{self.key} {self.version} ({self.content_hash[:12]})"


class Campaign(Table):
    pack = models.ForeignKey(Pack, on_delete=models.PROTECT, related_name="campaigns")

    class Status(models.TextChoices):
        LOBBY = "lobby"
        PLAYING = "playing"
        BETWEEN = "between"
        FINISHED = "finished"

    # a solo campaign's starting ASTRA level (the cards in effect move it chapter by chapter)
    astra_level = models.PositiveSmallIntegerField(null=True, blank=True)
    # the status the log gives, kept so that the lobby can list and refuse without a replay
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.LOBBY)
    # what the bot seats' campaign choices are drawn with (never shown, as a game's seed)
    seed = models.BigIntegerField()

    class Meta:
        ordering = ["-id"]
        constraints = [
            players_1_to_6("campaign"),
            models.CheckConstraint(
                condition=models.Q(max_players=1, astra_level__gte=1, astra_level__lte=8)
                | models.Q(max_players__gt=1, astra_level__isnull=True),
                name="campaign_astra_level_1_to_8_solo_only",
            ),
        ]

    def __str__(self) -> str:
        return f"Campaign {self.pk} ({self.status})"


class CampaignSeat(TableSeat):
    """A seat of a campaign, held in every chapter's game (a bot's: a worker plays its turns in
    each chapter's game and makes its choices between chapters)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="seats")

    class Meta:
        ordering = ["campaign", "index"]
        constraints = TableSeat.constraints("campaign", "campaign_seat")

    def __str__(self) -> str:
        bot = f" ({self.bot} bot)" if self.bot else ""
        return f"Campaign {self.campaign_id} seat {self.index}{bot}"


class CampaignEvent(StoredEvent):
    """A campaign's event: the common stored event (its seat: the seat whose choice it records,
    null for what the campaign does by itself)."""

    STREAM = "campaign"

    # The key: a campaign's events are numbered 1, 2, 3... (the last guard against a lost race).
    pk = models.CompositePrimaryKey("campaign", "seq")
    # indexed by the primary key, which leads with it
    campaign = models.ForeignKey(Campaign, on_delete=models.PROTECT, related_name="events", db_index=False)

    class Meta:
        ordering = ["campaign", "seq"]

    def __str__(self) -> str:
        return f"Campaign {self.campaign_id} #{self.seq} {self.kind}"


class ChapterGame(models.Model):
    """The game an attempt of a chapter is played in: how a finished game finds its campaign."""

    campaign = models.ForeignKey(Campaign, on_delete=models.PROTECT, related_name="chapter_games")
    chapter = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(8)]
    )
    attempt = models.PositiveSmallIntegerField()
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="chapter")

    class Meta:
        ordering = ["campaign", "chapter", "attempt"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "chapter", "attempt"], name="chapter_game_unique_attempt"
            ),
        ]

    def __str__(self) -> str:
        return f"Campaign {self.campaign_id} chapter {self.chapter} attempt {self.attempt}"
