"""Errors the engine raises when a command breaks a rule."""


class RuleViolation(Exception):
    """A command breaks a rule of the game.

    ``code`` is stable and machine-readable; ``detail`` is a sentence a player understands.
    """

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail


class OutOfTurn(RuleViolation):
    """The command is well formed but this is not the moment for it (the seat already
    confirmed, the game is over, there is nothing to undo...)."""
