"""Play every turn deadline that has passed: each seat that has not finished the phase in play
of a game with ``turn_seconds`` is played for, as the greedy bot would (an ``autopilot`` event).
Workers do this on their own once a broker is configured; in the embedded mode (no broker, no
worker waiting for the deadline) run this every few seconds (cron, a loop). Safe to run at any
time, as often as wanted: a deadline is played once."""

from typing import Any

from django.core.management.base import BaseCommand

from games import services


class Command(BaseCommand):
    help = __doc__

    def handle(self, *args: Any, **options: Any) -> None:
        appended = services.play_passed_deadlines()
        self.stdout.write(f"{appended} event(s) appended")
