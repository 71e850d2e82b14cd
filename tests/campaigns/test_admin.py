"""The Django admin lists the content packs as loaded and the campaigns."""

import pytest
from django.contrib.auth.models import User
from django.test import Client

from campaigns import services

pytestmark = pytest.mark.django_db


def test_the_admin_lists_packs_and_campaigns(client: Client) -> None:
    admin = User.objects.create_superuser("root", password="admin-secret-pw")
    campaign = services.create_campaign(by=admin, max_players=3)
    client.force_login(admin)
    packs = client.get("/admin/campaigns/pack/")
    assert packs.status_code == 200
    assert "Open Orbit" in packs.content.decode() and campaign.pack.content_hash in packs.content.decode()
    campaigns = client.get("/admin/campaigns/campaign/")
    assert campaigns.status_code == 200
    assert f"Campaign {campaign.pk} (lobby)" in campaigns.content.decode()
    assert client.get(f"/admin/campaigns/campaign/{campaign.pk}/change/").status_code == 200
    assert client.get("/admin/campaigns/campaignevent/").status_code == 200
