"""The open lobby: public tables listed, private ones joined with their invite, seats freed,
a multiplayer lobby started with 2 seats at least, and the lists of one's own tables paged."""

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.models import Game, Seat

pytestmark = pytest.mark.django_db

API = "/api/v1"


def create(client: APIClient, post: Any, **body: Any) -> dict[str, Any]:
    response = post(client, f"{API}/games", {"adventure": 1, "max_players": 3, **body})
    assert response.status_code == 201, response.content
    return dict(response.json())


def test_the_lobby_lists_a_public_game_and_not_a_private_one(
    alice: APIClient, bob: APIClient, carol: APIClient, post: Any
) -> None:
    public = create(alice, post, visibility="public", turn_seconds=60)
    create(alice, post)  # private
    campaign = post(bob, f"{API}/campaigns", {"max_players": 2, "visibility": "public"}).json()
    full = create(bob, post, visibility="public", max_players=2)
    post(bob, f"{API}/games/{full['id']}/bots", {"kind": "greedy"})

    listed = carol.get(f"{API}/lobby").json()
    assert listed["count"] == 2 and listed["next"] is None and listed["previous"] is None
    assert [(entry["type"], entry["id"]) for entry in listed["results"]] == [
        ("campaign", campaign["id"]), ("game", public["id"])
    ]  # fmt: skip
    entry = listed["results"][1]
    assert entry == {
        "type": "game", "id": public["id"], "adventure": 1, "max_players": 3, "seats_taken": 1,
        "seats_free": 2, "creator": "alice", "created_at": entry["created_at"], "turn_seconds": 60,
    }  # fmt: skip
    assert listed["results"][0]["adventure"] is None

    first = carol.get(f"{API}/lobby", {"page_size": 1}).json()
    assert len(first["results"]) == 1 and "page=2" in first["next"]
    second = carol.get(first["next"]).json()
    assert [entry["id"] for entry in second["results"]] == [public["id"]] and second["next"] is None
    assert carol.get(f"{API}/lobby", {"status": "lobby"}).json()["code"] == "unknown_filter"

    # joined from the lobby with no invite; once full it leaves the list
    assert post(carol, f"{API}/games/{public['id']}/join").json() == {"seat": 1}
    assert carol.get(f"{API}/lobby").json()["results"][1]["seats_taken"] == 2


def test_a_private_game_is_found_and_joined_with_its_invite_only(
    alice: APIClient, bob: APIClient, post: Any
) -> None:
    game = create(alice, post)
    base = f"{API}/games/{game['id']}"
    unknown = bob.get(f"{API}/games/999999").json()
    assert bob.get(base).status_code == 404
    assert bob.get(base).json()["code"] == unknown["code"] == "not_found"
    assert bob.get(base, {"invite": "wrong"}).status_code == 404
    assert bob.get(base, {"invite": ""}).status_code == 400
    for body in (None, {"invite": "wrong"}, {"invite": game["invite"][:-1]}):
        refused = post(bob, f"{base}/join", body)
        assert (refused.status_code, refused.json()["code"]) == (404, "not_found")
    assert post(bob, f"{base}/join", {"invite": 7}).status_code == 400
    seen = bob.get(base, {"invite": game["invite"]}).json()
    assert seen["seat"] is None and seen["invite"] is None  # the code is only shown to seats
    assert post(bob, f"{base}/join", {"invite": game["invite"]}).json() == {"seat": 1}
    assert bob.get(base).json()["invite"] == game["invite"]
    assert Seat.objects.filter(game_id=game["id"]).count() == 2


def test_a_lone_creator_cannot_start_a_multiplayer_lobby(alice: APIClient, post: Any) -> None:
    game = create(alice, post)
    refused = post(alice, f"{API}/games/{game['id']}/start")
    assert (refused.status_code, refused.json()["code"]) == (409, "not_enough_players")
    assert not Game.objects.get(pk=game["id"]).events.exists()
    post(alice, f"{API}/games/{game['id']}/bots", {"kind": "random"})
    assert post(alice, f"{API}/games/{game['id']}/start").json()["status"] == "playing"


def test_seats_are_freed_by_leaving_or_by_the_creator(
    alice: APIClient, bob: APIClient, carol: APIClient, post: Any
) -> None:
    game = create(alice, post, visibility="public", max_players=4)
    base = f"{API}/games/{game['id']}"
    post(bob, f"{base}/join")
    post(alice, f"{base}/bots", {"kind": "greedy"})
    post(carol, f"{base}/join")

    assert post(bob, f"{base}/leave").status_code == 204
    seats = alice.get(base).json()["seats"]
    assert [(seat["seat"], seat["username"], seat["bot"]) for seat in seats] == [
        (0, "alice", None), (1, None, "greedy"), (2, "carol", None)
    ]  # fmt: skip
    assert post(bob, f"{base}/leave").json()["code"] == "not_seated"
    assert post(alice, f"{base}/leave").json()["code"] == "creator_seat"
    assert post(carol, f"{base}/seats/1/remove").json()["code"] == "not_creator"
    assert post(alice, f"{base}/seats/0/remove").json()["code"] == "creator_seat"
    assert post(alice, f"{base}/seats/5/remove").json()["code"] == "seat_not_found"

    removed = post(alice, f"{base}/seats/1/remove")
    assert removed.status_code == 200
    assert [seat["username"] for seat in removed.json()["seats"]] == ["alice", "carol"]
    assert post(alice, f"{base}/start").status_code == 200
    assert post(carol, f"{base}/leave").json()["code"] == "game_not_in_lobby"


def test_my_games_are_paged_and_filtered_in_a_fixed_number_of_queries(
    alice: APIClient, bob: APIClient, post: Any
) -> None:
    def queries(page_size: int) -> int:
        with CaptureQueriesContext(connection) as captured:
            assert alice.get(f"{API}/games", {"page_size": page_size}).status_code == 200
        return len(captured)

    first = create(alice, post)
    post(bob, f"{API}/games/{first['id']}/join", {"invite": first["invite"]})
    few = queries(1)
    for adventure in (2, 3, 4):
        create(alice, post, adventure=adventure)
    assert queries(20) == few

    page = alice.get(f"{API}/games", {"page_size": 2, "page": 2}).json()
    assert page["count"] == 4 and page["next"] is None and "page=1" in page["previous"]
    assert [game["adventure"] for game in page["results"]] == [2, 1]
    assert page["results"][1]["seats"][1]["username"] == "bob"
    only = alice.get(f"{API}/games", {"adventure": "3", "status": "lobby"}).json()
    assert [game["adventure"] for game in only["results"]] == [3]
    assert alice.get(f"{API}/games", {"status": "playing"}).json()["count"] == 0
    for query in ({"colour": "red"}, {"status": "asleep"}, {"status": ""}, {"adventure": "9"}, {"page": "0"}):
        refused = alice.get(f"{API}/games", query)
        assert refused.status_code == 400, query
    assert alice.get(f"{API}/games", {"colour": "red"}).json()["code"] == "unknown_filter"
    assert alice.get(f"{API}/campaigns", {"adventure": "1"}).json()["code"] == "unknown_filter"
    assert alice.get(f"{API}/campaigns", {"status": ""}).status_code == 400


@pytest.mark.parametrize(
    "body",
    [{"visibility": "secret"}, {"turn_seconds": 29}, {"turn_seconds": 86_401}, {"turn_seconds": "60"},
     {"visibility": 1}],
)
def test_visibility_and_turn_seconds_are_checked(alice: APIClient, post: Any, body: dict[str, Any]) -> None:
    for path, base in (("games", {"adventure": 1, "max_players": 2}), ("campaigns", {"max_players": 2})):
        refused = post(alice, f"{API}/{path}", {**base, **body})
        assert (refused.status_code, refused.json()["code"]) == (400, "invalid_request")
    assert not Game.objects.exists()
