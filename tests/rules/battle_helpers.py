"""Adventure 8 shorthands on top of ``tests.rules.playing``: shared sheets written by planet and
panel, moves by keyword, turns reached through the engine's own event, and scores by side."""

from collections.abc import Mapping
from typing import Any

from games.rules import engine
from games.rules.adventures.battle.rules import BattleRules
from games.rules.core import events
from games.rules.core.sheet import Mark, Marks
from games.rules.engine import Event, GameState
from tests.rules import playing
from tests.rules.playing import reveal, set_sheet, start_game

RULES = BattleRules()
LAYOUT = RULES.layout
THE_BATTLE = 8


def game(
    players: int = 2,
    *,
    seed: int = 8,
    missions: Mapping[str, int] | None = None,
    sheets: Mapping[int, Marks] | None = None,
) -> GameState:
    """A freshly started Adventure 8 game (turn 1), the sheets ``sheets`` names set by id."""
    state = start_game(THE_BATTLE, players, seed=seed, missions=missions)
    for sheet, marks in (sheets or {}).items():
        set_sheet(state, sheet, marks)
    return state


def battle(
    spaces: Mapping[str, str] | None = None,
    moons: Mapping[str, str] | None = None,
    *,
    flags: Mapping[str, str] | None = None,
    asteroids: Mapping[str, int] | None = None,
    S: Mapping[str, int] | None = None,
    N: Mapping[str, int] | None = None,
    marks: Mapping[str, Mark] | None = None,
) -> Marks:
    """A shared sheet: the ships, each planet's spaces filled in order by the sides ``spaces``
    spells (``{"pl1": "SSN"}``), its moon likewise, flags drawn (their planet circled), the
    asteroids each side claimed from its end (bonuses crossed), each side's panel (``panel``)
    and any other ``marks``."""
    sheet: Marks = {ship: side for side, ship in LAYOUT.ships.items()}
    for planet, owners in (spaces or {}).items():
        sheet.update(zip(LAYOUT.planets[planet].spaces, owners, strict=False))
    for planet, owners in (moons or {}).items():
        sheet.update(zip(LAYOUT.planets[planet].moon, owners, strict=False))
    for planet, flag in (flags or {}).items():
        sheet[LAYOUT.planets[planet].flag] = flag
        sheet[LAYOUT.planets[planet].done] = "circle"
    for side, count in (asteroids or {}).items():
        for asteroid in LAYOUT.asteroid_order[side][:count]:
            sheet[asteroid] = side
            sheet.update({element: "cross" for element, _ in LAYOUT.asteroids[asteroid].bonuses})
    sheet.update(panel("S", **(S or {})))
    sheet.update(panel("N", **(N or {})))
    sheet.update(marks or {})
    return sheet


def panel(side: str, *, circled: int = 0, spent: int = 0, error: int = 0, **crossed: int) -> Marks:
    """A side's panel: the first boxes of each track crossed (``plant=6``, ``grey=2``...),
    System Error boxes marked, astronaut symbols circled and then some spent (crossed)."""
    marks: Marks = {}
    for track, count in crossed.items():
        marks.update({box: "cross" for box in LAYOUT.track(side, track).boxes[:count]})
    marks.update({box: "circle" for box in LAYOUT.side_error_boxes[side][:error]})
    symbols = LAYOUT.astronauts[side]
    marks.update({symbol: "cross" for symbol in symbols[:spent]})
    marks.update({symbol: "circle" for symbol in symbols[spent : spent + circled]})
    return marks


def start_turn(state: GameState, turn: int) -> None:
    """Bring the game to the start of ``turn`` as its turn_started event does (every seat on
    the sheet of that turn's parity); the combinations are then set with ``reveal``."""
    data: events.TurnStarted = {"turn": turn, "combinations": [], "reshuffled": []}
    engine.evolve(state, events.make(events.TURN_STARTED, None, turn, data))


def move(state: GameState, seat: int, **choice: Any) -> list[Event]:
    return playing.move(state, seat, choice)


def refused(state: GameState, seat: int, **choice: Any) -> str:
    return playing.refused(state, seat, choice)


def draw(state: GameState, seat: int, combination: int, planet: str, **extra: Any) -> list[Event]:
    """Draw the seat's insignia on ``planet`` with a combination (its number changed only as
    far as the planet needs, unless ``number`` is given)."""
    return move(state, seat, action="draw", combination=combination, planet=planet, **extra)


def use(state: GameState, seat: int, effect: str, **fields: Any) -> list[Event]:
    """Use the waiting step ``effect`` (the action named as the rules name it)."""
    return move(state, seat, action=RULES.step_action(effect), effect=effect, **fields)


def refused_use(state: GameState, seat: int, effect: str, **fields: Any) -> str:
    """The error code of a use of the waiting step ``effect`` the rules refuse."""
    return refused(state, seat, action=RULES.step_action(effect), effect=effect, **fields)


def marks_of(state: GameState, sheet: int) -> Marks:
    return state.sheets[sheet].marks


def side_score(state: GameState, sheet: int, side: str) -> dict[str, Any]:
    """The points of one side of a sheet as they stand (resolved as at the end once the game
    is no longer being played)."""
    marks = state.sheets[sheet].marks
    return RULES.side_score(state.sheets[sheet], side, marks, final=state.status != "playing")


def total(state: GameState, seat: int) -> dict[str, Any]:
    return RULES.seat_score(state, seat)


def ended(state: GameState) -> GameState:
    """The state as scored once the game is over (planets without a flag resolved)."""
    state.status = "ended"
    return state


def finished(state: GameState) -> GameState:
    """The game ended as it stands, with its result (the engine's own event) applied."""
    return engine.evolve(ended(state), engine.result_event(state))


__all__ = [
    "LAYOUT", "RULES", "THE_BATTLE", "battle", "draw", "ended", "finished", "game", "marks_of",
    "move", "panel", "refused", "refused_use", "reveal", "set_sheet", "side_score", "start_turn",
    "total", "use",
]  # fmt: skip
