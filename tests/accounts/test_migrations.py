"""Accounts and client tokens moved from the games app to this one with their rows: a database
migrated before the move keeps every account and token, which go on working, and the staff's
permissions on them."""

import hashlib

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from rest_framework.test import APIClient

from accounts import services
from accounts.models import Account, ClientToken
from tests.migrations import migrate_back_to_the_end

# transactional, its tables emptied past the append-only triggers when it ends
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("emptied_log")]

# before the move: games as its last migration left it, and no migration of the accounts app
GAMES_BEFORE = ("games", "0012_event_hash_chain")


def test_accounts_and_tokens_stored_before_the_move_are_kept(anon: APIClient) -> None:
    key = "0123456789abcdef0123456789abcdef01234567"
    after = MigrationExecutor(connection).loader.graph.leaf_nodes()
    MigrationExecutor(connection).migrate([GAMES_BEFORE, ("accounts", None)])
    try:
        old = MigrationExecutor(connection).loader.project_state(GAMES_BEFORE).apps
        user = old.get_model("auth", "User").objects.create(username="Old-Timer")
        old.get_model("games", "Account").objects.create(user=user, name_key="old-timer")
        token = old.get_model("games", "ClientToken").objects.create(
            user=user, digest=hashlib.sha256(key.encode()).hexdigest()
        )
        may_view_tokens = old.get_model("auth", "Permission").objects.get(
            content_type__app_label="games", codename="view_clienttoken"
        )
        user.user_permissions.add(may_view_tokens)
    finally:
        migrate_back_to_the_end(after)

    assert Account.objects.get(user_id=user.pk).name_key == "old-timer"
    assert list(ClientToken.objects.values_list("pk", "user_id")) == [(token.pk, user.pk)]
    assert services.authenticate_token(key=key) == ClientToken.objects.get(pk=token.pk)
    assert User.objects.get(pk=user.pk).has_perm("accounts.view_clienttoken")
    anon.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert anon.get("/api/v1/games").status_code == 200
