"""A small best-of-N timer shared by the benchmarks."""

import time
from collections.abc import Callable


def best_of(repeats: int, work: Callable[[], object]) -> float:
    """The fastest of ``repeats`` runs of ``work``, in seconds (the least disturbed run)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def best_cpu_of(repeats: int, work: Callable[[], object]) -> float:
    """The least CPU time of this process (seconds) over ``repeats`` runs of ``work``: the run
    least disturbed by whatever else the machine was doing."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best
