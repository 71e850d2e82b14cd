"""Campaigns recorded before campaign events were chained replay to the same results today:
their own log to the same stars, captain and winners, each chapter's game to its result."""

import json
from pathlib import Path
from typing import Any

import pytest

from campaigns.rules.events import replay
from games.rules import engine

RECORDED = sorted((Path(__file__).parent.parent / "fixtures" / "logs_campaign_v1").glob("campaign-*.json"))


def load(path: Path) -> dict[str, Any]:
    recorded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return recorded


@pytest.mark.parametrize("path", RECORDED, ids=[path.stem for path in RECORDED])
def test_a_recorded_campaign_replays_to_its_stars_captain_and_winners(path: Path) -> None:
    recorded = load(path)
    expected = recorded["expected"]
    state = replay(recorded["events"])
    assert (state.status, state.winners, state.captain) == (
        expected["status"],
        expected["winners"],
        expected["captain"],
    )
    assert (state.stars(), state.totals()) == (expected["stars"], expected["totals"])
    attempts = [
        {"chapter": a.chapter, "attempt": a.number, "game": a.game, "winners": a.winners,
         "results": a.results, "awards": a.awards}
        for a in state.attempts
    ]  # fmt: skip
    assert attempts == expected["attempts"]


@pytest.mark.parametrize("path", RECORDED, ids=[path.stem for path in RECORDED])
def test_each_chapter_game_of_a_recorded_campaign_replays_to_its_stored_result(path: Path) -> None:
    recorded = load(path)
    assert len(recorded["games"]) == len(recorded["expected"]["attempts"])
    for game_id, game in recorded["games"].items():
        stored = game["events"]
        assert stored[-1]["kind"] == "result", game_id
        state = engine.replay(stored)
        assert state.status == "finished"
        assert engine.result_event(engine.replay(stored[:-1]))["data"] == stored[-1]["data"], game_id
