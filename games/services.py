"""Commands: everything that writes. No HTTP here.

Each game command runs in one transaction (the caller's: eventstore/commands.py for the API):
lock the game row, fold its state from the snapshot and the events after it, ask the rules
engine to decide (which applies each event it decides once), append the events through the
event store (eventstore/store.py), save the snapshot, update the game's status and write what
follows the events in the same transaction, sent on commit (eventstore/followups.py).
"""

import logging
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from eventstore import followups, seals, store
from eventstore.errors import Conflict, Invalid, Word
from games import hot_queries, lobby, quotas, selectors, snapshots
from games.models import MAX_TURN_SECONDS, MIN_TURN_SECONDS, Event, Game, Seat, Visibility
from games.rules import engine
from games.rules.engine import Event as EngineEvent
from games.rules.engine import GameState
from games.selectors import ASKING

logger = logging.getLogger(__name__)

GAME_ENDED = "game_ended"
RESULT = "result"
# The events after which a bot seat may have something to decide: those that ask the seats,
# and a seat handed to a bot mid-turn.
BOTS_ASKED_AFTER = ASKING | {"seat_resigned"}
DEFAULT_ASTRA_LEVEL = 1


@dataclass(frozen=True)
class CommandResult:
    """What a command appended, and the state the game is in afterwards."""

    game: Game
    seat: int
    events: list[Event]
    state: GameState
    # the feed window of the turn the command began in, when it read it (selectors.command_answer)
    turn_in_play: hot_queries.Window | None = None


# --- lobby -------------------------------------------------------------------------------------


def check_table_options(*, visibility: str, turn_seconds: int | None) -> None:
    """Refuse a visibility or a turn length a game or a campaign cannot have."""
    if visibility not in Visibility.values:
        choices = " or ".join(Visibility.values)
        raise Invalid(
            "invalid_visibility",
            "A table is %(choices)s, not %(visibility)s.",
            choices=choices,
            visibility=repr(visibility),
        )
    if turn_seconds is not None and (
        isinstance(turn_seconds, bool) or not MIN_TURN_SECONDS <= turn_seconds <= MAX_TURN_SECONDS
    ):
        raise Invalid(
            "invalid_turn_seconds",
            "turn_seconds is %(min_turn_seconds)s to %(max_turn_seconds)s seconds.",
            min_turn_seconds=MIN_TURN_SECONDS,
            max_turn_seconds=MAX_TURN_SECONDS,
        )


def create_game(
    *,
    by: User,
    adventure: int,
    max_players: int,
    astra_level: int | None = None,
    visibility: str = Visibility.PRIVATE,
    turn_seconds: int | None = None,
    by_campaign: bool = False,
) -> Game:
    """Open a game in the lobby with its creator in seat 0. A one-player game is a solo game
    against ASTRA, of ``astra_level`` 1 to 8 (1 when not given); a multiplayer game takes no
    level. A ``public`` game is listed in the lobby; a private one is joined with its invite.
    With ``turn_seconds``, a seat that has not finished a phase that long after it began is
    played for (``play_deadline``). Refused past the creator's quota of open lobbies, unless it
    is a campaign's chapter game (``by_campaign``: the campaign was held to the quotas itself)."""
    check_table_options(visibility=visibility, turn_seconds=turn_seconds)
    if not 1 <= max_players <= 6:
        raise Invalid("invalid_max_players", "A game has 1 to 6 players.")
    if max_players > 1 and astra_level is not None:
        raise Invalid(
            "astra_level_solo_only",
            "astra_level is for a solo game (max_players 1): a multiplayer game plays no ASTRA.",
        )
    if max_players == 1:
        astra_level = DEFAULT_ASTRA_LEVEL if astra_level is None else astra_level
        if isinstance(astra_level, bool) or not 1 <= astra_level <= 8:
            raise Invalid("invalid_astra_level", "ASTRA opponents have levels 1 to 8.")
    # A dry run of the setup refuses an adventure the engine cannot play yet, before anyone joins.
    rules_call(
        engine.new_game, adventure=adventure, players=max_players, seed=0, astra_level=astra_level
    )
    if not by_campaign:
        quotas.check_open_lobbies(by=by)
    with transaction.atomic():
        game = Game.objects.create(
            adventure=adventure,
            max_players=max_players,
            creator=by,
            astra_level=astra_level,
            visibility=visibility,
            turn_seconds=turn_seconds,
        )
        Seat.objects.create(game=game, user=by, index=0)
    return game


def join_game(*, game: Game, by: User, invite: str | None = None) -> Seat:
    """Take the next free seat of a game in the lobby (a private one with its ``invite``)."""
    return lobby.join(table=game, by=by, seats=Seat, invite=invite)


def leave_game(*, game: Game, by: User) -> None:
    """Leave one's seat of a game in the lobby (not its creator)."""
    lobby.leave(table=game, by=by, seats=Seat)


def remove_seat(*, game: Game, by: User, index: int) -> None:
    """Free seat ``index`` of a game in the lobby (its creator only)."""
    lobby.remove_seat(table=game, by=by, seats=Seat, index=index)


def add_bot(*, game: Game, by: User, kind: str) -> Seat:
    """Fill the next free seat of a game in the lobby with a bot of ``kind`` ("random" or
    "greedy"); its turns are played by a worker. Only the game's creator may add one."""
    return lobby.add_bot(table=game, by=by, kind=kind, seats=Seat)


def start_game(
    *,
    game: Game,
    by: User,
    missions: dict[str, int] | None = None,
    modifiers: dict[int, list[dict[str, Any]]] | None = None,
    by_campaign: bool = False,
    seed: int | None = None,
) -> CommandResult:
    """Deal the game for the seated players. Only its creator may start it, within their
    quota of games started in the last hour (with bots: of bot games).

    A campaign chapter starts its game with a setup (``by_campaign``; it counts towards the
    quotas but is never refused by them): ``missions`` imposes a mission card per letter,
    ``modifiers`` gives each seat its setup modifiers (see ``engine.new_game``). ``seed``
    deals a given deal (the same seed and seats, the same game: bench/streams.py plays one
    game again in each of its phases); None, a random one, as the API always deals.
    """
    with transaction.atomic():
        game = store.lock(Game, game.pk)
        seat, players = lobby.starting(game, by, Seat)
        if not by_campaign:
            quotas.check_starts(by=by, with_bots=game.seats.exclude(bot="").exists())
        if seed is None:
            seed = secrets.randbits(62)
        opening = rules_call(
            engine.new_game,
            adventure=game.adventure,
            players=players,
            seed=seed,
            missions=missions,
            modifiers=modifiers,
            astra_level=game.astra_level if players == 1 else None,
        )
        game.seed = seed
        game.status = Game.Status.PLAYING
        game.save(update_fields=["seed", "status"])
        rows, state = _record(game, engine.replay(opening), opening, version=0, actor=by)
    return CommandResult(game=game, seat=seat, events=rows, state=state)


# --- turns -------------------------------------------------------------------------------------


# A turn's commands take the game's id: locking the row is the only read of it they make.


def play_move(*, game_id: int, by: User, choice: Mapping[str, object]) -> CommandResult:
    """Play one of the options the caller's decision offers."""
    return _command(game_id=game_id, by=by, command={"type": "move", "choice": choice})


def undo_turn(*, game_id: int, by: User) -> CommandResult:
    """Void the caller's unconfirmed marks of this turn."""
    return _command(game_id=game_id, by=by, command={"type": "undo"})


def confirm_turn(*, game_id: int, by: User) -> CommandResult:
    """Lock in the caller's turn; the last seat to confirm resolves the end of the turn."""
    return _command(game_id=game_id, by=by, command={"type": "confirm"})


def resign_seat(*, game_id: int, by: User) -> CommandResult:
    """Hand the caller's seat to a bot for the rest of the game: the player keeps the seat and
    reads the game; a worker plays it from where it stands."""
    return _command(game_id=game_id, by=by, command=None)


def keep_state(*, result: CommandResult) -> None:
    """Let the next command on the game in this process fold from the state a player's
    committed command left it in (``snapshots.keep``): call it once nothing reads that state
    any more (the command's answer is built)."""
    if result.events:
        last = result.events[-1]
        snapshots.keep(game_id=result.game.pk, seq=last.seq, hash=bytes(last.hash), state=result.state)


def score_game(*, game_id: int) -> Event | None:
    """Append the result event of an ended game. Idempotent: a scored game is left as it is
    (what follows its result was written with it, in the outbox: eventstore/followups.py)."""
    with transaction.atomic():
        game = store.lock(Game, game_id)
        existing = game.events.filter(kind=RESULT).first()
        if existing is not None:
            logger.info(
                "game already scored", extra={"game_id": game_id, "seq": existing.seq}
            )
            if game.status != Game.Status.FINISHED:
                game.status = Game.Status.FINISHED
                game.save(update_fields=["status"])
            return existing
        state, version = snapshots.current(game=game)
        if state.status != "ended":
            return None
        result = engine.result_event(state)
        game.status = Game.Status.FINISHED
        game.save(update_fields=["status"])
        (appended,), _ = _record(game, engine.evolve(state, result), [result], version=version, actor=None)
        # the finished history signed in the transaction that finishes it (eventstore/seals.py)
        seals.seal(Event, game_id)
    logger.info("game scored", extra={"game_id": game_id, "seq": appended.seq})
    return appended


# --- ASTRA and bot seats (played by workers) ---------------------------------------------------


def play_astra(*, game_id: int) -> list[Event]:
    """Append ASTRA's part of the turn, when it is due (it takes its card, checks the end, draws
    the next hand). Idempotent: once played, ASTRA has nothing due and nothing is appended."""
    with transaction.atomic():
        game = store.lock(Game, game_id)
        if game.status != Game.Status.PLAYING:
            return []
        state, version = snapshots.current(game=game)
        new_events, after = engine.astra_advance(state)
        appended, _ = _record(game, after, new_events, version=version, actor=None)
    if appended:
        logger.info(
            "astra played", extra={"game_id": game_id, "seq": appended[-1].seq, "turn": state.turn}
        )
    return appended


def play_bot_turns(*, game_id: int) -> int:
    """Play the turn of every bot seat (and every seat handed to a bot) that has something to
    decide now, each through the same options and commands as a human, its whole turn in one
    transaction. Idempotent: a bot whose decision is to wait plays nothing. Returns the number
    of moves played."""
    seats = dict(Seat.objects.filter(game_id=game_id).values_list("index", "bot"))
    resigned: set[int] = set()
    game = store.row(Game, game_id)
    if game is not None and game.status == Game.Status.PLAYING and not all(seats.values()):
        # a seat is handed to a bot once and for all: read before the locks, it stays true
        state, _ = snapshots.current(game=game)
        resigned = {index for index, seat in enumerate(state.seats) if seat.resigned}
    played = [
        _play_bot_turn(game_id=game_id, seat=index, kind=kind or engine.STAND_IN)
        for index, kind in sorted(seats.items())
        if kind or index in resigned
    ]
    return sum(played)


def _play_bot_turn(*, game_id: int, seat: int, kind: str) -> int:
    with transaction.atomic():
        game = store.lock(Game, game_id)
        if game.status != Game.Status.PLAYING:
            return 0
        played, version = snapshots.current(game=game)
        turn = played.turn
        new_events, played = engine.bots.play_seat(played, seat, kind)
        if not new_events:
            return 0
        appended, _ = _record(game, played, new_events, version=version, actor=None)
    logger.info(
        "bot played", extra={"game_id": game_id, "seat": seat, "turn": turn, "count": len(appended)}
    )
    return len(appended)


# --- deadlines (played by workers) -------------------------------------------------------------


@dataclass(frozen=True)
class Deadline:
    """What a deadline's run did: the events it appended, or how long is left before it
    passes (``early``, in seconds)."""

    events: list[Event]
    early: float = 0.0


def play_deadline(*, game_id: int, version: int, now: datetime | None = None) -> Deadline:
    """Once the deadline of the phase asked at or before event ``version`` has passed, play
    for each seat that has not finished it, as the greedy bot would, and confirm
    (``engine.autopilot``); the third deadline in a row a seat lets pass hands it to the bot.

    Exactly once: the game's row is locked and the log decides. A run for a phase that has
    moved on (an asking event after ``version``), a run delivered again, or one that follows a
    last-moment confirm finds nothing left to play and appends nothing; a run before the
    deadline appends nothing and says how long is left."""
    now = now or timezone.now()
    with transaction.atomic():
        game = store.lock(Game, game_id)
        asked = selectors.last_asked(game_id)
        if game.status != Game.Status.PLAYING or game.turn_seconds is None or asked is None:
            return Deadline(events=[])
        seq, at = asked
        if seq > version:
            return Deadline(events=[])
        left = (at + timedelta(seconds=game.turn_seconds) - now).total_seconds()
        if left > 0:
            return Deadline(events=[], early=left)
        state, last = snapshots.current(game=game)
        bots_seated = set(Seat.objects.filter(game=game).exclude(bot="").values_list("index", flat=True))
        new_events: list[EngineEvent] = []
        for seat in engine.absent_seats(state):
            if seat in bots_seated:
                continue
            played, state = engine.autopilot(state, seat, in_a_row=_timeouts_in_a_row(game_id, seat) + 1)
            new_events += played
        appended, _ = _record(game, state, new_events, version=last, actor=None)
    if appended:
        logger.info("deadline passed", extra={"game_id": game_id, "seq": appended[-1].seq})
    return Deadline(events=appended)


def _timeouts_in_a_row(game_id: int, seat: int) -> int:
    """How many of the seat's deadlines passed since its player last acted (an event of the
    seat appended by its player's own command)."""
    events = Event.objects.filter(game_id=game_id, seat=seat)
    own = events.filter(actor_id__isnull=False).order_by("-seq").values_list("seq", flat=True).first()
    return events.filter(kind="autopilot", seq__gt=own or 0).count()


# --- internals ---------------------------------------------------------------------------------


def _command(*, game_id: int, by: User, command: dict[str, Any] | None) -> CommandResult:
    """A player's command on their seat (None: resigning it)."""
    # within the command path's transaction (eventstore/commands.py): a refusal rolls it all back
    with transaction.atomic(savepoint=False):
        game, seated, head, turn_in_play = snapshots.locked_head(game_id=game_id, user_id=by.pk)
        if seated is None:
            raise lobby.outsider(game)
        seat = seated
        if game.status != Game.Status.PLAYING:
            raise Conflict(
                "game_not_playing",
                "The game is %(status)s, not playing.",
                status=Word(game.status),
            )
        state, version = head.state, head.seq
        if command is None:
            new_events, state = rules_call(engine.resign, state, seat)
        elif state.seats[seat].resigned:
            raise Conflict("seat_resigned", "A bot plays this seat for the rest of the game.")
        else:
            if command["type"] == "undo":
                quotas.check_undo(game_id=game.pk, seat=seat, turn=state.turn)
            new_events, state = rules_call(engine.advance, state, seat, command)
        appended, state = _record(game, state, new_events, version=version, actor=by, head=head)
    return CommandResult(game=game, seat=seat, events=appended, state=state, turn_in_play=turn_in_play)


def _record(
    game: Game,
    state: GameState,
    new_events: list[EngineEvent],
    *,
    version: int,
    actor: User | None,
    head: snapshots.Head | None = None,
) -> tuple[list[Event], GameState]:
    """Append events the engine decided at event ``version``, which led to ``state``; keep the
    snapshot (when ``head``, what a player's command read, says it is due) and the game's
    status up to date, and write what follows them (sent on commit)."""
    appended = store.append(
        Event,
        game,
        new_events,
        version=version,
        actor_id=actor.pk if actor else None,
        schema_problem=engine.schema_problem,
        prev_hash=None if head is None else head.hash,
    )
    if not appended:
        return appended, state
    last = appended[-1].seq
    if head is None or snapshots.due(head, seq=last, state=state):
        snapshots.save(game=game, state=state, seq=last)
    if any(event["kind"] == GAME_ENDED for event in new_events):
        game.status = Game.Status.SCORING
        game.save(update_fields=["status"])
    followups.after_commit(
        stream="game", stream_id=game.pk, version=last, kinds=_follow_ups(game, state, new_events)
    )
    if game.turn_seconds is not None and state.status == "playing" and ASKING.intersection(
        event["kind"] for event in new_events
    ):
        # a phase began: its deadline is work due turn_seconds from now, kept in the outbox
        followups.after_commit(
            stream="game",
            stream_id=game.pk,
            version=last,
            kinds=[followups.DEADLINE],
            due_at=timezone.now() + timedelta(seconds=game.turn_seconds),
        )
    return appended, state


def _follow_ups(game: Game, state: GameState, new_events: list[EngineEvent]) -> list[str]:
    """The kinds of the events appended, and what the state they lead to leaves to workers:
    ASTRA's part of the turn, bot seats to play."""
    kinds = [event["kind"] for event in new_events]
    if engine.astra_due(state):
        kinds.append(followups.ASTRA_DUE)
    if BOTS_ASKED_AFTER.intersection(kinds):
        bot_seats = {*Seat.objects.filter(game=game).exclude(bot="").values_list("index", flat=True)}
        bot_seats |= {index for index, seat in enumerate(state.seats) if seat.resigned}
        if any(engine.options(state, seat).kind != "wait" for seat in bot_seats):
            kinds.append(followups.BOTS_TO_PLAY)
    return kinds


R = TypeVar("R")


def rules_call(function: Callable[..., R], *args: Any, **kwargs: Any) -> R:
    """Call the rules (a game's or a campaign's), turning their refusals into refusals the API
    understands."""
    try:
        return function(*args, **kwargs)
    except engine.OutOfTurn as exc:
        raise Conflict(exc.code, exc.template, **exc.params) from exc
    except engine.RuleViolation as exc:
        raise Invalid(exc.code, exc.template, **exc.params) from exc
