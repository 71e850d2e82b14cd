"""Campaign events join the one event store: hash-chained like game events, and versioned the
same way (a null version reads as 1). Two columns, filled for the rows stored before them.

Filling them is an UPDATE of stored events, which the append-only triggers refuse: this
migration lifts them for its own update and puts them back before it ends (it runs in one
transaction; eventstore/triggers.py). What each event says is not changed.

The hash is computed here with a copy of the rule of eventstore/chain.py for a campaign's
events (they chain seq, seat, kind and data): a migration keeps what it did, whatever the
application code becomes.
"""

import hashlib
import json

from django.db import migrations, models

from eventstore.triggers import CAMPAIGN_EVENTS

GENESIS = "0" * 64


def _hash(prev_hash, seq, seat, kind, data):
    content = {"seq": seq, "seat": seat, "kind": kind, "data": data}
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256((prev_hash + canonical).encode()).hexdigest()


def chain_stored_events(apps, schema_editor):
    CampaignEvent = apps.get_model("campaigns", "CampaignEvent")
    rows = CampaignEvent.objects.order_by("campaign_id", "seq").values_list(
        "pk", "campaign_id", "seq", "seat", "kind", "data"
    )
    campaign, prev_hash, batch = None, GENESIS, []
    for pk, campaign_id, seq, seat, kind, data in rows.iterator(chunk_size=2000):
        if campaign_id != campaign:
            campaign, prev_hash = campaign_id, GENESIS
        digest = _hash(prev_hash, seq, seat, kind, data)
        batch.append(CampaignEvent(pk=pk, prev_hash=prev_hash, hash=digest))
        prev_hash = digest
        if len(batch) >= 2000:
            CampaignEvent.objects.bulk_update(batch, ["prev_hash", "hash"])
            batch = []
    CampaignEvent.objects.bulk_update(batch, ["prev_hash", "hash"])


class Migration(migrations.Migration):
    dependencies = [("campaigns", "0003_bot_seats_and_solo")]

    operations = CAMPAIGN_EVENTS.lifted([
        migrations.AddField(
            model_name="campaignevent", name="prev_hash", field=models.CharField(max_length=64, null=True)
        ),
        migrations.AddField(
            model_name="campaignevent", name="hash", field=models.CharField(max_length=64, null=True)
        ),
        migrations.RunPython(chain_stored_events, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="campaignevent", name="prev_hash", field=models.CharField(max_length=64)
        ),
        migrations.AlterField(model_name="campaignevent", name="hash", field=models.CharField(max_length=64)),
        migrations.AlterField(
            model_name="campaignevent",
            name="version",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
    ])
