"""A campaign event's row in fewer bytes: its kind and version as one 2-byte code of
``eventstore_eventkind`` (eventstore/kinds.py) rather than the name and a version column, and
the campaign's id (so the events' ``campaign_id`` and their key) as a 4-byte integer, as the
users' ids are. No stored value changes: each event reads back with the same kind, version and
campaign.

The campaigns' table and every column referring to it are altered in place; the events' table
is rebuilt (eventstore/event_storage.py), the append-only triggers lifted and put back.
"""

from django.db import migrations, models

import eventstore.models
from eventstore.event_storage import CODE_AS_KIND, KIND_AS_CODE, RebuildEvents, coded_kinds
from eventstore.triggers import CAMPAIGN_EVENTS


class Migration(migrations.Migration):
    dependencies = [
        ("campaigns", "0008_event_keyed_by_campaign_and_seq_data_as_compact_json"),
        ("eventstore", "0005_event_kind_codes"),
    ]

    operations = CAMPAIGN_EVENTS.lifted([
        migrations.AlterField(
            model_name="campaign", name="id", field=models.AutoField(primary_key=True, serialize=False)
        ),
        coded_kinds("campaigns_campaignevent"),
        RebuildEvents(
            "campaignevent",
            stream="campaign",
            state_operations=[
                migrations.RemoveField(model_name="campaignevent", name="version"),
                migrations.AlterField(
                    model_name="campaignevent", name="kind", field=eventstore.models.KindField()
                ),
            ],
            order=("created_at", "campaign", "seq", "actor", "seat", "kind", "data", "hash"),
            forwards=KIND_AS_CODE,
            backwards=CODE_AS_KIND,
        ),
    ])
