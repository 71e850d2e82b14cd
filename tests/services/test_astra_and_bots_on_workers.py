"""ASTRA's part of each solo turn and the turns of bot seats, played by a real Celery worker:
a solo game to its end, a worker killed in the middle of ASTRA's part (the turn is played once,
by the worker that runs next, and the game goes on), and bot seats beside a human.

A killed run's message stays unacknowledged in Redis and is delivered again after the
visibility timeout (5 s in this session). The slow ASTRA run is made with
MOON_ASTRA_DELAY_SECONDS, set only in the environment of the worker this test starts.
"""

import random
import time
from collections import Counter

import pytest
from django.contrib.auth.models import User

from games import selectors
from games import services as commands
from games.models import Event, Game, Seat
from tests.services.conftest import Services, Worker, play_to_the_end, wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def player(name: str) -> User:
    return User.objects.create_user(f"{name}-{time.monotonic_ns()}", password="secret-pw")


def astra_runs(worker: Worker, game: Game, message: str) -> list[dict[str, object]]:
    return [
        line for line in worker.log_lines()
        if line.get("game_id") == game.pk and line.get("message") == message
    ]  # fmt: skip


@pytest.mark.parametrize(("adventure", "level"), [(3, 5), (8, 4)])
def test_a_solo_game_is_played_to_its_end_with_astras_turns_on_the_worker(
    worker: Worker, adventure: int, level: int
) -> None:
    user = player("solo")
    game = commands.create_game(by=user, adventure=adventure, max_players=1, astra_level=level)
    commands.start_game(game=game, by=user)
    play_to_the_end(game, user, random.Random(3))
    wait_for(lambda: Game.objects.get(pk=game.pk).status == Game.Status.FINISHED, 60, "scoring")

    took = Counter(Event.objects.filter(game=game, kind="astra_took").values_list("turn", flat=True))
    last_turn = Event.objects.get(game=game, kind="game_ended").turn
    assert took == Counter(range(1, last_turn + 1))  # ASTRA took one card a turn, every turn
    assert not Event.objects.filter(game=game, kind="astra_took").exclude(actor=None).exists()
    done = [line for line in astra_runs(worker, game, "astra turn done") if line.get("count")]
    assert len(done) >= last_turn  # each on the worker (an Effect card's choice splits a part)
    result = selectors.game_view(game=game, viewer=user)["result"]
    assert result["astra"]["total"] == selectors.game_view(game=game, viewer=user)["astra"]["score"]
    if adventure == 8:  # ASTRA's own card of each turn, dealt in its part of the turn before
        played = Counter(Event.objects.filter(game=game, kind="astra_played").values_list("turn", flat=True))
        assert set(played) <= set(range(last_turn + 1)) and set(played.values()) == {1}
        assert len(played) >= last_turn
        # on the worker, unless the player chose the planet (then with the player's command)
        by_worker = Event.objects.filter(game=game, kind="astra_played", actor=None).count()
        by_player = Event.objects.filter(game=game, kind="astra_played", actor=user).count()
        assert by_worker + by_player == len(played) and by_worker > 0


def test_a_worker_killed_in_astras_part_of_a_turn_leaves_it_to_the_next_worker_once(
    services: Services, worker: Worker
) -> None:
    worker.stop()  # only the slow worker may take ASTRA's part of the turn
    slow = services.make_worker(
        "slow-astra", {"MOON_ASTRA_DELAY_SECONDS": "120"}, pool="solo", concurrency=1
    ).start()
    user = player("killed")
    try:
        game = commands.create_game(by=user, adventure=7, max_players=1, astra_level=2)
        game = commands.start_game(game=game, by=user).game
        rng = random.Random(7)
        while (decision := selectors.decision_view(game=game, viewer=user))["kind"] != "confirm":
            commands.play_move(game_id=game.pk, by=user, choice=rng.choice(decision["options"]))
        commands.confirm_turn(game_id=game.pk, by=user)  # dispatches ASTRA's part on commit

        wait_for(lambda: astra_runs(slow, game, "astra turn started"), 30, "the slow worker to start")
        slow.kill()
    finally:
        slow.kill()

    assert not Event.objects.filter(game=game, kind="astra_took").exists()
    assert selectors.decision_view(game=game, viewer=user)["kind"] == "wait"

    worker.start()
    wait_for(
        lambda: selectors.decision_view(game=game, viewer=user)["kind"] != "wait",
        60,
        "the restarted worker to play ASTRA's part of turn 1",
    )
    time.sleep(2)  # a second delivery, were there one, would have shown by now
    assert Event.objects.filter(game=game, kind="astra_took").count() == 1
    assert Event.objects.filter(game=game, kind="turn_started", turn=2).count() == 1
    assert not astra_runs(slow, game, "astra turn done")
    seqs = list(Event.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))

    play_to_the_end(game, user, random.Random(8))  # the game goes on to its end
    # scored before the test ends: its teardown's flush would race the scoring task's locks
    wait_for(lambda: Game.objects.get(pk=game.pk).status == Game.Status.FINISHED, 60, "scoring")
    took = Counter(Event.objects.filter(game=game, kind="astra_took").values_list("turn", flat=True))
    assert set(took.values()) == {1}


def test_bot_seats_are_played_by_the_worker(worker: Worker) -> None:
    user = player("host")
    game = commands.create_game(by=user, adventure=2, max_players=3)
    commands.add_bot(game=game, by=user, kind="random")
    commands.add_bot(game=game, by=user, kind="greedy")
    commands.start_game(game=game, by=user)
    play_to_the_end(game, user, random.Random(2))
    wait_for(lambda: Game.objects.get(pk=game.pk).status == Game.Status.FINISHED, 60, "scoring")

    bots = dict(Seat.objects.filter(game=game).exclude(bot="").values_list("index", "bot"))
    assert bots == {1: "random", 2: "greedy"}
    turns = Event.objects.get(game=game, kind="game_ended").turn
    for seat in bots:
        picks = [
            event
            for event in Event.objects.filter(game=game, seat=seat)
            if event.kind == "number_written"
            or (event.kind == "system_error" and event.data["cause"] == "no_writable_number")
        ]
        picked = Counter(event.turn for event in picks)
        assert set(picked) == set(range(1, turns + 1)), seat  # a pick every turn, one a turn
        assert set(picked.values()) == {1}
        assert all(event.actor_id is None for event in picks)
    played = [
        line for line in worker.log_lines()
        if line.get("game_id") == game.pk and line.get("message") == "bot played"
    ]  # fmt: skip
    assert {line["seat"] for line in played} == {1, 2}
