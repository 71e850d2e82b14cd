"""A game event's row in fewer bytes: its kind and version as one 2-byte code of
``eventstore_eventkind`` (eventstore/kinds.py) rather than the name and a version column, its
turn as a smallint, and the game's id (so the events' ``game_id`` and their key) as a 4-byte
integer, as the users' ids are. No stored value changes: each event reads back with the same
kind, version (null ones too), turn and game.

The games' table and every column referring to it are altered in place; the events' table is
rebuilt (eventstore/event_storage.py), the append-only triggers lifted and put back.
"""

from django.db import migrations, models

import eventstore.models
from eventstore.event_storage import CODE_AS_KIND, KIND_AS_CODE, RebuildEvents, coded_kinds
from eventstore.triggers import GAME_EVENTS


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0018_event_keyed_by_game_and_seq_data_as_compact_json"),
        ("eventstore", "0005_event_kind_codes"),
    ]

    operations = GAME_EVENTS.lifted([
        migrations.AlterField(
            model_name="game", name="id", field=models.AutoField(primary_key=True, serialize=False)
        ),
        coded_kinds("games_event"),
        RebuildEvents(
            "event",
            stream="game",
            state_operations=[
                migrations.RemoveField(model_name="event", name="version"),
                migrations.AlterField(model_name="event", name="kind", field=eventstore.models.KindField()),
                migrations.AlterField(
                    model_name="event", name="turn", field=models.PositiveSmallIntegerField(default=0)
                ),
            ],
            order=("created_at", "game", "seq", "actor", "turn", "seat", "kind", "data", "hash"),
            forwards=KIND_AS_CODE,
            backwards=CODE_AS_KIND,
        ),
    ])
