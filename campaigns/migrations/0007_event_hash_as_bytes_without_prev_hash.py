"""A campaign event's hash stored as its 32 bytes, not as 64 hex digits, and its ``prev_hash`` no
longer stored: it is the hash stored on the event before it (eventstore/chain.py). The chain's
definition and the export's fields do not change. The event table's own indexes on ``campaign_id``
(led by the unique (campaign, seq) constraint's) and on ``actor_id`` (nothing reads by it) go too.

Converting the stored rows is an UPDATE, which the append-only triggers refuse: they are lifted
for this migration and put back before it ends (eventstore/triggers.py). Reversed, the hex
columns are filled again from the bytes, each ``prev_hash`` from the row before it.
"""

from django.db import migrations, models

from eventstore.triggers import CAMPAIGN_EVENTS

GENESIS = "0" * 64


def to_bytes(apps, schema_editor):
    Event = apps.get_model("campaigns", "CampaignEvent")
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"UPDATE {Event._meta.db_table} SET hash_bytes = decode(hash, 'hex')")
        return
    batch = []
    for pk, digest in Event.objects.values_list("pk", "hash").iterator(chunk_size=2000):
        batch.append(Event(pk=pk, hash_bytes=bytes.fromhex(digest)))
        if len(batch) >= 2000:
            Event.objects.bulk_update(batch, ["hash_bytes"])
            batch = []
    Event.objects.bulk_update(batch, ["hash_bytes"])


def to_hex(apps, schema_editor):
    Event = apps.get_model("campaigns", "CampaignEvent")
    rows = Event.objects.order_by("campaign_id", "seq").values_list("pk", "campaign_id", "hash_bytes")
    campaign, prev_hash, batch = None, GENESIS, []
    for pk, campaign_id, stored in rows.iterator(chunk_size=2000):
        if campaign_id != campaign:
            campaign, prev_hash = campaign_id, GENESIS
        digest = bytes(stored).hex()
        batch.append(Event(pk=pk, prev_hash=prev_hash, hash=digest))
        prev_hash = digest
        if len(batch) >= 2000:
            Event.objects.bulk_update(batch, ["prev_hash", "hash"])
            batch = []
    Event.objects.bulk_update(batch, ["prev_hash", "hash"])


class Migration(migrations.Migration):
    dependencies = [("campaigns", "0006_tables_visibility_invite_and_turn_seconds")]

    operations = CAMPAIGN_EVENTS.lifted([
        migrations.AddField(model_name="campaignevent", name="hash_bytes", field=models.BinaryField(null=True)),
        migrations.AlterField(model_name="campaignevent", name="prev_hash", field=models.CharField(max_length=64, null=True)),
        migrations.AlterField(model_name="campaignevent", name="hash", field=models.CharField(max_length=64, null=True)),
        migrations.RunPython(to_bytes, to_hex),
        migrations.RemoveField(model_name="campaignevent", name="prev_hash"),
        migrations.RemoveField(model_name="campaignevent", name="hash"),
        migrations.RenameField(model_name="campaignevent", old_name="hash_bytes", new_name="hash"),
        migrations.AlterField(model_name="campaignevent", name="hash", field=models.BinaryField(max_length=32)),
        migrations.AlterField(
            model_name="campaignevent",
            name="campaign",
            field=models.ForeignKey(
                db_index=False,
                on_delete=models.deletion.PROTECT,
                related_name="events",
                to="campaigns.campaign",
            ),
        ),
        migrations.AlterField(
            model_name="campaignevent",
            name="actor",
            field=models.ForeignKey(
                blank=True,
                db_index=False,
                null=True,
                on_delete=models.deletion.PROTECT,
                related_name="+",
                to="auth.user",
            ),
        ),
    ])
