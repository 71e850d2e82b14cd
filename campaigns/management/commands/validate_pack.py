"""Check a campaign content pack file: every problem is printed with its card and field."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaigns.rules import packs


class Command(BaseCommand):
    help = "Check a campaign content pack (JSON or YAML): effects, sheet elements, chapters."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="The pack file to check.")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        try:
            pack = packs.load(path)
        except packs.PackError as refused:
            raise CommandError(str(refused)) from refused
        chapters = sorted({card.after for card in pack.cards})
        self.stdout.write(
            f"{path}: pack {pack.id!r} version {pack.version!r} is valid: {len(pack.cards)} cards "
            f"offered after chapters {chapters}; sha256 {pack.content_hash}"
        )
