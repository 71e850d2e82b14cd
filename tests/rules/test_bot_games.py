"""Whole games played by bots: 300 games of every playable adventure, 1 to 6 players, fixed
seeds; each ends without an engine error and its events replay to the stored result."""

import random

import pytest

from games.rules import bots, engine
from games.rules.adventures import PLAYABLE

GAMES_PER_PLAYER_COUNT = 50
GREEDY_EVERY = 5  # one seat in five (by seat and game) plays greedy, the others random


def _bots(adventure: int, game: int, players: int) -> list[bots.Bot]:
    rng = random.Random(f"bots/{adventure}/{players}/{game}")
    return [
        bots.greedy_bot(rng) if (game + seat) % GREEDY_EVERY == 0 else bots.random_bot(rng)
        for seat in range(players)
    ]


@pytest.mark.parametrize("players", range(1, 7))
@pytest.mark.parametrize("adventure", sorted(PLAYABLE))
def test_bot_games_end_and_replaying_their_events_gives_the_same_result(
    adventure: int, players: int
) -> None:
    for game in range(GAMES_PER_PLAYER_COUNT):
        seed = 1000 * players + game
        state, events = bots.play_game(
            adventure=adventure, bots=_bots(adventure, game, players), seed=seed
        )

        assert state.status == "ended", seed
        result = engine.result_event(state)
        assert engine.result_event(engine.replay(events)) == result, seed
        scores = result["data"]["scores"]
        assert [s["seat"] for s in scores] == list(range(players))
        assert result["data"]["winners"] == [s["seat"] for s in scores if s["rank"] == 1]
        assert result["data"]["winners"], seed
        reasons = {reason["reason"] for reason in state.end["reasons"]}  # type: ignore[index]
        assert reasons, seed
        if "launch" in reasons:
            launchers = {s["seat"] for s in scores if s["breakdown"]["launched"]}
            assert set(result["data"]["winners"]) <= launchers, seed
        finished = engine.evolve(engine.replay(events), result)
        assert finished.status == "finished"
