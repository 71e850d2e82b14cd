"""Per-client API tokens (games.ClientToken), stored as digests.

The one token per account that DRF's authtoken kept is carried over as that account's first
client token, so clients signed in before keep working until their token's lifetime ends.
"""

import hashlib

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def carry_over_tokens(apps, schema_editor):
    connection = schema_editor.connection
    if "authtoken_token" not in connection.introspection.table_names():
        return
    ClientToken = apps.get_model("games", "ClientToken")
    with connection.cursor() as cursor:
        cursor.execute("SELECT key, user_id, created FROM authtoken_token")
        rows = cursor.fetchall()
    ClientToken.objects.bulk_create(
        ClientToken(digest=hashlib.sha256(key.encode()).hexdigest(), user_id=user_id, created=created)
        for key, user_id, created in rows
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_account_name_key"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ClientToken",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
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
                "indexes": [models.Index(fields=["user", "created"], name="client_token_user_created")],
            },
        ),
        migrations.RunPython(carry_over_tokens, migrations.RunPython.noop),
    ]
