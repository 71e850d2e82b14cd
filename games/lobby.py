"""The lobby of a table, a game's or a campaign's: taking the next seat, filling one with a bot,
and the refusal for someone with no seat. Each runs in the caller's transaction, which holds the
table's row locked."""

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from eventstore.errors import Conflict, Forbidden, GameError, Invalid, NotFound
from games.models import TableSeat

LOBBY = "lobby"

S = TypeVar("S", bound=TableSeat)


class Lobby(Protocol):
    """A game or a campaign, as its lobby reads it."""

    pk: Any
    status: str
    creator_id: int
    max_players: int

    @property
    def _meta(self) -> Any: ...


def name_of(table: Lobby) -> str:
    """What players call the table: "game" or "campaign"."""
    return str(table._meta.model_name)


def outsider(table: Lobby) -> GameError:
    """The refusal for someone with no seat at a table. A table in the lobby is open to anyone
    who has its id (ids are how players invite each other), so there they are told they have no
    seat; one that has started does not exist for them, so that ids cannot be probed."""
    what = name_of(table)
    if table.status == LOBBY:
        return Forbidden("not_seated", f"You have no seat in this {what}.")
    return NotFound("not_found", f"There is no {what} {table.pk}.")


def seat_player(*, table: Lobby, seats: Sequence[TableSeat], by: User, create: Callable[..., S]) -> S:
    """Seat ``by`` in the next free seat of a table in the lobby: ``create(index, user=by)``."""
    what = name_of(table)
    seated = any(seat.user_id == by.pk for seat in seats)
    if table.status != LOBBY:
        if not seated:
            raise outsider(table)
        raise Conflict(f"{what}_not_in_lobby", f"This {what} has already started.")
    if seated:
        raise Conflict("already_seated", f"You already have a seat in this {what}.")
    return _next_seat(table, len(seats), lambda index: create(index, user=by))


def seat_bot(*, table: Lobby, seats: Sequence[TableSeat], by: User, kind: str, create: Callable[..., S]) -> S:
    """Fill the next free seat of a table in the lobby with a bot of ``kind`` (the creator
    only): ``create(index, bot=kind)``."""
    what = name_of(table)
    if kind not in TableSeat.Bot.values:
        raise Invalid("invalid_bot_kind", f"A bot plays {' or '.join(TableSeat.Bot.values)}, not {kind!r}.")
    if table.creator_id != by.pk:
        if not any(seat.user_id == by.pk for seat in seats):
            raise outsider(table)
        raise Forbidden("not_creator", f"Only the creator of the {what} can add a bot.")
    if table.status != LOBBY:
        raise Conflict(f"{what}_not_in_lobby", f"This {what} has already started.")
    return _next_seat(table, len(seats), lambda index: create(index, bot=kind))


def _next_seat(table: Lobby, taken: int, create: Callable[[int], S]) -> S:
    """Create the seat after the ``taken`` ones: refused when the table is full, and when
    someone took that seat at the same moment."""
    if taken >= table.max_players:
        raise Conflict(f"{name_of(table)}_full", f"All {table.max_players} seats are taken.")
    try:
        with transaction.atomic():
            return create(taken)
    except IntegrityError as exc:
        raise Conflict("concurrent_command", "Someone else joined at the same time.") from exc
