"""Solo games against ASTRA and bot seats over HTTP (embedded mode: ASTRA's part of a turn and
the bots' turns run eagerly when the command that makes them due commits). Every answer is
checked against the OpenAPI schema."""

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from games import snapshots
from games.models import Event, Game, Seat
from games.rules.common import astra
from games.rules.core.cards import ACTIONS
from tests.api.openapi_check import CheckedClient, load

MAX_REQUESTS = 5_000


def play_solo(player: CheckedClient, base: str, rng: random.Random) -> dict[str, Any]:
    """Play a solo game to its end with random picks among the listed options; the game view
    at the end."""
    kinds_seen: set[str] = set()
    for _ in range(MAX_REQUESTS):
        game = player.get(base).json()
        if game["status"] != "playing":
            return {**game, "decisions_seen": kinds_seen}
        decision = player.get(f"{base}/decision").json()
        kinds_seen.add(decision["kind"])
        assert decision["kind"] != "wait", "ASTRA's part runs eagerly: the player never waits"
        if decision["options"]:
            response = player.post(f"{base}/moves", {"choice": rng.choice(decision["options"])})
        else:
            response = player.post(f"{base}/confirm")
        assert response.status_code == 200, response.content
    raise AssertionError("the solo game did not end")


@pytest.mark.parametrize(
    ("adventure", "level"), [(1, 1), (2, 8), (3, 3), (4, 5), (5, 2), (6, 7), (7, 4), (8, 6)]
)
def test_a_solo_game_against_astra_over_http(alice: APIClient, post: Any, adventure: int, level: int) -> None:
    player = CheckedClient(alice, load(alice), post)
    created = player.post(
        "/api/v1/games", {"adventure": adventure, "max_players": 1, "astra_level": level}
    ).json()
    assert created["astra_level"] == level and created["astra"] is None
    base = f"/api/v1/games/{created['id']}"
    started = player.post(f"{base}/start").json()
    foe = astra.opponent(level)
    assert started["astra"]["level"] == level and started["astra"]["name"] == foe.name
    if started["phase"] == "setup":  # The Virus: the grey virus is placed before the first hand
        assert started["hand"] == [] and started["combinations"] == []
        grey = player.get(f"{base}/decision").json()["options"][0]
        player.post(f"{base}/moves", {"choice": grey})
        started = player.get(base).json()
    if adventure == 8 and len(started["hand"]) == 1:  # ASTRA's first card: the player chooses where
        placing = player.get(f"{base}/decision").json()
        assert placing["kind"] == "effect" and placing["sheet"] == 0
        assert {option["action"] for option in placing["options"]} == {"astra_place"}
        player.post(f"{base}/moves", {"choice": placing["options"][0]})
        started = player.get(base).json()
    assert len(started["hand"]) == 3 and len(started["combinations"]) == 6
    assert {"number_card", "action_card"} <= set(started["combinations"][0])

    game = play_solo(player, base, random.Random(adventure))
    assert game["status"] == "finished"
    assert {"choose", "give"} <= game["decisions_seen"]
    result, pile = game["result"], game["astra"]["pile"]
    assert set(result) == {"scores", "winners", "winning", "astra", "resigned"} and result["resigned"] == []
    if adventure == 1:
        crossed = astra.precrossed(level) + sum(pile[a] * foe.multipliers[a] for a in ACTIONS)
        track = astra.RocketTrack(level, min(crossed, len(astra.track_boxes())))
        assert result["astra"]["total"] == track.score
    else:
        assert result["astra"]["total"] == astra.astra_score(adventure, level, pile).total
    assert result["astra"]["total"] == game["astra"]["score"]
    player_total = result["scores"][0]["total"]
    if adventure != 1:
        theirs = result["astra"]["total"]
        expected: list[int | str] = (
            [0] if player_total > theirs else ["astra"] if player_total < theirs else [0, "astra"]
        )
        assert result["winners"] == expected
    assert result["winners"] in ([0], ["astra"], [0, "astra"])
    # the same, typed: the winning seats, and whether ASTRA is among the winners
    assert result["winning"] == {
        "seats": [0] if 0 in result["winners"] else [],
        "astra": "astra" in result["winners"],
    }

    feed = player.get(f"{base}/events", {"limit": 500}).json()["events"]
    assert {"card_drawn", "card_given", "astra_took"} <= {event["kind"] for event in feed}
    if adventure == 8:  # ASTRA plays a card of its own each round, on side N of both sheets
        logged = list(Event.objects.filter(game_id=created["id"]).values_list("kind", flat=True))
        rounds = logged.count("turn_started")
        # one card each round (one more when the deck ran out after ASTRA's card)
        assert logged.count("astra_played") in (rounds, rounds + 1)
        for sheet in (0, 1):
            view = player.get(f"{base}/sheets/{sheet}").json()
            assert view["sides"] == {"S": 0, "N": "astra"} and view["seats"] == [0]
            assert view["derived"]["panels"]["N"]["seat"] == "astra"
    assert all("seed" not in event["data"] for event in feed)  # so the deck order cannot be derived
    drawn = [event["data"] for event in feed if event["kind"] == "card_drawn"]
    assert all(set(data) == {"card"} for data in drawn)  # one card at a time, as it is drawn
    replay = player.get(f"{base}/replay", {"seq": 5}).json()
    assert replay["game"]["astra"]["level"] == level
    stored = Game.objects.get(pk=created["id"])
    assert snapshots.matches_log(game=stored)
    assert Event.objects.filter(game=stored, kind="result").count() == 1


def test_astra_level_defaults_to_1_and_is_refused_outside_1_to_8_or_with_other_players(
    alice: APIClient, post: Any
) -> None:
    game = post(alice, "/api/v1/games", {"adventure": 2, "max_players": 1}).json()
    assert game["astra_level"] == 1
    started = post(alice, f"/api/v1/games/{game['id']}/start").json()
    assert started["astra"]["name"] == "Katherine"
    for level in (0, 9, "3", 2.0):
        response = post(alice, "/api/v1/games", {"adventure": 2, "max_players": 1, "astra_level": level})
        assert response.status_code == 400, level
        assert response.json()["code"] == "invalid_request"
    response = post(alice, "/api/v1/games", {"adventure": 2, "max_players": 3, "astra_level": 2})
    assert response.status_code == 400
    assert response.json()["code"] == "astra_level_solo_only"
    assert Game.objects.filter(creator__username="alice").count() == 1


def test_the_player_waits_while_astra_plays_and_may_not_move(alice: APIClient, post: Any) -> None:
    """Without running ASTRA's task (its on-commit callback is not run), the player waits."""
    game = post(alice, "/api/v1/games", {"adventure": 7, "max_players": 1}).json()
    base = f"/api/v1/games/{game['id']}"
    post(alice, f"{base}/start")
    for _ in range(20):
        decision = alice.get(f"{base}/decision").json()
        if decision["kind"] == "confirm":
            break
        post(alice, f"{base}/moves", {"choice": decision["options"][0]})
    assert alice.post(f"{base}/confirm").status_code == 200  # on-commit work left undone
    assert alice.get(f"{base}/decision").json()["kind"] == "wait"
    refused = alice.post(f"{base}/moves", {"choice": {"action": "give"}}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "astra_playing"
    assert alice.get(base).json()["turn"] == 1


def test_with_real_commits_a_command_that_makes_astra_due_answers_after_astras_part(
    emptied_log: None, alice: APIClient
) -> None:
    """In the embedded mode ASTRA's part runs on the commit of the command that made it due (as
    outside tests, where nothing defers the commit): the answer carries ASTRA's events and the
    player's decision after them, never a wait."""
    game = alice.post("/api/v1/games", {"adventure": 8, "max_players": 1}, format="json").json()
    base = f"/api/v1/games/{game['id']}"
    alice.post(f"{base}/start", format="json")
    answers: list[tuple[list[str], dict[str, Any]]] = []
    while len(answers) < 3:
        decision = alice.get(f"{base}/decision").json()
        assert decision["kind"] != "wait"
        if decision["options"]:
            answer = alice.post(f"{base}/moves", {"choice": decision["options"][0]}, format="json")
        else:
            answer = alice.post(f"{base}/confirm", format="json")
        kinds = [event["kind"] for event in answer.json()["events"]]
        if "astra_took" in kinds or "astra_played" in kinds:
            answers.append((kinds, answer.json()["decision"]))
    for kinds, after in answers:
        assert after["kind"] in ("choose", "effect")  # the next pick, or ASTRA's card to place
        assert kinds[-1] == "turn_started" or after["options"][0]["action"] == "astra_place"
    version = alice.get(base).json()["version"]
    assert answer.json()["version"] == version


# --- bot seats -----------------------------------------------------------------------------


def test_bot_seats_are_added_by_the_creator_in_the_lobby_only(
    alice: APIClient, bob: APIClient, post: Any
) -> None:
    checked = CheckedClient(alice, load(alice), post)
    game = checked.post("/api/v1/games", {"adventure": 3, "max_players": 3, "visibility": "public"}).json()
    base = f"/api/v1/games/{game['id']}"
    response = checked.post(f"{base}/bots", {"kind": "greedy"})
    assert response.status_code == 201 and response.json() == {"seat": 1, "bot": "greedy"}
    assert post(bob, f"{base}/bots", {"kind": "random"}).json()["code"] == "not_seated"
    assert post(alice, f"{base}/bots", {"kind": "clever"}).status_code == 400
    assert post(alice, f"{base}/bots", {}).status_code == 400
    assert post(bob, f"{base}/join").status_code == 200
    assert post(bob, f"{base}/bots", {"kind": "random"}).json()["code"] == "not_creator"
    full = post(alice, f"{base}/bots", {"kind": "random"})
    assert full.status_code == 409 and full.json()["code"] == "game_full"
    seats = checked.get(base).json()["seats"]
    assert [(s["seat"], s["username"], s["bot"]) for s in seats] == [
        (0, "alice", None), (1, None, "greedy"), (2, "bob", None)
    ]
    assert Seat.objects.get(game_id=game["id"], index=1).user is None

    solo = post(alice, "/api/v1/games", {"adventure": 3, "max_players": 1}).json()
    assert post(alice, f"/api/v1/games/{solo['id']}/bots", {"kind": "random"}).status_code == 409
    other = post(alice, "/api/v1/games", {"adventure": 3, "max_players": 3}).json()
    post(alice, f"/api/v1/games/{other['id']}/bots", {"kind": "random"})
    assert post(alice, f"/api/v1/games/{other['id']}/start").status_code == 200
    started = post(alice, f"/api/v1/games/{other['id']}/bots", {"kind": "random"})
    assert started.status_code == 409 and started.json()["code"] == "game_not_in_lobby"
    assert post(bob, f"/api/v1/games/{other['id']}/bots", {"kind": "random"}).status_code == 404


@pytest.mark.parametrize(("adventure", "bots"), [(4, 5), (6, 2), (8, 3)])
def test_one_player_and_greedy_bots_play_a_game_to_its_end(
    alice: APIClient, post: Any, adventure: int, bots: int
) -> None:
    """Five bots in The Mine; two in The Virus, whose bots also place their grey virus before
    the first turn and choose where viruses infect them in phase 5; three in The Battle, where
    the player shares each of their two sheets with a bot."""
    player = CheckedClient(alice, load(alice), post)
    game = player.post("/api/v1/games", {"adventure": adventure, "max_players": bots + 1}).json()
    base = f"/api/v1/games/{game['id']}"
    for _ in range(bots):
        assert player.post(f"{base}/bots", {"kind": "greedy"}).status_code == 201
    player.post(f"{base}/start")
    rng = random.Random(4)
    for _ in range(MAX_REQUESTS):
        view = player.get(base).json()
        if view["status"] != "playing":
            break
        # every bot has played up to where it waits for the player
        assert all(seat["confirmed"] for seat in view["seats"][1:]) or view["phase"] == "missions"
        decision = player.get(f"{base}/decision").json()
        if decision["options"]:
            response = player.post(f"{base}/moves", {"choice": rng.choice(decision["options"])})
        else:
            assert decision["can_confirm"], decision
            response = player.post(f"{base}/confirm")
        assert response.status_code == 200, response.content
    view = player.get(base).json()
    assert view["status"] == "finished"
    assert sorted(score["seat"] for score in view["result"]["scores"]) == list(range(bots + 1))
    stored = Game.objects.get(pk=game["id"])
    bot_events = Event.objects.filter(game=stored, seat__gte=1)
    assert bot_events.filter(kind="confirmed").count() >= bots * (view["turn"] - 1)
    picks = bot_events.filter(kind__in=["number_written", "system_error", "mission_claimed"])
    assert picks.exists() and not picks.exclude(actor=None).exists()  # a bot is no user
    assert snapshots.matches_log(game=stored)
