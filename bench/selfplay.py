"""Bot self-play through the rules engine: games per second per core (CPU time of this process),
4 players, for every playable adventure, with random and with greedy bots. The same games are
played ``--repeat`` times and the least disturbed run counts.

    python -m bench.selfplay [--games N] [--greedy-games N] [--repeat N]
"""

import argparse
import random
import time

from bench.timing import best_of
from games.rules.engine import PLAYABLE, bots

PLAYERS = 4


def games_per_cpu_second(*, adventure: int, bot: str, games: int, repeat: int = 1) -> float:
    """Games of ``bot`` seats per CPU second of this process (so per core: the loop is serial),
    the best of ``repeat`` runs of the same games."""
    make = bots.random_bot if bot == "random" else bots.greedy_bot

    def play() -> None:
        for game in range(games):
            rng = random.Random(game)
            bots.play_game(adventure=adventure, bots=[make(rng) for _ in range(PLAYERS)], seed=game)

    return games / best_of(repeat, play, clock=time.process_time)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="random-bot games per adventure")
    parser.add_argument("--greedy-games", type=int, default=20, help="greedy-bot games per adventure")
    parser.add_argument("--repeat", type=int, default=3, help="runs of the same games; the best counts")
    args = parser.parse_args()
    print(f"Self-play, {PLAYERS} players, games per CPU second (one core):")
    print(f"  {'adventure':<22} {'random':>9} {'greedy':>9} {'random/greedy':>14}")
    for number, rules in sorted(PLAYABLE.items()):
        rand = games_per_cpu_second(
            adventure=number, bot="random", games=args.games, repeat=args.repeat
        )
        greedy = games_per_cpu_second(
            adventure=number, bot="greedy", games=args.greedy_games, repeat=args.repeat
        )
        label = f"{number} {rules.name}"
        print(f"  {label:<22} {rand:9.1f} {greedy:9.2f} {rand / greedy:13.1f}x")


if __name__ == "__main__":
    main()
