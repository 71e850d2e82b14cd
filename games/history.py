"""A game's whole history: its hash chain checked, exported as JSON Lines, imported again.

The export is one header line, then one line per event in seq order:

    {"format": "moon-game/1", "game": 12, "adventure": 3, "players": 2,
     "seats": [{"seat": 0, "username": "ann"}, {"seat": 1, "bot": "greedy"}]}
    {"seq": 1, "turn": 0, "seat": null, "kind": "game_started", "v": 3, "data": {...},
     "created_at": "2026-11-25T10:00:00.000000+00:00", "prev_hash": "000...0", "hash": "9f2..."}

``v`` (the version of the kind's schema the event was stored with) is carried beside the
fields the chain covers, so that an older event is read as it was written. The hash covers
``seq``, ``turn``, ``seat``, ``kind`` and ``data`` (games/chain.py); the header and
``created_at`` are outside the chain. Line numbers count from 1: the header is line 1, event
``n`` is line ``n + 1``.

An import is refused, naming the line, when a line is not such JSON, when the chain breaks,
when an event is not what the engine appends at that point (``engine.reenact``), or when the
result differs from the replay; nothing is stored then. A game recorded under earlier rules,
which today's engine plays differently, can be imported with ``strict=False``: its events are
then only checked against their kinds' schemas, and its result against the replay
(``engine.replay_checked``).
"""

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from accounts.models import Account
from accounts.services import name_key
from games import chain, snapshots
from games.errors import Conflict, outsider
from games.models import Event, Game, Seat
from games.rules import engine

FORMAT = "moon-game/1"
HEADER_FIELDS = ("format", "game", "adventure", "players", "seats")
EVENT_FIELDS = ("seq", "turn", "seat", "kind", "v", "data", "created_at", "prev_hash", "hash")
CHAIN_FIELDS = ("seq", "turn", "seat", "kind", "data", "prev_hash", "hash")


# --- checking the chains in the database ------------------------------------------------------


@dataclass(frozen=True)
class ChainReport:
    """One game's chain as ``verify_chains`` found it: its events, and its first broken link."""

    game_id: int
    events: int
    broken: chain.Break | None


def verify_chains(*, game_id: int | None = None) -> Iterator[ChainReport]:
    """Walk the chain of every game with events (or of one game), in game order."""
    rows = Event.objects.order_by("game_id", "seq")
    if game_id is not None:
        rows = rows.filter(game_id=game_id)
    stream = rows.values_list("game_id", *CHAIN_FIELDS).iterator(chunk_size=2000)
    for game, game_rows in groupby(stream, key=lambda row: row[0]):
        links = [chain.Link(*row[1:]) for row in game_rows]
        yield ChainReport(game_id=game, events=len(links), broken=chain.first_break(links))


# --- export ------------------------------------------------------------------------------------


def export_lines(*, game: Game, viewer: User) -> Iterator[str]:
    """The game's history as JSON Lines, for staff, or for a seated player once the game is
    finished (before that, its events would tell the deck order and the other seats' turn)."""
    if not viewer.is_staff:
        seated = Seat.objects.filter(game=game, user_id=viewer.pk).exists()
        if not seated:
            raise outsider(game_id=game.pk, in_lobby=game.status == Game.Status.LOBBY)
        if game.status != Game.Status.FINISHED:
            raise Conflict("game_not_finished", "A game's players can export it once it is finished.")
    return history_lines(game=game)


def history_lines(*, game: Game) -> Iterator[str]:
    """Every line of the export, each ending with a newline, read as it is sent."""
    seats = list(game.seats.select_related("user").order_by("index"))
    yield _line(
        {
            "format": FORMAT,
            "game": game.pk,
            "adventure": game.adventure,
            "players": len(seats),
            "seats": [_seat_line(seat) for seat in seats],
        }
    )
    rows = Event.objects.filter(game_id=game.pk).order_by("seq")
    for seq, turn, seat, kind, version, data, created_at, prev_hash, digest in rows.values_list(
        "seq", "turn", "seat", "kind", "version", "data", "created_at", "prev_hash", "hash"
    ).iterator(chunk_size=500):
        yield _line(
            {
                "seq": seq,
                "turn": turn,
                "seat": seat,
                "kind": kind,
                "v": version or 1,
                "data": data,
                "created_at": created_at.isoformat(),
                "prev_hash": prev_hash,
                "hash": digest,
            }
        )


def _seat_line(seat: Seat) -> dict[str, Any]:
    if seat.user is None:
        return {"seat": seat.index, "bot": seat.bot}
    return {"seat": seat.index, "username": seat.user.get_username()}


def export_filename(game: Game) -> str:
    return f"moon-game-{game.pk}.jsonl"


def _line(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n"


# --- import ------------------------------------------------------------------------------------


class ImportRefused(Exception):
    """An export that cannot be imported: ``line`` (from 1) is the first line at fault."""

    def __init__(self, line: int, detail: str) -> None:
        super().__init__(f"line {line}: {detail}")
        self.line = line
        self.detail = detail


@dataclass(frozen=True)
class Imported:
    """A game stored from an export, and the accounts made for players unknown here."""

    game: Game
    events: int
    new_accounts: list[str]


def import_game(*, lines: Iterable[str | bytes], strict: bool = True) -> Imported:
    """Store an exported game as a new finished game, once its chain holds and the engine
    appends every one of its events (not ``strict``: once every event fits its kind's schema
    and the result is the replay's); ImportRefused (nothing stored) otherwise.

    Seats go to the accounts with the players' names (compared as sign-in compares them); a
    name with no account here gets a new inactive account that cannot sign in. A bot's seat
    stays a bot's, and a solo game keeps its ASTRA level.
    """
    header, events = _parse(lines)
    broken = chain.first_break(
        chain.Link(**{name: event[name] for name in CHAIN_FIELDS}) for event in events
    )
    if broken is not None:
        raise ImportRefused(broken.index + 2, broken.reason)
    stored: list[engine.Event] = [
        {"kind": e["kind"], "v": e["v"], "seat": e["seat"], "turn": e["turn"], "data": e["data"]}
        for e in events
    ]
    try:
        state = engine.reenact(stored) if strict else engine.replay_checked(stored)
    except engine.LogRefused as refused:
        raise ImportRefused(refused.index + 2, refused.detail) from refused
    _check_header(header, state)
    with transaction.atomic():
        players, new_accounts = _players([seat.get("username") for seat in header["seats"]])
        creator = next((user for user in players if user is not None), None)
        if creator is None:
            raise ImportRefused(1, "no seat names a player: a game is created by one.")
        game = Game.objects.create(
            adventure=state.adventure,
            max_players=state.players,
            status=Game.Status.FINISHED,
            creator=creator,
            seed=state.seed,
            astra_level=state.astra.level if state.astra is not None else None,
        )
        Seat.objects.bulk_create(
            Seat(game=game, user=user, bot=seat.get("bot", ""), index=index)
            for index, (user, seat) in enumerate(zip(players, header["seats"], strict=True))
        )
        Event.objects.bulk_create(
            Event(
                game=game,
                seq=event["seq"],
                turn=event["turn"],
                seat=event["seat"],
                kind=event["kind"],
                version=event["v"],
                data=event["data"],
                prev_hash=event["prev_hash"],
                hash=event["hash"],
            )
            for event in events
        )
        snapshots.save(game=game, state=state, seq=len(events))
    return Imported(game=game, events=len(events), new_accounts=new_accounts)


def _parse(lines: Iterable[str | bytes]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    header: dict[str, Any] | None = None
    events: list[dict[str, Any]] = []
    blank_at: int | None = None
    for number, raw in enumerate(lines, start=1):
        try:
            text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        except UnicodeDecodeError as error:
            raise ImportRefused(number, "not UTF-8 text.") from error
        if not text.strip():
            blank_at = blank_at or number
            continue
        if blank_at is not None:
            raise ImportRefused(blank_at, "an empty line inside the export.")
        try:
            value = json.loads(text)
        except json.JSONDecodeError as error:
            raise ImportRefused(number, f"not a JSON object ({error.msg}).") from error
        if header is None:
            header = _header(value, number)
        else:
            events.append(_event(value, number))
    if header is None:
        raise ImportRefused(1, "the export is empty: its first line is the header.")
    if not events:
        raise ImportRefused(2, "the export holds no event.")
    return header, events


def _header(value: Any, number: int) -> dict[str, Any]:
    if not isinstance(value, dict) or set(value) != set(HEADER_FIELDS):
        raise ImportRefused(number, f"the header is an object with exactly {', '.join(HEADER_FIELDS)}.")
    if value["format"] != FORMAT:
        raise ImportRefused(number, f"format {value['format']!r} is not {FORMAT!r}.")
    seats = value["seats"]
    if not isinstance(seats, list) or not all(
        _seat_of(seat, index) for index, seat in enumerate(seats)
    ):
        raise ImportRefused(
            number,
            'seats lists each seat in order: {"seat": n, "username": ...} or, for a bot, '
            f'{{"seat": n, "bot": one of {Seat.Bot.values}}}.',
        )
    return value


def _seat_of(seat: Any, index: int) -> bool:
    """Whether ``seat`` is the header's line of seat ``index``: a player's or a bot's."""
    if not isinstance(seat, dict) or seat.get("seat") != index:
        return False
    if set(seat) == {"seat", "username"}:
        return isinstance(seat["username"], str) and bool(seat["username"])
    return set(seat) == {"seat", "bot"} and seat["bot"] in Seat.Bot.values


def _event(value: Any, number: int) -> dict[str, Any]:
    if not isinstance(value, dict) or set(value) != set(EVENT_FIELDS):
        raise ImportRefused(number, f"an event line is an object with exactly {', '.join(EVENT_FIELDS)}.")
    whole = {name: value[name] for name in ("seq", "turn", "v")}
    if value["seat"] is not None:
        whole["seat"] = value["seat"]
    for name, item in whole.items():
        if not isinstance(item, int) or isinstance(item, bool) or item < 0:
            raise ImportRefused(number, f"{name} is a whole number, not {item!r}.")
    for name in ("kind", "created_at", "prev_hash", "hash"):
        if not isinstance(value[name], str):
            raise ImportRefused(number, f"{name} is a string, not {value[name]!r}.")
    if not isinstance(value["data"], dict):
        raise ImportRefused(number, "data is an object.")
    return value


def _check_header(header: dict[str, Any], state: engine.GameState) -> None:
    if header["adventure"] != state.adventure:
        raise ImportRefused(
            1, f"the header names adventure {header['adventure']!r}; the game is of {state.adventure}."
        )
    if header["players"] != state.players or len(header["seats"]) != state.players:
        raise ImportRefused(
            1,
            f"the header names {header['players']!r} players and {len(header['seats'])} seats; "
            f"the game has {state.players}.",
        )


def _players(names: list[str | None]) -> tuple[list[User | None], list[str]]:
    """The account of each seat's player (None for a bot's seat), and the names given new
    accounts."""
    users: list[User | None] = []
    created: list[str] = []
    for name in names:
        if name is None:
            users.append(None)
            continue
        account = Account.objects.filter(name_key=name_key(name)).select_related("user").first()
        user = account.user if account else User.objects.filter(username__iexact=name).first()
        if user is None:
            user = User.objects.create_user(username=name, password=None, is_active=False)
            Account.objects.create(user=user, name_key=name_key(name))
            created.append(name)
        users.append(user)
    people = [user.pk for user in users if user is not None]
    if len(set(people)) != len(people):
        raise ImportRefused(1, "two seats name the same player.")
    return users, created
