"""What the import commands share (``import_game``, ``import_campaign``): the file they read,
``--replay-only`` and ``--copy``, a progress bar while the events are checked, a refusal said with its line,
nothing stored, and the warnings of an import (an unsigned history, a key not trusted here) on
stderr."""

import contextlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from eventstore.exchange import ImportRefused
from moon.progress import Bar

# Told (events checked, events in all) as the check of an export goes.
Progress = Callable[[int, int], None]


class ImportCommand(BaseCommand):
    """An import of an exported history: ``store`` checks and stores the lines, and says what
    it stored in lines for the operator."""

    #: what one history is, in the options' help: "game", "campaign"
    history = "history"

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="the exported .jsonl file")
        parser.add_argument(
            "--copy",
            action="store_true",
            help=f"store the {self.history} even when it is already stored here (same chain head), "
            "as a second copy",
        )
        parser.add_argument(
            "--replay-only",
            action="store_true",
            help="for games recorded under earlier rules, which today's engine plays differently: "
            "check only that each event fits its kind's schema and that the result is the "
            "replay's, not that each move was legal when made",
        )

    def store(
        self, lines: Iterable[bytes], *, strict: bool, copy: bool, progress: Progress
    ) -> tuple[str, list[str], list[str]]:
        """Check and store the lines (``copy``: even when already stored here): what was stored,
        in words, the names of the inactive accounts made for players unknown here, and the
        import's warnings."""
        raise NotImplementedError

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        try:
            with path.open("rb") as lines, contextlib.ExitStack() as shown:
                bars: list[Bar] = []

                def progress(checked: int, events: int) -> None:
                    if not bars:  # the count is known once the file is read
                        label = f"checking {path.name}"
                        bar = Bar(total=events, label=label, unit="events", out=self.stderr)
                        bars.append(shown.enter_context(bar))
                    bars[0].at(checked)

                stored, new_accounts, warnings = self.store(
                    lines, strict=not options["replay_only"], copy=options["copy"], progress=progress
                )
        except OSError as error:
            raise CommandError(f"Cannot read {path}: {error.strerror}.") from error
        except ImportRefused as refused:
            raise CommandError(
                f"{path}: refused, nothing stored: line {refused.line}: {refused.detail}"
            ) from refused
        for warning in warnings:
            self.stderr.write(f"Warning: {warning}")
        self.stdout.write(f"Imported {path} as {stored}.")
        if new_accounts:
            self.stdout.write(f"New inactive accounts (they cannot sign in) for: {', '.join(new_accounts)}.")
