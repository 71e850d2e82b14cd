"""Commands: everything that writes. No HTTP here.

Each game command runs in one transaction (the caller's: eventstore/commands.py for the API):
lock the game row, fold its state from the snapshot and the events after it, ask the rules
engine to decide (which applies each event it decides once), append the events through the
event store (eventstore/store.py), save the snapshot, update the game's status and write what
follows the events in the same transaction, sent on commit (eventstore/followups.py).
"""

import logging
import random
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from django.contrib.auth.models import User
from django.db import transaction

from eventstore import followups, seals, store
from eventstore.errors import Conflict, Invalid
from games import lobby, quotas, snapshots
from games.models import Event, Game, Seat
from games.rules import engine
from games.rules.engine import Event as EngineEvent
from games.rules.engine import GameState, bots

logger = logging.getLogger(__name__)

GAME_ENDED = "game_ended"
RESULT = "result"
# The events after which a bot seat may have something to decide: a turn begins, a sheet asks
# for choices outside the turn (at setup, in phase 5), or phase 6 asks whether to claim.
BOTS_ASKED_AFTER = frozenset({"turn_started", "choices_awaited", "missions_offered"})
DEFAULT_ASTRA_LEVEL = 1
# A bot's whole turn is a few dozen moves at most; past this something is wrong.
MAX_BOT_MOVES = 500


@dataclass(frozen=True)
class CommandResult:
    """What a command appended, and the state the game is in afterwards."""

    game: Game
    seat: int
    events: list[Event]
    state: GameState


# --- lobby -------------------------------------------------------------------------------------


def create_game(
    *, by: User, adventure: int, max_players: int, astra_level: int | None = None, by_campaign: bool = False
) -> Game:
    """Open a game in the lobby with its creator in seat 0. A one-player game is a solo game
    against ASTRA, of ``astra_level`` 1 to 8 (1 when not given); a multiplayer game takes no
    level. Refused past the creator's quota of open lobbies, unless it is a campaign's chapter
    game (``by_campaign``: the campaign was held to the quotas itself)."""
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
            adventure=adventure, max_players=max_players, creator=by, astra_level=astra_level
        )
        Seat.objects.create(game=game, user=by, index=0)
    return game


def join_game(*, game: Game, by: User) -> Seat:
    """Take the next free seat of a game in the lobby."""
    return lobby.join(table=game, by=by, seats=Seat)


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
) -> CommandResult:
    """Deal the game for the seated players. Only its creator may start it, within their
    quota of games started in the last hour (with bots: of bot games).

    A campaign chapter starts its game with a setup (``by_campaign``; it counts towards the
    quotas but is never refused by them): ``missions`` imposes a mission card per letter,
    ``modifiers`` gives each seat its setup modifiers (see ``engine.new_game``).
    """
    with transaction.atomic():
        game = store.lock(Game, game.pk)
        seat, players = lobby.starting(game, by, Seat)
        if not by_campaign:
            quotas.check_starts(by=by, with_bots=game.seats.exclude(bot="").exists())
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
    """Play the turn of every bot seat that has something to decide now, each through the
    same options and commands as a human, its whole turn in one transaction. Idempotent: a
    bot whose decision is to wait plays nothing. Returns the number of moves played."""
    seats = list(
        Seat.objects.filter(game_id=game_id).exclude(bot="").order_by("index").values_list("index", "bot")
    )
    return sum(_play_bot_turn(game_id=game_id, seat=seat, kind=kind) for seat, kind in seats)


def _play_bot_turn(*, game_id: int, seat: int, kind: str) -> int:
    with transaction.atomic():
        game = store.lock(Game, game_id)
        if game.status != Game.Status.PLAYING:
            return 0
        played, version = snapshots.current(game=game)
        turn = played.turn
        new_events: list[EngineEvent] = []
        for _ in range(MAX_BOT_MOVES):
            if played.turn != turn or engine.options(played, seat).kind == "wait":
                break
            # Seeded by the game and the position: a replay of the log plays the same moves.
            rng = random.Random(f"{game.seed}/bot/{seat}/{played.events_applied}")
            command = bots.KINDS[kind](rng)(played, seat)
            decided, played = engine.advance(played, seat, command, in_place=True)
            new_events += decided
        else:
            raise RuntimeError(f"bot seat {seat} of game {game_id} does not finish its turn")
        if not new_events:
            return 0
        appended, _ = _record(game, played, new_events, version=version, actor=None)
    logger.info(
        "bot played", extra={"game_id": game_id, "seat": seat, "turn": turn, "count": len(appended)}
    )
    return len(appended)


# --- internals ---------------------------------------------------------------------------------


def _command(*, game_id: int, by: User, command: dict[str, Any]) -> CommandResult:
    with transaction.atomic():
        game = store.lock(Game, game_id)
        seat = lobby.seat_index(game, by, Seat)
        if game.status != Game.Status.PLAYING:
            raise Conflict("game_not_playing", f"The game is {game.status}, not playing.")
        state, version = snapshots.current(game=game)
        if command["type"] == "undo":
            quotas.check_undo(game_id=game.pk, seat=seat, turn=state.turn)
        new_events, state = rules_call(engine.advance, state, seat, command)
        appended, state = _record(game, state, new_events, version=version, actor=by)
    return CommandResult(game=game, seat=seat, events=appended, state=state)


def _record(
    game: Game, state: GameState, new_events: list[EngineEvent], *, version: int, actor: User | None
) -> tuple[list[Event], GameState]:
    """Append events the engine decided at event ``version``, which led to ``state``; keep the
    snapshot and the game's status up to date, and write what follows them (sent on commit)."""
    appended = store.append(
        Event, game, new_events, version=version, actor_id=actor.pk if actor else None,
        schema_problem=engine.schema_problem,
    )
    if not appended:
        return appended, state
    last = appended[-1].seq
    snapshots.save(game=game, state=state, seq=last)
    if any(event["kind"] == GAME_ENDED for event in new_events):
        game.status = Game.Status.SCORING
        game.save(update_fields=["status"])
    followups.after_commit(
        stream="game", stream_id=game.pk, version=last, kinds=_follow_ups(game, state, new_events)
    )
    return appended, state


def _follow_ups(game: Game, state: GameState, new_events: list[EngineEvent]) -> list[str]:
    """The kinds of the events appended, and what the state they lead to leaves to workers:
    ASTRA's part of the turn, bot seats to play."""
    kinds = [event["kind"] for event in new_events]
    if engine.astra_due(state):
        kinds.append(followups.ASTRA_DUE)
    if BOTS_ASKED_AFTER.intersection(kinds):
        bot_seats = Seat.objects.filter(game=game).exclude(bot="").values_list("index", flat=True)
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
        raise Conflict(exc.code, exc.detail) from exc
    except engine.RuleViolation as exc:
        raise Invalid(exc.code, exc.detail) from exc
