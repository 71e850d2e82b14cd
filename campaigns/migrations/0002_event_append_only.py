"""Make campaigns_campaignevent append-only in the database itself: UPDATE, DELETE (and, on
PostgreSQL, TRUNCATE) are refused, as for games_event (games migration 0002)."""

from django.db import migrations

SQLITE_FORWARD = [
    """
    CREATE TRIGGER campaigns_event_no_update BEFORE UPDATE ON campaigns_campaignevent
    BEGIN SELECT RAISE(ABORT, 'campaign events are append-only'); END;
    """,
    """
    CREATE TRIGGER campaigns_event_no_delete BEFORE DELETE ON campaigns_campaignevent
    BEGIN SELECT RAISE(ABORT, 'campaign events are append-only'); END;
    """,
]
SQLITE_BACKWARD = [
    "DROP TRIGGER IF EXISTS campaigns_event_no_update;",
    "DROP TRIGGER IF EXISTS campaigns_event_no_delete;",
]

POSTGRES_FORWARD = [
    """
    CREATE OR REPLACE FUNCTION campaigns_event_append_only() RETURNS trigger AS $$
    BEGIN
        RAISE EXCEPTION 'campaign events are append-only';
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER campaigns_event_append_only BEFORE UPDATE OR DELETE ON campaigns_campaignevent
    FOR EACH ROW EXECUTE FUNCTION campaigns_event_append_only();
    """,
    """
    CREATE TRIGGER campaigns_event_no_truncate BEFORE TRUNCATE ON campaigns_campaignevent
    FOR EACH STATEMENT EXECUTE FUNCTION campaigns_event_append_only();
    """,
]
POSTGRES_BACKWARD = [
    "DROP TRIGGER IF EXISTS campaigns_event_no_truncate ON campaigns_campaignevent;",
    "DROP TRIGGER IF EXISTS campaigns_event_append_only ON campaigns_campaignevent;",
    "DROP FUNCTION IF EXISTS campaigns_event_append_only();",
]


def _statements(vendor, forward):
    if vendor == "sqlite":
        return SQLITE_FORWARD if forward else SQLITE_BACKWARD
    if vendor == "postgresql":
        return POSTGRES_FORWARD if forward else POSTGRES_BACKWARD
    raise NotImplementedError(f"no append-only trigger for database vendor {vendor!r}")


def forward(apps, schema_editor):
    for statement in _statements(schema_editor.connection.vendor, forward=True):
        schema_editor.execute(statement)


def backward(apps, schema_editor):
    for statement in _statements(schema_editor.connection.vendor, forward=False):
        schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("campaigns", "0001_initial")]

    operations = [migrations.RunPython(forward, backward)]
