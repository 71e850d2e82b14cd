"""Properties of the Virus over random games (1-6 players, random moves and claims): infections
never cross a closed walkway, a quarter is evacuated once at most, phase 5 gives each player the
propagations of spec section 6.3, and replaying the log gives the same spread; and on random
sheets, propagations infect and evacuate exactly as the algorithm of spec section 6.4."""

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import engine
from games.rules.adventures.virus.rules import INFECTED_BY, PROPAGATION, _marked_this_turn
from games.rules.core.events import Recorder
from games.rules.core.sheet import Marks, open_gaps
from games.rules.core.state import Sheet
from games.rules.engine import Event, GameState
from tests.rules.playing import apply
from tests.rules.virus_helpers import GREY, LAYOUT, RULES, active, blank, evacuated, game

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


# --- one propagation against the spec's algorithm (6.4) -------------------------------------

# The propagation order as the spec writes it (left to right, top floor first).
SPEC_ORDER = ("q1L", "q1M", "q2M", "q2R", "q3L", "q3M", "q3R", "q4L", "q4M", "q5M", "q5R")
VIRUS_COLOURS = {"q1M": "red", "q2M": "green", "q3M": "purple", "q4M": "blue", "q5M": "yellow"}


def random_sheet(rng: random.Random) -> Marks:
    """A sheet with spaces numbered (X), infected or empty at random, walkways closed, energies
    circled and viruses active at random (grey in one of its quarters), complete quarters
    evacuated."""
    marks = blank()
    for space in LAYOUT.spaces:
        roll = rng.random()
        if roll < 0.4:
            marks[space] = "X" if roll < 0.3 else INFECTED_BY["grey"]
    marks |= {walkway: "line" for walkway in LAYOUT.walkways if rng.random() < 0.3}
    marks |= {q.energies[1]: "circle" for q in LAYOUT.quarters.values() if rng.random() < 0.5}
    marks |= active(rng.choice(LAYOUT.grey_candidates), *(q for q in VIRUS_COLOURS if rng.random() < 0.5))
    return evacuated(marks)


def leftmost_empty(marks: Marks, name: str) -> str | None:
    return next((s for s in LAYOUT.quarters[name].spaces if s not in marks), None)


def spec_propagations(marks: Marks, times: int) -> Marks:
    """Spec 6.4 read literally, each infection in the leftmost empty space: every active virus
    in the propagation order infects its quarter, or once that is complete one space of each
    neighbour behind an open walkway; complete quarters are evacuated before the next virus."""
    marks = dict(marks)
    for _ in range(times):
        for q in map(LAYOUT.quarters.__getitem__, SPEC_ORDER):
            if q.target is None or marks.get(q.target) != "circle":
                continue
            mark = INFECTED_BY[VIRUS_COLOURS.get(q.id, "grey")]
            own = leftmost_empty(marks, q.id)
            if own is not None:
                marks[own] = mark
            else:
                spills = (leftmost_empty(marks, n) for w, n in q.neighbours if w not in marks)
                marks |= {space: mark for space in spills if space is not None}
            marks = evacuated(marks)
    return marks


def engine_propagations(marks: Marks, times: int) -> Marks:
    """The engine's propagations on a one-seat game with this sheet, the seat infecting the
    leftmost empty space wherever it is asked."""
    rec = Recorder(game(sheet=marks))
    RULES.propagate(rec, 0, times=times)
    while rec.seat(0).pending:
        step = rec.seat(0).pending[-1][0]
        space = leftmost_empty(rec.sheet(0).marks, step.split(".")[1])
        RULES.play_effect(rec, 0, {"action": "infect", "effect": step, "space": space})
    return rec.sheet(0).marks


@settings(max_examples=60, deadline=None)
@given(seed=seeds, times=st.integers(min_value=1, max_value=3))
def test_propagations_infect_and_evacuate_as_the_spec_algorithm_says(seed: int, times: int) -> None:
    marks = random_sheet(random.Random(seed))
    assert engine_propagations(marks, times) == spec_propagations(marks, times)


def test_the_spaces_a_number_fits_are_the_gaps_taking_it_on_any_filling() -> None:
    """A pick's writes come from each floor's table of the spaces each number fits: on any
    filling (numbers out of order too, X and infections among them) a number fits the spaces of
    every floor's gaps whose open range takes it, in the floors' order."""
    rng = random.Random(26)
    marks_kinds = [None, None, None, "X", GREY, *range(18)]
    for _ in range(300):
        marks: Marks = {}
        for zone in LAYOUT.zone_spaces:
            for space in zone:
                mark = rng.choice(marks_kinds)
                if mark is not None:
                    marks[space] = mark
        fits = RULES._fits(marks)
        for number in range(18):
            expected = [
                space
                for zone in LAYOUT.zone_spaces
                for low, high, spaces in open_gaps(marks, zone)
                if low < number < high
                for space in spaces
            ]
            assert fits(number) == expected


def test_the_marks_of_a_turn_are_told_in_any_order_of_the_sheet() -> None:
    """Phase 5 reads what each sheet marked this turn: the marks past those of the turn's
    start, whether the sheet keeps them last (as a turn adds them) or in another order (as a
    stored copy may give them back)."""
    start: Marks = {"floor1.s1": 3, "walkway.w01": "line", "floor2.s1": 5}
    added: Marks = {"floor1.s2": 7, "error.2": "circle"}
    for marks in ({**start, **added}, {**added, **start}, {"floor1.s2": 7, **start, "error.2": "circle"}):
        sheet = Sheet(id=0, seats=(0,), marks=marks, error_boxes=(), turn_start_marks=dict(start))
        assert _marked_this_turn(sheet) == {"floor1.s2", "error.2"}
    unchanged = Sheet(id=0, seats=(0,), marks=dict(start), error_boxes=(), turn_start_marks=dict(start))
    assert _marked_this_turn(unchanged) == set()
