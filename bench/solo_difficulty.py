"""How often the greedy bot beats ASTRA, for each adventure 1-8 and each ASTRA level: a
difficulty table over ``--games`` solo games per cell (200 by default), played through the
rules engine with the same seeds at every level. Each cell is the share of games won (a draw is
not a win), then the greedy bot's mean total and ASTRA's.

    python -m bench.solo_difficulty [--games N] [--adventures 1,2,...]
"""

import argparse

from games.rules.engine import PLAYABLE, simulate

LEVELS = range(1, 9)


def solo_games(*, adventure: int, level: int, games: int) -> tuple[float, float, float]:
    """The greedy bot's share of wins against ASTRA of ``level``, its mean total, ASTRA's: the
    games ``manage.py simulate --astra-level`` plays (the same seeds at every level)."""
    summary = simulate(adventure=adventure, players=1, games=games, bot="greedy", astra_level=level)
    assert summary.astra is not None
    return summary.win_rate, summary.scores.mean, summary.astra.mean


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="solo games per adventure and level")
    parser.add_argument("--adventures", default=",".join(map(str, sorted(PLAYABLE))))
    args = parser.parse_args()
    adventures = [int(number) for number in args.adventures.split(",")]
    print(f"Greedy bot against ASTRA: share of {args.games} solo games won (mean totals: bot / ASTRA)")
    print(f"  {'adventure':<16}" + "".join(f"{'level ' + str(level):>18}" for level in LEVELS))
    for adventure in adventures:
        cells = [solo_games(adventure=adventure, level=level, games=args.games) for level in LEVELS]
        row = "".join(f"{f'{share:4.0%} ({bot:.0f}/{astra:.0f})':>18}" for share, bot, astra in cells)
        print(f"  {PLAYABLE[adventure].name:<16}{row}", flush=True)


if __name__ == "__main__":
    main()
