"""The greedy bot plays as it did when ``tests/fixtures/greedy_logs.json`` was written: the same
seeds give the same logs (their SHA-256), every adventure, 3 and 4 players and solo against
ASTRA (the 4-player logs recorded before the bot rescored only the parts an option marks). Its
speed-ups (scoring options by effect, caches, rescoring parts) must never change a choice; a
deliberate change of its play rewrites the file: ``python -m tests.rules.test_greedy_logs``."""

import hashlib
import json
import random
from pathlib import Path

import pytest

from games.rules.adventures import PLAYABLE
from games.rules.play import bots

RECORDED = Path(__file__).parent.parent / "fixtures" / "greedy_logs.json"
GAMES = [(adventure, players) for adventure in sorted(PLAYABLE) for players in (1, 3, 4)]
SEED = 31
ASTRA_LEVEL = 3


def log_digest(adventure: int, players: int) -> str:
    """The SHA-256 of the events of a game of greedy bots (solo: against ASTRA), as JSON."""
    rng = random.Random(f"greedy/{adventure}/{players}")
    _, events = bots.play_game(
        adventure=adventure,
        bots=[bots.greedy_bot(rng) for _ in range(players)],
        seed=SEED,
        astra_level=ASTRA_LEVEL if players == 1 else None,
    )
    return hashlib.sha256(json.dumps(events, sort_keys=True).encode()).hexdigest()


def key(adventure: int, players: int) -> str:
    return f"adventure {adventure}, {players}p"


@pytest.mark.parametrize(("adventure", "players"), GAMES, ids=[key(*game) for game in GAMES])
def test_the_greedy_bot_plays_the_recorded_game(adventure: int, players: int) -> None:
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))
    assert log_digest(adventure, players) == recorded[key(adventure, players)]


if __name__ == "__main__":
    RECORDED.write_text(
        json.dumps({key(*game): log_digest(*game) for game in GAMES}, indent=2) + "\n", encoding="utf-8"
    )
