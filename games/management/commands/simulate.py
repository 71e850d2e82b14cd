"""``python manage.py simulate --adventure 1 --players 4 --games 200``: bot self-play stats;
``--campaign`` plays whole campaigns instead (``campaigns.simulation``)."""

from collections.abc import Callable
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.rules.engine import BOT_KINDS, RuleViolation, simulate

# Whole campaigns (--campaign) are played by the campaigns app, which sits above games: it
# registers its runner (the command's options -> the lines to print) here when it is ready.
CAMPAIGN_RUNNERS: list[Callable[[dict[str, Any]], list[str]]] = []


class Command(BaseCommand):
    help = "Play games between bots through the rules engine and print score statistics."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--adventure", type=int, default=1)
        parser.add_argument("--players", type=int, default=4, choices=range(1, 7))
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--bot", choices=sorted(BOT_KINDS), default="greedy")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--campaign",
            type=int,
            nargs="*",
            metavar="ASTRA_LEVEL",
            help="Play --games whole campaigns of the default pack instead (--players seats, each a "
            "--bot); a solo campaign once per starting ASTRA level given (1, 4 and 8 by default).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["games"] < 1:
            raise CommandError("--games must be at least 1.")
        if options["campaign"] is not None:
            if not CAMPAIGN_RUNNERS:
                raise CommandError("--campaign needs the campaigns app installed.")
            for line in CAMPAIGN_RUNNERS[0](options):
                self.stdout.write(line)
            return
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

