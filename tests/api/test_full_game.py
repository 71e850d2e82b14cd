"""Whole games played over HTTP by random bots using only /decision and /moves (and /confirm),
each move taken from the decision the previous command answered with: 3 players for every
playable adventure, and The Battle with 2 and 6 players too. Every answer is checked against the
OpenAPI schema, and each seat's final total is what its sheets show."""

import random
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from games import snapshots
from games.models import Event, Game
from games.rules.adventures import PLAYABLE
from tests.api.openapi_check import CheckedClient, load
from tests.api.test_sheet_svg import MARKED

MAX_REQUESTS = 20_000
THE_BATTLE = 8


def total_from_sheets(sheets: list[dict[str, Any]], seat: int) -> int:
    """A seat's total as its sheets show it: its sheet's total; or, where sheets are shared
    (The Battle), the missions and campaign points on its left sheet (where it owns side S) and
    the totals of its two sides."""
    shared = [sheet for sheet in sheets if "sides" in sheet]
    if not shared:
        (own,) = [sheet for sheet in sheets if sheet["seats"] == [seat]]
        return int(own["score"]["total"])
    (left,) = [sheet for sheet in shared if sheet["sides"]["S"] == seat]
    (right,) = [sheet for sheet in shared if sheet["sides"]["N"] == seat]
    panel = left["derived"]["panels"]["S"]
    missions = sum(value for value in panel["missions"].values() if value is not None)
    return int(
        missions + panel["campaign"] + left["score"]["S"]["total"] + right["score"]["N"]["total"]
    )


def play_to_the_end(
    clients: list[APIClient], post: Any, adventure: int
) -> tuple[list[CheckedClient], str, dict[str, Any], Any]:
    """Open a game for the clients (the first creates it), start it, and let random bots play
    it through the API to its scored end; returns the checked clients, the game's path, its
    final view and the schema check."""
    check = load(clients[0])
    players = [CheckedClient(client, check, post) for client in clients]
    count = len(players)
    created = players[0].post("/api/v1/games", {"adventure": adventure, "max_players": count}).json()
    base = f"/api/v1/games/{created['id']}"
    for client in players[1:]:
        assert client.post(f"{base}/join", {"invite": created["invite"]}).status_code == 200
    assert players[0].post(f"{base}/start").status_code == 200
    rng = random.Random(f"{adventure}/{count}")
    requests = 0
    status = "playing"
    # Each seat's decision as its last command's answer gave it. A seat waiting for the others
    # asks /decision again once every seat waits (only the last of them to act can have
    # changed what the others may do); the game's status comes with every answer.
    known: dict[int, dict[str, Any]] = {}
    while status == "playing":
        progressed = False
        everyone_waits = all(known.get(seat, {}).get("kind") == "wait" for seat in range(count))
        for seat, client in enumerate(players):
            decision = known.get(seat)
            if decision is None or (everyone_waits and decision["kind"] == "wait"):
                decision = known[seat] = client.get(f"{base}/decision").json()
            if decision["options"]:
                response = client.post(f"{base}/moves", {"choice": rng.choice(decision["options"])})
            elif decision["can_confirm"]:
                response = client.post(f"{base}/confirm")
            else:
                continue
            assert response.status_code == 200, response.content
            known[seat] = response.json()["decision"]
            status = response.json()["status"]
            progressed = True
            requests += 1
            assert requests < MAX_REQUESTS
            if requests % 25 == 0:  # what the others see mid-turn fits the schema too
                players[1].get(f"{base}/sheets/{requests % count}")
                players[-1].get(f"{base}/events", {"after": max(0, response.json()["version"] - 5)})
            if status != "playing":
                break
        assert progressed or everyone_waits, "no seat can act and the game is still playing"
    return players, base, players[0].get(base).json(), check


@pytest.mark.parametrize("adventure", sorted(PLAYABLE))
def test_three_bots_play_an_adventure_to_its_end(
    alice: APIClient, bob: APIClient, carol: APIClient, post: Any, adventure: int
) -> None:
    (ann, ben, cy), base, game, check = play_to_the_end([alice, bob, carol], post, adventure)
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
        # the sheet drawn at that step is the one the replay lists (the web table's replay page)
        drawn = cy.client.get(f"{base}/sheets/2.svg", {"seq": seq}).content.decode()
        marks = replay.json()["sheets"][2]["marks"]
        assert dict(MARKED.findall(drawn)) == {element: str(mark) for element, mark in marks.items()}

    export = ann.get(f"{base}/export")
    assert export.status_code == 200
    exported = b"".join(export.streaming_content).decode().splitlines()
    assert len(exported) == 1 + Event.objects.filter(game_id=game["id"]).count()

    sheets = [ann.get(f"{base}/sheets/{sheet['sheet']}").json() for sheet in game["sheets"]]
    for score in result["scores"]:
        assert total_from_sheets(sheets, score["seat"]) == score["total"]
    assert ann.get("/api/v1/games").status_code == 200
    assert {path for _, path, _ in check.checked} >= {
        "/api/v1/games", "/api/v1/games/{game_id}", "/api/v1/games/{game_id}/moves",
        "/api/v1/games/{game_id}/decision", "/api/v1/games/{game_id}/confirm",
        "/api/v1/games/{game_id}/sheets/{sheet}", "/api/v1/games/{game_id}/events",
        "/api/v1/games/{game_id}/replay", "/api/v1/games/{game_id}/export",
    }

    # the snapshot kept beside the log is the fold of the whole log, result included
    stored = Game.objects.get(pk=int(base.rsplit("/", 1)[1]))
    assert stored.snapshot.seq == Event.objects.filter(game=stored).count()
    assert snapshots.matches_log(game=stored)


@pytest.mark.parametrize("players", [2, 6])
def test_the_battle_over_http_with_two_and_six_players(
    make_player: Callable[[str], APIClient], post: Any, players: int
) -> None:
    clients = [make_player(f"captain{seat}") for seat in range(players)]
    (first, *_), base, game, _ = play_to_the_end(clients, post, THE_BATTLE)
    assert game["status"] == "finished"
    assert [sheet["sides"] for sheet in game["sheets"]] == [
        {"S": sheet, "N": (sheet + 1) % players} for sheet in range(players)
    ]
    assert [seat["sheets"] for seat in game["seats"]] == [
        [seat, (seat - 1) % players] for seat in range(players)
    ]
    sheets = [first.get(f"{base}/sheets/{sheet}").json() for sheet in range(players)]
    assert all(sheet["active_seat"] is None for sheet in sheets)  # the game is over
    result = game["result"]
    assert sorted(score["seat"] for score in result["scores"]) == list(range(players))
    for score in result["scores"]:
        assert total_from_sheets(sheets, score["seat"]) == score["total"]
        breakdown = score["breakdown"]
        assert breakdown["left"] == sheets[breakdown["left_sheet"]]["score"]["S"]["total"]
        assert breakdown["right"] == sheets[breakdown["right_sheet"]]["score"]["N"]["total"]
