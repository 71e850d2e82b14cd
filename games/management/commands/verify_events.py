"""``python manage.py verify_events [--game ID]``: walk the events' hash chains."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.history import verify_chains
from games.models import Game


class Command(BaseCommand):
    help = (
        "Check that every game's events (or one game's) form an unbroken hash chain, and name "
        "the first broken link of each game whose chain does not hold."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", type=int, help="check only this game")

    def handle(self, *args: Any, **options: Any) -> None:
        game_id = options["game"]
        if game_id is not None and not Game.objects.filter(pk=game_id).exists():
            raise CommandError(f"There is no game {game_id}.")
        games = events = 0
        broken = []
        for report in verify_chains(game_id=game_id):
            games += 1
            events += report.events
            if report.broken is not None:
                link = report.broken
                broken.append(report.game_id)
                self.stderr.write(f"game {report.game_id}: broken at event {link.seq}: {link.reason}")
        summary = f"{games} game(s), {events} event(s) checked"
        if broken:
            games_named = ", ".join(map(str, broken))
            raise CommandError(f"{summary}: the chain of {len(broken)} game(s) is broken ({games_named}).")
        self.stdout.write(f"{summary}: every chain holds.")
