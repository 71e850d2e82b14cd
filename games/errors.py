"""The refusal for someone with no seat in a game (the refusals themselves: eventstore.errors)."""

from eventstore.errors import Forbidden, GameError, NotFound


def outsider(*, game_id: int, in_lobby: bool) -> GameError:
    """The refusal for someone with no seat in a game. A game in the lobby is open to anyone who
    has its id (ids are how players invite each other), so there they are told they have no
    seat; a game that has started does not exist for them, so that ids cannot be probed."""
    if in_lobby:
        return Forbidden("not_seated", "You have no seat in this game.")
    return NotFound("not_found", f"There is no game {game_id}.")
