"""The migration that rebuilds an event table in a smaller layout: keyed by (stream, seq) with no
surrogate id (nor its index), ``data`` as compact ``json`` text rather than ``jsonb``, and on
PostgreSQL the columns widest first, so that no alignment padding is stored between them. One
operation for games' and campaigns' events, the same steps on either table.

A table's layout is changed by building the new table beside it, copying the rows in (stream,
seq) order and dropping the old one: PostgreSQL cannot reorder columns, a dropped column would
still cost every row a null bit (and so a wider row header), and the id cannot be dropped from
SQLite's table in place. The copy keeps every stored value: each event's data is the same JSON
(written compact on PostgreSQL; its keys in the order they were read), its hash the same bytes.
Reversed, the old layout is built again the same way, with new ids in (stream, seq) order.

The caller runs the operation inside its table's ``AppendOnly.lifted`` (eventstore/triggers.py):
the old table's triggers go with it, and the new table's are created afterwards.
"""

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import migrations, models
from django.db.migrations.operations.base import Operation

from eventstore import kinds
from eventstore.models import compact

BATCH = 2000


class RebuildEvents(Operation):
    """Change the state of the event model ``model_name`` by ``state_operations`` and rebuild its
    table to match, its columns laid out in ``order`` on PostgreSQL (field names); ``stream``
    names the foreign key to the stream the events belong to."""

    reversible = True

    def __init__(
        self,
        model_name: str,
        *,
        stream: str,
        state_operations: Sequence[Operation],
        order: Sequence[str],
        forwards: Mapping[str, str] | None = None,
        backwards: Mapping[str, str] | None = None,
    ) -> None:
        self.model_name = model_name
        self.stream = stream
        self.state_operations = list(state_operations)
        self.order = tuple(order)
        # SQL giving a new column from the retired table's row (``r``), each way: a column
        # whose values are stored in another form (an event's kind as its code and back)
        self.forwards = dict(forwards or {})
        self.backwards = dict(backwards or {})

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        kwargs: dict[str, Any] = {
            "stream": self.stream,
            "state_operations": self.state_operations,
            "order": self.order,
        }
        if self.forwards or self.backwards:
            kwargs |= {"forwards": self.forwards, "backwards": self.backwards}
        return self.__class__.__qualname__, [self.model_name], kwargs

    def state_forwards(self, app_label: str, state: Any) -> None:
        for operation in self.state_operations:
            operation.state_forwards(app_label, state)

    def database_forwards(self, app_label: str, schema_editor: Any, from_state: Any, to_state: Any) -> None:
        old = from_state.apps.get_model(app_label, self.model_name)
        new = to_state.apps.get_model(app_label, self.model_name)
        rebuild(schema_editor, old=old, new=new, key=self.key(new), order=self.order, computed=self.forwards)

    def database_backwards(self, app_label: str, schema_editor: Any, from_state: Any, to_state: Any) -> None:
        # from_state is the new layout's, to_state the old one's: the old layout is built again
        current = from_state.apps.get_model(app_label, self.model_name)
        previous = to_state.apps.get_model(app_label, self.model_name)
        rebuild(
            schema_editor,
            old=current,
            new=previous,
            key=self.key(previous),
            order=None,
            computed=self.backwards,
        )

    def key(self, model: Any) -> list[str]:
        """The columns the events are ordered by: the stream's, then seq."""
        return [model._meta.get_field(self.stream).column, "seq"]

    def describe(self) -> str:
        return f"Rebuild the table of {self.model_name} in its new layout"


def rebuild(
    schema_editor: Any,
    *,
    old: Any,
    new: Any,
    key: list[str],
    order: Sequence[str] | None,
    computed: Mapping[str, str] | None = None,
) -> None:
    """Replace ``old``'s table by one laid out as ``new`` describes, with the same rows copied
    in ``key`` order; on PostgreSQL with ``order``, the columns in that order, and the primary
    key (``key``), indexes and foreign keys built after the copy. ``computed``: SQL giving a
    column of the new table from the retired table's row (``r``), for a column stored in
    another form; the rows are then copied by the database as they are (their data compact
    already)."""
    connection = schema_editor.connection
    quote = schema_editor.quote_name
    table = new._meta.db_table
    retired = f"{table}_retired"
    schema_editor.alter_db_table(old, table, retired)
    _free_index_names(schema_editor, retired)
    ordered = order is not None and connection.vendor == "postgresql"
    if ordered:
        assert order is not None
        _create_ordered(schema_editor, new, order)
    else:
        schema_editor.create_model(new)
    columns = [
        field.column
        for field in new._meta.local_concrete_fields
        if not isinstance(field, models.AutoField) and field.column is not None
    ]
    if ordered and not computed:
        _copy_compacting(schema_editor, retired, table, columns, key=key)
    else:
        given = computed or {}
        chosen = ", ".join(given.get(column) or _as_stored(schema_editor, new, column) for column in columns)
        listed = ", ".join(quote(column) for column in columns)
        schema_editor.execute(
            f"INSERT INTO {quote(table)} ({listed}) SELECT {chosen} FROM {quote(retired)} r "
            f"ORDER BY {', '.join('r.' + quote(column) for column in key)}"
        )
    schema_editor.execute(f"DROP TABLE {quote(retired)}")
    if ordered:
        listed = ", ".join(quote(column) for column in key)
        schema_editor.execute(
            f"ALTER TABLE {quote(table)} ADD CONSTRAINT {quote(table + '_pkey')} PRIMARY KEY ({listed})"
        )
        for statement in schema_editor._model_indexes_sql(new):
            schema_editor.execute(statement)
        for field in new._meta.local_concrete_fields:
            if field.remote_field is not None and field.db_constraint:
                fk = schema_editor._create_fk_sql(new, field, "_fk_%(to_table)s_%(to_column)s")
                schema_editor.execute(fk)


def _free_index_names(schema_editor: Any, table: str) -> None:
    """Rename (PostgreSQL) or drop (SQLite) the retired table's named indexes: index names are
    the schema's, and the new table's take the same ones."""
    connection = schema_editor.connection
    quote = schema_editor.quote_name
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT indexname FROM pg_indexes WHERE tablename = %s", [table])
            for (name,) in cursor.fetchall():
                schema_editor.execute(f"ALTER INDEX {quote(name)} RENAME TO {quote(name[:50] + '_retired')}")
            # and its checks', which PostgreSQL would otherwise not give the new table's again
            cursor.execute(
                "SELECT conname FROM pg_constraint WHERE conrelid = %s::regclass AND contype = 'c'", [table]
            )
            for (name,) in cursor.fetchall():
                renamed = quote(name[:50] + "_retired")
                schema_editor.execute(
                    f"ALTER TABLE {quote(table)} RENAME CONSTRAINT {quote(name)} TO {renamed}"
                )
        else:
            cursor.execute(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = %s AND sql IS NOT NULL",
                [table],
            )
            for (name,) in cursor.fetchall():
                schema_editor.execute(f"DROP INDEX {quote(name)}")


def _create_ordered(schema_editor: Any, model: Any, order: Sequence[str]) -> None:
    """CREATE TABLE for ``model`` with its columns in ``order``, their checks named as Django
    names them; the key, indexes and foreign keys come after the copy."""
    quote = schema_editor.quote_name
    table = model._meta.db_table
    fields = [model._meta.get_field(name) for name in order]
    assert {field.column for field in fields} == {
        field.column for field in model._meta.local_concrete_fields if field.column is not None
    }, "the order names every column"
    definitions = []
    for field in fields:
        definition, _ = schema_editor.column_sql(model, field, include_default=False)
        check = field.db_parameters(connection=schema_editor.connection)["check"]
        if check:
            definition += f" CONSTRAINT {quote(f'{table}_{field.column}_check')} CHECK ({check})"
        definitions.append(f"{quote(field.column)} {definition}")
    schema_editor.execute(f"CREATE TABLE {quote(table)} ({', '.join(definitions)})")


def _as_stored(schema_editor: Any, model: Any, column: str) -> str:
    """The retired table's ``column`` as the new one stores it: ``data`` cast to its new type on
    PostgreSQL (``json`` and ``jsonb`` have no implicit cast)."""
    quote = schema_editor.quote_name
    if column == "data" and schema_editor.connection.vendor == "postgresql":
        return f"CAST(r.{quote(column)} AS {model._meta.get_field('data').db_type(schema_editor.connection)})"
    return f"r.{quote(column)}"


def _copy_compacting(
    schema_editor: Any, source: str, target: str, columns: list[str], *, key: list[str]
) -> None:
    """Copy every row of ``source`` into ``target`` in ``key`` order, each event's data written
    as compact JSON text (``jsonb`` prints its text with spaces)."""
    connection = schema_editor.connection
    quote = schema_editor.quote_name
    listed = ", ".join(quote(column) for column in columns)
    at = columns.index("data")
    insert = f"INSERT INTO {quote(target)} ({listed}) VALUES ({', '.join(['%s'] * len(columns))})"
    with connection.chunked_cursor() as read, connection.cursor() as write:
        read.execute(f"SELECT {listed} FROM {quote(source)} ORDER BY {', '.join(quote(c) for c in key)}")
        while rows := read.fetchmany(BATCH):
            compacted = [(*row[:at], compact(_decoded(row[at])), *row[at + 1 :]) for row in rows]
            write.executemany(insert, compacted)


def _decoded(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


# --- events' kinds as codes (eventstore/kinds.py) ------------------------------------------------


def coded_kinds(table: str) -> Operation:
    """The operation that gives every (kind, version) stored in ``table`` its code, before the
    table is rebuilt with codes (``KIND_AS_CODE``); in (kind, version) order, null versions as
    ``kinds.UNVERSIONED``. Reversed, nothing: codes are never taken back."""
    version = f"COALESCE(e.version, {kinds.UNVERSIONED})"
    return migrations.RunSQL(
        f"INSERT INTO {kinds.TABLE} (kind, version) SELECT DISTINCT e.kind, {version} FROM {table} e "
        f"WHERE NOT EXISTS (SELECT 1 FROM {kinds.TABLE} k WHERE k.kind = e.kind AND k.version = {version}) "
        "ORDER BY 1, 2",
        migrations.RunSQL.noop,
    )


# A rebuilt event table's kind from the retired row's kind and version, and back.
KIND_AS_CODE = {
    "kind": f"(SELECT k.code FROM {kinds.TABLE} k "
    f"WHERE k.kind = r.kind AND k.version = COALESCE(r.version, {kinds.UNVERSIONED}))"
}
CODE_AS_KIND = {
    "kind": f"(SELECT k.kind FROM {kinds.TABLE} k WHERE k.code = r.kind)",
    "version": f"(SELECT NULLIF(k.version, {kinds.UNVERSIONED}) FROM {kinds.TABLE} k WHERE k.code = r.kind)",
}
