"""Errors the engine raises when a command breaks a rule."""

import json


def N_(template: str) -> str:
    """Marks a template for the catalogs where it is written away from a raise site (a no-op:
    the API translates it when it answers)."""
    return template


class Text:
    """A sentence or a name for people, kept translatable: ``template`` is its English gettext
    msgid with ``%(name)s`` fields, ``params`` their values (numbers, ids and values quoted as
    JSON stay as they are; a param that is itself a Text is translated in turn).
    ``str(text)`` is the English sentence."""

    __slots__ = ("params", "template")

    def __init__(self, template: str, **params: object) -> None:
        self.template = template
        self.params = params

    def __str__(self) -> str:
        return self.template % self.params if self.params else self.template

    def __eq__(self, other: object) -> bool:
        """The same sentence: the same template and params (an option listed twice is equal)."""
        return isinstance(other, Text) and (self.template, self.params) == (other.template, other.params)

    def __hash__(self) -> int:
        return hash(self.template)

    def __repr__(self) -> str:
        return f"Text({self.template!r}, **{self.params!r})"


class RuleViolation(Exception):
    """A command breaks a rule of the game.

    ``code`` is stable and machine-readable; ``detail`` is a sentence a player understands, in
    English. The engine knows no language: the sentence is also kept as its ``template`` (an
    English gettext msgid with ``%(name)s`` fields) and its ``params`` (values already quoted as
    JSON), so that the API can answer it in the reader's language. Every template written at a
    raise site is extracted into the catalogs (see README, "Languages").
    """

    def __init__(self, code: str, template: str, **params: object) -> None:
        self.code = code
        self.template = template
        self.params = params
        self.detail = str(self.text)
        super().__init__(f"{code}: {self.detail}")

    @property
    def text(self) -> Text:
        """The detail, translatable."""
        return Text(self.template, **self.params)


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
