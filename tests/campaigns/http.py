"""Driving campaigns over the API in tests: open one, make the choices between chapters, play a
chapter's game to its end with random bots choosing among the listed options (over HTTP, or
through the games' services when only the outcome matters)."""

import random
from collections.abc import Callable, Sequence
from typing import Any

from rest_framework.test import APIClient

from campaigns.models import Campaign
from campaigns.rules import decider
from games import selectors, services
from games.models import Game
from tests.campaigns.flow import OPEN_V2

API = "/api/v1"
Send = Callable[..., Any]
# (seat, decision) -> the option to send; None: the first one
Pick = Callable[[int, dict[str, Any]], dict[str, Any] | None]
MAX_REQUESTS = 20_000


def open_campaign(
    players: Sequence[Any],
    send: Send | None = None,
    *,
    bots: Sequence[str] = (),
    astra_level: int | None = None,
) -> int:
    """A started campaign for these players (players[i] in seat i), then bots of these kinds
    in the seats after them (one player and no bot: a solo campaign, against ASTRA of
    ``astra_level`` if given); ``send(client, path, body)`` posts (by default the client's own
    ``post``)."""
    post = send or (lambda client, path, body=None: client.post(path, body))
    body: dict[str, Any] = {"max_players": len(players) + len(bots)}
    if astra_level is not None:
        body["astra_level"] = astra_level
    created = post(players[0], f"{API}/campaigns", body)
    assert created.status_code == 201, created.content
    campaign = int(created.json()["id"])
    for seat, client in enumerate(players[1:], start=1):
        joined = post(client, f"{API}/campaigns/{campaign}/join", {"invite": created.json()["invite"]})
        assert joined.status_code == 200 and joined.json() == {"seat": seat}, joined.content
    for seat, kind in enumerate(bots, start=len(players)):
        added = post(players[0], f"{API}/campaigns/{campaign}/bots", {"kind": kind})
        assert added.status_code == 201 and added.json() == {"seat": seat, "bot": kind}, added.content
    started = post(players[0], f"{API}/campaigns/{campaign}/start")
    assert started.status_code == 200, started.content
    return campaign


def seed_offering(campaign: int, players: int, wanted: dict[int, set[str]]) -> None:
    """Give a campaign (of the shipped pack, rules version 2) a seed whose draft offers, after
    the first attempt of each chapter named, the personal cards named."""
    seed = next(
        seed
        for seed in range(100_000)
        if all(
            cards <= set(decider.personal_offer(OPEN_V2, chapter, 1, players=players, seed=seed))
            for chapter, cards in wanted.items()
        )
    )
    Campaign.objects.filter(pk=campaign).update(seed=seed)


def current_game(client: Any, campaign: int) -> int:
    view = client.get(f"{API}/campaigns/{campaign}").json()
    attempt = view["chapters"][view["chapter"] - 1]["attempts"][-1]
    return int(attempt["game"])


def choose_between_chapters(
    players: Sequence[Any], campaign: int, pick: Pick, *, post: Send, stop_at: str | None = None
) -> list[str]:
    """Answer every campaign decision, seat by seat, until a chapter's game runs, nothing is
    asked, or a decision of the kind ``stop_at`` is (left unanswered). The kinds answered."""
    kinds: list[str] = []
    for _ in range(100):
        asked = [
            (seat, decision)
            for seat, client in enumerate(players)
            if (decision := client.get(f"{API}/campaigns/{campaign}/decision").json())["kind"] != "wait"
        ]
        if not asked:
            return kinds
        assert len(asked) == 1, asked  # one seat decides at a time
        seat, decision = asked[0]
        if decision["kind"] == stop_at:
            return kinds
        choice = pick(seat, decision) or decision["options"][0]
        response = post(players[seat], f"{API}/campaigns/{campaign}/moves", {"choice": choice})
        assert response.status_code == 200, response.content
        kinds.append(decision["kind"])
        if response.json()["status"] == "playing":
            return kinds
    raise AssertionError("the campaign asked for more than 100 choices")



def play_game(players: Sequence[APIClient], game: int, rng: random.Random, *, post: Send) -> dict[str, Any]:
    """Play a game to its end over HTTP: each player's seat (the first ones; bot seats and
    ASTRA play on the worker) sends a random listed option (claiming every mission offered), or
    confirms; the decision of each answer is the seat's next one."""
    base = f"{API}/games/{game}"
    decisions = {seat: client.get(f"{base}/decision").json() for seat, client in enumerate(players)}
    status = "playing"
    for _ in range(MAX_REQUESTS):
        if status != "playing":
            break
        moved = False
        for seat, client in enumerate(players):
            decision = decisions[seat]
            if decision["kind"] == "wait" or status != "playing":
                continue
            if decision["options"]:
                options = decision["options"]
                choice = options[0] if decision["kind"] == "mission" else rng.choice(options)
                response = post(client, f"{base}/moves", {"choice": choice})
            else:
                response = post(client, f"{base}/confirm")
            assert response.status_code == 200, response.content
            answer = response.json()
            decisions[seat] = answer["decision"]
            status = answer["status"]
            moved = True
        if not moved:
            # another seat's confirm resolved the turn (or ASTRA's part, or the bot seats' turns,
            # which may end the game): read the decisions again
            decisions = {seat: client.get(f"{base}/decision").json() for seat, client in enumerate(players)}
            if all(d["kind"] == "wait" for d in decisions.values()):
                status = players[0].get(base).json()["status"]
                assert status != "playing", "every seat waits"
    game_view = players[0].get(base).json()
    assert game_view["status"] == "finished", game_view["status"]
    return dict(game_view)


def play_through_services(game_id: int, rng: random.Random, capture: Any) -> None:
    """Play a game to its end through the games' services (no HTTP): its players' seats send
    random listed options, every mission offered claimed; ``capture``
    (django_capture_on_commit_callbacks) runs what follows each command as its commit would:
    ASTRA's part, the bot seats' turns, the scoring and the chapter's end (and the campaign
    bots' choices after it)."""
    game = Game.objects.get(pk=game_id)
    users = [
        seat.user for seat in game.seats.select_related("user").order_by("index") if seat.user is not None
    ]
    for _ in range(MAX_REQUESTS):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        for user in users:
            decision = selectors.decision_view(game=game, viewer=user)
            with capture(execute=True):
                if decision["options"]:
                    options = decision["options"]
                    choice = options[0] if decision["kind"] == "mission" else rng.choice(options)
                    services.play_move(game_id=game.pk, by=user, choice=choice)
                elif decision["can_confirm"]:
                    services.confirm_turn(game_id=game.pk, by=user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def by_seat_pick(
    cards: dict[int, str], *, group: str | None = None, missions: dict[str, int] | None = None
) -> Pick:
    """Choose the ``group`` card when the captain is offered it, for each seat the personal card
    named for it, and missions by their card (the first option otherwise)."""

    def pick(seat: int, decision: dict[str, Any]) -> dict[str, Any] | None:
        for option in decision["options"]:
            if decision["kind"] == "card" and option["card"] in (group, cards.get(seat)):
                return dict(option)
            wanted = (missions or {}).get(option.get("letter", ""))
            if decision["kind"] == "mission" and option["card"] == wanted:
                return dict(option)
        return None

    return pick

