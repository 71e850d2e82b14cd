"""HTTP in, HTTP out for campaigns: parse and validate, call a service or a selector, shape the
answer through its output serializer."""

from typing import Any

from django.http import StreamingHttpResponse
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api import campaign_serializers as cs
from api import serializers as s
from api.idempotency import answered
from api.ids import path_id
from api.permissions import SignedIn
from api.views import (
    BODY_COMMAND,
    COMMAND,
    EXPIRED,
    IDEMPOTENCY,
    LIST_ERRORS,
    OPEN_LOBBIES,
    READ,
    STARTS,
    _body,
    _data,
    _out,
    _query,
    _user,
    _valid,
    errors,
    export_response,
    export_schema,
    paged,
)
from campaigns import history, selectors, services
from campaigns.models import Campaign

TAGS = ["campaigns"]


def _campaign(campaign_id: str) -> Campaign:
    return selectors.get_campaign(campaign_id=path_id(campaign_id, what="campaign"))


def _command_answer(result: services.CampaignResult) -> Any:
    """The answer to a campaign choice, once it has committed."""
    return _data(
        cs.CampaignCommandResultSerializer,
        selectors.command_answer(
            campaign=result.campaign, rows=result.events, state=result.state, seat=result.seat
        ),
    )


class LobbyView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        operation_id="lobby_list",
        parameters=[s.PageQuerySerializer],
        responses={200: s.LobbyPageSerializer, **LIST_ERRORS},
        summary="The public games and campaigns waiting for players, newest first, page by page",
        description=(
            "Each with its adventure (a game's), the seats taken and free, its creator and when it "
            "was created. Join one with POST /games/{id}/join (or /campaigns/{id}/join): a public "
            "table needs no invite. Private tables are never listed."
        ),
        tags=["games", "campaigns"],
    )
    def get(self, request: Request) -> Response:
        query = _query(s.PageQuerySerializer, request)
        page = paged(request, selectors.lobby_tables(), query, selectors.lobby_entry)
        return _out(s.LobbyPageSerializer, page)


class CampaignsView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        operation_id="campaigns_list",
        parameters=[cs.CampaignsQuerySerializer],
        responses={200: cs.CampaignsPageSerializer, **LIST_ERRORS},
        summary="The campaigns you have a seat in, newest first, page by page",
        description="Filter: `status`; any other parameter is refused (`unknown_filter`).",
        tags=TAGS,
    )
    def get(self, request: Request) -> Response:
        query = _query(cs.CampaignsQuerySerializer, request)
        campaigns = selectors.campaigns_of(user=_user(request), status=query.get("status"))
        page = paged(
            request, campaigns, query, lambda campaign: selectors.campaign_summary(campaign=campaign)
        )
        return _out(cs.CampaignsPageSerializer, page)

    @extend_schema(
        request=cs.CreateCampaignSerializer,
        parameters=[IDEMPOTENCY],
        responses={
            201: cs.CampaignSerializer,
            **errors(400, 401, 409, 413, 415, 422, 429, 503, conflicts=OPEN_LOBBIES),
        },
        summary="Open a campaign in the lobby with a content pack; you take seat 0",
        description=(
            "`max_players` 1 opens a solo campaign against ASTRA, starting at `astra_level` (1 "
            "when not given). Refusals: `unknown_pack`, `astra_level_solo_only` (an ASTRA level "
            "on a campaign for several players). `visibility` and `turn_seconds` as for a game "
            "(each chapter's game takes the campaign's `turn_seconds`)."
        ),
        tags=TAGS,
    )
    def post(self, request: Request) -> Response:
        data = _valid(cs.CreateCampaignSerializer, _body(request))
        user = _user(request)
        return answered(
            request,
            lambda: services.create_campaign(
                by=user,
                max_players=data["max_players"],
                astra_level=data.get("astra_level"),
                pack=data.get("pack"),
                visibility=data["visibility"],
                turn_seconds=data.get("turn_seconds"),
            ),
            lambda campaign: _data(
                cs.CampaignSerializer, selectors.campaign_view(campaign=campaign, viewer=user)
            ),
            status=status.HTTP_201_CREATED,
        )


class CampaignView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        parameters=[s.InviteQuerySerializer],
        responses={200: cs.CampaignSerializer, **errors(400, 401, 404, 429, 503)},
        summary="The campaign: status, seats and stars, captain, chapters, cards, version, winners",
        description=(
            "In the lobby, read by anyone signed in when public, with its `invite` when private; "
            "once started, by its seated players only (404 to anyone else)."
        ),
        tags=TAGS,
    )
    def get(self, request: Request, campaign_id: str) -> Response:
        query = _valid(s.InviteQuerySerializer, request.query_params)
        return _out(
            cs.CampaignSerializer,
            selectors.campaign_view(
                campaign=_campaign(campaign_id), viewer=_user(request), invite=query.get("invite")
            ),
        )


class CampaignJoinView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        request=s.JoinSerializer,
        parameters=[IDEMPOTENCY],
        responses={
            200: s.JoinedSerializer,
            **errors(400, 401, 404, 409, 413, 415, 422, 429, 503, conflicts=EXPIRED),
        },
        summary="Take the next free seat of a campaign in the lobby",
        description=(
            "A private campaign is joined with its `invite`: a wrong or missing code is 404 "
            "`not_found`, as for an id that names no campaign."
        ),
        tags=TAGS,
    )
    def post(self, request: Request, campaign_id: str) -> Response:
        campaign, user = _campaign(campaign_id), _user(request)
        data = _valid(s.JoinSerializer, _body(request))
        return answered(
            request,
            lambda: services.join_campaign(campaign=campaign, by=user, invite=data.get("invite")),
            lambda seat: _data(s.JoinedSerializer, {"seat": seat.index}),
        )


class CampaignLeaveView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        request=None,
        parameters=[IDEMPOTENCY],
        responses={204: None, **errors(*COMMAND)},
        summary="Leave your seat of a campaign in the lobby",
        description=(
            "The seats after yours move up one. The creator cannot leave (409 `creator_seat`); "
            "409 `campaign_not_in_lobby` once the campaign has started."
        ),
        tags=TAGS,
    )
    def post(self, request: Request, campaign_id: str) -> Response:
        campaign, user = _campaign(campaign_id), _user(request)
        return answered(
            request,
            lambda: services.leave_campaign(campaign=campaign, by=user),
            lambda _: None,
            status=status.HTTP_204_NO_CONTENT,
            body=False,
        )


class CampaignRemoveSeatView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        request=None,
        parameters=[IDEMPOTENCY],
        responses={200: cs.CampaignSerializer, **errors(*COMMAND)},
        summary="Free a seat of a campaign in the lobby, a player's or a bot's (creator only)",
        description=(
            "The seats after it move up one. 404 `seat_not_found` for a seat not taken, 409 "
            "`creator_seat` for the creator's own, 403 `not_creator`."
        ),
        tags=TAGS,
    )
    def post(self, request: Request, campaign_id: str, seat: str) -> Response:
        campaign, user = _campaign(campaign_id), _user(request)
        index = path_id(seat, what="seat", code="seat_not_found")
        return answered(
            request,
            lambda: services.remove_seat(campaign=campaign, by=user, index=index),
            lambda _: _data(cs.CampaignSerializer, selectors.campaign_view(campaign=campaign, viewer=user)),
            body=False,
        )


class CampaignBotsView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        request=s.AddBotSerializer,
        parameters=[IDEMPOTENCY],
        responses={201: s.BotSeatSerializer, **errors(*BODY_COMMAND, conflicts=EXPIRED)},
        summary="Fill the next free seat of a campaign with a bot (creator only, in the lobby)",
        description=(
            "The bot holds its seat in every chapter's game (a worker plays its turns) and makes "
            "its campaign choices (cards, opponents, and the captain's when it holds the card) "
            "through the same decisions as a player, each made by a worker once it is asked."
        ),
        tags=TAGS,
    )
    def post(self, request: Request, campaign_id: str) -> Response:
        campaign, user = _campaign(campaign_id), _user(request)
        data = _valid(s.AddBotSerializer, _body(request))
        return answered(
            request,
            lambda: services.add_bot(campaign=campaign, by=user, kind=data["kind"]),
            lambda seat: _data(s.BotSeatSerializer, {"seat": seat.index, "bot": seat.bot}),
            status=status.HTTP_201_CREATED,
        )


class CampaignStartView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        request=None,
        parameters=[IDEMPOTENCY],
        responses={200: cs.CampaignSerializer, **errors(*COMMAND, conflicts=EXPIRED, too_many=STARTS)},
        summary="Start the campaign with its seats (creator only): chapter 1's game starts",
        tags=TAGS,
    )
    def post(self, request: Request, campaign_id: str) -> Response:
        campaign, user = _campaign(campaign_id), _user(request)
        return answered(
            request,
            lambda: services.start_campaign(campaign=campaign, by=user),
            lambda result: _data(
                cs.CampaignSerializer, selectors.campaign_view(campaign=result.campaign, viewer=user)
            ),
            body=False,
        )


class CampaignDecisionView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        responses={200: cs.CampaignDecisionSerializer, **errors(*READ)},
        summary="What your seat must decide in the campaign now (`wait` when nothing)",
        tags=TAGS,
    )
    def get(self, request: Request, campaign_id: str) -> Response:
        return _out(
            cs.CampaignDecisionSerializer,
            selectors.decision_view(campaign=_campaign(campaign_id), viewer=_user(request)),
        )


class CampaignMovesView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        request=cs.CampaignMoveSerializer,
        parameters=[IDEMPOTENCY],
        responses={200: cs.CampaignCommandResultSerializer, **errors(*BODY_COMMAND)},
        summary="Make one of the choices of your campaign decision",
        description=(
            "409 when nothing is asked of you now (`not_your_choice`, `chapter_in_play`, ...) or "
            "when the next chapter's adventure is not playable yet (`chapter_not_available`)."
        ),
        tags=TAGS,
    )
    def post(self, request: Request, campaign_id: str) -> Response:
        campaign, user = _campaign(campaign_id), _user(request)
        data = _valid(cs.CampaignMoveSerializer, _body(request))
        return answered(
            request,
            lambda: services.play_choice(campaign=campaign, by=user, choice=data["choice"]),
            _command_answer,
        )


class CampaignEventsView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        parameters=[s.EventsQuerySerializer],
        responses={200: cs.CampaignEventsPageSerializer, **errors(*READ, 400)},
        summary="The campaign's own log, ascending, page by page",
        tags=TAGS,
    )
    def get(self, request: Request, campaign_id: str) -> Response:
        campaign = _campaign(campaign_id)
        query = _valid(s.EventsQuerySerializer, request.query_params)
        return _out(
            cs.CampaignEventsPageSerializer,
            selectors.events_page(
                campaign=campaign, viewer=_user(request), after=query["after"], limit=query["limit"]
            ),
        )


class CampaignExportView(APIView):
    permission_classes = [SignedIn]

    @export_schema(
        lines=(
            f"Line 1, the campaign's header: `format` (`{history.FORMAT}`), `campaign`, `players`, "
            "`astra_level`, `pack` (`id`, `version`, `hash` and the whole `content`), `seats`. Then "
            "one line per campaign event in seq order: `seq`, `seat`, `kind`, `v`, `data`, "
            "`created_at`, `prev_hash`, `hash`, where `hash` = sha256(`prev_hash` + the UTF-8 JSON "
            "of `seq`, `seat`, `kind`, `data` with sorted keys and no spaces) and the first "
            "`prev_hash` is 64 zeros. Then each chapter game as its own export "
            "(`GET /games/{id}/export`): a header line naming the game as the campaign's log does, "
            "then its events."
        ),
        summary="The whole history of a finished campaign and its chapter games, hash-chained",
        description=(
            "For a seated player once the campaign is finished (409 `campaign_not_finished` "
            "before), or at any time for staff who may view campaigns in the admin (`is_staff` "
            "alone is not enough). `manage.py import_campaign` stores such a file "
            "as a new campaign after checking every hash chain, replaying every chapter game "
            "through the rules engine and each chapter's result against its game."
        ),
        tags=TAGS,
    )
    def get(self, request: Request, campaign_id: str) -> StreamingHttpResponse:
        campaign = _campaign(campaign_id)
        lines = history.export_lines(campaign=campaign, viewer=_user(request))
        return export_response(lines, history.export_filename(campaign))
