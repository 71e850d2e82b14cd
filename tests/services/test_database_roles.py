"""The application connects to PostgreSQL as a role that owns nothing: it may read and insert
events and seals, never change, delete or truncate them, nor lift the triggers that guard them
(only an owner may ALTER a table). Migrations run as the owner, who grants it that much."""

from collections.abc import Iterator

import psycopg
import pytest
from django.contrib.auth.models import User
from django.db import connection

from eventstore.triggers import APPEND_ONLY
from games import services as commands
from games.models import Game
from tests.services.conftest import Services

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def started(services: Services, emptied_log: None) -> Game:
    alice = User.objects.create_user("role-alice", password="secret-pw")
    bob = User.objects.create_user("role-bob", password="secret-pw")
    game = commands.create_game(by=alice, adventure=1, max_players=2)
    commands.join_game(game=game, by=bob, invite=game.invite)
    return commands.start_game(game=game, by=alice).game


@pytest.fixture
def as_application(services: Services) -> Iterator[psycopg.Connection]:
    """A connection as the worker and the web processes make it (their DATABASE_URL)."""
    with psycopg.connect(services.worker.env["DATABASE_URL"], autocommit=True) as app:
        yield app


def refused(app: psycopg.Connection, statement: str, *args: object) -> str:
    """The database's refusal of ``statement`` run as the application."""
    with pytest.raises(psycopg.errors.InsufficientPrivilege) as caught:
        app.execute(statement, args or None)
    return str(caught.value)


def test_the_application_is_not_the_owner_of_the_tables(as_application: psycopg.Connection) -> None:
    app_role = as_application.execute("SELECT current_user").fetchone()
    assert app_role is not None
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        owner = cursor.fetchone()
        cursor.execute("SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'")
        owners = {row[0] for row in cursor.fetchall()}
    assert owner is not None and app_role[0] != owner[0]
    assert owners == {owner[0]}


def test_the_application_cannot_lift_the_append_only_triggers(
    started: Game, as_application: psycopg.Connection
) -> None:
    for log in APPEND_ONLY:
        for statement in (
            f"ALTER TABLE {log.table} DISABLE TRIGGER {log.prefix}_append_only",
            f"ALTER TABLE {log.table} DISABLE TRIGGER ALL",
            f"DROP TRIGGER {log.prefix}_append_only ON {log.table}",
            f"DROP TABLE {log.table}",
        ):
            assert "must be owner" in refused(as_application, statement), statement
    # nor turn every trigger off for its session, as replication does
    assert "permission denied" in refused(as_application, "SET session_replication_role = replica")


def test_the_application_cannot_change_or_remove_an_event(
    started: Game, as_application: psycopg.Connection
) -> None:
    game = started.pk
    assert "permission denied" in refused(
        as_application, "UPDATE games_event SET data = '{}' WHERE game_id = %s", game
    )
    assert "permission denied" in refused(as_application, "DELETE FROM games_event WHERE game_id = %s", game)
    for log in APPEND_ONLY:
        assert "permission denied" in refused(as_application, f"TRUNCATE {log.table}")
    count = as_application.execute("SELECT count(*) FROM games_event WHERE game_id = %s", [game]).fetchone()
    assert count is not None and count[0] > 0  # it reads them


def test_every_table_migrations_made_is_granted_as_the_application_needs(
    as_application: psycopg.Connection,
) -> None:
    """The grant step after migrate covers every table, those of later migrations too: the
    append-only ones to read and insert only, the others to read and write."""
    append_only = {log.table for log in APPEND_ONLY}
    rows = as_application.execute(
        "SELECT tablename, has_table_privilege(current_user, tablename, 'SELECT, INSERT'), "
        "has_table_privilege(current_user, tablename, 'UPDATE'), "
        "has_table_privilege(current_user, tablename, 'DELETE') "
        "FROM pg_tables WHERE schemaname = 'public'"
    ).fetchall()
    assert {row[0] for row in rows} >= append_only
    for table, reads_and_inserts, updates, deletes in rows:
        assert reads_and_inserts, table
        assert (updates, deletes) == ((False, False) if table in append_only else (True, True)), table
