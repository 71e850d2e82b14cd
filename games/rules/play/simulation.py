"""Self-play statistics: many bot games of one adventure, summarised."""

import random
import statistics
from dataclasses import dataclass

from games.rules.core.events import RESULT
from games.rules.play import bots
from games.rules.turn.turn import result_event

BOT_KINDS = bots.KINDS


@dataclass(frozen=True)
class SimulationSummary:
    games: int
    players: int
    bot: str
    mean: float
    median: float
    p10: float
    p90: float
    best: int
    worst: int
    mean_turns: float
    end_reasons: dict[str, int]

    def lines(self) -> list[str]:
        reasons = ", ".join(f"{reason} {count}" for reason, count in sorted(self.end_reasons.items()))
        return [
            f"{self.games} games, {self.players} players, {self.bot} bots",
            f"scores: mean {self.mean:.1f}, median {self.median:.1f}, "
            f"p10 {self.p10:.1f}, p90 {self.p90:.1f}, best {self.best}, worst {self.worst}",
            f"turns per game: mean {self.mean_turns:.1f}",
            f"end conditions met: {reasons}",
        ]


def simulate(*, adventure: int, players: int, games: int, bot: str, seed: int = 0) -> SimulationSummary:
    """Play ``games`` games with one ``bot`` per seat and summarise every seat's final score."""
    make = BOT_KINDS[bot]
    totals: list[int] = []
    turns: list[int] = []
    reasons: dict[str, int] = {}
    for game in range(games):
        rng = random.Random(f"{seed}/{game}")
        state, _ = bots.play_game(
            adventure=adventure, bots=[make(rng) for _ in range(players)], seed=seed * 100_000 + game
        )
        result = RESULT.data_of(result_event(state))
        assert result is not None
        totals.extend(score["total"] for score in result["scores"])
        turns.append(state.turn)
        for reason in (state.end or {}).get("reasons", []):
            reasons[reason["reason"]] = reasons.get(reason["reason"], 0) + 1
    deciles = statistics.quantiles(totals, n=10) if len(totals) > 1 else [totals[0]] * 9
    return SimulationSummary(
        games=games,
        players=players,
        bot=bot,
        mean=statistics.fmean(totals),
        median=statistics.median(totals),
        p10=deciles[0],
        p90=deciles[-1],
        best=max(totals),
        worst=min(totals),
        mean_turns=statistics.fmean(turns),
        end_reasons=reasons,
    )
