"""What adventure 1's rules give a reader beside the marks: a score and what a sheet draws."""

from typing import TypedDict


class LaunchScore(TypedDict):
    """Adventure 1's score: rockets launched decide before points (see ``rank_keys``)."""

    rockets: int  # column rockets filled
    column_value: int  # the points those rockets are worth
    errors_circled: int
    errors_uncrossed: int
    error_penalty: int  # negative
    tiebreak_rockets: int
    launched: bool
    campaign: int
    total: int


class LaunchDerived(TypedDict):
    complete_quarters: list[str]
    open_arrows: list[str]
