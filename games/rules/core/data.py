"""Loading of the rules data files shipped beside the engine."""

import json
from functools import cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).parents[1] / "adventures" / "data"

ADVENTURE_FILES = {
    1: "adventure-1-launch.json",
    2: "adventure-2-journey.json",
    3: "adventure-3-colony.json",
    4: "adventure-4-mine.json",
    5: "adventure-5-dome.json",
    6: "adventure-6-virus.json",
    7: "adventure-7-escape.json",
    8: "adventure-8-battle.json",
}


@cache
def common() -> dict[str, Any]:
    """The shared data: starship cards, mission index, ASTRA opponents."""
    return _load("common.json")


@cache
def adventure(number: int) -> dict[str, Any]:
    """The sheet layout and rule data of one adventure."""
    return _load(ADVENTURE_FILES[number])


def _load(name: str) -> dict[str, Any]:
    with open(DATA_DIR / name, encoding="utf-8") as handle:
        loaded: dict[str, Any] = json.load(handle)
    return loaded
