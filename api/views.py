"""HTTP in, HTTP out: parse and validate, call a service or a selector, shape the answer."""

import asyncio
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any
from urllib.parse import unquote

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.models import User
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import HttpRequest, HttpResponse, HttpResponseBase, QueryDict, StreamingHttpResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.fields import ChoiceField
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer, Serializer
from rest_framework.views import APIView

from accounts import services as accounts
from accounts.models import ClientToken
from api import serializers as s
from api.idempotency import HEADER, MAX_KEY_LENGTH, answered
from api.ids import path_id
from api.permissions import Public, SignedIn
from eventstore import followups, seals
from eventstore.errors import Invalid
from games import history, selectors, services
from games.models import Game
from games.rules.engine import shown
from moon import health
from moon.celery import app as celery_app

# What each error status means, as the operations that give it declare it.
ERROR_ANSWERS = {
    400: "Invalid request or illegal move",
    401: "Not authenticated",
    403: "Not seated / not allowed",
    404: "No such game",
    409: "Not now (status, turn, race)",
    413: "Body too large (`payload_too_large`)",
    415: "Body not JSON (`unsupported_media_type`)",
    422: "Idempotency-Key reused elsewhere",
    429: "Too many requests (`throttled`)",
    503: "The database cannot be reached (`database_unavailable`); retry after `Retry-After`",
}


def errors(*statuses: int, conflicts: str = "", too_many: str = "") -> dict[int, OpenApiResponse]:
    """The error answers of an operation: the statuses it can really give, no other
    (tests/api/test_declared_statuses.py provokes each one declared). 401 where a token is
    needed, 403 and 404 where a table is read, 409 where its state may refuse, 413 and 415
    where a body is read, 422 where an Idempotency-Key is taken, 429 where throttled, 503 where
    the database is read. ``conflicts`` and ``too_many`` name the quota refusals
    (games/quotas.py) beside the 409s and `throttled`."""
    found = {code: OpenApiResponse(s.ErrorSerializer, description=ERROR_ANSWERS[code]) for code in statuses}
    if conflicts:
        assert 409 in found, "a quota's conflict is a 409"
        found[409] = OpenApiResponse(s.ErrorSerializer, description=f"{ERROR_ANSWERS[409]}; {conflicts}")
    if too_many:
        assert 429 in found, "a quota reached is a 429"
        found[429] = OpenApiResponse(
            s.ErrorSerializer, description=f"{ERROR_ANSWERS[429]}, or a quota reached: {too_many}"
        )
    return found


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
# The errors of a command on a table that takes no body (400: an invalid Idempotency-Key), and
# of one that takes a body.
COMMAND = (400, 401, 403, 404, 409, 422, 429, 503)
BODY_COMMAND = (*COMMAND, 413, 415)
# The errors of reading a table.
READ = (401, 403, 404, 429, 503)


# The quotas' refusals, as the schema names them (games/quotas.py; limits in the settings).
EXPIRED = "the lobby expired (`lobby_expired`: a day after it was opened by default)"
OPEN_LOBBIES = "too many lobbies open (`too_many_open_lobbies`)"
STARTS = (
    "too many games started in the last hour (`games_per_hour_exceeded`; with a bot seat, "
    "`bot_games_per_hour_exceeded`)"
)
UNDOS = "too many undos in this turn (`undo_limit_reached`)"


# One instance of each serializer, shared by every request it validates or answer it shapes:
# DRF deep-copies a serializer's declared fields for each instance, which cost more than
# shaping a whole answer. Validating (``run_validation``) and shaping (``to_representation``)
# keep no state on the instance; none of these serializers reads a context.
SHAPERS: dict[tuple[type[Serializer], bool], BaseSerializer] = {}


# DRF's rendering of a game's status, for answers shaped without their serializer
STATUS = ChoiceField(choices=s.GAME_STATUSES)


def _shaper(serializer_class: type[Serializer], *, many: bool = False) -> Any:
    """The shared instance of ``serializer_class``."""
    shaper = SHAPERS.get((serializer_class, many))
    if shaper is None:
        shaper = SHAPERS.setdefault((serializer_class, many), serializer_class(many=many))
    return shaper


def _shaped(serializer_class: type[Serializer], data: Any, *, many: bool = False) -> Any:
    """``data`` as its output serializer shapes it (what ``serializer_class(data).data`` is)."""
    return _shaper(serializer_class, many=many).to_representation(data)


def _valid(serializer_class: type[Serializer], data: Any) -> dict[str, Any]:
    """``data`` validated by ``serializer_class``: a field it does not declare is refused
    (`unknown_field`, naming them), not ignored."""
    serializer = _shaper(serializer_class)
    body = isinstance(data, dict) and not isinstance(data, QueryDict)
    unknown = sorted(set(data) - set(serializer.fields)) if body else []
    if unknown:
        if not serializer.fields:
            raise Invalid(
                "unknown_field",
                "Unknown field(s): %(unknown)s; this request takes no field.",
                unknown=", ".join(map(shown, unknown)),
            )
        raise Invalid(
            "unknown_field",
            "Unknown field(s): %(unknown)s; this request takes %(fields)s.",
            unknown=", ".join(map(shown, unknown)),
            fields=", ".join(serializer.fields),
        )
    # what ``is_valid(raise_exception=True)`` runs, on the shared instance (it keeps no state)
    return dict(serializer.run_validation(data))


def _body(request: Request) -> Any:
    data = request.data
    if not isinstance(data, dict):
        raise Invalid("invalid_request", "The body must be a JSON object.")
    return data


def _query(serializer_class: type[Serializer], request: Request) -> dict[str, Any]:
    """A list's query: its declared parameters only (any other is refused, not ignored)."""
    unknown = sorted(set(request.query_params) - set(_shaper(serializer_class).fields))
    if unknown:
        raise Invalid(
            "unknown_filter",
            "This list takes no parameter %(unknown)s.",
            unknown=", ".join(unknown),
        )
    return _valid(serializer_class, request.query_params)


def paged(request: Request, rows: Any, query: dict[str, Any], item: Callable[[Any], Any]) -> dict[str, Any]:
    """One page of ``rows`` (a queryset, read in one query besides its count and what it
    prefetches), each shaped by ``item``, with the links to the pages around it."""
    start, size = (query["page"] - 1) * query["page_size"], query["page_size"]
    return page_of(request, query, rows.count(), [item(row) for row in rows[start : start + size]])


def page_of(request: Request, query: dict[str, Any], count: int, results: list[Any]) -> dict[str, Any]:
    """A page of ``results`` out of ``count``, with the links to the pages around it."""
    page, size = query["page"], query["page_size"]
    start = (page - 1) * size

    def link(number: int) -> str:
        params = request.query_params.copy()
        params["page"] = str(number)
        return request.build_absolute_uri(f"{request.path}?{params.urlencode()}")

    return {
        "count": count,
        "next": link(page + 1) if start + size < count else None,
        "previous": link(min(page - 1, max(1, -(-count // size)))) if page > 1 else None,
        "results": results,
    }


def _game(game_id: str) -> Game:
    return selectors.get_game(game_id=path_id(game_id, what="game"))


def _user(request: Request) -> User:
    """The signed-in caller (the views' permission classes let no one else through)."""
    user = request.user
    assert isinstance(user, User)
    return user


def like_drf(view: Callable[..., Any], cls: type[APIView], initkwargs: dict[str, Any]) -> Callable[..., Any]:
    """``view`` with the marks of ``cls.as_view()``: its class for the schema, no CSRF check
    (token authentication, as DRF's views)."""
    view.cls = cls  # type: ignore[attr-defined]
    view.initkwargs = initkwargs  # type: ignore[attr-defined]
    view.csrf_exempt = True  # type: ignore[attr-defined]
    return view




def _out(
    serializer_class: type[Serializer], data: Any, *, code: int = status.HTTP_200_OK, many: bool = False
) -> Response:
    """An answer rendered through its output serializer: what is sent is what the schema says."""
    return Response(_shaped(serializer_class, data, many=many), status=code)


def _data(serializer_class: type[Serializer], data: Any) -> Any:
    """What an answer sends, through its output serializer."""
    return _shaped(serializer_class, data)


def _command_answer(result: services.CommandResult) -> dict[str, Any]:
    """The answer to a turn's command, once it has committed: see ``selectors.command_answer``.
    Every move answers it: shaped here as CommandResultSerializer (the schema's) shapes it,
    field by field in its order, with no serializer walking each field (``s.shown_event``,
    ``s.shown_decision``): its values are already JSON's but the events' datetimes and the
    game's status, a choice."""
    answer = selectors.command_answer(
        game=result.game,
        rows=result.events,
        state=result.state,
        seat=result.seat,
        turn_in_play=result.turn_in_play,
    )
    shaped = {
        "events": [s.shown_event(event) for event in answer["events"]],
        "decision": s.shown_decision(answer["decision"]),
        "status": STATUS.to_representation(answer["status"]),
        "version": answer["version"],
    }
    # the answer was the last to read the state: the game's next command here folds from it
    services.keep_state(result=result)
    return shaped


# --- operations --------------------------------------------------------------------------------


class IndexView(APIView):
    authentication_classes = []
    permission_classes = [Public]

    @extend_schema(
        responses={200: s.IndexSerializer, **errors(429)},
        summary="What this API offers: its resources by name, the docs and the schema",
        description=(
            "No authentication. `{id}`, `{sheet}` and `{seat}` in a link stand for a game, "
            "campaign or sheet id and a seat number."
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
                    "history_key": link("history_key"),
                    "register": link("register"),
                    "token": link("token"),
                    "logout": link("logout"),
                    "logout_all": link("logout_all"),
                    "games": link("games"),
                    "lobby": link("lobby"),
                    "game": link("game", **game),
                    "join": link("join", **game),
                    "leave": link("leave", **game),
                    "remove_seat": link("remove_seat", **game, seat="{seat}"),
                    "resign": link("resign", **game),
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
                    "campaign_leave": link("campaign_leave", **campaign),
                    "campaign_start": link("campaign_start", **campaign),
                    "campaign_decision": link("campaign_decision", **campaign),
                    "campaign_moves": link("campaign_moves", **campaign),
                    "campaign_events": link("campaign_events", **campaign),
                    "campaign_stream": link("campaign_stream", **campaign),
                    "campaign_stream_ticket": link("campaign_stream_ticket", **campaign),
                },
            }
        )


# The health check's own thread in each process (HealthView).
HEALTH_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="health")


class HealthView(APIView):
    authentication_classes = []
    permission_classes = [Public]
    throttle_classes = []

    @extend_schema(
        responses={
            200: OpenApiResponse(
                s.HealthSerializer,
                description="Database, broker and a worker answer (`degraded`: follow-ups are late)",
            ),
            503: OpenApiResponse(s.HealthSerializer, description="Something is down; `detail` names it"),
        },
        summary="Whether the database, the broker and at least one Celery worker answer, and whether "
        "the work that follows moves (ASTRA's turns, bots, scoring) is late",
        description=(
            "No authentication. In the embedded mode (no broker) the broker and worker checks "
            "report `eager`, which counts as up. `checks.followups` gives the age of the oldest "
            "follow-up not done; past HEALTH_FOLLOWUP_AGE seconds (default 120) the status is "
            "`degraded` (still 200)."
        ),
        tags=["operations"],
    )
    def get(self, request: Request) -> Response:
        healthy, checks = health.run_checks(celery_app)
        late = health.check_followups(followups.backlog, checks["database"])
        answer = {**checks, "followups": late}
        if not healthy:
            down = [name for name, check in checks.items() if check["status"] not in health.UP]
            return _out(
                s.HealthSerializer,
                {
                    "status": "unavailable",
                    "code": "unavailable",
                    "detail": f"down: {', '.join(down)}",
                    "checks": answer,
                },
                code=status.HTTP_503_SERVICE_UNAVAILABLE,
            )
        if late["status"] != "ok":
            return _out(
                s.HealthSerializer, {"status": "degraded", "detail": "late: followups", "checks": answer}
            )
        return _out(s.HealthSerializer, {"status": "ok", "checks": answer})

    @classmethod
    def as_view(cls, **initkwargs: Any) -> Any:
        """An async view. Under ASGI the check runs in the process's health thread, which keeps
        its own database connection, never in a thread or a pooled connection that serves
        games; a poll asking for JSON is answered from the latest check (``LatestCheck``).
        drf-spectacular reads the schema from ``cls``."""
        checking = super().as_view(**initkwargs)

        def check(request: HttpRequest, **kwargs: Any) -> HttpResponse:
            response = checking(request, **kwargs)
            response.render()  # here, not in a thread Django would take for it
            if response.status_code != status.HTTP_200_OK:
                connections.close_all()  # the next check connects again
            answer = HttpResponse(response.content, status=response.status_code)
            for header, value in response.items():
                answer[header] = value
            return answer

        async def view(request: HttpRequest, **kwargs: Any) -> HttpResponseBase:
            if not isinstance(request, ASGIRequest):
                # WSGI and the test client: in the request's own thread, as a sync view
                answer: HttpResponseBase = await sync_to_async(check)(request, **kwargs)
                return answer
            if request.method != "GET" or not _json_accepted(request):
                # only a GET poll's answer is shared (another method's, a 405, is its own)
                in_thread = sync_to_async(check, thread_sensitive=False, executor=HEALTH_THREAD)
                answer = await in_thread(request, **kwargs)
                return answer
            return await LATEST_CHECK.answer(lambda: check(request, **kwargs))

        return like_drf(view, cls, initkwargs)


def _json_accepted(request: HttpRequest) -> bool:
    accept = request.headers.get("Accept", "*/*")
    return "application/json" in accept or ("*/*" in accept and "text/html" not in accept)


class LatestCheck:
    """The latest health check of this process, made in its health thread. A poll is answered
    from it while it is at most HEALTH_FRESH_SECONDS old (1 by default); past that the next
    check starts in the health thread and the poll is still answered from the latest, so that
    an answer needs no I/O and no thread however loaded the process is (a load balancer sees a
    failure within about a second). Past HEALTH_STALE_SECONDS (10: the thread is stuck, or no
    poll came for a while) the poll waits for the check. Checks never overlap."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latest: tuple[float, HttpResponse] | None = None
        self.running: Future[HttpResponse] | None = None

    async def answer(self, check: Callable[[], HttpResponse]) -> HttpResponse:
        latest = self.latest
        if latest is None or time.monotonic() - latest[0] > health.stale_seconds():
            return _copy(await asyncio.wrap_future(self._refresh(check)))
        if time.monotonic() - latest[0] > health.fresh_seconds():
            self._refresh(check)
        return _copy(latest[1])

    def _refresh(self, check: Callable[[], HttpResponse]) -> "Future[HttpResponse]":
        with self.lock:
            if self.running is None or self.running.done():
                self.running = HEALTH_THREAD.submit(self._check, check)
            return self.running

    def _check(self, check: Callable[[], HttpResponse]) -> HttpResponse:
        started = time.monotonic()
        response = check()
        self.latest = (started, response)
        return response


def _copy(response: HttpResponse) -> HttpResponse:
    """A response of its own for each poll (the server consumes the one it sends)."""
    answer = HttpResponse(response.content, status=response.status_code)
    for header, value in response.items():
        answer[header] = value
    return answer


LATEST_CHECK = LatestCheck()


class HistoryKeyView(APIView):
    authentication_classes = []
    permission_classes = [Public]

    @extend_schema(
        responses={200: s.HistoryKeySerializer, **errors(429)},
        summary="The public key that signs finished histories",
        description=(
            "No authentication. Each finished game's and campaign's last hash is signed with an "
            "Ed25519 key kept outside the database; an export's header carries the signature "
            '(`seal`: `stream`, `id`, `seq`, `hash`, `key_id`, `public_key`, `signature`). The '
            "signed bytes are the JSON, keys sorted, no spaces, of `format` (`moon-seal/1`), "
            "`stream`, `id`, `seq`, `hash` and `key_id`. Check a seal's `key_id` against this list."
        ),
        tags=["operations"],
    )
    def get(self, request: Request) -> Response:
        keys = seals.public_keys()
        current = keys[0]
        return _out(
            s.HistoryKeySerializer,
            {
                "algorithm": seals.ALGORITHM,
                "key_id": current["key_id"],
                "public_key": current["public_key"],
                "keys": keys,
            },
        )


# --- auth --------------------------------------------------------------------------------------


class RegisterView(APIView):
    authentication_classes = []
    permission_classes = [Public]

    @extend_schema(
        request=s.CredentialsSerializer,
        responses={201: s.TokenSerializer, **errors(400, 409, 413, 415, 429, 503)},
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
        responses={200: s.TokenSerializer, **errors(400, 413, 415, 429, 503)},
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
        responses={204: None, **errors(401, 429, 503)},
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


class LogoutAllView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        request=None,
        responses={204: None, **errors(401, 429, 503)},
        summary="Sign out everywhere: revoke every token of your account",
        description=(
            "Every client of the account (every token, the one sent included) is signed out; "
            "`/auth/token` issues a new one. Changing the password does the same."
        ),
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        accounts.sign_out_everywhere(user=_user(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- lobby -------------------------------------------------------------------------------------


LIST_ERRORS = {
    **errors(401, 429, 503),
    400: OpenApiResponse(
        s.ErrorSerializer,
        description="`unknown_filter` (a parameter the list does not take), `invalid_request`",
    ),
}


class GamesView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        operation_id="games_list",
        parameters=[s.GamesQuerySerializer],
        responses={200: s.GamesPageSerializer, **LIST_ERRORS},
        summary="The games you have a seat in, newest first, page by page",
        description="Filters: `status`, `adventure`; any other parameter is refused (`unknown_filter`).",
        tags=["games"],
    )
    def get(self, request: Request) -> Response:
        query = _query(s.GamesQuerySerializer, request)
        size = query["page_size"]
        count, games = selectors.games_of(
            user=_user(request),
            status=query.get("status"),
            adventure=query.get("adventure"),
            start=(query["page"] - 1) * size,
            size=size,
        )
        # The most polled read: shaped here as GamesPageSerializer shapes it (the schema's), with
        # no serializer walking each field: its values are already JSON's but the datetimes.
        for game in games:
            game["created_at"] = s.DATETIME.to_representation(game["created_at"])
        return Response(page_of(request, query, count, games))

    @extend_schema(
        request=s.CreateGameSerializer,
        parameters=[IDEMPOTENCY],
        responses={
            201: s.GameSerializer,
            **errors(400, 401, 409, 413, 415, 422, 429, 503, conflicts=OPEN_LOBBIES),
        },
        summary="Open a game in the lobby; you take seat 0",
        description=(
            "`max_players` 1 opens a solo game against ASTRA (`astra_level` 1 to 8, 1 when left "
            "out); a multiplayer game refuses `astra_level` (`astra_level_solo_only`). A private "
            "game (the default) is joined with the `invite` the answer carries; a `public` one is "
            "listed in GET /lobby. `turn_seconds` (30 to 86400) gives each phase a `deadline`."
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
                visibility=data["visibility"],
                turn_seconds=data.get("turn_seconds"),
            ),
            lambda game: _data(s.GameSerializer, selectors.game_view(game=game, viewer=user)),
            status=status.HTTP_201_CREATED,
        )


class GameView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        parameters=[s.InviteQuerySerializer],
        responses={200: s.GameSerializer, **errors(400, 401, 404, 429, 503)},
        summary="The game: status, turn, seats, combinations, missions, deadline, version, result",
        description=(
            "A game in the lobby is read by anyone signed in when it is public, with its `invite` "
            "when it is private; any other game only by its seated players (404 to anyone else)."
        ),
        tags=["games"],
    )
    def get(self, request: Request, game_id: str) -> Response:
        query = _valid(s.InviteQuerySerializer, request.query_params)
        return _out(
            s.GameSerializer,
            selectors.game_view(game=_game(game_id), viewer=_user(request), invite=query.get("invite")),
        )


class JoinView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        request=s.JoinSerializer,
        parameters=[IDEMPOTENCY],
        responses={
            200: s.JoinedSerializer,
            **errors(400, 401, 404, 409, 413, 415, 422, 429, 503, conflicts=EXPIRED),
        },
        summary="Take the next free seat of a game in the lobby",
        description=(
            "A private game is joined with its `invite`: a wrong or missing code is 404 "
            "`not_found`, as for an id that names no game."
        ),
        tags=["games"],
    )
    def post(self, request: Request, game_id: str) -> Response:
        game, user = _game(game_id), _user(request)
        data = _valid(s.JoinSerializer, _body(request))
        return answered(
            request,
            lambda: services.join_game(game=game, by=user, invite=data.get("invite")),
            lambda seat: _data(s.JoinedSerializer, {"seat": seat.index}),
        )


class LeaveView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        request=None,
        parameters=[IDEMPOTENCY],
        responses={204: None, **errors(*COMMAND)},
        summary="Leave your seat of a game in the lobby",
        description=(
            "The seats after yours move up one. The creator cannot leave (409 `creator_seat`); "
            "409 `game_not_in_lobby` once the game has started."
        ),
        tags=["games"],
    )
    def post(self, request: Request, game_id: str) -> Response:
        game, user = _game(game_id), _user(request)
        return answered(
            request,
            lambda: services.leave_game(game=game, by=user),
            lambda _: None,
            status=status.HTTP_204_NO_CONTENT,
            body=False,
        )


class RemoveSeatView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        request=None,
        parameters=[IDEMPOTENCY],
        responses={200: s.GameSerializer, **errors(*COMMAND)},
        summary="Free a seat of a game in the lobby, a player's or a bot's (creator only)",
        description=(
            "The seats after it move up one. 404 `seat_not_found` for a seat not taken, 409 "
            "`creator_seat` for the creator's own, 403 `not_creator`."
        ),
        tags=["games"],
    )
    def post(self, request: Request, game_id: str, seat: str) -> Response:
        game, user = _game(game_id), _user(request)
        index = path_id(seat, what="seat", code="seat_not_found")
        return answered(
            request,
            lambda: services.remove_seat(game=game, by=user, index=index),
            lambda _: _data(s.GameSerializer, selectors.game_view(game=game, viewer=user)),
            body=False,
        )


class BotsView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        request=s.AddBotSerializer,
        parameters=[IDEMPOTENCY],
        responses={201: s.BotSeatSerializer, **errors(*BODY_COMMAND, conflicts=EXPIRED)},
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
        responses={200: s.GameSerializer, **errors(*COMMAND, conflicts=EXPIRED, too_many=STARTS)},
        summary="Start the game with the seated players (creator only)",
        tags=["games"],
    )
    def post(self, request: Request, game_id: str) -> Response:
        game, user = _game(game_id), _user(request)
        return answered(
            request,
            lambda: services.start_game(game=game, by=user),
            lambda result: _data(s.GameSerializer, selectors.game_view(game=result.game, viewer=user)),
            body=False,
        )


# --- turns -------------------------------------------------------------------------------------


class DecisionView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        responses={200: s.DecisionSerializer, **errors(*READ)},
        summary="What your seat must or may do now",
        tags=["games"],
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
        responses={200: s.CommandResultSerializer, **errors(*BODY_COMMAND)},
        summary="Play one of the options of your decision",
        tags=["games"],
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
        responses={200: s.CommandResultSerializer, **errors(*COMMAND, conflicts=UNDOS)},
        summary="Undo your unconfirmed turn",
        tags=["games"],
    )
    def post(self, request: Request, game_id: str) -> Response:
        game, user = path_id(game_id, what="game"), _user(request)
        return answered(
            request, lambda: services.undo_turn(game_id=game, by=user), _command_answer, body=False
        )


class ResignView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        request=None,
        parameters=[IDEMPOTENCY],
        responses={200: s.CommandResultSerializer, **errors(*COMMAND)},
        summary="Hand your seat to a bot for the rest of the game",
        description=(
            "A `seat_resigned` event; a greedy bot plays the seat from where it stands to the "
            "end (the game view and the result show it `resigned`). You keep the seat and read "
            "the game; your decision is `wait` and a move is 409 `seat_resigned`."
        ),
        tags=["turns"],
    )
    def post(self, request: Request, game_id: str) -> Response:
        game, user = path_id(game_id, what="game"), _user(request)
        return answered(
            request, lambda: services.resign_seat(game_id=game, by=user), _command_answer, body=False
        )


class ConfirmView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        request=None,
        parameters=[IDEMPOTENCY],
        responses={200: s.CommandResultSerializer, **errors(*COMMAND)},
        summary="Confirm your turn",
        tags=["games"],
    )
    def post(self, request: Request, game_id: str) -> Response:
        game, user = path_id(game_id, what="game"), _user(request)
        return answered(
            request, lambda: services.confirm_turn(game_id=game, by=user), _command_answer, body=False
        )


# --- reading -----------------------------------------------------------------------------------


class SheetView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        responses={200: s.SheetSerializer, **errors(*READ, 409)},
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
        tags=["games"],
    )
    def get(self, request: Request, game_id: str, sheet: str) -> Response:
        game = _game(game_id)
        number = path_id(sheet, what="sheet", code="sheet_not_found")
        return _out(
            s.SheetSerializer, selectors.sheet_view(game=game, viewer=_user(request), sheet=number)
        )


SVG = "image/svg+xml"


class SheetSvgView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        responses={
            (200, SVG): OpenApiResponse(
                OpenApiTypes.STR,
                description=(
                    "The sheet as SVG, drawn by the admin viewer's drawing code from what "
                    "`GET /sheets/{sheet}` shows you. Every element of the sheet is a "
                    "`<g class=\"cell\" data-element=\"{id}\">` (with `data-mark` once marked): "
                    "an option's space or target names the element it applies to."
                ),
            ),
            **{
                (code, "application/json"): response
                for code, response in errors(*READ, 400, 409).items()
            },
        },
        parameters=[s.SheetSvgQuerySerializer],
        summary="A sheet drawn as SVG, its elements named by their ids",
        description=(
            "Same visibility as `GET /sheets/{sheet}`: this turn's marks of a sheet are drawn only "
            "for the seat playing it until the turn resolves. On a shared sheet (adventure 8) each "
            "side's panel is headed with its owner and the side played this turn is marked. With "
            "`seq`, in a finished game: the sheet as `GET /replay?seq=` shows it."
        ),
        tags=["games"],
    )
    def get(self, request: Request, game_id: str, sheet: str) -> HttpResponse:
        game = _game(game_id)
        number = path_id(sheet, what="sheet", code="sheet_not_found")
        query = _valid(s.SheetSvgQuerySerializer, request.query_params)
        drawing = selectors.sheet_drawing(
            game=game, viewer=_user(request), sheet=number, seq=query.get("seq")
        )
        return HttpResponse(drawing, content_type=f"{SVG}; charset=utf-8")


class EventsView(APIView):
    permission_classes = [SignedIn]

    @extend_schema(
        parameters=[s.EventsQuerySerializer],
        responses={200: s.EventsPageSerializer, **errors(*READ, 400)},
        summary="The event history, ascending, as you may see it; `wait` long-polls",
        tags=["games"],
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
        responses={200: s.ReplaySerializer, **errors(*READ, 400, 409)},
        summary="A finished game and its sheets as they were when you read event `seq` of your feed",
        tags=["games"],
    )
    def get(self, request: Request, game_id: str) -> Response:
        game = _game(game_id)
        query = _valid(s.ReplayQuerySerializer, request.query_params)
        return _out(
            s.ReplaySerializer, selectors.replay_view(game=game, viewer=_user(request), seq=query["seq"])
        )




# JSON Lines (newline-delimited JSON, https://jsonlines.org) under the media type clients know,
# `application/x-ndjson`; the schema declares it as text,
# since OpenAPI 3.0 cannot describe a stream of objects, and says what each line holds.
JSON_LINES = "application/x-ndjson"


def export_schema(*, lines: str, summary: str, description: str, tags: list[str]) -> Any:
    """The schema of an export: JSON Lines as ``lines`` describes them, or a JSON error."""
    return extend_schema(
        responses={
            (200, JSON_LINES): OpenApiResponse(
                OpenApiTypes.STR, description=f"JSON Lines (UTF-8), sent as it is read. {lines}"
            ),
            # no query and no body: nothing to be invalid
            **{(code, "application/json"): response for code, response in errors(*READ, 409).items()},
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
            "for staff who may view games in the admin (its replay viewer's permission; `is_staff` "
            "alone is not enough) at any time. `manage.py import_game` stores such a file as a new game "
            "after checking its hash chain and replaying it through the rules engine."
        ),
        tags=["games"],
    )
    def get(self, request: Request, game_id: str) -> StreamingHttpResponse:
        game = _game(game_id)
        lines = history.export_lines(game=game, viewer=_user(request))
        return export_response(lines, history.export_filename(game))
