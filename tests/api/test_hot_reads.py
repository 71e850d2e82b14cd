"""The most polled reads and the commands' answers, shaped without walking a serializer per
answer, answer byte for byte what their schema's serializers make of the same games."""

import datetime
import zoneinfo
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import override_settings
from rest_framework.fields import DateTimeField
from rest_framework.renderers import JSONRenderer
from rest_framework.test import APIClient

from api import serializers as s
from api import streams
from games import selectors
from games.models import Game

pytestmark = pytest.mark.django_db


def test_the_list_of_your_games_is_what_its_serializer_makes_of_them(
    alice: APIClient, bob: APIClient, post: Any
) -> None:
    solo = post(alice, "/api/v1/games", {"adventure": 3, "max_players": 1, "astra_level": 2}).json()
    public = post(alice, "/api/v1/games", {"adventure": 1, "max_players": 3, "visibility": "public"}).json()
    timed = post(bob, "/api/v1/games", {"adventure": 2, "max_players": 2, "turn_seconds": 60}).json()
    assert post(alice, f"/api/v1/games/{timed['id']}/join", {"invite": timed["invite"]}).status_code == 200
    assert post(alice, f"/api/v1/games/{public['id']}/bots", {"kind": "random"}).status_code == 201
    assert post(alice, f"/api/v1/games/{solo['id']}/start").status_code == 200

    user = User.objects.get(username="alice")
    games = Game.objects.filter(seats__user=user).order_by("-id")
    for query, expected in [
        ("", list(games)),
        ("?status=lobby", list(games.filter(status="lobby"))),
        ("?adventure=2", list(games.filter(adventure=2))),
        ("?page_size=1&page=2", list(games)[1:2]),
        ("?page=9", []),
    ]:
        answer = alice.get(f"/api/v1/games{query}")
        assert answer.status_code == 200
        page = answer.json()
        assert [game["id"] for game in page["results"]] == [game.pk for game in expected]
        shaped = s.GamesPageSerializer(
            {**page, "results": [selectors.game_summary(game=game) for game in expected]}
        ).data
        assert answer.content == JSONRenderer().render(shaped)


def test_a_commands_answer_is_what_its_serializer_makes_of_it(
    playing_game: int, alice: APIClient, bob: APIClient, carol: APIClient, post: Any, monkeypatch: Any
) -> None:
    made: list[dict[str, Any]] = []
    command_answer = selectors.command_answer

    def kept(**kwargs: Any) -> dict[str, Any]:
        made.append(command_answer(**kwargs))
        return made[-1]

    monkeypatch.setattr(selectors, "command_answer", kept)
    base = f"/api/v1/games/{playing_game}"
    answers = []

    def send(client: APIClient, path: str, data: Any = None) -> None:
        answer = post(client, f"{base}/{path}", data)
        assert answer.status_code == 200, answer.content
        answers.append(answer)

    # moves, an undo, confirms (the turn resolves: every seat's events, and the next turn's
    # start, whose seat is null), and a resignation
    for turn in range(2):
        for client in (alice, bob, carol):
            send(client, "moves", {"choice": client.get(f"{base}/decision").json()["options"][0]})
            if turn == 0 and client is alice:
                send(client, "undo")
                send(client, "moves", {"choice": client.get(f"{base}/decision").json()["options"][-1]})
            while (decision := client.get(f"{base}/decision").json())["options"]:
                send(client, "moves", {"choice": decision["options"][0]})
            send(client, "confirm")
    send(carol, "resign")

    assert len(made) == len(answers)
    assert any(event["seat"] is None for answer in made for event in answer["events"])
    for answer, raw in zip(answers, made, strict=True):
        assert answer.content == JSONRenderer().render(s.CommandResultSerializer(raw).data)


def test_a_streams_events_and_decisions_are_what_their_serializers_make_of_them(
    playing_game: int, alice: APIClient, bob: APIClient, post: Any
) -> None:
    base = f"/api/v1/games/{playing_game}"
    for client in (alice, bob):
        while (decision := client.get(f"{base}/decision").json())["options"]:
            assert post(client, f"{base}/moves", {"choice": decision["options"][0]}).status_code == 200
        assert post(client, f"{base}/confirm").status_code == 200
    game = Game.objects.get(pk=playing_game)
    for name in ("alice", "bob", "carol"):
        viewer = User.objects.get(username=name)
        events = selectors.events_page(game=game, viewer=viewer, limit=1000)["events"]
        decision = selectors.decision_view(game=game, viewer=viewer)
        # what a stream sends (api/streams.py) is what /events and /decision send
        shown = [streams.GAME.shown_event(event) for event in events]
        assert shown == s.EventSerializer(events, many=True).data
        assert streams.GAME.shown_decision(decision) == s.DecisionSerializer(decision).data
        assert any(event["seat"] is None for event in events)


TIMES = [
    datetime.datetime(2026, 11, 28, 12, 30, 5, 123456, tzinfo=datetime.UTC),
    datetime.datetime(2026, 11, 28, 12, 30, 5, tzinfo=datetime.UTC),  # no microseconds: none written
    datetime.datetime(2026, 3, 29, 1, 59, 59, 999999, tzinfo=datetime.UTC),
    datetime.datetime(2026, 11, 28, 13, 30, 5, 7, tzinfo=zoneinfo.ZoneInfo("Europe/Madrid")),
    datetime.datetime(2026, 11, 28, 12, 30, 5, 7),  # naive: taken as the project's timezone
]


@pytest.mark.parametrize("value", TIMES, ids=str)
@pytest.mark.parametrize("zone", ["UTC", "Europe/Madrid"])
def test_times_are_written_as_drfs_datetime_field_writes_them(value: datetime.datetime, zone: str) -> None:
    with override_settings(TIME_ZONE=zone):
        assert s.TimeField().to_representation(value) == DateTimeField().to_representation(value)
        assert s.TimeField(format="%Y").to_representation(value) == "2026"


def test_a_time_in_utc_ends_in_z_with_its_microseconds() -> None:
    assert s.DATETIME.to_representation(TIMES[0]) == "2026-11-28T12:30:05.123456Z"
    assert s.DATETIME.to_representation(TIMES[3]) == "2026-11-28T12:30:05.000007Z"
