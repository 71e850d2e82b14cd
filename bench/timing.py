"""A small best-of-N timer shared by the benchmarks."""

import time
from collections.abc import Callable


def best_of(
    repeats: int, work: Callable[[], object], *, clock: Callable[[], float] = time.perf_counter
) -> float:
    """The least time (seconds, by ``clock``: wall time by default, ``time.process_time`` for
    this process's CPU time) over ``repeats`` runs of ``work``: the least disturbed run."""
    best = float("inf")
    for _ in range(repeats):
        start = clock()
        work()
        best = min(best, clock() - start)
    return best
