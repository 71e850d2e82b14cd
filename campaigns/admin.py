from django.contrib import admin

from campaigns.models import Campaign, CampaignEvent, CampaignSeat, ChapterGame, Pack


class ReadOnly(admin.ModelAdmin):
    """What is stored forever (events, packs as loaded): shown, never edited here."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Pack)
class PackAdmin(ReadOnly):
    list_display = ("key", "version", "title", "content_hash", "recorded_at")
    search_fields = ("key", "title", "content_hash")


class CampaignSeatInline(admin.TabularInline):
    model = CampaignSeat
    extra = 0


class ChapterGameInline(admin.TabularInline):
    model = ChapterGame
    extra = 0
    readonly_fields = ("chapter", "attempt", "game")

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ("id", "pack", "max_players", "astra_level", "status", "creator", "created_at")
    list_filter = ("status", "pack__key")
    inlines = [CampaignSeatInline, ChapterGameInline]


@admin.register(CampaignEvent)
class CampaignEventAdmin(ReadOnly):
    """Read-only: campaign events are append-only (the database refuses updates and deletes)."""

    list_display = ("campaign", "seq", "seat", "kind", "created_at")
    list_filter = ("kind",)
    search_fields = ("campaign__id",)
