"""Campaign choices over HTTP between two chapters: whatever a client sends, the answer is below
500 and a refusal appends nothing; a listed option is taken as it is, once, also when retried
with its Idempotency-Key."""

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from campaigns.models import CampaignEvent
from tests.api.test_no_server_errors import json_values
from tests.campaigns.http import API, current_game, open_campaign, play_through_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def between(alice: APIClient, bob: APIClient, post: Any, django_capture_on_commit_callbacks: Any) -> int:
    """A two-player campaign whose chapter 1 is over and kept by its captain: the cards are
    offered."""
    campaign = open_campaign([alice, bob], post)
    play_through_services(current_game(alice, campaign), random.Random(9), django_capture_on_commit_callbacks)
    seat, decision = whose_turn([alice, bob], campaign)
    assert decision["kind"] == "keep_or_replay"
    kept = post([alice, bob][seat], f"{API}/campaigns/{campaign}/moves", {"choice": decision["options"][0]})
    assert [event["kind"] for event in kept.json()["events"]] == ["chapter_kept", "cards_offered"]
    return campaign


def whose_turn(clients: list[APIClient], campaign: int) -> tuple[int, dict[str, Any]]:
    for seat, client in enumerate(clients):
        decision = client.get(f"{API}/campaigns/{campaign}/decision").json()
        if decision["kind"] != "wait":
            return seat, decision
    raise AssertionError("nobody is asked anything")


choices = st.fixed_dictionaries(
    {},
    optional={
        "action": st.sampled_from(
            ["choose_card", "aim_card", "choose_mission", "next_chapter", "replay_chapter", "keep_chapter"]
        ) | json_values,
        "card": st.sampled_from(["c1-tanker-escort", "c1-launch-medal", "c7-veteran", "x"])
        | st.integers(60, 140)
        | json_values,
        "target": st.integers(-1, 3) | json_values,
        "letter": st.sampled_from(["A", "B", "C", "D"]) | json_values,
        "chapter": st.integers(0, 9) | json_values,
    },
)


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=st.fixed_dictionaries({"choice": choices}) | json_values, seat=st.integers(0, 1))
def test_any_choice_body_gets_a_json_answer_below_500(
    between: int, alice: APIClient, bob: APIClient, body: Any, seat: int
) -> None:
    before = CampaignEvent.objects.filter(campaign_id=between).count()
    response = [alice, bob][seat].post(f"{API}/campaigns/{between}/moves", body, format="json")
    assert response.status_code < 500, response.content
    if response.status_code >= 400:
        assert response.json()["code"] and response.json()["detail"]
        assert CampaignEvent.objects.filter(campaign_id=between).count() == before


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    body=st.fixed_dictionaries(
        {}, optional={"max_players": json_values, "astra_level": json_values, "pack": json_values}
    )
)
def test_any_campaign_creation_body_gets_a_json_answer_below_500(alice: APIClient, body: Any) -> None:
    response = alice.post(f"{API}/campaigns", body, format="json")
    assert response.status_code < 500, response.content
    if response.status_code >= 400:
        assert response.json()["code"]


def test_only_the_seat_asked_may_choose_and_only_a_listed_option(
    between: int, alice: APIClient, bob: APIClient, post: Any
) -> None:
    clients = [alice, bob]
    base = f"{API}/campaigns/{between}"
    seat, decision = whose_turn(clients, between)
    other = clients[1 - seat]
    count = CampaignEvent.objects.filter(campaign_id=between).count()
    refused = post(other, f"{base}/moves", {"choice": decision["options"][0]})
    assert refused.status_code == 409 and refused.json()["code"] == "not_your_choice"
    veteran = {"action": "choose_card", "card": "c7-veteran"}  # offered after chapter 7 only
    unlisted = post(clients[seat], f"{base}/moves", {"choice": veteran})
    assert unlisted.status_code == 400 and unlisted.json()["code"] == "illegal_choice"
    assert CampaignEvent.objects.filter(campaign_id=between).count() == count

    key = {"HTTP_IDEMPOTENCY_KEY": "campaign-choice-1"}
    first = post(clients[seat], f"{base}/moves", {"choice": decision["options"][-1]}, **key)
    assert first.status_code == 200
    answer = first.json()
    assert [event["kind"] for event in answer["events"]] == ["card_chosen"]
    assert answer["events"][0]["seat"] == seat and answer["version"] == count + 1
    again = post(clients[seat], f"{base}/moves", {"choice": decision["options"][-1]}, **key)
    assert again.json() == answer and again.headers["Idempotent-Replayed"] == "true"
    assert CampaignEvent.objects.filter(campaign_id=between).count() == count + 1
