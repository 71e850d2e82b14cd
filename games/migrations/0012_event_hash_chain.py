"""The hash chain of every game's events (games/chain.py): two columns, filled for the rows
stored before them.

Filling them is an UPDATE of stored events, which the append-only triggers of migration 0002
refuse: this migration lifts them for its own update and puts them back, as 0002 installs them,
before it ends (it runs in one transaction; eventstore/triggers.py). Making the columns NOT NULL rebuilds the table on
SQLite, which drops its triggers: they are put back after that step, too.

The hash is computed here with a copy of the rule of games/chain.py: a migration keeps what
it did, whatever the application code becomes.
"""

import hashlib
import json

from django.db import migrations, models

from eventstore.triggers import GAME_EVENTS

GENESIS = "0" * 64


def _hash(prev_hash, seq, turn, seat, kind, data):
    content = {"seq": seq, "turn": turn, "seat": seat, "kind": kind, "data": data}
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256((prev_hash + canonical).encode()).hexdigest()


def chain_stored_events(apps, schema_editor):
    Event = apps.get_model("games", "Event")
    rows = Event.objects.order_by("game_id", "seq").values_list(
        "pk", "game_id", "seq", "turn", "seat", "kind", "data"
    )
    game, prev_hash, batch = None, GENESIS, []
    for pk, game_id, seq, turn, seat, kind, data in rows.iterator(chunk_size=2000):
        if game_id != game:
            game, prev_hash = game_id, GENESIS
        digest = _hash(prev_hash, seq, turn, seat, kind, data)
        batch.append(Event(pk=pk, prev_hash=prev_hash, hash=digest))
        prev_hash = digest
        if len(batch) >= 2000:
            Event.objects.bulk_update(batch, ["prev_hash", "hash"])
            batch = []
    Event.objects.bulk_update(batch, ["prev_hash", "hash"])


class Migration(migrations.Migration):
    dependencies = [("games", "0011_solo_astra_and_bot_seats")]

    operations = GAME_EVENTS.lifted([
        migrations.AddField(
            model_name="event", name="prev_hash", field=models.CharField(max_length=64, null=True)
        ),
        migrations.AddField(
            model_name="event", name="hash", field=models.CharField(max_length=64, null=True)
        ),
        migrations.RunPython(chain_stored_events, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="event", name="prev_hash", field=models.CharField(max_length=64)
        ),
        migrations.AlterField(model_name="event", name="hash", field=models.CharField(max_length=64)),
    ])
