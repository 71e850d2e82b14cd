"""Replay of a finished 6-player game versus only JSON-decoding its event log."""

import json
import random

from bench.timing import best_of
from games.rules import engine
from games.rules.engine import bots


def main() -> None:
    rng = random.Random(6)
    state, events = bots.play_game(
        adventure=1, bots=[bots.greedy_bot(rng) for _ in range(6)], seed=6
    )
    events.append(engine.result_event(state))
    log = [json.dumps(event) for event in events]

    def decode_only() -> object:
        return [json.loads(line) for line in log]

    def decode_and_replay() -> object:
        return engine.replay(json.loads(line) for line in log)

    decode = best_of(20, decode_only)
    replay = best_of(20, decode_and_replay)
    print(f"finished 6-player game: {len(events)} events, {state.turn} turns")
    print(f"JSON decode only:      {decode * 1000:8.2f} ms")
    print(f"JSON decode + replay:  {replay * 1000:8.2f} ms")
    print(f"replay / decode ratio: {replay / decode:8.1f}x")


if __name__ == "__main__":
    main()
