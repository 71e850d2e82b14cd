"""Make games_event append-only in the database itself: UPDATE and DELETE are refused."""

from django.db import migrations

SQLITE_FORWARD = [
    """
    CREATE TRIGGER games_event_no_update BEFORE UPDATE ON games_event
    BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
    """,
    """
    CREATE TRIGGER games_event_no_delete BEFORE DELETE ON games_event
    BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
    """,
]
SQLITE_BACKWARD = [
    "DROP TRIGGER IF EXISTS games_event_no_update;",
    "DROP TRIGGER IF EXISTS games_event_no_delete;",
]

POSTGRES_FORWARD = [
    """
    CREATE OR REPLACE FUNCTION games_event_append_only() RETURNS trigger AS $$
    BEGIN
        RAISE EXCEPTION 'events are append-only';
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER games_event_append_only BEFORE UPDATE OR DELETE ON games_event
    FOR EACH ROW EXECUTE FUNCTION games_event_append_only();
    """,
    """
    CREATE TRIGGER games_event_no_truncate BEFORE TRUNCATE ON games_event
    FOR EACH STATEMENT EXECUTE FUNCTION games_event_append_only();
    """,
]
POSTGRES_BACKWARD = [
    "DROP TRIGGER IF EXISTS games_event_no_truncate ON games_event;",
    "DROP TRIGGER IF EXISTS games_event_append_only ON games_event;",
    "DROP FUNCTION IF EXISTS games_event_append_only();",
]


def _run(schema_editor, statements):
    for statement in statements:
        schema_editor.execute(statement)


def _statements(vendor, forward):
    if vendor == "sqlite":
        return SQLITE_FORWARD if forward else SQLITE_BACKWARD
    if vendor == "postgresql":
        return POSTGRES_FORWARD if forward else POSTGRES_BACKWARD
    raise NotImplementedError(f"no append-only trigger for database vendor {vendor!r}")


def forward(apps, schema_editor):
    _run(schema_editor, _statements(schema_editor.connection.vendor, forward=True))


def backward(apps, schema_editor):
    _run(schema_editor, _statements(schema_editor.connection.vendor, forward=False))


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunPython(forward, backward)]
