"""Errors the engine raises when a command breaks a rule."""

import json


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


def shown(value: object) -> str:
    """A value as a refusal's detail quotes it: as JSON writes it (a name in double quotes, a
    list in brackets, null), never as Python would, cut short when long."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    if len(text) <= 80:
        return text
    if isinstance(value, str):  # still one JSON string, its end left out
        return json.dumps(value[:60] + "...", ensure_ascii=False)
    return text[:77] + "..."
