"""Every status the schema declares for an operation is one it really answers: this module
provokes each declared (operationId, status) with one request, on its own (so that it proves
the same whether the whole suite or this module alone runs).

The statuses any operation may give for the same reason are provoked for every operation that
declares them, by one rule each (``GENERIC``): 401 without a token, 404 for an id that names
nothing, 413 and 415 for a body too large or not JSON, 422 for an Idempotency-Key used for
another request, 429 past the rate, 503 with a database that cannot be reached. The others (a
success, 400, 403, 409) are one request each in ``PROVOKE``, made in a small world of games
and campaigns. ``test_every_declared_status_is_provoked`` fails on a declared status with no
request, and on a request kept for a status no longer declared: declared == provoked.

A module of its own rather than a check at the end of a whole run of the suite, because that
check would run only when the run is known to be whole: a whole run not recognised as one would
pass unchecked. This module checks the same on any run it is part of, and never fails for a
part of the suite left out. The rest of the suite is held from the other side: each answer it
gets must be declared (conftest's autouse check), and what it provokes is recorded (after a
whole run, in var/provoked-statuses.json)."""

import json
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cached_property
from typing import Any

import pytest
from django.contrib.auth.models import Permission, User
from django.core.cache import cache
from django.db import OperationalError
from django.db.backends.utils import CursorWrapper
from rest_framework.test import APIClient

from api.schema import OPERATION_IDS
from campaigns import history
from tests.campaigns.http import API, current_game, open_campaign, play_through_services
from tests.campaigns.test_campaign_history import RECORDED, export_of
from tests.conftest import declared_statuses, operation_of
from tests.games.histories import finished_game

# transactional: a stream is opened in a thread of its own, on a connection of its own, which
# sees only what is committed
pytestmark = pytest.mark.django_db(transaction=True)

TEMPLATES = {operation_id: (path, method) for (path, method), operation_id in OPERATION_IDS.items()}
NO_SUCH = 10**9
GENERIC = (401, 404, 413, 415, 422, 429, 503)


def declared() -> dict[str, frozenset[int]]:
    """Each operation's declared statuses, as the served schema has them."""
    return {operation_id: statuses for _, _, operation_id, statuses in declared_statuses()}


class World:
    """Three players (alice creates every table, bob plays at hers, carol is seated nowhere)
    and the tables a request needs, each made when first asked for."""

    def __init__(
        self, make_player: Callable[[str], APIClient], post: Any, capture: Any, settings: Any
    ) -> None:
        self.alice, self.bob, self.carol = (make_player(name) for name in ("alice", "bob", "carol"))
        self.player, self.send, self.capture, self.settings = make_player, post, capture, settings
        self.anon = APIClient()

    def ask(
        self,
        client: APIClient,
        operation_id: str,
        body: Any = None,
        query: dict[str, Any] | None = None,
        **ids_and_headers: Any,
    ) -> Any:
        """Call the operation with these path ids (``game_id``, ``campaign_id``, ``sheet``,
        ``seat``) and headers (``HTTP_...``); a POST's body as JSON, its follow-ups run."""
        template, method = TEMPLATES[operation_id]
        ids = {key: value for key, value in ids_and_headers.items() if not key.isupper()}
        headers = {key: value for key, value in ids_and_headers.items() if key.isupper()}
        path = template.format(**ids)
        if method == "get":
            return client.get(path, query or {}, **headers)
        return self.send(client, path, body, **headers)

    def open(self, *, public: bool = False, players: int = 3) -> dict[str, Any]:
        """A game alice opens (a private one unless ``public``)."""
        body = {"adventure": 1, "max_players": players, "visibility": "public" if public else "private"}
        created = self.send(self.alice, f"{API}/games", body)
        assert created.status_code == 201, created.content
        return dict(created.json())

    def join(self, client: APIClient, table: dict[str, Any], what: str = "games") -> None:
        joined = self.send(client, f"{API}/{what}/{table['id']}/join", {"invite": table["invite"]})
        assert joined.status_code == 200, joined.content

    @cached_property
    def lobby(self) -> dict[str, Any]:
        """alice's private game in the lobby, bob seated."""
        table = self.open()
        self.join(self.bob, table)
        return table

    @cached_property
    def public(self) -> dict[str, Any]:
        """alice's public game in the lobby, nobody else seated."""
        return self.open(public=True)

    @cached_property
    def playing(self) -> int:
        """alice's and bob's game, started."""
        return self.start()

    def start(self) -> int:
        """A new game of alice's and bob's, started."""
        table = self.open(players=2)
        self.join(self.bob, table)
        started = self.send(self.alice, f"{API}/games/{table['id']}/start")
        assert started.status_code == 200, started.content
        return int(table["id"])

    @cached_property
    def finished(self) -> int:
        """A finished game of alice's and bob's."""
        return int(finished_game(1, names=("alice", "bob")).pk)

    def open_campaign(self, *, public: bool = False) -> dict[str, Any]:
        body = {"max_players": 3, "visibility": "public" if public else "private"}
        created = self.send(self.alice, f"{API}/campaigns", body)
        assert created.status_code == 201, created.content
        return dict(created.json())

    @cached_property
    def campaign_lobby(self) -> dict[str, Any]:
        """alice's private campaign in the lobby, bob seated."""
        table = self.open_campaign()
        self.join(self.bob, table, "campaigns")
        return table

    @cached_property
    def campaign_public(self) -> dict[str, Any]:
        """alice's public campaign in the lobby, nobody else seated."""
        return self.open_campaign(public=True)

    @cached_property
    def campaign_playing(self) -> int:
        """alice's and bob's campaign, its first chapter's game playing."""
        return open_campaign([self.alice, self.bob], self.send)

    @cached_property
    def campaign_between(self) -> tuple[int, dict[str, Any]]:
        """A solo campaign of alice's whose first chapter is over, and her decision."""
        campaign = open_campaign([self.alice], self.send)
        play_through_services(current_game(self.alice, campaign), random.Random(3), self.capture)
        decision = self.alice.get(f"{API}/campaigns/{campaign}/decision").json()
        assert decision["kind"] != "wait", decision
        return campaign, decision

    @cached_property
    def campaign_finished(self) -> int:
        """A finished campaign of alice's (a recorded one, imported)."""
        recorded = json.loads(RECORDED[0].read_text(encoding="utf-8"))
        return int(history.import_campaign(lines=export_of(recorded, player="alice")).campaign.pk)

    def id_of(self, table: str | int) -> int:
        """A table's id: a number as it is, or the World table of that name."""
        if isinstance(table, int):
            return table
        found = getattr(self, table)
        return int(found["id"] if isinstance(found, dict) else found)

    @property
    def moved(self) -> int:
        """A new playing game where alice has written her number (she may undo or confirm)."""
        game = self.start()
        played = self.ask(self.alice, "postMove", {"choice": self.option(game, self.alice)}, game_id=game)
        assert played.status_code == 200, played.content
        return game

    @cached_property
    def referee(self) -> APIClient:
        """Staff who may view campaigns in the admin (its viewer's permission)."""
        client = self.player("referee")
        user = User.objects.get(username="referee")
        user.is_staff = True
        user.save()
        user.user_permissions.add(Permission.objects.get(codename="view_campaign"))
        return client

    def quota_reached(self, operation_id: str, body: dict[str, Any]) -> Any:
        """alice opens a table with as many lobbies open as she may (one: hers, ``lobby``)."""
        assert self.lobby
        limit, self.settings.QUOTA_OPEN_LOBBIES = self.settings.QUOTA_OPEN_LOBBIES, 1
        try:
            return self.ask(self.alice, operation_id, body)
        finally:
            self.settings.QUOTA_OPEN_LOBBIES = limit

    def option(self, game: int, client: APIClient) -> dict[str, Any]:
        decision = client.get(f"{API}/games/{game}/decision").json()
        return dict(decision["options"][0])


@pytest.fixture
def world(
    emptied_log: None,
    make_player: Callable[[str], APIClient],
    post: Any,
    django_capture_on_commit_callbacks: Any,
    settings: Any,
) -> World:
    return World(make_player, post, django_capture_on_commit_callbacks, settings)


Row = Callable[[World], Any]
BAD_KEY = "k" * 256  # longer than an Idempotency-Key may be


def row(
    who: str, operation_id: str, body: Any = None, query: dict[str, Any] | None = None, *,
    key: str | None = None, **tables: str | int,
) -> Row:
    """A request of ``who`` (a World's client) to the operation: ``body`` (or a function of the
    world making it), ``query``, an Idempotency-Key, and its path ids, each a number or the
    name of a World table (its id)."""

    def send(world: World) -> Any:
        ids = {name: world.id_of(table) for name, table in tables.items()}
        headers = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
        sent = body(world) if callable(body) else body
        return world.ask(getattr(world, who), operation_id, sent, query, **ids, **headers)

    return send


def invite(table: str) -> Callable[[World], dict[str, Any]]:
    return lambda world: {"invite": getattr(world, table)["invite"]}


def first_option(world: World) -> dict[str, Any]:
    return {"choice": world.option(world.playing, world.alice)}


def between_choice(world: World) -> Any:
    """alice takes the first option of her campaign between two chapters."""
    campaign, decision = world.campaign_between
    choice = {"choice": decision["options"][0]}
    return world.ask(world.alice, "postCampaignMove", choice, campaign_id=campaign)


SKIP = {"choice": {"action": "skip"}}
NEXT = {"choice": {"action": "next_chapter"}}
GREEDY = {"kind": "greedy"}
DAVE = {"username": "dave", "password": "secret-pw"}
# (operationId, status) -> the request that provokes it, for the statuses not in GENERIC
PROVOKE: dict[tuple[str, int], Row] = {
    # --- operations, accounts
    ("getIndex", 200): row("anon", "getIndex"),
    ("getHealth", 200): row("anon", "getHealth"),
    ("getHistoryKey", 200): row("anon", "getHistoryKey"),
    ("register", 201): row("anon", "register", DAVE),
    ("register", 400): row("anon", "register", {"username": "dave"}),
    ("register", 409): row("anon", "register", {"username": "alice", "password": "secret-pw"}),
    ("signIn", 200): row("anon", "signIn", {"username": "alice", "password": "secret-pw"}),
    ("signIn", 400): row("anon", "signIn", {"username": "alice", "password": "wrong-pw"}),
    ("signOut", 204): lambda w: w.ask(w.player("erin"), "signOut"),
    ("signOutEverywhere", 204): lambda w: w.ask(w.player("fred"), "signOutEverywhere"),
    # --- lists
    ("listGames", 200): row("alice", "listGames"),
    ("listGames", 400): row("alice", "listGames", query={"colour": "red"}),
    ("listLobby", 200): row("alice", "listLobby"),
    ("listLobby", 400): row("alice", "listLobby", query={"page": "first"}),
    ("listCampaigns", 200): row("alice", "listCampaigns"),
    ("listCampaigns", 400): row("alice", "listCampaigns", query={"colour": "red"}),
    # --- a game's lobby
    ("createGame", 201): row("alice", "createGame", {"adventure": 1, "max_players": 2}),
    ("createGame", 400): row("alice", "createGame", {"adventure": 99, "max_players": 2}),
    ("createGame", 409): lambda w: w.quota_reached("createGame", {"adventure": 1, "max_players": 2}),
    ("getGame", 200): row("alice", "getGame", game_id="lobby"),
    ("getGame", 400): row("carol", "getGame", query={"invite": "x" * 65}, game_id="lobby"),
    ("joinGame", 200): row("carol", "joinGame", invite("lobby"), game_id="lobby"),
    ("joinGame", 400): row("carol", "joinGame", {"invite": 7}, game_id="lobby"),
    ("joinGame", 409): row("bob", "joinGame", invite("lobby"), game_id="lobby"),
    ("leaveGame", 204): row("bob", "leaveGame", game_id="lobby"),
    ("leaveGame", 400): row("bob", "leaveGame", key=BAD_KEY, game_id="lobby"),
    ("leaveGame", 403): row("carol", "leaveGame", game_id="public"),
    ("leaveGame", 409): row("alice", "leaveGame", game_id="lobby"),
    ("removeSeat", 200): row("alice", "removeSeat", game_id="lobby", seat=1),
    ("removeSeat", 400): row("alice", "removeSeat", key=BAD_KEY, game_id="lobby", seat=1),
    ("removeSeat", 403): row("bob", "removeSeat", game_id="lobby", seat=0),
    ("removeSeat", 409): row("alice", "removeSeat", game_id="lobby", seat=0),
    ("addBot", 201): row("alice", "addBot", GREEDY, game_id="lobby"),
    ("addBot", 400): row("alice", "addBot", {"kind": "genius"}, game_id="lobby"),
    ("addBot", 403): row("bob", "addBot", GREEDY, game_id="lobby"),
    ("addBot", 409): row("alice", "addBot", GREEDY, game_id="playing"),
    ("startGame", 200): row("alice", "startGame", game_id="lobby"),
    ("startGame", 400): row("alice", "startGame", key=BAD_KEY, game_id="lobby"),
    ("startGame", 403): row("bob", "startGame", game_id="lobby"),
    ("startGame", 409): row("alice", "startGame", game_id="public"),
    # --- turns
    ("getDecision", 200): row("alice", "getDecision", game_id="playing"),
    ("getDecision", 403): row("carol", "getDecision", game_id="public"),
    ("postMove", 200): row("alice", "postMove", first_option, game_id="playing"),
    ("postMove", 400): row("alice", "postMove", {"choice": 3}, game_id="playing"),
    ("postMove", 403): row("carol", "postMove", SKIP, game_id="public"),
    ("postMove", 409): row("alice", "postMove", SKIP, game_id="lobby"),
    ("undoTurn", 200): row("alice", "undoTurn", game_id="moved"),
    ("undoTurn", 400): row("alice", "undoTurn", key=BAD_KEY, game_id="playing"),
    ("undoTurn", 403): row("carol", "undoTurn", game_id="public"),
    ("undoTurn", 409): row("alice", "undoTurn", game_id="lobby"),
    ("confirmTurn", 200): row("alice", "confirmTurn", game_id="moved"),
    ("confirmTurn", 400): row("alice", "confirmTurn", key=BAD_KEY, game_id="playing"),
    ("confirmTurn", 403): row("carol", "confirmTurn", game_id="public"),
    ("confirmTurn", 409): row("alice", "confirmTurn", game_id="lobby"),
    ("resignSeat", 200): row("bob", "resignSeat", game_id="playing"),
    ("resignSeat", 400): row("bob", "resignSeat", key=BAD_KEY, game_id="playing"),
    ("resignSeat", 403): row("carol", "resignSeat", game_id="public"),
    ("resignSeat", 409): row("alice", "resignSeat", game_id="lobby"),
    # --- reading a game
    ("getSheet", 200): row("alice", "getSheet", game_id="playing", sheet=0),
    ("getSheet", 403): row("carol", "getSheet", game_id="public", sheet=0),
    ("getSheet", 409): row("alice", "getSheet", game_id="lobby", sheet=0),
    ("getSheetSvg", 200): row("alice", "getSheetSvg", game_id="playing", sheet=0),
    ("getSheetSvg", 400): row("alice", "getSheetSvg", query={"seq": "x"}, game_id="playing", sheet=0),
    ("getSheetSvg", 403): row("carol", "getSheetSvg", game_id="public", sheet=0),
    ("getSheetSvg", 409): row("alice", "getSheetSvg", game_id="lobby", sheet=0),
    ("listEvents", 200): row("alice", "listEvents", game_id="playing"),
    ("listEvents", 400): row("alice", "listEvents", query={"after": -1}, game_id="playing"),
    ("listEvents", 403): row("carol", "listEvents", game_id="public"),
    ("getReplay", 200): row("alice", "getReplay", query={"seq": 1}, game_id="finished"),
    ("getReplay", 400): row("alice", "getReplay", query={"seq": 0}, game_id="finished"),
    ("getReplay", 403): row("carol", "getReplay", query={"seq": 1}, game_id="public"),
    ("getReplay", 409): row("alice", "getReplay", query={"seq": 1}, game_id="playing"),
    ("exportGame", 200): row("alice", "exportGame", game_id="finished"),
    ("exportGame", 403): row("carol", "exportGame", game_id="public"),
    ("exportGame", 409): row("alice", "exportGame", game_id="playing"),
    ("streamGame", 200): row("alice", "streamGame", game_id="playing"),
    ("streamGame", 204): row("alice", "streamGame", query={"after": 10**6}, game_id="finished"),
    ("streamGame", 400): row("alice", "streamGame", query={"after": -1}, game_id="playing"),
    ("streamGame", 403): row("carol", "streamGame", game_id="public"),
    ("getStreamTicket", 201): row("alice", "getStreamTicket", game_id="playing"),
    ("getStreamTicket", 403): row("carol", "getStreamTicket", game_id="public"),
    # --- campaigns
    ("createCampaign", 201): row("alice", "createCampaign", {"max_players": 2}),
    ("createCampaign", 400): row("alice", "createCampaign", {"max_players": 0}),
    ("createCampaign", 409): lambda w: w.quota_reached("createCampaign", {"max_players": 2}),
    ("getCampaign", 200): row("alice", "getCampaign", campaign_id="campaign_lobby"),
    ("getCampaign", 400): row(
        "carol", "getCampaign", query={"invite": "x" * 65}, campaign_id="campaign_lobby"
    ),
    ("joinCampaign", 200): row(
        "carol", "joinCampaign", invite("campaign_lobby"), campaign_id="campaign_lobby"
    ),
    ("joinCampaign", 400): row("carol", "joinCampaign", {"invite": 7}, campaign_id="campaign_lobby"),
    ("joinCampaign", 409): row("bob", "joinCampaign", invite("campaign_lobby"), campaign_id="campaign_lobby"),
    ("leaveCampaign", 204): row("bob", "leaveCampaign", campaign_id="campaign_lobby"),
    ("leaveCampaign", 400): row("bob", "leaveCampaign", key=BAD_KEY, campaign_id="campaign_lobby"),
    ("leaveCampaign", 403): row("carol", "leaveCampaign", campaign_id="campaign_public"),
    ("leaveCampaign", 409): row("alice", "leaveCampaign", campaign_id="campaign_lobby"),
    ("removeCampaignSeat", 200): row("alice", "removeCampaignSeat", campaign_id="campaign_lobby", seat=1),
    ("removeCampaignSeat", 400): row(
        "alice", "removeCampaignSeat", key=BAD_KEY, campaign_id="campaign_lobby", seat=1
    ),
    ("removeCampaignSeat", 403): row("bob", "removeCampaignSeat", campaign_id="campaign_lobby", seat=0),
    ("removeCampaignSeat", 409): row("alice", "removeCampaignSeat", campaign_id="campaign_lobby", seat=0),
    ("addCampaignBot", 201): row("alice", "addCampaignBot", GREEDY, campaign_id="campaign_lobby"),
    ("addCampaignBot", 400): row("alice", "addCampaignBot", {"kind": "genius"}, campaign_id="campaign_lobby"),
    ("addCampaignBot", 403): row("bob", "addCampaignBot", GREEDY, campaign_id="campaign_lobby"),
    ("addCampaignBot", 409): row("alice", "addCampaignBot", GREEDY, campaign_id="campaign_playing"),
    ("startCampaign", 200): row("alice", "startCampaign", campaign_id="campaign_lobby"),
    ("startCampaign", 400): row("alice", "startCampaign", key=BAD_KEY, campaign_id="campaign_lobby"),
    ("startCampaign", 403): row("bob", "startCampaign", campaign_id="campaign_lobby"),
    ("startCampaign", 409): row("alice", "startCampaign", campaign_id="campaign_public"),
    ("getCampaignDecision", 200): row("alice", "getCampaignDecision", campaign_id="campaign_playing"),
    ("getCampaignDecision", 403): row("carol", "getCampaignDecision", campaign_id="campaign_public"),
    ("postCampaignMove", 200): between_choice,
    ("postCampaignMove", 400): row(
        "alice", "postCampaignMove", {"choice": 3}, campaign_id="campaign_playing"
    ),
    ("postCampaignMove", 403): row("carol", "postCampaignMove", NEXT, campaign_id="campaign_public"),
    ("postCampaignMove", 409): row("alice", "postCampaignMove", NEXT, campaign_id="campaign_playing"),
    ("listCampaignEvents", 200): row("alice", "listCampaignEvents", campaign_id="campaign_playing"),
    ("listCampaignEvents", 400): row(
        "alice", "listCampaignEvents", query={"after": -1}, campaign_id="campaign_playing"
    ),
    ("listCampaignEvents", 403): row("carol", "listCampaignEvents", campaign_id="campaign_public"),
    ("exportCampaign", 200): row("referee", "exportCampaign", campaign_id="campaign_playing"),
    ("exportCampaign", 403): row("carol", "exportCampaign", campaign_id="campaign_public"),
    ("exportCampaign", 409): row("alice", "exportCampaign", campaign_id="campaign_playing"),
    ("streamCampaign", 200): row("alice", "streamCampaign", campaign_id="campaign_playing"),
    ("streamCampaign", 204): row(
        "alice", "streamCampaign", query={"after": 10**6}, campaign_id="campaign_finished"
    ),
    ("streamCampaign", 400): row(
        "alice", "streamCampaign", query={"after": -1}, campaign_id="campaign_playing"
    ),
    ("streamCampaign", 403): row("carol", "streamCampaign", campaign_id="campaign_public"),
    ("getCampaignStreamTicket", 201): row("alice", "getCampaignStreamTicket", campaign_id="campaign_playing"),
    ("getCampaignStreamTicket", 403): row("carol", "getCampaignStreamTicket", campaign_id="campaign_public"),
}


def test_every_declared_status_is_provoked() -> None:
    """Each declared (operation, status) has its request here, by its rule or in PROVOKE, and
    PROVOKE keeps no request for a status no longer declared."""
    assert set(declared()) == set(OPERATION_IDS.values()), "every operation is in the schema"
    wanted = {(operation, status) for operation, statuses in declared().items() for status in statuses}
    generic = {(operation, status) for operation, status in wanted if status in GENERIC}
    assert wanted - generic - set(PROVOKE) == set(), "declared, with no request provoking it"
    assert set(PROVOKE) - wanted == set(), "provoked here, not declared"
    assert not {pair for pair in PROVOKE if pair[1] in GENERIC}, "a generic status has its rule"


def _answered(response: Any, operation_id: str, status: int) -> str | None:
    """Why ``response`` is not ``operation_id``'s ``status``, or None."""
    request = response.wsgi_request
    reached = operation_of(request.method, request.path)
    if reached is None or reached[0] != operation_id:
        return f"{operation_id} {status}: the request reached {reached and reached[0]} ({request.path})"
    if response.status_code != status:
        content = b"" if response.streaming else response.content[:300]
        return f"{operation_id} {status}: answered {response.status_code} {content!r}"
    return None


SPECIFIC = sorted({status for _, status in PROVOKE})


@pytest.mark.parametrize("status", SPECIFIC)
def test_each_operation_gives_the_statuses_only_it_can(world: World, status: int) -> None:
    """The requests of PROVOKE with this status, in one world (each request that changes a
    table changes one no later request of the same status needs as it was)."""
    wrong = []
    for (operation_id, wanted), row in PROVOKE.items():
        if wanted == status:
            problem = _answered(row(world), operation_id, status)
            if problem:
                wrong.append(problem)
    assert not wrong, "\n".join(wrong)


def _ids(world: World, operation_id: str) -> dict[str, Any]:
    """Path ids naming tables of alice's (a game in the lobby, or a campaign)."""
    template = TEMPLATES[operation_id][0]
    ids: dict[str, Any] = {}
    if "{game_id}" in template:
        ids["game_id"] = world.lobby["id"]
    if "{campaign_id}" in template:
        ids["campaign_id"] = world.campaign_lobby["id"]
    if "{sheet}" in template:
        ids["sheet"] = 0
    if "{seat}" in template:
        ids["seat"] = 1
    return ids


# A body each operation takes as valid, so that only the rule's cause refuses it.
BODIES: dict[str, Any] = {
    "createGame": {"adventure": 3, "max_players": 2},
    "createCampaign": {"max_players": 2},
    "addBot": {"kind": "greedy"},
    "addCampaignBot": {"kind": "greedy"},
    "postMove": {"choice": {"action": "skip"}},
    "postCampaignMove": {"choice": {"action": "next_chapter"}},
}


def _generic(world: World, status: int, request: Callable[[str, dict[str, Any]], Any]) -> None:
    """Every operation declaring ``status`` answers it to ``request(operation_id, ids)``."""
    wrong = []
    for operation_id, statuses in sorted(declared().items()):
        if status in statuses:
            problem = _answered(request(operation_id, _ids(world, operation_id)), operation_id, status)
            if problem:
                wrong.append(problem)
    assert not wrong, "\n".join(wrong)


def test_401_without_a_token(world: World) -> None:
    def request(operation_id: str, ids: dict[str, Any]) -> Any:
        return world.ask(APIClient(), operation_id, BODIES.get(operation_id), **ids)

    _generic(world, 401, request)


def test_404_for_an_id_that_names_nothing(world: World) -> None:
    def request(operation_id: str, ids: dict[str, Any]) -> Any:
        nothing = {key: NO_SUCH for key in ids if key in ("game_id", "campaign_id")}
        return world.ask(world.alice, operation_id, BODIES.get(operation_id), **{**ids, **nothing})

    _generic(world, 404, request)


def test_413_for_a_body_too_large(world: World) -> None:
    body = json.dumps({"invite": "x" * 3_000_000})
    _generic(world, 413, lambda operation_id, ids: _raw(world, operation_id, ids, body, "application/json"))


def test_415_for_a_body_not_json(world: World) -> None:
    _generic(world, 415, lambda operation_id, ids: _raw(world, operation_id, ids, "invite=x", "text/plain"))


def _raw(world: World, operation_id: str, ids: dict[str, Any], body: str, content_type: str) -> Any:
    template, method = TEMPLATES[operation_id]
    assert method == "post"
    client = world.anon if operation_id in ("register", "signIn") else world.alice
    return client.post(template.format(**ids), body, content_type=content_type)


def test_422_for_an_idempotency_key_used_for_another_request(world: World) -> None:
    key: dict[str, Any] = {"HTTP_IDEMPOTENCY_KEY": "used-once"}
    first = world.ask(world.alice, "createGame", {"adventure": 2, "max_players": 2}, **key)
    assert first.status_code == 201, first.content

    def request(operation_id: str, ids: dict[str, Any]) -> Any:
        return world.ask(world.alice, operation_id, BODIES.get(operation_id), **ids, **key)

    _generic(world, 422, request)


def test_429_past_the_rate(world: World, settings: Any) -> None:
    ids = {operation_id: _ids(world, operation_id) for operation_id in declared()}
    cache.clear()
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "1/hour", "user": "1/hour", "admin_login": None},
    }
    assert world.ask(world.alice, "listGames").status_code == 200
    assert world.ask(world.anon, "getIndex").status_code == 200

    def request(operation_id: str, _: dict[str, Any]) -> Any:
        public = TEMPLATES[operation_id][0] in ("/api/v1/", "/api/v1/history-key") or operation_id in (
            "register", "signIn",
        )
        client = world.anon if public else world.alice
        return world.ask(client, operation_id, BODIES.get(operation_id), **ids[operation_id])

    _generic(world, 429, request)


@contextmanager
def database_down() -> Iterator[None]:
    """Every query fails as with a database that cannot be reached (in any thread)."""
    execute, executemany = CursorWrapper.execute, CursorWrapper.executemany

    def down(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("server closed the connection unexpectedly")

    CursorWrapper.execute = CursorWrapper.executemany = down  # type: ignore[method-assign]
    try:
        yield
    finally:
        CursorWrapper.execute, CursorWrapper.executemany = execute, executemany  # type: ignore[method-assign]


def test_503_with_a_database_that_cannot_be_reached(world: World) -> None:
    ids = {operation_id: _ids(world, operation_id) for operation_id in declared()}

    def request(operation_id: str, _: dict[str, Any]) -> Any:
        client = world.anon if operation_id in ("register", "signIn", "getHealth") else world.alice
        credentials = {"username": "dave", "password": "secret-pw"}
        body = credentials if operation_id in ("register", "signIn") else BODIES.get(operation_id)
        with database_down():
            return world.ask(client, operation_id, body, **ids[operation_id])

    _generic(world, 503, request)
