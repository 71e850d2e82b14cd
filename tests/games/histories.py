"""Finished games stored as the server stores them, made quickly: bots play the game through
the rules engine, and the events are appended through the event store (``append_events``, so
each carries its chained hash) before the game is marked finished and its history signed, as
the scoring task leaves it."""

import random
from collections.abc import Sequence

from django.contrib.auth.models import User

from eventstore import seals, store
from games import snapshots
from games.models import Event, Game, Seat
from games.rules import engine
from games.rules.play import bots


def append_events(
    game: Game, events: Sequence[engine.Event], *, version: int, actor: User | None
) -> list[Event]:
    """Append ``events`` to ``game``'s log after event ``version``, as a command does."""
    actor_id = actor.pk if actor is not None else None
    return store.append(
        Event, game, events, version=version, actor_id=actor_id, schema_problem=engine.schema_problem
    )


def player(name: str) -> User:
    return User.objects.get_or_create(username=name)[0]


def finished_game(
    adventure: int,
    *,
    players: int = 2,
    seed: int = 1,
    names: tuple[str, ...] = (),
    astra_level: int | None = None,
    bot_seats: tuple[int, ...] = (),
) -> Game:
    """A finished game of ``adventure`` with a seat for each name (default ann, ben, cy...);
    the seats of ``bot_seats`` are a greedy bot's; one player plays against ASTRA of
    ``astra_level`` when given."""
    names = names or ("ann", "ben", "cy", "dee", "eve", "fay")[:players]
    users = [None if index in bot_seats else player(name) for index, name in enumerate(names)]
    rng = random.Random(seed)
    state, events = bots.play_game(
        adventure=adventure, bots=[bots.random_bot(rng) for _ in users], seed=seed,
        astra_level=astra_level,
    )
    events.append(engine.result_event(state))
    engine.evolve(state, events[-1])
    creator = next(user for user in users if user is not None)
    game = Game.objects.create(
        adventure=adventure, max_players=players, creator=creator, seed=seed,
        status=Game.Status.FINISHED, astra_level=astra_level,
    )
    Seat.objects.bulk_create(
        Seat(game=game, user=user, bot="" if user is not None else Seat.Bot.GREEDY, index=i)
        for i, user in enumerate(users)
    )
    rows = append_events(game, events, version=0, actor=None)
    snapshots.save(game=game, state=state, seq=rows[-1].seq)
    seals.seal(Event, game.pk)
    return game
