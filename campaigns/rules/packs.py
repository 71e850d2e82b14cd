"""Content packs: a campaign's content as data (``rules/campaign.md``, "Content packs").

A pack is a JSON or YAML file::

    id: open                 # letters, digits, - _ .
    version: "1"
    title: ...
    description: ...         # optional
    stars: {"1": [1], "3": [2, 1], ...}   # optional: stars by final rank, per chapter 1-8
    cards:
      - id: open-1-supply-drop
        title: ...
        story: ...           # the short story text read when the card is offered
        after: 1             # offered at the end of this chapter (1-7)
        chooser: each        # each: every player, the last in stars first; captain: the group
        applies_to: chooser  # chooser, all (every player) or opponent (named by the chooser)
        when: next           # next (chapter), rest (of the campaign) or a later chapter's number
        effects: [{kind: bonus_points, points: 3}]   # see campaigns.rules.effects

Without ``stars`` a pack uses the product's table (the star pictograms of the sheets, in
``data/common.json``). ``problems`` lists everything wrong with a pack, each problem naming the
card and the field; ``parse`` refuses a pack with any (``PackError``). A stored pack (the content
a campaign recorded when it was created) is rebuilt with ``build``, unchecked: it was checked
when it was loaded, and a later change of the rules or of the file must not change it.
"""

import hashlib
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, TypeGuard

import yaml

from campaigns.rules import effects
from campaigns.rules.state import RULES_VERSION
from games.rules.engine import data

FIRST_CHAPTER = 1
LAST_CHAPTER = 8
CHAPTERS = range(FIRST_CHAPTER, LAST_CHAPTER + 1)
CHOOSERS = ("each", "captain")
TARGETS = ("chooser", "all", "opponent")
WHENS = ("next", "rest")
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
MAX_TEXT = 2000
# The most a pack file may weigh (the shipped pack is about 12 kB), checked before it is parsed.
MAX_PACK_BYTES = 1_000_000
# Rules version 2 drafts personal cards: one more than the players, up to six of them.
MOST_PLAYERS = 6
PACK_FIELDS = {"id", "version", "title", "description", "stars", "cards"}
CARD_FIELDS = {"id", "title", "story", "after", "chooser", "applies_to", "when", "effects"}


def default_stars() -> dict[int, tuple[int, ...]]:
    """The product's table: the star pictograms printed on each sheet, read as rank -> stars."""
    table = data.common()["campaign"]["sheet_star_pictograms"]
    return {
        int(chapter): tuple(ranks.get(place, 0) for place in ("1st", "2nd", "3rd"))
        for chapter, ranks in table.items()
    }


def reach(after: int, when: str | int) -> tuple[int, ...]:
    """The chapters a card offered after chapter ``after`` applies to."""
    if when == "next":
        return (after + 1,)
    if when == "rest":
        return tuple(range(after + 1, LAST_CHAPTER + 1))
    return (int(when),)


@dataclass(frozen=True)
class Card:
    id: str
    title: str
    story: str
    after: int
    chooser: str
    applies_to: str
    when: str | int
    effects: tuple[dict[str, Any], ...]

    @property
    def chapters(self) -> tuple[int, ...]:
        """The chapters it applies to."""
        return reach(self.after, self.when)

    def reaches(self, chapter: int) -> bool:
        return chapter in self.chapters

    def applies(self, *, solo: bool) -> bool:
        """Whether the card can be offered in a campaign: one of its effects can apply there,
        and in a solo campaign it needs no opponent."""
        if solo and self.applies_to == "opponent":
            return False
        return any(effects.applies(effect, solo=solo) for effect in self.effects)

    def as_dict(self) -> dict[str, Any]:
        return {
            "card": self.id,
            "title": self.title,
            "story": self.story,
            "after": self.after,
            "chooser": self.chooser,
            "applies_to": self.applies_to,
            "chapters": list(self.chapters),
            "effects": [dict(effect) for effect in self.effects],
        }


@dataclass(frozen=True)
class Pack:
    id: str
    version: str
    title: str
    description: str
    stars: Mapping[int, tuple[int, ...]]
    cards: tuple[Card, ...]
    content_hash: str
    # the content as read (its hash is ``content_hash``), kept to store the pack as it was
    content: Mapping[str, Any] = field(repr=False, compare=False)

    @cached_property
    def _by_id(self) -> dict[str, Card]:
        return {card.id: card for card in self.cards}

    def card(self, card_id: str) -> Card:
        return self._by_id[card_id]

    def has_card(self, card_id: Any) -> bool:
        return isinstance(card_id, str) and card_id in self._by_id

    def offered_after(self, chapter: int, *, solo: bool) -> tuple[list[Card], list[Card]]:
        """The cards offered at the end of a chapter, in the pack's order: the group's (the
        captain chooses) and each player's."""
        offered = [card for card in self.cards if card.after == chapter and card.applies(solo=solo)]
        return (
            [card for card in offered if card.chooser == "captain"],
            [card for card in offered if card.chooser == "each"],
        )

    def stars_for(self, chapter: int, rank: int) -> int:
        """The stars of a final rank in a chapter (0 past the table)."""
        table = self.stars[chapter]
        return table[rank - 1] if 1 <= rank <= len(table) else 0


@dataclass(frozen=True)
class Problem:
    """What is wrong in a pack: the card (None for the pack's own fields) and the field."""

    card: str | None
    field: str
    message: str

    def __str__(self) -> str:
        if self.card is None and not self.field:  # the file itself
            return self.message
        if self.card is None:
            return f"pack field {self.field!r}: {self.message}"
        return f"card {self.card!r}, field {self.field!r}: {self.message}"


class PackError(ValueError):
    """A pack refused, with every problem found."""

    def __init__(self, problems: list[Problem], *, source: str = "pack") -> None:
        self.problems = problems
        self.source = source
        lines = "\n".join(f"  - {problem}" for problem in problems)
        super().__init__(f"{source} is refused ({len(problems)} problem(s)):\n{lines}")


# --- reading and checking ------------------------------------------------------------------


def content_hash(raw: Any) -> str:
    """sha256 of the pack's content as canonical JSON: the same content, the same hash."""
    canonical = json.dumps(raw, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


class _NoAliasLoader(yaml.SafeLoader):
    """YAML without aliases: a pack repeats nothing by reference, and an alias of an alias...
    (the "billion laughs") would have the loader build gigabytes from a few hundred bytes."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            alias = self.peek_event()  # type: ignore[no-untyped-call]
            why = f"the alias *{alias.anchor} is refused: a pack uses no YAML aliases"
            raise yaml.composer.ComposerError(None, None, why, alias.start_mark)
        return super().compose_node(parent, index)


def read(path: Path) -> Any:
    """The content of a pack file, JSON or YAML by its suffix (PackError when unreadable, when
    larger than MAX_PACK_BYTES, when its YAML uses an alias, or when it nests too deep)."""

    def refused(why: str) -> PackError:
        return PackError([Problem(None, "", why)], source=str(path))

    try:
        with path.open("rb") as file:
            raw = file.read(MAX_PACK_BYTES + 1)
    except OSError as exc:
        raise refused(f"cannot be read: {exc}") from exc
    if len(raw) > MAX_PACK_BYTES:
        raise refused(f"is larger than {MAX_PACK_BYTES:,} bytes, the most a pack may be")
    try:
        text = raw.decode("utf-8")
        if path.suffix in (".yaml", ".yml"):
            return yaml.load(text, Loader=_NoAliasLoader)  # a SafeLoader, aliases refused
        return json.loads(text)
    except RecursionError as exc:
        raise refused("cannot be read: it nests too deep") from exc
    except (UnicodeDecodeError, ValueError, yaml.YAMLError) as exc:
        raise refused(f"cannot be read: {exc}") from exc


def load(path: Path) -> Pack:
    """The pack in a file, checked."""
    return parse(read(path), source=str(path))


def parse(raw: Any, *, source: str = "pack", rules_version: int = RULES_VERSION) -> Pack:
    """A pack from its content, checked for campaigns of ``rules_version`` (new campaigns'
    by default): PackError listing every problem."""
    found = problems(raw, rules_version=rules_version)
    if found:
        raise PackError(found, source=source)
    return build(raw)


def build(raw: Mapping[str, Any]) -> Pack:
    """A pack from content that was checked when it was loaded."""
    stars = raw.get("stars")
    return Pack(
        id=raw["id"],
        version=raw["version"],
        title=raw["title"],
        description=raw.get("description", ""),
        stars=default_stars() if stars is None else {int(k): tuple(v) for k, v in stars.items()},
        cards=tuple(
            Card(
                id=card["id"],
                title=card["title"],
                story=card["story"],
                after=card["after"],
                chooser=card["chooser"],
                applies_to=card["applies_to"],
                when=card["when"],
                effects=tuple(card["effects"]),
            )
            for card in raw["cards"]
        ),
        content_hash=content_hash(raw),
        content=raw,
    )


def problems(raw: Any, *, rules_version: int = RULES_VERSION) -> list[Problem]:
    """Everything wrong with a pack's content for campaigns of ``rules_version`` (empty: the
    pack is valid)."""
    if not isinstance(raw, dict):
        return [Problem(None, "", "a pack is an object with id, version, title and cards")]
    found = [
        Problem(None, name, f"a pack takes no field {name!r}; it takes {sorted(PACK_FIELDS)}")
        for name in sorted(set(raw) - PACK_FIELDS, key=str)
    ]
    if not isinstance(raw.get("id"), str) or not NAME.match(raw["id"]):
        found.append(Problem(None, "id", "a pack's id is 1-64 letters, digits, '.', '-' or '_'"))
    for name in ("version", "title"):
        if not _text(raw.get(name)):
            found.append(Problem(None, name, f"a pack's {name} is a non-empty string"))
    if "description" in raw and not isinstance(raw["description"], str):
        found.append(Problem(None, "description", "a pack's description is a string"))
    if raw.get("stars") is not None:
        found += _stars_problems(raw["stars"])
    cards = raw.get("cards")
    if not isinstance(cards, list) or not cards:
        return [*found, Problem(None, "cards", "a pack has a non-empty list of cards")]
    seen: set[str] = set()
    for index, card in enumerate(cards):
        given = card.get("id") if isinstance(card, dict) else None
        label = given if isinstance(given, str) else f"#{index}"
        if label in seen:
            found.append(Problem(label, "id", f"another card of the pack has the id {label!r}"))
        seen.add(label)
        found += [Problem(label, name, message) for name, message in _card_problems(card)]
    if not found:
        found += rules_problems(build(raw), rules_version=rules_version)
    return found


def rules_problems(pack: Pack, *, rules_version: int) -> list[Problem]:
    """What rules version 2 asks of a pack as a whole (``campaign.md``, "Version 2"): a card
    the captain chooses serves the group (applies to every player), and after every chapter
    the personal cards are enough for a draft of six players (seven) and, in solo, of one
    (two). Version 1 asks nothing more of a pack."""
    if rules_version < 2:
        return []
    found = [
        Problem(
            card.id,
            "applies_to",
            f"a card the captain chooses serves the group: it applies to 'all', not "
            f"{card.applies_to!r} (rules version 2)",
        )
        for card in pack.cards
        if card.chooser == "captain" and card.applies_to != "all"
    ]
    for chapter in range(FIRST_CHAPTER, LAST_CHAPTER):
        for solo, players in ((False, MOST_PLAYERS), (True, 1)):
            personal = pack.offered_after(chapter, solo=solo)[1]
            if len(personal) <= players:
                table = "a solo campaign" if solo else f"{players} players"
                found.append(
                    Problem(
                        None,
                        "cards",
                        f"after chapter {chapter} the pack offers {len(personal)} personal card(s) "
                        f"(chooser 'each') that can apply to {table}: the draft needs one more "
                        f"than the players, {players + 1} (rules version 2)",
                    )
                )
    return found


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip()) and len(value) <= MAX_TEXT


def _stars_problems(stars: Any) -> list[Problem]:
    if not isinstance(stars, dict) or {str(key) for key in stars} != {str(c) for c in CHAPTERS}:
        return [Problem(None, "stars", "stars give a list of stars by rank for each chapter 1 to 8")]
    return [
        Problem(None, f"stars.{key}", "stars by rank are a list of whole numbers 0 or more")
        for key, ranks in stars.items()
        if not isinstance(ranks, list)
        or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in ranks)
    ]


def _card_problems(card: Any) -> Iterator[tuple[str, str]]:
    if not isinstance(card, dict):
        yield "", "a card is an object"
        return
    for name in sorted(set(card) - CARD_FIELDS, key=str):
        yield name, f"a card takes no field {name!r}; it takes {sorted(CARD_FIELDS)}"
    for name in sorted(CARD_FIELDS - set(card)):
        yield name, "missing"
    if not isinstance(card.get("id"), str) or not NAME.match(card["id"]):
        yield "id", "a card's id is 1-64 letters, digits, '.', '-' or '_'"
    for name in ("title", "story"):
        if name in card and not _text(card[name]):
            yield name, f"a non-empty string of at most {MAX_TEXT} characters"
    if "chooser" in card and card["chooser"] not in CHOOSERS:
        yield "chooser", f"{card['chooser']!r} is not one of {list(CHOOSERS)}"
    if "applies_to" in card and card["applies_to"] not in TARGETS:
        yield "applies_to", f"{card['applies_to']!r} is not one of {list(TARGETS)}"
    after = card.get("after")
    chapters: tuple[int, ...] = ()
    if "after" in card:
        if not _chapter(after):
            yield "after", f"chapter {after!r} is outside 1-8"
        elif after == LAST_CHAPTER:
            yield "after", "the campaign ends with chapter 8: no chapter follows it for a card"
        elif "when" in card:
            problem = _when_problem(after, card["when"])
            if problem is not None:
                yield "when", problem
            else:
                chapters = reach(after, card["when"])
    cards_effects = card.get("effects")
    if "effects" in card and (not isinstance(cards_effects, list) or not cards_effects):
        yield "effects", "a card has a non-empty list of effects"
    elif isinstance(cards_effects, list) and chapters:
        for index, effect in enumerate(cards_effects):
            for name, message in effects.problems(effect, chapters=chapters):
                yield f"effects[{index}]" + (f".{name}" if name else ""), message


def _chapter(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value in CHAPTERS


def _when_problem(after: int, when: Any) -> str | None:
    if when in WHENS:
        return None
    if not isinstance(when, int) or isinstance(when, bool):
        return f"when is 'next', 'rest' or a chapter's number, not {when!r}"
    if not _chapter(when):
        return f"chapter {when} is outside 1-8"
    if when <= after:
        return f"chapter {when} does not come after chapter {after}, when the card is offered"
    return None
