"""Make campaigns_campaignevent append-only in the database itself: UPDATE, DELETE (and, on
PostgreSQL, TRUNCATE) are refused, as for games_event (eventstore/triggers.py)."""

from django.db import migrations

from eventstore.triggers import CAMPAIGN_EVENTS


class Migration(migrations.Migration):
    dependencies = [("campaigns", "0001_initial")]

    operations = [CAMPAIGN_EVENTS.install()]
