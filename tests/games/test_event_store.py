"""The event table is append-only in the database itself, and seq is dense per game."""

import pytest
from django.contrib.auth.models import User
from django.db import DatabaseError, connection, transaction

from games import services
from games.models import Event, Game
from tests.games.histories import append_events

pytestmark = pytest.mark.django_db


@pytest.fixture
def started() -> Game:
    alice = User.objects.create_user("alice", password="secret-pw")
    bob = User.objects.create_user("bob", password="secret-pw")
    game = services.create_game(by=alice, adventure=1, max_players=2)
    services.join_game(game=game, by=bob, invite=game.invite)
    return services.start_game(game=game, by=alice).game


def test_raw_update_is_refused(started: Game) -> None:
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), \
            connection.cursor() as cursor:
        cursor.execute("UPDATE games_event SET seq = seq + 1000 WHERE game_id = %s", [started.pk])
    assert not Event.objects.filter(game=started, seq__gt=1000).exists()


def test_raw_delete_is_refused(started: Game) -> None:
    count = Event.objects.count()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), \
            connection.cursor() as cursor:
        cursor.execute("DELETE FROM games_event WHERE game_id = %s", [started.pk])
    assert Event.objects.count() == count


def test_orm_update_and_delete_are_refused(started: Game) -> None:
    event = Event.objects.filter(game=started).first()
    assert event is not None
    with pytest.raises(DatabaseError), transaction.atomic():
        Event.objects.filter(pk=event.pk).update(data={"forged": True})
    with pytest.raises(DatabaseError), transaction.atomic():
        event.delete()


def test_a_game_with_events_cannot_be_deleted(started: Game) -> None:
    from django.db.models import ProtectedError

    with pytest.raises(ProtectedError):
        started.delete()


def test_seq_is_dense_and_starts_at_1(started: Game) -> None:
    seqs = list(Event.objects.filter(game=started).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))


def test_a_lost_race_is_a_concurrent_command_conflict(started: Game) -> None:
    from eventstore.errors import Conflict

    last = Event.objects.filter(game=started).order_by("-seq").first()
    assert last is not None
    with pytest.raises(Conflict) as refused:
        append_events(
            started,
            [{"kind": "confirmed", "v": 1, "seat": 0, "turn": 1, "data": {}}],
            version=last.seq - 1,
            actor=None,
        )
    assert refused.value.code == "concurrent_command"


def test_an_event_off_its_schema_is_never_stored(started: Game) -> None:
    count = Event.objects.filter(game=started).count()
    with pytest.raises(ValueError, match="off its schema"):
        append_events(
            started,
            [{"kind": "mark", "v": 2, "seat": 0, "turn": 1, "data": {"element": "f1.s1", "mark": "X"}}],
            version=count,
            actor=None,
        )
    assert Event.objects.filter(game=started).count() == count


def test_a_given_seed_deals_the_same_game_again() -> None:
    alice = User.objects.create_user("alice", password="secret-pw")
    bob = User.objects.create_user("bob", password="secret-pw")

    def dealt(seed: int | None) -> tuple[int | None, list[tuple[str, object]]]:
        game = services.create_game(by=alice, adventure=1, max_players=2)
        services.join_game(game=game, by=bob, invite=game.invite)
        game = services.start_game(game=game, by=alice, seed=seed).game
        return game.seed, [(str(event.kind), event.data) for event in game.events.order_by("seq")]

    first, again, other = dealt(41), dealt(41), dealt(None)
    assert first[0] == again[0] == 41
    assert first[1] == again[1]
    assert other[1] != first[1]
