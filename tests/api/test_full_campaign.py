"""Whole campaigns of rules version 2 over HTTP, chapters 1 to 8: 4 seats, two players and two
random bots; 6 seats, one player and five random bots; and one player against ASTRA at level 8
(The Battle's solo mode as its chapter 8). The players' moves in every chapter's game are random
listed options sent through /games (options of /decision, sent to /moves), their campaign
choices are made through /campaigns/{id}/decision and /moves, the bots' turns and choices by
the (eager) worker, and every campaign answer is checked against the served schema. The stars
are the table's for the ranks (solo: ASTRA takes its own rank's, its tally shown all along), the
captain follows the stars and keeps or replays a chapter before any card is offered (a replayed
chapter replaces its stars, and no card choice is ever discarded), the personal cards are a
draft (one more than the seats, none held by two), and after chapter 8 the most stars win (then
the higher total score; in solo against ASTRA's)."""

import random
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from campaigns import history
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
    """Random cards, opponents and missions; the captain's ``then`` (keep or replay)."""

    def pick(seat: int, decision: dict[str, Any]) -> dict[str, Any]:
        if decision["kind"] == "keep_or_replay":
            (option,) = [o for o in decision["options"] if o["action"] == then]
            return dict(option)
        return dict(rng.choice(decision["options"]))

    return pick


def solo_ranks(view: dict[str, Any], game: dict[str, Any]) -> None:
    """A solo chapter's rank is the game's result against ASTRA: 1st on a win or a draw; ASTRA
    takes the stars of its own rank, and its tally is shown beside the player's."""
    (score,) = game["result"]["scores"]
    assert score["rank"] == (1 if 0 in game["result"]["winners"] else 2)
    assert game["result"]["winning"]["seats"] == ([0] if score["rank"] == 1 else [])
    attempt = view["chapters"][view["chapter"] - 1]["attempts"][-1]
    assert game["astra"]["level"] == attempt["astra_level"]
    rank = 1 if "astra" in game["result"]["winners"] else 2
    stars = TABLE[view["chapter"]][rank - 1]
    assert attempt["astra"] == {"total": game["result"]["astra"]["total"], "rank": rank, "stars": stars}
    counted = [
        a for chapter in view["chapters"] for a in chapter["attempts"] if a["attempt"] == chapter["counts"]
    ]
    assert view["astra"] == {
        "stars": sum(a["astra"]["stars"] for a in counted),
        "totals": sum(a["astra"]["total"] for a in counted),
    }


def logged(campaign: int, kind: str) -> list[CampaignEvent]:
    return list(CampaignEvent.objects.filter(campaign_id=campaign, kind=kind).order_by("seq"))


def check_draft(campaign: int, chapter: int, seats: int) -> None:
    """The offer after a kept chapter: one more personal card than the seats, each taken by one
    seat only, and the group's card by the captain."""
    (offer,) = [event.data for event in logged(campaign, "cards_offered") if event.data["chapter"] == chapter]
    assert len(offer["personal"]) == seats + 1
    chosen = [
        (event.seat, event.data["card"])
        for event in logged(campaign, "card_chosen")
        if (event.data["chapter"], event.data["attempt"]) == (chapter, offer["attempt"])
    ]
    personal = [card for _, card in chosen if card in offer["personal"]]
    assert len(personal) == len(set(personal)) == seats  # no two seats hold one card
    assert sorted(int(seat or 0) for seat, card in chosen if card in offer["personal"]) == list(range(seats))
    assert [seat for seat, card in chosen if card in offer["group"]] == (
        [offer["captain"]] if offer["group"] else []
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("players", "bots", "replay"),
    [(2, 2, 2), (1, 5, None), (1, 0, 1)],
    ids=["4-seats-with-bots", "1-player-5-bots", "solo"],
)
def test_a_campaign_over_http_through_its_eight_chapters(
    make_player: Callable[[str], APIClient], post: Any, players: int, bots: int, replay: int | None
) -> None:
    seats = players + bots
    clients = [make_player(name) for name in NAMES[:players]]
    check = load(clients[0])
    checked = [CheckedClient(client, check, post) for client in clients]
    campaign = open_campaign(checked, bots=["random"] * bots, astra_level=8 if seats == 1 else None)
    send = lambda client, path, body=None: client.post(path, body)  # noqa: E731
    base = f"{API}/campaigns/{campaign}"
    view = checked[0].get(base).json()
    assert view["rules_version"] == 2
    assert view["astra"] == ({"stars": 0, "totals": 0} if seats == 1 else None)
    rng = random.Random(seats)
    captain, chapter, replayed = 0, 1, False
    held: list[dict[str, Any]] = []
    while True:
        game = current_game(checked[0], campaign)
        played = play_game(clients, game, rng, post=post)
        view = checked[chapter % players].get(base).json()
        asks = view["captain"] < players  # a bot captain keeps the result on the worker at once
        assert view["status"] == ("finished" if chapter == 8 and not asks else "between")
        assert view["chapter"] == chapter
        attempt = view["chapters"][chapter - 1]["attempts"][-1]
        assert attempt["game"] == game and attempt["status"] == "finished"
        if asks:  # the captain keeps or replays first: nothing is offered yet
            assert view["offered"] == [] and not attempt["kept"]
        check_stars(chapter, attempt, held)
        tallies = counted_stars(view, seats)
        assert [seat["stars"] for seat in view["seats"]] == tallies
        captain = expected_captain(tallies, captain)
        assert view["captain"] == captain
        if seats == 1:
            solo_ranks(view, played)
        else:
            assert view["astra"] is None
        if bots:
            assert [seat["bot"] for seat in view["seats"]] == [None] * players + ["random"] * bots

        if chapter == replay and not replayed and asks:
            replayed = True
            first = attempt
            kinds = choose_between_chapters(checked, campaign, chooser(rng, "replay_chapter"), post=send)
            assert kinds[0] == "keep_or_replay" and "card" not in kinds  # no card chosen, none lost
            view = checked[0].get(base).json()
            attempts = view["chapters"][chapter - 1]["attempts"]
            assert [a["attempt"] for a in attempts] == [1, 2] and attempts[0] == first
            assert view["chapters"][chapter - 1]["counts"] == 1  # until the replay has its result
            continue
        if replayed and chapter == replay:
            chapter_view = view["chapters"][chapter - 1]
            assert chapter_view["counts"] == 2 and len(chapter_view["attempts"]) == 2
        choose_between_chapters(checked, campaign, chooser(rng, "keep_chapter"), post=send)
        if chapter == 8:
            view = checked[0].get(base).json()
            break
        check_draft(campaign, chapter, seats)
        held = checked[0].get(base).json()["cards"]
        chapter += 1

    # the campaign is over (a solo one too, The Battle against ASTRA as its chapter 8)
    assert view["status"] == "finished" and view["chapters"][7]["attempts"][-1]["kept"]
    stars, totals = counted_stars(view, seats), counted_totals(view, seats)
    if seats == 1:
        # ASTRA is a rival: more stars, then the higher sum of chapter totals, else shared
        mine, astra = (stars[0], totals[0]), (view["astra"]["stars"], view["astra"]["totals"])
        expected: list[Any] = [0] if mine > astra else ["astra"] if mine < astra else [0, "astra"]
        assert view["winners"] == expected
    else:
        best = max(zip(stars, totals, strict=True))
        assert view["winners"] == [seat for seat in range(seats) if (stars[seat], totals[seat]) == best]
    # the same, typed: the winning seats, and whether ASTRA is among the winners
    assert view["winning"] == {
        "seats": [seat for seat in view["winners"] if seat != "astra"],
        "astra": "astra" in view["winners"],
    }
    # every card chosen belongs to an attempt that counts: no choice was discarded
    for event in logged(campaign, "card_chosen"):
        assert view["chapters"][event.data["chapter"] - 1]["counts"] == event.data["attempt"]
    count = CampaignEvent.objects.filter(campaign_id=campaign).count()
    refused = checked[0].post(f"{base}/moves", {"choice": {"action": "replay_chapter", "chapter": 8}})
    assert refused.status_code == 409
    assert CampaignEvent.objects.filter(campaign_id=campaign).count() == count

    feed: set[str] = set()
    after: int | None = 0
    while after is not None:
        page = checked[-1].get(f"{base}/events", {"after": after, "limit": 50}).json()
        feed |= {event["kind"] for event in page["events"]}
        after = page["next"]
    assert feed >= {
        "campaign_created", "chapter_opened", "chapter_started", "chapter_finished", "stars_awarded",
        "chapter_kept", "cards_offered", "card_chosen", "captain_changed", "campaign_finished",
    } - ({"captain_changed"} if seats == 1 else set())  # fmt: skip
    assert ("chapter_replayed" in feed) == replayed
    if seats == 1:  # exported, it imports as it was: ASTRA's chapter totals checked against its games
        exported: Any = clients[0].get(f"{base}/export")
        lines = b"".join(exported.streaming_content).decode().splitlines(keepends=True)
        copy = history.import_campaign(lines=lines, copy=True).campaign
        fields = ("seq", "seat", "kind", "version", "data")
        assert [[getattr(e, name) for name in fields] for e in copy.events.all()] == [
            [getattr(e, name) for name in fields]
            for e in CampaignEvent.objects.filter(campaign_id=campaign).order_by("seq")
        ]

    paths = {"", "/{campaign_id}", "/{campaign_id}/start", "/{campaign_id}/decision", "/{campaign_id}/moves"}
    paths |= {"/{campaign_id}/events"} | ({"/{campaign_id}/join"} if players > 1 else set())
    paths |= {"/{campaign_id}/bots"} if bots else set()
    assert {path for _, path, _ in check.checked} >= {f"/api/v1/campaigns{path}" for path in paths}
