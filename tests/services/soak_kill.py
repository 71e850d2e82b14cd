"""`make soak-kill` (not in CI, not in `make test` nor `make test-services`: its name keeps it
out of their collection): games and a campaign played against a real worker that is killed with
SIGKILL in the middle of its work, again and again, and brought back; every game and campaign
must finish, each exactly once.

While MOON_SOAK_KILL_CYCLES kills (default 20) are to come, the test keeps MOON_SOAK_KILL_TABLES
games in play (default 6: solo games against ASTRA, and games of a player with two bot seats,
in turn, over the adventures), and one two-seat campaign (a player and a greedy bot) is played
through its eight chapters. The player's moves are made here, through the services; ASTRA's
parts, the bots' turns and campaign choices, the scoring and the chapters' ends run on the
worker, made a little slow (test-only delays) so that a kill lands mid-task. Each kill waits
until the worker has started a task it has not finished (or a few seconds), then kills the
worker's whole process group; the next worker starts at once. Lost work comes back through the
broker (a killed worker's unacknowledged message, after the visibility timeout) or the outbox's
sweeper (a message lost outright, after FOLLOWUP_RESEND_SECONDS, 10 s here).

Then, for every game: finished, one `game_ended`, one `result` (the last event), one
`turn_started` per turn, in a solo game one `astra_took` per turn, and the log re-enacted by the
rules (every run of events is what one command, or ASTRA's part once due, causes); for the
campaign: finished, one `campaign_finished`, each chapter attempt started and finished once; and
the outbox empty. The figures are printed.
"""

import contextlib
import os
import random
import time
from collections import Counter
from dataclasses import dataclass
from typing import cast

import pytest
from django.contrib.auth.models import User

from campaigns import selectors as campaign_selectors
from campaigns import services as campaigns
from campaigns.models import Campaign, CampaignEvent, ChapterGame
from eventstore.errors import GameError
from eventstore.models import FollowUp
from games import selectors
from games import services as commands
from games.models import Event, Game
from games.rules import engine
from tests.services.conftest import Services, Worker, wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

CYCLES = int(os.environ.get("MOON_SOAK_KILL_CYCLES") or 20)
TABLES = int(os.environ.get("MOON_SOAK_KILL_TABLES") or 6)
TIMEOUT = float(os.environ.get("MOON_SOAK_KILL_TIMEOUT") or 1800)
SLOW = {
    "MOON_ASTRA_DELAY_SECONDS": "0.2",
    "MOON_SCORING_DELAY_SECONDS": "0.5",
    "MOON_CHAPTER_END_DELAY_SECONDS": "0.5",
    "FOLLOWUP_RESEND_SECONDS": "10",
}


@dataclass
class Table:
    """A game (or a campaign) in play, and its one human player."""

    user: User
    game: int | None = None
    campaign: int | None = None


def new_user(name: str) -> User:
    return User.objects.create_user(f"{name}-{time.monotonic_ns()}", password="secret-pw")


def open_game(number: int) -> Table:
    user = new_user("soak")
    adventure = 1 + number % 7
    if number % 2 == 0:
        game = commands.create_game(by=user, adventure=adventure, max_players=1, astra_level=1 + number % 8)
    else:
        game = commands.create_game(by=user, adventure=adventure, max_players=3)
        for kind in ("greedy", "random"):
            commands.add_bot(game=game, by=user, kind=kind)
    commands.start_game(game=game, by=user)
    return Table(user, game=game.pk)


def open_campaign() -> Table:
    user = new_user("captain")
    campaign = campaigns.create_campaign(by=user, max_players=2)
    campaigns.add_bot(campaign=campaign, by=user, kind="greedy")
    campaigns.start_campaign(campaign=campaign, by=user)
    return Table(user, campaign=campaign.pk)


def play_game(game_id: int, user: User, rng: random.Random) -> bool:
    """One move of the player in a game (False when the game is over)."""
    game = Game.objects.get(pk=game_id)
    if game.status != Game.Status.PLAYING:
        return game.status == Game.Status.SCORING
    decision = selectors.decision_view(game=game, viewer=user)
    with contextlib.suppress(GameError):  # a bot seat's move came first: read again
        if decision["options"]:
            commands.play_move(game_id=game_id, by=user, choice=rng.choice(decision["options"]))
        elif decision["can_confirm"]:
            commands.confirm_turn(game_id=game_id, by=user)
    return True


def play(table: Table, rng: random.Random) -> bool:
    """One step of the table's player; False once the table is finished."""
    if table.game is not None:
        return play_game(table.game, table.user, rng)
    assert table.campaign is not None
    campaign = Campaign.objects.get(pk=table.campaign)
    if campaign.status == Campaign.Status.FINISHED:
        return False
    decision = campaign_selectors.decision_view(campaign=campaign, viewer=table.user)
    if decision["kind"] != "wait":
        onward = [option for option in decision["options"] if option.get("action") != "replay_chapter"]
        with contextlib.suppress(GameError):
            campaigns.play_choice(campaign=campaign, by=table.user, choice=(onward or decision["options"])[0])
        return True
    current = ChapterGame.objects.filter(campaign=campaign).order_by("-id").first()
    if current is not None:
        play_game(current.game_id, table.user, rng)
    return True


def unfinished_task(worker: Worker, skip: int) -> bool:
    """Whether the worker's log, after its first ``skip`` lines, shows a task started and not done."""
    lines = [line.get("message", "") for line in worker.log_lines()[skip:]]
    started = sum(line.endswith(" started") and "sweeper" not in line for line in lines)
    return started > sum(line.endswith(" done") for line in lines)


def check_game(game: Game) -> None:
    events = list(Event.objects.filter(game=game).order_by("seq").values_list("seq", "kind", "turn", "seat"))
    assert [seq for seq, *_ in events] == list(range(1, len(events) + 1))
    kinds = Counter(kind for _, kind, _, _ in events)
    assert (kinds["game_ended"], kinds["result"], events[-1][1]) == (1, 1, "result"), game.pk
    turns = Counter(turn for _, kind, turn, _ in events if kind == "turn_started")
    assert set(turns.values()) == {1}, (game.pk, turns)
    if game.max_players == 1:
        took = Counter(turn for _, kind, turn, _ in events if kind == "astra_took")
        assert set(took.values()) == {1}, (game.pk, took)
    # every run of events is what one command (or ASTRA's part, once due) causes, in order
    log = [row.as_stored() for row in Event.objects.filter(game=game).order_by("seq")]
    engine.reenact(cast(list[engine.Event], log))


def check_campaign(campaign: Campaign) -> int:
    """The campaign's chapter attempts, each started and finished once."""
    events = list(CampaignEvent.objects.filter(campaign=campaign).values_list("kind", "data"))
    kinds = Counter(kind for kind, _ in events)
    assert kinds["campaign_finished"] == 1, kinds
    chapters = ("chapter_started", "chapter_finished")
    attempts = [(kind, (data["chapter"], data["attempt"])) for kind, data in events if kind in chapters]
    started = Counter(attempt for kind, attempt in attempts if kind == "chapter_started")
    finished = Counter(attempt for kind, attempt in attempts if kind == "chapter_finished")
    assert started == finished and set(started.values()) == {1}, (started, finished)
    assert {chapter for chapter, _ in started} == set(range(1, 9))
    return len(started)


def test_every_game_and_campaign_finishes_once_however_often_the_worker_is_killed(
    services: Services, worker: Worker, capsys: pytest.CaptureFixture[str]
) -> None:
    began = time.monotonic()
    worker.stop()  # only the worker killed here plays
    soak = services.make_worker("soak", SLOW, concurrency=2).start()
    rng = random.Random(22)
    tables = [open_campaign(), *(open_game(number) for number in range(TABLES))]
    opened = TABLES
    kills = mid_task = 0
    incarnation = 0  # the log lines before the running worker's
    next_kill = time.monotonic() + rng.uniform(2, 4)
    try:
        while tables:
            if time.monotonic() - began > TIMEOUT:
                raise AssertionError(f"not finished in {TIMEOUT} s: {tables}")
            still = [table for table in tables if play(table, rng)]
            ended = len(tables) - len(still)
            if kills < CYCLES and ended:  # more games while kills are to come
                still += [open_game(opened + n) for n in range(ended)]
                opened += ended
            tables = still
            now = time.monotonic()
            if kills < CYCLES and now >= next_kill:
                busy = unfinished_task(soak, incarnation)
                if busy or now >= next_kill + 5:
                    mid_task += busy
                    soak.kill()
                    kills += 1
                    incarnation = len(soak.log_lines())
                    soak.start()
                    next_kill = time.monotonic() + rng.uniform(2, 4)
    finally:
        soak.stop()

    games = list(Game.objects.exclude(status=Game.Status.LOBBY))
    for game in games:
        check_game(game)
    (campaign,) = Campaign.objects.all()
    attempts = check_campaign(campaign)
    wait_for(lambda: not FollowUp.objects.exists(), 30, "the outbox to empty")
    lines = soak.log_lines()
    resent = sum(line.get("message", "").endswith("sent by the sweeper") for line in lines)
    solo = sum(game.max_players == 1 for game in games)
    with capsys.disabled():
        print(
            f"\nsoak-kill: {kills} kills ({mid_task} mid-task), {len(games)} games finished once "
            f"({solo} solo against ASTRA, {len(games) - solo - attempts} with bots, {attempts} "
            f"campaign chapters), 1 campaign finished once, {resent} follow-ups sent again by the "
            f"sweeper, stuck 0, {time.monotonic() - began:.0f} s"
        )
