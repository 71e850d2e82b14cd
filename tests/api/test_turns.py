"""Decisions, moves, undo and confirm, and the refusals that append nothing."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from eventstore.models import IdempotencyRecord
from games.models import Event

pytestmark = pytest.mark.django_db


def base(game_id: int) -> str:
    return f"/api/v1/games/{game_id}"


def events(game_id: int) -> int:
    return Event.objects.filter(game_id=game_id).count()


def test_decision_lists_options_for_my_seat(playing_game: int, bob: APIClient) -> None:
    response = bob.get(f"{base(playing_game)}/decision")
    assert response.status_code == 200
    decision = response.json()
    assert set(decision) >= {"kind", "options", "can_undo", "can_confirm"}
    assert decision["options"]
    assert decision["can_confirm"] is False


def test_a_listed_option_is_played(playing_game: int, alice: APIClient, post: Any) -> None:
    option = alice.get(f"{base(playing_game)}/decision").json()["options"][0]
    before = events(playing_game)
    response = post(alice, f"{base(playing_game)}/moves", {"choice": option})
    assert response.status_code == 200
    body = response.json()
    assert body["events"] and all(event["seat"] == 0 for event in body["events"])
    assert [event["seq"] for event in body["events"]] == list(
        range(before + 1, before + 1 + len(body["events"]))
    )
    assert body["version"] == events(playing_game)
    assert set(body["decision"]) >= {"kind", "options", "can_undo", "can_confirm"}


@pytest.mark.parametrize(
    ("choice", "code"),
    [
        ({"action": "fly"}, "illegal_choice"),
        ({"action": "write", "combination": 7, "space": "f3.s1"}, "unknown_combination"),
        ({"action": "write", "combination": 0, "space": "nowhere"}, "unknown_space"),
    ],
)
def test_an_illegal_choice_is_a_400_with_the_rule_code(
    playing_game: int, alice: APIClient, post: Any, choice: dict, code: str
) -> None:
    before = events(playing_game)
    response = post(alice, f"{base(playing_game)}/moves", {"choice": choice})
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert response.json()["detail"]
    assert events(playing_game) == before


@pytest.mark.parametrize("body", [{}, {"choice": 3}, {"choice": [1]}, {"choice": None}])
def test_a_move_without_a_choice_object_is_a_400(
    playing_game: int, alice: APIClient, post: Any, body: dict
) -> None:
    before = events(playing_game)
    response = post(alice, f"{base(playing_game)}/moves", body)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_request"
    assert events(playing_game) == before


def test_confirm_before_playing_is_a_409(playing_game: int, carol: APIClient, post: Any) -> None:
    before = events(playing_game)
    response = post(carol, f"{base(playing_game)}/confirm")
    assert response.status_code == 409
    assert response.json()["code"]
    assert events(playing_game) == before


def test_confirm_twice_is_a_409(playing_game: int, alice: APIClient, post: Any) -> None:
    option = alice.get(f"{base(playing_game)}/decision").json()["options"][0]
    post(alice, f"{base(playing_game)}/moves", {"choice": option})
    while alice.get(f"{base(playing_game)}/decision").json()["options"]:
        option = alice.get(f"{base(playing_game)}/decision").json()["options"][0]
        post(alice, f"{base(playing_game)}/moves", {"choice": option})
    assert post(alice, f"{base(playing_game)}/confirm").status_code == 200
    before = events(playing_game)
    response = post(alice, f"{base(playing_game)}/confirm")
    assert response.status_code == 409
    assert events(playing_game) == before
    assert alice.get(f"{base(playing_game)}/decision").json()["kind"] == "wait"


def test_undo_voids_my_unconfirmed_marks(playing_game: int, alice: APIClient, post: Any) -> None:
    option = alice.get(f"{base(playing_game)}/decision").json()["options"][0]
    post(alice, f"{base(playing_game)}/moves", {"choice": option})
    assert alice.get(f"{base(playing_game)}/decision").json()["can_undo"] is True
    response = post(alice, f"{base(playing_game)}/undo")
    assert response.status_code == 200
    assert response.json()["decision"]["options"]
    assert alice.get(f"{base(playing_game)}/sheets/0").json()["marks"] == {}


def test_undo_with_nothing_to_undo_is_a_409(
    playing_game: int, alice: APIClient, post: Any
) -> None:
    before = events(playing_game)
    response = post(alice, f"{base(playing_game)}/undo")
    assert response.status_code == 409
    assert events(playing_game) == before


@pytest.mark.parametrize("action", ["moves", "undo", "confirm"])
def test_a_player_without_a_seat_is_told_the_game_does_not_exist(
    playing_game: int, dave: APIClient, post: Any, action: str
) -> None:
    before = events(playing_game)
    response = post(dave, f"{base(playing_game)}/{action}", {"choice": {"action": "skip"}})
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    assert events(playing_game) == before


@pytest.mark.parametrize("path", ["decision", "sheets/0", "events", "replay?seq=1"])
def test_reads_need_a_seat(playing_game: int, dave: APIClient, path: str) -> None:
    response = dave.get(f"{base(playing_game)}/{path}")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


@pytest.mark.parametrize("path", ["decision", "events"])
def test_in_the_lobby_an_outsider_is_told_they_have_no_seat(
    alice: APIClient, dave: APIClient, post: Any, path: str
) -> None:
    """In a public lobby; a private one does not exist for them (404)."""
    game = post(alice, "/api/v1/games", {"adventure": 1, "max_players": 2, "visibility": "public"}).json()
    response = dave.get(f"{base(game['id'])}/{path}")
    assert response.status_code == 403
    assert response.json()["code"] == "not_seated"
    private = post(alice, "/api/v1/games", {"adventure": 1, "max_players": 2}).json()
    assert dave.get(f"{base(private['id'])}/{path}").json()["code"] == "not_found"


@pytest.mark.parametrize("action", ["moves", "undo", "confirm"])
def test_commands_in_the_lobby_are_a_409(alice: APIClient, post: Any, action: str) -> None:
    game = post(alice, "/api/v1/games", {"adventure": 1, "max_players": 2}).json()
    response = post(alice, f"{base(game['id'])}/{action}", {"choice": {"action": "skip"}})
    assert response.status_code == 409
    assert response.json()["code"] == "game_not_playing"
    assert alice.get(f"{base(game['id'])}/decision").json()["kind"] == "wait"


# --- Idempotency-Key ---------------------------------------------------------------------------


def test_a_repeated_idempotency_key_replays_the_first_answer(
    playing_game: int, alice: APIClient, post: Any
) -> None:
    option = alice.get(f"{base(playing_game)}/decision").json()["options"][0]
    first = post(alice, f"{base(playing_game)}/moves", {"choice": option}, HTTP_IDEMPOTENCY_KEY="k1")
    after_first = events(playing_game)
    second = post(
        alice, f"{base(playing_game)}/moves", {"choice": option}, HTTP_IDEMPOTENCY_KEY="k1"
    )
    assert first.status_code == second.status_code == 200
    assert second.json() == first.json()
    assert second["Idempotent-Replayed"] == "true"
    assert events(playing_game) == after_first
    assert IdempotencyRecord.objects.count() == 1


def test_a_repeated_key_on_confirm_appends_nothing(
    playing_game: int, alice: APIClient, post: Any
) -> None:
    while options := alice.get(f"{base(playing_game)}/decision").json()["options"]:
        post(alice, f"{base(playing_game)}/moves", {"choice": options[0]})
    first = post(alice, f"{base(playing_game)}/confirm", HTTP_IDEMPOTENCY_KEY="c1")
    count = events(playing_game)
    second = post(alice, f"{base(playing_game)}/confirm", HTTP_IDEMPOTENCY_KEY="c1")
    assert first.status_code == second.status_code == 200
    assert second.json() == first.json()
    assert events(playing_game) == count


def test_a_key_reused_on_another_path_is_a_422(
    playing_game: int, alice: APIClient, post: Any
) -> None:
    option = alice.get(f"{base(playing_game)}/decision").json()["options"][0]
    post(alice, f"{base(playing_game)}/moves", {"choice": option}, HTTP_IDEMPOTENCY_KEY="k2")
    count = events(playing_game)
    response = post(alice, f"{base(playing_game)}/undo", HTTP_IDEMPOTENCY_KEY="k2")
    assert response.status_code == 422
    assert response.json()["code"] == "idempotency_key_reused"
    assert events(playing_game) == count


def test_keys_belong_to_their_user(playing_game: int, alice: APIClient, bob: APIClient,
                                   post: Any) -> None:
    for client in (alice, bob):
        option = client.get(f"{base(playing_game)}/decision").json()["options"][0]
        response = post(
            client, f"{base(playing_game)}/moves", {"choice": option}, HTTP_IDEMPOTENCY_KEY="same"
        )
        assert response.status_code == 200
    assert IdempotencyRecord.objects.count() == 2


def test_a_refused_request_stores_no_answer(playing_game: int, carol: APIClient,
                                            post: Any) -> None:
    response = post(carol, f"{base(playing_game)}/confirm", HTTP_IDEMPOTENCY_KEY="r1")
    assert response.status_code == 409
    assert IdempotencyRecord.objects.count() == 0


def test_idempotent_create_makes_one_game(alice: APIClient, post: Any) -> None:
    body = {"adventure": 1, "max_players": 2}
    first = post(alice, "/api/v1/games", body, HTTP_IDEMPOTENCY_KEY="g1")
    second = post(alice, "/api/v1/games", body, HTTP_IDEMPOTENCY_KEY="g1")
    assert first.status_code == second.status_code == 201
    assert first.json() == second.json()
    assert alice.get("/api/v1/games").json()["count"] == 1


def test_an_overlong_key_is_a_400(playing_game: int, alice: APIClient, post: Any) -> None:
    response = post(alice, f"{base(playing_game)}/confirm", HTTP_IDEMPOTENCY_KEY="k" * 300)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_idempotency_key"


def test_a_key_sent_again_with_another_body_is_refused(
    playing_game: int, alice: APIClient, post: Any
) -> None:
    first, other = alice.get(f"{base(playing_game)}/decision").json()["options"][:2]
    sent = post(alice, f"{base(playing_game)}/moves", {"choice": first}, HTTP_IDEMPOTENCY_KEY="b1")
    assert sent.status_code == 200
    count = events(playing_game)
    again = post(alice, f"{base(playing_game)}/moves", {"choice": other}, HTTP_IDEMPOTENCY_KEY="b1")
    assert again.status_code == 422
    assert again.json()["code"] == "idempotency_key_reused"
    assert events(playing_game) == count
