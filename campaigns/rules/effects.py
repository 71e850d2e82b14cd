"""What a campaign card can do: the effect vocabulary of ``rules/campaign.md``, each kind written
once here and parameterised by the card's data.

- ``start_marks`` ``{adventure, marks: [{element, mark}]}``: marks already on the holder's sheet
  when the chapter playing that adventure is set up (chapter N plays adventure N);
- ``bonus_points`` ``{points}``: a separate ``campaign`` line of the chapter's score (may be
  negative);
- ``system_errors`` ``{delta}``: the holder's sheet has that many fewer usable System Error
  boxes. The engine strikes boxes from the printed row (``games.rules.common.modifiers``); a sheet
  cannot have boxes it does not print, so a delta is negative. Several cards on one sheet add
  up, and never strike more boxes than the engine allows (at least one box stays usable);
- ``mission_choice`` ``{letters}``: for each letter, the holder (the captain for a card applying
  to every player) chooses that mission card of the chapter instead of a random draw;
- ``astra_level`` ``{delta}``: solo only, ASTRA's level for the chapter changes (bounded 1-8);
  a card is offered only where one of its effects can apply (``applies``);
- ``star_goal`` ``{predicate, stars}``: extra stars at the end of the chapter when the holder's
  result meets the predicate (``PREDICATES``).

``problems`` checks an effect against the chapters its card reaches: a field the kind does not
take, an element that is not on the sheet of the adventure a chapter plays (read from the
engine's rules once that adventure is playable, from its data file before), a value out of
range. Each problem names the field of the effect it is about.
"""

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeGuard

from campaigns.rules.events import SeatResult
from games.rules.engine import LETTERS, PLAYABLE, RuleViolation, Text, data, shown

Effect = dict[str, Any]
# (the field of the effect, what is wrong with it)
Problem = tuple[str, str]

MAX_BONUS_POINTS = 100
MAX_STARS = 12
MAX_LEVEL_DELTA = 7


def _whole(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


# --- star goals ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Predicate:
    """A condition on one seat's chapter result: its parameter and the range it takes."""

    parameter: str
    low: int
    high: int | None
    holds: Callable[[SeatResult, Any], bool]


PREDICATES: dict[str, Predicate] = {
    "missions_accomplished": Predicate(
        "count", 1, len(LETTERS), lambda result, count: len(result["missions"]) >= count
    ),
    "score_at_least": Predicate("points", -200, None, lambda result, points: result["total"] >= points),
    "rank_at_most": Predicate("rank", 1, 6, lambda result, rank: result["rank"] <= rank),
    "system_errors_at_most": Predicate(
        "count", 0, 9, lambda result, count: result["system_errors"] <= count
    ),
}
# Accomplishing one named mission: its letter instead of a number.
MISSION_PREDICATE = "mission_accomplished"


def goal_met(predicate: dict[str, Any], result: SeatResult) -> bool:
    """Whether a (validated) star goal's predicate holds for a seat's chapter result."""
    kind = predicate["kind"]
    if kind == MISSION_PREDICATE:
        return predicate["letter"] in result["missions"]
    spec = PREDICATES[kind]
    return spec.holds(result, predicate[spec.parameter])


def _predicate_problems(predicate: Any) -> Iterator[Problem]:
    known = sorted([*PREDICATES, MISSION_PREDICATE])
    if not isinstance(predicate, dict) or not isinstance(predicate.get("kind"), str):
        yield "predicate", f"a predicate is an object with a kind, one of {known}"
        return
    kind = predicate["kind"]
    if kind == MISSION_PREDICATE:
        yield from _unknown_fields(predicate, {"kind", "letter"}, "predicate")
        if predicate.get("letter") not in LETTERS:
            yield "predicate.letter", f"{predicate.get('letter')!r} is not a mission letter {list(LETTERS)}"
        return
    spec = PREDICATES.get(kind)
    if spec is None:
        yield "predicate.kind", f"unknown predicate {kind!r}; known: {known}"
        return
    yield from _unknown_fields(predicate, {"kind", spec.parameter}, "predicate")
    value = predicate.get(spec.parameter)
    if not _in_range(value, spec.low, spec.high):
        bound = f"from {spec.low}" + (f" to {spec.high}" if spec.high is not None else "")
        yield f"predicate.{spec.parameter}", f"{kind} needs a whole {spec.parameter} {bound}, not {value!r}"


def _in_range(value: Any, low: int, high: int | None) -> TypeGuard[int]:
    return _whole(value) and low <= value and (high is None or value <= high)


def _unknown_fields(effect: dict[str, Any], allowed: set[str], prefix: str = "") -> Iterator[Problem]:
    for name in sorted(set(effect) - allowed, key=str):
        field = f"{prefix}.{name}" if prefix else str(name)
        yield field, f"{effect.get('kind')!r} takes no field {name!r}; it takes {sorted(allowed)}"


# --- the sheets of the adventures ----------------------------------------------------------


@cache
def _data_ids(adventure: int) -> frozenset[str]:
    """Every id the data file of an adventure names on its sheet (spaces, elements, tracks)."""
    raw = data.adventure(adventure)
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("id"), str):
                found.add(node["id"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for section in ("spaces", "elements", "tracks"):
        walk(raw.get(section))
    return frozenset(found)


def _on_sheet(adventure: int, element: str) -> bool:
    """Whether a setup mark can name ``element``: by the engine's rules of the adventure once it
    is playable, by the ids its data file names before."""
    rules = PLAYABLE.get(adventure)
    if rules is None:
        return element in _data_ids(adventure)
    return element in rules.layout.spaces or element in rules.layout.markable


def adventure_name(adventure: int) -> str:
    return str(data.adventure(adventure)["name"])


def _sheet(adventure: int) -> str:
    return f"adventure {adventure}'s sheet ({adventure_name(adventure)})"


# --- the kinds -----------------------------------------------------------------------------


def _start_marks(effect: Effect, chapters: Sequence[int]) -> Iterator[Problem]:
    adventure = effect.get("adventure")
    if not _in_range(adventure, 1, 8):
        yield "adventure", f"start_marks names the adventure of its sheet, 1 to 8, not {adventure!r}"
        return
    if adventure not in chapters:
        yield "adventure", (
            f"adventure {adventure} is played in chapter {adventure}, which this card never "
            f"reaches (it applies to chapters {list(chapters)})"
        )
    marks = effect.get("marks")
    if not isinstance(marks, list) or not marks:
        yield "marks", "start_marks needs a non-empty list of {element, mark}"
        return
    found = list(_mark_problems(marks, adventure))
    yield from found
    rules = PLAYABLE.get(adventure)
    if rules is not None and not found:
        # what only the whole set of marks can break (the Journey's energies in order...)
        try:
            rules.validate_modifiers([{"kind": "start_marks", "marks": marks}])
        except RuleViolation as refused:
            yield "marks", f"{refused.detail} ({_sheet(adventure)})"


def _mark_problems(marks: list[Any], adventure: int) -> Iterator[Problem]:
    """Each starting mark on its own: an element of the sheet, a mark it can take (the
    engine's own check once the adventure is playable)."""
    rules = PLAYABLE.get(adventure)
    for index, entry in enumerate(marks):
        where = f"marks[{index}]"
        if not isinstance(entry, dict) or set(entry) != {"element", "mark"}:
            yield where, "a starting mark is an object {element, mark}"
            continue
        element, mark = entry["element"], entry["mark"]
        if not isinstance(element, str) or not _on_sheet(adventure, element):
            yield f"{where}.element", f"{element!r} is not an element of {_sheet(adventure)}"
            continue
        if rules is not None:
            refused = rules.mark_problem(element, mark)
            problem = None if refused is None else refused.detail
        else:
            problem = None if isinstance(mark, str) else "a starting mark is a word (circle, cross, X...)"
        if problem is not None:
            yield f"{where}.mark", f"{problem} ({_sheet(adventure)})"


def _bonus_points(effect: Effect, chapters: Sequence[int]) -> Iterator[Problem]:
    points = effect.get("points")
    if not _in_range(points, -MAX_BONUS_POINTS, MAX_BONUS_POINTS) or points == 0:
        bound = MAX_BONUS_POINTS
        yield "points", f"bonus_points needs whole points from -{bound} to {bound}, not 0 ({points!r})"


def _system_errors(effect: Effect, chapters: Sequence[int]) -> Iterator[Problem]:
    delta = effect.get("delta")
    if not _whole(delta) or delta >= 0:
        yield "delta", f"system_errors strikes boxes: a negative whole delta, not {delta!r}"
        return
    for chapter in chapters:
        rules = PLAYABLE.get(chapter)
        if rules is None:
            continue
        try:
            rules.validate_modifiers([{"kind": "system_errors", "delta": delta}])
        except RuleViolation as refused:
            yield "delta", f"{refused.detail} ({_sheet(chapter)}, chapter {chapter})"


def _mission_choice(effect: Effect, chapters: Sequence[int]) -> Iterator[Problem]:
    letters = effect.get("letters")
    if (
        not isinstance(letters, list)
        or not letters
        or not all(letter in LETTERS for letter in letters)
        or len(set(letters)) != len(letters)
    ):
        yield "letters", f"mission_choice names distinct letters among {list(LETTERS)}, not {letters!r}"


def _astra_level(effect: Effect, chapters: Sequence[int]) -> Iterator[Problem]:
    delta = effect.get("delta")
    if not _in_range(delta, -MAX_LEVEL_DELTA, MAX_LEVEL_DELTA) or delta == 0:
        bound = MAX_LEVEL_DELTA
        yield "delta", f"astra_level changes the level by a whole delta, -{bound} to {bound}, not {delta!r}"


def _star_goal(effect: Effect, chapters: Sequence[int]) -> Iterator[Problem]:
    stars = effect.get("stars")
    if not _in_range(stars, 1, MAX_STARS):
        yield "stars", f"star_goal gives 1 to {MAX_STARS} stars, not {stars!r}"
    yield from _predicate_problems(effect.get("predicate"))


@dataclass(frozen=True)
class Kind:
    """One effect kind: the fields it takes and how they are checked."""

    fields: frozenset[str]
    check: Callable[[Effect, Sequence[int]], Iterator[Problem]]


KINDS: dict[str, Kind] = {
    "start_marks": Kind(frozenset({"adventure", "marks"}), _start_marks),
    "bonus_points": Kind(frozenset({"points"}), _bonus_points),
    "system_errors": Kind(frozenset({"delta"}), _system_errors),
    "mission_choice": Kind(frozenset({"letters"}), _mission_choice),
    "astra_level": Kind(frozenset({"delta"}), _astra_level),
    "star_goal": Kind(frozenset({"predicate", "stars"}), _star_goal),
}
SOLO_ONLY = frozenset({"astra_level"})


def problems(effect: Any, *, chapters: Sequence[int]) -> list[Problem]:
    """Every way ``effect`` is wrong for a card reaching ``chapters``; empty when it is right."""
    if not isinstance(effect, dict):
        return [("", "an effect is an object with a kind")]
    kind = KINDS.get(effect["kind"]) if isinstance(effect.get("kind"), str) else None
    if kind is None:
        return [("kind", f"unknown effect kind {effect.get('kind')!r}; known: {sorted(KINDS)}")]
    found = list(_unknown_fields(effect, {"kind", *kind.fields}))
    return found + list(kind.check(effect, chapters))


def applies(effect: Effect, *, solo: bool) -> bool:
    """Whether the effect can apply in a campaign: ASTRA's level only in a solo one."""
    return solo or effect["kind"] not in SOLO_ONLY


def modifier(effect: Effect, *, adventure: int) -> dict[str, Any] | None:
    """The engine's setup modifier for an effect on a sheet of ``adventure`` (None when the
    effect changes nothing there: it is not a setup effect, or its marks are for another sheet)."""
    kind = effect["kind"]
    if kind == "start_marks":
        return {"kind": kind, "marks": effect["marks"]} if effect["adventure"] == adventure else None
    if kind == "bonus_points":
        return {"kind": kind, "points": effect["points"]}
    if kind == "system_errors":
        return {"kind": kind, "delta": effect["delta"]}
    return None


# --- in words ------------------------------------------------------------------------------


def _predicate_words(predicate: dict[str, Any]) -> Text:
    kind = predicate["kind"]
    if kind == MISSION_PREDICATE:
        return Text("mission %(letter)s is accomplished", letter=predicate["letter"])
    if kind == "missions_accomplished":
        return Text("at least %(count)s mission(s) are accomplished", count=predicate["count"])
    if kind == "score_at_least":
        return Text("the chapter's score is at least %(points)s", points=predicate["points"])
    if kind == "rank_at_most":
        rank = predicate["rank"]
        if rank == 1:
            return Text("the chapter is won")
        return Text("the chapter ends at rank %(rank)s or better", rank=rank)
    return Text("at most %(count)s System Error box(es) are marked", count=predicate["count"])


def _mark_words(mark: dict[str, Any]) -> Text:
    if mark["mark"] == "circle":
        return Text("%(element)s circled", element=mark["element"])
    if mark["mark"] == "cross":
        return Text("%(element)s crossed", element=mark["element"])
    return Text("%(element)s marked %(mark)s", element=mark["element"], mark=shown(mark["mark"]))


def _listed_words(words: list[Text]) -> Text:
    """Words one after the other, as one Text (its separator translated too)."""
    first, *rest = words
    return first if not rest else Text("%(first)s, %(rest)s", first=first, rest=_listed_words(rest))


def describe(effect: Effect) -> Text:
    """A (validated) effect in words, as a player reads it on the card: an English template
    and its params, translated where the API answers (games.i18n)."""
    kind = effect["kind"]
    if kind == "start_marks":
        adventure = effect["adventure"]
        return Text(
            "Adventure %(adventure)s's sheet (%(name)s) starts with %(marks)s.",
            adventure=adventure,
            name=Text(adventure_name(adventure)),
            marks=_listed_words([_mark_words(mark) for mark in effect["marks"]]),
        )
    if kind == "bonus_points":
        return Text(
            "%(points)s points on the campaign line of the chapter's score.", points=f"{effect['points']:+d}"
        )
    if kind == "system_errors":
        count = -effect["delta"]
        if count > 1:
            return Text("%(count)s usable System Error boxes fewer on the sheet.", count=count)
        return Text("%(count)s usable System Error box fewer on the sheet.", count=count)
    if kind == "mission_choice":
        return Text(
            "Mission card(s) %(letters)s chosen instead of drawn at random.",
            letters=", ".join(effect["letters"]),
        )
    if kind == "astra_level":
        delta = f"{effect['delta']:+d}"
        return Text("ASTRA's level %(delta)s for the chapter (bounded 1 to 8).", delta=delta)
    stars, goal = effect["stars"], _predicate_words(effect["predicate"])
    if stars > 1:
        return Text("%(stars)s more stars if %(goal)s.", stars=stars, goal=goal)
    return Text("%(stars)s more star if %(goal)s.", stars=stars, goal=goal)


def mission_card(card: int) -> dict[str, Any]:
    """A mission card as a choice shows it: its condition in words and its values (the first
    accomplishment's and the later ones')."""
    raw = next(entry for entry in data.common()["missions"] if entry["card"] == card)
    return {
        "condition": str(raw["text"]),
        "first": int(raw["first"] or 0),
        "later": int(raw["later"] or 0),
    }
