"""``python manage.py simulate --adventure 1 --players 4 --games 200``: bot self-play stats."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.rules.engine import BOT_KINDS, RuleViolation, simulate


class Command(BaseCommand):
    help = "Play games between bots through the rules engine and print score statistics."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--adventure", type=int, default=1)
        parser.add_argument("--players", type=int, default=4, choices=range(1, 7))
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--bot", choices=sorted(BOT_KINDS), default="greedy")
        parser.add_argument("--seed", type=int, default=0)

    def handle(self, *args: Any, **options: Any) -> None:
        if options["games"] < 1:
            raise CommandError("--games must be at least 1.")
        try:
            summary = simulate(
                adventure=options["adventure"],
                players=options["players"],
                games=options["games"],
                bot=options["bot"],
                seed=options["seed"],
            )
        except RuleViolation as error:
            raise CommandError(error.detail) from error
        for line in summary.lines():
            self.stdout.write(line)
