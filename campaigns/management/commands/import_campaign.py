"""Import a campaign exported as JSON Lines (GET /api/v1/campaigns/{id}/export) with its chapter
games: every hash chain and seal is verified, every event checked against its kind's schema, every
chapter game replayed through the rules engine and each chapter's result checked against its
game; then it is stored as a new finished campaign. A campaign already stored here (same chain
head) is refused, naming it, unless --copy. A refusal names the line at fault; nothing is stored
then."""

from collections.abc import Iterable

from campaigns.history import import_campaign
from eventstore.management.importing import ImportCommand, Progress


class Command(ImportCommand):
    help = __doc__
    history = "campaign"

    def store(
        self, lines: Iterable[bytes], *, strict: bool, copy: bool, progress: Progress
    ) -> tuple[str, list[str], list[str]]:
        imported = import_campaign(lines=lines, strict=strict, copy=copy, progress=progress)
        games = ", ".join(str(game.pk) for game in imported.games)
        campaign = imported.campaign
        return (
            f"campaign {campaign.pk}: {campaign.max_players} player(s), {imported.events} events, "
            f"{len(imported.games)} chapter game(s) ({games}), {campaign.status}",
            imported.new_accounts,
            imported.warnings,
        )
