"""Why a command or a read was refused, in a form the API turns into `{code, detail}`.

Services and selectors raise these; they know nothing about HTTP. The API maps each class to
its status code.
"""


class GameError(Exception):
    """A refused request: `code` is stable for machines, `detail` is a sentence for people."""

    code = "refused"

    def __init__(self, code: str | None = None, detail: str = "") -> None:
        self.code = code or self.code
        self.detail = detail or self.code.replace("_", " ").capitalize() + "."
        super().__init__(self.detail)


class Invalid(GameError):
    """The request breaks a rule (an illegal move, a bad setup)."""

    code = "invalid"


class Forbidden(GameError):
    """The caller may not do this (not seated, not the creator)."""

    code = "forbidden"


class NotFound(GameError):
    code = "not_found"


class Conflict(GameError):
    """Not now: the game or the turn is not in the right state, or another command won a race."""

    code = "conflict"


def outsider(*, game_id: int, in_lobby: bool) -> GameError:
    """The refusal for someone with no seat in a game. A game in the lobby is open to anyone who
    has its id (ids are how players invite each other), so there they are told they have no
    seat; a game that has started does not exist for them, so that ids cannot be probed."""
    if in_lobby:
        return Forbidden("not_seated", "You have no seat in this game.")
    return NotFound("not_found", f"There is no game {game_id}.")
