"""The admin shows users' accounts and client tokens to the staff, and makes neither."""

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.models import Account, ClientToken

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff() -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("referee", password="secret-pw-9"))
    return client


def test_client_tokens_are_listed_never_shown_or_made(staff: Client, make_player: Any) -> None:
    make_player("ann")
    token = ClientToken.objects.get(user__username="ann")
    page = staff.get("/admin/accounts/clienttoken/").content.decode()
    assert token.digest[:12] in page
    assert staff.get("/admin/accounts/clienttoken/add/").status_code == 403
    assert staff.get("/admin/auth/user/").status_code == 200


def test_accounts_are_listed_never_made_changed_or_deleted(staff: Client, make_player: Any) -> None:
    make_player("Ann")
    account = Account.objects.get(user__username="Ann")
    assert "ann" in staff.get("/admin/accounts/account/").content.decode()
    assert staff.get("/admin/accounts/account/add/").status_code == 403
    assert staff.get(f"/admin/accounts/account/{account.pk}/delete/").status_code == 403
    page = staff.get(f"/admin/accounts/account/{account.pk}/change/").content.decode()
    assert 'name="name_key"' not in page  # shown, not an input
