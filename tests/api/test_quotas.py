"""Quotas per account (games/quotas.py): open lobbies, games and bot games started per hour,
undos per seat per turn, and lobbies that expire after a day. Each refusal is the 409 or 429
the schema declares for the operation, with its code, and changes nothing."""

import functools
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from campaigns.models import Campaign
from games import quotas
from games.models import Event, Game
from tests.api.openapi_check import CheckedClient, load

pytestmark = pytest.mark.django_db

API = "/api/v1"


def checked(client: APIClient, post: Any) -> CheckedClient:
    return CheckedClient(client, load(client), post)


def refused(response: Any, status: int, code: str) -> None:
    assert (response.status_code, response.json()["code"]) == (status, code), response.content
    assert code in load_description(response)


@functools.cache
def served_schema() -> Any:
    return load(APIClient())


def load_description(response: Any) -> str:
    """The description the schema gives the refusal's status on the operation answered."""
    request = response.wsgi_request
    _, operation = served_schema().operation(request.method, request.path)
    return str(operation["responses"][str(response.status_code)]["description"])


def solo(client: Any, post: Any) -> int:
    """A solo game opened by ``client``, in the lobby."""
    response = client.post(f"{API}/games", {"adventure": 1, "max_players": 1})
    assert response.status_code == 201, response.json()
    return int(response.json()["id"])


def later(monkeypatch: pytest.MonkeyPatch, **delta: float) -> None:
    """The quotas' clock moved on by ``delta``."""
    moved = timezone.now() + timedelta(**delta)
    monkeypatch.setattr(quotas.timezone, "now", lambda: moved)


def test_an_account_opens_a_limited_number_of_lobbies(alice: APIClient, post: Any, settings: Any) -> None:
    settings.QUOTA_OPEN_LOBBIES = 2
    client = checked(alice, post)
    first, _ = solo(client, post), solo(client, post)
    refused(client.post(f"{API}/games", {"adventure": 1, "max_players": 2}), 409, "too_many_open_lobbies")
    refused(client.post(f"{API}/campaigns", {"max_players": 2}), 409, "too_many_open_lobbies")
    assert Game.objects.count() == 2
    assert client.post(f"{API}/games/{first}/start").status_code == 200  # a lobby fewer
    assert client.post(f"{API}/games", {"adventure": 2, "max_players": 1}).status_code == 201


def test_an_account_starts_a_limited_number_of_games_an_hour(
    alice: APIClient, post: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.QUOTA_GAMES_PER_HOUR = 2
    client = checked(alice, post)
    games = [solo(client, post) for _ in range(3)]
    for game in games[:2]:
        assert client.post(f"{API}/games/{game}/start").status_code == 200
    events = Event.objects.count()
    refused(client.post(f"{API}/games/{games[2]}/start"), 429, "games_per_hour_exceeded")
    assert Event.objects.count() == events and Game.objects.get(pk=games[2]).status == "lobby"
    later(monkeypatch, minutes=61)
    assert client.post(f"{API}/games/{games[2]}/start").status_code == 200


def test_games_with_bots_have_a_quota_of_their_own(alice: APIClient, post: Any, settings: Any) -> None:
    settings.QUOTA_BOT_GAMES_PER_HOUR = 1
    client = checked(alice, post)

    def with_a_bot() -> int:
        game = int(client.post(f"{API}/games", {"adventure": 1, "max_players": 2}).json()["id"])
        assert client.post(f"{API}/games/{game}/bots", {"kind": "random"}).status_code == 201
        return game

    first, second = with_a_bot(), with_a_bot()
    assert client.post(f"{API}/games/{first}/start").status_code == 200
    refused(client.post(f"{API}/games/{second}/start"), 429, "bot_games_per_hour_exceeded")
    assert client.post(f"{API}/games/{solo(client, post)}/start").status_code == 200  # no bot: allowed


def test_a_campaign_is_held_to_the_quota_but_its_chapter_games_are_never_refused(
    alice: APIClient, post: Any, settings: Any
) -> None:
    settings.QUOTA_GAMES_PER_HOUR = 1
    client = checked(alice, post)
    campaign = client.post(f"{API}/campaigns", {"max_players": 2}).json()["id"]
    assert client.post(f"{API}/campaigns/{campaign}/bots", {"kind": "random"}).status_code == 201
    assert client.post(f"{API}/campaigns/{campaign}/start").status_code == 200  # chapter 1's game starts
    refused(client.post(f"{API}/games/{solo(client, post)}/start"), 429, "games_per_hour_exceeded")
    again = client.post(f"{API}/campaigns", {"max_players": 1}).json()["id"]
    refused(client.post(f"{API}/campaigns/{again}/start"), 429, "games_per_hour_exceeded")


def test_a_seat_undoes_a_limited_number_of_times_in_one_turn(
    playing_game: int, alice: APIClient, post: Any, settings: Any
) -> None:
    settings.QUOTA_UNDOS_PER_TURN = 2
    client, base = checked(alice, post), f"{API}/games/{playing_game}"

    def move() -> None:
        option = client.get(f"{base}/decision").json()["options"][0]
        assert client.post(f"{base}/moves", {"choice": option}).status_code == 200

    for _ in range(2):
        move()
        assert client.post(f"{base}/undo").status_code == 200
    move()
    events = Event.objects.count()
    refused(client.post(f"{base}/undo"), 409, "undo_limit_reached")
    assert Event.objects.count() == events
    assert client.post(f"{base}/confirm").status_code == 200  # the turn goes on


def test_a_lobby_expires_after_a_day(alice: APIClient, bob: APIClient, post: Any, settings: Any) -> None:
    settings.QUOTA_OPEN_LOBBIES = 1
    created = alice.post(f"{API}/games", {"adventure": 1, "max_players": 3}, format="json").json()
    game = int(created["id"])
    campaign = alice.post(f"{API}/campaigns", {"max_players": 1}, format="json")
    assert campaign.json()["code"] == "too_many_open_lobbies"
    Game.objects.filter(pk=game).update(created_at=timezone.now() - timedelta(hours=24, minutes=1))
    joined = checked(bob, post).post(f"{API}/games/{game}/join", {"invite": created["invite"]})
    refused(joined, 409, "lobby_expired")
    refused(checked(alice, post).post(f"{API}/games/{game}/bots", {"kind": "random"}), 409, "lobby_expired")
    refused(checked(alice, post).post(f"{API}/games/{game}/start"), 409, "lobby_expired")
    assert alice.get(f"{API}/games").json()["results"] == []  # no longer listed
    # and no longer counted: the account may open another
    opened = alice.post(f"{API}/campaigns", {"max_players": 2}, format="json")
    assert opened.status_code == 201
    Campaign.objects.filter(pk=opened.json()["id"]).update(created_at=timezone.now() - timedelta(days=2))
    joined = checked(bob, post).post(
        f"{API}/campaigns/{opened.json()['id']}/join", {"invite": opened.json()["invite"]}
    )
    refused(joined, 409, "lobby_expired")
    assert alice.get(f"{API}/campaigns").json()["results"] == []
