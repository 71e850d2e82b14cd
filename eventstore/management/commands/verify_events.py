"""``python manage.py verify_events [--game ID | --campaign ID]``: walk the events' hash chains
of every stream (games and campaigns), and check each finished one's seal: the signature over
its last hash, with a key kept outside the database (eventstore/seals.py). A history changed
and chained again by whoever can write the tables holds as a chain, but not as signed."""

from collections.abc import Iterator
from typing import Any

from django.apps import apps
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import models

from eventstore import seals, store
from eventstore.models import Seal, StoredEvent
from moon.progress import Bar, print_table

UNSEALED = (
    "finished, but its history is not signed: its seal was deleted, or it finished before "
    "histories were signed (then sign it once with manage.py seal_histories)"
)


def event_models() -> list[type[StoredEvent]]:
    """The event table of every stream, in the order the apps are installed (games first)."""
    return [model for model in apps.get_models() if issubclass(model, StoredEvent)]


class Command(BaseCommand):
    help = (
        "Check that the events of every game and campaign (or of one) form an unbroken hash "
        "chain signed, once finished, by a key this server trusts; name the first broken link "
        "or the refused signature of each stream that does not hold."
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
            label = f"checking {model.STREAM} histories"
            with Bar(total=total, label=label, unit=f"{model.STREAM}s", out=self.stderr) as bar:
                for walked_id, count, problem in problems(model, streams, stream_id):
                    checked += 1
                    stream_events += count
                    bar.advance()
                    if problem is not None:
                        failed.append(walked_id)
                        self.stderr.write(f"{model.STREAM} {walked_id}: {problem}")
            events += stream_events
            rows.append([f"{model.STREAM}s", checked, stream_events, len(failed)])
            counts.append(f"{checked} {model.STREAM}(s)")
            if failed:
                named = ", ".join(map(str, failed))
                broken.append(f"{len(failed)} {model.STREAM}(s) do not hold ({named})")
        columns = ["streams", "checked", "events", "not holding"]
        print_table(title="Hash chains and seals", columns=columns, rows=rows, out=self.stdout)
        summary = f"{', '.join(counts)}, {events} event(s) checked"
        if broken:
            raise CommandError(f"{summary}: {'; '.join(broken)}.")
        self.stdout.write(f"{summary}: every chain holds, every finished history is signed.")


def problems(
    model: type[StoredEvent], streams: type[models.Model], stream_id: int | None
) -> Iterator[tuple[int, int, str | None]]:
    """Each stream of ``model``'s (or the one): its id, its events, and why it does not hold
    (its chain's first broken link, its seal refused, or finished with no seal), or None."""
    sealed = Seal.objects.filter(stream=model.STREAM)
    finished = streams._default_manager.filter(status="finished")
    if stream_id is not None:
        sealed, finished = sealed.filter(stream_id=stream_id), finished.filter(pk=stream_id)
    seal_of = {stored.stream_id: stored for stored in sealed}
    unsealed = set(finished.values_list("pk", flat=True)) - set(seal_of)
    for report in store.verify(model, stream_id=stream_id):
        stored = seal_of.pop(report.stream_id, None)
        problem = None
        if report.broken is not None:
            problem = f"broken at event {report.broken.seq}: {report.broken.reason}"
        elif stored is not None:
            refused = seals.problem_of(stored, seq=report.last_seq, hash=report.last_hash)
            problem = None if refused is None else f"signature refused: {refused}"
        elif report.stream_id in unsealed:
            problem = f"{UNSEALED}."
        yield report.stream_id, report.events, problem
    for orphan in seal_of.values():
        yield orphan.stream_id, 0, "signature refused: its history is signed, but it has no events."
