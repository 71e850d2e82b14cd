"""A campaign's state, as its log folds into it (``campaigns.rules.events.evolve``), and the
tallies read from it.

Nothing here is stored: stars, totals, the captain and every attempt of every chapter are
derived by replaying the campaign's events, which carry the chapters' results.
"""

from dataclasses import dataclass, field
from typing import Any

# The version of rules/campaign.md new campaigns play; a campaign keeps its own for life.
RULES_VERSION = 2

LOBBY = "lobby"
PLAYING = "playing"
BETWEEN = "between"
FINISHED = "finished"


@dataclass
class Chosen:
    """A card a seat chose, and the opponent it aimed it at (for a card applying to one)."""

    seat: int
    card: str
    target: int | None = None


@dataclass
class Attempt:
    """One play of a chapter: its game, setup, result, stars and the cards offered after it."""

    chapter: int
    number: int
    game: int | None = None
    setup: dict[str, Any] | None = None
    # letter -> {"card", "seat", "source"}: the missions chosen through campaign cards
    missions: dict[str, dict[str, Any]] = field(default_factory=dict)
    results: list[dict[str, Any]] | None = None
    winners: list[Any] | None = None
    awards: list[dict[str, Any]] | None = None
    offer: dict[str, Any] | None = None
    choices: list[Chosen] = field(default_factory=list)
    # rules version 2: the captain kept this result (cards are offered only then)
    kept: bool = False
    # rules version 2, solo: ASTRA's result {total, rank} and its award {stars, reasons}
    astra: dict[str, Any] | None = None
    astra_award: dict[str, Any] | None = None

    @property
    def finished(self) -> bool:
        return self.results is not None

    def stars_of(self, seat: int) -> int:
        return sum(award["stars"] for award in self.awards or () if award["seat"] == seat)

    def total_of(self, seat: int) -> int:
        return sum(result["total"] for result in self.results or () if result["seat"] == seat)


@dataclass
class CampaignState:
    pack: dict[str, Any] | None = None
    max_players: int = 0
    astra_level: int | None = None
    rules_version: int = 1
    players: int = 0
    attempts: list[Attempt] = field(default_factory=list)
    captain: int | None = None
    winners: list[Any] | None = None
    events_applied: int = 0

    @property
    def solo(self) -> bool:
        return self.max_players == 1

    @property
    def current(self) -> Attempt | None:
        """The attempt opened last (None in the lobby)."""
        return self.attempts[-1] if self.attempts else None

    @property
    def status(self) -> str:
        """``lobby``; ``playing`` while a chapter's game runs (until its result is in the log);
        ``between`` while choices or the next start are awaited; ``finished``."""
        current = self.current
        if current is None:
            return LOBBY
        if self.winners is not None:
            return FINISHED
        if current.game is not None and not current.finished:
            return PLAYING
        return BETWEEN

    def attempts_of(self, chapter: int) -> list[Attempt]:
        return [attempt for attempt in self.attempts if attempt.chapter == chapter]

    def attempt(self, chapter: int, number: int) -> Attempt:
        return next(a for a in self.attempts if a.chapter == chapter and a.number == number)

    def counting(self, chapter: int) -> Attempt | None:
        """The attempt of a chapter whose stars and cards count: the last one awarded stars (a
        replay replaces the attempt before it once it has its own result)."""
        awarded = [attempt for attempt in self.attempts_of(chapter) if attempt.awards is not None]
        return awarded[-1] if awarded else None

    def _counted(self) -> list[Attempt]:
        chapters = dict.fromkeys(attempt.chapter for attempt in self.attempts)
        return [attempt for c in chapters if (attempt := self.counting(c)) is not None]

    def stars(self) -> list[int]:
        """Each seat's stars so far, over the attempts that count."""
        counted = self._counted()
        return [sum(a.stars_of(seat) for a in counted) for seat in range(self.players)]

    def totals(self) -> list[int]:
        """Each seat's total score over the chapters, in the attempts that count."""
        counted = self._counted()
        return [sum(a.total_of(seat) for a in counted) for seat in range(self.players)]

    def astra_tally(self) -> dict[str, int] | None:
        """Solo, rules version 2: ASTRA's stars and its total score over the attempts that
        count (None where ASTRA keeps no tally)."""
        if not (self.solo and self.rules_version >= 2):
            return None
        counted = self._counted()
        return {
            "stars": sum((a.astra_award or {}).get("stars", 0) for a in counted),
            "totals": sum((a.astra or {}).get("total", 0) for a in counted),
        }
