"""The 2-byte codes event rows store their kind and version as, and the names they stand for.

An event row stores its kind and the version of the kind's schema as one small integer, a code
of the table ``eventstore_eventkind`` (code, kind, version): a few bytes where the name took a
dozen and the version two more. The database owns the codes: a pair is given the next code the
first time an event of it is stored, and keeps it for ever (the table is append-only, as the
events are). Everything above the rows still sees names: the ORM's ``kind`` is a ``KindName``
(a ``str`` carrying its ``version``), filters take names (``filter(kind="confirmed")``), and
the plain SQL that reads rows maps codes back with ``pair``.

Each process keeps the pairs it met, both ways. A code another process assigned is read from the
table when first met. A pair's code is only kept once the transaction that read or assigned it
has committed: a rolled-back assignment must not leave a code that no row of the table gives.
"""

from typing import Any

from django.db import connection, transaction

TABLE = "eventstore_eventkind"
# The version stored for an event kept before versions existed (its row's version was null,
# read as 1 by the rules): its own code, so that it reads back as it was stored.
UNVERSIONED = 0


class KindName(str):
    """An event's kind as its row stores it: the name, with the ``version`` of the kind's schema
    the event was stored with (None for an event stored before versions existed). Equal to and
    hashed as its name."""

    version: int | None

    def __new__(cls, name: str, version: int | None = None) -> "KindName":
        made = super().__new__(cls, name)
        made.version = version
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        return KindName, (str(self), self.version)


def version_of(kind: str) -> int | None:
    """The version a kind read from a row (a ``KindName``) was stored with; None for a plain
    name."""
    return getattr(kind, "version", None)


# (kind, version stored) -> code, and code -> KindName or (kind, version): the pairs this
# process met, committed.
_codes: dict[tuple[str, int], int] = {}
_names: dict[int, KindName] = {}
_pairs: dict[int, tuple[str, int | None]] = {}


class Met:
    """A pair met in a transaction not yet committed: the callback (``on_commit``) that keeps
    it once the transaction commits."""

    def __init__(self, code: int, name: KindName) -> None:
        self.code, self.name = code, name

    def __call__(self) -> None:
        _keep(self.code, self.name)


def _keep(code: int, name: KindName) -> None:
    _names[code] = name
    _pairs[code] = (str(name), name.version)
    _codes[(str(name), _stored_version(name.version))] = code


def _stored_version(version: int | None) -> int:
    return UNVERSIONED if version is None else version


def _pending() -> list[Met]:
    """The pairs met in the current transaction (dropped with a savepoint rolled back, as the
    callbacks Django keeps for the commit are)."""
    return [entry[1] for entry in connection.run_on_commit if isinstance(entry[1], Met)]


def _met(code: int, name: KindName) -> None:
    if connection.in_atomic_block:
        transaction.on_commit(Met(code, name))
    else:
        _keep(code, name)


def code(kind: str, version: int | None) -> int:
    """The code of ``kind`` at ``version`` (None: stored before versions existed), given the
    next one in the table when no event of the pair was stored yet."""
    key = (str(kind), _stored_version(version))
    found = _codes.get(key)
    if found is not None:
        return found
    for met in _pending():
        if (str(met.name), _stored_version(met.name.version)) == key:
            return met.code
    select = f"SELECT code FROM {TABLE} WHERE kind = %s AND version = %s"
    with connection.cursor() as cursor:
        cursor.execute(select, list(key))
        row = cursor.fetchone()
        if row is None:
            # Another process may assign it at the same moment: the unique (kind, version)
            # keeps one, and the second insert waits for the first to commit, then does nothing.
            cursor.execute(
                f"INSERT INTO {TABLE} (kind, version) VALUES (%s, %s) ON CONFLICT DO NOTHING", list(key)
            )
            cursor.execute(select, list(key))
            row = cursor.fetchone()
    assert row is not None, f"no code for {key}"
    _met(int(row[0]), KindName(kind, version))
    return int(row[0])


def named(code: int) -> KindName:
    """The kind and version the code stands for."""
    found = _names.get(code)
    if found is not None:
        return found
    for met in _pending():
        if met.code == code:
            return met.name
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT kind, version FROM {TABLE} WHERE code = %s", [code])
        row = cursor.fetchone()
    if row is None:
        raise LookupError(f"no event kind has the code {code}")
    kind, version = row
    name = KindName(kind, None if version == UNVERSIONED else int(version))
    _met(code, name)
    return name


def pair(code: int) -> tuple[str, int | None]:
    """The kind (a plain ``str``) and version the code stands for: how the plain SQL that reads
    event rows maps their code."""
    found = _pairs.get(code)
    if found is not None:
        return found
    name = named(code)
    return str(name), name.version


def codes_sql(column: str, names: int) -> str:
    """SQL: ``column`` holds the code of one of ``names`` kinds (any version), given as
    parameters."""
    marks = ", ".join(["%s"] * names)
    return f"{column} IN (SELECT code FROM {TABLE} WHERE kind IN ({marks}))"


def forget(**_: Any) -> None:
    """Forget every pair met: the table was emptied (a test's flush), or built again."""
    _codes.clear()
    _names.clear()
    _pairs.clear()
