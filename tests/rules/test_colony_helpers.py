"""Helpers to put an Adventure 3 game in a given position and play it as players would.

A game is started with the engine, then sheets and the revealed combinations are set
directly; from there every move goes through ``engine.decide`` and every event through
``engine.evolve``, and ending a turn means every seat confirming. (No test lives here.)
"""

from collections.abc import Mapping
from typing import Any

import pytest

from games.rules import engine
from games.rules.adventures import rules_for
from games.rules.adventures.colony import ColonyRules
from games.rules.cards import Combination
from games.rules.engine import Event, GameState
from games.rules.sheet import Marks, X

_rules = rules_for(3)
assert isinstance(_rules, ColonyRules)
RULES: ColonyRules = _rules
LAYOUT = RULES.layout

PRINTED = ("(R)", "(O)", "(X)")


def start(players: int, *, seed: int = 3, missions: Mapping[str, int] | None = None) -> GameState:
    """A freshly started Adventure 3 game (turn 1 flipped)."""
    events = engine.new_game(
        adventure=3, players=players, seed=seed, missions=dict(missions or {})
    )
    return engine.replay(events)


def set_sheet(state: GameState, seat: int, marks: Marks) -> None:
    """Give a seat this sheet, as it stands at the start of the current turn."""
    state.seats[seat].marks = dict(marks)
    state.seats[seat].turn_start_marks = dict(marks)


def reveal(state: GameState, *combinations: tuple[int, str]) -> None:
    """Make this turn's three combinations (number, action)."""
    state.combinations = [
        Combination(index, number, action) for index, (number, action) in enumerate(combinations)
    ]


def apply(state: GameState, events: list[Event]) -> list[Event]:
    for event in events:
        engine.evolve(state, event)
    return events


def move(state: GameState, seat: int, **choice: Any) -> list[Event]:
    """Send one move, as a player would, and apply its events."""
    return apply(state, engine.decide(state, seat, {"type": "move", "choice": choice}))


def refused(state: GameState, seat: int, **choice: Any) -> str:
    """The error code of a move the rules refuse (the state is left unchanged)."""
    with pytest.raises(engine.RuleViolation) as error:
        engine.decide(state, seat, {"type": "move", "choice": choice})
    return error.value.code


def confirm(state: GameState, seat: int) -> list[Event]:
    return apply(state, engine.decide(state, seat, {"type": "confirm"}))


def confirm_all(state: GameState) -> list[Event]:
    """Every seat confirms, in seat order: the last one ends the turn."""
    events: list[Event] = []
    for seat in range(state.players):
        events += confirm(state, seat)
    return events


def write(state: GameState, seat: int, combination: int, space: str, number: int) -> list[Event]:
    return move(
        state, seat, action="write", combination=combination, space=space, number=number
    )


def skip(state: GameState, seat: int, step: str) -> list[Event]:
    return move(state, seat, action="skip", effect=step)


def options(state: GameState, seat: int) -> list[dict[str, Any]]:
    return engine.options(state, seat).options


# --- sheets ------------------------------------------------------------------------------


def grid(rows: Mapping[int, str]) -> Marks:
    """Numbers by row, left to right: ``{6: "10 12 14 . . (O)"}``. ``.`` is empty, ``X`` a
    player's X, ``(R)``, ``(O)``, ``(X)`` the printed buildings (never marks)."""
    marks: Marks = {}
    for row, line in rows.items():
        cells = line.split()
        assert len(cells) == LAYOUT.raw["grid"]["cols"], line
        for col, cell in enumerate(cells, start=1):
            building = f"bld.r{row}c{col}"
            if cell in PRINTED:
                assert building in LAYOUT.prenumbered, building
            elif cell == X:
                marks[building] = X
            elif cell != ".":
                marks[building] = int(cell)
    return marks


def diagonal_sheet(xs: int = 0) -> Marks:
    """Every space numbered row + column (ascending both ways), the first ``xs`` spaces
    (in data order) holding an X instead."""
    marks: Marks = {}
    for index, (space, raw) in enumerate(LAYOUT.spaces.items()):
        marks[space] = X if index < xs else raw["row"] + raw["col"]
    return marks


def everything_x(*, but: tuple[str, ...] = ()) -> Marks:
    """Every space holding an X except those named."""
    return {space: X for space in LAYOUT.spaces if space not in but}


def tunnels(*segments: str) -> Marks:
    """Drawn tunnels, named without the prefix: ``tunnels("r2c1-r3c1")``."""
    return {f"tunnel.{segment}": "line" for segment in segments}


def circled(*elements: str) -> Marks:
    return {element: "circle" for element in elements}


def crossed(*elements: str) -> Marks:
    return {element: "cross" for element in elements}


def boxes(track: str, count: int) -> Marks:
    """The first ``count`` boxes of a track crossed."""
    return {box: "cross" for box in LAYOUT.tracks[track].boxes[:count]}


def astronauts(count: int) -> Marks:
    return {symbol: "cross" for symbol in LAYOUT.astronaut_symbols[:count]}


def errors(count: int) -> Marks:
    """System Error boxes marked as the engine marks them."""
    return {box: "circle" for box in LAYOUT.error_boxes[:count]}


def with_antennas(marks: Marks) -> Marks:
    """The sheet with every antenna its network reaches circled, as the reactions leave it."""
    return {**marks, **circled(*RULES.antennas_to_circle(marks))}


def score(state: GameState, seat: int) -> dict[str, Any]:
    """The live score breakdown of a seat, as its owner sees it."""
    return engine.sheet_view(state, seat, viewer=seat)["score"]


def marks_of(state: GameState, seat: int) -> Marks:
    return state.seats[seat].marks
