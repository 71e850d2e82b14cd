"""Commands on campaigns: everything that writes. No HTTP here.

Each command runs in one transaction: lock the campaign row, replay its log, ask the campaign
rules (``campaigns.rules.decider``) to decide, append the events they return through the event
store (eventstore/store.py: dense sequence numbers, hash-chained). When a chapter is ready to
start, its game is created, seated (campaign seat n is the game's seat n, a bot seat a bot of
the same kind) and started in the same transaction through
``games.services``, with the setup the cards in effect give it (in a solo campaign, ASTRA's
level), and ``chapter_started`` names it.

When the choice the campaign then waits for is a bot seat's, a worker makes it
(``play_bot_choice``, written with the command through ``eventstore.followups`` with the log's
version): through the same options and decision as a player's, once, drawn from the campaign's
seed and the position in its log.
"""

import logging
import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from campaigns import library, selectors
from campaigns.models import Campaign, CampaignEvent, CampaignSeat, ChapterGame
from campaigns.rules import bots, decider, events
from campaigns.rules.events import ChapterSetup, Event, evolve
from campaigns.rules.packs import Pack
from campaigns.rules.state import RULES_VERSION, CampaignState
from eventstore import followups, seals, store
from eventstore.errors import Invalid
from games import lobby, quotas
from games import selectors as game_selectors
from games import services as game_services
from games.models import Game, Visibility

logger = logging.getLogger(__name__)

MAX_PLAYERS = 6
ASTRA_LEVELS = range(1, 9)


@dataclass(frozen=True)
class CampaignResult:
    """What a command appended, and the campaign's state afterwards."""

    campaign: Campaign
    seat: int
    events: list[CampaignEvent]
    state: CampaignState


# --- lobby -------------------------------------------------------------------------------------


def create_campaign(
    *,
    by: User,
    max_players: int,
    astra_level: int | None = None,
    pack: str | None = None,
    visibility: str = Visibility.PRIVATE,
    turn_seconds: int | None = None,
) -> Campaign:
    """Open a campaign in the lobby with its creator in seat 0, recording the pack it plays
    (id, version and content hash: a later edit of the pack file never changes it). A campaign
    for one player is a solo campaign against ASTRA, starting at ``astra_level`` 1 to 8 (1 when
    not given); a campaign for several players takes no level. ``visibility`` and
    ``turn_seconds`` (which its chapters' games take) are as for a game."""
    game_services.check_table_options(visibility=visibility, turn_seconds=turn_seconds)
    if not 1 <= max_players <= MAX_PLAYERS:
        raise Invalid("invalid_max_players", "A campaign has 1 to 6 players.")
    if astra_level is not None and max_players != 1:
        raise Invalid(
            "astra_level_solo_only",
            "astra_level sets ASTRA's level in a solo campaign (max_players 1) only.",
        )
    if max_players == 1:
        astra_level = game_services.DEFAULT_ASTRA_LEVEL if astra_level is None else astra_level
        if isinstance(astra_level, bool) or astra_level not in ASTRA_LEVELS:
            raise Invalid("invalid_astra_level", "ASTRA opponents have levels 1 to 8.")
    chosen = library.get(pack or library.DEFAULT_PACK)
    quotas.check_open_lobbies(by=by)
    with transaction.atomic():
        row = library.record(chosen)
        campaign = Campaign.objects.create(
            pack=row,
            max_players=max_players,
            astra_level=astra_level,
            creator=by,
            seed=secrets.randbits(62),
            visibility=visibility,
            turn_seconds=turn_seconds,
        )
        CampaignSeat.objects.create(campaign=campaign, user=by, index=0)
        created = events.campaign_created(
            pack={"id": chosen.id, "version": chosen.version, "hash": chosen.content_hash},
            max_players=max_players,
            astra_level=astra_level,
            rules_version=RULES_VERSION,
        )
        _append(campaign, [created], version=0, actor=by)
    return campaign


def join_campaign(*, campaign: Campaign, by: User, invite: str | None = None) -> CampaignSeat:
    """Take the next free seat of a campaign in the lobby (a private one with its ``invite``)."""
    return lobby.join(table=campaign, by=by, seats=CampaignSeat, invite=invite)


def leave_campaign(*, campaign: Campaign, by: User) -> None:
    """Leave one's seat of a campaign in the lobby (not its creator)."""
    lobby.leave(table=campaign, by=by, seats=CampaignSeat)


def remove_seat(*, campaign: Campaign, by: User, index: int) -> None:
    """Free seat ``index`` of a campaign in the lobby (its creator only)."""
    lobby.remove_seat(table=campaign, by=by, seats=CampaignSeat, index=index)


def add_bot(*, campaign: Campaign, by: User, kind: str) -> CampaignSeat:
    """Fill the next free seat of a campaign in the lobby with a bot of ``kind`` ("random" or
    "greedy"): it holds that seat in every chapter's game, and a worker makes its choices
    between chapters. Only the campaign's creator may add one."""
    return lobby.add_bot(table=campaign, by=by, kind=kind, seats=CampaignSeat)


def start_campaign(*, campaign: Campaign, by: User) -> CampaignResult:
    """Start the campaign with the seated players and bots (creator only): seat 0 takes the
    captain card and chapter 1's game starts. A solo campaign starts with its one player,
    any other with 2 seats at least."""
    with transaction.atomic():
        campaign = store.lock(Campaign, campaign.pk)
        seat, players = lobby.starting(campaign, by, CampaignSeat)
        # the campaign starts its first chapter's game: held to the quotas of games started
        quotas.check_starts(by=by, with_bots=campaign.seats.exclude(bot="").exists())
        return _command(campaign, seat, by, lambda state, pack: decider.opening(players))


# --- choices -----------------------------------------------------------------------------------


def play_choice(*, campaign: Campaign, by: User, choice: Any) -> CampaignResult:
    """Make one of the choices the caller's decision lists (a card, an opponent, a mission,
    the next chapter or a replay)."""
    with transaction.atomic():
        campaign = store.lock(Campaign, campaign.pk)
        seat = lobby.seat_index(campaign, by, CampaignSeat)
        return _command(
            campaign,
            seat,
            by,
            lambda state, pack: game_services.rules_call(
                decider.decide, state, pack, seat, choice, seed=campaign.seed
            ),
        )


def play_bot_choice(*, campaign_id: int, version: int) -> list[CampaignEvent]:
    """Make the choice the campaign waited for from a bot seat when its log was at ``version``,
    through the same options and decision as a player's (``campaigns.rules.bots``), drawn from
    the campaign's seed and that position (so that a replay of the log makes the same choice).
    Idempotent: once the log has moved on, or when the choice is not a bot's, nothing is
    appended; a task delivered twice for one choice makes it once (what follows a choice, the
    next bot's, was written with it, in the outbox: eventstore/followups.py)."""
    context = {"campaign_id": campaign_id, "seq": version}
    with transaction.atomic():
        campaign = store.lock(Campaign, campaign_id)
        state, last = selectors.state_of(campaign=campaign)
        pack = library.stored(campaign.pack)
        asked = decider.pending(state, pack)
        kind = _bot_kind(campaign, asked.seat) if asked is not None and last == version else None
        if asked is None or kind is None:
            logger.info("no bot choice due", extra=context)
            return []
        rng = random.Random(f"{campaign.seed}/bot/{asked.seat}/{version}")
        choice = bots.KINDS[kind](rng)(state, pack, asked.seat, asked.decision)
        new = decider.decide(state, pack, asked.seat, choice, seed=campaign.seed)
        result = _apply(campaign, asked.seat, state, pack, new, version=version, actor=None)
    logger.info(
        "bot chose",
        extra={**context, "seat": asked.seat, "kind": asked.decision.kind, "count": len(result.events)},
    )
    return result.events


# --- the end of a chapter ----------------------------------------------------------------------


def is_chapter_game(*, game_id: int) -> bool:
    """Whether a game is a campaign chapter's."""
    return ChapterGame.objects.filter(game_id=game_id).exists()


def end_chapter(*, game_id: int) -> list[CampaignEvent]:
    """Once a chapter's game has its result: the chapter's result, its stars, the captain, and
    the cards offered (or, after chapter 8, the end of the campaign). Idempotent: a chapter
    already ended, or a game without its result yet, appends nothing."""
    link = ChapterGame.objects.filter(game_id=game_id).first()
    if link is None:
        return []
    context = {"campaign_id": link.campaign_id, "game_id": game_id}
    with transaction.atomic():
        campaign = store.lock(Campaign, link.campaign_id)
        state, version = selectors.state_of(campaign=campaign)
        if state.attempt(link.chapter, link.attempt).finished:
            logger.info("chapter already ended", extra=context)
            return []
        standings = game_selectors.final_standings(game_id=game_id)
        if standings is None:
            return []
        new = decider.chapter_end(
            state,
            library.stored(campaign.pack),
            game=game_id,
            results=standings["scores"],
            winners=standings["winners"],
            astra_total=standings.get("astra_total"),
        )
        for event in new:
            evolve(state, event)
        rows = _append(campaign, new, version=version, actor=None)
        _save_status(campaign, state)
        _follow_up(campaign, state, library.stored(campaign.pack), version=rows[-1].seq)
    logger.info("chapter ended", extra={**context, "seq": rows[-1].seq})
    return rows


# --- internals ---------------------------------------------------------------------------------


Proposal = Callable[[CampaignState, Pack], list[Event]]


def _command(campaign: Campaign, seat: int, by: User, propose: Proposal) -> CampaignResult:
    """Append what ``propose`` returns for the campaign's state now (in the caller's
    transaction): see ``_apply``."""
    state, version = selectors.state_of(campaign=campaign)
    pack = library.stored(campaign.pack)
    return _apply(campaign, seat, state, pack, propose(state, pack), version=version, actor=by)


def _apply(
    campaign: Campaign,
    seat: int,
    state: CampaignState,
    pack: Pack,
    new: list[Event],
    *,
    version: int,
    actor: User | None,
) -> CampaignResult:
    """Append ``new`` (decided on ``state``, the log at ``version``), start the chapter opened
    if every choice of its setup is made, and leave to a worker the choice that comes next if
    it is a bot seat's."""
    for event in new:
        evolve(state, event)
    if decider.ready_to_start(state, pack):
        setup = decider.chapter_setup(state, pack)
        game, players = _start_chapter_game(campaign, state, setup)
        started = decider.chapter_started(state, game=game.pk, players=players, setup=setup)
        evolve(state, started)
        new.append(started)
    rows = _append(campaign, new, version=version, actor=actor)
    _save_status(campaign, state)
    _follow_up(campaign, state, pack, version=version + len(rows))
    return CampaignResult(campaign=campaign, seat=seat, events=rows, state=state)


def _follow_up(campaign: Campaign, state: CampaignState, pack: Pack, *, version: int) -> None:
    """A worker makes the choice the campaign now waits for, if it is a bot's (a follow-up
    written in the command's transaction, sent on commit)."""
    asked = decider.pending(state, pack)
    if asked is not None and _bot_kind(campaign, asked.seat) is not None:
        followups.after_commit(
            stream="campaign", stream_id=campaign.pk, version=version, kinds=[followups.BOT_TO_CHOOSE]
        )


def _bot_kind(campaign: Campaign, seat: int) -> str | None:
    """The kind of bot holding a seat, or None for a player's seat."""
    kind = CampaignSeat.objects.filter(campaign=campaign, index=seat).values_list("bot", flat=True).first()
    return kind or None


def _start_chapter_game(
    campaign: Campaign, state: CampaignState, setup: ChapterSetup
) -> tuple[Game, int]:
    """The chapter opened, as an ordinary game: the campaign's seats in the same order (a bot
    seat filled with a bot of its kind), started by the campaign's creator (seat 0) with the
    chapter's missions and setup modifiers; a solo chapter against ASTRA at the setup's level."""
    current = state.current
    assert current is not None
    seats = list(campaign.seats.select_related("user").order_by("index"))
    creator = seats[0].user
    assert creator is not None  # seat 0 is the creator's
    game = game_services.create_game(
        by=creator,
        adventure=current.chapter,
        max_players=len(seats),
        astra_level=setup.get("astra_level"),
        by_campaign=True,
        turn_seconds=campaign.turn_seconds,
    )
    for seat in seats[1:]:
        if seat.user is None:
            game_services.add_bot(game=game, by=creator, kind=seat.bot)
        else:
            game_services.join_game(game=game, by=seat.user, invite=game.invite)
    game_services.start_game(
        game=game,
        by=creator,
        missions=setup["missions"] or None,
        modifiers={int(seat): modifiers for seat, modifiers in setup["modifiers"].items()},
        by_campaign=True,
    )
    ChapterGame.objects.create(
        campaign=campaign, chapter=current.chapter, attempt=current.number, game=game
    )
    logger.info(
        "chapter %s started", current.chapter, extra={"campaign_id": campaign.pk, "game_id": game.pk}
    )
    return game, len(seats)


def _save_status(campaign: Campaign, state: CampaignState) -> None:
    if campaign.status != state.status:
        campaign.status = state.status
        campaign.save(update_fields=["status"])
        if campaign.status == Campaign.Status.FINISHED:
            # the finished history signed in the transaction that finishes it
            seals.seal(CampaignEvent, campaign.pk)


def _append(
    campaign: Campaign, new: Sequence[Event], *, version: int, actor: User | None
) -> list[CampaignEvent]:
    return store.append(
        CampaignEvent, campaign, new, version=version, actor_id=actor.pk if actor else None,
        schema_problem=events.schema_problem,
    )
