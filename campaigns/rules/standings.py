"""Who leads a campaign: the captain, the order in which players choose their cards, the
winners. Readings of ``rules/campaign.md`` taken here:

- the captain is the player with the most stars; when several share the most, the captain
  keeps the card if among them, else the lowest seat among them takes it (the rules name only
  the first case);
- players choose their cards "in reverse order of stars": the fewest stars first, and between
  equal tallies the lower seat first;
- the campaign is won by the most stars, then the higher total score over the chapters, then
  shared.
"""

from collections.abc import Sequence


def captain_after(stars: Sequence[int], *, previous: int) -> int:
    """The captain once the tallies are ``stars``."""
    best = max(stars)
    if stars[previous] == best:
        return previous
    return min(seat for seat, tally in enumerate(stars) if tally == best)


def choosing_order(stars: Sequence[int]) -> list[int]:
    """The seats in the order they choose a card: the last in stars first."""
    return sorted(range(len(stars)), key=lambda seat: (stars[seat], seat))


def winners(stars: Sequence[int], totals: Sequence[int]) -> list[int]:
    """The seats that win the campaign: most stars, then the higher total score, else shared."""
    keys = list(zip(stars, totals, strict=True))
    best = max(keys)
    return [seat for seat, key in enumerate(keys) if key == best]
