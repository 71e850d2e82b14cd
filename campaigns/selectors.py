"""Reads: what a seat may see of a campaign, built by replaying its log.

Everything in a campaign's log is public to its seats (choices are made in the open, one seat
at a time); a started campaign does not exist for anyone else, as for games.
"""

from collections.abc import Iterator
from typing import Any, cast

from django.contrib.auth.models import User
from django.db.models import CharField, Count, F, IntegerField, QuerySet, Value

from campaigns import library
from campaigns.models import Campaign, CampaignEvent, CampaignSeat, ChapterGame
from campaigns.models import Pack as PackRow
from campaigns.rules import decider
from campaigns.rules.effects import adventure_name
from campaigns.rules.events import Event, fold, replay
from campaigns.rules.packs import CHAPTERS, LAST_CHAPTER, Pack
from campaigns.rules.state import Attempt, CampaignState
from eventstore import store
from eventstore.errors import Invalid, NotFound
from games import lobby, quotas
from games import selectors as game_selectors
from games.i18n import translated
from games.models import Game, Table, Visibility
from games.rules import engine

MAX_PAGE = 500


def campaigns_of(*, user: User, status: str | None = None) -> QuerySet[Campaign]:
    """The campaigns the user has a seat in, newest first (of that ``status`` when given), not
    those whose lobby expired, with what their summaries read: a page is read in a fixed number
    of queries."""
    campaigns = quotas.unexpired(Campaign.objects.filter(seats__user_id=user.pk))
    if status is not None:
        campaigns = campaigns.filter(status=status)
    return (
        campaigns.select_related("creator", "pack")
        .prefetch_related(game_selectors.seats_with_players(CampaignSeat))
        .order_by("-id")
    )


def lobby_tables() -> QuerySet[Any]:
    """The public games and campaigns (the lobby lists both) waiting for players (a seat
    free, the lobby not expired), newest first: each as ``type`` ("game" or "campaign"),
    ``id``, ``adventure`` (a campaign's: null), ``max_players``, ``taken`` (seats),
    ``creator``, ``created_at`` and ``turn_seconds``; one query for a page."""

    def waiting(model: type[Table], kind: str, adventure: Any) -> QuerySet[Any]:
        return (
            quotas.unexpired(model._default_manager.filter(status="lobby", visibility=Visibility.PUBLIC))
            .annotate(taken=Count("seats"))
            .filter(taken__lt=F("max_players"))
            .annotate(
                type=Value(kind, output_field=CharField()),
                table_adventure=adventure,
                creator_name=F("creator__username"),
            )
            .values(
                "id",
                "max_players",
                "created_at",
                "turn_seconds",
                "taken",
                "type",
                "table_adventure",
                "creator_name",
            )
            .order_by()  # a part of a union is not ordered: the union is
        )

    games = waiting(Game, "game", F("adventure"))
    campaigns = waiting(Campaign, "campaign", Value(None, output_field=IntegerField()))
    return games.union(campaigns, all=True).order_by("-created_at", "-id")


def lobby_entry(row: dict[str, Any]) -> dict[str, Any]:
    """A row of ``lobby_tables`` as the lobby lists it."""
    return {
        "type": row["type"],
        "id": row["id"],
        "adventure": row["table_adventure"],
        "max_players": row["max_players"],
        "seats_taken": row["taken"],
        "seats_free": row["max_players"] - row["taken"],
        "creator": row["creator_name"],
        "created_at": row["created_at"],
        "turn_seconds": row["turn_seconds"],
    }


def get_campaign(*, campaign_id: int) -> Campaign:
    campaign = Campaign.objects.select_related("creator", "pack").filter(pk=campaign_id).first()
    if campaign is None:
        raise NotFound(
            "not_found",
            "There is no campaign %(campaign_id)s.",
            campaign_id=campaign_id,
        )
    return campaign


def seat_of(*, campaign: Campaign, user: User) -> int | None:
    return (
        CampaignSeat.objects.filter(campaign=campaign, user_id=user.pk)
        .values_list("index", flat=True)
        .first()
    )


def state_of(*, campaign: Campaign) -> tuple[CampaignState, int]:
    """The campaign's state from its log, and the seq of its last event."""
    rows = store.rows_after(CampaignEvent, campaign.pk, 0)
    logged = cast(Iterator[Event], store.stored_events(CampaignEvent, rows))
    return replay(logged), rows[-1][0] if rows else 0


def campaign_summary(*, campaign: Campaign) -> dict[str, Any]:
    """The lobby facts of a campaign, known without replaying it: a bot seat has no username
    and names its kind of bot; a solo campaign names its starting ASTRA level."""
    seats = game_selectors.seats_of(campaign)
    return {
        "id": campaign.pk,
        "max_players": campaign.max_players,
        "astra_level": campaign.astra_level,
        "status": campaign.status,
        "visibility": campaign.visibility,
        "turn_seconds": campaign.turn_seconds,
        "creator": campaign.creator.get_username(),
        "created_at": campaign.created_at,
        "pack": {
            "id": campaign.pack.key,
            "version": campaign.pack.version,
            "hash": campaign.pack.content_hash,
            "title": campaign.pack.title,
        },
        "seats": [game_selectors.seat_summary(seat) for seat in seats],
    }


def campaign_view(*, campaign: Campaign, viewer: User, invite: str | None = None) -> dict[str, Any]:
    """The campaign as a seat sees it (anyone signed in, in the lobby of a public campaign or
    with the invite of a private one): tallies, captain, every chapter with its attempts, the
    cards in effect and those offered now; its seats read its invite."""
    seat = seat_of(campaign=campaign, user=viewer)
    if seat is None and not (campaign.status == Campaign.Status.LOBBY and lobby.invited(campaign, invite)):
        raise lobby.outsider(campaign, invite)
    state, version = state_of(campaign=campaign)
    pack = library.stored(campaign.pack)
    view = campaign_summary(campaign=campaign)
    stars = state.stars()
    for entry in view["seats"]:
        entry["stars"] = stars[entry["seat"]] if entry["seat"] < len(stars) else 0
    current = state.current
    games = _games_here(campaign)
    return {
        **view,
        "rules_version": state.rules_version,
        "astra": state.astra_tally(),
        "status": state.status,
        "seat": seat,
        "invite": campaign.invite if seat is not None else None,
        "captain": state.captain,
        "chapter": current.chapter if current is not None else None,
        "chapters": [_chapter_view(state, chapter, games) for chapter in CHAPTERS],
        "cards": _cards_view(state, pack),
        "offered": _offered_view(state, pack),
        "version": version,
        "winners": state.winners,
        "winning": engine.winning(state.winners) if state.winners is not None else None,
    }


def decision_view(*, campaign: Campaign, viewer: User) -> dict[str, Any]:
    """What the viewer's seat must decide now; `wait` when nothing."""
    seat = require_seat(campaign=campaign, viewer=viewer)
    state, _ = state_of(campaign=campaign)
    return decision_of(pack=library.stored(campaign.pack), state=state, seat=seat)


def decision_of(*, pack: Pack, state: CampaignState, seat: int) -> dict[str, Any]:
    """``decision_view`` of a seat from the campaign's pack and its state as already read."""
    return decider.options(state, pack, seat).as_dict()


class CampaignTail:
    """The end of a campaign's log as every follower of it in one process shares it (see
    ``games.selectors.FeedTail``): each look reads the campaign's status and the events after
    the last look in one query, folds them into the state it keeps (the whole log at its first
    look, or after a fold that failed), and works out each seat's decision once for all
    followers. Every seat reads the whole log, so a position is a seq; a follower behind the
    first look's position is answered None: read its feed in full. Once it holds a state, a
    look may be given what commits of this process appended right after its position
    (``handed``): it reads nothing then."""

    def __init__(self, campaign_id: int) -> None:
        self.campaign_id = campaign_id
        self.position = -1  # the last seq read; -1 before the first look
        self.state: CampaignState | None = None  # after event ``position``
        self.pack: Pack | None = None  # the campaign's pack, read at the first look

    def catch_up(
        self, followers: game_selectors.Followers, handed: game_selectors.Handed | None = None
    ) -> game_selectors.Catchups:
        """Look at the log once more (or take what was ``handed``, the events that follow the
        position) and answer each follower (seat, position)."""
        state = self.state
        if handed is not None:
            assert state is not None, "handed to a tail holding no state"
            head, rows = handed
            status, pack_id = head.status, head.pack_id
        else:
            found, rows = store.stream_and_events_after(
                CampaignEvent,
                self.campaign_id,
                0 if state is None else self.position,
                columns=("status", "pack_id"),
            )
            if found is None:
                raise NotFound(
                    "not_found", "There is no campaign %(campaign_id)s.", campaign_id=self.campaign_id
                )
            status, pack_id = found
        if self.pack is None:
            self.pack = library.stored(PackRow.objects.get(pk=pack_id))
        last = rows[-1][0] if rows else max(self.position, 0)
        start = last if self.position < 0 else self.position
        stored = list(store.stored_events(CampaignEvent, [row[:-1] for row in rows]))
        self.state = None  # until it is folded whole: a fold that fails starts again from the log
        self.state = fold(CampaignState() if state is None else state, cast(list[Event], stored))
        self.position = last
        answers: game_selectors.Catchups = {
            (seat, after): None if after < start else game_selectors.Catchup([], None, after, False)
            for seat, after in followers
        }
        events = [
            {"seq": row[0], **event, "created_at": row[-1]}
            for row, event in zip(rows, stored, strict=True)
            if row[0] > start
        ]
        ended = status == Campaign.Status.FINISHED
        decisions: dict[int, dict[str, Any]] = {}
        for (seat, after), answer in answers.items():
            new = [event for event in events if event["seq"] > after]
            if answer is None or not new:
                continue
            if seat not in decisions:
                decisions[seat] = decision_of(pack=self.pack, state=self.state, seat=seat)
            answers[(seat, after)] = game_selectors.Catchup(new, decisions[seat], max(after, last), ended)
        return answers


def events_page(*, campaign: Campaign, viewer: User, after: int = 0, limit: int = 100) -> dict[str, Any]:
    """The campaign's log after position `after`; `next` is the `after` of the following page,
    or None when this page reached the end (then `version` is where to poll from)."""
    require_seat(campaign=campaign, viewer=viewer)
    if after < 0 or limit < 1:
        raise Invalid("invalid_request", "after must be 0 or more, and limit 1 or more.")
    limit = min(limit, MAX_PAGE)
    events = CampaignEvent.objects.filter(campaign_id=campaign.pk)
    version = events.count()
    page = list(events.filter(seq__gt=after).order_by("seq")[:limit])
    more = after + len(page) < version
    return {
        "events": [event_json(row) for row in page],
        "next": after + len(page) if more else None,
        "version": version,
    }


def command_answer(
    *, campaign: Campaign, rows: list[CampaignEvent], state: CampaignState, seat: int
) -> dict[str, Any]:
    """What a command's author reads back: the events it appended, their next decision, the
    campaign's status and version."""
    version = rows[-1].seq if rows else CampaignEvent.objects.filter(campaign_id=campaign.pk).count()
    return {
        "events": [event_json(row) for row in rows],
        "decision": decider.options(state, library.stored(campaign.pack), seat).as_dict(),
        "status": state.status,
        "version": version,
    }


def event_json(row: CampaignEvent) -> dict[str, Any]:
    """An event of the campaign's feed: as the rules know it, with its place and time."""
    return {"seq": row.seq, **row.as_stored(), "created_at": row.created_at}


# --- internals ---------------------------------------------------------------------------------


def require_seat(*, campaign: Campaign, viewer: User) -> int:
    """The viewer's seat in the campaign; the outsider's refusal when they have none."""
    seat = seat_of(campaign=campaign, user=viewer)
    if seat is None:
        raise lobby.outsider(campaign)
    return seat


def _games_here(campaign: Campaign) -> dict[tuple[int, int], int]:
    """The id on this server of each attempt's game, by (chapter, attempt): the log names the
    games by the ids they had where it was recorded, which differ in a campaign imported from
    another server (campaigns/history.py)."""
    links = ChapterGame.objects.filter(campaign_id=campaign.pk).values_list("chapter", "attempt", "game_id")
    return {(chapter, attempt): game for chapter, attempt, game in links}


def _chapter_view(state: CampaignState, chapter: int, games: dict[tuple[int, int], int]) -> dict[str, Any]:
    # before the start, the seats the campaign is for (every adventure plays 2 to 6 alike)
    reason = decider.unavailable(chapter, players=state.players or state.max_players)
    counting = state.counting(chapter)
    return {
        "chapter": chapter,
        "adventure": chapter,
        "name": adventure_name(chapter),
        "available": reason is None,
        "unavailable": None if reason is None else translated(reason.template, reason.params),
        "counts": counting.number if counting is not None else None,
        "attempts": [
            _attempt_view(attempt, games.get((attempt.chapter, attempt.number)))
            for attempt in state.attempts_of(chapter)
        ],
    }


def _attempt_view(attempt: Attempt, game: int | None) -> dict[str, Any]:
    status = "preparing" if attempt.game is None else "finished" if attempt.finished else "playing"
    return {
        "attempt": attempt.number,
        "game": game,
        "status": status,
        "missions": {letter: chosen["card"] for letter, chosen in attempt.missions.items()},
        "cards": list((attempt.setup or {}).get("cards", [])),
        "astra_level": (attempt.setup or {}).get("astra_level"),
        "result": (
            # a chapter's results and winners are recorded by one event (chapter_finished)
            {
                "scores": attempt.results,
                "winners": attempt.winners,
                "winning": engine.winning(attempt.winners),
            }
            if attempt.winners is not None
            else None
        ),
        "stars": attempt.awards,
        "astra": (
            {**attempt.astra, "stars": (attempt.astra_award or {}).get("stars")}
            if attempt.astra is not None
            else None
        ),
        "kept": attempt.kept,
    }


def _upcoming(state: CampaignState) -> int:
    """The chapter in play or being prepared, else the one to come (9 once finished)."""
    current = state.current
    if current is None:
        return 1
    if state.winners is not None:
        return LAST_CHAPTER + 1
    return current.chapter + 1 if current.finished else current.chapter


def _cards_view(state: CampaignState, pack: Pack) -> list[dict[str, Any]]:
    """The cards chosen so far that apply to the chapter to come or a later one."""
    upcoming = _upcoming(state)
    cards = []
    for chapter in range(1, upcoming):
        attempt = state.counting(chapter)
        for chosen in attempt.choices if attempt is not None else ():
            card = pack.card(chosen.card)
            if card.chapters[-1] < upcoming:
                continue
            cards.append(
                {
                    **card.as_dict(),
                    "chosen_by": chosen.seat,
                    "holders": list(decider.holders(state, card, chosen.seat, chosen.target)),
                    "until": card.chapters[-1],
                }
            )
    return cards


def _offered_view(state: CampaignState, pack: Pack) -> list[dict[str, Any]]:
    """The cards offered after the chapter just played, while the campaign is between chapters."""
    current = state.current
    if state.status != "between" or current is None or current.offer is None:
        return []
    offer = current.offer
    return [pack.card(card).as_dict() for card in [*offer["group"], *offer["personal"]]]
