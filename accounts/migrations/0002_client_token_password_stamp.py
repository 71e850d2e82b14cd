"""Each client token keeps a stamp of its user's password (the SHA-256 of its hash), so that a
changed password revokes every token issued before. The tokens already issued are stamped with
their user's password as it is now: they stay signed in until it changes."""

import hashlib

from django.db import migrations, models


def stamp_tokens(apps, schema_editor):
    ClientToken = apps.get_model("accounts", "ClientToken")
    tokens = ClientToken.objects.using(schema_editor.connection.alias)
    for token in tokens.filter(password_stamp="").select_related("user").iterator():
        stamp = hashlib.sha256(token.user.password.encode()).hexdigest()
        tokens.filter(pk=token.pk).update(password_stamp=stamp)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="clienttoken",
            name="password_stamp",
            field=models.CharField(db_default="", max_length=64),
        ),
        migrations.RunPython(stamp_tokens, migrations.RunPython.noop),
    ]
