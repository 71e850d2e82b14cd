"""Every event reads as one line of words in the reviewer's event list."""

import json
import random
from pathlib import Path

import pytest

from games.rules import engine
from games.rules.adventures import PLAYABLE
from games.rules.core.events import KINDS, Event
from games.rules.play import bots
from games.rules.read import narration

LOGS_V1 = sorted((Path(__file__).parent.parent / "fixtures" / "logs_v1").glob("*.json"))


def test_a_write_reads_as_the_issue_puts_it() -> None:
    event = engine.upcast({"kind": "number_written", "v": 2, "seat": 2, "turn": 7,
                           "data": {"sheet": 2, "combination": 1, "space": "f3.s4", "number": 11}})
    assert narration.describe(event) == "turn 7, seat 2 wrote 11 in f3.s4 (combination 1)"


@pytest.mark.parametrize(
    ("seat", "data", "line"),
    [
        (0, {"sheet": 0, "element": "energy.e01", "mark": "circle"}, "turn 3, seat 0 circled energy.e01"),
        (1, {"sheet": 1, "element": "rk.L1.1", "mark": "cross"}, "turn 3, seat 1 crossed rk.L1.1"),
        (1, {"sheet": 1, "element": "f8.s2", "mark": "X"}, "turn 3, seat 1 wrote X in f8.s2"),
        (0, {"sheet": 0, "element": "mission.A", "mark": 4}, "turn 3, seat 0 wrote 4 in mission.A"),
        (None, {"sheet": 2, "element": "floor1.s3", "mark": "infected.grey"},
         "turn 3: infected floor1.s3 (grey virus) on sheet 2"),
        (0, {"sheet": 1, "element": "wall.06", "mark": "line"},
         "turn 3, seat 0 drew a line on wall.06 on sheet 1"),
    ],
)
def test_marks_read_as_what_was_done_and_where(seat: int | None, data: dict[str, object], line: str) -> None:
    assert narration.describe({"kind": "mark", "v": 2, "seat": seat, "turn": 3, "data": data}) == line


def test_a_system_error_with_no_box_left_says_so() -> None:
    event: Event = {"kind": "system_error", "v": 3, "seat": 0, "turn": 9,
             "data": {"sheet": 0, "box": None, "cause": "no_writable_number"}}
    assert narration.describe(event) == (
        "turn 9, seat 0 had a System Error with no box left to circle (no writable number)"
    )


def test_every_kind_of_event_has_its_sentence() -> None:
    assert set(narration.TELLERS) == set(KINDS)


@pytest.mark.parametrize("adventure", sorted(PLAYABLE))
def test_every_event_of_a_game_reads_as_one_line(adventure: int) -> None:
    rng = random.Random(adventure)
    state, events = bots.play_game(adventure=adventure, bots=[bots.random_bot(rng) for _ in range(2)], seed=9)
    for event in [*events, engine.result_event(state)]:
        line = narration.describe(event)
        assert line.startswith(f"turn {event['turn']}") and "\n" not in line and "{" not in line


def test_older_events_read_once_upcast() -> None:
    for path in LOGS_V1:
        for event in json.loads(path.read_text(encoding="utf-8"))["events"]:
            assert narration.describe(engine.upcast(event))
