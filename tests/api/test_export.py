"""GET /games/{id}/export: the game's history as JSON Lines, each event with its chained hash,
for a seated player once the game is finished, or for staff who may review games; every answer
fits the schema."""

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import Permission, User
from rest_framework.test import APIClient

from eventstore import chain
from games.models import Event, Game, Seat
from tests.api.openapi_check import CheckedClient, load
from tests.games.histories import finished_game

pytestmark = pytest.mark.django_db


def checked(client: APIClient, post: Any) -> CheckedClient:
    return CheckedClient(client, load(client), post)


def lines_of(response: Any) -> list[dict[str, Any]]:
    text = b"".join(response.streaming_content).decode()
    assert text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


def test_a_seated_player_exports_a_finished_game(alice: APIClient, post: Any) -> None:
    game = finished_game(2, names=("alice", "ann"))
    response = checked(alice, post).get(f"/api/v1/games/{game.pk}/export")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-ndjson; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="moon-game-{game.pk}.jsonl"'
    header, *events = lines_of(response)
    seal = header.pop("seal")
    assert header == {
        "format": "moon-game/1", "game": game.pk, "adventure": 2, "players": 2,
        "seats": [{"seat": 0, "username": "alice"}, {"seat": 1, "username": "ann"}],
    }
    stored = list(Event.objects.filter(game=game).order_by("seq"))
    # the finished history's signature (eventstore/seals.py), over its last event
    key = checked(alice, post).get("/api/v1/history-key").json()
    last = stored[-1]
    signed = (seal["stream"], seal["id"], seal["seq"], seal["hash"])
    assert signed == ("game", game.pk, last.seq, chain.hexed(last.hash))
    assert (seal["key_id"], seal["public_key"]) == (key["key_id"], key["public_key"])
    assert [event["seq"] for event in events] == [row.seq for row in stored]
    assert list(events[0]) == ["seq", "turn", "seat", "kind", "v", "data", "created_at", "prev_hash", "hash"]
    assert events[0]["kind"] == "game_started" and events[-1]["kind"] == "result"
    assert events[0]["data"]["seed"] == game.seed  # the deck is no secret once the game is over
    prev = chain.GENESIS
    for event, row in zip(events, stored, strict=True):
        assert (event["data"], event["v"], event["prev_hash"], event["hash"]) == (
            row.data, row.version, prev, chain.hexed(row.hash)
        )
        prev = event["hash"]


def test_before_the_end_players_may_not_export_and_outsiders_never_see_the_game(
    playing_game: int, alice: APIClient, dave: APIClient, post: Any
) -> None:
    answer = checked(alice, post).get(f"/api/v1/games/{playing_game}/export")
    assert (answer.status_code, answer.json()["code"]) == (409, "game_not_finished")
    finished = finished_game(1, names=("ann", "ben"))
    for game_id in (playing_game, finished.pk):
        answer = checked(dave, post).get(f"/api/v1/games/{game_id}/export")
        assert (answer.status_code, answer.json()["code"]) == (404, "not_found")


def test_an_outsider_of_a_lobby_game_is_told_they_have_no_seat(
    alice: APIClient, bob: APIClient, post: Any
) -> None:
    game = post(alice, "/api/v1/games", {"adventure": 1, "max_players": 2, "visibility": "public"}).json()
    answer = checked(bob, post).get(f"/api/v1/games/{game['id']}/export")
    assert (answer.status_code, answer.json()["code"]) == (403, "not_seated")


def reviewer(make_player: Callable[[str], APIClient], *, perm: str | None) -> APIClient:
    """A staff member, with the permission named (``view_game``...) or none."""
    client = make_player("referee")
    user = User.objects.get(username="referee")
    user.is_staff = True
    user.save()
    if perm:
        user.user_permissions.add(Permission.objects.get(codename=perm))
    return client


@pytest.mark.parametrize("perm", ["view_game", "change_game"])
def test_staff_who_may_review_games_export_any_game_at_any_time(
    playing_game: int, make_player: Callable[[str], APIClient], post: Any, perm: str
) -> None:
    staff = reviewer(make_player, perm=perm)
    response = checked(staff, post).get(f"/api/v1/games/{playing_game}/export")
    assert response.status_code == 200
    header, *events = lines_of(response)
    assert header["players"] == 3 and len(events) == Event.objects.filter(game_id=playing_game).count()
    assert not Seat.objects.filter(game_id=playing_game, user__username="referee").exists()


def test_is_staff_alone_exports_no_running_game_as_the_viewer_shows_none(
    playing_game: int, make_player: Callable[[str], APIClient], post: Any
) -> None:
    staff = reviewer(make_player, perm=None)
    answer = checked(staff, post).get(f"/api/v1/games/{playing_game}/export")
    assert (answer.status_code, answer.json()["code"]) == (404, "not_found")
    staff.force_login(User.objects.get(username="referee"))  # the admin's viewer refuses them too
    assert staff.get(f"/admin/games/game/{playing_game}/history/").status_code == 403


def test_exporting_needs_a_signed_in_user(anon: APIClient, post: Any) -> None:
    game = finished_game(1)
    answer = checked(anon, post).get(f"/api/v1/games/{game.pk}/export")
    assert answer.status_code == 401
    assert Game.objects.filter(pk=game.pk, status=Game.Status.FINISHED).exists()
