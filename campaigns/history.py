"""A campaign's whole history, its chapter games included: exported as JSON Lines, imported on
another server, checked on the way in.

The export (eventstore/exchange.py gives its shape) is the campaign's section, then one section
per chapter game in the order they were played, each as a game's export (games/history.py)
whose header names the game as the campaign's log does (the id it had where the campaign was
played: ids are each server's own):

    {"format": "moon-campaign/1", "campaign": 4, "players": 3, "astra_level": null,
     "pack": {"id": "open", "version": "1", "hash": "5d1...", "content": {...}},
     "seats": [{"seat": 0, "username": "ann"}, {"seat": 1, "bot": "greedy"}, ...]}
    {"seq": 1, "seat": null, "kind": "campaign_created", "v": 1, "data": {...}, ...}
    ...
    {"format": "moon-game/1", "game": 31, "adventure": 1, ...}
    {"seq": 1, "turn": 0, ...}

A finished campaign's header, and each chapter game's, carries its seal (eventstore/seals.py):
the campaign's signs the campaign's events, a game's its own.

The pack travels with its content, so that the importing server plays the campaign's own pack
whatever it offers. The campaign's seed (what its bots' choices were drawn with) stays home: an
imported campaign is finished, and draws nothing more.

An import is refused, naming the first line at fault and storing nothing, when a line is not
such JSON, a chain breaks (the campaign's or a game's), an event is off its kind's schema, the
campaign is not finished, a chapter's game is missing or foreign, a game is not what the engine
plays, a chapter's recorded result is not its game's, or a seal does not sign its section's history.
Unsigned sections, or sections signed by a key this server does not trust, are imported with a
warning; what is stored is sealed with this server's key.
"""

import functools
import secrets
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, cast

from django.contrib.auth.models import User
from django.db import transaction

from campaigns import library, selectors
from campaigns.models import Campaign, CampaignEvent, CampaignSeat, ChapterGame
from campaigns.rules import events, packs
from campaigns.rules.events import Event, replay
from campaigns.rules.state import CampaignState
from eventstore import exchange, seals
from eventstore.errors import Conflict
from eventstore.exchange import ImportRefused, Section
from games import history as game_history
from games import lobby
from games import selectors as game_selectors
from games.models import Game
from games.rules import engine

FORMAT = "moon-campaign/1"
HEADER_FIELDS = ("format", "campaign", "players", "astra_level", "pack", "seats")
PACK_FIELDS = ("id", "version", "hash", "content")


# --- export ------------------------------------------------------------------------------------


def export_lines(*, campaign: Campaign, viewer: User) -> Iterator[str]:
    """The campaign's history as JSON Lines, for the staff who may review campaigns (as the
    admin's viewer asks), or for a seated player once the campaign is finished (before that,
    its chapter games would show the deck order)."""
    if not game_history.may_review(user=viewer, table=Campaign):
        if not campaign.seats.filter(user_id=viewer.pk).exists():
            raise lobby.outsider(campaign)
        if campaign.status != Campaign.Status.FINISHED:
            raise Conflict(
                "campaign_not_finished", "A campaign's players can export it once it is finished."
            )
    return history_lines(campaign=campaign)


def history_lines(*, campaign: Campaign) -> Iterator[str]:
    """Every line of the export, each ending with a newline, read as it is sent."""
    seats = campaign.seats.select_related("user").order_by("index")
    pack = campaign.pack
    yield exchange.to_line(
        {
            "format": FORMAT,
            "campaign": campaign.pk,
            "players": campaign.max_players,
            "astra_level": campaign.astra_level,
            "pack": {
                "id": pack.key,
                "version": pack.version,
                "hash": pack.content_hash,
                "content": pack.content,
            },
            "seats": [game_history.seat_line(seat) for seat in seats],
            **exchange.seal_of(CampaignEvent, campaign.pk),
        }
    )
    yield from exchange.event_lines(CampaignEvent, campaign.pk)
    # a chapter game is named as the log names it: the id it had where the campaign was played
    logged = {(a.chapter, a.number): a.game for a in selectors.state_of(campaign=campaign)[0].attempts}
    for link in campaign.chapter_games.select_related("game").order_by("game_id"):
        yield from game_history.history_lines(game=link.game, named=logged[link.chapter, link.attempt])


def export_filename(campaign: Campaign) -> str:
    return f"moon-campaign-{campaign.pk}.jsonl"


# --- import ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Imported:
    """A campaign stored from an export: its events, its chapter games, the accounts made for
    players unknown here, and what the import warns of (unsigned sections, untrusted keys)."""

    campaign: Campaign
    events: int
    games: list[Game]
    new_accounts: list[str]
    warnings: list[str]


def _told(
    progress: Callable[[int, int], None], before: int, events: int, checked: int, _section: int
) -> None:
    """What the check of one chapter game has done, told as part of the whole campaign's."""
    progress(before + checked, events)


def import_campaign(
    *,
    lines: Iterable[str | bytes],
    strict: bool = True,
    copy: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> Imported:
    """Store an exported campaign and its chapter games as a new finished campaign, once every
    chain holds, every event fits its kind's schema, each chapter game is what the engine plays
    (not ``strict``: each fits its schemas and its result is the replay's) and each chapter's
    recorded result is its game's; ImportRefused (nothing stored) otherwise. Seats go to the
    accounts with the players' names, as ``games.history.import_game`` seats them. A campaign
    already stored here (a stored campaign event has the export's chain head) is refused with its
    id, unless ``copy``. ``progress(checked, events)`` is told how far the check of the chapter
    games' events is."""
    own, *chapters = exchange.sections(lines)
    header = _header(own)
    pack = _pack(header["pack"], own.line)
    exchange.check_events(CampaignEvent, own)
    warning = exchange.check_seal(CampaignEvent, own)
    warnings = [] if warning is None else [warning]
    state = _replayed(own)
    found = packs.rules_problems(pack, rules_version=state.rules_version)
    if found:
        raise ImportRefused(own.line, str(packs.PackError(found, source="the exported pack")))
    started = _chapter_games(state, own, chapters)
    states = {}
    events, before = sum(len(section.events) for section in chapters), 0
    for section in chapters:
        if section.header.get("format") != game_history.FORMAT:
            expected = f"a chapter game's section is of format {game_history.FORMAT!r}."
            raise ImportRefused(section.line, expected)
        if section.header["seats"] != header["seats"]:
            raise ImportRefused(section.line, "a chapter game seats the campaign's seats, in their order.")
        told = None if progress is None else functools.partial(_told, progress, before, events)
        states[section.line], warning = game_history.checked_section(section, strict=strict, progress=told)
        warnings += [] if warning is None else [warning]
        before += len(section.events)
    _check_results(own, chapters, states)
    with transaction.atomic():
        if not copy:
            exchange.refuse_if_stored(CampaignEvent, own, command="import_campaign")
        players, new_accounts = game_history.players_named([seat.get("username") for seat in header["seats"]])
        creator = next((user for user in players if user is not None), None)
        if creator is None:
            raise ImportRefused(own.line, "no seat names a player: a campaign is created by one.")
        campaign = Campaign.objects.create(
            pack=library.record(pack),
            max_players=header["players"],
            astra_level=header["astra_level"],
            status=state.status,
            creator=creator,
            seed=secrets.randbits(62),
        )
        CampaignSeat.objects.bulk_create(
            CampaignSeat(campaign=campaign, user=user, bot=seat.get("bot", ""), index=index)
            for index, (user, seat) in enumerate(zip(players, header["seats"], strict=True))
        )
        count = exchange.store_events(CampaignEvent, campaign, own)
        seals.seal(CampaignEvent, campaign.pk)
        games = []
        for section in chapters:
            game = game_history.store_section(section, states[section.line], players)
            chapter, attempt = started[section.header["game"]]
            ChapterGame.objects.create(campaign=campaign, chapter=chapter, attempt=attempt, game=game)
            games.append(game)
    return Imported(
        campaign=campaign, events=count, games=games, new_accounts=new_accounts, warnings=warnings
    )


def _header(section: Section) -> dict[str, Any]:
    value = section.header
    if not exchange.header_fields_hold(value, HEADER_FIELDS):
        fields = ", ".join(HEADER_FIELDS)
        expected = f"the header is an object with exactly {fields} (and a seal, if signed)."
        raise ImportRefused(section.line, expected)
    if value["format"] != FORMAT:
        raise ImportRefused(section.line, f"format {value['format']!r} is not {FORMAT!r}.")
    players = value["players"]
    if not isinstance(players, int) or not 1 <= players <= 6 or len(value["seats"]) != players:
        raise ImportRefused(section.line, "players is 1 to 6, and seats lists that many seats.")
    game_history.check_seats(value["seats"], section.line)
    return value


def _pack(value: Any, line: int) -> packs.Pack:
    """The campaign's pack from its content, once it is a valid pack with that hash."""
    if not isinstance(value, dict) or set(value) != set(PACK_FIELDS):
        raise ImportRefused(line, f"pack is an object with exactly {', '.join(PACK_FIELDS)}.")
    try:
        # what rules version 2 asks of a pack is checked once the log says its version
        pack = packs.parse(value["content"], source="the exported pack", rules_version=1)
    except packs.PackError as refused:
        raise ImportRefused(line, str(refused)) from refused
    if (pack.id, pack.version, pack.content_hash) != (value["id"], value["version"], value["hash"]):
        raise ImportRefused(line, "the pack's content is not the pack its id, version and hash name.")
    return pack


def _replayed(section: Section) -> CampaignState:
    """The campaign's state after its log, once each event fits its kind's schema and the
    campaign is finished."""
    stored = cast(list[Event], section.stored(CampaignEvent))
    for (number, _), event in zip(section.events, stored, strict=True):
        problem = events.schema_problem(events.upcast(event))
        if problem is not None:
            raise ImportRefused(number, f"the event is off its kind's schema: {problem}.")
    state = replay(stored)
    if state.status != Campaign.Status.FINISHED:
        last = section.events[-1][0]
        raise ImportRefused(last, "the campaign is not finished: only a finished one is imported.")
    return state


def _chapter_games(state: CampaignState, own: Section, chapters: list[Section]) -> dict[int, tuple[int, int]]:
    """The (chapter, attempt) of each game the log started, by its id in the export, once each
    has its section and no section is foreign."""
    started = {a.game: (a.chapter, a.number) for a in state.attempts if a.game is not None}
    named = [section.header.get("game") for section in chapters]
    for section, game in zip(chapters, named, strict=True):
        if game not in started or named.count(game) > 1:
            foreign = f"game {game!r} is not one of the campaign's chapter games, once."
            raise ImportRefused(section.line, foreign)
    missing = sorted(set(started) - set(named))
    if missing:
        raise ImportRefused(own.line, f"the export lacks the chapter game(s) {missing}.")
    return started


def _check_results(own: Section, chapters: list[Section], states: dict[int, engine.GameState]) -> None:
    """Each chapter's recorded result is its game's standings, as its event's version read them."""
    by_game = {section.header["game"]: states[section.line] for section in chapters}
    for (number, _), event in zip(own.events, own.stored(CampaignEvent), strict=True):
        finished = events.CHAPTER_FINISHED.data_of(cast(events.Event, event))
        if finished is None:
            continue
        state = by_game[finished["game"]]
        read = game_selectors.standings_of if event["v"] > 1 else _standings_read_at_v1
        standings = read(state=state) or {}
        recorded = {"scores": finished["results"], "winners": finished["winners"]}
        astra = finished.get("astra")
        if (
            {"scores": standings.get("scores"), "winners": standings.get("winners")} != recorded
            or (astra is not None and astra["total"] != standings.get("astra_total"))
        ):
            raise ImportRefused(number, "the chapter's result is not its game's.")


# The boxes a chapter_finished of version 1 read missions from, on every sheet of a seat.
V1_MISSION_BOXES = {letter: f"mission.{letter}" for letter in engine.LETTERS}


def _standings_read_at_v1(*, state: engine.GameState) -> dict[str, Any] | None:
    """The standings as a ``chapter_finished`` of version 1 recorded them: a seat's missions
    from the boxes ``mission.A/B/C`` and its System Errors from every box marked, on every sheet
    it plays (the same as today's reading but in adventure 8, whose shared sheets it misread:
    see ``campaigns.rules.events``)."""
    standings = game_selectors.standings_of(state=state)
    if standings is None:
        return None
    for score in standings["scores"]:
        sheets = [state.sheets[sheet] for sheet in state.seats[score["seat"]].sheets]
        score["missions"] = [
            letter for letter, box in V1_MISSION_BOXES.items() if any(box in sheet.marks for sheet in sheets)
        ]
        score["system_errors"] = sum(
            sum(map(sheet.marks.__contains__, sheet.error_boxes)) for sheet in sheets
        )
    return standings
