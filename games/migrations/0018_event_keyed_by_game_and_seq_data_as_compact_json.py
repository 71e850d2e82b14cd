"""A game event's row without its surrogate id: the primary key is (game, seq), the unique
constraint that already numbered a game's events (and the id's own index goes with the id);
the index on (game, turn) goes too, a turn's events being found by the key. Its
data is stored as compact ``json`` text instead of ``jsonb``, and on PostgreSQL the columns are
laid out widest first, with no alignment padding between them. No stored value changes.

The table is rebuilt (eventstore/event_storage.py), with the append-only triggers lifted and put
back on the new table.
"""

from django.db import migrations, models

import eventstore.models
from eventstore.event_storage import RebuildEvents
from eventstore.triggers import GAME_EVENTS


class Migration(migrations.Migration):
    dependencies = [("games", "0017_event_hash_as_bytes_without_prev_hash")]

    operations = GAME_EVENTS.lifted([
        RebuildEvents(
            "event",
            stream="game",
            state_operations=[
                migrations.RemoveConstraint(model_name="event", name="event_unique_seq"),
                migrations.RemoveIndex(model_name="event", name="event_game_turn"),
                migrations.RemoveField(model_name="event", name="id"),
                migrations.AddField(
                    model_name="event",
                    name="pk",
                    field=models.CompositePrimaryKey(
                        "game", "seq", blank=True, editable=False, primary_key=True, serialize=False
                    ),
                ),
                migrations.AlterField(
                    model_name="event", name="data", field=eventstore.models.CompactJSONField(default=dict)
                ),
            ],
            order=("game", "created_at", "seq", "turn", "actor", "seat", "version", "kind", "data", "hash"),
        ),
    ])
