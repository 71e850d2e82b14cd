"""``python manage.py simulate --adventure 1 --players 4 --games 200``: bot self-play statistics;
``--astra-level 1 5 8``: solo games against ASTRA, summarised per level; ``--campaign`` plays
whole campaigns instead (``campaigns.simulation``)."""

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.rules.engine import (
    BOT_KINDS,
    PLAYABLE,
    GameOutcome,
    RuleViolation,
    SimulationSummary,
    new_game,
    play_one,
    summarise,
)
from moon.progress import print_table, track

ASTRA_LEVELS = range(1, 9)


@dataclass(frozen=True)
class Run:
    """The games of one line of the summary: ``games`` games of one adventure, seat count and
    bot, against one ASTRA level or none."""

    adventure: int
    players: int
    games: int
    bot: str
    seed: int
    astra_level: int | None

    def game(self, number: int) -> GameOutcome:
        return play_one(
            adventure=self.adventure,
            players=self.players,
            bot=self.bot,
            seed=self.seed,
            game=number,
            astra_level=self.astra_level,
        )


# Whole campaigns (--campaign) are played by the campaigns app, which sits above games: it
# registers its runner (the command's options -> the lines to print) here when it is ready.
CAMPAIGN_RUNNERS: list[Callable[[dict[str, Any]], list[str]]] = []


class Command(BaseCommand):
    help = (
        "Play games between bots through the rules engine (no database) and print score "
        "statistics; with one player, or --astra-level, solo games against ASTRA with the "
        "player's and ASTRA's scores and the player's win rate per level."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--adventure",
            type=int,
            default=1,
            choices=sorted(PLAYABLE),
            help="the adventure played, 1 (The Launch) to 8 (The Battle); default 1",
        )
        parser.add_argument(
            "--players",
            type=int,
            choices=range(1, 7),
            help="seats per game, each a bot (1: a solo game against ASTRA); default 4, or 1 "
            "with --astra-level",
        )
        parser.add_argument(
            "--games", type=int, default=100, help="games to play (per ASTRA level); default 100"
        )
        parser.add_argument(
            "--bot",
            choices=sorted(BOT_KINDS),
            default="greedy",
            help="the bot in every seat: random picks any listed option, greedy the best-scoring; "
            "default greedy",
        )
        parser.add_argument(
            "--seed",
            type=int,
            default=0,
            help="seeds the decks and the bots: the same seed plays the same games; default 0",
        )
        parser.add_argument(
            "--astra-level",
            type=int,
            nargs="+",
            choices=ASTRA_LEVELS,
            metavar="LEVEL",
            help="solo games against ASTRA at each of these levels, 1 (Katherine, the easiest) "
            "to 8 (Peggy), e.g. --astra-level 1 4 8; implies --players 1 (which alone plays "
            "level 1)",
        )
        parser.add_argument(
            "--campaign",
            action="store_true",
            help="play --games whole campaigns of the default pack instead, --players seats each a "
            "--bot; solo, once per --astra-level (the campaign's starting level; 1, 4 and 8 by "
            "default)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["campaign"]:
            if options["games"] < 1:
                raise CommandError("--games must be at least 1.")
            if not CAMPAIGN_RUNNERS:
                raise CommandError("--campaign needs the campaigns app installed.")
            for line in CAMPAIGN_RUNNERS[0](options):
                self.stdout.write(line)
            return
        runs = self.runs(options)
        outcomes: dict[Run, list[GameOutcome]] = {run: [] for run in runs}
        played = ((run, number) for run in runs for number in range(run.games))
        label = f"{PLAYABLE[runs[0].adventure].name}, {runs[0].players} player(s)"
        total = sum(run.games for run in runs)
        try:
            shown = track(self.play(played), total=total, label=label, unit="games", out=self.stderr)
            for run, outcome in shown:
                outcomes[run].append(outcome)
        except RuleViolation as error:
            raise CommandError(error.detail) from error
        summaries = [
            summarise(outcomes[run], players=run.players, bot=run.bot, astra_level=run.astra_level)
            for run in runs
        ]
        self.report(runs[0], summaries)

    def runs(self, options: dict[str, Any]) -> list[Run]:
        """The runs the options ask for, checked before any game is played."""
        if options["games"] < 1:
            raise CommandError("--games must be at least 1.")
        asked: list[int] = options["astra_level"] or []
        players = options["players"] or (1 if asked else 4)
        if asked and players != 1:
            raise CommandError("--astra-level plays solo games: leave out --players or give --players 1.")
        levels: list[int | None] = [*sorted(set(asked) or {1})] if players == 1 else [None]
        runs = [
            Run(
                adventure=options["adventure"],
                players=players,
                games=options["games"],
                bot=options["bot"],
                seed=options["seed"],
                astra_level=level,
            )
            for level in levels
        ]
        try:  # a seat count the adventure refuses is said before the bar starts
            new_game(adventure=runs[0].adventure, players=players, seed=0, astra_level=levels[0])
        except RuleViolation as error:
            raise CommandError(error.detail) from error
        return runs

    def play(self, played: Iterator[tuple[Run, int]]) -> Iterator[tuple[Run, GameOutcome]]:
        """Each game's outcome, in order; the one place that plays them."""
        for run, number in played:
            yield run, run.game(number)

    def report(self, first: Run, summaries: list[SimulationSummary]) -> None:
        name = PLAYABLE[first.adventure].name
        head = f"{name}: {summaries[0].games} game(s) per line, {first.bot} bots"
        if summaries[0].astra is None:
            summary = summaries[0]
            scores = summary.scores
            reasons = ", ".join(f"{reason} {count}" for reason, count in sorted(summary.end_reasons.items()))
            print_table(
                title=f"{head}, {first.players} players, seed {first.seed}",
                columns=["scores", "mean", "median", "p10", "p90", "best", "worst", "turns"],
                rows=[
                    [
                        "every seat",
                        f"{scores.mean:.1f}",
                        f"{scores.median:.1f}",
                        f"{scores.p10:.1f}",
                        f"{scores.p90:.1f}",
                        scores.best,
                        scores.worst,
                        f"{summary.mean_turns:.1f}",
                    ]
                ],
                out=self.stdout,
            )
            self.stdout.write(f"end conditions met: {reasons}")
            return
        rows = []
        for summary in summaries:
            player, astra = summary.scores, summary.astra
            assert astra is not None
            rows.append(
                [
                    f"level {summary.astra_level}",
                    f"{player.mean:.1f}",
                    f"{player.p10:.0f}-{player.median:.0f}-{player.p90:.0f}",
                    f"{astra.mean:.1f}",
                    f"{astra.p10:.0f}-{astra.median:.0f}-{astra.p90:.0f}",
                    f"{summary.win_rate:.0%}",
                    summary.draws,
                    f"{summary.mean_turns:.1f}",
                ]
            )
        print_table(
            title=f"{head}, one player against ASTRA, seed {first.seed}",
            columns=[
                "ASTRA",
                "player mean",
                "player p10-median-p90",
                "ASTRA mean",
                "ASTRA p10-median-p90",
                "player wins",
                "draws",
                "turns",
            ],
            rows=rows,
            out=self.stdout,
        )
