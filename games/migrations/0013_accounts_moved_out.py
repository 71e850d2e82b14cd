"""Users' accounts and client tokens moved to the accounts app (accounts/migrations/0001_initial.py):
the games app's state drops the two models; their tables and rows stay, the accounts app's now."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_event_hash_chain"),
        ("accounts", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="Account"),
                migrations.DeleteModel(name="ClientToken"),
            ],
        ),
    ]
