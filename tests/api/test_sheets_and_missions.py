"""Sheets apart from seats, the optional phase 6, and event versions, as a front end meets them."""

import json
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.models import Event, Game, Seat
from games.rules.adventures import PLAYABLE
from games.rules.core import events
from tests.games.histories import append_events

RECORDED = Path(__file__).parent.parent / "fixtures" / "logs_v1" / "adventure3-3p-seed31.json"
COLONY = PLAYABLE[3].layout
# Missions C of adventure 3: card 80 (10 plants) or 81 (every tank of two quarters circled).
MISSION_C_MET = [f"greenhouse.{quarter}.{n}" for quarter in ("TL", "TR") for n in (1, 2, 3, 4)] + [
    tank for quarter in ("quarter.TL", "quarter.TR") for tank in COLONY.quarters[quarter]["water_tanks"]
]


def test_the_game_lists_its_sheets_and_each_is_served_by_its_id(
    playing_game: int, alice: APIClient
) -> None:
    base = f"/api/v1/games/{playing_game}"
    game = alice.get(base).json()
    assert game["sheets"] == [{"sheet": n, "seats": [n]} for n in range(3)]
    assert game["phase"] == "actions"
    sheet = alice.get(f"{base}/sheets/2").json()
    assert (sheet["sheet"], sheet["seats"], sheet["seat"]) == (2, [2], 2)
    assert set(sheet) >= {"marks", "error_boxes", "score", "derived"}
    missing = alice.get(f"{base}/sheets/3")
    assert missing.status_code == 404
    assert missing.json()["code"] == "sheet_not_found"


def _colony_meeting_mission_c(alice: APIClient, bob: APIClient, post: Any) -> str:
    """A started 2-player Adventure 3 game in which alice's sheet meets either mission C (and
    neither A nor B), set up by appending marks to its log."""
    created = post(alice, "/api/v1/games", {"adventure": 3, "max_players": 2}).json()
    base = f"/api/v1/games/{created['id']}"
    post(bob, f"{base}/join", {"invite": created["invite"]})
    post(alice, f"{base}/start")
    game = Game.objects.get(pk=created["id"])
    marks = [
        events.make(events.MARK, 0, 1, events.MarkMade(sheet=0, element=element, mark="circle"))
        for element in MISSION_C_MET
    ]
    append_events(game, marks, version=Event.objects.filter(game=game).count(), actor=None)
    return base


def _play_a_turn(base: str, clients: list[APIClient], post: Any) -> None:
    for client in clients:
        decision = client.get(f"{base}/decision").json()
        write = next(option for option in decision["options"] if option["action"] == "write")
        assert post(client, f"{base}/moves", {"choice": write}).status_code == 200
        while (decision := client.get(f"{base}/decision").json())["kind"] == "effect":
            skip = next(o for o in decision["options"] if o["action"] == "skip")
            assert post(client, f"{base}/moves", {"choice": skip}).status_code == 200
        assert post(client, f"{base}/confirm").status_code == 200


def test_a_mission_met_is_offered_in_the_decision_and_claimed_with_a_move(
    alice: APIClient, bob: APIClient, post: Any
) -> None:
    base = _colony_meeting_mission_c(alice, bob, post)
    card = alice.get(base).json()["missions"][2]
    _play_a_turn(base, [alice, bob], post)

    assert alice.get(base).json()["phase"] == "missions"
    decision = alice.get(f"{base}/decision").json()
    assert decision == {
        "kind": "mission",
        "sheet": 0,
        "options": [{"action": "claim_mission", "letter": "C"}],
        "can_undo": False,
        "can_confirm": True,
    }
    assert bob.get(f"{base}/decision").json()["kind"] == "wait"

    claimed = post(alice, f"{base}/moves", {"choice": decision["options"][0]})
    assert claimed.status_code == 200
    assert [e["kind"] for e in claimed.json()["events"]] == ["mission_claimed"]
    assert bob.get(f"{base}/events", {"after": 0, "limit": 500}).json()["events"][-1]["kind"] != (
        "mission_claimed"
    )
    assert post(alice, f"{base}/confirm").status_code == 200

    assert alice.get(f"{base}/sheets/0").json()["marks"]["mission.C"] == card["first"]
    assert alice.get(base).json()["phase"] == "actions"


def test_a_game_whose_log_was_stored_before_versions_reads_as_it_did(alice: APIClient) -> None:
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))
    user = User.objects.get(username="alice")
    game = Game.objects.create(
        adventure=recorded["adventure"], max_players=recorded["players"], creator=user,
        status=Game.Status.FINISHED, seed=recorded["seed"],
    )
    Seat.objects.create(game=game, user=user, index=0)
    Event.objects.bulk_create(
        Event(game=game, seq=seq, turn=e["turn"], seat=e["seat"], kind=e["kind"], data=e["data"])
        for seq, e in enumerate(recorded["events"], start=1)
    )
    assert {event.version for event in Event.objects.filter(game=game)} == {None}
    base = f"/api/v1/games/{game.pk}"

    # the view adds the seats a bot played to the end (none in a log from before resigning) and
    # the winners typed
    result = recorded["expected"]["result"]
    seats = [seat for seat in result["winners"] if seat != "astra"]
    winning = {"seats": seats, "astra": "astra" in result["winners"]}
    assert alice.get(base).json()["result"] == {**result, "resigned": [], "winning": winning}
    for seat, expected in enumerate(recorded["expected"]["sheets"]):
        assert alice.get(f"{base}/sheets/{seat}").json()["marks"] == expected["marks"]
    feed = alice.get(f"{base}/events", {"limit": 500}).json()["events"]
    assert feed[0]["v"] == events.KINDS["game_started"].version
    assert len(feed[0]["data"]["sheets"]) == recorded["players"]
    marks = [e for e in feed if e["kind"] == "mark"]
    assert marks and all(e["v"] == 2 and e["data"]["sheet"] == e["seat"] for e in marks)


def test_new_events_are_stored_with_the_version_of_their_kind(playing_game: int) -> None:
    stored = {event.kind: event.version for event in Event.objects.filter(game_id=playing_game)}
    assert stored == {kind: events.KINDS[kind].version for kind in ("game_started", "turn_started")}
