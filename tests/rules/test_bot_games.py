"""Whole games played by bots, for every playable adventure and 1 to 6 players (2 to 6 for The
Battle, whose one-player game is played against ASTRA), with fixed seeds: each game ends without
an engine error and its events replay to the stored result.

The suite plays ``GAMES_PER_PLAYER_COUNT`` games per adventure and player count (72 games per
adventure by default, 60 for The Battle), enough that, over an adventure's games, every action
of its sheet is
used: the test holds the default to that. (Missions claimed and declined have tests of their
own: bots meet few mission conditions, and in the Journey none.) ``make soak`` plays many more
(``MOON_SOAK_GAMES`` games in all, 10,000 there) with the same checks.
"""

import os
import random
import sys
from collections import Counter

import pytest

from games.rules import engine
from games.rules.adventures import PLAYABLE
from games.rules.common import astra
from games.rules.common.base import Adventure
from games.rules.engine import Event, GameState
from games.rules.play import bots
from games.rules.turn import solo
from moon.progress import print_table, track

MAX_PLAYERS = 6
SOAK_GAMES = int(os.environ.get("MOON_SOAK_GAMES") or 0)
GAMES_PER_PLAYER_COUNT = max(12, SOAK_GAMES // (len(PLAYABLE) * MAX_PLAYERS))


def player_counts(adventure: int) -> range:
    """Every number of players a game of the adventure is dealt for."""
    return range(PLAYABLE[adventure].min_players, MAX_PLAYERS + 1)
GREEDY_EVERY = 5  # one seat in five (by seat and game) plays greedy, the others random


def _bots(adventure: int, game: int, players: int) -> list[bots.Bot]:
    rng = random.Random(f"bots/{adventure}/{players}/{game}")
    return [
        bots.greedy_bot(rng) if (game + seat) % GREEDY_EVERY == 0 else bots.random_bot(rng)
        for seat in range(players)
    ]


def _play(adventure: int, players: int, game: int) -> tuple[GameState, list[Event]]:
    seed = 1000 * players + game
    return bots.play_game(adventure=adventure, bots=_bots(adventure, game, players), seed=seed)


def _check(state: GameState, events: list[Event], players: int) -> None:
    assert state.status == "ended"
    result = engine.result_event(state)
    assert engine.result_event(engine.replay(events)) == result
    scores = result["data"]["scores"]
    assert [s["seat"] for s in scores] == list(range(players))
    assert result["data"]["winners"] == [s["seat"] for s in scores if s["rank"] == 1]
    assert result["data"]["winners"]
    reasons = {reason["reason"] for reason in state.end["reasons"]}  # type: ignore[index]
    assert reasons
    if "launch" in reasons:
        launchers = {s["seat"] for s in scores if s["breakdown"]["launched"]}
        assert set(result["data"]["winners"]) <= launchers
    finished = engine.evolve(engine.replay(events), result)
    assert finished.status == "finished"


@pytest.mark.parametrize("adventure", sorted(PLAYABLE))
def test_bot_games_end_replay_to_their_result_and_use_every_rule_of_the_sheet(adventure: int) -> None:
    used: Counter[str] = Counter()
    rules = PLAYABLE[adventure]
    counts = player_counts(adventure)
    played = [(players, game) for players in counts for game in range(GAMES_PER_PLAYER_COUNT)]
    # `make soak`: a bar (or plain lines) while it plays, a table at the end
    shown = track(played, total=len(played), label=rules.name, unit="games", out=sys.stderr)
    for players, game in shown if SOAK_GAMES else played:
        state, events = _play(adventure, players, game)
        try:
            _check(state, events, players)
        except AssertionError as failure:
            raise AssertionError(f"adventure {adventure}, {players} players, game {game}") from failure
        used.update(_what_was_played(rules, events))

    if SOAK_GAMES:
        title = f"{rules.name}: {len(played)} games"
        print_table(title=title, columns=["exercised", "times"], rows=sorted(used.items()), out=sys.stdout)
    else:
        print(f"\n{rules.name}: {len(played)} games, {dict(sorted(used.items()))}")
    actions = {action for action in rules.steps if f"used:{action}" not in used}
    assert not actions, f"no game used {sorted(actions)}"


def _what_was_played(rules: Adventure, events: list[Event]) -> Counter[str]:
    """What a game exercised: each action used (not skipped), missions claimed, offers
    declined, and the ways it ended (counted for the soak's report)."""
    played: Counter[str] = Counter()
    offered: set[tuple[int, int]] = set()
    claimed: set[tuple[int, int]] = set()
    for event in events:
        kind, data = event["kind"], event["data"]
        if kind == "effect_resolved" and data["outcome"] not in ("skipped", "no_effect", "lost"):
            played[f"used:{rules.step_action(data['effect'])}"] += 1
        elif kind == "missions_offered":
            offered.update((event["turn"], int(seat)) for seat in data["offers"])
        elif kind == "mission_claimed":
            played["mission_claimed"] += 1
            claimed.add((event["turn"], event["seat"]))  # type: ignore[arg-type]
        elif kind == "game_ended":
            played.update(f"end:{reason['reason']}" for reason in data["reasons"])
    played["mission_declined"] = len(offered - claimed)
    return played


# The adventures one player plays against ASTRA (The Battle's solo mode comes with its ASTRA).
SOLO = [number for number, rules in sorted(PLAYABLE.items()) if rules.players_problem(1) is None]


@pytest.mark.parametrize("adventure", SOLO)
def test_solo_bot_games_against_every_astra_level_replay_to_their_result(adventure: int) -> None:
    """A random and a greedy player against each of the 8 ASTRA levels: every game ends (the
    deck ends it at the latest, after 35 turns), replays to its stored result, and the result
    names ASTRA's total by its pile (its track in adventure 1) and the winner by the totals."""
    for level in range(1, 9):
        for kind in ("random", "greedy"):
            rng = random.Random(f"solo/{adventure}/{level}/{kind}")
            state, events = bots.play_game(
                adventure=adventure, bots=[bots.KINDS[kind](rng)], seed=level, astra_level=level
            )
            where = f"adventure {adventure}, level {level}, {kind}"
            assert state.status == "ended" and state.turn <= 35, where
            result = engine.result_event(state)
            assert engine.result_event(engine.replay(events)) == result, where
            data = result["data"]
            assert data["astra"] == solo.astra_score(state)
            if adventure != 1:
                foe = astra.opponent(level)
                assert state.astra is not None
                assert data["astra"]["total"] == astra.astra_score(adventure, level, state.astra.pile).total
                assert sum(state.astra.pile.values()) + len(state.astra.removed) == state.turn
                assert foe.name == state.astra.name
                player, theirs = data["scores"][0]["total"], data["astra"]["total"]
                expected: list[int | str] = (
                    [0] if player > theirs else ["astra"] if player < theirs else [0, "astra"]
                )
                assert data["winners"] == expected, where
