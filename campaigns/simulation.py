"""Whole campaigns played by bots through the campaign rules and the rules engine, summarised
(``manage.py simulate --campaign``): how many stars each seat ends with and, in solo, how often
ASTRA wins at each starting level.

Nothing is stored: each campaign is folded in memory as the services fold a stored one (the
campaign's decider between chapters, each chapter's game played by the engine's bots with the
setup the cards in effect give it, its standings read as the chapter-end task reads them). Every
seat is a bot of one kind, in the chapters' games and for the campaign's choices; as captain it
keeps every result.
"""

import random
import statistics
from dataclasses import dataclass, field
from typing import Any

from django.core.management.base import CommandError

from campaigns import library
from campaigns.rules import bots as campaign_bots
from campaigns.rules import decider, events
from campaigns.rules.events import Event, evolve
from campaigns.rules.packs import Pack
from campaigns.rules.state import RULES_VERSION, CampaignState
from games.rules.engine import bots as game_bots
from games.rules.engine import evolve as evolve_game
from games.rules.engine import result_event
from games.selectors import standings_of

DEFAULT_LEVELS = (1, 4, 8)


def play_campaign(
    *,
    pack: Pack,
    players: int,
    bot: str,
    seed: int,
    astra_level: int | None = None,
    log: list[Event] | None = None,
) -> CampaignState:
    """One campaign of the current rules for ``players`` seats, each a ``bot`` (solo: against
    ASTRA starting at ``astra_level``), played to its end; its final state. Its events are
    appended to ``log`` when given."""
    rng = random.Random(f"{seed}/campaign")
    choose = campaign_bots.KINDS[bot](rng)
    state = CampaignState()

    def _apply(state: CampaignState, new: list[Event]) -> None:
        for event in new:
            evolve(state, event)
        if log is not None:
            log.extend(new)

    reference: events.PackRef = {"id": pack.id, "version": pack.version, "hash": pack.content_hash}
    created = events.campaign_created(
        pack=reference, max_players=players, astra_level=astra_level, rules_version=RULES_VERSION
    )
    _apply(state, [created, *decider.opening(players)])
    games = 0
    while state.winners is None:
        if decider.ready_to_start(state, pack):
            setup = decider.chapter_setup(state, pack)
            current = state.current
            assert current is not None
            games += 1
            game, _ = game_bots.play_game(
                adventure=current.chapter,
                bots=[game_bots.KINDS[bot](rng) for _ in range(players)],
                seed=rng.randrange(2**62),
                astra_level=setup.get("astra_level"),
                missions=setup["missions"] or None,
                modifiers={int(seat): modifiers for seat, modifiers in setup["modifiers"].items()},
            )
            evolve_game(game, result_event(game))  # the scoring task's part
            _apply(state, [decider.chapter_started(state, game=games, players=players, setup=setup)])
            standings = standings_of(state=game)
            assert standings is not None
            ended = decider.chapter_end(
                state,
                pack,
                game=games,
                results=standings["scores"],
                winners=standings["winners"],
                astra_total=standings.get("astra_total"),
            )
            _apply(state, ended)
            continue
        asked = decider.pending(state, pack)
        assert asked is not None, "a campaign waits for nothing before its end"
        choice = choose(state, pack, asked.seat, asked.decision)
        _apply(state, decider.decide(state, pack, asked.seat, choice, seed=seed))
    return state


@dataclass
class Tally:
    """The campaigns of one table (a player count, in solo a starting ASTRA level)."""

    players: int
    astra_level: int | None
    stars: list[list[int]] = field(default_factory=list)  # per campaign, per seat
    astra_stars: list[int] = field(default_factory=list)
    astra_won: int = 0  # ASTRA alone among the winners
    astra_shared: int = 0  # ASTRA and the player

    def line(self) -> str:
        runs = len(self.stars)
        per_seat = ", ".join(
            f"seat {seat} {statistics.fmean(run[seat] for run in self.stars):.1f}"
            for seat in range(self.players)
        )
        if self.astra_level is None:
            return f"{self.players} players: mean stars {per_seat}"
        among = self.astra_won + self.astra_shared
        return (
            f"solo, ASTRA level {self.astra_level}: mean stars player "
            f"{statistics.fmean(run[0] for run in self.stars):.1f}, "
            f"ASTRA {statistics.fmean(self.astra_stars):.1f}; ASTRA among the winners in {among}/{runs} "
            f"({100 * among / runs:.0f}%: alone {self.astra_won}, shared {self.astra_shared})"
        )


def simulate(
    *,
    pack: Pack,
    players: int,
    bot: str,
    campaigns: int,
    levels: tuple[int, ...] = DEFAULT_LEVELS,
    seed: int = 0,
) -> list[Tally]:
    """Play ``campaigns`` campaigns per table and tally them: one table for several players,
    one per starting ASTRA level in solo."""
    tables: list[int | None] = list(levels) if players == 1 else [None]
    tallies = []
    for level in tables:
        tally = Tally(players=players, astra_level=level)
        for run in range(campaigns):
            state = play_campaign(
                pack=pack, players=players, bot=bot, seed=seed * 100_000 + run, astra_level=level
            )
            tally.stars.append(state.stars())
            astra = state.astra_tally()
            if astra is not None:
                tally.astra_stars.append(astra["stars"])
                winners = state.winners or []
                tally.astra_won += winners == ["astra"]
                tally.astra_shared += "astra" in winners and 0 in winners
        tallies.append(tally)
    return tallies


def command_lines(options: dict[str, Any]) -> list[str]:
    """``manage.py simulate --campaign [--astra-level LEVEL ...]``: its options -> the lines it
    prints."""
    levels = tuple(options["astra_level"] or DEFAULT_LEVELS)
    players = options["players"] or (1 if options["astra_level"] else 4)
    if options["astra_level"] and players != 1:
        raise CommandError("--astra-level plays solo campaigns: leave out --players or give --players 1.")
    tallies = simulate(
        pack=library.get(library.DEFAULT_PACK),
        players=players,
        bot=options["bot"],
        campaigns=options["games"],
        levels=levels,
        seed=options["seed"],
    )
    return [f"{options['games']} campaign(s) per table, {options['bot']} bots", *(t.line() for t in tallies)]
