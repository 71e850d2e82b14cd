"""Errors a front end meets: JSON `{code, detail}` at any address under /api/, whatever the
method or slash; unknown fields refused by name; either token scheme; codes all declared."""

import ast
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from api.errors import ERROR_CODES
from games.models import Game
from tests.conftest import error_problem

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("method", ["get", "post", "put", "delete"])
@pytest.mark.parametrize("path", ["/api/v1/nothing", "/api/v1/games/", "/api/v2/games", "/api"])
def test_any_address_under_api_is_a_json_404_whatever_the_method(method: str, path: str) -> None:
    # a browser-like client that enforces CSRF: a POST to no address is still a JSON 404
    response = getattr(Client(enforce_csrf_checks=True), method)(path)
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["code"] == "not_found"


def test_the_root_redirects_to_the_web_table_and_the_api_index_stays() -> None:
    response = Client().get("/")
    assert (response.status_code, response["Location"]) == (302, "/play/")
    assert Client().get("/api/v1/").status_code == 200


def test_an_unknown_body_field_is_refused_by_name_and_nothing_is_created(alice: APIClient) -> None:
    response = alice.post("/api/v1/games", {"adventure": 1, "max_players": 1, "astra_lvl": 5}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_field"
    assert "astra_lvl" in response.json()["detail"]
    assert not Game.objects.exists()


def test_a_huge_id_names_nothing(alice: APIClient) -> None:
    response = alice.get("/api/v1/games/" + "9" * 4301)
    assert (response.status_code, response.json()["code"]) == (404, "not_found")


def test_bearer_is_accepted_beside_token(anon: APIClient) -> None:
    token = anon.post(
        "/api/v1/auth/register", {"username": "zoe", "password": "secret-pw"}, format="json"
    ).json()["token"]
    for scheme in ("Token", "Bearer", "bearer"):
        anon.credentials(HTTP_AUTHORIZATION=f"{scheme} {token}")
        assert anon.get("/api/v1/games").status_code == 200


def test_another_scheme_gets_a_401_naming_the_schemes_that_work(anon: APIClient) -> None:
    anon.credentials(HTTP_AUTHORIZATION="Basic YW5uOnNlY3JldA==")
    response = anon.get("/api/v1/games")
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"
    assert "Bearer <token>" in response.json()["detail"] and "Token <token>" in response.json()["detail"]
    assert "Bearer" in response["WWW-Authenticate"] and "Token" in response["WWW-Authenticate"]


def test_the_detail_of_a_refused_step_quotes_no_python(playing_game: int, alice: APIClient) -> None:
    choice = {"action": "plant", "effect": None}
    response = alice.post(f"/api/v1/games/{playing_game}/moves", {"choice": choice}, format="json")
    assert response.status_code == 400
    assert error_problem(response.json()) is None


REFUSALS = {"GameError", "Invalid", "Forbidden", "NotFound", "Conflict", "Unprocessable",
            "RuleViolation", "OutOfTurn"}  # fmt: skip


def _raised_codes() -> dict[str, str]:
    """Every code the sources refuse with, written out (the first argument of a refusal)."""
    codes = {}
    for package in ("accounts", "api", "campaigns", "eventstore", "games"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call) or not node.args:
                    continue
                name = getattr(node.func, "id", getattr(node.func, "attr", None))
                first = node.args[0]
                if name in REFUSALS and isinstance(first, ast.Constant) and isinstance(first.value, str):
                    codes[first.value] = str(path.relative_to(ROOT))
    return codes


def test_every_code_the_sources_raise_is_declared_in_the_schema(anon: APIClient) -> None:
    raised = _raised_codes()
    assert len(raised) > 100
    assert {code: path for code, path in raised.items() if code not in ERROR_CODES} == {}
    schema: Any = anon.get("/api/v1/schema", {"format": "json"}).json()
    assert schema["components"]["schemas"]["ErrorCodeEnum"]["enum"] == list(ERROR_CODES)
