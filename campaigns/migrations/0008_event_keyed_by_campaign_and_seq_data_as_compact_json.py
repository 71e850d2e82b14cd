"""A campaign event's row without its surrogate id: the primary key is (campaign, seq), the
unique constraint that already numbered a campaign's events (and the id's own index goes with
the id). Its data is stored as compact ``json`` text instead of ``jsonb``, and on PostgreSQL the
columns are laid out widest first, with no alignment padding between them. No stored value
changes.

The table is rebuilt (eventstore/event_storage.py), with the append-only triggers lifted and put
back on the new table.
"""

from django.db import migrations, models

import eventstore.models
from eventstore.event_storage import RebuildEvents
from eventstore.triggers import CAMPAIGN_EVENTS


class Migration(migrations.Migration):
    dependencies = [("campaigns", "0007_event_hash_as_bytes_without_prev_hash")]

    operations = CAMPAIGN_EVENTS.lifted([
        RebuildEvents(
            "campaignevent",
            stream="campaign",
            state_operations=[
                migrations.RemoveConstraint(model_name="campaignevent", name="campaign_event_unique_seq"),
                migrations.RemoveField(model_name="campaignevent", name="id"),
                migrations.AddField(
                    model_name="campaignevent",
                    name="pk",
                    field=models.CompositePrimaryKey(
                        "campaign", "seq", blank=True, editable=False, primary_key=True, serialize=False
                    ),
                ),
                migrations.AlterField(
                    model_name="campaignevent",
                    name="data",
                    field=eventstore.models.CompactJSONField(default=dict),
                ),
            ],
            order=("campaign", "created_at", "seq", "actor", "seat", "version", "kind", "data", "hash"),
        ),
    ])
