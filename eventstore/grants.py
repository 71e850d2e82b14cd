"""What the application's database role may do, granted by the owner after every migrate.

The application connects as a role that owns nothing (settings ``DATABASE_URL``); the tables
belong to the role migrations run as (``DATABASE_OWNER_URL``). Only an owner may ALTER a table,
disable or drop its triggers; the application's role may read and write the other tables, and
only read and insert the rows of the append-only ones (``triggers.APPEND_ONLY``, every stream's
events and the seals): no UPDATE, DELETE or TRUNCATE there, whatever the triggers.

``manage.py migrate`` runs ``grant`` after migrating (eventstore/management/commands/migrate.py),
every time, so a table a later migration creates is covered by the next migrate: the grants are
a step after migrate rather than default privileges, because an append-only table needs fewer
privileges than the others and a default cannot tell them apart.
"""

from django.db.backends.base.base import BaseDatabaseWrapper

from eventstore.triggers import APPEND_ONLY


def grant(connection: BaseDatabaseWrapper, *, role: str) -> list[str]:
    """Grant ``role`` its privileges on every table and sequence of the connection's schema, as
    their owner; returns the statements run. PostgreSQL only (SQLite has no roles)."""
    name = connection.ops.quote_name(role)
    statements = [
        f"GRANT USAGE ON SCHEMA public TO {name}",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {name}",
        f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {name}",
        *(
            f"REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON {table.table} FROM {name}"
            for table in APPEND_ONLY
        ),
    ]
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)
    return statements
