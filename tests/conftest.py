"""Fixtures shared by the API and games tests."""

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def anon() -> APIClient:
    return APIClient()


@pytest.fixture
def make_player(db: None) -> Callable[[str], APIClient]:
    """Register a user over the API and return a client that sends their token."""

    def make(username: str) -> APIClient:
        client = APIClient()
        response = client.post(
            "/api/v1/auth/register",
            {"username": username, "password": "secret-pw"},
            format="json",
        )
        assert response.status_code == 201, response.content
        client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
        client.username = username  # type: ignore[attr-defined]
        return client

    return make


@pytest.fixture
def alice(make_player: Callable[[str], APIClient]) -> APIClient:
    return make_player("alice")


@pytest.fixture
def bob(make_player: Callable[[str], APIClient]) -> APIClient:
    return make_player("bob")


@pytest.fixture
def carol(make_player: Callable[[str], APIClient]) -> APIClient:
    return make_player("carol")


@pytest.fixture
def dave(make_player: Callable[[str], APIClient]) -> APIClient:
    return make_player("dave")


@pytest.fixture
def post(django_capture_on_commit_callbacks: Any) -> Callable[..., Any]:
    """POST JSON and run the on-commit callbacks (the scoring task) as a real commit would."""

    def send(client: APIClient, path: str, data: Any = None, **extra: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(path, data, format="json", **extra)

    return send


@pytest.fixture
def playing_game(alice: APIClient, bob: APIClient, carol: APIClient, post: Any) -> int:
    """A started 3-player Adventure 1 game: alice in seat 0, bob 1, carol 2."""
    game = post(alice, "/api/v1/games", {"adventure": 1, "max_players": 3}).json()
    for client in (bob, carol):
        assert post(client, f"/api/v1/games/{game['id']}/join").status_code == 200
    response = post(alice, f"/api/v1/games/{game['id']}/start")
    assert response.status_code == 200, response.content
    return int(game["id"])
