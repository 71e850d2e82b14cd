"""``python manage.py verify_events [--game ID | --campaign ID]``: walk the events' hash chains
of every stream (games and campaigns)."""

from typing import Any

from django.apps import apps
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import models

from eventstore import store
from eventstore.models import StoredEvent
from moon.progress import Bar, print_table


def event_models() -> list[type[StoredEvent]]:
    """The event table of every stream, in the order the apps are installed (games first)."""
    return [model for model in apps.get_models() if issubclass(model, StoredEvent)]


class Command(BaseCommand):
    help = (
        "Check that the events of every game and campaign (or of one) form an unbroken hash "
        "chain, and name the first broken link of each stream whose chain does not hold."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        one = parser.add_mutually_exclusive_group()
        for model in event_models():
            one.add_argument(
                f"--{model.STREAM}", type=int, metavar="ID", help=f"check only this {model.STREAM}"
            )

    def handle(self, *args: Any, **options: Any) -> None:
        chosen = [model for model in event_models() if options.get(model.STREAM) is not None]
        walked = chosen or event_models()
        counts = []
        events = 0
        broken: list[str] = []
        rows = []
        for model in walked:
            stream_id = options.get(model.STREAM)
            streams = model._meta.get_field(model.STREAM).related_model
            assert isinstance(streams, type) and issubclass(streams, models.Model)
            if stream_id is not None and not streams._default_manager.filter(pk=stream_id).exists():
                raise CommandError(f"There is no {model.STREAM} {stream_id}.")
            checked, failed, stream_events = 0, [], 0
            total = 1 if stream_id is not None else streams._default_manager.count()
            label = f"checking {model.STREAM} chains"
            with Bar(total=total, label=label, unit=f"{model.STREAM}s", out=self.stderr) as bar:
                for report in store.verify(model, stream_id=stream_id):
                    checked += 1
                    stream_events += report.events
                    bar.advance()
                    if report.broken is not None:
                        link = report.broken
                        failed.append(report.stream_id)
                        self.stderr.write(
                            f"{model.STREAM} {report.stream_id}: broken at event {link.seq}: {link.reason}"
                        )
            events += stream_events
            rows.append([f"{model.STREAM}s", checked, stream_events, len(failed)])
            counts.append(f"{checked} {model.STREAM}(s)")
            if failed:
                named = ", ".join(map(str, failed))
                broken.append(f"the chain of {len(failed)} {model.STREAM}(s) is broken ({named})")
        columns = ["streams", "checked", "events", "broken"]
        print_table(title="Hash chains", columns=columns, rows=rows, out=self.stdout)
        summary = f"{', '.join(counts)}, {events} event(s) checked"
        if broken:
            raise CommandError(f"{summary}: {'; '.join(broken)}.")
        self.stdout.write(f"{summary}: every chain holds.")
