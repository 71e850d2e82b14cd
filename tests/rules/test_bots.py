"""The bots: the greedy one plays visibly better than the random one, on every adventure."""

import random
import statistics
from typing import cast

import pytest

from games.rules import engine
from games.rules.adventures import PLAYABLE, rules_for
from games.rules.play import bots
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
    """The greedy bot places a number by the zones of its space. The Battle writes no number
    (its zones ask for no order): its picks name the first space of a planet instead."""
    rules = rules_for(adventure)
    state = start_game(adventure, rules.min_players, seed=1)
    marks = state.sheet_of(0).marks
    picks = cast("list[engine.WriteOption | engine.DrawOption]", rules.choice_options(state, 0))
    picked = {option["space"] for option in picks}
    if adventure == 8:
        assert rules.numbering_zones(marks) == []
        assert picked and picked <= {zone[0] for zone in rules.layout.zone_spaces}
        return
    zoned = {space for zone in rules.numbering_zones(marks) for space in zone}
    assert picked and picked <= zoned
