"""Logs recorded with an earlier event format replay to the same sheets and result today."""

import json
from pathlib import Path
from typing import Any

import pytest

from games.rules import engine

RECORDED = sorted((Path(__file__).parent.parent / "fixtures" / "logs_v1").glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    recorded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return recorded


@pytest.mark.parametrize("path", RECORDED, ids=[path.stem for path in RECORDED])
def test_a_recorded_game_replays_to_its_sheets_and_result(path: Path) -> None:
    recorded = load(path)
    expected = recorded["expected"]
    state = engine.replay(recorded["events"])
    assert state.status == "finished"
    assert state.turn == expected["turn"]
    assert state.end == expected["end"]
    assert state.result == expected["result"]
    for seat, sheet in enumerate(expected["sheets"]):
        view = engine.sheet_view(state, seat, viewer=None)
        assert view["marks"] == sheet["marks"]
        assert view["score"] == sheet["score"]


@pytest.mark.parametrize("path", RECORDED, ids=[path.stem for path in RECORDED])
def test_a_recorded_game_scores_the_same_when_scored_again(path: Path) -> None:
    events = load(path)["events"]
    assert events[-1]["kind"] == "result"
    state = engine.replay(events[:-1])
    assert engine.result_event(state)["data"] == events[-1]["data"]


def test_there_are_recorded_logs_of_every_adventure_of_that_format() -> None:
    assert {load(path)["adventure"] for path in RECORDED} == {1, 2, 3, 4}
