"""Users' accounts and client tokens, moved here from the games app with every row.

Their tables were made by games' migrations 0006 and 0010 and keep their names (the models'
``db_table``): this migration only takes the two models into the accounts app's state, and
games' 0013 takes them out of the games app's. No table is touched.

The content types move along, so that what refers to them (staff permissions on accounts and
tokens, the admin's log of changes) follows the models instead of naming stale ones.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

MOVED = ("account", "clienttoken")


def _relabel(apps, schema_editor, *, source, target):
    ContentType = apps.get_model("contenttypes", "ContentType")
    types = ContentType.objects.using(schema_editor.connection.alias)
    for model in MOVED:
        # a content type already made for the target (by `migrate` after migrating back) wins
        if not types.filter(app_label=target, model=model).exists():
            types.filter(app_label=source, model=model).update(app_label=target)


def forward(apps, schema_editor):
    _relabel(apps, schema_editor, source="games", target="accounts")


def backward(apps, schema_editor):
    _relabel(apps, schema_editor, source="accounts", target="games")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("games", "0010_client_token"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Account",
                    fields=[
                        (
                            "user",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                primary_key=True,
                                related_name="account",
                                serialize=False,
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        ("name_key", models.CharField(max_length=600, unique=True)),
                    ],
                    options={"db_table": "games_account"},
                ),
                migrations.CreateModel(
                    name="ClientToken",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("digest", models.CharField(max_length=64, unique=True)),
                        ("created", models.DateTimeField(default=django.utils.timezone.now)),
                        (
                            "user",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="client_tokens",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "games_clienttoken",
                        "indexes": [
                            models.Index(fields=["user", "created"], name="client_token_user_created")
                        ],
                    },
                ),
            ],
        ),
        migrations.RunPython(forward, backward),
    ]
