"""Dense ranking, shared by final standings and "most ..." awards."""

from collections.abc import Hashable, Sequence


def dense_ranks(keys: Sequence[Hashable]) -> list[int]:
    """Rank 1 for the best key; equal keys share a rank; the next key takes the next rank.

    Keys must sort best-first in ascending order.
    """
    ordered = sorted(set(keys))  # type: ignore[type-var]
    position = {key: index + 1 for index, key in enumerate(ordered)}
    return [position[key] for key in keys]


def rank_awards(counts: Sequence[int], awards: Sequence[int], *, zero_scores: bool) -> list[int]:
    """The points each player earns in a "most ..." award (e.g. 20/10/5).

    The highest count is first; tied players all take the points of the position they tie
    for and the next count takes the next position's points (dense ranking). Positions past
    the printed awards earn nothing, and neither does a count of 0 unless ``zero_scores``.
    """
    ranks = dense_ranks([-count for count in counts])
    return [
        awards[rank - 1] if rank <= len(awards) and (count > 0 or zero_scores) else 0
        for count, rank in zip(counts, ranks, strict=True)
    ]

