# The version of an event kind's schema, stored with each event. Null for the events stored
# before versions existed (they are version 1). Nullable with no default, the column is added
# with ALTER TABLE ADD COLUMN on SQLite as on PostgreSQL: no table is rebuilt, no row is
# rewritten, and the append-only triggers of 0002 stay in place.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0002_event_append_only'),
    ]

    operations = [
        migrations.AddField(
            model_name='event',
            name='version',
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
    ]
