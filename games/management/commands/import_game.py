"""``python manage.py import_game FILE``: store an exported game (JSON Lines) as a new game."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.history import ImportRefused, import_game


class Command(BaseCommand):
    help = (
        "Import a game exported as JSON Lines (GET /api/v1/games/{id}/export, or the admin's "
        "export action): its hash chain is verified and every event replayed through the rules "
        "engine, then it is stored as a new finished game. A refusal names the line at fault; "
        "nothing is stored then."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="the exported .jsonl file")
        parser.add_argument(
            "--replay-only",
            action="store_true",
            help="for a game recorded under earlier rules, which today's engine plays "
            "differently: check only that each event fits its kind's schema and that the "
            "result is the replay's, not that each move was legal when made",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        try:
            with path.open("rb") as lines:
                imported = import_game(lines=lines, strict=not options["replay_only"])
        except OSError as error:
            raise CommandError(f"Cannot read {path}: {error.strerror}.") from error
        except ImportRefused as refused:
            raise CommandError(
                f"{path}: refused, nothing stored: line {refused.line}: {refused.detail}"
            ) from refused
        game = imported.game
        self.stdout.write(
            f"Imported {path} as game {game.pk}: adventure {game.adventure}, "
            f"{game.max_players} player(s), {imported.events} events, finished."
        )
        if imported.new_accounts:
            names = ", ".join(imported.new_accounts)
            self.stdout.write(f"New inactive accounts (they cannot sign in) for: {names}.")
