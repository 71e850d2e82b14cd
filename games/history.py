"""A game's whole history: its hash chain checked, exported as JSON Lines, imported again.

The export is one header line, then one line per event in seq order:

    {"format": "moon-game/1", "game": 12, "adventure": 3, "players": 2,
     "seats": [{"seat": 0, "username": "ann"}, {"seat": 1, "bot": "greedy"}]}
    {"seq": 1, "turn": 0, "seat": null, "kind": "game_started", "v": 3, "data": {...},
     "created_at": "2026-11-25T10:00:00.000000+00:00", "prev_hash": "000...0", "hash": "9f2..."}

``v`` (the version of the kind's schema the event was stored with) is carried beside the
fields the chain covers, so that an older event is read as it was written. The hash covers
``seq``, ``turn``, ``seat``, ``kind`` and ``data`` (eventstore/chain.py); the header and
``created_at`` are outside the chain. Line numbers count from 1: the header is line 1, event
``n`` is line ``n + 1``. A finished game's header also carries ``"seal"``, the signature
over its last hash (eventstore/seals.py). The lines of events, and what every export shares, are
eventstore/exchange.py's; a campaign's export holds its chapter games as sections of this
format (campaigns/history.py).

An import is refused, naming the line, when a line is not such JSON, when the chain breaks,
when an event is not what the engine appends at that point (``engine.reenact``), when the
result differs from the replay, or when its seal does not sign its history as it ends (a
history changed and chained again); nothing is stored then. An export without a seal (made
before histories were signed), or sealed by a key this server does not trust, is imported with
a warning; what is stored is sealed with this server's key. A game recorded under earlier rules,
which today's engine plays differently, can be imported with ``strict=False``: its events are
then only checked against their kinds' schemas, and its result against the replay
(``engine.replay_checked``).
"""

import functools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol, cast

from django.contrib.auth.models import User
from django.db import models, transaction

from accounts.models import Account
from accounts.services import name_key, normalized_username
from eventstore import exchange, seals
from eventstore.errors import Conflict, Invalid
from eventstore.exchange import ImportRefused
from games import lobby, snapshots
from games.models import Event, Game, Seat
from games.rules import engine

FORMAT = "moon-game/1"
HEADER_FIELDS = ("format", "game", "adventure", "players", "seats")


# --- checking the chains in the database ------------------------------------------------------


# --- export ------------------------------------------------------------------------------------


def may_review(*, user: User, table: type[models.Model]) -> bool:
    """Whether ``user`` may read every table of that model whole, at any time: what the admin's
    replay viewer asks of them (active staff with the model's view or change permission), so
    that the export and the viewer let in the same people. ``is_staff`` alone is not enough."""
    meta = table._meta
    return (
        user.is_active
        and user.is_staff
        and any(
            user.has_perm(f"{meta.app_label}.{action}_{meta.model_name}") for action in ("view", "change")
        )
    )


def export_lines(*, game: Game, viewer: User) -> Iterator[str]:
    """The game's history as JSON Lines, for the staff who may review games (``may_review``),
    or for a seated player once the game is finished (before that, its events would tell the
    deck order and the other seats' turn)."""
    if not may_review(user=viewer, table=Game):
        seated = Seat.objects.filter(game=game, user_id=viewer.pk).exists()
        if not seated:
            raise lobby.outsider(game)
        if game.status != Game.Status.FINISHED:
            raise Conflict("game_not_finished", "A game's players can export it once it is finished.")
    return history_lines(game=game)


def history_lines(*, game: Game, named: int | None = None) -> Iterator[str]:
    """Every line of the export, each ending with a newline, read as it is sent. ``named``: the
    id the header gives the game (a campaign's export names its games as its log does)."""
    yield exchange.to_line(header(game, named=named))
    yield from exchange.event_lines(Event, game.pk)


def header(game: Game, *, named: int | None = None) -> dict[str, Any]:
    """The header line of a game's section."""
    seats = list(game.seats.select_related("user").order_by("index"))
    return {
        "format": FORMAT,
        "game": game.pk if named is None else named,
        "adventure": game.adventure,
        "players": len(seats),
        "seats": [seat_line(seat) for seat in seats],
        **exchange.seal_of(Event, game.pk),
    }


class SeatRow(Protocol):
    """A game's or a campaign's seat, as an export names it."""

    index: int
    bot: str

    @property
    def user(self) -> User | None: ...


def seat_line(seat: SeatRow) -> dict[str, Any]:
    """A seat as an export names it: its player's username, or its kind of bot."""
    if seat.user is None:
        return {"seat": seat.index, "bot": seat.bot}
    return {"seat": seat.index, "username": seat.user.get_username()}


def export_filename(game: Game) -> str:
    return f"moon-game-{game.pk}.jsonl"



# --- import ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Imported:
    """A game stored from an export, the accounts made for players unknown here, and what the
    import warns of (its signature's absence, or a key not trusted here)."""

    game: Game
    events: int
    new_accounts: list[str]
    warnings: list[str]


def import_game(
    *,
    lines: Iterable[str | bytes],
    strict: bool = True,
    copy: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> Imported:
    """Store an exported game as a new finished game, once its chain holds and the engine
    appends every one of its events (not ``strict``: once every event fits its kind's schema
    and the result is the replay's); ImportRefused (nothing stored) otherwise. A game already
    stored here (a stored event has the export's chain head: its last event's hash at its
    ``seq``) is refused with its id, unless ``copy``. ``progress(checked, events)`` is told
    how far the check of the events is.

    Seats go to the accounts with the players' names (compared as sign-in compares them); a
    name with no account here gets a new inactive account that cannot sign in. A bot's seat
    stays a bot's, and a solo game keeps its ASTRA level.
    """
    game_section, *more = exchange.sections(lines)
    if more:
        fields = ", ".join(exchange.event_fields(Event))
        raise ImportRefused(more[0].line, f"an event line is an object with exactly {fields}.")
    state, warning = checked_section(game_section, strict=strict, progress=progress)
    with transaction.atomic():
        if not copy:
            exchange.refuse_if_stored(Event, game_section, command="import_game")
        players, new_accounts = players_named([seat.get("username") for seat in game_section.header["seats"]])
        game = store_section(game_section, state, players)
    warnings = [] if warning is None else [warning]
    return Imported(game=game, events=len(game_section.events), new_accounts=new_accounts, warnings=warnings)


def checked_section(
    section: exchange.Section, *, strict: bool, progress: Callable[[int, int], None] | None = None
) -> tuple[engine.GameState, str | None]:
    """The state of a finished game after a section of an export, once its header, its chain,
    its seal and its events hold (see ``import_game``), and the seal's warning if any."""
    _header(section.header, section.line)
    exchange.check_events(Event, section)
    warning = exchange.check_seal(Event, section)
    told = None if progress is None else functools.partial(_told, progress, len(section.events))
    try:
        stored = cast(list[engine.Event], section.stored(Event))
        state = (
            engine.reenact(stored, progress=told) if strict else engine.replay_checked(stored, progress=told)
        )
    except engine.LogRefused as refused:
        raise ImportRefused(section.events[refused.index][0], refused.detail) from refused
    if told is not None:
        told(len(section.events))
    _check_header(section.header, state, section.line)
    return state, warning


def store_section(section: exchange.Section, state: engine.GameState, players: list[User | None]) -> Game:
    """Store a checked section as a new finished game seating ``players`` (None: a bot)."""
    creator = next((user for user in players if user is not None), None)
    if creator is None:
        raise ImportRefused(section.line, "no seat names a player: a game is created by one.")
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
        for index, (user, seat) in enumerate(zip(players, section.header["seats"], strict=True))
    )
    exchange.store_events(Event, game, section)
    seals.seal(Event, game.pk)
    snapshots.save(game=game, state=state, seq=len(section.events))
    return game


def _told(progress: Callable[[int, int], None], events: int, checked: int) -> None:
    progress(checked, events)


def _header(value: Any, number: int) -> dict[str, Any]:
    if not exchange.header_fields_hold(value, HEADER_FIELDS):
        fields = ", ".join(HEADER_FIELDS)
        raise ImportRefused(number, f"the header is an object with exactly {fields} (and a seal, if signed).")
    if value["format"] != FORMAT:
        raise ImportRefused(number, f"format {value['format']!r} is not {FORMAT!r}.")
    check_seats(value["seats"], number)
    return value


def check_seats(seats: Any, line: int) -> None:
    """The header's ``seats`` list each seat in order, a player's or a bot's, and each player's
    name is one an account may have (as registering checks it)."""
    if not isinstance(seats, list) or not all(_seat_of(seat, index) for index, seat in enumerate(seats)):
        raise ImportRefused(
            line,
            'seats lists each seat in order: {"seat": n, "username": ...} or, for a bot, '
            f'{{"seat": n, "bot": one of {Seat.Bot.values}}}.',
        )
    for seat in seats:
        if "username" in seat:
            try:
                normalized_username(seat["username"])
            except Invalid as refused:
                name = seat["username"][:40]
                raise ImportRefused(
                    line, f"seat {seat['seat']}: the username {name!r} is refused: {refused.detail}"
                ) from refused


def _seat_of(seat: Any, index: int) -> bool:
    """Whether ``seat`` is the header's line of seat ``index``: a player's or a bot's."""
    if not isinstance(seat, dict) or seat.get("seat") != index:
        return False
    if set(seat) == {"seat", "username"}:
        return isinstance(seat["username"], str) and bool(seat["username"])
    return set(seat) == {"seat", "bot"} and seat["bot"] in Seat.Bot.values


def _check_header(header: dict[str, Any], state: engine.GameState, line: int) -> None:
    if header["adventure"] != state.adventure:
        raise ImportRefused(
            line, f"the header names adventure {header['adventure']!r}; the game is of {state.adventure}."
        )
    if header["players"] != state.players or len(header["seats"]) != state.players:
        raise ImportRefused(
            line,
            f"the header names {header['players']!r} players and {len(header['seats'])} seats; "
            f"the game has {state.players}.",
        )


def players_named(names: list[str | None]) -> tuple[list[User | None], list[str]]:
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
