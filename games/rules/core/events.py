"""Events: the kinds a game's log holds, their declared schemas and versions, and how each one
changes the state (``evolve``).

Every event is ``{"kind", "v", "seat", "turn", "data"}``: ``v`` is the version of its kind's
schema. A stored event is never reinterpreted: an event of an older version is upcast to the
current one before it is applied (``games.rules.read.upcasting``), so ``evolve`` only ever sees
current events. ``evolve`` never validates and never fails on a stored event: validation
happened once, in ``decide``, before the event was stored. It needs no rules: the opening event
carries the whole setup.
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, NotRequired, TypedDict, Union, get_args, get_origin, get_type_hints

from games.rules.core import cards
from games.rules.core.sheet import Mark
from games.rules.core.state import ACTIONS_PHASE, MISSIONS_PHASE, AstraState, GameState, SeatState, Sheet

# The side ASTRA owns on the sheets of a solo Battle (adventure 8): its insignia's mark.
ASTRA_SIDE = "N"


class Event(TypedDict):
    kind: str
    v: NotRequired[int]  # absent on events stored before versions existed: version 1
    seat: int | None
    turn: int
    data: dict[str, Any]


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


class NumberWritten(TypedDict):
    sheet: int
    combination: int
    space: str
    number: int
    action: NotRequired[str]
    modifier: NotRequired[int]
    wild: NotRequired[str]


class InsigniaDrawn(TypedDict):
    """Adventure 8's pick: the seat's insignia (its side of the sheet, ``S`` or ``N``) drawn in
    the next space of a planet, which the combination's number (``modifier`` away from the
    card's, when changed) selected."""

    sheet: int
    side: str
    combination: int
    planet: str
    space: str
    number: int
    action: str
    modifier: NotRequired[int]


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


class GameEnded(TypedDict):
    reasons: list[dict[str, Any]]


class AstraResult(TypedDict):
    total: int
    breakdown: dict[str, Any]


class Result(TypedDict):
    scores: list[dict[str, Any]]
    winners: list[Any]
    # Solo: ASTRA's final score; ``winners`` then names ASTRA as "astra".
    astra: NotRequired[AstraResult]


# --- evolve --------------------------------------------------------------------------------


Handler = Callable[[GameState, Event], None]


@dataclass(frozen=True)
class Kind:
    """One event kind: its current version, the schema of its data, and how it is applied.

    ``touches`` says what of the state applying it changes, so that a copy-on-write state
    knows what to copy first: ``seat`` (the event's seat), ``sheet`` (the sheet it names, or
    the seat's current sheet), ``astra`` (ASTRA's state, in solo), ``all`` (any of them).
    """

    name: str
    version: int
    schema: type
    apply: Handler
    touches: frozenset[str]


def evolve(state: GameState, event: Event) -> GameState:
    """Apply one event of the current version to ``state`` in place and return it.

    Callers that need the state as it was before take a ``state.copy()`` first; a stored event
    of an older version goes through ``upcasting.upcast`` first (``engine.evolve`` does both).
    """
    kind = KINDS.get(event["kind"])
    if kind is not None:
        kind.apply(state, event)
    state.events_applied += 1
    return state


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


def _game_started(state: GameState, event: Event) -> None:
    data = event["data"]
    state.adventure = data["adventure"]
    state.players = data["players"]
    state.seed = data["seed"]
    state.missions = dict(data["missions"])
    state.mission_values = {letter: dict(v) for letter, v in data["mission_values"].items()}
    setup = data.get("astra")
    state.stacks = cards.deal(data["seed"]) if setup is None else []
    state.sheets = [
        Sheet(
            id=sheet["id"],
            seats=tuple(sheet["seats"]),
            marks=dict(sheet["marks"]),
            error_boxes=tuple(sheet["error_boxes"]),
            bonus_points=sheet["bonus_points"],
            sides=dict(sheet.get("sides", {})),
            # what the other seats see of it while the setup's choices are made
            turn_start_marks=dict(sheet["marks"]),
        )
        for sheet in data["sheets"]
    ]
    state.seats = [
        SeatState(sheets=tuple(seat["sheets"]), sheet=seat["sheets"][0]) for seat in data["seats"]
    ]
    if setup is not None:
        state.astra = astra_state(setup, deck=cards.solo_deck(data["seed"]))
    state.status = "playing"


def _turn_started(state: GameState, event: Event) -> None:
    turn = event["data"]["turn"]
    state.turn = turn
    state.phase = ACTIONS_PHASE
    if state.astra is None:
        state.combinations, _ = cards.flip(state.stacks, seed=state.seed, turn=turn)
    else:
        # Solo: the turn's combinations are the pairs of the hand ASTRA's part just drew.
        state.combinations = cards.hand_combinations(state.astra.hand)
        state.astra.turn_start_bonuses = state.astra.bonuses_circled
    for sheet in state.sheets:
        sheet.turn_start_marks = dict(sheet.marks)
    for seat in state.seats:
        seat.sheet = seat.sheets[(turn - 1) % len(seat.sheets)]
        _new_turn(seat)
        seat.claimable = ()
        seat.claimed = ()


def _new_turn(seat: SeatState) -> None:
    seat.chosen = None
    seat.turn_choice = {}
    seat.pending = []
    seat.triggered = []
    seat.confirmed = False


def _number_written(state: GameState, event: Event) -> None:
    data = event["data"]
    state.sheets[data["sheet"]].marks[data["space"]] = data["number"]
    seat = state.seats[_seat(event)]
    seat.chosen = "write"
    seat.turn_choice = dict(data)


def _insignia_drawn(state: GameState, event: Event) -> None:
    data = event["data"]
    state.sheets[data["sheet"]].marks[data["space"]] = data["side"]
    seat = state.seats[_seat(event)]
    seat.chosen = "write"
    seat.turn_choice = dict(data)


def _system_error(state: GameState, event: Event) -> None:
    data = event["data"]
    if data["box"] is not None:
        state.sheets[data["sheet"]].marks[data["box"]] = "circle"
    if data["cause"] == "no_writable_number":
        state.seats[_seat(event)].chosen = "system_error"


def _mark(state: GameState, event: Event) -> None:
    data = event["data"]
    element, mark = data["element"], data["mark"]
    state.sheets[data["sheet"]].marks[element] = mark
    if mark == "triggered" and event["seat"] is not None:
        state.seats[event["seat"]].triggered.append(element)


def _effects_pending(state: GameState, event: Event) -> None:
    effects = event["data"]["effects"]
    if effects:
        state.seats[_seat(event)].pending.append(list(effects))


def _effect_resolved(state: GameState, event: Event) -> None:
    seat = state.seats[_seat(event)]
    top = seat.pending[-1]
    top.remove(event["data"]["effect"])
    if not top:
        seat.pending.pop()


def _undo(state: GameState, event: Event) -> None:
    seat = state.seats[_seat(event)]
    sheet = state.sheets[seat.sheet]
    sheet.marks = dict(sheet.turn_start_marks)
    _new_turn(seat)
    if state.astra is not None:
        state.astra.given = None
        state.astra.removing = False
        state.astra.bonuses_circled = state.astra.turn_start_bonuses


def _confirmed(state: GameState, event: Event) -> None:
    state.seats[_seat(event)].confirmed = True


def _choices_awaited(state: GameState, event: Event) -> None:
    data = event["data"]
    state.phase = data["phase"]
    asked = set(data["seats"])
    for index, seat in enumerate(state.seats):
        seat.confirmed = index not in asked


def _missions_offered(state: GameState, event: Event) -> None:
    state.phase = MISSIONS_PHASE
    offers = event["data"]["offers"]
    for index, seat in enumerate(state.seats):
        letters = offers.get(str(index), [])
        seat.claimable = tuple(letters)
        seat.claimed = ()
        seat.confirmed = not letters


def _mission_claimed(state: GameState, event: Event) -> None:
    seat = state.seats[_seat(event)]
    seat.claimed = (*seat.claimed, event["data"]["letter"])


def _mission_accomplished(state: GameState, event: Event) -> None:
    data = event["data"]
    box = data.get("box", f"mission.{data['letter']}")
    state.sheets[data["sheet"]].marks[box] = data["value"]


def _mission_flipped(state: GameState, event: Event) -> None:
    state.flipped_missions.add(event["data"]["letter"])
    state.flipped_on[event["data"]["letter"]] = event["turn"]


def _card_drawn(state: GameState, event: Event) -> None:
    solo = _astra(state)
    card = event["data"]["card"]
    if card in solo.deck:
        solo.deck.remove(card)
    if card in cards.EFFECT_CARDS:
        solo.effect = card
    else:
        solo.hand.append(card)


def _deck_reshuffled(state: GameState, event: Event) -> None:
    solo = _astra(state)
    solo.deck = cards.second_pass_deck(state.seed, solo.discard)
    solo.discard = []
    solo.deck_pass = event["data"]["deck_pass"]


def _astra_effect(state: GameState, event: Event) -> None:
    solo = _astra(state)
    solo.effect = None
    solo.discard.append(event["data"]["card"])


def _astra_played(state: GameState, event: Event) -> None:
    data = event["data"]
    if data["space"] is not None:
        state.sheets[data["sheet"]].marks[data["space"]] = ASTRA_SIDE
    _astra(state).placed = True


def _card_given(state: GameState, event: Event) -> None:
    solo = _astra(state)
    solo.given = event["data"]["card"]
    solo.removing = event["data"]["removed"]


def _astra_bonus(state: GameState, event: Event) -> None:
    solo = _astra(state)
    solo.bonuses_circled = min(solo.bonus_boxes, solo.bonuses_circled + event["data"]["count"])


def _astra_took(state: GameState, event: Event) -> None:
    solo = _astra(state)
    card = event["data"]["card"]
    if event["data"]["removed"]:
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


def _game_ended(state: GameState, event: Event) -> None:
    state.status = "ended"
    state.end = dict(event["data"])


def _result(state: GameState, event: Event) -> None:
    state.status = "finished"
    state.result = dict(event["data"])


def _seat(event: Event) -> int:
    seat = event["seat"]
    assert seat is not None, f"{event['kind']} events belong to a seat"
    return seat


SEAT = frozenset({"seat"})
SHEET = frozenset({"sheet"})
SEAT_AND_SHEET = frozenset({"seat", "sheet"})
ASTRA = frozenset({"astra"})
SHEET_AND_ASTRA = frozenset({"sheet", "astra"})
UNDO = frozenset({"seat", "sheet", "astra"})
ALL = frozenset({"all"})
GAME: frozenset[str] = frozenset()

KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        Kind("game_started", 3, GameStarted, _game_started, ALL),
        Kind("turn_started", 1, TurnStarted, _turn_started, ALL),
        Kind("number_written", 2, NumberWritten, _number_written, SEAT_AND_SHEET),
        Kind("insignia_drawn", 1, InsigniaDrawn, _insignia_drawn, SEAT_AND_SHEET),
        Kind("system_error", 3, SystemErrorMarked, _system_error, SEAT_AND_SHEET),
        Kind("mark", 2, MarkMade, _mark, SEAT_AND_SHEET),
        Kind("effects_pending", 1, EffectsPending, _effects_pending, SEAT),
        Kind("effect_resolved", 1, EffectResolved, _effect_resolved, SEAT),
        Kind("undo", 1, NoData, _undo, UNDO),
        Kind("confirmed", 1, NoData, _confirmed, SEAT),
        Kind("choices_awaited", 1, ChoicesAwaited, _choices_awaited, ALL),
        Kind("missions_offered", 1, MissionsOffered, _missions_offered, ALL),
        Kind("mission_claimed", 1, MissionClaimed, _mission_claimed, SEAT),
        Kind("mission_accomplished", 2, MissionAccomplished, _mission_accomplished, SHEET),
        Kind("mission_flipped", 1, MissionFlipped, _mission_flipped, GAME),
        Kind("card_drawn", 1, CardDrawn, _card_drawn, ASTRA),
        Kind("deck_reshuffled", 1, DeckReshuffled, _deck_reshuffled, ASTRA),
        Kind("astra_effect", 1, AstraEffect, _astra_effect, ASTRA),
        Kind("astra_played", 1, AstraPlayed, _astra_played, SHEET_AND_ASTRA),
        Kind("card_given", 1, CardGiven, _card_given, ASTRA),
        Kind("astra_bonus", 1, AstraBonus, _astra_bonus, ASTRA),
        Kind("astra_took", 1, AstraTook, _astra_took, ASTRA),
        Kind("game_ended", 1, GameEnded, _game_ended, GAME),
        Kind("result", 1, Result, _result, GAME),
    )
}

# The kinds whose data names the sheet they mark.
SHEET_KINDS = frozenset(name for name, kind in KINDS.items() if "sheet" in kind.schema.__annotations__)


def make(kind: str, seat: int | None, turn: int, data: dict[str, Any]) -> Event:
    """An event of the current version of ``kind``."""
    return {"kind": kind, "v": KINDS[kind].version, "seat": seat, "turn": turn, "data": data}


# --- checking an event against its schema ------------------------------------------------


def schema_problem(event: Event) -> str | None:
    """Why ``event`` does not fit the current schema of its kind, or None."""
    kind = KINDS.get(event.get("kind", ""))
    if kind is None:
        return f"unknown event kind {event.get('kind')!r}"
    if event.get("v") != kind.version:
        return f"{kind.name} is at version {kind.version}, not {event.get('v')!r}"
    return typed_dict_problem(kind.schema, event.get("data"), kind.name)


def typed_dict_problem(schema: Any, value: Any, where: str) -> str | None:
    """Why ``value`` does not fit the TypedDict ``schema`` (``where`` names it), or None:
    required keys, no unknown key, and every value of its declared type."""
    if not isinstance(value, dict):
        return f"{where} is not an object"
    hints = _hints(schema)
    missing = schema.__required_keys__ - value.keys()
    if missing:
        return f"{where} lacks {sorted(missing)}"
    unknown = value.keys() - hints.keys()
    if unknown:
        return f"{where} has unknown fields {sorted(unknown)}"
    for key, item in value.items():
        problem = _type_problem(hints[key], item, f"{where}.{key}")
        if problem is not None:
            return problem
    return None


@cache
def _hints(schema: Any) -> dict[str, Any]:
    return get_type_hints(schema)


def _type_problem(hint: Any, value: Any, where: str) -> str | None:
    origin = get_origin(hint)
    if hint is Any:
        return None
    if origin is NotRequired:
        return _type_problem(get_args(hint)[0], value, where)
    if origin is Union or type(hint).__name__ == "UnionType":
        options = get_args(hint)
        if any(_type_problem(option, value, where) is None for option in options):
            return None
        return f"{where} is {value!r}, not one of {options}"
    if hint is type(None):
        return None if value is None else f"{where} is not null"
    if isinstance(hint, type) and hasattr(hint, "__required_keys__"):
        return typed_dict_problem(hint, value, where)
    if origin is list:
        if not isinstance(value, list):
            return f"{where} is not a list"
        (item_hint,) = get_args(hint)
        for index, item in enumerate(value):
            problem = _type_problem(item_hint, item, f"{where}[{index}]")
            if problem is not None:
                return problem
        return None
    if origin is dict:
        if not isinstance(value, dict):
            return f"{where} is not an object"
        key_hint, item_hint = get_args(hint)
        for key, item in value.items():
            problem = _type_problem(key_hint, key, where) or _type_problem(
                item_hint, item, f"{where}.{key}"
            )
            if problem is not None:
                return problem
        return None
    if hint is int:
        whole = isinstance(value, int) and not isinstance(value, bool)
        return None if whole else f"{where} is not a whole number"
    if isinstance(hint, type):
        return None if isinstance(value, hint) else f"{where} is not a {hint.__name__}"
    return None


# --- recording the events a command causes ------------------------------------------------


class Recorder:
    """Collects the events a command causes, applying each to a private copy of the state so
    that later rules see the effect of earlier ones.

    The copy shares everything with the original until an event changes it: before applying
    an event the recorder copies the seat and the sheet that event changes (once each), so a
    command that touches one sheet copies one sheet.
    """

    def __init__(self, state: GameState, *, in_place: bool = False) -> None:
        # In place, the events change ``state`` itself: for a caller that owns it and plays
        # options it was listed (self-play), with nothing to copy.
        self.state = state if in_place else state.shared_copy()
        self.events: list[Event] = []
        self._own_seats: set[int] = set()
        self._own_sheets: set[int] = set()
        self._own_astra = False
        self._own_all = in_place

    def emit(self, kind: str, seat: int | None = None, **data: Any) -> None:
        """Record an event of ``kind`` (current version) and apply it. A kind that marks a
        sheet marks the one ``seat`` plays this turn unless ``sheet`` is given."""
        state = self.state
        if kind in SHEET_KINDS and "sheet" not in data:
            assert seat is not None, f"{kind} names a seat or a sheet"
            data = {"sheet": state.seats[seat].sheet, **data}
        known = KINDS[kind]
        turn = data["turn"] if kind == "turn_started" else state.turn
        event: Event = {"kind": kind, "v": known.version, "seat": seat, "turn": turn, "data": data}
        if not self._own_all:
            self._own(known.touches, seat, data.get("sheet"))
        self.events.append(event)
        known.apply(state, event)
        state.events_applied += 1

    def seat(self, seat: int) -> SeatState:
        return self.state.seats[seat]

    def sheet(self, seat: int) -> Sheet:
        """The sheet ``seat`` plays this turn, as the events recorded so far left it."""
        return self.state.sheet_of(seat)

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
