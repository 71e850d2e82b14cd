"""The content packs this server offers: the shipped ones (``campaigns/packs/``) and the files
or folders named by the CAMPAIGN_PACKS setting, loaded and checked once at start-up
(``CampaignsConfig.ready``): a pack with any problem stops the server with every problem named.

A campaign plays the pack recorded when it was created (a ``Pack`` row, by content hash), never
the file as it is today.
"""

from collections.abc import Iterable
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from campaigns.models import Pack as PackRow
from campaigns.rules import packs
from campaigns.rules.packs import Pack, PackError
from eventstore.errors import Invalid
from games.rules.engine import shown

SHIPPED = Path(__file__).resolve().parent / "packs"
DEFAULT_PACK = "open"
SUFFIXES = (".json", ".yaml", ".yml")

_offered: dict[str, Pack] = {}
_stored: dict[str, Pack] = {}


def pack_files(paths: Iterable[Path]) -> list[Path]:
    """The pack files at these paths: a file itself, or a folder's files with a pack suffix."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(p for p in path.iterdir() if p.suffix in SUFFIXES and p.is_file())
        else:
            found.append(path)
    return found


def load(paths: Iterable[Path]) -> dict[str, Pack]:
    """Every pack at these paths, checked, by id (ImproperlyConfigured naming every problem,
    or two packs with one id)."""
    loaded: dict[str, Pack] = {}
    sources: dict[str, Path] = {}
    for path in pack_files(paths):
        try:
            pack = packs.load(path)
        except PackError as refused:
            raise ImproperlyConfigured(f"campaign content pack {refused}") from refused
        if pack.id in loaded:
            raise ImproperlyConfigured(
                f"campaign content packs {sources[pack.id]} and {path} both have the id {pack.id!r}"
            )
        loaded[pack.id] = pack
        sources[pack.id] = path
    if DEFAULT_PACK not in loaded:
        raise ImproperlyConfigured(f"the default campaign pack {DEFAULT_PACK!r} is missing")
    return loaded


def load_offered() -> None:
    """Load the packs the server offers: the shipped ones and CAMPAIGN_PACKS (at start-up)."""
    extra = [Path(path) for path in settings.CAMPAIGN_PACKS]
    _offered.clear()
    _offered.update(load([SHIPPED, *extra]))


def offered() -> dict[str, Pack]:
    """The packs a campaign can be created with, by id."""
    if not _offered:
        load_offered()
    return dict(_offered)


def get(pack_id: str) -> Pack:
    """An offered pack, or a refusal naming those there are."""
    found = offered().get(pack_id)
    if found is None:
        raise Invalid(
            "unknown_pack",
            "There is no content pack %(pack_id)s; packs: %(value)s.",
            pack_id=shown(pack_id),
            value=shown(sorted(offered())),
        )
    return found


def record(pack: Pack) -> PackRow:
    """The stored copy of an offered pack (made the first time it is used or listed)."""
    row, _ = PackRow.objects.get_or_create(
        content_hash=pack.content_hash,
        defaults={
            "key": pack.id,
            "version": pack.version,
            "title": pack.title,
            "content": pack.content,
        },
    )
    return row


def record_offered() -> None:
    """Store every offered pack, so that the admin lists them before any campaign uses one."""
    for pack in offered().values():
        record(pack)


def stored(row: PackRow) -> Pack:
    """The pack a campaign was created with, from its stored content."""
    found = _stored.get(row.content_hash)
    if found is None:
        found = _stored[row.content_hash] = packs.build(row.content)
    return found

