"""Ids in paths: plain ASCII digits in canonical form, in range, or they name nothing."""

from eventstore.errors import NotFound
from games.rules.engine import Text, shown

MAX_ID = 2**63 - 1


def path_id(raw: str, *, what: str, code: str = "not_found") -> int:
    """An id from a path: plain ASCII digits in canonical form (no sign, no leading zero), in
    range; anything else names nothing (404)."""
    plain = raw.isascii() and raw.isdigit() and (raw == "0" or not raw.startswith("0"))
    if not plain or len(raw) > len(str(MAX_ID)) or int(raw) > MAX_ID:
        raise NotFound(
            code,
            "There is no %(what)s %(raw)s.",
            what=Text(what),
            raw=shown(raw),
        )
    return int(raw)
