"""The migration that stores an event table's hashes as 32 bytes instead of 64 hex digits and
stops storing ``prev_hash`` (the hash on the row before it): one for games' events and one for
campaigns', the same steps on either table.

Converting the stored rows is an UPDATE, which the append-only triggers refuse: the caller runs
these operations inside its table's ``AppendOnly.lifted`` (eventstore/triggers.py). Reversed, the
hex columns are filled again from the bytes, each ``prev_hash`` from the row before it."""

from typing import Any

from django.db import migrations, models
from django.db.migrations.operations.base import Operation

GENESIS = "0" * 64
BATCH = 2000


def hashes_as_bytes(*, app: str, model: str, log: str) -> list[Operation]:
    """The operations turning ``app.model``'s hex ``hash`` and ``prev_hash`` into one binary
    ``hash``; ``log`` names the field of the log an event belongs to (``game``, ``campaign``)."""
    name = model.lower()

    def to_bytes(apps: Any, schema_editor: Any) -> None:
        events = apps.get_model(app, model)
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(f"UPDATE {events._meta.db_table} SET hash_bytes = decode(hash, 'hex')")
            return
        batch = []
        for pk, digest in events.objects.values_list("pk", "hash").iterator(chunk_size=BATCH):
            batch.append(events(pk=pk, hash_bytes=bytes.fromhex(digest)))
            if len(batch) >= BATCH:
                events.objects.bulk_update(batch, ["hash_bytes"])
                batch = []
        events.objects.bulk_update(batch, ["hash_bytes"])

    def to_hex(apps: Any, schema_editor: Any) -> None:
        events = apps.get_model(app, model)
        rows = events.objects.order_by(f"{log}_id", "seq").values_list("pk", f"{log}_id", "hash_bytes")
        current, prev_hash, batch = None, GENESIS, []
        for pk, log_id, stored in rows.iterator(chunk_size=BATCH):
            if log_id != current:
                current, prev_hash = log_id, GENESIS
            digest = bytes(stored).hex()
            batch.append(events(pk=pk, prev_hash=prev_hash, hash=digest))
            prev_hash = digest
            if len(batch) >= BATCH:
                events.objects.bulk_update(batch, ["prev_hash", "hash"])
                batch = []
        events.objects.bulk_update(batch, ["prev_hash", "hash"])

    def hex_digits() -> "models.CharField[str | None, str | None]":
        return models.CharField(max_length=64, null=True)

    return [
        migrations.AddField(model_name=name, name="hash_bytes", field=models.BinaryField(null=True)),
        migrations.AlterField(model_name=name, name="prev_hash", field=hex_digits()),
        migrations.AlterField(model_name=name, name="hash", field=hex_digits()),
        migrations.RunPython(to_bytes, to_hex),
        migrations.RemoveField(model_name=name, name="prev_hash"),
        migrations.RemoveField(model_name=name, name="hash"),
        migrations.RenameField(model_name=name, old_name="hash_bytes", new_name="hash"),
        migrations.AlterField(model_name=name, name="hash", field=models.BinaryField(max_length=32)),
    ]
