"""Whole 3-player games, one per playable adventure, played over HTTP by random bots using
only /decision and /moves (and /confirm); every answer is checked against the OpenAPI schema."""

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from games import snapshots
from games.models import Event, Game
from games.rules.adventures import PLAYABLE
from tests.api.openapi_check import CheckedClient, load

MAX_REQUESTS = 20_000


@pytest.mark.parametrize("adventure", sorted(PLAYABLE))
def test_three_bots_play_an_adventure_to_its_end(
    alice: APIClient, bob: APIClient, carol: APIClient, post: Any, adventure: int
) -> None:
    check = load(alice)
    players = [CheckedClient(client, check, post) for client in (alice, bob, carol)]
    ann, ben, cy = players
    created = ann.post("/api/v1/games", {"adventure": adventure, "max_players": 3}).json()
    base = f"/api/v1/games/{created['id']}"
    for client in (ben, cy):
        assert client.post(f"{base}/join").status_code == 200
    assert ann.post(f"{base}/start").status_code == 200
    rng = random.Random(adventure)
    requests = 0
    status = "playing"
    while status == "playing":
        progressed = False
        for client in players:
            decision = client.get(f"{base}/decision").json()
            if decision["options"]:
                response = client.post(f"{base}/moves", {"choice": rng.choice(decision["options"])})
            elif decision["can_confirm"]:
                response = client.post(f"{base}/confirm")
            else:
                continue
            assert response.status_code == 200, response.content
            progressed = True
            requests += 1
            assert requests < MAX_REQUESTS
            if requests % 25 == 0:  # what the others see mid-turn fits the schema too
                ben.get(f"{base}/sheets/{requests % 3}")
                cy.get(f"{base}/events", {"after": max(0, response.json()["version"] - 5)})
        status = ann.get(base).json()["status"]
        assert progressed or status != "playing", "every seat waits and the game is still playing"

    game = ann.get(base).json()
    assert game["status"] == "finished"
    result = game["result"]
    assert sorted(score["seat"] for score in result["scores"]) == [0, 1, 2]
    assert all(isinstance(score["total"], int) for score in result["scores"])
    assert result["winners"] and set(result["winners"]) <= {0, 1, 2}

    kinds: list[str] = []
    after: int | None = 0
    while after is not None:  # a long game (the Virus) fills more than one page of the feed
        feed = ben.get(f"{base}/events", {"after": after, "limit": 500}).json()
        kinds += [event["kind"] for event in feed["events"]]
        after = feed["next"]
    assert "game_ended" in kinds
    assert kinds[-1] == "result"

    version = game["version"]
    for seq in (1, version // 2, version):
        replay = cy.get(f"{base}/replay", {"seq": seq})
        assert replay.status_code == 200, replay.content
        assert replay.json()["seq"] == seq
        assert len(replay.json()["sheets"]) == 3

    export = ann.get(f"{base}/export")
    assert export.status_code == 200
    exported = b"".join(export.streaming_content).decode().splitlines()
    assert len(exported) == 1 + Event.objects.filter(game_id=created["id"]).count()

    for seat in range(3):
        sheet = ann.get(f"{base}/sheets/{seat}").json()
        assert sheet["score"]["total"] == result["scores"][seat]["total"]
    assert ann.get("/api/v1/games").status_code == 200
    assert {path for _, path, _ in check.checked} >= {
        "/api/v1/games", "/api/v1/games/{game_id}", "/api/v1/games/{game_id}/moves",
        "/api/v1/games/{game_id}/decision", "/api/v1/games/{game_id}/confirm",
        "/api/v1/games/{game_id}/sheets/{sheet}", "/api/v1/games/{game_id}/events",
        "/api/v1/games/{game_id}/replay", "/api/v1/games/{game_id}/export",
    }

    # the snapshot kept beside the log is the fold of the whole log, result included
    stored = Game.objects.get(pk=created["id"])
    assert stored.snapshot.seq == Event.objects.filter(game=stored).count()
    assert snapshots.matches_log(game=stored)
