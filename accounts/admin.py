"""Users' accounts and client tokens, for the staff: shown, never made here (signing up and
signing in make them)."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from accounts.models import Account, ClientToken


@admin.register(ClientToken)
class ClientTokenAdmin(admin.ModelAdmin):
    """A user's API tokens, one per signed-in client: only digests are stored, so a token is
    never shown; deleting one signs that client out."""

    list_display = ("user", "created", "short_digest")
    list_filter = (("created", admin.DateFieldListFilter),)
    search_fields = ("user__username",)
    readonly_fields = ("user", "digest", "created")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # tokens are issued by signing in

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="digest")
    def short_digest(self, token: ClientToken) -> str:
        return token.digest[:12]


@admin.register(Account)
class AccountAdmin(admin.ModelAdmin):
    """Shown, never added, changed or deleted from the admin, whoever asks."""

    list_display = ("user", "name_key")
    search_fields = ("name_key", "user__username")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
