"""An idempotency record keeps the request's path whatever its length (it was limited to 512
characters: a longer path, behind a long script prefix, made a keyed command fail with 500 on
PostgreSQL)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("eventstore", "0003_seals_of_finished_histories"),
    ]

    operations = [
        migrations.AlterField(
            model_name="idempotencyrecord",
            name="path",
            field=models.TextField(),
        ),
    ]
