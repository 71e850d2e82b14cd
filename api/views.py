"""HTTP in, HTTP out: parse and validate, call a service or a selector, shape the answer."""

from collections.abc import Iterable
from typing import Any
from urllib.parse import unquote

from django.conf import settings
from django.contrib.auth.models import User
from django.http import StreamingHttpResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.views import APIView

from accounts import services as accounts
from accounts.models import ClientToken
from api import serializers as s
from api.idempotency import HEADER, MAX_KEY_LENGTH, answered
from api.ids import path_id
from api.permissions import Public, SignedIn
from eventstore.errors import Invalid
from games import history, selectors, services
from games.models import Game
from moon import health
from moon.celery import app as celery_app

ERRORS = {
    400: OpenApiResponse(s.ErrorSerializer, description="Invalid request or illegal move"),
    401: OpenApiResponse(s.ErrorSerializer, description="Not authenticated"),
    403: OpenApiResponse(s.ErrorSerializer, description="Not seated / not allowed"),
    404: OpenApiResponse(s.ErrorSerializer, description="No such game"),
    409: OpenApiResponse(s.ErrorSerializer, description="Not now (status, turn, race)"),
    429: OpenApiResponse(s.ErrorSerializer, description="Too many requests (`throttled`)"),
    503: OpenApiResponse(
        s.ErrorSerializer,
        description="The database cannot be reached (`database_unavailable`); retry after `Retry-After`",
    ),
}
# What any request with a body may get before its view runs: too large, or not JSON.
BODY_ERRORS = {
    413: OpenApiResponse(s.ErrorSerializer, description="Body too large (`payload_too_large`)"),
    415: OpenApiResponse(s.ErrorSerializer, description="Body not JSON (`unsupported_media_type`)"),
}
IDEMPOTENCY = OpenApiParameter(
    HEADER,
    {"type": "string", "minLength": 1, "maxLength": MAX_KEY_LENGTH},
    OpenApiParameter.HEADER,
    required=False,
    description=(
        f"Send again with the same key (1 to {MAX_KEY_LENGTH} characters) and the same body: the "
        "first answer is returned, nothing appended."
    ),
)
POST_ERRORS = {
    **ERRORS,
    **BODY_ERRORS,
    422: OpenApiResponse(s.ErrorSerializer, description="Idempotency-Key reused elsewhere"),
}


def _valid(serializer_class: type[Serializer], data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _body(request: Request) -> Any:
    data = request.data
    if not isinstance(data, dict):
        raise Invalid("invalid_request", "The body must be a JSON object.")
    return data


def _game(game_id: str) -> Game:
    return selectors.get_game(game_id=path_id(game_id, what="game"))


def _user(request: Request) -> User:
    """The signed-in caller (the views' permission classes let no one else through)."""
    user = request.user
    assert isinstance(user, User)
    return user


def _out(
    serializer_class: type[Serializer], data: Any, *, code: int = status.HTTP_200_OK, many: bool = False
) -> Response:
    """An answer rendered through its output serializer: what is sent is what the schema says."""
    return Response(serializer_class(data, many=many).data, status=code)


def _data(serializer_class: type[Serializer], data: Any) -> Any:
    """What an answer sends, through its output serializer."""
    return serializer_class(data).data


def _command_answer(result: services.CommandResult) -> Any:
    """The answer to a turn's command, once it has committed: see ``selectors.command_answer``."""
    return _data(
        s.CommandResultSerializer,
        selectors.command_answer(game=result.game, rows=result.events, state=result.state, seat=result.seat),
    )


# --- operations --------------------------------------------------------------------------------


class IndexView(APIView):
    authentication_classes = []
    permission_classes = [Public]

    @extend_schema(
        responses={200: s.IndexSerializer},
        summary="What this API offers: its resources by name, the docs and the schema",
        description=(
            "No authentication. `{id}` and `{sheet}` in a link stand for a game, campaign or "
            "sheet id."
        ),
        tags=["operations"],
    )
    def get(self, request: Request) -> Response:
        def link(name: str, **kwargs: str) -> str:
            # unquoted, so that the `{id}` placeholders read as URI templates
            return unquote(request.build_absolute_uri(reverse(f"api:{name}", kwargs=kwargs)))

        game = {"game_id": "{id}"}
        campaign = {"campaign_id": "{id}"}
        return _out(
            s.IndexSerializer,
            {
                "name": "moon",
                "version": settings.SPECTACULAR_SETTINGS["VERSION"],
                "docs": link("docs"),
                "schema": link("schema"),
                "resources": {
                    "health": link("health"),
                    "register": link("register"),
                    "token": link("token"),
                    "logout": link("logout"),
                    "games": link("games"),
                    "game": link("game", **game),
                    "join": link("join", **game),
                    "bots": link("bots", **game),
                    "start": link("start", **game),
                    "decision": link("decision", **game),
                    "moves": link("moves", **game),
                    "undo": link("undo", **game),
                    "confirm": link("confirm", **game),
                    "sheet": link("sheet", **game, sheet="{sheet}"),
                    "events": link("events", **game),
                    "stream": link("stream", **game),
                    "stream_ticket": link("stream_ticket", **game),
                    "replay": link("replay", **game),
                    "export": link("export", **game),
                    "campaigns": link("campaigns"),
                    "campaign": link("campaign", **campaign),
                    "campaign_join": link("campaign_join", **campaign),
                    "campaign_start": link("campaign_start", **campaign),
                    "campaign_decision": link("campaign_decision", **campaign),
                    "campaign_moves": link("campaign_moves", **campaign),
                    "campaign_events": link("campaign_events", **campaign),
                    "campaign_stream": link("campaign_stream", **campaign),
                    "campaign_stream_ticket": link("campaign_stream_ticket", **campaign),
                },
            }
        )


class HealthView(APIView):
    authentication_classes = []
    permission_classes = [Public]
    throttle_classes = []

    @extend_schema(
        responses={
            200: OpenApiResponse(s.HealthSerializer, description="Database, broker and a worker answer"),
            503: OpenApiResponse(s.HealthSerializer, description="Something is down; `detail` names it"),
        },
        summary="Whether the database, the broker and at least one Celery worker answer",
        description=(
            "No authentication. In the embedded mode (no broker) the broker and worker checks "
            "report `eager`, which counts as up."
        ),
        tags=["operations"],
    )
    def get(self, request: Request) -> Response:
        healthy, checks = health.run_checks(celery_app)
        if healthy:
            return _out(s.HealthSerializer, {"status": "ok", "checks": checks})
        down = [name for name, check in checks.items() if check["status"] not in health.UP]
        return _out(
            s.HealthSerializer,
            {
                "status": "unavailable",
                "code": "unavailable",
                "detail": f"down: {', '.join(down)}",
                "checks": checks,
            },
            code=status.HTTP_503_SERVICE_UNAVAILABLE,
        )


# --- auth --------------------------------------------------------------------------------------


class RegisterView(APIView):
    authentication_classes = []
    permission_classes = [Public]

    @extend_schema(
        request=s.CredentialsSerializer,
        responses={
            201: s.TokenSerializer, 400: ERRORS[400], 409: ERRORS[409], 429: ERRORS[429], **BODY_ERRORS
        },
        summary="Create an account; returns its API token",
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        data = _valid(s.CredentialsSerializer, _body(request))
        _, token = accounts.register_user(username=data["username"], password=data["password"])
        return _out(s.TokenSerializer, {"token": token}, code=status.HTTP_201_CREATED)


class TokenView(APIView):
    authentication_classes = []
    permission_classes = [Public]

    @extend_schema(
        request=s.CredentialsSerializer,
        responses={200: s.TokenSerializer, 400: ERRORS[400], 429: ERRORS[429], **BODY_ERRORS},
        summary="Exchange a username and password for the API token",
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        data = _valid(s.CredentialsSerializer, _body(request))
        token = accounts.sign_in(username=data["username"], password=data["password"])
        return _out(s.TokenSerializer, {"token": token})


class LogoutView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        request=None,
        responses={204: None, 401: ERRORS[401], 429: ERRORS[429]},
        summary="Sign out: revoke the token this request was sent with",
        description=(
            "The token authenticates no one afterwards; the account's other clients (other "
            "tokens) stay signed in. `/auth/token` issues a new one."
        ),
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        token = request.auth
        assert isinstance(token, ClientToken)  # what ExpiringTokenAuthentication authenticates with
        accounts.sign_out(token=token)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- lobby -------------------------------------------------------------------------------------


class GamesView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        responses={200: s.GameSummarySerializer(many=True), 401: ERRORS[401], 429: ERRORS[429]},
        summary="The games you have a seat in, newest first",
        tags=["games"],
    )
    def get(self, request: Request) -> Response:
        games = selectors.games_of(user=_user(request))[:200]
        return _out(
            s.GameSummarySerializer, [selectors.game_summary(game=game) for game in games], many=True
        )

    @extend_schema(
        request=s.CreateGameSerializer,
        parameters=[IDEMPOTENCY],
        responses={201: s.GameSerializer, **POST_ERRORS},
        summary="Open a game in the lobby; you take seat 0",
        description=(
            "`max_players` 1 opens a solo game against ASTRA (`astra_level` 1 to 8, 1 when left "
            "out); a multiplayer game refuses `astra_level` (`astra_level_solo_only`)."
        ),
        tags=["games"],
    )
    def post(self, request: Request) -> Response:
        data = _valid(s.CreateGameSerializer, _body(request))
        user = _user(request)
        return answered(
            request,
            lambda: services.create_game(
                by=user,
                adventure=data["adventure"],
                max_players=data["max_players"],
                astra_level=data.get("astra_level"),
            ),
            lambda game: _data(s.GameSerializer, selectors.game_view(game=game, viewer=user)),
            status=status.HTTP_201_CREATED,
        )


class GameView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        responses={200: s.GameSerializer, **ERRORS},
        summary="The game: status, turn, seats, combinations, missions, version, result",
        tags=["games"],
    )
    def get(self, request: Request, game_id: str) -> Response:
        return _out(s.GameSerializer, selectors.game_view(game=_game(game_id), viewer=_user(request)))


class JoinView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        request=None,
        parameters=[IDEMPOTENCY],
        responses={200: s.JoinedSerializer, **POST_ERRORS},
        summary="Take the next free seat of a game in the lobby",
        tags=["games"],
    )
    def post(self, request: Request, game_id: str) -> Response:
        game, user = _game(game_id), _user(request)
        return answered(
            request,
            lambda: services.join_game(game=game, by=user),
            lambda seat: _data(s.JoinedSerializer, {"seat": seat.index}),
        )


class BotsView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        request=s.AddBotSerializer,
        parameters=[IDEMPOTENCY],
        responses={201: s.BotSeatSerializer, **POST_ERRORS},
        summary="Fill the next free seat with a bot (creator only, game in the lobby)",
        description=(
            "A bot seat has no account: a worker plays its whole turn through the same decisions "
            "and moves as a player's, as soon as the turn starts (and in phase 6 when it is asked)."
        ),
        tags=["games"],
    )
    def post(self, request: Request, game_id: str) -> Response:
        game, user = _game(game_id), _user(request)
        data = _valid(s.AddBotSerializer, _body(request))
        return answered(
            request,
            lambda: services.add_bot(game=game, by=user, kind=data["kind"]),
            lambda seat: _data(s.BotSeatSerializer, {"seat": seat.index, "bot": seat.bot}),
            status=status.HTTP_201_CREATED,
        )


class StartView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        request=None,
        parameters=[IDEMPOTENCY],
        responses={200: s.GameSerializer, **POST_ERRORS},
        summary="Start the game with the seated players (creator only)",
        tags=["games"],
    )
    def post(self, request: Request, game_id: str) -> Response:
        game, user = _game(game_id), _user(request)
        return answered(
            request,
            lambda: services.start_game(game=game, by=user),
            lambda result: _data(s.GameSerializer, selectors.game_view(game=result.game, viewer=user)),
        )


# --- turns -------------------------------------------------------------------------------------


class DecisionView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        responses={200: s.DecisionSerializer, **ERRORS},
        summary="What your seat must or may do now",
        tags=["turns"],
    )
    def get(self, request: Request, game_id: str) -> Response:
        return _out(
            s.DecisionSerializer, selectors.decision_view(game=_game(game_id), viewer=_user(request))
        )


class MovesView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        request=s.MoveSerializer,
        parameters=[IDEMPOTENCY],
        responses={200: s.CommandResultSerializer, **POST_ERRORS},
        summary="Play one of the options of your decision",
        tags=["turns"],
    )
    def post(self, request: Request, game_id: str) -> Response:
        game, user = path_id(game_id, what="game"), _user(request)
        data = _valid(s.MoveSerializer, _body(request))
        return answered(
            request, lambda: services.play_move(game_id=game, by=user, choice=data["choice"]), _command_answer
        )


class UndoView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        request=None,
        parameters=[IDEMPOTENCY],
        responses={200: s.CommandResultSerializer, **POST_ERRORS},
        summary="Undo your unconfirmed turn",
        tags=["turns"],
    )
    def post(self, request: Request, game_id: str) -> Response:
        game, user = path_id(game_id, what="game"), _user(request)
        return answered(request, lambda: services.undo_turn(game_id=game, by=user), _command_answer)


class ConfirmView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        request=None,
        parameters=[IDEMPOTENCY],
        responses={200: s.CommandResultSerializer, **POST_ERRORS},
        summary="Confirm your turn",
        tags=["turns"],
    )
    def post(self, request: Request, game_id: str) -> Response:
        game, user = path_id(game_id, what="game"), _user(request)
        return answered(request, lambda: services.confirm_turn(game_id=game, by=user), _command_answer)


# --- reading -----------------------------------------------------------------------------------


class SheetView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        responses={200: s.SheetSerializer, **ERRORS},
        summary="Every mark on a sheet, its live score and what is derived from it",
        description=(
            "Sheets are listed in the game view with the seats that play on them; in adventures "
            "1-7 sheet n is seat n's. In adventure 8 sheet n is shared: seat n owns its side S "
            "and seat n+1 (mod the players) its side N; `sides` names them and `active_seat` "
            "the one playing it this turn, `score` holds each side's points and `derived` the "
            "planets, moons, flags, asteroid field and both side panels. A solo game of "
            "adventure 8 has sheets 0 (L, odd turns) and 1 (R, even turns): the player owns "
            'side S of both and ASTRA side N (`"N": "astra"`). This turn\'s marks on a sheet '
            "are shown only to the seat playing it until the turn resolves (on a shared sheet, "
            "not to its other owner either)."
        ),
        tags=["reading"],
    )
    def get(self, request: Request, game_id: str, sheet: str) -> Response:
        game = _game(game_id)
        number = path_id(sheet, what="sheet", code="sheet_not_found")
        return _out(
            s.SheetSerializer, selectors.sheet_view(game=game, viewer=_user(request), sheet=number)
        )


class EventsView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        parameters=[s.EventsQuerySerializer],
        responses={200: s.EventsPageSerializer, **ERRORS},
        summary="The event history, ascending, as you may see it; `wait` long-polls",
        tags=["reading"],
    )
    def get(self, request: Request, game_id: str) -> Response:
        game = _game(game_id)
        query = _valid(s.EventsQuerySerializer, request.query_params)
        return _out(
            s.EventsPageSerializer,
            selectors.events_page(
                game=game, viewer=_user(request), after=query["after"], limit=query["limit"]
            )
        )


class ReplayView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        parameters=[s.ReplayQuerySerializer],
        responses={200: s.ReplaySerializer, **ERRORS},
        summary="A finished game and its sheets as they were when you read event `seq` of your feed",
        tags=["reading"],
    )
    def get(self, request: Request, game_id: str) -> Response:
        game = _game(game_id)
        query = _valid(s.ReplayQuerySerializer, request.query_params)
        return _out(
            s.ReplaySerializer, selectors.replay_view(game=game, viewer=_user(request), seq=query["seq"])
        )




# JSON Lines: one JSON object per line (https://jsonlines.org); the schema declares it as text,
# since OpenAPI 3.0 cannot describe a stream of objects, and says what each line holds.
JSON_LINES = "application/jsonl"


def export_schema(*, lines: str, summary: str, description: str, tags: list[str]) -> Any:
    """The schema of an export: JSON Lines as ``lines`` describes them, or a JSON error."""
    return extend_schema(
        responses={
            (200, JSON_LINES): OpenApiResponse(
                OpenApiTypes.STR, description=f"JSON Lines (UTF-8), sent as it is read. {lines}"
            ),
            **{
                (code, "application/json"): response
                for code, response in ERRORS.items()
                if code != 400  # no query and no body: nothing to be invalid
            },
        },
        summary=summary,
        description=description,
        tags=tags,
    )


def export_response(lines: Iterable[str], filename: str) -> StreamingHttpResponse:
    """An export, streamed as it is read, to be saved as ``filename``."""
    response = StreamingHttpResponse(lines, content_type=f"{JSON_LINES}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


class ExportView(APIView):
    permission_classes = [SignedIn]

    @export_schema(
        lines=(
            f"Line 1, the header: `format` (`{history.FORMAT}`), `game`, `adventure`, `players`, "
            "`seats` (`[{seat, username}]`). Then one line per event in seq order: `seq`, `turn`, "
            "`seat`, `kind`, `v` (the version of the kind's schema it was stored with), `data`, "
            "`created_at`, `prev_hash`, `hash`, where `hash` = sha256(`prev_hash` + the UTF-8 JSON "
            "of `seq`, `turn`, `seat`, `kind`, `data` with sorted keys and no spaces) and the first "
            "`prev_hash` is 64 zeros."
        ),
        summary="The whole history of a finished game, every event with its chained hash",
        description=(
            "For a seated player once the game is finished (409 `game_not_finished` before), or "
            "for staff at any time. `manage.py import_game` stores such a file as a new game "
            "after checking its hash chain and replaying it through the rules engine."
        ),
        tags=["reading"],
    )
    def get(self, request: Request, game_id: str) -> StreamingHttpResponse:
        game = _game(game_id)
        lines = history.export_lines(game=game, viewer=_user(request))
        return export_response(lines, history.export_filename(game))
