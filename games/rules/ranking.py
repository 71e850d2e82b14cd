"""Dense ranking, shared by final standings and "most ..." awards."""

from collections.abc import Hashable, Sequence


def dense_ranks(keys: Sequence[Hashable]) -> list[int]:
    """Rank 1 for the best key; equal keys share a rank; the next key takes the next rank.

    Keys must sort best-first in ascending order.
    """
    ordered = sorted(set(keys))  # type: ignore[type-var]
    position = {key: index + 1 for index, key in enumerate(ordered)}
    return [position[key] for key in keys]
