"""Commands on users and their API tokens: registering, signing in and out. No HTTP here."""

import functools
import hashlib
import re
import secrets
import unicodedata
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from accounts.models import Account, ClientToken, StreamTicket
from eventstore import store
from eventstore.errors import Conflict, Invalid
from moon import prepared


def name_key(username: str) -> str:
    """The form in which two usernames are compared: NFKC, case-folded (folding can undo the
    normalisation, hence NFKC again)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", username).casefold())


def register_user(*, username: str, password: str) -> tuple[User, str]:
    """Create a user and their API token. A name that differs from a taken one only by case or
    Unicode form is taken. The name is checked as it is stored, NFKC-normalised; the password
    must pass the configured validators (length, common passwords, all digits, too close to
    the username)."""
    username = normalized_username(username)
    try:
        validate_password(password, user=User(username=username))
    except DjangoValidationError as exc:
        raise Invalid("weak_password", " ".join(exc.messages)) from exc
    key = name_key(username)
    taken = Conflict(
        "username_taken",
        'The username "%(username)s" is already taken.',
        username=username,
    )
    with transaction.atomic():
        # users made outside registration (the admin's createsuperuser) have no key: their
        # names are compared as the database compares them
        if (
            Account.objects.filter(name_key=key).exists()
            or User.objects.filter(username__iexact=username).exists()
        ):
            raise taken
        try:
            with transaction.atomic():
                user = User.objects.create_user(username=username, password=password)
                Account.objects.create(user=user, name_key=key)
        except IntegrityError as exc:
            raise taken from exc
    return user, issue_token(user=user)


USERNAME_MAX_LENGTH = User._meta.get_field("username").max_length or 150
USERNAME_CHARACTERS = re.compile(r"^[\w.@+-]+\Z")
# The longest a name's key may be: NFKC after case folding can lengthen a name again.
NAME_KEY_MAX_LENGTH = Account._meta.get_field("name_key").max_length or 600


def normalized_username(username: str) -> str:
    """The username as it is stored, NFKC-normalised, once it is a name a user may have:
    1 to 150 letters, digits and @ . + - _ *after* normalisation, which can lengthen a name
    (one character U+FDFA becomes 18) or bring in a space."""
    normalized = User.normalize_username(username)
    if not 1 <= len(normalized) <= USERNAME_MAX_LENGTH or len(name_key(normalized)) > NAME_KEY_MAX_LENGTH:
        raise Invalid(
            "invalid_username",
            "A username is 1 to %(username_max_length)s characters long once normalised (NFKC); this one "
            "has %(normalized)s.",
            username_max_length=USERNAME_MAX_LENGTH,
            normalized=len(normalized),
        )
    if not USERNAME_CHARACTERS.match(normalized):
        raise Invalid(
            "invalid_username",
            "A username holds letters, digits and @ . + - _ only, once normalised (NFKC).",
        )
    return normalized


def sign_in(*, username: str, password: str) -> str:
    """A new API token for the user with that name (in any case or Unicode form) and password:
    each sign-in is a client of its own, which signs out alone."""
    account = Account.objects.filter(name_key=name_key(username)).select_related("user").first()
    user = authenticate(
        username=account.user.get_username() if account else username, password=password
    )
    if not isinstance(user, User):
        raise Invalid("invalid_credentials", "Unknown username or wrong password.")
    return issue_token(user=user)


def token_digest(key: str) -> str:
    """What is stored of a token: its SHA-256, so that the table does not hold usable keys."""
    return hashlib.sha256(key.encode()).hexdigest()


def password_stamp(user: User) -> str:
    """What a token keeps of its user's password: the SHA-256 of its hash (no secret of its
    own, so that rotating SECRET_KEY signs no one out), which changes with the password."""
    return hashlib.sha256(user.password.encode()).hexdigest()


def issue_token(*, user: User) -> str:
    """A new client token for the user. Their expired tokens and those issued before the
    password changed are dropped, and beyond MAX_CLIENT_TOKENS the oldest are revoked, so that
    signing in again and again keeps no growing pile of live keys."""
    key = secrets.token_hex(20)
    stamp = password_stamp(user)
    with transaction.atomic():
        mine = ClientToken.objects.filter(user=user)
        mine.exclude(password_stamp=stamp).delete()
        days = settings.TOKEN_LIFETIME_DAYS
        if days:
            mine.filter(created__lt=timezone.now() - timedelta(days=days)).delete()
        ClientToken.objects.create(user=user, digest=token_digest(key), password_stamp=stamp)
        kept = mine.order_by("-created", "-pk").values_list("pk", flat=True)[: settings.MAX_CLIENT_TOKENS]
        mine.exclude(pk__in=list(kept)).delete()
    return key


def authenticate_token(*, key: str) -> ClientToken | None:
    """The client token with that key, with its user; None when there is none, or when it was
    issued before its user's password last changed (a changed password signs every client
    out)."""
    # Every authenticated request runs this: one query written out, the token and its user
    # together (the ORM's SQL compiler cost more than the database's lookup), prepared.
    with prepared.cursor() as cursor:
        cursor.execute(_token_query(), [token_digest(key)])
        found = cursor.fetchone()
    if found is None:
        return None
    token = store.from_row(ClientToken, found)
    token.user = store.from_row(User, found[len(ClientToken._meta.concrete_fields) :])
    if not constant_time_compare(token.password_stamp, password_stamp(token.user)):
        return None
    return token


@functools.cache
def _token_query() -> str:
    """The token's lookup with its user, written once."""
    return (
        f"SELECT {store.columns(ClientToken, 't')}, {store.columns(User, 'u')} "
        f"FROM {ClientToken._meta.db_table} t JOIN {User._meta.db_table} u ON u.id = t.user_id "
        "WHERE t.digest = %s"
    )


def token_expired(*, token: ClientToken) -> bool:
    """Whether the token is older than TOKEN_LIFETIME_DAYS (0: tokens never expire)."""
    days = settings.TOKEN_LIFETIME_DAYS
    return bool(days) and timezone.now() - token.created > timedelta(days=days)


def sign_out(*, token: ClientToken) -> None:
    """Revoke the token in use: it authenticates no one from now on. The user's other clients
    stay signed in."""
    ClientToken.objects.filter(pk=token.pk).delete()


def sign_out_everywhere(*, user: User) -> int:
    """Revoke every token of the user, the one in use included: every client must sign in
    again. Returns how many were revoked."""
    revoked, _ = ClientToken.objects.filter(user=user).delete()
    return revoked



def issue_stream_ticket(*, user: User, stream: str, stream_id: int) -> tuple[str, datetime]:
    """A one-use ticket opening the stream of ``stream`` ``stream_id`` as ``user``, and when
    it expires (STREAM_TICKET_SECONDS from now). Expired tickets are dropped on the way."""
    key = secrets.token_urlsafe(24)
    now = timezone.now()
    expires = now + timedelta(seconds=settings.STREAM_TICKET_SECONDS)
    StreamTicket.objects.filter(expires__lt=now).delete()
    StreamTicket.objects.create(
        digest=token_digest(key), user=user, stream=stream, stream_id=stream_id, expires=expires
    )
    return key, expires


def redeem_stream_ticket(*, ticket: str, stream: str, stream_id: int) -> User | None:
    """The user a ticket for that stream was issued to, once: the ticket is used up (also by
    an answer refused later). None for an unknown, used, expired or other stream's ticket."""
    with transaction.atomic():
        found = (
            StreamTicket.objects.select_for_update()
            .select_related("user")
            .filter(digest=token_digest(ticket))
            .first()
        )
        if found is None:
            return None
        # Deleted by its primary key: of two requests racing with one ticket, one deletes it.
        if StreamTicket.objects.filter(pk=found.pk).delete()[0] != 1:
            return None
    usable = found.stream == stream and found.stream_id == stream_id and found.expires > timezone.now()
    return found.user if usable and found.user.is_active else None
