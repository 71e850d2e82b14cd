"""On PostgreSQL the hot path's plain SQL is prepared on its connection from its second run
(moon/prepared.py): the answers read through a prepared statement are the bytes read through a
fresh one, and the statements are really prepared."""

import random

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from accounts import services as accounts
from games import selectors, snapshots
from games.models import Game
from tests.services.conftest import Services

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def prepared_statements() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def test_the_hot_path_answers_the_same_once_prepared(services: Services) -> None:
    users = [User.objects.create_user(f"prepared-{index}", password="x") for index in range(2)]
    keys = [accounts.issue_token(user=user) for user in users]
    client = Client(headers={"Authorization": f"Token {keys[0]}"})
    other = Client(headers={"Authorization": f"Token {keys[1]}"})
    game = client.post("/api/v1/games", {"adventure": 1, "max_players": 2}, content_type="application/json")
    assert game.status_code == 201, game.content
    game_id = game.json()["id"]
    joined = other.post(
        f"/api/v1/games/{game_id}/join", {"invite": game.json()["invite"]}, content_type="application/json"
    )
    assert joined.status_code == 200, joined.content
    assert client.post(f"/api/v1/games/{game_id}/start").status_code == 200

    lists = [client.get("/api/v1/games?page_size=5").content for _ in range(3)]
    assert lists[0] == lists[1] == lists[2]
    assert b'"status":"playing"' in lists[0]

    # moves through every statement of the command path, each run again and again
    rng = random.Random(3)
    played = 0
    for _ in range(12):
        for seat_client, user in ((client, users[0]), (other, users[1])):
            decision = selectors.decision_view(game=Game.objects.get(pk=game_id), viewer=user)
            if decision["options"]:
                answer = seat_client.post(
                    f"/api/v1/games/{game_id}/moves",
                    {"choice": rng.choice(decision["options"])},
                    content_type="application/json",
                )
                assert answer.status_code == 200, answer.content
                assert answer.json()["events"], answer.content
                played += 1
            elif decision["can_confirm"]:
                assert seat_client.post(f"/api/v1/games/{game_id}/confirm").status_code == 200
    assert played >= 6
    # what the commands stored folds to what they kept as the snapshot
    assert snapshots.matches_log(game=Game.objects.get(pk=game_id))

    statements = prepared_statements()
    assert any("FROM games_clienttoken t JOIN auth_user u" in sql for sql in statements), statements
    assert any("COUNT(*) OVER ()" in sql for sql in statements), statements
