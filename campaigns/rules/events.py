"""The kinds a campaign's log holds, each with the declared schema of its data and a version.

A campaign event is ``{"kind", "v", "seat", "data"}``: ``seat`` is the seat whose choice it
records (None for what the campaign does by itself). Stored events are never reinterpreted: a
kind whose meaning changes gets a new version, read through an upcaster, as game events are.

The log: ``campaign_created``; per chapter attempt ``chapter_opened`` (or ``chapter_replayed``),
the ``mission_chosen`` of cards that choose a mission, ``chapter_started`` (its game and the
setup the cards gave it), then, from the chapter-end task, ``chapter_finished`` (the result),
``stars_awarded`` (with their reasons), ``captain_changed`` when the captain changes, and
``cards_offered`` or, after chapter 8, ``campaign_finished``; between chapters ``card_chosen``
and ``card_aimed``.
"""

from typing import Any, NotRequired, TypedDict

from games.rules.engine import kinds

Event = dict[str, Any]


class PackRef(TypedDict):
    id: str
    version: str
    hash: str


class CampaignCreated(TypedDict):
    pack: PackRef
    max_players: int
    astra_level: int | None


class ChapterOpened(TypedDict):
    chapter: int
    attempt: int


class MissionChosen(TypedDict):
    chapter: int
    attempt: int
    letter: str
    card: int  # the mission card
    source: str  # the campaign card that let the seat choose it


class ChapterSetup(TypedDict):
    missions: dict[str, int]
    modifiers: dict[str, list[Any]]
    cards: list[str]
    # effects the sheet could not take together with the others, left out
    left_out: list[dict[str, Any]]
    # solo: ASTRA's level for the chapter (the starting level moved by the cards in effect)
    astra_level: NotRequired[int]


class ChapterStarted(TypedDict):
    chapter: int
    attempt: int
    adventure: int
    game: int
    players: int
    setup: ChapterSetup


class SeatResult(TypedDict):
    """One seat's result in a chapter, as a campaign keeps it (what star goals read)."""

    seat: int
    total: int
    rank: int
    missions: list[str]
    system_errors: int


class ChapterFinished(TypedDict):
    chapter: int
    attempt: int
    game: int
    results: list[SeatResult]
    winners: list[int | str]


class StarReason(TypedDict):
    reason: str  # "rank" or "star_goal"
    stars: int
    rank: NotRequired[int]
    card: NotRequired[str]


class StarAward(TypedDict):
    seat: int
    stars: int
    reasons: list[StarReason]


class StarsAwarded(TypedDict):
    chapter: int
    attempt: int
    awards: list[StarAward]


class CaptainChanged(TypedDict):
    captain: int
    previous: int | None
    stars: list[int]  # each seat's tally that made the captain


class CardsOffered(TypedDict):
    chapter: int
    attempt: int
    captain: int
    group: list[str]
    personal: list[str]
    order: list[int]  # the seats choosing a personal card, first to last


class CardChosen(TypedDict):
    chapter: int
    attempt: int
    card: str


class CardAimed(TypedDict):
    chapter: int
    attempt: int
    card: str
    target: int


class CampaignFinished(TypedDict):
    winners: list[int]
    stars: list[int]
    totals: list[int]


# kind -> (version, schema of its data)
KINDS: dict[str, tuple[int, type]] = {
    "campaign_created": (1, CampaignCreated),
    "chapter_opened": (1, ChapterOpened),
    "chapter_replayed": (1, ChapterOpened),
    "mission_chosen": (1, MissionChosen),
    "chapter_started": (1, ChapterStarted),
    "chapter_finished": (1, ChapterFinished),
    "stars_awarded": (1, StarsAwarded),
    "captain_changed": (1, CaptainChanged),
    "cards_offered": (1, CardsOffered),
    "card_chosen": (1, CardChosen),
    "card_aimed": (1, CardAimed),
    "campaign_finished": (1, CampaignFinished),
}


def make(kind: str, seat: int | None = None, **data: Any) -> Event:
    """An event of the current version of ``kind``."""
    return {"kind": kind, "v": KINDS[kind][0], "seat": seat, "data": data}


def schema_problem(event: Event) -> str | None:
    """Why ``event`` does not fit the current schema of its kind, or None."""
    known = KINDS.get(event.get("kind", ""))
    if known is None:
        return f"unknown campaign event kind {event.get('kind')!r}"
    version, schema = known
    if event.get("v") != version:
        return f"{event['kind']} is at version {version}, not {event.get('v')!r}"
    return kinds.typed_dict_problem(schema, event.get("data"), event["kind"])
