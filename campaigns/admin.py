"""The admin, for the staff who review campaigns: packs as loaded, campaigns with their seats and
chapter games, and their event logs, all read-only.

No one adds, changes or deletes any of them here, superusers included: a campaign changes only
through its events. A campaign's seed (what its bots' choices are drawn with) is never shown.
"""

from django.contrib import admin

from campaigns.models import Campaign, CampaignEvent, CampaignSeat, ChapterGame, Pack
from games.admin import ReadOnly, TableSeatInline


@admin.register(Pack)
class PackAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("key", "version", "title", "content_hash", "recorded_at")
    search_fields = ("key", "title", "content_hash")


class CampaignSeatInline(TableSeatInline):
    model = CampaignSeat


class ChapterGameInline(ReadOnly, admin.TabularInline):
    model = ChapterGame
    extra = 0
    fields = ("chapter", "attempt", "game")
    readonly_fields = fields


@admin.register(Campaign)
class CampaignAdmin(ReadOnly, admin.ModelAdmin):
    list_display = (
        "id", "pack", "max_players", "astra_level", "status", "visibility", "creator", "created_at"
    )
    list_filter = ("status", "visibility", "pack__key")
    inlines = [CampaignSeatInline, ChapterGameInline]
    fields = (
        "pack", "max_players", "astra_level", "status", "visibility", "turn_seconds", "creator", "created_at"
    )
    readonly_fields = fields


@admin.register(CampaignEvent)
class CampaignEventAdmin(ReadOnly, admin.ModelAdmin):
    """Read-only: campaign events are append-only (the database refuses updates and deletes)."""

    list_display = ("campaign", "seq", "seat", "kind", "created_at")
    list_filter = ("kind",)
    search_fields = ("campaign__id",)
