from django.contrib import admin

from games.models import Event, Game, IdempotencyRecord, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "adventure", "max_players", "status", "creator", "created_at")
    list_filter = ("status", "adventure")
    inlines = [SeatInline]
    exclude = ("seed",)


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    """Read-only: events are append-only (the database refuses updates and deletes)."""

    list_display = ("game", "seq", "turn", "seat", "kind", "created_at")
    list_filter = ("kind",)
    search_fields = ("game__id",)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(admin.ModelAdmin):
    list_display = ("user", "key", "method", "path", "status_code", "created_at")
