"""A game event's hash stored as its 32 bytes, not as 64 hex digits, and its ``prev_hash`` no
longer stored: it is the hash stored on the event before it (eventstore/chain.py). The chain's
definition and the export's fields do not change. The event table's own indexes on ``game_id``
(led by the unique (game, seq) constraint's) and on ``actor_id`` (nothing reads by it) go too.

The steps, the same for games' and campaigns' events, are eventstore/hash_storage.py's, run with
the append-only triggers lifted.
"""

from django.db import migrations, models

from eventstore.hash_storage import hashes_as_bytes
from eventstore.triggers import GAME_EVENTS


class Migration(migrations.Migration):
    dependencies = [("games", "0016_tables_visibility_invite_and_turn_seconds")]

    operations = GAME_EVENTS.lifted([
        *hashes_as_bytes(app="games", model="Event", log="game"),
        migrations.AlterField(
            model_name="event",
            name="game",
            field=models.ForeignKey(
                db_index=False,
                on_delete=models.deletion.PROTECT,
                related_name="events",
                to="games.game",
            ),
        ),
        migrations.AlterField(
            model_name="event",
            name="actor",
            field=models.ForeignKey(
                blank=True,
                db_index=False,
                null=True,
                on_delete=models.deletion.PROTECT,
                related_name="+",
                to="auth.user",
            ),
        ),
    ])
