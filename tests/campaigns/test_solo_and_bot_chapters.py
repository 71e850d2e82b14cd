"""Solo campaigns and bot seats through real chapters, read over the API (embedded mode: the
tasks run eagerly when the command that sets them off commits): ASTRA's level a card gives a
chapter's game, the stars against ASTRA from the game's result; a bot holds its seat in each
chapter's game and makes its campaign choices (cards, opponents and, as captain, keeping the
chapter's result) through a worker, once however often the task is delivered."""

import random
from datetime import timedelta
from typing import Any, cast

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from campaigns import library
from campaigns import services as campaign_services
from campaigns.models import Campaign, CampaignEvent
from campaigns.rules import bots, decider
from campaigns.rules.events import Event, replay
from campaigns.tasks import end_chapter, play_bot_choice
from eventstore import followups
from eventstore.models import FollowUp
from games.models import Seat
from tests.api.openapi_check import CheckedClient, load
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


def logged(campaign: int) -> list[CampaignEvent]:
    return list(CampaignEvent.objects.filter(campaign_id=campaign).order_by("seq"))


def test_a_solo_chapter_plays_astra_at_the_level_the_cards_give_and_stars_rank_astra(
    alice: APIClient, post: Any, django_capture_on_commit_callbacks: Any
) -> None:
    player = CheckedClient(alice, load(alice), post)
    created = player.post(f"{API}/campaigns", {"max_players": 1, "astra_level": 3}).json()
    assert created["astra_level"] == 3
    assert created["seats"] == [{"seat": 0, "username": "alice", "bot": None, "stars": 0}]
    base = f"{API}/campaigns/{created['id']}"
    refused = player.post(f"{base}/bots", {"kind": "random"})
    assert (refused.status_code, refused.json()["code"]) == (409, "campaign_full")
    view = player.post(f"{base}/start").json()
    assert view["status"] == "playing" and view["captain"] == 0
    assert view["rules_version"] == 2 and view["astra"] == {"stars": 0, "totals": 0}
    seed_offering(created["id"], 1, {1: {"c1-launch-medal"}})
    (attempt,) = view["chapters"][0]["attempts"]
    assert attempt["astra_level"] == 3
    game = player.get(f"{API}/games/{attempt['game']}").json()
    assert game["max_players"] == 1 and game["astra"]["level"] == 3
    assert [chapter["available"] for chapter in view["chapters"]] == [True] * 8  # The Battle too

    play_through_services(game["id"], random.Random(3), django_capture_on_commit_callbacks)
    finished = player.get(f"{API}/games/{game['id']}").json()
    view = player.get(base).json()
    rank = 1 if 0 in finished["result"]["winners"] else 2  # a draw is 1st for both
    stars = (1, 0)[rank - 1]
    assert view["chapters"][0]["attempts"][0]["stars"] == [
        {"seat": 0, "stars": stars, "reasons": [{"reason": "rank", "rank": rank, "stars": stars}]}
    ]
    assert view["seats"][0]["stars"] == stars and view["captain"] == 0
    astra_rank = 1 if "astra" in finished["result"]["winners"] else 2
    assert view["astra"] == {"stars": (1, 0)[astra_rank - 1], "totals": finished["result"]["astra"]["total"]}
    assert view["offered"] == []  # cards come once the result is kept

    # the one player keeps the result, chooses the group's card (ASTRA one level down) and
    # one of the two personal cards drawn
    pick = by_seat_pick({0: "c1-launch-medal"}, group="c1-quiet-uplink")
    send = lambda client, path, body=None: client.post(path, body)  # noqa: E731
    kinds = choose_between_chapters([player], created["id"], pick, post=send)
    assert kinds == ["keep_or_replay", "card", "card"]
    kept = CampaignEvent.objects.get(campaign_id=created["id"], kind="cards_offered")
    assert len(kept.data["personal"]) == 2 and "c1-quiet-uplink" in kept.data["group"]
    view = player.get(base).json()
    (attempt,) = view["chapters"][1]["attempts"]
    assert attempt["astra_level"] == 2 and attempt["cards"] == ["c1-quiet-uplink", "c1-launch-medal"]
    journey = player.get(f"{API}/games/{attempt['game']}").json()
    assert journey["adventure"] == 2 and journey["astra"]["level"] == 2
    assert player.get(f"{API}/games/{attempt['game']}/sheets/0").json()["score"]["campaign"] == 3
    chapters = CampaignEvent.objects.filter(campaign_id=created["id"], kind="chapter_started")
    (started,) = [event for event in chapters if event.data["chapter"] == 2]
    assert started.data["setup"]["astra_level"] == 2


def test_a_bot_holds_its_seat_in_each_chapter_and_makes_its_choices_once(
    alice: APIClient, post: Any, django_capture_on_commit_callbacks: Any
) -> None:
    campaign = open_campaign([alice], post, bots=["random"])
    view = alice.get(f"{API}/campaigns/{campaign}").json()
    assert view["seats"] == [
        {"seat": 0, "username": "alice", "bot": None, "stars": 0},
        {"seat": 1, "username": None, "bot": "random", "stars": 0},
    ]
    game = current_game(alice, campaign)
    seat = Seat.objects.get(game_id=game, index=1)
    assert (seat.user, seat.bot) == (None, "random")
    play_through_services(game, random.Random(4), django_capture_on_commit_callbacks)

    # the bot's choices were made as the chapter ended; alice makes hers
    choose_between_chapters([alice], campaign, lambda seat, decision: None, post=post)
    events = logged(campaign)
    made = [event for event in events if event.seat == 1]
    choices = {"chapter_kept", "chapter_replayed", "card_chosen", "card_aimed", "mission_chosen"}
    assert made and {event.kind for event in made} <= choices
    assert all(event.actor_id is None for event in made)
    assert "card_chosen" in {event.kind for event in made}  # its personal card at least
    assert Campaign.objects.get(pk=campaign).status == Campaign.Status.PLAYING
    chapter_2 = current_game(alice, campaign)
    assert chapter_2 != game and Seat.objects.get(game_id=chapter_2, index=1).bot == "random"

    # drawn from the campaign's seed and the position: each choice made is the one drawn again
    row = Campaign.objects.get(pk=campaign)
    pack = library.stored(row.pack)
    for event in made:
        state = replay(cast(Event, earlier.as_stored()) for earlier in events if earlier.seq < event.seq)
        pending = decider.pending(state, pack)
        assert pending is not None and pending.seat == 1
        bot = bots.random_bot(random.Random(f"{row.seed}/bot/1/{event.seq - 1}"))
        drawn = bot(state, pack, 1, pending.decision)
        assert decider.decide(state, pack, 1, drawn, seed=row.seed)[0] == event.as_stored()

    # every delivery again, of the bots' choices and of the chapter's end, appends nothing
    count = len(events)
    with django_capture_on_commit_callbacks(execute=True):
        for event in made:
            play_bot_choice.delay(campaign, event.seq - 1)
            play_bot_choice.delay(campaign, event.seq - 1)
        end_chapter.delay(game)
    assert len(logged(campaign)) == count


def test_a_bot_captain_chooses_the_groups_card_and_opens_the_next_chapter(
    alice: APIClient, post: Any, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot wins chapter 1 (its result as the game would give it): it takes the captain card,
    chooses the group's card, and opens chapter 2 from the worker; alice only chooses her own.
    A run that dies between its commit and the dispatch of the bot's choice (the on-commit work
    dropped here) leaves the choice in the outbox, which the sweeper sends again: made once,
    however often a task is delivered."""
    campaign = open_campaign([alice], post, bots=["greedy"])
    seed_offering(campaign, 2, {1: {"c1-launch-medal", "c1-hangar-rumour"}})
    game = current_game(alice, campaign)
    won = {
        "scores": [
            {"seat": 0, "total": 40, "rank": 2, "missions": [], "system_errors": 1},
            {"seat": 1, "total": 60, "rank": 1, "missions": ["A"], "system_errors": 0},
        ],
        "winners": [1],
    }
    monkeypatch.setattr(campaign_services.game_selectors, "final_standings", lambda *, game_id: won)
    with django_capture_on_commit_callbacks(execute=False) as dropped:
        end_chapter.delay(game)
    assert dropped and not [event for event in logged(campaign) if event.seat == 1]
    with django_capture_on_commit_callbacks(execute=True):
        end_chapter.delay(game)  # delivered again: the chapter has ended, nothing more
        sweep_lost()  # the bot is asked
        end_chapter.delay(game)
    view = alice.get(f"{API}/campaigns/{campaign}").json()
    assert view["captain"] == 1 and [seat["stars"] for seat in view["seats"]] == [0, 1]
    # the greedy captain kept the result and took the group's start mark; alice (fewest stars)
    # chooses first
    decision = alice.get(f"{API}/campaigns/{campaign}/decision").json()
    assert decision["kind"] == "card"
    kinds = [(event.seat, event.kind, event.data.get("card")) for event in logged(campaign)]
    assert [kind for kind in kinds if kind[0] == 1] == [
        (1, "chapter_kept", None), (1, "card_chosen", "c1-tanker-escort")
    ]  # fmt: skip
    version = len(kinds)
    with django_capture_on_commit_callbacks(execute=False):  # the bot's next choice not dispatched
        campaign_services.play_choice(
            campaign=Campaign.objects.get(pk=campaign), by=alice_user(), choice=decision["options"][0]
        )
    assert len(logged(campaign)) == version + 1
    with django_capture_on_commit_callbacks(execute=True):
        play_bot_choice.delay(campaign, version - 1)  # an old choice's task delivered again
        sweep_lost()
    kinds = [(event.seat, event.kind, event.data.get("card")) for event in logged(campaign)]
    # the greedy bot: 5 for a box fewer on alice over 3 points of its own, aimed at her
    assert (1, "card_chosen", "c1-hangar-rumour") in kinds and (1, "card_aimed", "c1-hangar-rumour") in kinds
    opened = [event for event in logged(campaign) if event.kind == "chapter_opened"][-1]
    assert (opened.seat, opened.data) == (None, {"chapter": 2, "attempt": 1})
    assert alice.get(f"{API}/campaigns/{campaign}").json()["status"] == "playing"
    sheets = alice.get(f"{API}/games/{current_game(alice, campaign)}/sheets/0").json()
    assert sheets["marks"].get("water.t01") == "circle"  # the group's card, for every player
    assert len(sheets["error_boxes"]) == 2  # the rumour aimed at alice


def sweep_lost() -> None:
    """The sweeper sends again the follow-ups whose message was lost."""
    assert FollowUp.objects.exists()
    FollowUp.objects.update(retry_at=timezone.now() - timedelta(seconds=1))
    assert followups.sweep() >= 1


def alice_user() -> User:
    return User.objects.get(username="alice")


def test_bot_seats_are_added_by_the_creator_in_the_lobby_only(
    alice: APIClient, bob: APIClient, carol: APIClient, post: Any
) -> None:
    check = load(alice)
    ann, ben, cy = (CheckedClient(client, check, post) for client in (alice, bob, carol))
    campaign = ann.post(f"{API}/campaigns", {"max_players": 3, "visibility": "public"}).json()["id"]
    base = f"{API}/campaigns/{campaign}"
    refused = ben.post(f"{base}/bots", {"kind": "random"})
    assert (refused.status_code, refused.json()["code"]) == (403, "not_seated")
    ben.post(f"{base}/join")
    refused = ben.post(f"{base}/bots", {"kind": "random"})
    assert (refused.status_code, refused.json()["code"]) == (403, "not_creator")
    for body in ({"kind": "clever"}, {}, {"kind": 1}):
        refused = ann.post(f"{base}/bots", body)
        assert (refused.status_code, refused.json()["code"]) == (400, "invalid_request")
    assert ann.post(f"{base}/bots", {"kind": "greedy"}).json() == {"seat": 2, "bot": "greedy"}
    refused = cy.post(f"{base}/join")
    assert (refused.status_code, refused.json()["code"]) == (409, "campaign_full")
    refused = ann.post(f"{base}/bots", {"kind": "random"})
    assert (refused.status_code, refused.json()["code"]) == (409, "campaign_full")
    assert ann.get(base).json()["seats"][2] == {"seat": 2, "username": None, "bot": "greedy", "stars": 0}

    view = ann.post(f"{base}/start").json()
    assert view["status"] == "playing"
    game = view["chapters"][0]["attempts"][0]["game"]
    assert [(seat["username"], seat["bot"]) for seat in ann.get(f"{API}/games/{game}").json()["seats"]] == [
        ("alice", None), ("bob", None), (None, "greedy")
    ]  # fmt: skip
    refused = ann.post(f"{base}/bots", {"kind": "random"})
    assert (refused.status_code, refused.json()["code"]) == (409, "campaign_not_in_lobby")
    # a campaign of one player and a bot starts: the bot is the second player
    duo = open_campaign([ann], bots=["random"])
    assert ann.get(f"{API}/campaigns/{duo}").json()["status"] == "playing"
