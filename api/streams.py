"""Live clients: Server-Sent Event streams and long-polls of a viewer's own feed.

A stream is opened by an ordinary DRF view (authentication, throttles, seat checks and refusals
as for every endpoint, run in a pooled thread), whose first read uses the same selectors as
``/events`` (same filtering, same ``seq``); then an async generator on the server's event loop
serves it: an open stream holds no thread. What comes next is read by the game's (campaign's)
``Hub`` in this process, once for all of its streams, whenever a commit notification
(``eventstore.notify``) says its log moved, and when one query every STREAM_POLL_SECONDS for all
the hubs of the process finds it moved, so a lost notification only delays a message. The hubs'
reads are made one after another by one thread of the process, on one database connection that
it keeps: an open stream holds none of its own. A commit made in this process hands its rows to
the hub (``eventstore.notify.Commit``): when they follow what the hub has read, it takes them as
they are, on the event loop, without a read or a thread; else (a commit of another process came
between) it reads the log.
"""

import asyncio
import contextlib
import contextvars
import dataclasses
import json
import logging
import math
from collections.abc import AsyncIterator, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from asgiref.sync import SyncToAsync, sync_to_async
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connections
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse, StreamingHttpResponse
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import status
from rest_framework.authentication import BaseAuthentication
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import services as accounts
from api import campaign_serializers as cs
from api import serializers as s
from api.authentication import ExpiringTokenAuthentication, TicketRefused
from api.errors import DatabaseUnavailable
from api.ids import path_id
from api.permissions import SignedIn
from api.views import READ, _valid, errors, like_drf
from campaigns import selectors as campaign_selectors
from campaigns.models import Campaign, CampaignEvent
from eventstore import notify, store
from eventstore.errors import Invalid, NotFound
from eventstore.models import StoredEvent
from games import selectors as game_selectors
from games.models import Event, Game
from games.selectors import Catchup, Catchups, Followers, Handed
from moon import inflight, request_cycles

logger = logging.getLogger(__name__)

EVENT_STREAM = "text/event-stream"
# Pages of the feed read at once by a stream catching up.
PAGE = 500


@dataclass(frozen=True)
class Read:
    """What a follower read of a feed: the viewer's seat, their events after the position asked
    (as ``/events`` shows them), their decision now (None when it cannot have changed since
    the last read), and whether the stream has ended (its game or campaign finished, every
    event of it read); ``lines``, the events' messages when a hub rendered them (shared by the
    followers who see them alike), else None: rendered as they are sent."""

    seat: int
    events: list[dict[str, Any]]
    decision: dict[str, Any] | None
    ended: bool
    lines: list[bytes] | None = None


class Tail(Protocol):
    """The end of a log shared by all of its followers in a process (``FeedTail``): ``position``
    is the last seq it read, ``state`` what the events up to it made (None until a look has
    folded them): only then may a look be ``handed`` the events that follow."""

    position: int

    @property
    def state(self) -> object | None: ...

    def catch_up(self, followers: Followers, handed: Handed | None = None) -> Catchups: ...


@dataclass(frozen=True)
class Follow:
    """A kind of stream that can be followed: its name, the path argument naming one, its
    events' model, how a viewer's feed is read after a position, the tail that reads the new
    events once for every follower in the process, and how what it reads is rendered."""

    stream: str
    kwarg: str
    events: type[StoredEvent]
    read: Callable[[int, User, int], Read]
    seated: Callable[[int, User], int]
    tail: Callable[[int], Tail]
    # how an event and a decision are shaped (as /events and /decision shape them), for the
    # first read too: written out for games (``s.shown_event``), the kept instance of a
    # serializer otherwise (making one costs more than what it renders here, and its fields and
    # itself refer to one another, left for the garbage collector)
    shown_event: Callable[[Mapping[str, Any]], dict[str, Any]]
    shown_decision: Callable[[Mapping[str, Any]], dict[str, Any]]

    def rendered(self, seat: int, catchup: Catchup, lines: dict[int, tuple[dict[str, Any], bytes]]) -> Read:
        """A tail's answer as the stream sends it (shaped as ``read`` shapes it).
        ``lines`` holds the events rendered so far, by their identity: a tail answers the
        followers who see an event alike with one object, rendered and written out once."""
        events, sent = [], []
        for event in catchup.events:
            known = lines.get(id(event))
            if known is None:
                shown = self.shown_event(event)
                known = lines[id(event)] = (shown, message(shown, id=shown["seq"]))
            events.append(known[0])
            sent.append(known[1])
        decision = catchup.decision
        if decision is not None:
            decision = self.shown_decision(decision)
        return Read(seat, events, decision, catchup.ended, sent)


def _read_game(game_id: int, viewer: User, after: int) -> Read:
    game = game_selectors.get_game(game_id=game_id)
    seat = game_selectors.require_seat(game=game, viewer=viewer)
    events: list[dict[str, Any]] = []
    start: int | None = after
    while start is not None:
        page = game_selectors.events_page(game=game, viewer=viewer, after=start, limit=PAGE)
        events += [GAME.shown_event(event) for event in page["events"]]
        start = page["next"]
    decision = GAME.shown_decision(game_selectors.decision_view(game=game, viewer=viewer))
    return Read(seat, events, decision, game.status == Game.Status.FINISHED)


def _read_campaign(campaign_id: int, viewer: User, after: int) -> Read:
    campaign = campaign_selectors.get_campaign(campaign_id=campaign_id)
    seat = campaign_selectors.require_seat(campaign=campaign, viewer=viewer)
    events: list[dict[str, Any]] = []
    start: int | None = after
    while start is not None:
        page = campaign_selectors.events_page(campaign=campaign, viewer=viewer, after=start, limit=PAGE)
        events += [CAMPAIGN.shown_event(event) for event in page["events"]]
        start = page["next"]
    decision = CAMPAIGN.shown_decision(campaign_selectors.decision_view(campaign=campaign, viewer=viewer))
    return Read(seat, events, decision, campaign.status == Campaign.Status.FINISHED)


def _seated_in_game(game_id: int, viewer: User) -> int:
    return game_selectors.require_seat(game=game_selectors.get_game(game_id=game_id), viewer=viewer)


def _seated_in_campaign(campaign_id: int, viewer: User) -> int:
    campaign = campaign_selectors.get_campaign(campaign_id=campaign_id)
    return campaign_selectors.require_seat(campaign=campaign, viewer=viewer)


GAME = Follow(
    stream="game",
    kwarg="game_id",
    events=Event,
    read=_read_game,
    seated=_seated_in_game,
    tail=game_selectors.FeedTail,
    shown_event=s.shown_event,
    shown_decision=s.shown_decision,
)
CAMPAIGN = Follow(
    stream="campaign",
    kwarg="campaign_id",
    events=CampaignEvent,
    read=_read_campaign,
    seated=_seated_in_campaign,
    tail=campaign_selectors.CampaignTail,
    shown_event=cs.CampaignEventSerializer().to_representation,
    shown_decision=cs.CampaignDecisionSerializer().to_representation,
)


# --- opening a stream (a DRF view, in a thread) ------------------------------------------------


class StreamTicketAuthentication(BaseAuthentication):
    """``?ticket=``: a one-use ticket from ``POST .../stream-ticket``, for browsers'
    EventSource, which cannot send an Authorization header (a token never goes in a URL)."""

    def authenticate(self, request: Request) -> tuple[User, None] | None:
        ticket = request.query_params.get("ticket")
        if ticket is None:
            return None
        context = request.parser_context or {}
        follow: Follow = context["view"].follow
        stream_id = path_id(str(context["kwargs"][follow.kwarg]), what=follow.stream)
        user = accounts.redeem_stream_ticket(ticket=ticket, stream=follow.stream, stream_id=stream_id)
        if user is None:
            raise TicketRefused()
        return user, None


class StreamTicketScheme(OpenApiAuthenticationExtension):
    """The ticket as the schema declares it: a key in the query string."""

    target_class = StreamTicketAuthentication
    name = "streamTicket"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "query",
            "name": "ticket",
            "description": "A one-use ticket from `POST .../stream-ticket` (event streams only).",
        }


class EventStreamRenderer(BaseRenderer):
    """Lets a client accepting only ``text/event-stream`` (EventSource) open a stream; the
    stream's messages are written by ``messages``, and refusals are sent as JSON."""

    media_type = EVENT_STREAM
    format = "event-stream"
    charset = "utf-8"

    def render(
        self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None
    ) -> bytes:
        return json.dumps(data).encode()


@dataclass(frozen=True)
class Opened:
    """A stream that may be served: whose, which, from where, and its first read."""

    follow: Follow
    stream_id: int
    viewer: User
    after: int
    read: Read


class StreamView(APIView):
    """``GET .../stream``: refusals and the first read here; the messages by ``messages``."""

    follow: ClassVar[Follow]
    authentication_classes = [ExpiringTokenAuthentication, StreamTicketAuthentication]
    permission_classes = [SignedIn]
    renderer_classes = [EventStreamRenderer, JSONRenderer]

    def get(self, request: Request, **kwargs: str) -> Response:
        follow = self.follow
        stream_id = path_id(kwargs[follow.kwarg], what=follow.stream)
        # the kept serializer: a new one per stream opened left a knot of garbage for the collector
        query = _valid(s.StreamQuerySerializer, request.query_params)
        resumed = "Last-Event-ID" in request.headers
        after = _last_event_id(request) if resumed else query["after"]
        user = request.user
        assert isinstance(user, User)
        read = follow.read(stream_id, user, after)
        if read.ended and not read.events:
            # Nothing more will come: 204 tells EventSource not to reconnect.
            return Response(status=204)
        return Response(Opened(follow=follow, stream_id=stream_id, viewer=user, after=after, read=read))

    @classmethod
    def as_view(cls, **initkwargs: Any) -> Any:
        """An async view: the DRF view opens the stream in a thread, then the event loop
        serves it. drf-spectacular reads the schema from ``cls`` as for any view."""
        opening = super().as_view(**initkwargs)

        async def view(request: HttpRequest, **kwargs: Any) -> HttpResponseBase:
            response = await _in_thread(opening, request, **kwargs)
            # the DRF view's answer is not the one sent: its knot of references is cut here
            request_cycles.let_go(request, response)
            if response.status_code == 204:
                return HttpResponse(status=204)
            if not isinstance(response, Response) or response.status_code != 200:
                return _as_json(response)
            if request.resolver_match is not None:
                # Django keeps with the request, as long as it is served, every route it tried
                # before this one (for its debug 404 page): a stream open for hours needs none
                request.resolver_match.tried = []
            return event_stream(response.data)

        return like_drf(view, cls, initkwargs)


def _last_event_id(request: Request) -> int:
    raw = request.headers["Last-Event-ID"].strip()
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 10:
        raise Invalid("invalid_request", "Last-Event-ID must be the id of a message of this stream.")
    return int(raw)


def _as_json(response: HttpResponseBase) -> HttpResponseBase:
    """A refusal sent as JSON ``{code, detail}``, whatever the client accepts."""
    if not isinstance(response, Response):
        return response
    refused = JsonResponse(response.data, status=response.status_code)
    for header in ("WWW-Authenticate", "Retry-After", "Allow"):
        if header in response:
            refused[header] = response[header]
    return refused


# --- serving a stream (async, on the event loop) -----------------------------------------------


def event_stream(opened: Opened) -> StreamingHttpResponse:
    """The SSE answer serving ``opened``'s messages."""
    response = StreamingHttpResponse(messages(opened), content_type=f"{EVENT_STREAM}; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each message on at once
    return response


def message(data: Any, *, event: str | None = None, id: int | None = None) -> bytes:
    """One SSE message: its id, its event type, its data as one line of JSON."""
    head = (f"id: {id}\n" if id is not None else "") + (f"event: {event}\n" if event else "")
    return f"{head}data: {_ONE_LINE.encode(data)}\n\n".encode()


# json.dumps with options makes an encoder for each call: every message is written with this one
_ONE_LINE = json.JSONEncoder(separators=(",", ":"))


async def _in_thread(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``function`` run in a thread of the event loop's small pool, with the thread's database
    connection given back after it: an open stream or a waiting long-poll holds no thread and
    no connection (a request's own thread, Django's default, would stay with it to its end).
    A SQLite connection stays with the pool's thread instead: opening one (the file, its
    pragmas and functions) costs a hub's read as much as its queries, and holding one costs
    nothing (a pool has a few threads, whatever the number of streams)."""

    def run() -> Any:
        try:
            return function(*args, **kwargs)
        finally:
            if connections["default"].vendor != "sqlite":
                connections.close_all()

    return await sync_to_async(run, thread_sensitive=False)()


# The thread of the process that reads for every hub and poll, one read after another. It keeps
# its database connection between reads: taking one from the pool checks it first with a round
# trip, which cost about as much as a commit's read itself. A read that failed lets it go.
_reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="stream reads")


async def _in_reader(function: Callable[..., Any], *args: Any) -> Any:
    """``function`` run in the process's reading thread (``_reader``)."""

    def run() -> Any:
        try:
            return function(*args)
        except BaseException:
            connections.close_all()
            raise

    return await asyncio.get_running_loop().run_in_executor(_reader, run)


async def messages(opened: Opened) -> AsyncIterator[bytes]:
    """The stream's messages: every event of the viewer's feed after ``opened.after`` (``id``:
    its seq), the viewer's decision (``event: decision``) at first and whenever its kind
    changes, a comment every STREAM_HEARTBEAT_SECONDS, and ``event: end`` when the game or
    campaign has finished and everything was sent. After the first read, what comes is read
    by the stream's hub, once for all of its followers in this process."""
    read = opened.read
    follow, stream_id, viewer, seat = opened.follow, opened.stream_id, opened.viewer, read.seat
    after = read.events[-1]["seq"] if read.events else opened.after
    ended = read.ended
    sent, kind = _sent(read, None)
    # The first read may be a whole feed (a game's setup is large): nothing of it is kept while
    # the stream waits, which is most of what an open stream would hold, and the garbage
    # collector's full passes (pauses of the move path) grow with it.
    del opened, read
    _release_request_thread()
    sent.reverse()
    while sent:
        yield sent.pop()
    if ended:
        return
    async with _following(follow, stream_id, viewer, seat, after, stream=True, kind=kind) as follower:
        while True:
            read = await follower.next()
            if read is HEARTBEAT:
                yield b": heartbeat\n\n"
                continue
            sent, kind = _sent(read, kind)
            if sent:
                # one write for a read's messages: a confirm that resolves a turn sends a dozen
                yield b"".join(sent)
            if read.ended:
                return


def _release_request_thread() -> None:
    """Let go of the thread Django's ASGI handler keeps for a request's sync code (its
    middleware): it would stay, idle, as long as the stream is open, with its objects (which
    the garbage collector walks) and its stack. A sync call the request makes after this (at
    its end) runs in a new one. asgiref's internals: without them (another asgiref), the thread
    simply stays."""
    context = SyncToAsync.thread_sensitive_context.get(None)
    executors = getattr(SyncToAsync, "context_to_thread_executor", None)
    if context is not None and executors is not None:
        executor = executors.pop(context, None)
        if executor is not None:
            executor.shutdown(wait=False)


def _sent(read: Read, kind: str | None) -> tuple[list[bytes], str | None]:
    """The messages of a read (its events, the decision if its kind changed, the end), and the
    decision's kind after them."""
    if read.lines is not None:
        sent = list(read.lines)
    else:
        sent = [message(event, id=event["seq"]) for event in read.events]
    if read.decision is not None and read.decision["kind"] != kind:
        kind = read.decision["kind"]
        sent.append(message(read.decision, event="decision"))
    if read.ended:
        sent.append(message({}, event="end"))
    return sent, kind


class Follower:
    """An open stream (or a waiting long-poll) as its hub knows it: whose, where its viewer is
    in their feed, whether it sends decisions (a stream) and the kind of the last one put among
    its reads, the reads waiting to be sent, and when the process's heartbeat (``_beat``) last
    put one among them."""

    def __init__(self, viewer: User, seat: int, after: int, *, stream: bool, kind: str | None) -> None:
        self.viewer = viewer
        self.seat = seat
        self.after = after
        self.stream = stream
        self.kind = kind
        # a list and the future its reader waits on, not an asyncio.Queue: a queue's three
        # deques and event took 2 KiB of every open stream
        self.reads: list[Read] = []
        self.waiter: asyncio.Future[None] | None = None
        self.beaten = asyncio.get_running_loop().time()

    def put(self, read: Read) -> None:
        """Put a read among those to send, keeping the kind of the last decision in it."""
        if read.decision is not None:
            self.kind = read.decision["kind"]
        self.reads.append(read)
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    async def next(self) -> Read:
        """The next read to send, once there is one."""
        while not self.reads:
            self.waiter = asyncio.get_running_loop().create_future()
            try:
                await self.waiter
            finally:
                self.waiter = None
        return self.reads.pop(0)


class Hub:
    """The followers of one game (campaign) in this process, and the task reading for them:
    woken by a commit notification (or a follower joining, or every STREAM_POLL_SECONDS), it
    asks the stream's tail once what each follower has new, so a commit costs one read of the
    log per process (one query for a game; none for a commit of this process that follows what
    it read), and the decisions only when some follower's feed grew."""

    def __init__(self, follow: Follow, stream_id: int) -> None:
        self.follow = follow
        self.stream_id = stream_id
        self.tail = follow.tail(stream_id)
        self.followers: set[Follower] = set()
        self.subscription: notify.Subscription | None = None
        # in a context of its own, not that of the request of its first follower (its language
        # ...): a hub renders for every follower, on the event loop when it is handed a commit
        self.task = asyncio.get_running_loop().create_task(
            self._run(), name=f"stream hub {follow.stream}", context=contextvars.Context()
        )

    def join(self, follower: Follower) -> None:
        """Add a follower, and look at once: the log may have moved since its first read."""
        self.followers.add(follower)
        self.wake()

    def wake(self) -> None:
        """Look at the log (again) soon."""
        if self.subscription is not None:
            self.subscription.wake()

    def _retry(self) -> None:
        asyncio.get_running_loop().call_later(settings.STREAM_POLL_SECONDS, self.wake)

    async def _run(self) -> None:
        async with notify.subscribe(self.follow.stream, self.stream_id) as subscription:
            self.subscription = subscription
            while True:
                try:
                    await self._look()
                except DatabaseUnavailable:
                    # look again a poll later; the clients keep their streams
                    logger.warning("streams could not read their feed", exc_info=True)
                    self._retry()
                except Exception:  # one bad read must not end every stream of the game
                    logger.exception("streams could not read their feed")
                    self._retry()
                # woken by a notification, a follower joining or the process's poll (_poll)
                await subscription.wait()
                # the command that committed answers first, without this read beside it
                await inflight.after_commands(most=AFTER_COMMANDS_SECONDS)

    async def _look(self) -> None:
        assert self.subscription is not None
        news = self.subscription.news()
        followers = list(self.followers)
        tail = self.tail
        handed = None
        if not news.unknown and tail.state is not None:
            if not news.commits and news.latest <= tail.position:
                return  # told only of events it has read (its own commits, notified back)
            handed = notify.following(news.commits, after=tail.position, latest=news.latest)
        if not followers:
            return
        wanted: dict[tuple[int, int], set[str | None]] = {}
        for follower in followers:
            kinds = wanted.setdefault((follower.seat, follower.after), set())
            if follower.stream:
                kinds.add(follower.kind)
        if handed is not None:
            # this process's own commits, in full: folded and rendered here, with no read
            answers = _catch_up(self.follow, tail, wanted, handed)
        else:
            answers = await _in_reader(_catch_up, self.follow, tail, wanted)
        behind = []
        for follower in followers:
            answer = answers[(follower.seat, follower.after)]
            if answer is None:
                behind.append(follower)
                continue
            follower.after, read = answer
            if read is not NOTHING:
                follower.put(read)
        for follower in behind:
            # a follower whose first read is older than the tail's window reads its feed in full
            read = await _in_reader(self.follow.read, self.stream_id, follower.viewer, follower.after)
            if read.events:
                follower.after = read.events[-1]["seq"]
            follower.put(read)


def _catch_up(
    follow: Follow,
    tail: Tail,
    wanted: dict[tuple[int, int], set[str | None]],
    handed: Handed | None = None,
) -> dict[tuple[int, int], tuple[int, Read] | None]:
    """The tail's answers for the followers (seat, position), rendered once for each, each
    event once for all who see it alike. ``wanted`` gives the kinds of the decisions the
    followers of each (seat, position) were last given: a decision of the same kind as all of
    theirs is not sent again, nor rendered. ``handed``: the events after the tail's position,
    from this process's commits (nothing is read then)."""
    rendered: dict[tuple[int, int], tuple[int, Read] | None] = {}
    lines: dict[int, tuple[dict[str, Any], bytes]] = {}
    for key, answer in tail.catch_up(wanted, handed).items():
        if answer is not None and answer.decision is not None and wanted[key] <= {answer.decision["kind"]}:
            answer = dataclasses.replace(answer, decision=None)
        if answer is None or answer.events or answer.decision is not None or answer.ended:
            rendered[key] = None if answer is None else (answer.after, follow.rendered(key[0], answer, lines))
        else:
            rendered[key] = (answer.after, NOTHING)
    return rendered


# How long a hub's read waits at most for the commands the process is serving to answer.
AFTER_COMMANDS_SECONDS = 0.05
# what a follower whose feed did not grow reads
NOTHING = Read(-1, [], None, False)
# what a stream reads when its heartbeat is due: it sends a comment
HEARTBEAT = Read(-2, [], None, False)
# Streams woken by the heartbeat at once, before the loop serves its other tasks again: each
# costs the loop about a tenth of a millisecond, and a command arriving meanwhile waits.
BEATS_AT_ONCE = 8
# The heartbeat looks at the streams due this many times a period at the most.
BEAT_TICKS = 150


# one hub per followed stream (and event loop: uvicorn runs one per process)
_hubs: dict[tuple[asyncio.AbstractEventLoop, str, int], Hub] = {}
# one poll per kind of stream followed in the loop
_polls: dict[tuple[asyncio.AbstractEventLoop, str], asyncio.Task[None]] = {}
# the streams of the loop (not the long-polls) in the order of their last beats (a dict as an
# ordered set), and the one task beating them
_beating: dict[asyncio.AbstractEventLoop, dict[Follower, None]] = {}
_heartbeats: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}


async def _beat() -> None:
    """The heartbeat of every stream of this loop: one task per process, rather than a timer
    per stream, that wakes every stream due (STREAM_HEARTBEAT_SECONDS after its last beat) a
    few at a time, letting the loop serve requests between them. It stops with the loop's
    last stream. The streams are kept in the order of their last beats, so that a wake looks
    at the streams due only, not at every stream of the process. Streams opened together are
    due together: a look beats twice the share of them that a tick of a steady beat would, so
    that a thousand streams' beats, spread over half a period the first time, stay spread out
    rather than weighing, every period, on the commands served in one moment (a stream's
    first beat may come that much later)."""
    loop = asyncio.get_running_loop()
    period = settings.STREAM_HEARTBEAT_SECONDS
    tick = period / BEAT_TICKS
    while followers := _beating.get(loop):
        now = loop.time()
        most = max(BEATS_AT_ONCE, math.ceil(2 * len(followers) / BEAT_TICKS))
        count = 0
        while count < most and followers and now - (follower := next(iter(followers))).beaten >= period:
            del followers[follower]
            followers[follower] = None  # last: it is beaten now
            follower.beaten = now
            follower.put(HEARTBEAT)
            count += 1
            if count % BEATS_AT_ONCE == 0:
                await asyncio.sleep(0)
        # the next stream due; a stream opened meanwhile is due a period later at the soonest
        following = _beating.get(loop)
        soonest = (next(iter(following)).beaten if following else now) + period
        await asyncio.sleep(max(soonest - loop.time(), tick))
    del _heartbeats[loop]


async def _poll(follow: Follow) -> None:
    """Every STREAM_POLL_SECONDS, ask in one query whether the logs of the hubs of this loop
    moved, and wake those whose did: a lost notification only delays a message. It stops
    with the loop's last hub of its kind."""
    loop = asyncio.get_running_loop()
    while True:
        await asyncio.sleep(settings.STREAM_POLL_SECONDS)
        hubs = {key[2]: hub for key, hub in _hubs.items() if key[0] is loop and key[1] == follow.stream}
        if not hubs:
            del _polls[(loop, follow.stream)]
            return
        try:
            seqs = await _in_reader(store.last_seqs, follow.events, list(hubs))
        except DatabaseUnavailable:
            logger.warning("streams could not look at their logs", exc_info=True)
            continue
        for stream_id, hub in hubs.items():
            if seqs.get(stream_id, 0) != hub.tail.position:
                hub.wake()


@contextlib.asynccontextmanager
async def _following(
    follow: Follow,
    stream_id: int,
    viewer: User,
    seat: int,
    after: int,
    *,
    stream: bool = False,
    kind: str | None = None,
) -> AsyncIterator[Follower]:
    """Follow a stream through its hub in this process (started with its first follower,
    stopped with its last) for the block's duration. A ``stream`` (``kind``: that of the
    decision it sent first) is given decisions, and the process's heartbeat puts ``HEARTBEAT``
    among its reads when it is due; a long-poll neither."""
    loop = asyncio.get_running_loop()
    key = (loop, follow.stream, stream_id)
    hub = _hubs.get(key)
    if hub is None:
        hub = _hubs[key] = Hub(follow, stream_id)
        if (loop, follow.stream) not in _polls:
            _polls[(loop, follow.stream)] = loop.create_task(_poll(follow), name="stream poll")
    follower = Follower(viewer, seat, after, stream=stream, kind=kind)
    hub.join(follower)
    if stream:
        _beating.setdefault(loop, {})[follower] = None
        if loop not in _heartbeats:
            _heartbeats[loop] = loop.create_task(_beat(), name="stream heartbeat")
    try:
        yield follower
    finally:
        beating = _beating.get(loop)
        if beating is not None:
            beating.pop(follower, None)
            if not beating:
                del _beating[loop]
        hub.followers.discard(follower)
        if not hub.followers and _hubs.get(key) is hub:
            del _hubs[key]
            hub.task.cancel()


# --- stream tickets ----------------------------------------------------------------------------


class StreamTicketView(APIView):
    """``POST .../stream-ticket``: a one-use ticket for ``?ticket=`` on the stream."""

    follow: ClassVar[Follow]
    permission_classes = [SignedIn]

    def post(self, request: Request, **kwargs: str) -> Response:
        follow = self.follow
        stream_id = path_id(kwargs[follow.kwarg], what=follow.stream)
        user = request.user
        assert isinstance(user, User)
        follow.seated(stream_id, user)
        ticket, expires = accounts.issue_stream_ticket(user=user, stream=follow.stream, stream_id=stream_id)
        data = s.StreamTicketSerializer({"ticket": ticket, "expires": expires}).data
        return Response(data, status=status.HTTP_201_CREATED)


# --- long-polls --------------------------------------------------------------------------------


def long_polled(view_class: type[APIView], follow: Follow) -> Callable[..., Any]:
    """``view_class`` (a page of a feed, ``?after=``) as an async view that, given ``?wait=S``,
    answers as soon as the page has events, or as it is after S seconds. While it waits it is
    one more follower of the game's (campaign's) hub in this process, as a stream is: woken
    when the viewer's feed grows past the page's end, it reads the page again through the view
    itself, so the answer is the view's own. The view runs where Django runs a sync view (the
    request's thread); the wait holds no thread and no database connection."""
    answering = view_class.as_view()

    def first_page(
        request: HttpRequest, stream_id: int, **kwargs: Any
    ) -> tuple[HttpResponseBase, int | None]:
        """The view's answer, and the viewer's seat when it is an empty page (to wait on)."""
        response = answering(request, **kwargs)
        if not _empty_page(response):
            return response, None
        return response, follow.seated(stream_id, _viewer(request))

    async def view(request: HttpRequest, **kwargs: Any) -> HttpResponseBase:
        wait = _wait_seconds(request)
        stream_id = _plain_id(str(kwargs[follow.kwarg]))
        if not wait or stream_id is None:
            return await sync_to_async(answering)(request, **kwargs)
        response, seat = await _in_request_thread(first_page, request, stream_id, **kwargs)
        if seat is None:
            return response
        assert isinstance(response, Response)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        # the page is empty: the viewer's feed ends at its `version` (or before `after`)
        position = response.data["version"]
        async with _following(follow, stream_id, _viewer(request), seat, position) as follower:
            while True:
                try:
                    async with asyncio.timeout_at(deadline):
                        read = await follower.next()
                except TimeoutError:
                    break
                if read.events or read.ended:
                    response = await _in_request_thread(answering, request, **kwargs)
                    if read.ended or not _empty_page(response):
                        break
        return response

    return like_drf(view, view_class, {})


def _viewer(request: HttpRequest) -> User:
    """Who the view answered (DRF sets the user it authenticated on Django's request)."""
    user = request.user
    assert isinstance(user, User)
    return user


async def _in_request_thread(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``function`` run where Django runs sync views, its connection released after it (unless
    it is inside a transaction of the caller's, as in tests)."""

    def run() -> Any:
        try:
            return function(*args, **kwargs)
        finally:
            for each in connections.all(initialized_only=True):
                if not each.in_atomic_block:
                    each.close()

    return await sync_to_async(run)()


def _wait_seconds(request: HttpRequest) -> int:
    """``?wait=``, when it is one the view takes (it refuses any other with a 400)."""
    raw = request.GET.get("wait", "")
    if raw.isascii() and raw.isdigit() and len(raw) <= 2:
        return min(int(raw), settings.LONG_POLL_MAX_SECONDS)
    return 0


def _plain_id(raw: str) -> int | None:
    try:
        return path_id(raw, what="stream")
    except NotFound:
        return None


def _empty_page(response: HttpResponseBase) -> bool:
    return isinstance(response, Response) and response.status_code == 200 and not response.data["events"]


# --- the endpoints -----------------------------------------------------------------------------


def _stream_schema(*, what: str, messages: str, tags: list[str]) -> Any:
    return extend_schema_view(
        get=extend_schema(
            parameters=[s.StreamQuerySerializer, LAST_EVENT_ID],
            responses={
                (200, EVENT_STREAM): OpenApiResponse(
                    OpenApiTypes.STR,
                    description=(
                        f"Server-Sent Events, sent as they happen. {messages} Then `event: decision` "
                        "(no `id`, data: your decision, as `/decision` answers it) when the stream "
                        "opens and whenever its `kind` changes; a comment line (`: heartbeat`) "
                        f"every {settings.STREAM_HEARTBEAT_SECONDS:g} s; and `event: end` once the "
                        f"{what} has finished and you have every event of it, before the stream "
                        "closes."
                    ),
                ),
                (204, EVENT_STREAM): OpenApiResponse(
                    description=f"The {what} has finished and you have every event of it: "
                    "EventSource stops reconnecting."
                ),
                **{
                    (code, "application/json"): response
                    for code, response in {
                        **errors(*READ, 400),
                        401: OpenApiResponse(
                            s.ErrorSerializer,
                            description="Not authenticated; `invalid_ticket` for a ticket unknown, "
                            "used, expired or issued for another stream",
                        ),
                    }.items()
                },
            },
            summary=f"Follow the {what} live: your feed as Server-Sent Events (text/event-stream)",
            description=(
                "Authenticate with the Authorization header or a one-use `?ticket=` (`POST "
                ".../stream-ticket`). Resume after the last message you received with the "
                "`Last-Event-ID` header (EventSource sends it when it reconnects) or `?after=`: "
                "nothing is repeated or missed."
            ),
            tags=tags,
        )
    )


def _ticket_schema(*, what: str, tags: list[str]) -> Any:
    return extend_schema_view(
        post=extend_schema(
            request=None,
            responses={201: s.StreamTicketSerializer, **errors(*READ)},
            summary=f"A one-use ticket opening the {what}'s stream within "
            f"{settings.STREAM_TICKET_SECONDS} s (for EventSource)",
            tags=tags,
        )
    )


LAST_EVENT_ID = OpenApiParameter(
    "Last-Event-ID",
    {"type": "string", "pattern": "^[0-9]{1,10}$"},
    OpenApiParameter.HEADER,
    required=False,
    description="The `id` of the last message received: the stream resumes right after it.",
)


@_stream_schema(
    what="game",
    messages="Each event of your feed, exactly as `/events` shows it to you, is one message: "
    "`id: <seq>` and data the event (`seq`, `turn`, `seat`, `kind`, `v`, `data`, `created_at`); "
    "another seat's moves arrive when their turn resolves, as in `/events`.",
    tags=["reading"],
)
class GameStreamView(StreamView):
    follow = GAME


@_stream_schema(
    what="campaign",
    messages="Each event of the campaign's log, as `/campaigns/{id}/events` shows it, is one "
    "message: `id: <seq>` and data the event.",
    tags=["campaigns"],
)
class CampaignStreamView(StreamView):
    follow = CAMPAIGN


@_ticket_schema(what="game", tags=["reading"])
class GameStreamTicketView(StreamTicketView):
    follow = GAME


@_ticket_schema(what="campaign", tags=["campaigns"])
class CampaignStreamTicketView(StreamTicketView):
    follow = CAMPAIGN
