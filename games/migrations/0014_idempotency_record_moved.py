"""IdempotencyRecord now belongs to the event store (eventstore migration 0001): only Django's
state forgets it here; its table and rows stay as they are."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_accounts_moved_out"),
        ("eventstore", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="IdempotencyRecord")],
            database_operations=[],
        ),
    ]
