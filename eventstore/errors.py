"""Why a command or a read was refused, in a form the API turns into `{code, detail}`.

Services and selectors raise these; they know nothing about HTTP. The API maps each class to
its status code.
"""


class Word(str):
    """A refusal's param that is an English word for people (a stream's name, a status), not a
    value: the API translates it with the sentence (its msgid is declared in games.i18n)."""


class GameError(Exception):
    """A refused request: `code` is stable for machines, `detail` is a sentence for people.

    `detail` is English; it is also kept as `template` (a gettext msgid with `%(name)s` fields)
    and `params` (values, never translated) so that the API answers it in the reader's language.
    """

    code = "refused"

    def __init__(self, code: str | None = None, detail: str = "", **params: object) -> None:
        self.code = code or self.code
        self.template = detail or self.code.replace("_", " ").capitalize() + "."
        self.params = params
        self.detail = self.template % params if params else self.template
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
    """Not now: the stream is not in the right state, or another command won a race."""

    code = "conflict"


class TooMany(GameError):
    """A quota reached: the caller has done this too often lately (games started in the last
    hour); the same request may succeed later."""

    code = "too_many"


class Unprocessable(GameError):
    """Well-formed, but not a request the server can act on (an idempotency key reused)."""

    code = "unprocessable"
