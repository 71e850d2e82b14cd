"""A whole game over HTTP (live server), whose end-of-game scoring the separate worker does."""

import json
import random
from collections.abc import Callable

import pytest

from games.models import Event
from tests.services.conftest import LOG_DIR, HttpClient, Worker, open_game, wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_a_game_over_http_is_scored_by_the_worker_process(
    worker: Worker, http: Callable[[str], HttpClient]
) -> None:
    players = [http(name) for name in ("ann", "ben", "cy")]
    game_id = open_game(players)
    base = f"/games/{game_id}"
    rng = random.Random(3)
    last_status = "playing"
    for _ in range(20_000):
        if last_status != "playing":
            break
        moved = False
        for player in players:
            decision = player.get(f"{base}/decision")
            if decision["options"]:
                status, body = player.post(
                    f"{base}/moves", {"choice": rng.choice(decision["options"])}
                )
            elif decision["can_confirm"]:
                status, body = player.post(f"{base}/confirm")
            else:
                continue
            assert status == 200, body
            moved = True
            last_status = body["status"]
            if last_status != "playing":
                break
        assert moved or last_status != "playing"

    # The command that ended the game answered before any scoring: the web side did not score.
    assert last_status == "scoring"

    game = wait_for(
        lambda: (g := players[1].get(base))["status"] == "finished" and g, 60, "the game to finish"
    )
    result = Event.objects.get(game_id=game_id, kind="result")
    assert result.seq == game["version"] == Event.objects.filter(game_id=game_id).count()
    assert sorted(score["seat"] for score in game["result"]["scores"]) == [0, 1, 2]
    assert game["result"]["winners"]

    # The worker process logged that it appended this very event (JSON lines, with game_id/seq).
    done = [
        line for line in worker.log_lines()
        if line.get("message") == "scoring done" and line.get("game_id") == game_id
    ]  # fmt: skip
    assert len(done) == 1, worker.log_tail()
    assert done[0]["seq"] == result.seq
    assert done[0]["hostname"] == worker.nodename
    assert done[0]["logger"] == "games.tasks"
    # ...and the web processes (gunicorn, logging to web.log) never ran the task.
    web_lines = [
        json.loads(line) for line in (LOG_DIR / "web.log").read_text().splitlines()
        if line.startswith("{")
    ]  # fmt: skip
    assert any(line.get("game_id") == game_id for line in web_lines)
    assert not any(
        line.get("logger") == "games.tasks" and line.get("game_id") == game_id for line in web_lines
    )
