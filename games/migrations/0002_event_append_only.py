"""Make games_event append-only in the database itself: UPDATE, DELETE (and, on PostgreSQL,
TRUNCATE) are refused (eventstore/triggers.py)."""

from django.db import migrations

from eventstore.triggers import GAME_EVENTS


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [GAME_EVENTS.install()]
