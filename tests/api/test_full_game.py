"""Whole 3-player games, one per playable adventure, played over HTTP by random bots using
only /decision and /moves (and /confirm)."""

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from games import snapshots
from games.models import Event, Game
from games.rules.adventures import PLAYABLE

MAX_REQUESTS = 20_000


@pytest.mark.parametrize("adventure", sorted(PLAYABLE))
def test_three_bots_play_an_adventure_to_its_end(
    alice: APIClient, bob: APIClient, carol: APIClient, post: Any, adventure: int
) -> None:
    created = post(alice, "/api/v1/games", {"adventure": adventure, "max_players": 3}).json()
    base = f"/api/v1/games/{created['id']}"
    for client in (bob, carol):
        assert post(client, f"{base}/join").status_code == 200
    assert post(alice, f"{base}/start").status_code == 200
    rng = random.Random(adventure)
    players = [alice, bob, carol]
    requests = 0
    status = "playing"
    while status == "playing":
        progressed = False
        for client in players:
            decision = client.get(f"{base}/decision").json()
            if decision["options"]:
                response = post(client, f"{base}/moves", {"choice": rng.choice(decision["options"])})
            elif decision["can_confirm"]:
                response = post(client, f"{base}/confirm")
            else:
                continue
            assert response.status_code == 200, response.content
            body = response.json()
            assert set(body) >= {"events", "decision", "status", "version"}
            progressed = True
            requests += 1
            assert requests < MAX_REQUESTS
        status = alice.get(base).json()["status"]
        assert progressed or status != "playing", "every seat waits and the game is still playing"

    game = alice.get(base).json()
    assert game["status"] == "finished"
    result = game["result"]
    assert sorted(score["seat"] for score in result["scores"]) == [0, 1, 2]
    assert all(isinstance(score["total"], int) for score in result["scores"])
    assert result["winners"] and set(result["winners"]) <= {0, 1, 2}

    kinds: list[str] = []
    after: int | None = 0
    while after is not None:  # a long game (the Virus) fills more than one page of the feed
        feed = bob.get(f"{base}/events", {"after": after, "limit": 500}).json()
        kinds += [event["kind"] for event in feed["events"]]
        after = feed["next"]
    assert "game_ended" in kinds
    assert kinds[-1] == "result"

    version = game["version"]
    for seq in (1, version // 2, version):
        replay = carol.get(f"{base}/replay", {"seq": seq})
        assert replay.status_code == 200, replay.content
        assert replay.json()["seq"] == seq
        assert len(replay.json()["sheets"]) == 3

    for seat in range(3):
        sheet = alice.get(f"{base}/sheets/{seat}").json()
        assert sheet["score"]["total"] == result["scores"][seat]["total"]

    # the snapshot kept beside the log is the fold of the whole log, result included
    stored = Game.objects.get(pk=created["id"])
    assert stored.snapshot.seq == Event.objects.filter(game=stored).count()
    assert snapshots.matches_log(game=stored)
