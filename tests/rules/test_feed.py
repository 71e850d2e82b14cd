"""A viewer's feed (``engine.feed``) agrees with ``redact`` at every point of a game: it lists
exactly the events the viewer may read, it only ever grows at its end, and it ends up listing
every event."""

import random

import pytest

from games.rules import engine
from games.rules.adventures import PLAYABLE
from games.rules.engine import GameState
from games.rules.play import bots


@pytest.mark.parametrize("adventure", sorted(PLAYABLE))
def test_the_feed_lists_what_redact_lets_through_and_only_grows_at_its_end(adventure: int) -> None:
    players = 3
    rng = random.Random(f"feed/{adventure}")
    _, events = bots.play_game(
        adventure=adventure, bots=[bots.random_bot(rng) for _ in range(players)], seed=adventure
    )
    placed = [(seq, e["turn"], e["seat"], e["kind"]) for seq, e in enumerate(events, start=1)]
    state = GameState()
    previous: dict[int, list[int]] = {viewer: [] for viewer in range(players)}
    for length, event in enumerate(events, start=1):
        engine.evolve(state, event)
        for viewer in range(players):
            listed = engine.feed(placed[:length], viewer=viewer)
            readable = {
                seq
                for seq, stored in enumerate(events[:length], start=1)
                if engine.redact(stored, state, viewer=viewer) is not None
            }
            assert set(listed) == readable, f"after event {length}, viewer {viewer}"
            assert listed[: len(previous[viewer])] == previous[viewer]
            previous[viewer] = listed
    for viewer in range(players):
        assert sorted(previous[viewer]) == list(range(1, len(events) + 1))
