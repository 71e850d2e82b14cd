"""Absent players: a phase's deadline passes, the seats that did not finish it are played for
(``autopilot``), three in a row hand the seat to a bot, and a player may resign. Time is moved
by a clock the test holds, and deadline tasks are delivered by the test (never slept on)."""

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from eventstore import followups
from eventstore.models import FollowUp
from games import tasks
from games.models import Event, Game

pytestmark = pytest.mark.django_db

API = "/api/v1"


class Clock:
    """The time Django reads (``timezone.now``), moved by the test."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    held = Clock()
    monkeypatch.setattr(timezone, "now", lambda: held.now)
    return held


@pytest.fixture
def deadlines(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[tuple[int, int], float]]]:
    """The deadlines put in the outbox (the task's arguments, and how far off they are due),
    held for the test to deliver; the rows are written as always (and wait for a sweeper)."""
    held: list[tuple[tuple[int, int], float]] = []
    write = followups.after_commit

    def after_commit(**kwargs: Any) -> None:
        write(**kwargs)
        if followups.DEADLINE in kwargs["kinds"]:
            due = (kwargs["due_at"] - timezone.now()).total_seconds()
            held.append(((kwargs["stream_id"], kwargs["version"]), due))

    monkeypatch.setattr(followups, "after_commit", after_commit)
    yield held


def kinds_of(game_id: int, seat: int) -> list[tuple[str, dict[str, Any]]]:
    rows = Event.objects.filter(game_id=game_id, seat=seat, kind__in=["autopilot", "seat_resigned"])
    return [(row.kind, row.data) for row in rows.order_by("seq")]


def test_a_six_player_game_where_two_seats_never_act_finishes(
    alice: APIClient,
    bob: APIClient,
    clock: Clock,
    deadlines: list[tuple[tuple[int, int], float]],
    post: Any,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    created = post(alice, f"{API}/games", {"adventure": 1, "max_players": 6, "turn_seconds": 30}).json()
    game_id, base = created["id"], f"{API}/games/{created['id']}"
    post(bob, f"{base}/join", {"invite": created["invite"]})
    for _ in range(4):
        post(alice, f"{base}/bots", {"kind": "random"})
    started = post(alice, f"{base}/start").json()
    assert started["deadline"] == (clock.now + timedelta(seconds=30)).isoformat().replace("+00:00", "Z")
    assert deadlines and all(countdown == 30 for _, countdown in deadlines)
    # kept in the outbox, due when the phase's time is up
    row = FollowUp.objects.get(stream="game", stream_id=game_id, kind=followups.DEADLINE)
    assert row.due_at == clock.now + timedelta(seconds=30)

    for _ in range(300):
        if Game.objects.get(pk=game_id).status == Game.Status.FINISHED:
            break
        due, deadlines[:] = list(deadlines), []
        assert due, "the game waits for a deadline no task keeps"
        # one second early, a deadline plays nothing
        clock.advance(29)
        before = Event.objects.filter(game_id=game_id).count()
        with django_capture_on_commit_callbacks(execute=True):
            tasks.play_deadline.apply(args=due[-1][0])
        assert Event.objects.filter(game_id=game_id).count() == before
        clock.advance(2)
        for args, _ in due:
            with django_capture_on_commit_callbacks(execute=True):
                tasks.play_deadline.apply(args=args)
            # delivered again, it finds nothing left to play
            after = Event.objects.filter(game_id=game_id).count()
            with django_capture_on_commit_callbacks(execute=True):
                tasks.play_deadline.apply(args=args)
            assert Event.objects.filter(game_id=game_id).count() == after
    game = alice.get(base).json()
    assert game["status"] == "finished" and game["deadline"] is None
    assert game["result"]["resigned"] == [0, 1]
    assert [seat["resigned"] for seat in game["seats"]] == [True, True, False, False, False, False]
    for seat in (0, 1):
        assert kinds_of(game_id, seat) == [
            *(("autopilot", {"reason": "timeout", "phase": "actions", "in_a_row": n}) for n in (1, 2, 3)),
            ("seat_resigned", {"reason": "timeouts"}),
        ]
    # each absent player is told in their own feed
    feed = alice.get(f"{base}/events", {"limit": 100_000}).json()["events"]
    told = [event for event in feed if event["kind"] == "autopilot" and event["seat"] == 0]
    assert [event["data"]["in_a_row"] for event in told] == [1, 2, 3]


def test_a_last_moment_confirm_is_not_played_again(
    alice: APIClient,
    bob: APIClient,
    clock: Clock,
    deadlines: list[tuple[tuple[int, int], float]],
    post: Any,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    created = post(alice, f"{API}/games", {"adventure": 1, "max_players": 2, "turn_seconds": 30}).json()
    base = f"{API}/games/{created['id']}"
    post(bob, f"{base}/join", {"invite": created["invite"]})
    post(alice, f"{base}/start")
    def play_turn(client: APIClient) -> None:
        """The client plays the turn in play to its confirmation (not the next one)."""
        turn = client.get(base).json()["turn"]
        while client.get(base).json()["turn"] == turn:
            decision = client.get(f"{base}/decision").json()
            if decision["kind"] == "wait":
                return
            if decision["options"]:
                post(client, f"{base}/moves", {"choice": decision["options"][0]})
            else:
                post(client, f"{base}/confirm")

    def deliver(*, keep: bool = False) -> None:
        due = list(deadlines)
        if not keep:
            deadlines.clear()
        for args, _ in due:
            with django_capture_on_commit_callbacks(execute=True):
                tasks.play_deadline.apply(args=args)

    timed_out = ("autopilot", {"reason": "timeout", "phase": "actions", "in_a_row": 1})
    # turn 1: bob plays and confirms in the last second; alice never does
    clock.advance(29)
    play_turn(bob)
    clock.advance(2)
    deliver()
    assert kinds_of(created["id"], 1) == []
    assert kinds_of(created["id"], 0) == [timed_out]
    assert alice.get(base).json()["turn"] == 2
    # turn 2 both play; turn 3 neither: alice's count of deadlines in a row started over
    play_turn(alice)
    play_turn(bob)
    deliver(keep=True)  # turn 2's deadline (the turn is over), turn 3's (not passed): nothing
    assert kinds_of(created["id"], 0) == [timed_out]
    clock.advance(31)
    deliver()
    assert kinds_of(created["id"], 0) == [timed_out, timed_out]
    assert kinds_of(created["id"], 1) == [timed_out]


def test_a_resigned_seat_is_played_by_a_bot_to_the_end(alice: APIClient, bob: APIClient, post: Any) -> None:
    created = post(alice, f"{API}/games", {"adventure": 2, "max_players": 2}).json()
    base = f"{API}/games/{created['id']}"
    post(bob, f"{base}/join", {"invite": created["invite"]})
    post(alice, f"{base}/start")
    resigned = post(bob, f"{base}/resign")
    assert resigned.status_code == 200 and resigned.json()["decision"]["kind"] == "wait"
    assert [event["kind"] for event in resigned.json()["events"]] == ["seat_resigned"]
    again = post(bob, f"{base}/resign")
    assert (again.status_code, again.json()["code"]) == (409, "seat_resigned")
    moved = post(bob, f"{base}/moves", {"choice": {"action": "skip"}})
    assert (moved.status_code, moved.json()["code"]) == (409, "seat_resigned")
    assert bob.get(base).json()["seats"][1]["resigned"] is True

    for _ in range(2_000):
        decision = alice.get(f"{base}/decision").json()
        if decision["kind"] == "wait":
            break
        if decision["options"]:
            answer = post(alice, f"{base}/moves", {"choice": decision["options"][0]})
        else:
            answer = post(alice, f"{base}/confirm")
        assert answer.status_code == 200, answer.content
    game = bob.get(base).json()
    assert game["status"] == "finished"
    assert game["result"]["resigned"] == [1]
    assert bob.get(f"{base}/decision").json()["kind"] == "wait"
    bot_moves = Event.objects.filter(game_id=created["id"], seat=1, kind="confirmed", actor__isnull=True)
    assert bot_moves.count() == game["turn"]


def test_a_campaigns_turn_seconds_apply_to_its_chapters(alice: APIClient, clock: Clock, post: Any) -> None:
    created = post(alice, f"{API}/campaigns", {"max_players": 2, "turn_seconds": 45}).json()
    assert created["turn_seconds"] == 45
    base = f"{API}/campaigns/{created['id']}"
    post(alice, f"{base}/bots", {"kind": "random"})
    game_id = post(alice, f"{base}/start").json()["chapters"][0]["attempts"][0]["game"]
    game = alice.get(f"{API}/games/{game_id}").json()
    assert game["turn_seconds"] == 45
    assert game["deadline"] == (clock.now + timedelta(seconds=45)).isoformat().replace("+00:00", "Z")
