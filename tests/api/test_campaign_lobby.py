"""Creating, joining, starting, reading and listing campaigns; refusals are `{code, detail}`
and append nothing; every answer fits the served schema."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from campaigns import library
from campaigns.models import Campaign, CampaignEvent, Pack
from games.models import Game
from tests.api.openapi_check import CheckedClient, load
from tests.campaigns.http import open_campaign

pytestmark = pytest.mark.django_db


@pytest.fixture
def checked(
    alice: APIClient, bob: APIClient, carol: APIClient, dave: APIClient, post: Any
) -> list[CheckedClient]:
    check = load(alice)
    return [CheckedClient(client, check, post) for client in (alice, bob, carol, dave)]


def test_create_records_the_pack_and_seats_the_creator(checked: list[CheckedClient]) -> None:
    ann = checked[0]
    response = ann.post("/api/v1/campaigns", {"max_players": 3})
    assert response.status_code == 201, response.content
    campaign = response.json()
    shipped = library.get("open")
    assert campaign["pack"] == {
        "id": "open", "version": "2", "hash": shipped.content_hash, "title": "Open Orbit"
    }  # fmt: skip
    assert campaign["status"] == "lobby"
    assert campaign["seats"] == [{"seat": 0, "username": "alice", "bot": None, "stars": 0}]
    assert campaign["seat"] == 0 and campaign["captain"] is None and campaign["chapter"] is None
    assert campaign["version"] == 1
    assert [chapter["available"] for chapter in campaign["chapters"]] == [True] * 8
    assert [chapter["unavailable"] for chapter in campaign["chapters"]] == [None] * 8
    stored = Pack.objects.get(content_hash=shipped.content_hash)
    assert stored.content == shipped.content and stored.key == "open"
    (created,) = CampaignEvent.objects.filter(campaign_id=campaign["id"])
    assert (created.kind, created.version, created.data["rules_version"]) == ("campaign_created", 2, 2)
    assert created.data["pack"] == {"id": "open", "version": "2", "hash": shipped.content_hash}
    assert campaign["rules_version"] == 2 and campaign["astra"] is None  # several players


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({}, "invalid_request"),
        ({"max_players": 0}, "invalid_request"),
        ({"max_players": 7}, "invalid_request"),
        ({"max_players": "3"}, "invalid_request"),
        ({"max_players": 3, "astra_level": 9}, "invalid_request"),
        ({"max_players": 3, "astra_level": 2}, "astra_level_solo_only"),
        ({"max_players": 1, "astra_level": 0}, "invalid_request"),
        ({"max_players": 1, "astra_level": True}, "invalid_request"),
        ({"max_players": 3, "pack": "no-such-pack"}, "unknown_pack"),
        ({"max_players": 3, "pack": 5}, "invalid_request"),
    ],
)
def test_create_refuses_what_it_cannot_open(
    checked: list[CheckedClient], body: dict[str, Any], code: str
) -> None:
    response = checked[0].post("/api/v1/campaigns", body)
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert response.json()["detail"]
    assert Campaign.objects.count() == 0


def test_join_start_and_the_first_chapter(checked: list[CheckedClient]) -> None:
    ann, ben, cy, _ = checked
    created = ann.post("/api/v1/campaigns", {"max_players": 2}).json()
    campaign, invite = created["id"], created["invite"]
    base = f"/api/v1/campaigns/{campaign}"
    # a private campaign is found and joined with its invite only
    assert cy.get(base).status_code == 404
    assert cy.post(f"{base}/join", {"invite": "guess"}).json()["code"] == "not_found"
    assert ben.post(f"{base}/join", {"invite": invite}).json() == {"seat": 1}
    assert cy.post(f"{base}/join", {"invite": invite}).json()["code"] == "campaign_full"
    assert ben.post(f"{base}/join").json()["code"] == "already_seated"
    assert cy.get(base, {"invite": invite}).status_code == 200
    assert cy.get(base, {"invite": invite}).json()["invite"] is None
    assert cy.get(f"{base}/decision").json()["code"] == "not_found"
    refused = ben.post(f"{base}/start")
    assert refused.status_code == 403 and refused.json()["code"] == "not_creator"

    started = ann.post(f"{base}/start")
    assert started.status_code == 200
    view = started.json()
    assert view["status"] == "playing" and view["chapter"] == 1 and view["captain"] == 0
    (attempt,) = view["chapters"][0]["attempts"]
    assert attempt["status"] == "playing" and attempt["result"] is None
    game = Game.objects.get(pk=attempt["game"])
    assert game.adventure == 1
    assert list(game.seats.order_by("index").values_list("user__username", flat=True)) == ["alice", "bob"]
    # the chapter's game is an ordinary game of its seats
    assert ben.get(f"/api/v1/games/{game.pk}").json()["status"] == "playing"
    assert [c["id"] for c in ben.get("/api/v1/campaigns").json()["results"]] == [campaign]

    # once started, the campaign does not exist for anyone else
    for path in (base, f"{base}/decision", f"{base}/events"):
        assert cy.get(path).status_code == 404
    assert cy.post(f"{base}/join", {"invite": invite}).json()["code"] == "not_found"
    assert ann.post(f"{base}/start").json()["code"] == "campaign_not_in_lobby"
    events = CampaignEvent.objects.filter(campaign_id=campaign).count()
    moved = ann.post(f"{base}/moves", {"choice": {"action": "next_chapter", "chapter": 2}})
    assert moved.status_code == 409 and moved.json()["code"] == "chapter_in_play"
    assert ben.get(f"{base}/decision").json() == {
        "kind": "wait", "options": [], "can_undo": False, "can_confirm": False
    }  # fmt: skip
    assert CampaignEvent.objects.filter(campaign_id=campaign).count() == events


def test_a_campaign_starts_with_two_players_at_least(checked: list[CheckedClient]) -> None:
    ann = checked[0]
    campaign = ann.post("/api/v1/campaigns", {"max_players": 4}).json()["id"]
    refused = ann.post(f"/api/v1/campaigns/{campaign}/start")
    assert refused.status_code == 409 and refused.json()["code"] == "not_enough_players"
    assert CampaignEvent.objects.filter(campaign_id=campaign).count() == 1


def test_the_events_are_paged(checked: list[CheckedClient]) -> None:
    ann, ben = checked[:2]
    campaign = open_campaign([ann, ben])
    base = f"/api/v1/campaigns/{campaign}/events"
    whole = ann.get(base).json()
    assert [event["kind"] for event in whole["events"]] == [
        "campaign_created", "captain_changed", "chapter_opened", "chapter_started"
    ]  # fmt: skip
    assert whole["next"] is None and whole["version"] == 4
    assert whole["events"][0]["seat"] is None and whole["events"][0]["v"] == 2
    first = ben.get(base, {"after": 0, "limit": 3}).json()
    assert [event["seq"] for event in first["events"]] == [1, 2, 3] and first["next"] == 3
    rest = ben.get(base, {"after": first["next"]}).json()
    assert [event["seq"] for event in rest["events"]] == [4] and rest["next"] is None
    assert ann.get(base, {"after": "-1"}).status_code == 400


@pytest.mark.parametrize("campaign_id", ["999999", "01", "abc", "1.0"])
def test_a_campaign_that_does_not_exist_is_a_404(checked: list[CheckedClient], campaign_id: str) -> None:
    response = checked[0].client.get(f"/api/v1/campaigns/{campaign_id}")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
