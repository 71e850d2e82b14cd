"""Users' accounts and API tokens.

Both tables were made by the games app (migrations 0006 and 0010 there) and keep their names:
the models moved, the rows did not (accounts/migrations/0001_initial.py).
"""

from django.conf import settings
from django.db import models
from django.utils import timezone


class Account(models.Model):
    """A user's name as the server compares names: NFKC-normalised and case-folded, so that
    `ann`, `ANN` and the fullwidth `ANN` are one name, on every database (SQLite's own case
    folding is ASCII only). The unique constraint is what holds under concurrent sign-ups."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="account"
    )
    name_key = models.CharField(max_length=600, unique=True)

    class Meta:
        db_table = "games_account"

    def __str__(self) -> str:
        return self.name_key


class ClientToken(models.Model):
    """The API token of one client of a user (an app, a browser tab, a script): every sign-in
    issues a new one, so a client signs out alone. Only the key's SHA-256 digest is stored; the
    key itself is shown once, when it is issued."""

    digest = models.CharField(max_length=64, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="client_tokens"
    )
    created = models.DateTimeField(default=timezone.now)
    # The SHA-256 of the user's password hash when the token was issued: once the password
    # changes (through the API, the admin or `changepassword`), no token issued before holds.
    password_stamp = models.CharField(max_length=64, db_default="")

    class Meta:
        db_table = "games_clienttoken"
        indexes = [models.Index(fields=["user", "created"], name="client_token_user_created")]

    def __str__(self) -> str:
        return f"{self.user} token of {self.created:%Y-%m-%d %H:%M}"


class StreamTicket(models.Model):
    """A one-use pass to open one event stream (``stream`` ``stream_id``: a game's or a
    campaign's) as its user, for browsers' EventSource, which cannot send an Authorization
    header: the ticket goes in the URL instead of a token. Only its SHA-256 digest is stored."""

    digest = models.CharField(max_length=64, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="stream_tickets"
    )
    stream = models.CharField(max_length=20)
    stream_id = models.BigIntegerField()
    expires = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.user} ticket for {self.stream} {self.stream_id}"
