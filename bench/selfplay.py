"""Bot self-play games per second through the rules engine, for 1 and 6 players."""

import random
import time

from games.rules import bots


def games_per_second(*, players: int, bot: str, games: int) -> float:
    make = bots.random_bot if bot == "random" else bots.greedy_bot
    start = time.perf_counter()
    for game in range(games):
        rng = random.Random(game)
        bots.play_game(adventure=1, bots=[make(rng) for _ in range(players)], seed=game)
    return games / (time.perf_counter() - start)


def main() -> None:
    print("Adventure 1 self-play, games per second (one run, same machine):")
    rates = {}
    for bot, games in (("random", 40), ("greedy", 10)):
        for players in (1, 6):
            rates[bot, players] = games_per_second(players=players, bot=bot, games=games)
            print(f"  {bot:6} bots, {players} player(s): {rates[bot, players]:7.2f} games/s")
    print(f"  random 1 / random 6 ratio: {rates['random', 1] / rates['random', 6]:.1f}x")
    print(f"  random / greedy ratio (6 players): {rates['random', 6] / rates['greedy', 6]:.1f}x")


if __name__ == "__main__":
    main()
