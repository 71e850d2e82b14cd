"""Campaigns, their seats, their append-only log, the games of their chapters, and the content
packs they were created with.

A campaign's truth is its events (and, through them, its chapters' results); the rows beside
them hold what the lobby and the API need to find and lock a campaign quickly. Event rows are
never updated or deleted: database triggers refuse it (migration 0002), as for game events.
"""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from games.models import Game


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


class Campaign(models.Model):
    class Status(models.TextChoices):
        LOBBY = "lobby"
        PLAYING = "playing"
        BETWEEN = "between"
        FINISHED = "finished"

    pack = models.ForeignKey(Pack, on_delete=models.PROTECT, related_name="campaigns")
    max_players = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(6)]
    )
    astra_level = models.PositiveSmallIntegerField(null=True, blank=True)
    # the status the log gives, kept so that the lobby can list and refuse without a replay
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.LOBBY)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_campaigns"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(max_players__gte=1, max_players__lte=6),
                name="campaign_max_players_1_to_6",
            ),
        ]

    def __str__(self) -> str:
        return f"Campaign {self.pk} ({self.status})"


class CampaignSeat(models.Model):
    """A player of a campaign: the seat they hold in every chapter's game."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="campaign_seats"
    )
    index = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["campaign", "index"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "index"], name="campaign_seat_unique_index"),
            models.UniqueConstraint(fields=["campaign", "user"], name="campaign_seat_unique_user"),
        ]

    def __str__(self) -> str:
        return f"Campaign {self.campaign_id} seat {self.index}"


class CampaignEvent(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField()
    # the seat whose choice the event records; null for what the campaign does by itself
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=64)
    version = models.PositiveSmallIntegerField(default=1)
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["campaign", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "seq"], name="campaign_event_unique_seq"),
        ]

    def __str__(self) -> str:
        return f"Campaign {self.campaign_id} #{self.seq} {self.kind}"

    def as_rules_event(self) -> dict[str, object]:
        """The event as the campaign rules know it."""
        return {"kind": self.kind, "v": self.version, "seat": self.seat, "data": self.data}


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
