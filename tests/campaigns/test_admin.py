"""The Django admin lists the content packs as loaded and the campaigns, and no one (superusers
included) adds, changes or deletes a campaign, its seats or its chapter games there; a campaign's
seed is never shown."""

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns import services
from campaigns.models import Campaign, CampaignEvent, CampaignSeat, ChapterGame
from eventstore import chain
from tests.games.histories import finished_game

pytestmark = pytest.mark.django_db
CAMPAIGNS = "/admin/campaigns/campaign/"


@pytest.fixture
def root() -> User:
    return User.objects.create_superuser("root", password="admin-secret-pw")


def test_the_admin_lists_packs_and_campaigns(client: Client, root: User) -> None:
    campaign = services.create_campaign(by=root, max_players=3)
    client.force_login(root)
    packs = client.get("/admin/campaigns/pack/")
    assert packs.status_code == 200
    assert "Open Orbit" in packs.content.decode() and campaign.pack.content_hash in packs.content.decode()
    campaigns = client.get(CAMPAIGNS)
    assert campaigns.status_code == 200
    assert f"{CAMPAIGNS}{campaign.pk}/change/" in campaigns.content.decode()
    assert client.get(f"{CAMPAIGNS}{campaign.pk}/change/").status_code == 200
    change = client.get(f"{CAMPAIGNS}{campaign.pk}/change/").content.decode()
    assert f'href="{CAMPAIGNS}{campaign.pk}/events/"' in change
    log = client.get(f"{CAMPAIGNS}{campaign.pk}/events/").content.decode()
    events = CampaignEvent.objects.filter(campaign=campaign).order_by("seq")
    assert f"{events.count()} event" in log and events.count() > 0
    assert all(chain.hexed(event.hash) in log and f"<td>{event.kind}</td>" in log for event in events)


def stored(campaign: Campaign) -> tuple[Any, ...]:
    """Everything the admin could change of a campaign: its row, its seats, its chapter games."""
    row = Campaign.objects.filter(pk=campaign.pk).values().get()
    seats = list(CampaignSeat.objects.filter(campaign=campaign).values())
    chapters = list(ChapterGame.objects.filter(campaign=campaign).values())
    return row, seats, chapters


def test_no_one_adds_changes_or_deletes_a_campaign_in_the_admin_nor_sees_its_seed(
    client: Client, root: User
) -> None:
    campaign = services.create_campaign(by=root, max_players=2)
    ChapterGame.objects.create(campaign=campaign, chapter=1, attempt=1, game=finished_game(1))
    other = User.objects.create_user("zed")
    client.force_login(root)
    before = stored(campaign)
    change = f"{CAMPAIGNS}{campaign.pk}/change/"

    listing = client.get(CAMPAIGNS).content.decode()
    assert f"{CAMPAIGNS}add/" not in listing and "delete_selected" not in listing
    page = client.get(change)
    html = page.content.decode()
    assert page.status_code == 200 and 'name="_save"' not in html
    assert str(campaign.seed) not in html and "seed" not in html.lower()
    assert "root" in html and f"/admin/games/game/{campaign.chapter_games.get().game_id}/" in html
    assert 'name="seats-0-index"' not in html and "-DELETE" not in html
    assert 'name="seats-MAX_NUM_FORMS" value="0"' in html

    assert client.get(f"{CAMPAIGNS}add/").status_code == 403
    added = client.post(
        f"{CAMPAIGNS}add/",
        {"pack": campaign.pack_id, "max_players": 2, "creator": root.pk, "status": "lobby", "seed": 1},
    )
    assert added.status_code == 403 and Campaign.objects.count() == 1
    forged = {
        "pack": campaign.pack_id, "max_players": 3, "creator": other.pk, "status": "finished", "seed": 7,
        "seats-TOTAL_FORMS": 2, "seats-INITIAL_FORMS": 1, "seats-0-id": campaign.seats.get().pk,
        "seats-0-index": 5, "seats-0-DELETE": "on", "seats-1-index": 1, "seats-1-user": other.pk,
        "chapter_games-TOTAL_FORMS": 2, "chapter_games-INITIAL_FORMS": 1,
        "chapter_games-0-id": campaign.chapter_games.get().pk, "chapter_games-0-DELETE": "on",
        "chapter_games-1-chapter": 2, "chapter_games-1-attempt": 1,
    }  # fmt: skip
    assert client.post(change, forged).status_code == 403
    assert client.get(f"{CAMPAIGNS}{campaign.pk}/delete/").status_code == 403
    assert client.post(f"{CAMPAIGNS}{campaign.pk}/delete/", {"post": "yes"}).status_code == 403
    bulk = {"action": "delete_selected", "_selected_action": [campaign.pk], "post": "yes"}
    assert client.post(CAMPAIGNS, bulk).status_code in (200, 302)
    for model in ("campaignseat", "chaptergame"):  # seats and chapter games only as inlines
        assert client.get(f"/admin/campaigns/{model}/").status_code == 404
    assert stored(campaign) == before


def test_a_campaign_shows_its_visibility_and_turn_seconds(client: Client, root: User) -> None:
    campaign = services.create_campaign(by=root, max_players=3, visibility="public", turn_seconds=120)
    client.force_login(root)
    page = client.get(f"{CAMPAIGNS}{campaign.pk}/change/").content.decode()
    assert re.search(r"Visibility:</label>\s*<div class=\"readonly\">Public<", page)
    assert re.search(r"Turn seconds:</label>\s*<div class=\"readonly\">120<", page)
    link = f"{CAMPAIGNS}{campaign.pk}/change/"
    assert link in client.get(f"{CAMPAIGNS}?visibility=public").content.decode()
    assert link not in client.get(f"{CAMPAIGNS}?visibility=private").content.decode()
