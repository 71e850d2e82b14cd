"""The Battle's seating over random games of 2 to 6 players: every turn each sheet has exactly
one seat playing it, the owner of side S in odd turns and of side N in even ones; a seat marks
only the sheet it plays, draws only its own insignia and crosses only its own side's panel; and
a flag once drawn never changes."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import engine
from games.rules.adventures.battle.rules import side_of
from games.rules.engine import Event, GameState
from games.rules.play import bots
from tests.rules.battle_helpers import LAYOUT, THE_BATTLE

SIDE_KINDS = {"mark", "insignia_drawn", "system_error"}
INSIGNIA_ELEMENTS = frozenset(LAYOUT.spaces) | frozenset(LAYOUT.asteroids) | frozenset(LAYOUT.planet_of_moon)
FLAGS = frozenset(planet.flag for planet in LAYOUT.planets.values())


def _assert_one_seat_per_sheet(state: GameState) -> None:
    parity = "S" if state.turn % 2 == 1 else "N"
    for sheet in state.sheets:
        playing = [seat for seat in range(state.players) if state.seats[seat].sheet == sheet.id]
        assert playing == [sheet.sides[parity]], (state.turn, sheet.id)
    for seat in range(state.players):
        assert side_of(state.sheet_of(seat), seat) == parity
        left, right = state.seats[seat].sheets
        assert state.seats[seat].sheet == (left if parity == "S" else right)


def _assert_marks_its_own(state: GameState, event: Event) -> None:
    seat, data = event["seat"], event["data"]
    if seat is None or event["kind"] not in SIDE_KINDS:
        return
    assert data["sheet"] == state.seats[seat].sheet, event
    side = side_of(state.sheets[data["sheet"]], seat)
    element = str(data.get("element") or data.get("space") or data.get("box"))
    if element[1] == ".":  # a panel element: S.plant.b01, N.error.e1...
        assert element.startswith(f"{side}."), event
    if element in INSIGNIA_ELEMENTS:
        assert data.get("mark", data.get("side")) == side, event


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=6),
    seed=st.integers(min_value=0, max_value=2**32),
    moves=st.integers(min_value=0, max_value=2**32),
)
def test_each_sheet_has_exactly_one_seat_playing_it_each_turn_on_its_own_side(
    players: int, seed: int, moves: int
) -> None:
    rng = random.Random(moves)
    seats = [bots.random_bot(rng) for _ in range(players)]
    state = engine.replay(engine.new_game(adventure=THE_BATTLE, players=players, seed=seed))
    assert [sheet.sides for sheet in state.sheets] == [
        {"S": sheet, "N": (sheet + 1) % players} for sheet in range(players)
    ]
    flags: dict[tuple[int, str], object] = {}
    while state.status == "playing":
        _assert_one_seat_per_sheet(state)
        for seat, bot in enumerate(seats):
            while engine.options(state, seat).kind != "wait":
                for event in engine.decide(state, seat, bot(state, seat)):
                    _assert_marks_its_own(state, event)
                    engine.evolve(state, event)
        for sheet in state.sheets:
            for flag in FLAGS & sheet.marks.keys():
                assert flags.setdefault((sheet.id, flag), sheet.marks[flag]) == sheet.marks[flag]
    assert state.status == "ended"
