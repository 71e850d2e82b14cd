"""On PostgreSQL the database itself refuses UPDATE, DELETE and TRUNCATE on the event log."""

import pytest
from django.contrib.auth.models import User
from django.db import DatabaseError, connection, transaction

from games import services as commands
from games.models import Event, Game
from tests.services.conftest import Services

pytestmark = [pytest.mark.services, pytest.mark.django_db]


@pytest.fixture
def started(services: Services) -> Game:
    assert connection.vendor == "postgresql"
    alice = User.objects.create_user("pg-alice", password="secret-pw")
    bob = User.objects.create_user("pg-bob", password="secret-pw")
    game = commands.create_game(by=alice, adventure=1, max_players=2)
    commands.join_game(game=game, by=bob, invite=game.invite)
    return commands.start_game(game=game, by=alice).game


def test_update_is_refused_by_postgresql(started: Game) -> None:
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), \
            connection.cursor() as cursor:
        cursor.execute("UPDATE games_event SET turn = 999 WHERE game_id = %s", [started.pk])
    assert not Event.objects.filter(turn=999).exists()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        Event.objects.filter(game=started).update(data={"forged": True})


def test_delete_is_refused_by_postgresql(started: Game) -> None:
    count = Event.objects.filter(game=started).count()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), \
            connection.cursor() as cursor:
        cursor.execute("DELETE FROM games_event WHERE game_id = %s", [started.pk])
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        Event.objects.filter(game=started).first().delete()  # type: ignore[union-attr]
    assert Event.objects.filter(game=started).count() == count


def test_truncate_is_refused_by_postgresql(started: Game) -> None:
    count = Event.objects.filter(game=started).count()
    # The test session turned this trigger off so that transactional tests can empty the tables;
    # turned on again inside this transaction (rolled back with it), it refuses TRUNCATE.
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), \
            connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # check the fixture's foreign keys now
        cursor.execute("ALTER TABLE games_event ENABLE TRIGGER games_event_no_truncate")
        cursor.execute("TRUNCATE games_event CASCADE")
    assert Event.objects.filter(game=started).count() == count
