"""``python manage.py import_campaign FILE``: store an exported campaign (JSON Lines), its
chapter games included, as a new campaign."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaigns.history import import_campaign
from eventstore.exchange import ImportRefused


class Command(BaseCommand):
    help = (
        "Import a campaign exported as JSON Lines (GET /api/v1/campaigns/{id}/export) with its "
        "chapter games: every hash chain is verified, every event checked against its kind's "
        "schema, every chapter game replayed through the rules engine and each chapter's result "
        "checked against its game; then it is stored as a new finished campaign. A refusal "
        "names the line at fault; nothing is stored then."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="the exported .jsonl file")
        parser.add_argument(
            "--replay-only",
            action="store_true",
            help="for chapter games recorded under earlier rules, which today's engine plays "
            "differently: check only that each event fits its kind's schema and that each result "
            "is the replay's, not that each move was legal when made",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        try:
            with path.open("rb") as lines:
                imported = import_campaign(lines=lines, strict=not options["replay_only"])
        except OSError as error:
            raise CommandError(f"Cannot read {path}: {error.strerror}.") from error
        except ImportRefused as refused:
            raise CommandError(
                f"{path}: refused, nothing stored: line {refused.line}: {refused.detail}"
            ) from refused
        campaign = imported.campaign
        games = ", ".join(str(game.pk) for game in imported.games)
        self.stdout.write(
            f"Imported {path} as campaign {campaign.pk}: {campaign.max_players} player(s), "
            f"{imported.events} events, {len(imported.games)} chapter game(s) ({games}), "
            f"{campaign.status}."
        )
        if imported.new_accounts:
            names = ", ".join(imported.new_accounts)
            self.stdout.write(f"New inactive accounts (they cannot sign in) for: {names}.")
