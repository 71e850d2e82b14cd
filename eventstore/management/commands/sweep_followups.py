"""Send every follow-up that is due and not done (turn deadlines passed, work whose message was
lost): what each worker's sweeper does every few seconds, once. In the embedded mode the work
runs here, in this process. Safe to run at any time, anywhere: each follow-up's work is done
once."""

from typing import Any

from django.core.management.base import BaseCommand

from eventstore import followups


class Command(BaseCommand):
    help = __doc__

    def handle(self, *args: Any, **options: Any) -> None:
        sent = 0
        while batch := followups.sweep():
            sent += batch
        self.stdout.write(f"{sent} follow-up(s) sent")
