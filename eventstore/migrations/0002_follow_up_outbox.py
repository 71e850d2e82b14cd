"""The outbox of follow-ups (eventstore/followups.py): work written in the transaction of the
events it follows, deleted once done, sent again by a sweeper until then."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("eventstore", "0001_initial"),
    ]

    operations = [
        migrations.CreateModel(
            name="FollowUp",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("stream", models.CharField(max_length=32)),
                ("stream_id", models.BigIntegerField()),
                ("kind", models.CharField(max_length=64)),
                ("version", models.PositiveIntegerField()),
                ("due_at", models.DateTimeField()),
                ("retry_at", models.DateTimeField()),
                ("attempts", models.PositiveIntegerField(default=0)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
            ],
            options={
                "indexes": [
                    models.Index(fields=["retry_at"], name="followup_retry_at"),
                    models.Index(fields=["due_at"], name="followup_due_at"),
                ],
            },
        ),
    ]
