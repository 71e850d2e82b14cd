"""Logs recorded with earlier event formats replay to the same sheets and result today."""

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from games.rules import engine
from games.rules.core import events
from games.rules.engine import GameState

FIXTURES = Path(__file__).parent.parent / "fixtures"
RECORDED_V1 = sorted((FIXTURES / "logs_v1").glob("*.json"))
RECORDED_V2 = sorted((FIXTURES / "logs_v2").glob("*.json"))
RECORDED = RECORDED_V1 + RECORDED_V2


def load(path: Path) -> dict[str, Any]:
    recorded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return recorded


def replays_as_recorded(recorded: dict[str, Any], sheets: Iterable[tuple[int, dict[str, Any]]]) -> GameState:
    """Replay a recorded game and check its end, its result and each of ``sheets`` (by id: the
    marks and live score recorded)."""
    expected = recorded["expected"]
    state = engine.replay(recorded["events"])
    assert state.status == "finished"
    assert (state.turn, state.end, state.result) == (expected["turn"], expected["end"], expected["result"])
    for sheet, drawn in sheets:
        view = engine.sheet_view(state, sheet, viewer=None)
        assert (view["marks"], view["score"]) == (drawn["marks"], drawn["score"]), f"sheet {sheet}"
    return state


@pytest.mark.parametrize("path", RECORDED_V1, ids=[path.stem for path in RECORDED_V1])
def test_a_recorded_game_replays_to_its_sheets_and_result(path: Path) -> None:
    recorded = load(path)
    replays_as_recorded(recorded, enumerate(recorded["expected"]["sheets"]))  # by seat, = sheet id


@pytest.mark.parametrize("path", RECORDED_V2, ids=[path.stem for path in RECORDED_V2])
def test_a_game_recorded_with_the_version_2_setup_replays_to_its_sheets_and_result(path: Path) -> None:
    recorded = load(path)
    assert recorded["events"][0]["v"] == 2
    drawn = recorded["expected"]["sheets"]
    state = replays_as_recorded(recorded, ((int(sheet), marks) for sheet, marks in drawn.items()))
    assert len(state.sheets) == len(drawn)


@pytest.mark.parametrize("path", RECORDED, ids=[path.stem for path in RECORDED])
def test_a_recorded_game_scores_the_same_when_scored_again(path: Path) -> None:
    stored = load(path)["events"]
    assert stored[-1]["kind"] == "result"
    state = engine.replay(stored[:-1])
    assert engine.result_event(state)["data"] == stored[-1]["data"]


@pytest.mark.parametrize("path", RECORDED_V2, ids=[path.stem for path in RECORDED_V2])
def test_every_event_of_a_version_2_log_reads_as_a_current_event(path: Path) -> None:
    for stored in load(path)["events"]:
        read = engine.upcast(stored)
        assert read["v"] == events.KINDS[stored["kind"]].version
        assert engine.schema_problem(read) is None, stored


def test_there_are_recorded_logs_of_every_adventure_of_each_format() -> None:
    assert {load(path)["adventure"] for path in RECORDED_V1} == {1, 2, 3, 4}
    v2 = [load(path) for path in RECORDED_V2]
    assert {recorded["adventure"] for recorded in v2} == set(range(1, 9))
    assert {recorded["adventure"] for recorded in v2 if recorded["astra_level"]} == set(range(1, 9))
