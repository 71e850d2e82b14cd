"""The kinds a campaign's log holds, each with the declared schema of its data, a version and
how it changes the campaign's state (``evolve``), declared as a game's kinds are
(``games.rules.engine.kinds``); and the constructor of each kind's events.

A campaign event is ``{"kind", "v", "seat", "data"}``: ``seat`` is the seat whose choice it
records (None for what the campaign does by itself). Stored events are never reinterpreted: a
kind whose meaning changes gets a new version, read through an upcaster, as game events are.

The log: ``campaign_created``; per chapter attempt ``chapter_opened`` (or ``chapter_replayed``),
the ``mission_chosen`` of cards that choose a mission, ``chapter_started`` (its game and the
setup the cards gave it), then, from the chapter-end task, ``chapter_finished`` (the result),
``stars_awarded`` (with their reasons), ``captain_changed`` when the captain changes, and
``cards_offered`` or, after chapter 8, ``campaign_finished``; between chapters ``card_chosen``
and ``card_aimed``. Under rules version 2 (``campaign_created.rules_version``) the captain's
``chapter_kept`` (or ``chapter_replayed``) comes before ``cards_offered`` or
``campaign_finished``, and in solo ``chapter_finished``, ``stars_awarded`` and
``campaign_finished`` carry ASTRA's result, stars and tally.
"""

from collections.abc import Iterable, Mapping
from typing import Any, NotRequired, TypedDict, cast

from campaigns.rules.state import Attempt, CampaignState, Chosen
from games.rules.engine import kinds

Event = kinds.StreamEvent


class PackRef(TypedDict):
    id: str
    version: str
    hash: str


class CampaignCreated(TypedDict):
    pack: PackRef
    max_players: int
    astra_level: int | None
    # the version of rules/campaign.md the campaign plays for its whole life (1 or 2)
    rules_version: int


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


class AstraResult(TypedDict):
    """ASTRA's result in a solo chapter, as a version 2 campaign keeps it (its star tally)."""

    total: int
    rank: int


class ChapterFinished(TypedDict):
    chapter: int
    attempt: int
    game: int
    results: list[SeatResult]
    winners: list[int | str]
    # solo, rules version 2: ASTRA as the other player of the ranking
    astra: NotRequired[AstraResult]


class StarReason(TypedDict):
    reason: str  # "rank" or "star_goal"
    stars: int
    rank: NotRequired[int]
    card: NotRequired[str]


class StarAward(TypedDict):
    seat: int
    stars: int
    reasons: list[StarReason]


class AstraAward(TypedDict):
    stars: int
    reasons: list[StarReason]


class StarsAwarded(TypedDict):
    chapter: int
    attempt: int
    awards: list[StarAward]
    # solo, rules version 2: ASTRA's stars for its rank
    astra: NotRequired[AstraAward]


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


class ChapterKept(TypedDict):
    chapter: int
    attempt: int


class AstraTally(TypedDict):
    stars: int
    totals: int


class CampaignFinished(TypedDict):
    # seats, and "astra" when ASTRA wins or shares a solo campaign of rules version 2
    winners: list[int | str]
    stars: list[int]
    totals: list[int]
    astra: NotRequired[AstraTally]


# --- evolve --------------------------------------------------------------------------------


def _created(state: CampaignState, data: CampaignCreated, event: Event) -> None:
    state.pack = dict(data["pack"])
    state.max_players = data["max_players"]
    state.astra_level = data["astra_level"]
    state.rules_version = data["rules_version"]


def _opened(state: CampaignState, data: ChapterOpened, event: Event) -> None:
    state.attempts.append(Attempt(chapter=data["chapter"], number=data["attempt"]))


def _mission_chosen(state: CampaignState, data: MissionChosen, event: Event) -> None:
    attempt = state.attempt(data["chapter"], data["attempt"])
    attempt.missions[data["letter"]] = {"card": data["card"], "seat": event["seat"], "source": data["source"]}


def _started(state: CampaignState, data: ChapterStarted, event: Event) -> None:
    attempt = state.attempt(data["chapter"], data["attempt"])
    attempt.game = data["game"]
    attempt.setup = dict(data["setup"])
    state.players = data["players"]


def _finished(state: CampaignState, data: ChapterFinished, event: Event) -> None:
    attempt = state.attempt(data["chapter"], data["attempt"])
    attempt.results = [dict(result) for result in data["results"]]
    attempt.winners = list(data["winners"])
    astra = data.get("astra")
    attempt.astra = dict(astra) if astra is not None else None


def _stars(state: CampaignState, data: StarsAwarded, event: Event) -> None:
    attempt = state.attempt(data["chapter"], data["attempt"])
    attempt.awards = [dict(a) for a in data["awards"]]
    astra = data.get("astra")
    attempt.astra_award = dict(astra) if astra is not None else None


def _kept(state: CampaignState, data: ChapterKept, event: Event) -> None:
    state.attempt(data["chapter"], data["attempt"]).kept = True


def _captain(state: CampaignState, data: CaptainChanged, event: Event) -> None:
    state.captain = data["captain"]


def _offered(state: CampaignState, data: CardsOffered, event: Event) -> None:
    state.attempt(data["chapter"], data["attempt"]).offer = dict(data)


def _chosen(state: CampaignState, data: CardChosen, event: Event) -> None:
    seat = event["seat"]
    assert seat is not None
    state.attempt(data["chapter"], data["attempt"]).choices.append(Chosen(seat, data["card"]))


def _aimed(state: CampaignState, data: CardAimed, event: Event) -> None:
    attempt = state.attempt(data["chapter"], data["attempt"])
    chosen = next(
        c for c in attempt.choices if c.seat == event["seat"] and c.card == data["card"] and c.target is None
    )
    chosen.target = data["target"]


def _campaign_finished(state: CampaignState, data: CampaignFinished, event: Event) -> None:
    state.winners = list(data["winners"])


CAMPAIGN_CREATED = kinds.Kind("campaign_created", 2, CampaignCreated, _created)
CHAPTER_OPENED = kinds.Kind("chapter_opened", 1, ChapterOpened, _opened)
CHAPTER_REPLAYED = kinds.Kind("chapter_replayed", 1, ChapterOpened, _opened)
MISSION_CHOSEN = kinds.Kind("mission_chosen", 1, MissionChosen, _mission_chosen)
CHAPTER_STARTED = kinds.Kind("chapter_started", 1, ChapterStarted, _started)
CHAPTER_FINISHED = kinds.Kind("chapter_finished", 2, ChapterFinished, _finished)
STARS_AWARDED = kinds.Kind("stars_awarded", 1, StarsAwarded, _stars)
CAPTAIN_CHANGED = kinds.Kind("captain_changed", 1, CaptainChanged, _captain)
CHAPTER_KEPT = kinds.Kind("chapter_kept", 1, ChapterKept, _kept)
CARDS_OFFERED = kinds.Kind("cards_offered", 1, CardsOffered, _offered)
CARD_CHOSEN = kinds.Kind("card_chosen", 1, CardChosen, _chosen)
CARD_AIMED = kinds.Kind("card_aimed", 1, CardAimed, _aimed)
CAMPAIGN_FINISHED = kinds.Kind("campaign_finished", 1, CampaignFinished, _campaign_finished)

KINDS: dict[str, kinds.Kind[CampaignState, Event, Any]] = {
    kind.name: kind
    for kind in (
        CAMPAIGN_CREATED,
        CHAPTER_OPENED,
        CHAPTER_REPLAYED,
        MISSION_CHOSEN,
        CHAPTER_STARTED,
        CHAPTER_FINISHED,
        STARS_AWARDED,
        CAPTAIN_CHANGED,
        CHAPTER_KEPT,
        CARDS_OFFERED,
        CARD_CHOSEN,
        CARD_AIMED,
        CAMPAIGN_FINISHED,
    )
}


def _results_as_recorded(event: Event) -> ChapterFinished:
    """Version 1 read an adventure 8 chapter's missions and System Errors over the seat's whole
    shared sheets (none of its missions, its neighbours' errors counted: issue #23); version 2
    reads them as the adventure defines them (campaign.md, the end of "Version 2 of these
    rules"). The shape is the same, and a result of version 1 keeps what it recorded: the stars
    awarded from it stand."""
    return cast(ChapterFinished, event["data"])


def _rules_version_1(event: Event) -> CampaignCreated:
    """A campaign created before its rules had versions plays version 1 of ``campaign.md``
    for its whole life, running or finished."""
    return cast(CampaignCreated, {**event["data"], "rules_version": 1})


UPCASTERS: dict[tuple[str, int], kinds.Upcaster[Event]] = {
    ("campaign_created", 1): _rules_version_1,
    ("chapter_finished", 1): _results_as_recorded,
}


def evolve(state: CampaignState, event: Event) -> CampaignState:
    """Apply one stored campaign event (of any version) to ``state`` in place and return it."""
    return kinds.evolve(KINDS, state, upcast(event))


def replay(events: Iterable[Event]) -> CampaignState:
    """A campaign's state from its log, whatever the versions its events were stored with."""
    return fold(CampaignState(), events)


def fold(state: CampaignState, events: Iterable[Event]) -> CampaignState:
    """``state`` with the stored ``events`` that follow it applied in place, in order."""
    return kinds.fold(KINDS, UPCASTERS, state, events)


def upcast(event: Event) -> Event:
    """``event`` as the current version of its kind."""
    return kinds.upcast(KINDS, UPCASTERS, event)


def schema_problem(event: Mapping[str, Any]) -> str | None:
    """Why ``event`` does not fit the current schema of its kind, or None."""
    return kinds.schema_problem(KINDS, event, stream="campaign ")


# --- the events, one constructor per kind ------------------------------------------------


def _make(kind: kinds.Kind[CampaignState, Event, kinds.D], seat: int | None, data: kinds.D) -> Event:
    return {"kind": kind.name, "v": kind.version, "seat": seat, "data": data}


def campaign_created(
    *, pack: PackRef, max_players: int, astra_level: int | None, rules_version: int
) -> Event:
    data = CampaignCreated(
        pack=pack, max_players=max_players, astra_level=astra_level, rules_version=rules_version
    )
    return _make(CAMPAIGN_CREATED, None, data)


def chapter_opened(seat: int | None = None, *, chapter: int, attempt: int) -> Event:
    return _make(CHAPTER_OPENED, seat, ChapterOpened(chapter=chapter, attempt=attempt))


def chapter_replayed(seat: int, *, chapter: int, attempt: int) -> Event:
    return _make(CHAPTER_REPLAYED, seat, ChapterOpened(chapter=chapter, attempt=attempt))


def mission_chosen(seat: int, *, chapter: int, attempt: int, letter: str, card: int, source: str) -> Event:
    data = MissionChosen(chapter=chapter, attempt=attempt, letter=letter, card=card, source=source)
    return _make(MISSION_CHOSEN, seat, data)


def chapter_started(
    *, chapter: int, attempt: int, adventure: int, game: int, players: int, setup: ChapterSetup
) -> Event:
    data = ChapterStarted(
        chapter=chapter, attempt=attempt, adventure=adventure, game=game, players=players, setup=setup
    )
    return _make(CHAPTER_STARTED, None, data)


def chapter_finished(
    *,
    chapter: int,
    attempt: int,
    game: int,
    results: list[SeatResult],
    winners: list[int | str],
    astra: AstraResult | None = None,
) -> Event:
    data = ChapterFinished(chapter=chapter, attempt=attempt, game=game, results=results, winners=winners)
    if astra is not None:
        data["astra"] = astra
    return _make(CHAPTER_FINISHED, None, data)


def stars_awarded(
    *, chapter: int, attempt: int, awards: list[StarAward], astra: AstraAward | None = None
) -> Event:
    data = StarsAwarded(chapter=chapter, attempt=attempt, awards=awards)
    if astra is not None:
        data["astra"] = astra
    return _make(STARS_AWARDED, None, data)


def chapter_kept(seat: int, *, chapter: int, attempt: int) -> Event:
    return _make(CHAPTER_KEPT, seat, ChapterKept(chapter=chapter, attempt=attempt))


def captain_changed(*, captain: int, previous: int | None, stars: list[int]) -> Event:
    return _make(CAPTAIN_CHANGED, None, CaptainChanged(captain=captain, previous=previous, stars=stars))


def cards_offered(
    *, chapter: int, attempt: int, captain: int, group: list[str], personal: list[str], order: list[int]
) -> Event:
    data = CardsOffered(
        chapter=chapter, attempt=attempt, captain=captain, group=group, personal=personal, order=order
    )
    return _make(CARDS_OFFERED, None, data)


def card_chosen(seat: int, *, chapter: int, attempt: int, card: str) -> Event:
    return _make(CARD_CHOSEN, seat, CardChosen(chapter=chapter, attempt=attempt, card=card))


def card_aimed(seat: int, *, chapter: int, attempt: int, card: str, target: int) -> Event:
    return _make(CARD_AIMED, seat, CardAimed(chapter=chapter, attempt=attempt, card=card, target=target))


def campaign_finished(
    *, winners: list[int | str], stars: list[int], totals: list[int], astra: AstraTally | None = None
) -> Event:
    data = CampaignFinished(winners=winners, stars=stars, totals=totals)
    if astra is not None:
        data["astra"] = astra
    return _make(CAMPAIGN_FINISHED, None, data)
