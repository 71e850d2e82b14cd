"""Events: the kinds a game's log holds, their declared schemas and versions, and how each one
changes the state (``evolve``).

Every event is ``{"kind", "v", "seat", "turn", "data"}``: ``v`` is the version of its kind's
schema. A stored event is never reinterpreted: an event of an older version is upcast to the
current one before it is applied (``games.rules.read.upcasting``), so ``evolve`` only ever sees
current events. ``evolve`` never validates and never fails on a stored event: validation
happened once, in ``decide``, before the event was stored. It needs no rules: the opening event
carries the whole setup.

Each kind is a ``Kind`` (``games.rules.core.kinds``) named by a constant (``MARK``, ...) whose
handler reads the data as the kind's TypedDict; the ``Recorder`` records each kind through a
method of its own, so every event written and every one read is checked by mypy against its
schema, with nothing converted when a log is replayed.
"""

from collections.abc import Iterable, Mapping
from typing import Any, NotRequired, TypedDict

from games.rules.core import cards, kinds
from games.rules.core.kinds import D, Kind, StreamEvent
from games.rules.core.sheet import Mark
from games.rules.core.state import ACTIONS_PHASE, MISSIONS_PHASE, AstraState, GameState, SeatState, Sheet

# The side ASTRA owns on the sheets of a solo Battle (adventure 8): its insignia's mark.
ASTRA_SIDE = "N"


class Event(StreamEvent):
    """A game's event: ``turn`` is the turn it belongs to."""

    turn: int


# --- the schemas of the current versions --------------------------------------------------


class SheetSetup(TypedDict):
    id: int
    seats: list[int]
    error_boxes: list[str]
    marks: dict[str, Mark]
    bonus_points: int
    # A sheet shared by two seats (adventure 8) names the seat owning each side (solo: ASTRA,
    # "astra", owns side N of both sheets).
    sides: NotRequired[dict[str, int | str]]


class SeatSetup(TypedDict):
    sheets: list[int]


class AstraSetup(TypedDict):
    """ASTRA's opponent card and the points of its adventure card (null in adventure 1, where
    ASTRA scores on its rocket track)."""

    level: int
    name: str
    multipliers: dict[str, int]
    fixed_points: int | None
    points_per_level: int | None
    bonus_boxes: int


class MissionValues(TypedDict):
    """The points of a mission card: for the first to accomplish it, and for those after."""

    first: int
    later: int


class GameStarted(TypedDict):
    """The whole setup: replay never reads the rules data to rebuild a game."""

    adventure: int
    players: int
    seed: int
    missions: dict[str, int]
    mission_values: dict[str, MissionValues]
    sheets: list[SheetSetup]
    seats: list[SeatSetup]
    astra: AstraSetup | None
    # The per-seat setup modifiers asked for (campaign cards): already applied in ``sheets``.
    modifiers: dict[str, list[Any]]


class TurnStarted(TypedDict):
    turn: int
    combinations: list[dict[str, Any]]
    reshuffled: list[int]


class Written(TypedDict):
    """A number a pick writes, before the sheet it goes on is named."""

    combination: int
    space: str
    number: int
    action: NotRequired[str]
    modifier: NotRequired[int]
    wild: NotRequired[str]


class NumberWritten(Written):
    sheet: int


class Drawn(TypedDict):
    """Adventure 8's pick: the seat's insignia (its side of the sheet, ``S`` or ``N``) drawn in
    the next space of a planet, which the combination's number (``modifier`` away from the
    card's, when changed) selected; before the sheet it goes on is named."""

    side: str
    combination: int
    planet: str
    space: str
    number: int
    action: str
    modifier: NotRequired[int]


class InsigniaDrawn(Drawn):
    sheet: int


class SystemErrorMarked(TypedDict):
    sheet: int
    # Version 3: None when no box was left to mark (see ``common.base``).
    box: str | None
    cause: str


class MarkMade(TypedDict):
    sheet: int
    element: str
    mark: Mark


class EffectsPending(TypedDict):
    source: str
    effects: list[str]


class EffectResolved(TypedDict):
    effect: str
    outcome: str
    target: Any


class NoData(TypedDict):
    pass


class ChoicesAwaited(TypedDict):
    """Steps are waiting for these seats (by number) outside their own turn: before the first
    turn (``phase`` "setup") or in phase 5 ("incidents"); the other seats wait."""

    phase: str
    seats: list[int]


class MissionsOffered(TypedDict):
    """Phase 6: the missions each seat (by its number) may claim now."""

    offers: dict[str, list[str]]


class MissionClaimed(TypedDict):
    sheet: int
    letter: str


class MissionAccomplished(TypedDict):
    sheet: int
    letter: str
    card: int
    value: int
    # The box the value is written in, where the sheet names it otherwise than
    # ``mission.<letter>`` (adventure 8: ``S.mission.<letter>``).
    box: NotRequired[str]


class MissionFlipped(TypedDict):
    letter: str
    card: int


class CardDrawn(TypedDict):
    """Solo: the top card of the deck, drawn into the hand (or an Effect card, resolved)."""

    card: int


class DeckReshuffled(TypedDict):
    """Solo: the deck ran out for the first time; the pass that begins."""

    deck_pass: int


class AstraEffect(TypedDict):
    """Solo: an Effect card resolved on the player's sheet (``target``: what the effect chose
    or the player chose for it, null when nothing was to choose), then discarded."""

    card: int
    letter: str
    deck_pass: int
    target: str | None


class AstraPlayed(TypedDict):
    """Solo, adventure 8: ASTRA's own card of the round played on the sheet of the round: its
    insignia (side ``N``) in the first empty ``space`` of ``planet`` (both null when no planet
    had room). What its action then marks, and a planet's control, follow as marks."""

    sheet: int
    card: int
    number: int
    action: str
    planet: str | None
    space: str | None


class CardGiven(TypedDict):
    """Solo: the card the player leaves over this turn, for ASTRA's pile, or ``removed`` from
    the game with a circled ASTRA bonus."""

    card: int
    removed: bool


class AstraBonus(TypedDict):
    """Solo: ASTRA bonuses circled for what the player just marked on their sheet."""

    count: int
    element: str


class AstraTook(TypedDict):
    """Solo, end of a turn: the card left over goes to ASTRA's pile (or leaves the game with a
    bonus), the two others to the discard pile."""

    card: int
    removed: bool


class Autopilot(TypedDict):
    """An absent seat: its deadline passed before it finished the phase in play (``phase``:
    ``actions`` for a turn, ``incidents`` or ``setup`` for its choices, ``missions`` for its
    claims), so its part was played for it as the greedy bot plays, confirmed, in the events
    that follow (``reason`` "timeout"). ``in_a_row``: how many of its deadlines in a row have
    passed so, this one included."""

    reason: str
    phase: str
    in_a_row: int


class SeatResigned(TypedDict):
    """A seat handed to a bot for the rest of the game: its player ``resigned``, or let
    ``timeouts`` pass in a row. The player keeps the seat and reads the game; a greedy bot
    plays it."""

    reason: str


class GameEnded(TypedDict):
    reasons: list[dict[str, Any]]


class AstraTrackBreakdown(TypedDict):
    """ASTRA's score in adventure 1: the boxes crossed on its rocket track, launched or not."""

    boxes_crossed: int
    launched: bool
    total: int


class AstraPileBreakdown(TypedDict):
    """ASTRA's score in adventures 2-8: each action of its pile at its multiplier, its
    Adventure card's fixed points and its points per level."""

    robot: int
    energy: int
    plant: int
    water: int
    astronaut: int
    planning: int
    fixed: int
    level: int
    total: int


class AstraResult(TypedDict):
    total: int
    breakdown: AstraTrackBreakdown | AstraPileBreakdown


class Result(TypedDict):
    scores: list[dict[str, Any]]
    winners: list[Any]
    # Solo: ASTRA's final score; ``winners`` then names ASTRA as "astra".
    astra: NotRequired[AstraResult]


# --- evolve --------------------------------------------------------------------------------


def evolve(state: GameState, event: Event) -> GameState:
    """Apply one event of the current version to ``state`` in place and return it.

    Callers that need the state as it was before take a ``state.copy()`` first; a stored event
    of an older version goes through ``upcasting.upcast`` first (``engine.evolve`` does both).
    """
    return kinds.evolve(KINDS, state, event)


def astra_state(setup: AstraSetup, *, deck: list[int]) -> AstraState:
    """ASTRA as a solo game's opening sets it up: its opponent card, its Adventure card's
    points and bonus boxes, an empty pile, and ``deck`` to draw from."""
    return AstraState(
        level=setup["level"],
        bonus_boxes=setup["bonus_boxes"],
        name=setup["name"],
        multipliers=dict(setup["multipliers"]),
        fixed_points=setup["fixed_points"],
        points_per_level=setup["points_per_level"],
        pile={action: 0 for action in cards.ACTIONS},
        deck=deck,
    )


def _game_started(state: GameState, data: GameStarted, event: Event) -> None:
    state.adventure = data["adventure"]
    state.players = data["players"]
    state.seed = data["seed"]
    state.missions = dict(data["missions"])
    state.mission_values = {
        letter: {"first": v["first"], "later": v["later"]} for letter, v in data["mission_values"].items()
    }
    setup = data.get("astra")
    state.stacks = cards.deal(data["seed"]) if setup is None else []
    state.sheets = [Sheet.from_data(sheet) for sheet in data["sheets"]]
    state.seats = [
        SeatState(sheets=tuple(seat["sheets"]), sheet=seat["sheets"][0]) for seat in data["seats"]
    ]
    if setup is not None:
        state.astra = astra_state(setup, deck=cards.solo_deck(data["seed"]))
    state.status = "playing"


def _turn_started(state: GameState, data: TurnStarted, event: Event) -> None:
    # It overwrites all that the transient kinds change (the phase, the seats' turns): a
    # replay skips the events of those kinds before the last turn's start.
    turn = data["turn"]
    state.turn = turn
    state.phase = ACTIONS_PHASE
    if state.astra is None:
        state.combinations, _ = cards.flip(state.stacks, seed=state.seed, turn=turn)
    else:
        # Solo: the turn's combinations are the pairs of the hand ASTRA's part just drew.
        state.combinations = cards.hand_combinations(state.astra.hand)
        state.astra.turn_start_bonuses = state.astra.bonuses_circled
    for sheet in state.sheets:
        sheet.turn_start_marks = sheet.marks.copy()
    for seat in state.seats:
        seat.sheet = seat.sheets[(turn - 1) % len(seat.sheets)]
        _new_turn(seat)
        seat.claimable = seat.claimed = ()


def _turn_passed(state: GameState, data: TurnStarted, event: Event) -> None:
    """What of a turn's start outlasts the next turn's start: the cards flipped from the stacks
    (and the turn's number). All else it sets up only the turn's own events read, or an undo;
    a replay applies this much of a turn's start that another follows, with no undo before it."""
    turn = data["turn"]
    state.turn = turn
    if state.astra is None:
        cards.pass_turn(state.stacks, seed=state.seed, turn=turn)


def _new_turn(seat: SeatState) -> None:
    seat.chosen = None
    seat.turn_choice = {}
    seat.pending = []
    seat.triggered = []
    seat.confirmed = False


# The handlers of the commonest kinds read the event's seat inline rather than through
# ``_seat``: a call per event is a tenth of a replay.


def _number_written(state: GameState, data: NumberWritten, event: Event) -> None:
    _number_kept(state, data, event)
    index = event["seat"]
    assert index is not None, "number_written events belong to a seat"
    seat = state.seats[index]
    seat.chosen = "write"
    seat.turn_choice = data  # type: ignore[assignment]  # shared: an event's data never changes


def _insignia_drawn(state: GameState, data: InsigniaDrawn, event: Event) -> None:
    _insignia_kept(state, data, event)
    seat = state.seats[_seat(event)]
    seat.chosen = "write"
    seat.turn_choice = data  # type: ignore[assignment]  # shared: an event's data never changes


def _system_error(state: GameState, data: SystemErrorMarked, event: Event) -> None:
    _system_error_kept(state, data, event)
    if data["cause"] == "no_writable_number":
        state.seats[_seat(event)].chosen = "system_error"


def _mark(state: GameState, data: MarkMade, event: Event) -> None:
    _mark_kept(state, data, event)
    element, mark = data["element"], data["mark"]
    if mark == "triggered" and event["seat"] is not None:
        state.seats[event["seat"]].triggered.append(element)


# What of a pick or a mark outlasts its turn: the mark on the sheet (the seat's choice of the
# turn and the elements it triggered, the next turn's start resets), all a replay applies of
# one that another turn's start follows.


def _number_kept(state: GameState, data: NumberWritten, event: Event) -> None:
    state.sheets[data["sheet"]].marks[data["space"]] = data["number"]


def _insignia_kept(state: GameState, data: InsigniaDrawn, event: Event) -> None:
    state.sheets[data["sheet"]].marks[data["space"]] = data["side"]


def _system_error_kept(state: GameState, data: SystemErrorMarked, event: Event) -> None:
    if data["box"] is not None:
        state.sheets[data["sheet"]].marks[data["box"]] = "circle"


def _mark_kept(state: GameState, data: MarkMade, event: Event) -> None:
    state.sheets[data["sheet"]].marks[data["element"]] = data["mark"]


def _effects_pending(state: GameState, data: EffectsPending, event: Event) -> None:
    effects = data["effects"]
    if effects:
        index = event["seat"]
        assert index is not None, "effects_pending events belong to a seat"
        state.seats[index].pending.append(list(effects))


def _effect_resolved(state: GameState, data: EffectResolved, event: Event) -> None:
    index = event["seat"]
    assert index is not None, "effect_resolved events belong to a seat"
    seat = state.seats[index]
    top = seat.pending[-1]
    top.remove(data["effect"])
    if not top:
        seat.pending.pop()


def _undo(state: GameState, data: NoData, event: Event) -> None:
    seat = state.seats[_seat(event)]
    sheet = state.sheets[seat.sheet]
    sheet.marks = dict(sheet.turn_start_marks)
    _new_turn(seat)
    if state.astra is not None:
        state.astra.given = None
        state.astra.removing = False
        state.astra.bonuses_circled = state.astra.turn_start_bonuses


def _confirmed(state: GameState, data: NoData, event: Event) -> None:
    index = event["seat"]
    assert index is not None, "confirmed events belong to a seat"
    state.seats[index].confirmed = True


def _choices_awaited(state: GameState, data: ChoicesAwaited, event: Event) -> None:
    state.phase = data["phase"]
    asked = set(data["seats"])
    for index, seat in enumerate(state.seats):
        seat.confirmed = index not in asked


def _missions_offered(state: GameState, data: MissionsOffered, event: Event) -> None:
    state.phase = MISSIONS_PHASE
    offers = data["offers"]
    for index, seat in enumerate(state.seats):
        letters = offers.get(str(index), [])
        seat.claimable = tuple(letters)
        seat.claimed = ()
        seat.confirmed = not letters


def _mission_claimed(state: GameState, data: MissionClaimed, event: Event) -> None:
    seat = state.seats[_seat(event)]
    seat.claimed = (*seat.claimed, data["letter"])


def _mission_accomplished(state: GameState, data: MissionAccomplished, event: Event) -> None:
    box = data.get("box", f"mission.{data['letter']}")
    state.sheets[data["sheet"]].marks[box] = data["value"]


def _mission_flipped(state: GameState, data: MissionFlipped, event: Event) -> None:
    state.flipped_missions.add(data["letter"])
    state.flipped_on[data["letter"]] = event["turn"]


def _card_drawn(state: GameState, data: CardDrawn, event: Event) -> None:
    solo = _astra(state)
    card = data["card"]
    if card in solo.deck:
        solo.deck.remove(card)
    if card in cards.EFFECT_CARDS:
        solo.effect = card
    else:
        solo.hand.append(card)


def _deck_reshuffled(state: GameState, data: DeckReshuffled, event: Event) -> None:
    solo = _astra(state)
    solo.deck = cards.second_pass_deck(state.seed, solo.discard)
    solo.discard = []
    solo.deck_pass = data["deck_pass"]


def _astra_effect(state: GameState, data: AstraEffect, event: Event) -> None:
    solo = _astra(state)
    solo.effect = None
    solo.discard.append(data["card"])


def _astra_played(state: GameState, data: AstraPlayed, event: Event) -> None:
    if data["space"] is not None:
        state.sheets[data["sheet"]].marks[data["space"]] = ASTRA_SIDE
    _astra(state).placed = True


def _card_given(state: GameState, data: CardGiven, event: Event) -> None:
    solo = _astra(state)
    solo.given = data["card"]
    solo.removing = data["removed"]


def _astra_bonus(state: GameState, data: AstraBonus, event: Event) -> None:
    solo = _astra(state)
    solo.bonuses_circled = min(solo.bonus_boxes, solo.bonuses_circled + data["count"])


def _astra_took(state: GameState, data: AstraTook, event: Event) -> None:
    solo = _astra(state)
    card = data["card"]
    if data["removed"]:
        solo.removed.append(card)
        solo.bonuses_used += 1
    else:
        action = cards.CARDS[card].action
        solo.pile[action] = solo.pile.get(action, 0) + 1
    solo.discard.extend(other for other in solo.hand if other != card)
    solo.hand = []
    solo.given = None
    solo.removing = False
    solo.placed = False
    state.combinations = []


def _astra(state: GameState) -> AstraState:
    assert state.astra is not None, "solo events belong to a game against ASTRA"
    return state.astra


def _autopilot(state: GameState, data: Autopilot, event: Event) -> None:
    """Nothing changes: the moves played for the seat follow as events of their own."""


def _seat_resigned(state: GameState, data: SeatResigned, event: Event) -> None:
    state.seats[_seat(event)].resigned = True


def _game_ended(state: GameState, data: GameEnded, event: Event) -> None:
    state.status = "ended"
    state.end = dict(data)


def _result(state: GameState, data: Result, event: Event) -> None:
    state.status = "finished"
    state.result = dict(data)


def _seat(event: Event) -> int:
    seat = event["seat"]
    assert seat is not None, f"{event['kind']} events belong to a seat"
    return seat


SEAT = frozenset({"seat"})
SHEET = frozenset({"sheet"})
SEAT_AND_SHEET = frozenset({"seat", "sheet"})
ASTRA = frozenset({"astra"})
SHEET_AND_ASTRA = frozenset({"sheet", "astra"})
SEAT_SHEET_AND_ASTRA = frozenset({"seat", "sheet", "astra"})
ALL = frozenset({"all"})
GAME: frozenset[str] = frozenset()

GAME_STARTED = Kind("game_started", 3, GameStarted, _game_started, ALL)
TURN_STARTED = Kind("turn_started", 1, TurnStarted, _turn_started, ALL, resets=True, lasting=_turn_passed)
NUMBER_WRITTEN = Kind(
    "number_written", 2, NumberWritten, _number_written, SEAT_AND_SHEET, lasting=_number_kept
)
INSIGNIA_DRAWN = Kind(
    "insignia_drawn", 1, InsigniaDrawn, _insignia_drawn, SEAT_AND_SHEET, lasting=_insignia_kept
)
SYSTEM_ERROR = Kind(
    "system_error", 3, SystemErrorMarked, _system_error, SEAT_AND_SHEET, lasting=_system_error_kept
)
MARK = Kind("mark", 2, MarkMade, _mark, SEAT_AND_SHEET, lasting=_mark_kept)
EFFECTS_PENDING = Kind("effects_pending", 1, EffectsPending, _effects_pending, SEAT, transient=True)
EFFECT_RESOLVED = Kind("effect_resolved", 1, EffectResolved, _effect_resolved, SEAT, transient=True)
UNDO = Kind("undo", 1, NoData, _undo, SEAT_SHEET_AND_ASTRA, rewinds=True)
CONFIRMED = Kind("confirmed", 1, NoData, _confirmed, SEAT, transient=True)
CHOICES_AWAITED = Kind("choices_awaited", 1, ChoicesAwaited, _choices_awaited, ALL, transient=True)
MISSIONS_OFFERED = Kind("missions_offered", 1, MissionsOffered, _missions_offered, ALL, transient=True)
MISSION_CLAIMED = Kind("mission_claimed", 1, MissionClaimed, _mission_claimed, SEAT, transient=True)
MISSION_ACCOMPLISHED = Kind("mission_accomplished", 2, MissionAccomplished, _mission_accomplished, SHEET)
MISSION_FLIPPED = Kind("mission_flipped", 1, MissionFlipped, _mission_flipped, GAME)
CARD_DRAWN = Kind("card_drawn", 1, CardDrawn, _card_drawn, ASTRA)
DECK_RESHUFFLED = Kind("deck_reshuffled", 1, DeckReshuffled, _deck_reshuffled, ASTRA)
ASTRA_EFFECT = Kind("astra_effect", 1, AstraEffect, _astra_effect, ASTRA)
ASTRA_PLAYED = Kind("astra_played", 1, AstraPlayed, _astra_played, SHEET_AND_ASTRA)
CARD_GIVEN = Kind("card_given", 1, CardGiven, _card_given, ASTRA)
ASTRA_BONUS = Kind("astra_bonus", 1, AstraBonus, _astra_bonus, ASTRA)
ASTRA_TOOK = Kind("astra_took", 1, AstraTook, _astra_took, ASTRA)
AUTOPILOT = Kind("autopilot", 1, Autopilot, _autopilot, GAME, transient=True)
SEAT_RESIGNED = Kind("seat_resigned", 1, SeatResigned, _seat_resigned, SEAT)
GAME_ENDED = Kind("game_ended", 1, GameEnded, _game_ended, GAME)
RESULT = Kind("result", 1, Result, _result, GAME)

KINDS: dict[str, Kind[GameState, Event, Any]] = {
    kind.name: kind
    for kind in (
        GAME_STARTED,
        TURN_STARTED,
        NUMBER_WRITTEN,
        INSIGNIA_DRAWN,
        SYSTEM_ERROR,
        MARK,
        EFFECTS_PENDING,
        EFFECT_RESOLVED,
        UNDO,
        CONFIRMED,
        CHOICES_AWAITED,
        MISSIONS_OFFERED,
        MISSION_CLAIMED,
        MISSION_ACCOMPLISHED,
        MISSION_FLIPPED,
        CARD_DRAWN,
        DECK_RESHUFFLED,
        ASTRA_EFFECT,
        ASTRA_PLAYED,
        CARD_GIVEN,
        ASTRA_BONUS,
        ASTRA_TOOK,
        AUTOPILOT,
        SEAT_RESIGNED,
        GAME_ENDED,
        RESULT,
    )
}


# The field of an event's data naming the one element it marks on its sheet, by kind: every
# kind that changes a sheet's marks otherwise (an undo, a new turn...) is absent.
MARKED_FIELD = {
    NUMBER_WRITTEN.name: "space",
    INSIGNIA_DRAWN.name: "space",
    SYSTEM_ERROR.name: "box",
    MARK.name: "element",
    MISSION_ACCOMPLISHED.name: "box",
    ASTRA_PLAYED.name: "space",
}
_SHEET_KINDS = frozenset(name for name, kind in KINDS.items() if kind.touches & {"sheet", "all"})


def marked_elements(events: Iterable[Event]) -> dict[int, set[str]] | None:
    """The elements ``events`` mark, by sheet id; None when one of them changes sheets
    otherwise than by marking one element (an undo, a new turn...)."""
    marked: dict[int, set[str]] = {}
    for event in events:
        name = event["kind"]
        if name not in _SHEET_KINDS:
            continue
        field = MARKED_FIELD.get(name)
        if field is None:
            return None
        data = event["data"]
        element = data.get(field)
        if name == MISSION_ACCOMPLISHED.name and element is None:
            element = f"mission.{data['letter']}"
        if element is not None:
            marked.setdefault(data["sheet"], set()).add(element)
    return marked


def make(kind: Kind[GameState, Event, D], seat: int | None, turn: int, data: D) -> Event:
    """An event of the current version of ``kind``."""
    return {"kind": kind.name, "v": kind.version, "seat": seat, "turn": turn, "data": data}


def schema_problem(event: Mapping[str, Any]) -> str | None:
    """Why ``event`` does not fit the current schema of its kind, or None."""
    return kinds.schema_problem(KINDS, event)


# --- recording the events a command causes ------------------------------------------------


class Recorder:
    """Collects the events a command causes, applying each to a private copy of the state so
    that later rules see the effect of earlier ones. One method records each kind of event,
    named after it, its data as keywords; an event that marks a sheet marks the one its seat
    plays this turn unless ``sheet`` is given.

    The copy shares everything with the original until an event changes it: before applying
    an event the recorder copies the seat and the sheet that event changes (once each), so a
    command that touches one sheet copies one sheet.
    """

    __slots__ = ("_own_all", "_own_astra", "_own_seats", "_own_sheets", "events", "state")

    def __init__(self, state: GameState, *, in_place: bool = False) -> None:
        # In place, the events change ``state`` itself: for a caller that owns it and plays
        # options it was listed (self-play), with nothing to copy.
        self.state = state if in_place else state.shared_copy()
        self.events: list[Event] = []
        self._own_seats: set[int] = set()
        self._own_sheets: set[int] = set()
        self._own_astra = False
        self._own_all = in_place

    def seat(self, seat: int) -> SeatState:
        return self.state.seats[seat]

    def sheet(self, seat: int) -> Sheet:
        """The sheet ``seat`` plays this turn, as the events recorded so far left it."""
        state = self.state
        return state.sheets[state.seats[seat].sheet]  # ``state.sheet_of``, with no call: rules read it often

    # --- one method per kind -------------------------------------------------------------
    # Each data is a dict display of its kind's schema (mypy checks it against the annotation):
    # a call of the TypedDict, made once an event, would cost several times more.

    def game_started(
        self,
        *,
        adventure: int,
        players: int,
        seed: int,
        missions: dict[str, int],
        mission_values: dict[str, MissionValues],
        sheets: list[SheetSetup],
        seats: list[SeatSetup],
        astra: AstraSetup | None,
        modifiers: dict[str, list[Any]],
    ) -> None:
        setup: GameStarted = {
            "adventure": adventure,
            "players": players,
            "seed": seed,
            "missions": missions,
            "mission_values": mission_values,
            "sheets": sheets,
            "seats": seats,
            "astra": astra,
            "modifiers": modifiers,
        }
        self._record(GAME_STARTED, None, setup)

    def turn_started(self, *, turn: int, combinations: list[dict[str, Any]], reshuffled: list[int]) -> None:
        data: TurnStarted = {"turn": turn, "combinations": combinations, "reshuffled": reshuffled}
        self._record(TURN_STARTED, None, data, turn=turn)

    def number_written(self, seat: int, written: Written, *, sheet: int | None = None) -> None:
        data: NumberWritten = {"sheet": self._sheet_id(seat, sheet), **written}
        self._record(NUMBER_WRITTEN, seat, data)

    def insignia_drawn(self, seat: int, drawn: Drawn, *, sheet: int | None = None) -> None:
        data: InsigniaDrawn = {"sheet": self._sheet_id(seat, sheet), **drawn}
        self._record(INSIGNIA_DRAWN, seat, data)

    def system_error(self, seat: int, *, box: str | None, cause: str, sheet: int | None = None) -> None:
        data: SystemErrorMarked = {"sheet": self._sheet_id(seat, sheet), "box": box, "cause": cause}
        self._record(SYSTEM_ERROR, seat, data)

    def mark(self, seat: int | None = None, *, element: str, mark: Mark, sheet: int | None = None) -> None:
        if sheet is None:
            assert seat is not None, "an event marking a sheet names a seat or a sheet"
            sheet = self.state.seats[seat].sheet
        data: MarkMade = {"sheet": sheet, "element": element, "mark": mark}
        self._record(MARK, seat, data)

    def effects_pending(self, seat: int, *, source: str, effects: list[str]) -> None:
        data: EffectsPending = {"source": source, "effects": effects}
        self._record(EFFECTS_PENDING, seat, data)

    def effect_resolved(self, seat: int, *, effect: str, outcome: str, target: Any) -> None:
        data: EffectResolved = {"effect": effect, "outcome": outcome, "target": target}
        self._record(EFFECT_RESOLVED, seat, data)

    def undo(self, seat: int) -> None:
        data: NoData = {}
        self._record(UNDO, seat, data)

    def confirmed(self, seat: int) -> None:
        data: NoData = {}
        self._record(CONFIRMED, seat, data)

    def choices_awaited(self, *, phase: str, seats: list[int]) -> None:
        data: ChoicesAwaited = {"phase": phase, "seats": seats}
        self._record(CHOICES_AWAITED, None, data)

    def missions_offered(self, *, offers: dict[str, list[str]]) -> None:
        data: MissionsOffered = {"offers": offers}
        self._record(MISSIONS_OFFERED, None, data)

    def mission_claimed(self, seat: int, *, letter: str, sheet: int | None = None) -> None:
        data: MissionClaimed = {"sheet": self._sheet_id(seat, sheet), "letter": letter}
        self._record(MISSION_CLAIMED, seat, data)

    def mission_accomplished(
        self, seat: int, *, letter: str, card: int, value: int, box: str | None = None,
        sheet: int | None = None,
    ) -> None:  # fmt: skip
        """``box``: the box the value goes in, where the sheet names it otherwise than
        ``mission.<letter>``."""
        data: MissionAccomplished = {
            "sheet": self._sheet_id(seat, sheet), "letter": letter, "card": card, "value": value
        }  # fmt: skip
        if box is not None:
            data["box"] = box
        self._record(MISSION_ACCOMPLISHED, seat, data)

    def mission_flipped(self, *, letter: str, card: int) -> None:
        data: MissionFlipped = {"letter": letter, "card": card}
        self._record(MISSION_FLIPPED, None, data)

    def card_drawn(self, *, card: int) -> None:
        data: CardDrawn = {"card": card}
        self._record(CARD_DRAWN, None, data)

    def deck_reshuffled(self, *, deck_pass: int) -> None:
        data: DeckReshuffled = {"deck_pass": deck_pass}
        self._record(DECK_RESHUFFLED, None, data)

    def astra_effect(self, *, card: int, letter: str, deck_pass: int, target: str | None) -> None:
        data: AstraEffect = {"card": card, "letter": letter, "deck_pass": deck_pass, "target": target}
        self._record(ASTRA_EFFECT, None, data)

    def astra_played(
        self, *, sheet: int, card: int, number: int, action: str, planet: str | None, space: str | None
    ) -> None:
        data: AstraPlayed = {
            "sheet": sheet, "card": card, "number": number, "action": action, "planet": planet, "space": space
        }  # fmt: skip
        self._record(ASTRA_PLAYED, None, data)

    def card_given(self, seat: int, *, card: int, removed: bool) -> None:
        data: CardGiven = {"card": card, "removed": removed}
        self._record(CARD_GIVEN, seat, data)

    def astra_bonus(self, seat: int, *, count: int, element: str) -> None:
        data: AstraBonus = {"count": count, "element": element}
        self._record(ASTRA_BONUS, seat, data)

    def astra_took(self, *, card: int, removed: bool) -> None:
        data: AstraTook = {"card": card, "removed": removed}
        self._record(ASTRA_TOOK, None, data)

    def autopilot(self, seat: int, *, reason: str, phase: str, in_a_row: int) -> None:
        data: Autopilot = {"reason": reason, "phase": phase, "in_a_row": in_a_row}
        self._record(AUTOPILOT, seat, data)

    def seat_resigned(self, seat: int, *, reason: str) -> None:
        data: SeatResigned = {"reason": reason}
        self._record(SEAT_RESIGNED, seat, data)

    def game_ended(self, *, reasons: list[dict[str, Any]]) -> None:
        data: GameEnded = {"reasons": reasons}
        self._record(GAME_ENDED, None, data)

    # --- recording one event ---------------------------------------------------------------

    def _sheet_id(self, seat: int | None, sheet: int | None) -> int:
        """The sheet an event marks: ``sheet``, or the one ``seat`` plays this turn."""
        if sheet is not None:
            return sheet
        assert seat is not None, "an event marking a sheet names a seat or a sheet"
        return self.state.seats[seat].sheet

    def _record(
        self, kind: Kind[GameState, Event, D], seat: int | None, data: D, *, turn: int | None = None
    ) -> None:
        """Record an event of ``kind`` (current version) and apply it."""
        state = self.state
        event: Event = {
            "kind": kind.name,
            "v": kind.version,
            "seat": seat,
            "turn": state.turn if turn is None else turn,
            "data": data,
        }
        if not self._own_all:
            self._own(kind.touches, seat, data.get("sheet"))
        self.events.append(event)
        kind.apply(state, data, event)
        state.events_applied += 1

    def _own(self, touches: frozenset[str], seat: int | None, sheet: int | None) -> None:
        state = self.state
        if "all" in touches:
            for index in range(len(state.seats)):
                self._own_seat(index)
            for index in range(len(state.sheets)):
                self._own_sheet(index)
            state.stacks = [stack.copy() for stack in state.stacks]
            if state.astra is not None and not self._own_astra:
                state.astra = state.astra.copy()
            self._own_astra = self._own_all = True
            return
        if "astra" in touches and state.astra is not None and not self._own_astra:
            state.astra = state.astra.copy()
            self._own_astra = True
        if "seat" in touches and seat is not None:
            self._own_seat(seat)
        if "sheet" in touches:
            if sheet is None and seat is not None:
                sheet = state.seats[seat].sheet
            if sheet is not None:
                self._own_sheet(sheet)

    def _own_seat(self, index: int) -> None:
        if index not in self._own_seats:
            self.state.seats[index] = self.state.seats[index].copy()
            self._own_seats.add(index)

    def _own_sheet(self, index: int) -> None:
        if index not in self._own_sheets:
            self.state.sheets[index] = self.state.sheets[index].copy()
            self._own_sheets.add(index)
