from django.contrib import admin

from eventstore.models import IdempotencyRecord


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(admin.ModelAdmin):
    list_display = ("user", "key", "method", "path", "status_code", "created_at")
