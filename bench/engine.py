"""The rules engine's figures of issue 26, each with its floor or goal, from one run:

- replay alone ÷ JSON decode of the same log, a finished 6-player game of every adventure
  (and a loop that only touches each decoded event, the least a replay can cost);
- random-bot games per CPU second, 4 players and solo against ASTRA, every adventure;
- greedy-bot games per CPU second, 4 players, every adventure.

    python -m bench.engine [--games N] [--greedy-games N] [--repeat N]
                           [--figures replay,random,solo,greedy] [--adventures 6,8]
"""

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

from bench.timing import best_of
from games.rules import engine
from games.rules.engine import PLAYABLE, bots

REPLAY_GOAL = 0.2
RANDOM_GOAL = 150.0
GREEDY_GOAL = 20.0
PLAYERS = 4
ASTRA_LEVEL = 1
FIGURES = ("replay", "random", "solo", "greedy")


def replay_ratio(adventure: int, *, repeat: int) -> tuple[int, float, float, float]:
    """A finished 6-player game of ``adventure`` (greedy bots) as JSON lines: its event count,
    the best JSON decode time, the best replay time of the decoded events, and the best time of
    a loop that only reads each decoded event's kind. CPU times of this process, the three
    measured in turn in each of ``repeat`` runs, so that a busy machine slows all alike."""
    rng = random.Random(6)
    state, events = bots.play_game(adventure=adventure, bots=[bots.greedy_bot(rng) for _ in range(6)], seed=6)
    events.append(engine.result_event(state))
    log = [json.dumps(event) for event in events]
    expected = engine.snapshots.dump(engine.evolve(state, events[-1]))

    def decode() -> list[Any]:
        return [json.loads(line) for line in log]

    clock = time.process_time
    decode_time = replay_time = touch_time = float("inf")
    for _ in range(repeat):
        started = clock()
        decoded = decode()  # each run replays events fresh from JSON, as a request does
        decode_time = min(decode_time, clock() - started)
        started = clock()
        replayed = engine.replay(decoded)
        replay_time = min(replay_time, clock() - started)
        started = clock()
        kinds = 0
        for event in decoded:
            kinds += len(event["kind"])
        touch_time = min(touch_time, clock() - started)
    if engine.snapshots.dump(replayed) != expected:
        raise AssertionError(f"adventure {adventure}: the replay differs from the game played")
    return len(events), decode_time, replay_time, touch_time


def games_per_cpu_second(
    *,
    adventure: int,
    make: Callable[[random.Random], bots.Bot],
    players: int,
    games: int,
    repeat: int,
    astra_level: int | None = None,
) -> float:
    """Games of ``make``'s bots per CPU second of this process (one core: the loop is serial),
    the best of ``repeat`` runs of the same games."""

    def play() -> None:
        for game in range(games):
            rng = random.Random(game)
            bots.play_game(
                adventure=adventure,
                bots=[make(rng) for _ in range(players)],
                seed=game,
                astra_level=astra_level,
            )

    return games / best_of(repeat, play, clock=time.process_time)


def mark(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60, help="random-bot games per adventure")
    parser.add_argument("--greedy-games", type=int, default=6, help="greedy-bot games per adventure")
    parser.add_argument("--repeat", type=int, default=3, help="runs of the same work; the best counts")
    parser.add_argument(
        "--figures",
        type=lambda text: text.split(","),
        default=list(FIGURES),
        help=f"the figures to measure, comma-separated, of {','.join(FIGURES)} (default: all)",
    )
    parser.add_argument(
        "--adventures",
        type=lambda text: [int(number) for number in text.split(",")],
        default=sorted(PLAYABLE),
        help="the adventures to measure, by number, comma-separated (default: all)",
    )
    args = parser.parse_args()
    unknown = set(args.figures) - set(FIGURES)
    if unknown:
        parser.error(f"unknown figures {sorted(unknown)}: choose among {', '.join(FIGURES)}")
    adventures = [(number, PLAYABLE[number]) for number in args.adventures]

    if "replay" in args.figures:
        replay_figures(adventures, repeat=max(20, args.repeat))
    if {"random", "solo", "greedy"} & set(args.figures):
        self_play_figures(adventures, figures=args.figures, args=args)


def replay_figures(adventures: list[tuple[int, Any]], *, repeat: int) -> None:
    print(f"Replay alone / JSON decode, finished 6-player game (goal <= {REPLAY_GOAL}):")
    print(f"  {'adventure':<22} {'events':>6} {'decode ms':>10} {'replay ms':>10} "
          f"{'ratio':>6} {'touch only':>10}")  # fmt: skip
    for number, rules in adventures:
        count, decode, replay, touch = replay_ratio(number, repeat=repeat)
        ratio = replay / decode
        label = f"{number} {rules.name}"
        print(f"  {label:<22} {count:6d} {decode * 1000:10.2f} {replay * 1000:10.2f} "
              f"{ratio:6.2f} {touch / decode:10.2f}  {mark(ratio <= REPLAY_GOAL)}")  # fmt: skip


def self_play_figures(
    adventures: list[tuple[int, Any]], *, figures: list[str], args: argparse.Namespace
) -> None:
    print(f"Self-play, games per CPU second of one core (goals: random >= {RANDOM_GOAL:.0f}, "
          f"greedy >= {GREEDY_GOAL:.0f}):")  # fmt: skip
    print(f"  {'adventure':<22} {'random 4p':>10} {'random solo':>12} {'greedy 4p':>10}")
    for number, rules in adventures:
        common = {"adventure": number, "repeat": args.repeat}
        four = solo = greedy = None
        if "random" in figures:
            four = games_per_cpu_second(make=bots.random_bot, players=PLAYERS, games=args.games, **common)
        if "solo" in figures:
            solo = games_per_cpu_second(
                make=bots.random_bot, players=1, games=args.games, astra_level=ASTRA_LEVEL, **common
            )
        if "greedy" in figures:
            greedy = games_per_cpu_second(
                make=bots.greedy_bot, players=PLAYERS, games=args.greedy_games, **common
            )
        ok = all(
            figure is None or figure >= goal
            for figure, goal in ((four, RANDOM_GOAL), (solo, RANDOM_GOAL), (greedy, GREEDY_GOAL))
        )
        print(f"  {f'{number} {rules.name}':<22} {shown(four, 10)} {shown(solo, 12)} {shown(greedy, 10)}  "
              f"{mark(ok)}")  # fmt: skip


def shown(figure: float | None, width: int) -> str:
    """A figure right-aligned in ``width`` characters, or a dash when it was not measured."""
    return f"{'-':>{width}}" if figure is None else f"{figure:{width}.1f}"


if __name__ == "__main__":
    main()
