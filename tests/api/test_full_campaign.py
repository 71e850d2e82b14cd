"""Whole campaigns over HTTP, chapters 1 to 8, for 3 and 6 players: every chapter's game played
by random bots through /games (options of /decision, sent to /moves), every campaign choice
made through /campaigns/{id}/decision and /moves, and every campaign answer checked against the
served schema. The stars are the table's for the ranks, the captain follows the stars, a
replayed chapter replaces its stars, and after chapter 8 the most stars win (then the higher
total score over the chapters)."""

import random
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from campaigns.models import CampaignEvent
from tests.api.openapi_check import CheckedClient, load
from tests.campaigns.http import API, choose_between_chapters, current_game, open_campaign, play_game

# rules/campaign.md, "After each chapter": final rank -> stars
TABLE = {
    1: (1, 0, 0), 2: (1, 0, 0), 3: (2, 1, 0), 4: (2, 1, 0), 5: (3, 2, 1), 6: (4, 2, 1), 7: (5, 3, 1),
    8: (6, 3, 1),
}  # fmt: skip
NAMES = ("ann", "ben", "cy", "dee", "eli", "fay")


def expected_captain(tallies: list[int], previous: int) -> int:
    best = max(tallies)
    return previous if tallies[previous] == best else tallies.index(best)


def counted_stars(view: dict[str, Any], players: int) -> list[int]:
    """Each seat's stars over the attempts that count, read from the chapters of the view."""
    tallies = [0] * players
    for chapter in view["chapters"]:
        counting = [a for a in chapter["attempts"] if a["attempt"] == chapter["counts"]]
        for attempt in counting:
            for award in attempt["stars"]:
                tallies[award["seat"]] += award["stars"]
    return tallies


def counted_totals(view: dict[str, Any], players: int) -> list[int]:
    """Each seat's total score over the attempts that count."""
    totals = [0] * players
    for chapter in view["chapters"]:
        for attempt in chapter["attempts"]:
            if attempt["attempt"] == chapter["counts"]:
                for score in attempt["result"]["scores"]:
                    totals[score["seat"]] += score["total"]
    return totals


def check_stars(chapter: int, attempt: dict[str, Any], held: list[dict[str, Any]]) -> None:
    """The stars of an attempt: the table's for each rank, plus only goals of cards the seat held."""
    ranks = {score["seat"]: score["rank"] for score in attempt["result"]["scores"]}
    goals = {card["card"] for card in held if any(e["kind"] == "star_goal" for e in card["effects"])}
    for award in attempt["stars"]:
        rank_reason, *goal_reasons = award["reasons"]
        rank = ranks[award["seat"]]
        stars = TABLE[chapter][rank - 1] if rank <= len(TABLE[chapter]) else 0
        assert rank_reason == {"reason": "rank", "rank": rank, "stars": stars}
        for reason in goal_reasons:
            assert reason["reason"] == "star_goal" and reason["card"] in goals
            assert any(c["card"] == reason["card"] and award["seat"] in c["holders"] for c in held)
        assert award["stars"] == sum(reason["stars"] for reason in award["reasons"])


def chooser(rng: random.Random, then: str) -> Callable[[int, dict[str, Any]], dict[str, Any]]:
    """Random cards, opponents and missions; the captain's ``then``."""

    def pick(seat: int, decision: dict[str, Any]) -> dict[str, Any]:
        if decision["kind"] == "chapter":
            (option,) = [o for o in decision["options"] if o["action"] == then]
            return dict(option)
        return dict(rng.choice(decision["options"]))

    return pick


@pytest.mark.django_db
@pytest.mark.parametrize(("players", "replay"), [(3, 2), (6, None)])
def test_a_campaign_over_http_through_its_eight_chapters(
    make_player: Callable[[str], APIClient], post: Any, players: int, replay: int | None
) -> None:
    clients = [make_player(name) for name in NAMES[:players]]
    check = load(clients[0])
    checked = [CheckedClient(client, check, post) for client in clients]
    campaign = open_campaign(checked)
    send = lambda client, path, body=None: client.post(path, body)  # noqa: E731
    base = f"{API}/campaigns/{campaign}"
    rng = random.Random(players)
    captain, chapter, replayed = 0, 1, False
    held: list[dict[str, Any]] = []
    while True:
        game = current_game(checked[0], campaign)
        play_game(clients, game, rng, post=post)
        view = checked[chapter % players].get(base).json()
        assert view["status"] == ("finished" if chapter == 8 else "between")
        assert view["chapter"] == chapter
        attempt = view["chapters"][chapter - 1]["attempts"][-1]
        assert attempt["game"] == game and attempt["status"] == "finished"
        check_stars(chapter, attempt, held)
        tallies = counted_stars(view, players)
        assert [seat["stars"] for seat in view["seats"]] == tallies
        captain = expected_captain(tallies, captain)
        assert view["captain"] == captain

        if chapter == replay and not replayed:
            replayed = True
            first = attempt
            kinds = choose_between_chapters(checked, campaign, chooser(rng, "replay_chapter"), post=send)
            assert "chapter" in kinds  # then the missions the cards in effect choose, if any
            view = checked[0].get(base).json()
            attempts = view["chapters"][chapter - 1]["attempts"]
            assert [a["attempt"] for a in attempts] == [1, 2] and attempts[0] == first
            assert view["chapters"][chapter - 1]["counts"] == 1  # until the replay has its result
            continue
        if replayed and chapter == replay:
            chapter_view = view["chapters"][chapter - 1]
            assert chapter_view["counts"] == 2 and len(chapter_view["attempts"]) == 2
        if chapter == 8:
            break
        choose_between_chapters(checked, campaign, chooser(rng, "next_chapter"), post=send)
        held = checked[0].get(base).json()["cards"]
        chapter += 1

    # after chapter 8 the campaign is over: the most stars win, then the higher total score
    stars, totals = counted_stars(view, players), counted_totals(view, players)
    best = max(zip(stars, totals, strict=True))
    assert view["winners"] == [seat for seat in range(players) if (stars[seat], totals[seat]) == best]
    count = CampaignEvent.objects.filter(campaign_id=campaign).count()
    refused = checked[captain].post(f"{base}/moves", {"choice": {"action": "replay_chapter", "chapter": 8}})
    assert refused.status_code == 409
    assert CampaignEvent.objects.filter(campaign_id=campaign).count() == count

    logged: set[str] = set()
    after: int | None = 0
    while after is not None:
        page = checked[1].get(f"{base}/events", {"after": after, "limit": 50}).json()
        logged |= {event["kind"] for event in page["events"]}
        after = page["next"]
    assert logged >= {
        "campaign_created", "chapter_opened", "chapter_started", "chapter_finished", "stars_awarded",
        "cards_offered", "card_chosen", "captain_changed", "campaign_finished",
    }  # fmt: skip
    if replay:
        assert "chapter_replayed" in logged
    assert {path for _, path, _ in check.checked} >= {
        "/api/v1/campaigns", "/api/v1/campaigns/{campaign_id}", "/api/v1/campaigns/{campaign_id}/join",
        "/api/v1/campaigns/{campaign_id}/start", "/api/v1/campaigns/{campaign_id}/decision",
        "/api/v1/campaigns/{campaign_id}/moves", "/api/v1/campaigns/{campaign_id}/events",
    }  # fmt: skip
