"""Playing an engine game from a given position, as players would, for any adventure.

A game is started with the engine, then sheets and the revealed combinations are set
directly; from there every move goes through ``engine.decide`` and every event through
``engine.evolve``, and ending a turn means every seat confirming. The per-adventure helper
modules add their sheets' shorthands on top of these.
"""

from collections.abc import Iterable, Mapping
from typing import Any, cast

import pytest

from games.rules import engine
from games.rules.core.cards import Combination, hand_combinations
from games.rules.core.events import astra_state
from games.rules.core.sheet import Mark, Marks
from games.rules.core.state import INCIDENTS_PHASE, MISSIONS_PHASE, SETUP_PHASE
from games.rules.engine import Event, GameState
from games.rules.turn import solo

Choice = dict[str, Any]


def start_game(
    adventure: int,
    players: int,
    *,
    seed: int,
    missions: Mapping[str, int] | None = None,
    sheet: Mapping[str, Mark] | None = None,
) -> GameState:
    """A freshly started game (turn 1 flipped: any choice the setup asks for is made with its
    first option), every seat given ``sheet`` when one is named."""
    events = engine.new_game(adventure=adventure, players=players, seed=seed, missions=dict(missions or {}))
    state = setup_made(engine.replay(events))
    if sheet is not None:
        for seat in range(players):
            set_sheet(state, seat, sheet)
    return state


def set_sheet(state: GameState, seat: int, marks: Mapping[str, Mark]) -> None:
    """Give a seat this sheet, as it stands at the start of the current turn."""
    state.sheets[seat].marks = dict(marks)
    state.sheets[seat].turn_start_marks = dict(marks)
    state.decisions.clear()  # the state changed without an event: forget worked-out options


def reveal(state: GameState, *combinations: tuple[int, str]) -> None:
    """Make this turn's three combinations (number, action)."""
    state.combinations = [
        Combination(index, number, action) for index, (number, action) in enumerate(combinations)
    ]
    state.decisions.clear()  # the state changed without an event: forget worked-out options


def apply(state: GameState, events: Iterable[Event]) -> list[Event]:
    events = list(events)
    for event in events:
        engine.evolve(state, event)
    return events


def send(state: GameState, seat: int, command: dict[str, Any]) -> list[Event]:
    """Decide a command for a seat and apply the events it appends."""
    return apply(state, engine.decide(state, seat, command))


def move(state: GameState, seat: int, choice: Mapping[str, object]) -> list[Event]:
    return send(state, seat, {"type": "move", "choice": choice})


def refused(state: GameState, seat: int, choice: Mapping[str, object]) -> str:
    """The error code of a move the rules refuse (the state is left as it was)."""
    with pytest.raises(engine.RuleViolation) as caught:
        engine.decide(state, seat, {"type": "move", "choice": choice})
    return caught.value.code


def undo(state: GameState, seat: int) -> list[Event]:
    return send(state, seat, {"type": "undo"})


def confirm(state: GameState, seat: int, *, claim: bool = True) -> list[Event]:
    """Confirm a seat's turn. When that ends the turn, the choices phase 5 asks for are made
    with the first option each (see ``choose_incidents``); when phase 6 offers missions, every
    seat offered one claims all it may (as the players of the worked examples do) unless
    ``claim`` is False, which leaves phase 6 to the test."""
    events = send(state, seat, {"type": "confirm"})
    events += choose_incidents(state)
    if claim and state.phase == MISSIONS_PHASE:
        events += claim_all(state)
    return events


def choose_incidents(state: GameState) -> list[Event]:
    """Phase 5 choices (a Virus's infections): every seat asked takes the first option until
    none is asked (a test that cares which space is infected plays its own)."""
    events: list[Event] = []
    while state.status == "playing" and state.phase == INCIDENTS_PHASE:
        decisions = ((seat, engine.options(state, seat)) for seat in range(state.players))
        asked = next(((seat, decision) for seat, decision in decisions if decision.kind != "wait"), None)
        if asked is None:
            break
        seat, decision = asked
        events += move(state, seat, decision.options[0])
    return events


def claim_all(state: GameState) -> list[Event]:
    """Phase 6: every seat claims every mission it is offered, then confirms (and again when
    the claims set off a new phase 5 and phase 6, as the Virus's do). It stops when no seat
    is asked anything: in a solo game, the turn then waits for ASTRA's part (``astra_part``)."""
    events: list[Event] = []
    while state.status == "playing" and state.phase in (MISSIONS_PHASE, INCIDENTS_PHASE):
        before = len(events)
        events += choose_incidents(state)
        for seat in range(state.players):
            while engine.options(state, seat).kind == "mission":
                offered = engine.options(state, seat).options
                if offered:
                    events += move(state, seat, offered[0])
                else:
                    events += send(state, seat, {"type": "confirm"})
        if len(events) == before:
            break
    return events


def confirm_all(state: GameState) -> list[Event]:
    """Every seat confirms, in seat order: the last one ends the turn."""
    events: list[Event] = []
    for seat in range(state.players):
        events += confirm(state, seat)
    return events


def options(state: GameState, seat: int) -> list[Choice]:
    """The seat's options read as plain dicts (a test reads the fields it expects)."""
    return cast(list[Choice], list(engine.options(state, seat).options))


def score(state: GameState, seat: int) -> dict[str, Any]:
    """The live score breakdown of a seat, as its owner sees it."""
    return engine.sheet_view(state, seat, viewer=seat)["score"]


def marks_of(state: GameState, seat: int) -> Marks:
    return state.sheets[seat].marks


def skip(step: str) -> Choice:
    """Decline an optional step waiting for the seat."""
    return {"action": "skip", "effect": step}


def system_error(box: str) -> Choice:
    return {"action": "system_error", "box": box}


def circled(*elements: str) -> Marks:
    return {element: "circle" for element in elements}


def crossed(*elements: str) -> Marks:
    return {element: "cross" for element in elements}


# --- solo games against ASTRA -----------------------------------------------------------------


def start_solo(
    adventure: int, level: int = 1, *, seed: int = 1, missions: Mapping[str, int] | None = None
) -> GameState:
    """A freshly started solo game against ASTRA of ``level`` (any choice the setup asks for
    made with its first option, turn 1's hand drawn)."""
    events = engine.new_game(
        adventure=adventure, players=1, seed=seed, missions=dict(missions or {}), astra_level=level
    )
    return setup_made(engine.replay(events))


def setup_made(state: GameState) -> GameState:
    """The game once every choice its setup asks for is made, with the first option each."""
    while state.phase == SETUP_PHASE:
        seat = next(seat for seat in range(state.players) if engine.options(state, seat).kind != "wait")
        move(state, seat, engine.options(state, seat).options[0])
    return state


def against_astra(state: GameState, level: int, pile: Mapping[str, int] | None = None) -> None:
    """Make a one-player game a solo game against ASTRA of ``level`` holding ``pile``."""
    state.astra = astra_state(solo.setup(state.adventure, level), deck=[])
    state.astra.pile.update(pile or {})
    state.decisions.clear()


def set_hand(state: GameState, *cards: int) -> None:
    """Make the player's hand these three cards (the turn's six pairs follow)."""
    assert state.astra is not None
    state.astra.hand = list(cards)
    state.astra.deck = [card for card in state.astra.deck if card not in cards]
    state.combinations = hand_combinations(state.astra.hand)
    state.decisions.clear()


def set_deck(state: GameState, *top: int) -> None:
    """Put these cards on top of the solo deck, in this order."""
    assert state.astra is not None
    state.astra.deck = [*top, *(card for card in state.astra.deck if card not in top)]


def astra_part(state: GameState) -> list[Event]:
    """Play ASTRA's part of the turn (when due) and apply its events."""
    return apply(state, engine.astra_turn(state))


def pick(state: GameState, number_card: int, action_card: int, **fields: Any) -> Choice:
    """The listed pick of a solo turn: the number of one card with the action of another."""
    for option in options(state, 0):
        if (option.get("number_card"), option.get("action_card")) == (number_card, action_card) and all(
            option.get(key) == value for key, value in fields.items()
        ):
            return option
    raise AssertionError(f"no listed pick of cards {number_card}/{action_card} with {fields}")
