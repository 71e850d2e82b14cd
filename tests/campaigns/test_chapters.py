"""Campaign cards applied through real chapters, read over the API: start marks on /sheets,
fewer System Error boxes, the mission chosen, the campaign line of the result, and the stars
of a chapter (the table for the rank, a star goal). And the chapter-end task, delivered again
and again, ends a chapter once."""

import random
from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction
from rest_framework.test import APIClient

from campaigns.models import CampaignEvent
from campaigns.tasks import end_chapter
from eventstore.models import FollowUp
from games.rules.common.missions import candidates
from games.tasks import score_game
from tests.campaigns.http import (
    API,
    by_seat_pick,
    choose_between_chapters,
    current_game,
    open_campaign,
    play_through_services,
    seed_offering,
)

pytestmark = pytest.mark.django_db

TABLE = {1: (1, 0, 0), 2: (1, 0, 0), 3: (2, 1, 0)}


def stars_of(view: dict[str, Any], chapter: int, seat: int) -> dict[str, Any]:
    attempt = view["chapters"][chapter - 1]["attempts"][-1]
    (award,) = [award for award in attempt["stars"] if award["seat"] == seat]
    return dict(award)


def test_each_card_effect_applies_through_a_chapter(
    alice: APIClient, bob: APIClient, post: Any, django_capture_on_commit_callbacks: Any
) -> None:
    players = [alice, bob]
    rng = random.Random(5)
    campaign = open_campaign(players, post)
    seed_offering(
        campaign, 2, {1: {"c1-launch-medal", "c1-hangar-rumour"}, 2: {"c2-steady-hands", "c2-spare-tank"}}
    )
    base = f"{API}/campaigns/{campaign}"

    def play(game: int) -> dict[str, Any]:
        play_through_services(game, rng, django_capture_on_commit_callbacks)
        return dict(alice.get(f"{API}/games/{game}").json())

    play(current_game(alice, campaign))
    view = alice.get(base).json()
    assert view["status"] == "between"
    offered = [card["card"] for card in view["offered"]]
    assert "c1-quiet-uplink" not in offered  # ASTRA's level: solo campaigns only
    mission_a = candidates(2, "A")[1]
    # the captain files the flight plan; alice wears the medal; bob aims the rumour at alice
    pick = by_seat_pick(
        {0: "c1-launch-medal", 1: "c1-hangar-rumour"}, group="c1-flight-plan", missions={"A": mission_a}
    )
    kinds = choose_between_chapters(players, campaign, pick, post=post)
    assert kinds == ["keep_or_replay", "card", "card", "card", "aim", "mission"] or kinds == [
        "keep_or_replay", "card", "card", "aim", "card", "mission"
    ]  # fmt: skip
    journey = current_game(alice, campaign)
    game = alice.get(f"{API}/games/{journey}").json()
    assert game["adventure"] == 2
    assert [m["card"] for m in game["missions"] if m["letter"] == "A"] == [mission_a]
    mine, theirs = (alice.get(f"{API}/games/{journey}/sheets/{seat}").json() for seat in (0, 1))
    assert len(mine["error_boxes"]) == len(theirs["error_boxes"]) - 1 == 2
    assert mine["score"]["campaign"] == 3 and theirs["score"]["campaign"] == 0

    finished = play(journey)
    breakdowns = {score["seat"]: score["breakdown"] for score in finished["result"]["scores"]}
    assert breakdowns[0]["campaign"] == 3  # the medal's line in the result
    assert breakdowns[1]["campaign"] == 0
    view = alice.get(base).json()
    # the chapter keeps each seat's result as the game's result and sheet give it
    kept = view["chapters"][1]["attempts"][0]["result"]
    assert kept["winners"] == finished["result"]["winners"]
    for entry in kept["scores"]:
        sheet = alice.get(f"{API}/games/{journey}/sheets/{entry['seat']}").json()
        score = next(s for s in finished["result"]["scores"] if s["seat"] == entry["seat"])
        assert (entry["total"], entry["rank"]) == (score["total"], score["rank"])
        assert entry["missions"] == [letter for letter in "ABC" if f"mission.{letter}" in sheet["marks"]]
        assert entry["system_errors"] == sum(box in sheet["marks"] for box in sheet["error_boxes"])
    for score in finished["result"]["scores"]:
        award = stars_of(view, 2, score["seat"])
        stars = TABLE[2][score["rank"] - 1]
        assert award["reasons"] == [{"reason": "rank", "rank": score["rank"], "stars": stars}]
    assert [seat["stars"] for seat in view["seats"]] == [
        stars_of(view, 1, seat)["stars"] + stars_of(view, 2, seat)["stars"] for seat in (0, 1)
    ]

    # greenhouses for all; bob keeps a spare tank, alice bets on no System Error in the colony
    pick = by_seat_pick({0: "c2-steady-hands", 1: "c2-spare-tank"}, group="c2-greenhouse-kits")
    choose_between_chapters(players, campaign, pick, post=post)
    colony = current_game(alice, campaign)
    mine, theirs = (alice.get(f"{API}/games/{colony}/sheets/{seat}").json() for seat in (0, 1))
    assert mine["marks"] == {"greenhouse.TL.1": "circle"}
    assert theirs["marks"] == {"greenhouse.TL.1": "circle", "water.r6c1": "circle"}
    held = {(card["card"], tuple(card["holders"])) for card in alice.get(base).json()["cards"]}
    assert {("c2-greenhouse-kits", (0, 1)), ("c2-steady-hands", (0,)), ("c2-spare-tank", (1,))} <= held

    finished = play(colony)
    sheet = alice.get(f"{API}/games/{colony}/sheets/0").json()
    errors = sum(1 for box in sheet["error_boxes"] if box in sheet["marks"])
    rank = next(score["rank"] for score in finished["result"]["scores"] if score["seat"] == 0)
    goal = [{"reason": "star_goal", "card": "c2-steady-hands", "stars": 1}] if errors == 0 else []
    assert stars_of(alice.get(base).json(), 3, 0)["reasons"] == [
        {"reason": "rank", "rank": rank, "stars": TABLE[3][rank - 1]},
        *goal,
    ]


def test_the_chapter_end_appends_once_however_often_it_runs(
    alice: APIClient, bob: APIClient, post: Any, django_capture_on_commit_callbacks: Any
) -> None:
    players = [alice, bob]
    campaign = open_campaign(players, post)
    game = current_game(alice, campaign)
    end_chapter.delay(game)  # no result yet: nothing to end
    assert CampaignEvent.objects.filter(campaign_id=campaign, kind="chapter_finished").count() == 0
    play_through_services(game, random.Random(2), django_capture_on_commit_callbacks)
    count = CampaignEvent.objects.filter(campaign_id=campaign).count()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        end_chapter.delay(game)
        end_chapter.delay(game)
        score_game.delay(game)  # a redelivered scoring task
    # sets off nothing: the chapter end was written with the result (the outbox) and done
    assert not callbacks
    assert not FollowUp.objects.exists()
    assert CampaignEvent.objects.filter(campaign_id=campaign).count() == count
    kinds = list(CampaignEvent.objects.filter(campaign_id=campaign).values_list("kind", flat=True))
    assert kinds.count("chapter_finished") == kinds.count("stars_awarded") == 1


def test_campaign_events_are_append_only_in_the_database(alice: APIClient, bob: APIClient, post: Any) -> None:
    campaign = open_campaign([alice, bob], post)
    count = CampaignEvent.objects.filter(campaign_id=campaign).count()
    for statement in (
        "UPDATE campaigns_campaignevent SET seq = seq + 1000 WHERE campaign_id = %s",
        "DELETE FROM campaigns_campaignevent WHERE campaign_id = %s",
    ):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), \
                connection.cursor() as cursor:
            cursor.execute(statement, [campaign])
    with pytest.raises(DatabaseError), transaction.atomic():
        CampaignEvent.objects.filter(campaign_id=campaign).update(data={"forged": True})
    assert CampaignEvent.objects.filter(campaign_id=campaign).count() == count
    assert not CampaignEvent.objects.filter(campaign_id=campaign, seq__gt=1000).exists()
