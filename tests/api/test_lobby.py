"""Creating, joining, starting, reading and listing games."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Event, Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def lobby(alice: APIClient, post: Any) -> int:
    response = post(alice, "/api/v1/games", {"adventure": 1, "max_players": 2, "visibility": "public"})
    assert response.status_code == 201
    return int(response.json()["id"])


def test_create_puts_the_creator_in_seat_0(alice: APIClient, post: Any) -> None:
    response = post(alice, "/api/v1/games", {"adventure": 1, "max_players": 3})
    assert response.status_code == 201
    game = response.json()
    assert game["status"] == "lobby"
    assert game["seats"] == [{"seat": 0, "username": "alice", "bot": None}]
    assert game["visibility"] == "private" and len(game["invite"]) >= 16
    assert game["turn_seconds"] is None and game["deadline"] is None
    assert game["seat"] == 0
    assert game["version"] == 0
    assert game["max_players"] == 3


@pytest.mark.parametrize(
    "body",
    [{}, {"adventure": 1}, {"adventure": 0, "max_players": 2}, {"adventure": 1, "max_players": 7},
     {"adventure": 1, "max_players": 0}, {"adventure": "one", "max_players": 2},
     {"adventure": 1, "max_players": None}],
)
def test_create_validates_its_body(alice: APIClient, post: Any, body: dict) -> None:
    response = post(alice, "/api/v1/games", body)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_request"
    assert Game.objects.count() == 0


def test_join_gives_the_next_seat(lobby: int, bob: APIClient, post: Any) -> None:
    response = post(bob, f"/api/v1/games/{lobby}/join")
    assert response.status_code == 200
    assert response.json() == {"seat": 1}


def test_join_refuses_a_seated_player(lobby: int, alice: APIClient, post: Any) -> None:
    response = post(alice, f"/api/v1/games/{lobby}/join")
    assert response.status_code == 409
    assert response.json()["code"] == "already_seated"


def test_join_refuses_a_full_game(
    lobby: int, bob: APIClient, carol: APIClient, post: Any
) -> None:
    post(bob, f"/api/v1/games/{lobby}/join")
    response = post(carol, f"/api/v1/games/{lobby}/join")
    assert response.status_code == 409
    assert response.json()["code"] == "game_full"


def test_a_started_game_does_not_exist_for_an_outsider_who_joins(
    playing_game: int, dave: APIClient, post: Any
) -> None:
    response = post(dave, f"/api/v1/games/{playing_game}/join")
    assert response.status_code == 404
    assert response.json() == post(dave, "/api/v1/games/999999/join").json() | {
        "detail": f"There is no game {playing_game}."
    }


def test_joining_a_started_game_again_is_a_409(playing_game: int, bob: APIClient, post: Any) -> None:
    response = post(bob, f"/api/v1/games/{playing_game}/join")
    assert response.status_code == 409
    assert response.json()["code"] == "game_not_in_lobby"


def test_only_the_creator_starts(lobby: int, bob: APIClient, post: Any) -> None:
    post(bob, f"/api/v1/games/{lobby}/join")
    response = post(bob, f"/api/v1/games/{lobby}/start")
    assert response.status_code == 403
    assert response.json()["code"] == "not_creator"
    assert Event.objects.count() == 0


def test_a_stranger_cannot_start(lobby: int, carol: APIClient, post: Any) -> None:
    response = post(carol, f"/api/v1/games/{lobby}/start")
    assert response.status_code == 403
    assert response.json()["code"] == "not_seated"


def test_start_deals_the_game(lobby: int, alice: APIClient, bob: APIClient, post: Any) -> None:
    post(bob, f"/api/v1/games/{lobby}/join")
    response = post(alice, f"/api/v1/games/{lobby}/start")
    assert response.status_code == 200
    game = response.json()
    assert game["status"] == "playing"
    assert game["turn"] == 1
    assert len(game["combinations"]) == 3
    assert len(game["missions"]) == 3
    assert game["version"] == Event.objects.filter(game_id=lobby).count() >= 2
    assert "seed" not in game


def test_start_twice_is_a_409(playing_game: int, alice: APIClient, post: Any) -> None:
    before = Event.objects.count()
    response = post(alice, f"/api/v1/games/{playing_game}/start")
    assert response.status_code == 409
    assert response.json()["code"] == "game_not_in_lobby"
    assert Event.objects.count() == before


def test_anyone_signed_in_can_read_a_lobby(lobby: int, carol: APIClient) -> None:
    response = carol.get(f"/api/v1/games/{lobby}")
    assert response.status_code == 200
    assert response.json()["seat"] is None


def test_a_started_game_is_read_by_its_seats_only(
    playing_game: int, bob: APIClient, dave: APIClient
) -> None:
    assert bob.get(f"/api/v1/games/{playing_game}").json()["seat"] == 1
    # to anyone else it answers exactly as an id that names no game does
    response = dave.get(f"/api/v1/games/{playing_game}")
    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "detail": f"There is no game {playing_game}."}
    assert dave.get("/api/v1/games/999999").json() == {
        "code": "not_found", "detail": "There is no game 999999."
    }


@pytest.mark.parametrize("game_id", ["999", "abc", "-1", "99999999999999999999999", "1.5"])
def test_unknown_or_malformed_game_ids_are_404(alice: APIClient, game_id: str) -> None:
    response = alice.get(f"/api/v1/games/{game_id}")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_list_shows_my_games(lobby: int, alice: APIClient, bob: APIClient) -> None:
    assert [game["id"] for game in alice.get("/api/v1/games").json()["results"]] == [lobby]
    assert bob.get("/api/v1/games").json() == {"count": 0, "next": None, "previous": None, "results": []}


def test_a_solo_game_of_the_battle_is_played_against_astra_only(alice: APIClient, post: Any) -> None:
    """A one-player game of adventure 8 is the solo mode against ASTRA: created for one player
    it plays ASTRA; a lobby for more started with one player seated is refused (as any
    multiplayer lobby is)."""
    response = post(alice, "/api/v1/games", {"adventure": 8, "max_players": 1, "astra_level": 2})
    assert response.status_code == 201
    assert Game.objects.get().astra_level == 2

    lobby = post(alice, "/api/v1/games", {"adventure": 8, "max_players": 2})
    assert lobby.status_code == 201
    started = post(alice, f"/api/v1/games/{lobby.json()['id']}/start")
    assert (started.status_code, started.json()["code"]) == (409, "not_enough_players")
    refused = Game.objects.get(pk=lobby.json()["id"])
    assert refused.status == "lobby"
    assert not refused.events.exists()
