"""Refusals particular to campaigns (the classes are the games' own: the API maps them)."""

from eventstore.errors import Forbidden, NotFound


def outsider(*, campaign_id: int, in_lobby: bool) -> NotFound | Forbidden:
    """The refusal for someone with no seat in a campaign. In the lobby they are told so (ids
    are how players invite each other); a started campaign does not exist for them, so that ids
    cannot be probed."""
    if in_lobby:
        return Forbidden("not_seated", "You have no seat in this campaign.")
    return NotFound("not_found", f"There is no campaign {campaign_id}.")
