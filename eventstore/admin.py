from django.contrib import admin

from eventstore.models import FollowUp, IdempotencyRecord


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(admin.ModelAdmin):
    list_display = ("user", "key", "method", "path", "status_code", "created_at")


@admin.register(FollowUp)
class FollowUpAdmin(admin.ModelAdmin):
    """The outbox: follow-ups not done yet (eventstore/followups.py)."""

    list_display = ("stream", "stream_id", "kind", "version", "due_at", "retry_at", "attempts")
    list_filter = ("stream", "kind")
