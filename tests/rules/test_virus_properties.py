"""Properties of the Virus over random games (1-6 players, random moves and claims): infections
never cross a closed walkway, a quarter is evacuated once at most, phase 5 gives each player the
propagations of spec section 6.3, and replaying the log gives the same spread."""

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import engine
from games.rules.adventures.virus import PROPAGATION
from games.rules.engine import Event, GameState
from games.rules.sheet import Marks
from tests.rules.playing import apply
from tests.rules.virus_helpers import LAYOUT

SETTINGS = settings(max_examples=12, deadline=None)
MAX_TURNS = 40
CONFIRM = {"type": "confirm"}
TRACK_ACTIVATIONS = frozenset(
    (*LAYOUT.plant_track.activations.values(), *LAYOUT.water_track.activations.values())
)
SELF_PROPAGATING = ("error.2", "error.3")

seeds = st.integers(min_value=0, max_value=2**32)
player_counts = st.integers(min_value=1, max_value=6)


def _new(marks: Marks, start: Marks, element: str) -> bool:
    return element in marks and element not in start


def expected_propagations(state: GameState) -> Counter[int]:
    """Spec 6.3, read off the sheets at the end of phase 4: each virus woken by a track this
    turn, each propagation symbol triggered by others and not by the seat, error.2 / error.3."""
    sheets = [(sheet.marks, sheet.turn_start_marks) for sheet in map(state.sheet_of, range(state.players))]
    woken = sum(1 for act in TRACK_ACTIVATIONS if any(_new(m, s, act) for m, s in sheets))
    expected: Counter[int] = Counter()
    for seat, (marks, start) in enumerate(sheets):
        others = sum(
            1
            for symbol in LAYOUT.propagation_symbols
            if not _new(marks, start, symbol)
            and any(_new(m, s, symbol) for other, (m, s) in enumerate(sheets) if other != seat)
        )
        errors = any(_new(marks, start, box) for box in SELF_PROPAGATING)
        if woken + others + errors:
            expected[seat] = woken + others + errors
    return expected


def _command(state: GameState, seat: int, rng: random.Random) -> dict[str, Any]:
    decision = engine.options(state, seat)
    if decision.options and (decision.kind != "mission" or rng.random() < 0.5):
        return {"type": "move", "choice": rng.choice(decision.options)}
    return CONFIRM


def _ends_phase_4(state: GameState, seat: int, command: dict[str, Any]) -> bool:
    return (
        command == CONFIRM
        and state.phase == "actions"
        and all(other.confirmed for index, other in enumerate(state.seats) if index != seat)
    )


def propagations_given(events: list[Event]) -> Counter[int]:
    """The propagations phase 5 leaves each seat in these events (``propagation`` steps)."""
    given: Counter[int] = Counter()
    for event in events:
        if event["kind"] == "effects_pending" and event["seat"] is not None:
            given[event["seat"]] += event["data"]["effects"].count(PROPAGATION)
    return +given


def play(seed: int, players: int, moves: int) -> tuple[GameState, list[Event]]:
    """A random game, checking the count of propagations of every phase 5 as it goes."""
    events = engine.new_game(adventure=6, players=players, seed=seed)
    state = engine.replay(events)
    rng = random.Random(moves)
    while state.status == "playing" and state.turn <= MAX_TURNS:
        for seat in range(players):
            while engine.options(state, seat).kind != "wait":
                command = _command(state, seat, rng)
                ending = _ends_phase_4(state, seat, command)
                expected = expected_propagations(state) if ending else None
                new = apply(state, engine.decide(state, seat, command))
                events += new
                if expected is not None:
                    given = propagations_given(new)
                    assert given == expected, (state.turn, given, expected)
    return state, events


def _virus_quarter(marks: Marks, colour: str) -> str:
    """The quarter of the virus of ``colour`` on a sheet (grey: the circled empty target)."""
    return next(
        q.id
        for q in LAYOUT.quarters.values()
        if q.target is not None
        and marks.get(q.target) == "circle"
        and (q.colour == colour or (colour == "grey" and q.colour == "empty"))
    )


def check_log(events: list[Event]) -> None:
    """Every infection is in its virus's quarter, or spilled from it once it was complete
    through a walkway open at that moment; no quarter is evacuated twice."""
    state = GameState()
    evacuations: Counter[tuple[int, str]] = Counter()
    for event in events:
        data = event["data"]
        if event["kind"] == "mark" and str(data["mark"]).startswith("infected."):
            marks = state.sheets[data["sheet"]].marks
            source = LAYOUT.quarters[_virus_quarter(marks, str(data["mark"]).split(".", 1)[1])]
            target = LAYOUT.quarter_of[data["element"]].id
            if target != source.id:
                assert all(space in marks for space in source.spaces), event
                assert any(
                    neighbour == target and walkway not in marks
                    for walkway, neighbour in source.neighbours
                ), event
        if event["kind"] == "mark" and data["element"].endswith(".evacuated"):
            evacuations[(data["sheet"], data["element"])] += 1
        engine.evolve(state, event)
    assert all(count == 1 for count in evacuations.values()), evacuations


@SETTINGS
@given(seed=seeds, players=player_counts, moves=seeds)
def test_random_games_spread_viruses_by_the_rules(seed: int, players: int, moves: int) -> None:
    state, events = play(seed, players, moves)
    check_log(events)
    replayed = engine.replay(events)
    assert [sheet.marks for sheet in replayed.sheets] == [sheet.marks for sheet in state.sheets]
