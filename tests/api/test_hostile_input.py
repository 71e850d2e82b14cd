"""Input a client should never send still gets a 4xx `{code, detail}`, never a 500, and
changes nothing: odd ids, deep JSON, huge bodies, odd query integers."""

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Event, Game
from tests.games.histories import finished_game


@pytest.mark.parametrize(
    "game_id",
    [
        "%C2%B2",  # superscript two: a digit to str.isdigit, not to int()
        "%EF%BC%91%EF%BC%91",  # fullwidth 11
        "000011",  # not canonical
        "0" + "1",
        "9" * 4400,  # past Python's int-string limit
        "9" * 20,  # past a 64-bit id
        "-1",
        "1.0",
    ],
)
def test_an_id_that_is_not_plain_ascii_digits_in_canonical_form_is_a_404(
    playing_game: int, alice: APIClient, game_id: str
) -> None:
    for path in (f"/api/v1/games/{game_id}", f"/api/v1/games/{playing_game}/sheets/{game_id}"):
        response = alice.get(path)
        assert response.status_code == 404, (path, response.content[:200])
        assert response.json()["code"] in ("not_found", "sheet_not_found")


def test_a_game_id_with_leading_zeros_is_not_an_alias(playing_game: int, alice: APIClient) -> None:
    assert alice.get(f"/api/v1/games/{playing_game}").status_code == 200
    assert alice.get(f"/api/v1/games/0{playing_game}").status_code == 404


def test_json_nested_a_thousand_deep_is_a_malformed_request(anon: APIClient) -> None:
    body = '{"username": ' + "[" * 1000 + "]" * 1000 + ', "password": "secret-pw"}'
    response = anon.post("/api/v1/auth/register", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "malformed_request"


@pytest.mark.parametrize("path", ["/api/v1/auth/register", "/api/v1/games", "/moves"])
def test_a_body_over_the_size_limit_is_a_413(
    playing_game: int, alice: APIClient, path: str
) -> None:
    if path == "/moves":
        path = f"/api/v1/games/{playing_game}/moves"
    events = Event.objects.count()
    games = Game.objects.count()
    body = json.dumps({"padding": "x" * 3_000_000})
    response = alice.post(path, body, content_type="application/json")
    assert response.status_code == 413
    assert response.json()["code"] == "payload_too_large"
    assert (Event.objects.count(), Game.objects.count()) == (events, games)


def test_an_operation_that_takes_no_body_reads_none_also_with_an_idempotency_key(
    alice: APIClient, bob: APIClient, post: Any
) -> None:
    """A body sent to /leave (too large, not JSON) is not read: the leave is done, and the same
    key with another body is the same request (its first answer again)."""
    game = post(alice, "/api/v1/games", {"adventure": 1, "max_players": 2}).json()
    post(bob, f"/api/v1/games/{game['id']}/join", {"invite": game["invite"]})
    path = f"/api/v1/games/{game['id']}/leave"
    key: dict[str, Any] = {"HTTP_IDEMPOTENCY_KEY": "leave-1"}
    large = bob.post(path, json.dumps({"padding": "x" * 3_000_000}), content_type="application/json", **key)
    assert large.status_code == 204, large.content[:200]
    again = bob.post(path, "not json", content_type="text/plain", **key)
    assert (again.status_code, again["Idempotent-Replayed"]) == (204, "true")
    seats = alice.get(f"/api/v1/games/{game['id']}").json()["seats"]
    assert [seat["username"] for seat in seats] == ["alice"]


@pytest.mark.parametrize(
    "query",
    [{"limit": "1_0"}, {"after": "1_0"}, {"limit": "٣"}, {"limit": " 5"}, {"limit": ""}, {"after": ""}],
)
def test_query_integers_are_plain_ascii_digits(
    playing_game: int, alice: APIClient, query: dict[str, str]
) -> None:
    response = alice.get(f"/api/v1/games/{playing_game}/events", query)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_request"


def test_a_campaign_feed_refuses_a_parameter_sent_empty(alice: APIClient) -> None:
    created = alice.post("/api/v1/campaigns", {"max_players": 2}, format="json").json()
    response = alice.get(f"/api/v1/campaigns/{created['id']}/events", {"after": "1700", "limit": ""})
    assert (response.status_code, response.json()["code"]) == (400, "invalid_request")


def test_a_replay_refuses_its_seq_sent_empty(alice: APIClient) -> None:
    finished = finished_game(1, names=("alice", "ann"))
    response = alice.get(f"/api/v1/games/{finished.pk}/replay", {"seq": ""})
    assert (response.status_code, response.json()["code"]) == (400, "invalid_request")
    assert "seq" in response.json()["errors"]


def test_an_idempotency_key_works_on_a_path_of_any_length(alice: APIClient) -> None:
    # behind a proxy mounting the API under a long prefix, the path is longer than 512 characters
    prefix: dict[str, Any] = {"SCRIPT_NAME": "/" + "p" * 600}
    body = {"adventure": 1, "max_players": 2}
    first = alice.post("/api/v1/games", body, format="json", HTTP_IDEMPOTENCY_KEY="long-path", **prefix)
    assert first.status_code == 201, first.content
    again = alice.post("/api/v1/games", body, format="json", HTTP_IDEMPOTENCY_KEY="long-path", **prefix)
    assert (again.status_code, again.json(), again["Idempotent-Replayed"]) == (201, first.json(), "true")
    assert Game.objects.count() == 1
    elsewhere = alice.post("/api/v1/games", body, format="json", HTTP_IDEMPOTENCY_KEY="long-path")
    assert (elsewhere.status_code, elsewhere.json()["code"]) == (422, "idempotency_key_reused")
