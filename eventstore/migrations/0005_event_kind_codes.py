"""The table of the 2-byte codes event rows store their kind and version as
(eventstore/kinds.py): a code per (kind, version), assigned on first use and append-only, as the
events are. The events' tables are rebuilt to store codes by games 0019 and campaigns 0009.
"""

from django.db import migrations, models

from eventstore.triggers import EVENT_KINDS


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0004_idempotency_path_without_length_limit")]

    operations = [
        migrations.CreateModel(
            name="EventKind",
            fields=[
                ("code", models.SmallAutoField(primary_key=True, serialize=False)),
                ("kind", models.CharField(max_length=64)),
                ("version", models.PositiveSmallIntegerField()),
            ],
            options={
                "constraints": [models.UniqueConstraint(fields=("kind", "version"), name="event_kind_unique")],
            },
        ),
        EVENT_KINDS.install(),
    ]
