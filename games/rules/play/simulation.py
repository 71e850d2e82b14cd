"""Self-play statistics: many bot games of one adventure, summarised.

One game is ``play_one`` (a pure function of its arguments, so games can be played in any order
or in parallel), its outcome a ``GameOutcome``; ``summarise`` folds outcomes into a
``SimulationSummary``. In a solo game (one player and an ``astra_level``) the summary also holds
ASTRA's scores and who won."""

import random
import statistics
from collections.abc import Iterable
from dataclasses import dataclass

from games.rules.core.events import RESULT
from games.rules.play import bots
from games.rules.turn.turn import result_event

BOT_KINDS = bots.KINDS


@dataclass(frozen=True)
class GameOutcome:
    """What one simulated game ended with."""

    totals: tuple[int, ...]  # each seat's final total
    turns: int
    end_reasons: tuple[str, ...]
    astra: int | None  # ASTRA's total in a solo game
    winners: tuple[int | str, ...]


@dataclass(frozen=True)
class Distribution:
    """Scores summarised: mean, median, 10th and 90th percentiles, best and worst."""

    mean: float
    median: float
    p10: float
    p90: float
    best: int
    worst: int

    @classmethod
    def of(cls, scores: list[int]) -> "Distribution":
        deciles = statistics.quantiles(scores, n=10) if len(scores) > 1 else [float(scores[0])] * 9
        return cls(
            mean=statistics.fmean(scores),
            median=statistics.median(scores),
            p10=deciles[0],
            p90=deciles[-1],
            best=max(scores),
            worst=min(scores),
        )

    def line(self) -> str:
        return (
            f"mean {self.mean:.1f}, median {self.median:.1f}, p10 {self.p10:.1f}, "
            f"p90 {self.p90:.1f}, best {self.best}, worst {self.worst}"
        )


@dataclass(frozen=True)
class SimulationSummary:
    games: int
    players: int
    bot: str
    scores: Distribution  # every seat's final total
    mean_turns: float
    end_reasons: dict[str, int]
    astra_level: int | None = None
    astra: Distribution | None = None  # ASTRA's totals, in solo games
    player_wins: int = 0  # solo games the player won outright
    draws: int = 0  # solo games won by both

    @property
    def win_rate(self) -> float:
        """The share of solo games the player won outright (a draw is not a win)."""
        return self.player_wins / self.games

    def lines(self) -> list[str]:
        reasons = ", ".join(f"{reason} {count}" for reason, count in sorted(self.end_reasons.items()))
        against = f" against ASTRA level {self.astra_level}" if self.astra_level is not None else ""
        lines = [
            f"{self.games} games, {self.players} players, {self.bot} bots{against}",
            f"scores: {self.scores.line()}",
        ]
        if self.astra is not None:
            lines += [
                f"ASTRA's scores: {self.astra.line()}",
                f"player won {self.player_wins} ({self.win_rate:.0%}), drew {self.draws}, "
                f"lost {self.games - self.player_wins - self.draws}",
            ]
        return [*lines, f"turns per game: mean {self.mean_turns:.1f}", f"end conditions met: {reasons}"]


def play_one(
    *, adventure: int, players: int, bot: str, seed: int, game: int, astra_level: int | None = None
) -> GameOutcome:
    """Play game number ``game`` of a simulation seeded ``seed``: one ``bot`` per seat, against
    ASTRA of ``astra_level`` when given (one player). The same arguments play the same game."""
    rng = random.Random(f"{seed}/{game}")
    state, _ = bots.play_game(
        adventure=adventure,
        bots=[BOT_KINDS[bot](rng) for _ in range(players)],
        seed=seed * 100_000 + game,
        astra_level=astra_level,
    )
    result = RESULT.data_of(result_event(state))
    assert result is not None
    astra = result.get("astra")
    return GameOutcome(
        totals=tuple(score["total"] for score in result["scores"]),
        turns=state.turn,
        end_reasons=tuple(reason["reason"] for reason in (state.end or {}).get("reasons", [])),
        astra=astra["total"] if astra is not None else None,
        winners=tuple(result["winners"]),
    )


def summarise(
    outcomes: Iterable[GameOutcome], *, players: int, bot: str, astra_level: int | None = None
) -> SimulationSummary:
    """Fold the outcomes of a simulation's games into its summary."""
    played = list(outcomes)
    reasons: dict[str, int] = {}
    for outcome in played:
        for reason in outcome.end_reasons:
            reasons[reason] = reasons.get(reason, 0) + 1
    astra = [outcome.astra for outcome in played if outcome.astra is not None]
    return SimulationSummary(
        games=len(played),
        players=players,
        bot=bot,
        scores=Distribution.of([total for outcome in played for total in outcome.totals]),
        mean_turns=statistics.fmean(outcome.turns for outcome in played),
        end_reasons=reasons,
        astra_level=astra_level,
        astra=Distribution.of(astra) if astra else None,
        player_wins=sum(outcome.winners == (0,) for outcome in played),
        draws=sum(len(outcome.winners) > 1 and "astra" in outcome.winners for outcome in played),
    )


def simulate(
    *, adventure: int, players: int, games: int, bot: str, seed: int = 0, astra_level: int | None = None
) -> SimulationSummary:
    """Play ``games`` games with one ``bot`` per seat (against ASTRA of ``astra_level`` when
    given) and summarise every seat's final score."""
    outcomes = (
        play_one(adventure=adventure, players=players, bot=bot, seed=seed, game=game, astra_level=astra_level)
        for game in range(games)
    )
    return summarise(outcomes, players=players, bot=bot, astra_level=astra_level)
