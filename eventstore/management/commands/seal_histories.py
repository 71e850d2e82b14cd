"""``python manage.py seal_histories``: sign, once, the finished games and campaigns that have no
seal: those finished before histories were signed (eventstore/seals.py). Run it once after
upgrading, after ``verify_events`` has shown every chain holds: a seal vouches for the history
as it is now. A stream whose chain is broken is left unsigned, and named."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import models, transaction

from eventstore import seals, store
from eventstore.management.commands.verify_events import event_models
from eventstore.models import Seal


class Command(BaseCommand):
    help = __doc__

    def handle(self, *args: Any, **options: Any) -> None:
        signed: list[str] = []
        refused: list[str] = []
        for model in event_models():
            streams = model._meta.get_field(model.STREAM).related_model
            assert isinstance(streams, type) and issubclass(streams, models.Model)
            finished = set(streams._default_manager.filter(status="finished").values_list("pk", flat=True))
            finished -= set(Seal.objects.filter(stream=model.STREAM).values_list("stream_id", flat=True))
            for stream_id in sorted(finished):
                reports = list(store.verify(model, stream_id=stream_id))
                if not reports or reports[0].broken is not None:  # no events, or a broken chain
                    refused.append(f"{model.STREAM} {stream_id}")
                    continue
                with transaction.atomic():
                    seals.seal(model, stream_id)
                signed.append(f"{model.STREAM} {stream_id}")
        self.stdout.write(f"Signed {len(signed)} finished history(ies) with key {seals.keys().key_id}.")
        if refused:
            raise CommandError(f"Left unsigned, their chains are broken or empty: {', '.join(refused)}.")
