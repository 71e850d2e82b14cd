"""The lobby of a table, a game's or a campaign's: taking the next seat (a private table's with
its invite), filling one with a bot, freeing one, and the refusal for someone with no seat. Each
runs in a transaction that holds the table's row locked."""

import hmac
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from eventstore import store
from eventstore.errors import Conflict, Forbidden, GameError, Invalid, NotFound
from games import quotas
from games.models import Table, TableSeat, Visibility
from games.rules.engine import Text, shown

LOBBY = "lobby"

S = TypeVar("S", bound=TableSeat)


def name_of(table: Table) -> str:
    """What players call the table: "game" or "campaign"."""
    return str(table._meta.model_name)


def invited(table: Table, invite: str | None) -> bool:
    """Whether someone with no seat may see the table in the lobby: it is public, or they hold
    its invite."""
    if table.visibility == Visibility.PUBLIC:
        return True
    return invite is not None and hmac.compare_digest(invite.encode(), table.invite.encode())


def outsider(table: Table, invite: str | None = None) -> GameError:
    """The refusal for someone with no seat at a table. A public table in the lobby (or a
    private one, to who holds its invite) tells them they have no seat; any other does not
    exist for them, exactly as an id that names no table, so that ids cannot be probed."""
    what = name_of(table)
    if table.status == LOBBY and invited(table, invite):
        return Forbidden(
            "not_seated",
            "You have no seat in this %(what)s.",
            what=Text(what),
        )
    return NotFound(
        "not_found",
        "There is no %(what)s %(pk)s.",
        what=Text(what),
        pk=table.pk,
    )


def seat_index(table: Table, by: User, seats: type[TableSeat]) -> int:
    """The index of ``by``'s seat at the table (``seats``: its seats' model); the outsider's
    refusal when there is none."""
    index = store.seat_index(seats, name_of(table), table.pk, by.pk)
    if index is None:
        raise outsider(table)
    return index


def starting(table: Table, by: User, seats: type[TableSeat]) -> tuple[int, int]:
    """``by``'s seat and how many seats are taken, once ``by`` may start the table: its
    creator, while it is in the lobby, with 2 seats taken at least (players or bots) unless
    the table is for one player."""
    seat = seat_index(table, by, seats)
    what = name_of(table)
    if table.creator_id != by.pk:
        raise Forbidden(
            "not_creator",
            "Only the creator of the %(what)s can start it.",
            what=Text(what),
        )
    if table.status != LOBBY:
        raise Conflict(
            f"{what}_not_in_lobby",
            "This %(what)s has already started.",
            what=Text(what),
        )
    quotas.refuse_expired(table)
    taken = seats._default_manager.filter(**{what: table}).count()
    if taken < 2 and table.max_players > 1:
        raise Conflict(
            "not_enough_players",
            "A %(what)s for several players starts with at least 2 seats taken (players or bots); a solo "
            "%(what)s is created for 1 player.",
            what=Text(what),
        )
    return seat, taken


def join(*, table: Table, by: User, seats: type[S], invite: str | None = None) -> S:
    """Seat ``by`` in the next free seat of a table in the lobby (``seats``: its seats' model);
    a private table only with its ``invite``."""
    with transaction.atomic():
        table = store.lock(type(table), table.pk)
        return _seat_player(
            table=table, seats=list(_seats(table)), by=by, invite=invite, create=_creator(table, seats)
        )


def leave(*, table: Table, by: User, seats: type[TableSeat]) -> None:
    """``by`` leaves their seat of a table in the lobby (its creator cannot: the table is
    theirs); the seats after it move up one."""
    with transaction.atomic():
        table = store.lock(type(table), table.pk)
        index = seat_index(table, by, seats)
        _free_seat(table, seats, index)


def remove_seat(*, table: Table, by: User, seats: type[TableSeat], index: int) -> None:
    """The creator of a table in the lobby frees seat ``index`` (a player's or a bot's); the
    seats after it move up one."""
    with transaction.atomic():
        table = store.lock(type(table), table.pk)
        seat_index(table, by, seats)
        if table.creator_id != by.pk:
            raise Forbidden(
                "not_creator",
                "Only the creator of the %(what)s can free a seat.",
                what=Text(name_of(table)),
            )
        _free_seat(table, seats, index)


def _free_seat(table: Table, seats: type[TableSeat], index: int) -> None:
    what = name_of(table)
    if table.status != LOBBY:
        raise Conflict(
            f"{what}_not_in_lobby",
            "This %(what)s has already started.",
            what=Text(what),
        )
    taken = list(seats._default_manager.filter(**{what: table}).order_by("index"))
    if not 0 <= index < len(taken):
        raise NotFound(
            "seat_not_found",
            "Seat %(index)s of this %(what)s is not taken.",
            index=index,
            what=Text(what),
        )
    if taken[index].user_id == table.creator_id:
        raise Conflict(
            "creator_seat",
            "The creator's seat stays: the %(what)s is theirs.",
            what=Text(what),
        )
    taken[index].delete()
    # Seats stay numbered 0 to n-1 (the next seat is the n-th): those after it move up, lowest
    # first, so that no two share an index at any moment.
    for seat in taken[index + 1 :]:
        seat.index -= 1
        seat.save(update_fields=["index"])


def add_bot(*, table: Table, by: User, kind: str, seats: type[S]) -> S:
    """Fill the next free seat of a table in the lobby with a bot of ``kind`` (the creator
    only); a worker plays its turns."""
    with transaction.atomic():
        table = store.lock(type(table), table.pk)
        return _seat_bot(
            table=table, seats=list(_seats(table)), by=by, kind=kind, create=_creator(table, seats)
        )


def _seats(table: Any) -> Any:
    return table.seats.all()


def _creator(table: Table, seats: type[S]) -> Callable[..., S]:
    """What creates a seat at ``table``: ``create(index, user=...)`` or ``(index, bot=...)``."""
    return lambda index, **who: seats._default_manager.create(**{name_of(table): table}, index=index, **who)


def _seat_player(
    *, table: Table, seats: Sequence[TableSeat], by: User, invite: str | None, create: Callable[..., S]
) -> S:
    """Seat ``by`` in the next free seat of a table in the lobby: ``create(index, user=by)``."""
    what = name_of(table)
    seated = any(seat.user_id == by.pk for seat in seats)
    if not seated and (table.status != LOBBY or not invited(table, invite)):
        raise outsider(table)
    if table.status != LOBBY:
        raise Conflict(
            f"{what}_not_in_lobby",
            "This %(what)s has already started.",
            what=Text(what),
        )
    if seated:
        raise Conflict(
            "already_seated",
            "You already have a seat in this %(what)s.",
            what=Text(what),
        )
    quotas.refuse_expired(table)
    return _next_seat(table, len(seats), lambda index: create(index, user=by))


def _seat_bot(
    *, table: Table, seats: Sequence[TableSeat], by: User, kind: str, create: Callable[..., S]
) -> S:
    """Fill the next free seat of a table in the lobby with a bot of ``kind`` (the creator
    only): ``create(index, bot=kind)``."""
    what = name_of(table)
    if kind not in TableSeat.Bot.values:
        raise Invalid(
            "invalid_bot_kind",
            "A bot plays %(value)s, not %(kind)s.",
            value=' or '.join(TableSeat.Bot.values),
            kind=shown(kind),
        )
    if table.creator_id != by.pk:
        if not any(seat.user_id == by.pk for seat in seats):
            raise outsider(table)
        raise Forbidden(
            "not_creator",
            "Only the creator of the %(what)s can add a bot.",
            what=Text(what),
        )
    if table.status != LOBBY:
        raise Conflict(
            f"{what}_not_in_lobby",
            "This %(what)s has already started.",
            what=Text(what),
        )
    quotas.refuse_expired(table)
    return _next_seat(table, len(seats), lambda index: create(index, bot=kind))


def _next_seat(table: Table, taken: int, create: Callable[[int], S]) -> S:
    """Create the seat after the ``taken`` ones: refused when the table is full, and when
    someone took that seat at the same moment."""
    if taken >= table.max_players:
        raise Conflict(
            f"{name_of(table)}_full",
            "All %(max_players)s seats are taken.",
            max_players=table.max_players,
        )
    try:
        with transaction.atomic():
            return create(taken)
    except IntegrityError as exc:
        raise Conflict("concurrent_command", "Someone else joined at the same time.") from exc
