"""The bots: the greedy one plays visibly better than the random one, on every adventure."""

import random
import statistics

import pytest

from games.rules import bots, engine
from games.rules.adventures import PLAYABLE, rules_for
from tests.rules.playing import start_game

GAMES = 8


def _mean_score(adventure: int, make: object) -> float:
    totals = []
    for game in range(GAMES):
        rng = random.Random(game)
        players = [make(rng) for _ in range(2)]  # type: ignore[operator]
        state, _ = bots.play_game(adventure=adventure, bots=players, seed=500 + game)
        totals += [s["total"] for s in engine.result_event(state)["data"]["scores"]]
    return statistics.fmean(totals)


@pytest.mark.parametrize("adventure", sorted(PLAYABLE))
def test_the_greedy_bot_outscores_the_random_bot(adventure: int) -> None:
    assert _mean_score(adventure, bots.greedy_bot) > _mean_score(adventure, bots.random_bot)


@pytest.mark.parametrize("adventure", sorted(PLAYABLE))
def test_every_numbering_space_is_in_a_numbering_zone_at_the_start(adventure: int) -> None:
    state = start_game(adventure, 1, seed=1)
    rules = rules_for(adventure)
    zoned = {space for zone in rules.numbering_zones(state.sheets[0].marks) for space in zone}
    writes = {
        option["space"]
        for option in rules.choice_options(state, 0)
        if option.get("action") == "write"
    }
    assert writes and writes <= zoned
