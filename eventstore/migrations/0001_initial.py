"""The idempotency records move from the games app to the event store, which owns the command
path: only Django's state moves, the table (games_idempotencyrecord) and its rows stay."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("games", "0012_event_hash_chain"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="IdempotencyRecord",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("key", models.CharField(max_length=255)),
                        ("method", models.CharField(max_length=10)),
                        ("path", models.CharField(max_length=512)),
                        ("body_hash", models.CharField(blank=True, default="", max_length=64)),
                        ("status_code", models.PositiveSmallIntegerField()),
                        ("response", models.JSONField(null=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "games_idempotencyrecord",
                        "constraints": [
                            models.UniqueConstraint(fields=("user", "key"), name="idempotency_unique_key")
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
