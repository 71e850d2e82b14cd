"""Sheets, the event feed (filtered per viewer) and replays."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Event, Game

pytestmark = pytest.mark.django_db


def base(game_id: int) -> str:
    return f"/api/v1/games/{game_id}"


def play_until_confirm(client: APIClient, game_id: int, post: Any) -> None:
    while options := client.get(f"{base(game_id)}/decision").json()["options"]:
        assert post(client, f"{base(game_id)}/moves", {"choice": options[0]}).status_code == 200


def test_the_feed_has_no_seed(playing_game: int, alice: APIClient) -> None:
    assert Game.objects.get(pk=playing_game).seed is not None
    feed = alice.get(f"{base(playing_game)}/events").json()
    started = feed["events"][0]
    assert started["kind"] == "game_started"
    assert "seed" not in started["data"]
    assert "seed" not in str(feed)


def test_another_seats_unconfirmed_move_is_hidden_until_the_turn_resolves(
    playing_game: int, alice: APIClient, bob: APIClient, carol: APIClient, post: Any
) -> None:
    play_until_confirm(bob, playing_game, post)
    bob_moves = {(e.kind, str(e.data)) for e in Event.objects.filter(game_id=playing_game, seat=1)}
    assert bob_moves

    def seat_1_events(client: APIClient) -> set[tuple[str, str]]:
        feed = client.get(f"{base(playing_game)}/events").json()["events"]
        return {(e["kind"], str(e["data"])) for e in feed if e["seat"] == 1}

    assert seat_1_events(bob) == bob_moves
    assert not seat_1_events(alice)

    bob_sheet = bob.get(f"{base(playing_game)}/sheets/1").json()
    assert bob_sheet["marks"]
    assert alice.get(f"{base(playing_game)}/sheets/1").json()["marks"] == {}

    for client in (alice, bob, carol):
        play_until_confirm(client, playing_game, post)
        assert post(client, f"{base(playing_game)}/confirm").status_code == 200
    assert bob_moves <= seat_1_events(alice)
    assert alice.get(f"{base(playing_game)}/sheets/1").json()["marks"] == bob_sheet["marks"]


def test_the_feed_pages(playing_game: int, alice: APIClient, post: Any) -> None:
    play_until_confirm(alice, playing_game, post)
    version = Event.objects.filter(game_id=playing_game).count()
    first = alice.get(f"{base(playing_game)}/events", {"limit": 1}).json()
    assert [e["seq"] for e in first["events"]] == [1]
    assert first["next"] == 1
    rest = alice.get(f"{base(playing_game)}/events", {"after": first["next"]}).json()
    assert [e["seq"] for e in rest["events"]] == list(range(2, version + 1))
    assert rest["next"] is None
    assert rest["version"] == version
    for event in rest["events"]:
        assert set(event) == {"seq", "turn", "seat", "kind", "v", "data", "created_at"}


@pytest.mark.parametrize(
    "query", [{"after": -1}, {"limit": 0}, {"limit": -5}, {"after": "x"}, {"limit": "1e9"}]
)
def test_the_feed_validates_its_query(playing_game: int, alice: APIClient, query: dict) -> None:
    response = alice.get(f"{base(playing_game)}/events", query)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_request"


def test_a_huge_limit_is_capped(playing_game: int, alice: APIClient) -> None:
    response = alice.get(f"{base(playing_game)}/events", {"limit": 99999})
    assert response.status_code == 200


def test_a_sheet_shows_marks_and_score(playing_game: int, alice: APIClient, post: Any) -> None:
    option = alice.get(f"{base(playing_game)}/decision").json()["options"][0]
    post(alice, f"{base(playing_game)}/moves", {"choice": option})
    sheet = alice.get(f"{base(playing_game)}/sheets/0").json()
    assert sheet["seat"] == 0
    assert option["space"] in sheet["marks"]
    assert "total" in sheet["score"]


@pytest.mark.parametrize("seat", ["3", "99", "100000000000000000000", "x", "-1"])
def test_a_seat_out_of_range_is_a_404(playing_game: int, alice: APIClient, seat: str) -> None:
    response = alice.get(f"{base(playing_game)}/sheets/{seat}")
    assert response.status_code == 404
    assert response.json()["code"] == "sheet_not_found"


def test_sheets_of_a_game_in_the_lobby_are_a_409(alice: APIClient, post: Any) -> None:
    game = post(alice, "/api/v1/games", {"adventure": 1, "max_players": 2}).json()
    response = alice.get(f"{base(game['id'])}/sheets/0")
    assert response.status_code == 409
    assert alice.get(f"{base(game['id'])}/events").json() == {
        "events": [], "next": None, "version": 0
    }


def test_replay_waits_for_the_end_of_the_game(playing_game: int, alice: APIClient) -> None:
    response = alice.get(f"{base(playing_game)}/replay", {"seq": 1})
    assert response.status_code == 409
    assert response.json()["code"] == "game_not_finished"


@pytest.mark.parametrize("query", [{}, {"seq": "x"}, {"seq": 0}, {"seq": -3}])
def test_replay_validates_seq(playing_game: int, alice: APIClient, query: dict) -> None:
    response = alice.get(f"{base(playing_game)}/replay", query)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_request"


def test_game_view_shows_who_confirmed(playing_game: int, alice: APIClient, post: Any) -> None:
    play_until_confirm(alice, playing_game, post)
    post(alice, f"{base(playing_game)}/confirm")
    seats = alice.get(base(playing_game)).json()["seats"]
    assert [seat["username"] for seat in seats] == ["alice", "bob", "carol"]
    assert seats[0].get("confirmed") is True
