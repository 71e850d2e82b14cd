"""The gettext catalogs of every human text the API answers (README, "Languages").

``python -m moon.catalogs`` extracts the English msgids from the sources (refusals' templates at
their raise sites, ``Text``/``N_``/``gettext`` markers), merges them into
locale/<lang>/LC_MESSAGES/django.po (keeping the translations written there, dropping msgids
no source has any more) and compiles each .po to its .mo beside it. The .mo files are committed,
so that serving needs only Django; tests/api/test_languages.py fails on a .mo stale against its
.po and on a msgid with no translation. Pure Python (Babel, a dev dependency): no GNU gettext.
"""

import io
import json
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
LANGUAGES = ("en", "es", "pt", "ja")
TRANSLATED = ("es", "pt", "ja")  # English msgids are English text: en's msgstrs stay empty
SOURCES = ("accounts", "api", "campaigns", "eventstore", "games", "moon")
# Fixed, so that a catalog changes only when a message does (no date, no line numbers).
STAMP = datetime(2026, 11, 26, tzinfo=UTC)
HEADER = "# The human texts of the moon API (README, \"Languages\"): python -m moon.catalogs."

# Where a sentence is written: the English template is argument 2 of a refusal, argument 1 of a
# Text, of the N_ marker and of Django's gettext.
KEYWORDS: dict[str, tuple[int, ...]] = {
    **{
        name: (2,)
        for name in (
            "RuleViolation", "OutOfTurn", "GameError", "Invalid", "Forbidden", "NotFound",
            "Conflict", "TooMany", "Unprocessable",
        )
    },
    "Text": (1,),
    "N_": (1,),
    "gettext": (1,),
    "gettext_lazy": (1,),
}


def _extracted() -> Iterator[tuple[str, str, int, frozenset[str]]]:
    for package in SOURCES:
        for filename, lineno, message, _comments, _context in extract_from_dir(
            ROOT / package,
            method_map=[("**/migrations/**", "ignore"), ("**.py", "python")],
            keywords=KEYWORDS,
            comment_tags=(),
        ):
            if isinstance(message, str) and message.strip():
                flags = frozenset({"python-format"} if "%(" in message else ())
                yield message, f"{package}/{filename}", lineno, flags


DATA = "games/rules/adventures/data"
PACKS = "campaigns/packs"


def _data_texts() -> Iterator[tuple[str, str]]:
    """The texts of the data the API shows people: each adventure's name, each mission's
    condition, each ASTRA opponent's name, and the shipped campaign packs' title and cards'
    titles and stories (a pack imported later is shown as written)."""
    for path in sorted((ROOT / DATA).glob("adventure-*.json")):
        yield str(json.loads(path.read_text())["name"]), f"{DATA}/{path.name}"
    common = json.loads((ROOT / DATA / "common.json").read_text())
    for mission in common["missions"]:
        yield str(mission["text"]), f"{DATA}/common.json"
    for opponent in common["astra"]["opponents"]:
        yield str(opponent["name"]), f"{DATA}/common.json"
    for path in sorted((ROOT / PACKS).glob("*.json")):
        pack = json.loads(path.read_text())
        yield str(pack["title"]), f"{PACKS}/{path.name}"
        for card in pack["cards"]:
            yield str(card["title"]), f"{PACKS}/{path.name}"
            yield str(card["story"]), f"{PACKS}/{path.name}"


def template() -> Catalog:
    """Every msgid the sources mark and the data's texts, with where they are written."""
    catalog = Catalog(project="moon", fuzzy=False, creation_date=STAMP, revision_date=STAMP)
    for message, filename, lineno, flags in _extracted():
        catalog.add(message, locations=[(filename, lineno)], flags=flags)
    for text, filename in _data_texts():
        catalog.add(text, locations=[(filename, 0)])
    return catalog


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / "django.po"


def read(language: str) -> Catalog:
    with po_path(language).open("rb") as po:
        return read_po(po, locale=language)


def compiled(catalog: Catalog) -> bytes:
    """The .mo Django reads, as Babel compiles it."""
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def update() -> None:
    """Merge the sources' msgids into each language's .po and compile its .mo."""
    pot = template()
    for language in LANGUAGES:
        path = po_path(language)
        if path.exists():
            catalog = read(language)
            catalog.update(pot, no_fuzzy_matching=True)
            catalog.obsolete.clear()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=language, project="moon", fuzzy=False)
            catalog.update(pot, no_fuzzy_matching=True)
        catalog.header_comment = HEADER
        catalog.revision_date = STAMP
        catalog.last_translator = catalog.language_team = "moon"
        catalog.msgid_bugs_address = ""
        catalog.version = "1"
        with path.open("wb") as po:
            write_po(po, catalog, width=100, sort_output=True, include_lineno=False)
        path.with_suffix(".mo").write_bytes(compiled(read(language)))


if __name__ == "__main__":
    update()
    sys.stdout.write(f"catalogs updated in {LOCALE}\n")
