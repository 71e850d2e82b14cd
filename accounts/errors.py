"""Why a sign-up or a sign-in was refused, in a form the API turns into `{code, detail}`, as it
does games' refusals (games/errors.py, which this app sits below)."""


class AccountError(Exception):
    """A refused request: `code` is stable for machines, `detail` is a sentence for people."""

    def __init__(self, code: str, detail: str) -> None:
        self.code = code
        self.detail = detail
        super().__init__(detail)


class Invalid(AccountError):
    """Unknown credentials, or a password the validators refuse."""


class Conflict(AccountError):
    """The name is taken, maybe by a sign-up that won a race."""
