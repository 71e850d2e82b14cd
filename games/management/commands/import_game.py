"""Import a game exported as JSON Lines (GET /api/v1/games/{id}/export, or the admin's export
action): its hash chain and its seal (the signature over its last hash) are verified and every
event replayed through the rules engine, then it is stored as a new finished game. A game
already stored here (same chain head) is refused, naming it, unless --copy. A refusal names the
line at fault; nothing is stored then. An unsigned export, or one signed by a key not trusted
here, is imported with a warning."""

from collections.abc import Iterable

from eventstore.management.importing import ImportCommand, Progress
from games.history import import_game
from games.rules.engine import PLAYABLE


class Command(ImportCommand):
    help = __doc__
    history = "game"

    def store(
        self, lines: Iterable[bytes], *, strict: bool, copy: bool, progress: Progress
    ) -> tuple[str, list[str], list[str]]:
        imported = import_game(lines=lines, strict=strict, copy=copy, progress=progress)
        game = imported.game
        stored = f"game {game.pk}: adventure {game.adventure}, {game.max_players} player(s), "
        stored += f"{imported.events} events, finished ({PLAYABLE[game.adventure].name})"
        return stored, imported.new_accounts, imported.warnings
