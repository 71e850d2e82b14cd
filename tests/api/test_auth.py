"""Registration, tokens, and what an unauthenticated caller gets."""

import hashlib
import importlib
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.db.migrations.loader import MigrationLoader
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import services
from accounts.models import Account, ClientToken

pytestmark = pytest.mark.django_db


def test_register_returns_201_and_a_token_that_authenticates(anon: APIClient) -> None:
    response = anon.post(
        "/api/v1/auth/register", {"username": "zoe", "password": "secret-pw"}, format="json"
    )
    assert response.status_code == 201
    token = response.json()["token"]
    anon.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert anon.get("/api/v1/games").status_code == 200


def test_signing_in_issues_a_new_token_and_the_first_still_works(anon: APIClient) -> None:
    first = anon.post(
        "/api/v1/auth/register", {"username": "zoe", "password": "secret-pw"}, format="json"
    ).json()["token"]
    response = anon.post(
        "/api/v1/auth/token", {"username": "zoe", "password": "secret-pw"}, format="json"
    )
    assert response.status_code == 200
    second = response.json()["token"]
    assert second != first
    for token in (first, second):
        anon.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        assert anon.get("/api/v1/games").status_code == 200


def test_token_refuses_a_wrong_password(anon: APIClient, alice: APIClient) -> None:
    response = anon.post(
        "/api/v1/auth/token", {"username": "alice", "password": "nope-nope"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_credentials"


def test_register_refuses_a_taken_username(anon: APIClient, alice: APIClient) -> None:
    response = anon.post(
        "/api/v1/auth/register", {"username": "alice", "password": "secret-pw"}, format="json"
    )
    assert response.status_code == 409
    assert response.json()["code"] == "username_taken"


@pytest.mark.parametrize(
    "body",
    [{}, {"username": "x"}, {"username": "", "password": "secret-pw"},
     {"username": "a b", "password": "secret-pw"}, {"username": "zoe", "password": "123"},
     {"username": ["zoe"], "password": "secret-pw"}],
)
def test_register_validates_its_body(anon: APIClient, body: dict) -> None:
    response = anon.post("/api/v1/auth/register", body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_request"
    assert "errors" in response.json()


def test_malformed_json_is_a_400(anon: APIClient) -> None:
    response = anon.post("/api/v1/auth/register", "{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "malformed_request"


def test_a_json_array_body_is_a_400(anon: APIClient) -> None:
    response = anon.post("/api/v1/auth/register", [1, 2], format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_request"


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/v1/games"),
        ("post", "/api/v1/games"),
        ("get", "/api/v1/games/1"),
        ("post", "/api/v1/games/1/join"),
        ("post", "/api/v1/games/1/start"),
        ("get", "/api/v1/games/1/decision"),
        ("post", "/api/v1/games/1/moves"),
        ("post", "/api/v1/games/1/undo"),
        ("post", "/api/v1/games/1/confirm"),
        ("get", "/api/v1/games/1/sheets/0"),
        ("get", "/api/v1/games/1/events"),
        ("get", "/api/v1/games/1/replay?seq=1"),
    ],
)
def test_unauthenticated_calls_get_401(anon: APIClient, method: str, path: str) -> None:
    response = getattr(anon, method)(path)
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
    assert response.json()["detail"]


def test_a_bad_token_gets_401(anon: APIClient) -> None:
    anon.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = anon.get("/api/v1/games")
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"


def test_schema_and_docs_are_served(anon: APIClient) -> None:
    schema = anon.get("/api/v1/schema", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    for path in ("/api/v1/games/{game_id}/moves", "/api/v1/games/{game_id}/events",
                 "/api/v1/games/{game_id}/replay", "/api/v1/auth/register"):
        assert path in paths
    assert anon.get("/api/v1/docs").status_code == 200


def test_unknown_paths_and_methods_answer_json(alice: APIClient) -> None:
    missing = alice.get("/api/v1/nothing/here")
    assert missing.status_code == 404
    assert missing.json()["code"] == "not_found"
    wrong_method = alice.delete("/api/v1/games")
    assert wrong_method.status_code == 405
    assert wrong_method.json()["code"] == "method_not_allowed"


def test_the_openapi_schema_is_valid_and_complete() -> None:
    from django.core.management import call_command

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", "/dev/null")


@pytest.mark.parametrize(
    ("username", "password"),
    [
        ("zoe", "aaaaaa"),
        ("zoe", "      "),
        ("zoe", "12345678"),
        ("zoe", "password"),
        ("zoe-the-player", "zoe-the-player"),
    ],
)
def test_weak_passwords_are_refused(anon: APIClient, username: str, password: str) -> None:
    response = anon.post(
        "/api/v1/auth/register", {"username": username, "password": password}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] in ("weak_password", "invalid_request")
    assert not User.objects.filter(username=username).exists()


def _register(client: APIClient, username: str) -> Any:
    return client.post(
        "/api/v1/auth/register", {"username": username, "password": "secret-pw"}, format="json"
    )


FULLWIDTH_ANN = "\uff21\uff2e\uff2e"


@pytest.mark.parametrize("other", ["ANN", "Ann", FULLWIDTH_ANN, FULLWIDTH_ANN.lower()])
def test_a_name_differing_only_by_case_or_unicode_form_is_taken(anon: APIClient, other: str) -> None:
    assert _register(anon, "ann").status_code == 201
    response = _register(anon, other)
    assert response.status_code == 409, other
    assert response.json()["code"] == "username_taken"
    assert User.objects.count() == 1


def test_non_ascii_names_fold_on_every_database(anon: APIClient) -> None:
    assert _register(anon, "Ännchen").status_code == 201
    assert _register(anon, "ännchen").json()["code"] == "username_taken"
    # and sign-in takes the name in any of its forms
    for form in ("Ännchen", "ÄNNCHEN", "ännchen"):
        response = anon.post(
            "/api/v1/auth/token", {"username": form, "password": "secret-pw"}, format="json"
        )
        assert response.status_code == 200, form


def test_the_database_refuses_two_accounts_with_one_name_key(anon: APIClient) -> None:
    assert _register(anon, "ann").status_code == 201
    other = User.objects.create_user("someone-else", password="secret-pw")
    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.create(user=other, name_key="ann")


def test_signing_out_revokes_the_token_in_use(anon: APIClient) -> None:
    token = _register(anon, "zoe").json()["token"]
    anon.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert anon.post("/api/v1/auth/logout").status_code == 204
    response = anon.get("/api/v1/games")
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"
    fresh = anon.post(
        "/api/v1/auth/token", {"username": "zoe", "password": "secret-pw"}, format="json"
    ).json()["token"]
    assert fresh != token
    anon.credentials(HTTP_AUTHORIZATION=f"Token {fresh}")
    assert anon.get("/api/v1/games").status_code == 200


def test_signing_out_needs_a_token(anon: APIClient) -> None:
    response = anon.post("/api/v1/auth/logout")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_a_token_past_its_lifetime_is_refused_and_signing_in_issues_a_new_one(
    anon: APIClient, settings: Any
) -> None:
    settings.TOKEN_LIFETIME_DAYS = 30
    token = _register(anon, "zoe").json()["token"]
    anon.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    stored = ClientToken.objects.filter(digest=services.token_digest(token))
    issued = stored.get().created
    stored.update(created=issued - timedelta(days=29))
    assert anon.get("/api/v1/games").status_code == 200
    stored.update(created=issued - timedelta(days=31))
    response = anon.get("/api/v1/games")
    assert response.status_code == 401
    assert response.json()["code"] == "token_expired"
    fresh = anon.post(
        "/api/v1/auth/token", {"username": "zoe", "password": "secret-pw"}, format="json"
    ).json()["token"]
    assert fresh != token
    anon.credentials(HTTP_AUTHORIZATION=f"Token {fresh}")
    assert anon.get("/api/v1/games").status_code == 200


def _sign_in(client: APIClient, username: str) -> str:
    response = client.post(
        "/api/v1/auth/token", {"username": username, "password": "secret-pw"}, format="json"
    )
    assert response.status_code == 200, response.content
    return str(response.json()["token"])


def test_each_sign_in_is_a_client_that_signs_out_alone(anon: APIClient) -> None:
    _register(anon, "zoe")
    phone, laptop = APIClient(), APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Token {_sign_in(anon, 'zoe')}")
    laptop.credentials(HTTP_AUTHORIZATION=f"Token {_sign_in(anon, 'zoe')}")
    assert phone.post("/api/v1/auth/logout").status_code == 204
    assert phone.get("/api/v1/games").status_code == 401
    assert laptop.get("/api/v1/games").status_code == 200


def test_only_a_digest_of_a_token_is_stored(anon: APIClient) -> None:
    token = _register(anon, "zoe").json()["token"]
    (stored,) = ClientToken.objects.filter(user__username="zoe")
    assert stored.digest != token and len(stored.digest) == 64
    assert stored.digest == hashlib.sha256(token.encode()).hexdigest()


def test_past_the_most_clients_the_oldest_token_is_revoked(anon: APIClient, settings: Any) -> None:
    settings.MAX_CLIENT_TOKENS = 3
    first = _register(anon, "zoe").json()["token"]
    later = [_sign_in(anon, "zoe") for _ in range(3)]
    assert ClientToken.objects.filter(user__username="zoe").count() == 3
    anon.credentials(HTTP_AUTHORIZATION=f"Token {first}")
    assert anon.get("/api/v1/games").status_code == 401
    for token in later:
        anon.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        assert anon.get("/api/v1/games").status_code == 200


def test_a_token_of_a_deactivated_user_is_refused(anon: APIClient) -> None:
    token = _register(anon, "zoe").json()["token"]
    User.objects.filter(username="zoe").update(is_active=False)
    anon.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert anon.get("/api/v1/games").status_code == 401


def test_tokens_issued_before_client_tokens_keep_working(anon: APIClient) -> None:
    carry_over = importlib.import_module("games.migrations.0010_client_token").carry_over_tokens
    user = User.objects.create_user("old-timer", password="secret-pw")
    key = "0123456789abcdef0123456789abcdef01234567"
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, user_id integer, created timestamp)"
        )
        cursor.execute(
            "INSERT INTO authtoken_token VALUES (%s, %s, %s)", [key, user.pk, timezone.now()]
        )
    then = MigrationLoader(connection).project_state(("games", "0010_client_token")).apps
    carry_over(then, SimpleNamespace(connection=connection))
    # and, as `migrate` runs it next, the stamp of the user's password (accounts' 0002)
    stamp = importlib.import_module("accounts.migrations.0002_client_token_password_stamp").stamp_tokens
    stamp(MigrationLoader(connection).project_state(("accounts", "0002_client_token_password_stamp")).apps,
          SimpleNamespace(connection=connection))
    anon.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert anon.get("/api/v1/games").status_code == 200


@pytest.mark.parametrize(
    "username",
    [
        "\ufdfa" * 9,  # 9 characters sent, 162 once NFKC-normalised (past 150)
        "\ufdfa",  # one character, which normalises to words with spaces
        "\ufb00" * 76,  # the ligature ff: 76 characters sent, 152 once normalised
    ],
)
def test_a_username_is_checked_once_normalised(anon: APIClient, username: str) -> None:
    response = _register(anon, username)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "invalid_username"
    assert not User.objects.exists()


def test_a_name_that_normalises_within_the_limits_is_taken_as_normalised(anon: APIClient) -> None:
    assert _register(anon, "\u2460" * 150).status_code == 201
    assert User.objects.get().username == "1" * 150


def test_a_changed_password_revokes_every_token_of_the_account(anon: APIClient) -> None:
    _register(anon, "zoe")
    phone, laptop = APIClient(), APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Token {_sign_in(anon, 'zoe')}")
    laptop.credentials(HTTP_AUTHORIZATION=f"Token {_sign_in(anon, 'zoe')}")
    user = User.objects.get(username="zoe")
    user.set_password("another-secret")  # as the admin's and `changepassword`'s forms do
    user.save()
    for client in (phone, laptop):
        response = client.get("/api/v1/games")
        assert (response.status_code, response.json()["code"]) == (401, "authentication_failed")
    fresh = anon.post(
        "/api/v1/auth/token", {"username": "zoe", "password": "another-secret"}, format="json"
    ).json()["token"]
    anon.credentials(HTTP_AUTHORIZATION=f"Token {fresh}")
    assert anon.get("/api/v1/games").status_code == 200
    assert ClientToken.objects.filter(user=user).count() == 1  # the stale ones were dropped


def test_a_password_changed_in_the_admin_revokes_every_token(anon: APIClient) -> None:
    token = _register(anon, "zoe").json()["token"]
    admin = User.objects.create_superuser("root", password="root-secret-pw")
    staff = APIClient()
    staff.force_login(admin)
    user = User.objects.get(username="zoe")
    changed = staff.post(
        f"/admin/auth/user/{user.pk}/password/",
        {"password1": "another-secret", "password2": "another-secret", "usable_password": "true"},
    )
    assert changed.status_code == 302, changed.content
    anon.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert anon.get("/api/v1/games").status_code == 401


def test_signing_out_everywhere_revokes_every_token_of_the_account(anon: APIClient) -> None:
    _register(anon, "zoe")
    other = _register(APIClient(), "yan").json()["token"]
    phone, laptop = APIClient(), APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Token {_sign_in(anon, 'zoe')}")
    laptop.credentials(HTTP_AUTHORIZATION=f"Token {_sign_in(anon, 'zoe')}")
    assert phone.post("/api/v1/auth/logout-all").status_code == 204
    for client in (phone, laptop):
        assert client.get("/api/v1/games").status_code == 401
    assert not ClientToken.objects.filter(user__username="zoe").exists()
    anon.credentials(HTTP_AUTHORIZATION=f"Token {other}")  # another account stays signed in
    assert anon.get("/api/v1/games").status_code == 200
    assert APIClient().post("/api/v1/auth/logout-all").status_code == 401
