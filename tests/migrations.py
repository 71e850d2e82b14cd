"""Migrating the test database back and forth inside a test, as only a test may."""

from django.conf import settings
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from eventstore.grants import grant


def migrate_back_to_the_end(targets: list[tuple[str, str]]) -> None:
    """Migrate to ``targets`` (the leaf nodes) as `manage.py migrate` does, grants included: with
    two roles, a table a migration made again has lost the application's grants (the workers of
    the services tests connect as that role)."""
    MigrationExecutor(connection).migrate(targets)
    role = settings.DATABASE_APP_ROLE
    if settings.DATABASE_OWNER is not None and connection.vendor == "postgresql" and role:
        grant(connection, role=role)
