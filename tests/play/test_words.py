"""The web table's own words (play/static/play/i18n/*.json): every phrase the modules ask for by
name is in English, and each language has every phrase English has (no more)."""

import json
import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "play" / "static" / "play"
ASKED = re.compile(r"""\bt\(\s*["']([a-z0-9_]+)["']""")


def words(code: str) -> dict[str, str]:
    return dict(json.loads((STATIC / "i18n" / f"{code}.json").read_text()))


def test_every_phrase_a_module_asks_for_is_in_english() -> None:
    asked = {key for module in STATIC.glob("*.js") for key in ASKED.findall(module.read_text())}
    assert asked, "the modules ask for phrases by name"
    assert asked - words("en").keys() == set()


@pytest.mark.parametrize("code", ["es", "pt", "ja"])
def test_each_language_has_the_english_phrases(code: str) -> None:
    english, other = words("en"), words(code)
    assert other.keys() == english.keys()
    for key, text in english.items():  # the same {placeholders}
        assert set(re.findall(r"\{\w+\}", other[key])) == set(re.findall(r"\{\w+\}", text)), key
