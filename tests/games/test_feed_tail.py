"""The shared tail of a game's log (what every open stream of a game in a process reads from):
after each event appended, each seat's follower gets exactly what `/events` adds to its own
feed, and its decision whenever its feed grew, which is the only time the decision changes;
the same when the tail is handed the rows a commit of its process appended, reading nothing."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from eventstore import notify
from games import hot_queries, selectors, snapshots
from games.models import Game, Seat
from games.rules import engine
from games.rules.play import bots
from tests.games.histories import append_events, player

SEATS = 3


@pytest.mark.django_db
@pytest.mark.parametrize("adventure", [1, 8])
def test_each_follower_gets_what_its_feed_gains_after_every_event(adventure: int) -> None:
    users = [player(name) for name in ("ann", "ben", "cy")]
    rng = random.Random(7)
    _, events = bots.play_game(adventure=adventure, bots=[bots.random_bot(rng) for _ in users], seed=7)
    events = events[:150]  # a few turns, with other seats' moves held and revealed
    game = Game.objects.create(
        adventure=adventure, max_players=SEATS, creator=users[0], seed=7, status=Game.Status.PLAYING
    )
    Seat.objects.bulk_create(Seat(game=game, user=user, index=i) for i, user in enumerate(users))
    tail = selectors.FeedTail(game.pk)
    after = dict.fromkeys(range(SEATS), 0)
    decisions = {seat: selectors.decision_view(game=game, viewer=users[seat]) for seat in range(SEATS)}
    # a tail whose first look comes mid-game, mid-turn (a stream opened then), its followers where
    # their first read left them: it starts from the snapshot and the turn in play
    late: selectors.FeedTail | None = None
    late_after: dict[int, int] = {}
    # a tail handed each commit's rows once its first look has read the log
    handed = selectors.FeedTail(game.pk)
    state = engine.GameState()
    for index, event in enumerate(events):
        rows = append_events(game, [event], version=index, actor=None)
        if handed.state is None:
            handed_answers = handed.catch_up({(seat, after[seat]) for seat in range(SEATS)})
        else:
            commit = notify.following([notify.Commit(rows, game)], after=handed.position, latest=index + 1)
            with CaptureQueriesContext(connection) as queries:
                handed_answers = handed.catch_up({(seat, after[seat]) for seat in range(SEATS)}, commit)
            assert not queries.captured_queries
        engine.evolve(state, event)
        if (index + 1) % snapshots.SNAPSHOT_EVERY == 0:  # as commands write it: the tail folds the rest
            snapshots.save(game=game, state=state, seq=index + 1)
        if index == 100:
            late = selectors.FeedTail(game.pk)
            pages = {seat: selectors.events_page(game=game, viewer=users[seat]) for seat in after}
            late_after = {seat: page["version"] for seat, page in pages.items()}
        if late is not None:
            late_answers = late.catch_up({(seat, late_after[seat]) for seat in range(SEATS)})
        answers = tail.catch_up({(seat, after[seat]) for seat in range(SEATS)})
        assert handed_answers == answers, f"handed after event {index + 1}"
        for seat, user in enumerate(users):
            answer = answers[(seat, after[seat])]
            assert answer is not None
            page = selectors.events_page(game=game, viewer=user, after=after[seat], limit=500)
            assert answer.events == page["events"], f"seat {seat} after event {index + 1}"
            assert answer.after == page["version"]
            now = selectors.decision_view(game=game, viewer=user)
            if answer.events:
                assert answer.decision == now
            else:
                assert answer.decision is None and now == decisions[seat], "changed unseen"
            decisions[seat] = now
            after[seat] = answer.after
            if late is not None:
                late_answer = late_answers[(seat, late_after[seat])]
                assert late_answer is not None
                late_page = selectors.events_page(game=game, viewer=user, after=late_after[seat], limit=500)
                assert late_answer.events == late_page["events"], f"late seat {seat} after event {index + 1}"
                assert late_answer.decision == (now if late_answer.events else None)
                late_after[seat] = late_answer.after
    assert late is not None and late_after == after
    # a follower whose position lies before the turn in play reads its feed in full
    assert tail.catch_up({(1, 0)})[(1, 0)] is None


@pytest.mark.django_db
def test_the_tails_reads_give_each_events_time_as_the_orm_does() -> None:
    # On SQLite a time read with plain SQL through a union comes back as text: a stream's
    # message wrote it as "2026-11-29 14:25:16.313657" instead of /events' ISO form.
    users = [player(name) for name in ("ann", "ben")]
    _, events = bots.play_game(adventure=1, bots=[bots.random_bot(random.Random(3)) for _ in users], seed=3)
    game = Game.objects.create(
        adventure=1, max_players=2, creator=users[0], seed=3, status=Game.Status.PLAYING
    )
    Seat.objects.bulk_create(Seat(game=game, user=user, index=i) for i, user in enumerate(users))
    stored = append_events(game, events[:20], version=0, actor=None)
    snapshots.save(game=game, state=engine.GameState(), seq=0)
    reads = [
        hot_queries.tail(game.pk, after=0, engine_version=snapshots.ENGINE_VERSION)[2],
        hot_queries.tail(game.pk, after=0, engine_version=None)[2],
        hot_queries.turn_in_play(game.pk)[1],
    ]
    for rows in reads:
        assert rows
        for row in rows:
            assert row.created_at == stored[row.seq - 1].created_at
