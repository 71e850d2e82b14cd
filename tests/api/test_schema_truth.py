"""The schema says what is enforced and what is sent: request types are taken as declared (no
`"1"` for a number), and refusals carry the statuses and bodies the schema lists."""

import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from api.serializers import USERNAME_SCHEMA_PATTERN, CredentialsSerializer
from games.models import Event, Game
from tests.api.openapi_check import CheckedClient, load


@pytest.mark.parametrize(
    "body",
    [
        {"adventure": "1", "max_players": 2},
        {"adventure": 1.0, "max_players": 2},
        {"adventure": True, "max_players": 2},
        {"adventure": 1, "max_players": "2"},
    ],
)
def test_a_number_sent_as_a_string_float_or_boolean_is_refused(
    alice: APIClient, post: Any, body: dict[str, Any]
) -> None:
    checked = CheckedClient(alice, load(alice), post)
    response = checked.post("/api/v1/games", body)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_request"
    assert Game.objects.count() == 0


@pytest.mark.parametrize("field", ["username", "password"])
def test_credentials_must_be_strings(anon: APIClient, post: Any, field: str) -> None:
    body: dict[str, Any] = {"username": "zoe", "password": "secret-pw-9"}
    body[field] = 12345678
    checked = CheckedClient(anon, load(anon), post)
    response = checked.post("/api/v1/auth/register", body)
    assert response.status_code == 400
    assert field in response.json()["errors"]


@pytest.mark.parametrize("choice", ["write", 3, ["a"], None])
def test_a_choice_must_be_an_object(playing_game: int, alice: APIClient, post: Any, choice: Any) -> None:
    checked = CheckedClient(alice, load(alice), post)
    events = Event.objects.count()
    response = checked.post(f"/api/v1/games/{playing_game}/moves", {"choice": choice})
    assert response.status_code == 400
    assert "choice" in response.json()["errors"]
    assert Event.objects.count() == events


def test_the_schema_declares_typed_requests(anon: APIClient) -> None:
    schema = load(anon).schema
    bodies = schema["components"]["schemas"]
    assert bodies["CreateGameRequest"]["properties"]["adventure"]["type"] == "integer"
    choice = bodies["MoveRequest"]["properties"]["choice"]
    assert choice["allOf"] == [{"$ref": "#/components/schemas/Option"}]
    assert bodies["Option"]["discriminator"]["propertyName"] == "action"
    assert bodies["CredentialsRequest"]["properties"]["username"]["pattern"]
    moves = schema["paths"]["/api/v1/games/{game_id}/moves"]["post"]
    (key,) = [p for p in moves["parameters"] if p["name"] == "Idempotency-Key"]
    assert key["schema"] == {"type": "string", "minLength": 1, "maxLength": 255}
    assert {"413", "415", "422", "429"} <= set(moves["responses"])


def test_refusals_before_the_view_fit_the_schema(
    playing_game: int, alice: APIClient, post: Any, settings: Any
) -> None:
    check = load(alice)
    path = f"/api/v1/games/{playing_game}/moves"
    too_large = alice.post(path, json.dumps({"x": "x" * 3_000_000}), content_type="application/json")
    check.validate("POST", path, too_large.status_code, too_large.json())
    assert too_large.status_code == 413
    not_json = alice.post(path, "choice=1", content_type="text/plain")
    check.validate("POST", path, not_json.status_code, not_json.json())
    assert not_json.status_code == 415
    long_key = alice.post(path, {"choice": {}}, format="json", HTTP_IDEMPOTENCY_KEY="k" * 256)
    check.validate("POST", path, long_key.status_code, long_key.json())
    assert long_key.json()["code"] == "invalid_idempotency_key"


def test_a_throttled_answer_fits_the_schema(anon: APIClient, settings: Any) -> None:
    from django.core.cache import cache

    cache.clear()
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "2/minute", "user": None},
    }
    check = load(anon)
    answers = [
        anon.post("/api/v1/auth/token", {"username": "x", "password": "y" * 8}, format="json")
        for _ in range(4)
    ]
    throttled = [answer for answer in answers if answer.status_code == 429]
    assert throttled, [answer.status_code for answer in answers]
    check.validate("POST", "/api/v1/auth/token", 429, throttled[0].json())
    assert throttled[0].json()["code"] == "throttled"


@pytest.mark.django_db
@pytest.mark.parametrize("username", ["ã", "Ännchen", "日本語", "ann.b@x+y-z_1"])
def test_a_name_of_any_script_is_one_the_schema_allows_and_the_api_takes(
    anon: APIClient, username: str
) -> None:
    # the schema's pattern is ECMA-262's: its \w would be ASCII only (a contract test sent "ã")
    credentials = load(anon).schema["components"]["schemas"]["CredentialsRequest"]
    assert re.fullmatch(credentials["properties"]["username"]["pattern"], username)
    response = anon.post(
        "/api/v1/auth/register", {"username": username, "password": "lunar-pw-7"}, format="json"
    )
    assert response.status_code == 201, response.content


@settings(max_examples=300, deadline=None)
@given(st.text(min_size=1, max_size=12))
def test_whatever_the_schema_refuses_as_a_name_the_api_refuses(username: str) -> None:
    # so that no request the schema calls invalid is taken (contract tests send such requests)
    if not re.match(USERNAME_SCHEMA_PATTERN, username):
        assert not CredentialsSerializer(data={"username": username, "password": "lunar-pw-7"}).is_valid()
