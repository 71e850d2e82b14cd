"""The admin, for the staff who review campaigns: packs as loaded, campaigns with their seats and
chapter games, and their event logs, all read-only.

No one adds, changes or deletes any of them here, superusers included: a campaign changes only
through its events. A campaign's seed (what its bots' choices are drawn with) is never shown.
"""

import json
from typing import Any

from django.contrib import admin
from django.utils.html import format_html

from campaigns.models import Campaign, CampaignEvent, CampaignSeat, ChapterGame, Pack
from eventstore import chain
from games.admin import EventLog, ReadOnly, TableSeatInline


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
class CampaignAdmin(EventLog, ReadOnly, admin.ModelAdmin):
    list_display = (
        "id", "pack", "max_players", "astra_level", "status", "visibility", "creator", "created_at"
    )
    list_filter = ("status", "visibility", "pack__key")
    inlines = [CampaignSeatInline, ChapterGameInline]
    fields = (
        "pack", "max_players", "astra_level", "status", "visibility", "turn_seconds", "creator", "created_at",
        "events",
    )
    readonly_fields = fields
    events_model = CampaignEvent
    event_columns = ("seq", "seat", "kind", "data", "created", "hash")

    @admin.display(description="events")
    def events(self, campaign: Campaign) -> str:
        """A link to the campaign's event log (read-only, a page at a time)."""
        return format_html('<a class="events-list" href="{}">its events</a>', self.events_url(campaign))

    def event_cells(self, stream: Campaign, event: CampaignEvent) -> tuple[Any, ...]:
        """An event's row in the campaign's event log: its data as stored, its hash as an export
        spells it."""
        data = json.dumps(event.data, ensure_ascii=False, sort_keys=True)
        hashed = format_html("<code>{}</code>", chain.hexed(event.hash))
        seat = "\u2014" if event.seat is None else event.seat
        return (event.seq, seat, event.kind, data, event.created_at, hashed)

