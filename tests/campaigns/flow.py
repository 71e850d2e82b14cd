"""Driving a campaign through its rules alone (no database): chapters end with results given
by the test, and the games a chapter would start are stood in for by numbers."""

import json
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from campaigns import library
from campaigns.rules import decider, events
from campaigns.rules.events import Event, SeatResult, evolve
from campaigns.rules.packs import Pack, build, load
from campaigns.rules.state import CampaignState

# The open pack as version 1 campaigns recorded it (stored packs are rebuilt unchecked), and the
# shipped one, revised for version 2 of the rules.
OPEN = build(
    json.loads(
        (Path(__file__).parent.parent / "fixtures" / "logs_campaign_v1" / "pack-open-1.json").read_text()
    )
)
OPEN_V2 = load(library.SHIPPED / "open.json")
Picker = Callable[[CampaignState, int, dict[str, Any]], dict[str, Any]]


def apply(state: CampaignState, new: Iterable[Event]) -> list[Event]:
    new = list(new)
    for event in new:
        assert events.schema_problem(event) is None, events.schema_problem(event)
        evolve(state, event)
    return new


def start_ready_chapter(state: CampaignState, pack: Pack) -> None:
    """What the services do once a chapter is ready: its game (here a stand-in number)."""
    if decider.ready_to_start(state, pack):
        setup = decider.chapter_setup(state, pack)
        game = 100 + len(state.attempts)
        apply(state, [decider.chapter_started(state, game=game, players=state.max_players, setup=setup)])


def started(
    players: int = 3, pack: Pack = OPEN, *, astra_level: int | None = None, rules_version: int = 1
) -> CampaignState:
    """A campaign of ``rules_version`` for ``players`` whose chapter 1 is being played (solo:
    against ASTRA of ``astra_level``)."""
    state = CampaignState()
    reference: events.PackRef = {"id": pack.id, "version": pack.version, "hash": pack.content_hash}
    created = events.campaign_created(
        pack=reference, max_players=players, astra_level=astra_level, rules_version=rules_version
    )
    apply(state, [created])
    apply(state, decider.opening(players))
    start_ready_chapter(state, pack)
    return state


def result(
    seat: int, *, rank: int, total: int = 50, missions: tuple[str, ...] = (), errors: int = 0
) -> SeatResult:
    return {"seat": seat, "total": total, "rank": rank, "missions": list(missions), "system_errors": errors}


def end_chapter(state: CampaignState, results: list[SeatResult], pack: Pack = OPEN) -> list[Event]:
    """The chapter in play ends with these results."""
    current = state.current
    assert current is not None and current.game is not None
    winners = [r["seat"] for r in results if r["rank"] == 1]
    return apply(state, decider.chapter_end(state, pack, game=current.game, results=results, winners=winners))


def by_ranks(*ranks: int, totals: tuple[int, ...] | None = None) -> list[SeatResult]:
    return [
        result(seat, rank=rank, total=(totals[seat] if totals else 60 - 10 * rank))
        for seat, rank in enumerate(ranks)
    ]


def bare(option: Mapping[str, Any]) -> dict[str, Any]:
    """An option's fields that make the choice (without the text that shows it)."""
    return {name: value for name, value in option.items() if name in decider.CHOICE_FIELDS}


def listed(decision: decider.Decision) -> list[dict[str, Any]]:
    """A decision's options as plain dicts, whatever their shape."""
    return [dict(option) for option in decision.options]


def bares(options: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [bare(option) for option in options]


def first_option(state: CampaignState, seat: int, decision: dict[str, Any]) -> dict[str, Any]:
    return dict(decision["options"][0])


def choose(state: CampaignState, seat: int, choice: Mapping[str, Any], pack: Pack = OPEN) -> list[Event]:
    new = apply(state, decider.decide(state, pack, seat, choice))
    start_ready_chapter(state, pack)
    return new


def settle(
    state: CampaignState, pick: Picker = first_option, pack: Pack = OPEN, *, then: str = "next_chapter"
) -> None:
    """Make every choice between two chapters with ``pick`` (the captain's last one: ``then``),
    up to the start of the chapter chosen."""
    while (asked := decider.pending(state, pack)) is not None:
        decision = asked.decision.as_dict()
        if decision["kind"] == "chapter":
            (choice,) = [o for o in decision["options"] if o["action"] == then]
        else:
            choice = pick(state, asked.seat, decision)
        choose(state, asked.seat, choice, pack)
