"""The append-only triggers of an event table, one shape for every stream: UPDATE and DELETE
(and, on PostgreSQL, TRUNCATE) are refused by the database itself, not only by the code.

Migrations install them (``AppendOnly(...).install()``) and lift them for the rare migration
that must fill a new column of stored rows (``lifted``). What a given ``AppendOnly`` emits must
never change: migrations already applied have run it.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import migrations
from django.db.migrations.operations.base import Operation


@dataclass(frozen=True)
class AppendOnly:
    """The triggers of ``table``, named from ``prefix``, refusing with ``message``."""

    table: str
    prefix: str
    message: str

    def create_statements(self, vendor: str) -> list[str]:
        table, prefix, message = self.table, self.prefix, self.message
        if vendor == "sqlite":
            return [
                f"CREATE TRIGGER {prefix}_no_update BEFORE UPDATE ON {table} "
                f"BEGIN SELECT RAISE(ABORT, '{message}'); END;",
                f"CREATE TRIGGER {prefix}_no_delete BEFORE DELETE ON {table} "
                f"BEGIN SELECT RAISE(ABORT, '{message}'); END;",
            ]
        if vendor == "postgresql":
            return [
                f"CREATE OR REPLACE FUNCTION {prefix}_append_only() RETURNS trigger AS $$ "
                f"BEGIN RAISE EXCEPTION '{message}'; END; $$ LANGUAGE plpgsql;",
                f"CREATE TRIGGER {prefix}_append_only BEFORE UPDATE OR DELETE ON {table} "
                f"FOR EACH ROW EXECUTE FUNCTION {prefix}_append_only();",
                f"CREATE TRIGGER {prefix}_no_truncate BEFORE TRUNCATE ON {table} "
                f"FOR EACH STATEMENT EXECUTE FUNCTION {prefix}_append_only();",
            ]
        raise NotImplementedError(f"no append-only trigger for database vendor {vendor!r}")

    def drop_statements(self, vendor: str) -> list[str]:
        table, prefix = self.table, self.prefix
        if vendor == "sqlite":
            return [
                f"DROP TRIGGER IF EXISTS {prefix}_no_update;",
                f"DROP TRIGGER IF EXISTS {prefix}_no_delete;",
            ]
        if vendor == "postgresql":
            return [
                f"DROP TRIGGER IF EXISTS {prefix}_no_truncate ON {table};",
                f"DROP TRIGGER IF EXISTS {prefix}_append_only ON {table};",
                f"DROP FUNCTION IF EXISTS {prefix}_append_only();",
            ]
        raise NotImplementedError(f"no append-only trigger for database vendor {vendor!r}")

    def create(self, apps: Any, schema_editor: Any) -> None:
        for statement in self.create_statements(schema_editor.connection.vendor):
            schema_editor.execute(statement)

    def drop(self, apps: Any, schema_editor: Any) -> None:
        for statement in self.drop_statements(schema_editor.connection.vendor):
            schema_editor.execute(statement)

    def install(self) -> Operation:
        """The migration operation that puts the triggers in place (and takes them away when
        the migration is reversed)."""
        return migrations.RunPython(self.create, self.drop)

    def lifted(self, operations: Sequence[Operation]) -> list[Operation]:
        """``operations`` run with the triggers lifted, and the triggers back afterwards (also
        where an operation rebuilt the table, as SQLite's ALTER does, dropping them)."""
        return [
            migrations.RunPython(self.drop, self.create),
            *operations,
            migrations.RunPython(self.create, self.drop),
        ]


GAME_EVENTS = AppendOnly(table="games_event", prefix="games_event", message="events are append-only")
CAMPAIGN_EVENTS = AppendOnly(
    table="campaigns_campaignevent", prefix="campaigns_event", message="campaign events are append-only"
)
SEALS = AppendOnly(table="eventstore_seal", prefix="eventstore_seal", message="seals are append-only")
# the codes events store their kind as (eventstore/kinds.py): a code changed would change events
EVENT_KINDS = AppendOnly(
    table="eventstore_eventkind", prefix="eventstore_eventkind", message="event kinds are append-only"
)

# Every append-only table: the application's database role may only read and insert their rows
# (eventstore/grants.py). A new stream's event table joins this list.
APPEND_ONLY = (GAME_EVENTS, CAMPAIGN_EVENTS, SEALS, EVENT_KINDS)
